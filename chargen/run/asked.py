"""The generation request as the user asks for it, and the run it makes (new or resumed).

:class:`Asked` is what the options say of every character (archetype,
profession, years, ``--set``, ``--require``); :meth:`Asked.request` checks it
against the loaded rules and makes the :class:`~chargen.generate.GenerationRequest`.
:func:`new_run` and :func:`resumed_run` turn the options into a
:class:`~chargen.run.spec.RunSpec` and its loaded module: the CLI's only business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from chargen.errors import OutputError
from chargen.run.spec import RunSpec, SheetOptions


@dataclass(frozen=True)
class Asked:
    """What the user asked of every character: the request's fields and their texts, as given."""

    archetype: str | None = None
    profession: str | None = None
    years: str | None = None
    sets: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    force: bool = False
    flavour: bool = True  # False: --no-flavour

    @property
    def given(self) -> bool:
        return any(v is not None for v in (self.archetype, self.profession, self.years))

    def base(self):
        from chargen.generate import GenerationRequest

        return GenerationRequest(archetype=self.archetype, profession=self.profession, years=self.years,
                                 flavour=self.flavour)

    def request(self, module, base=None):
        """The request, checked against ``module``'s rules: ``base`` (default: the archetype, profession
        and years asked) with the pins of ``--set`` and the constraints of ``--require``."""
        from chargen import pins

        base = self.base() if base is None else base
        targets = pins.module_targets(module)
        pinned = pins.resolve(targets, self.sets, self.force)
        return with_requires(module, replace(base, pins=pinned, forced=_past_range(targets, self)), self.requires)


def _past_range(targets, asked: Asked) -> bool:
    """Whether a pin of ``asked`` needed its ``--force``: one the rules' range refuses."""
    from chargen import pins

    if not (asked.force and asked.sets):
        return False
    try:
        pins.resolve(targets, asked.sets)
    except pins.PinError:
        return True
    return False


def with_requires(module, request, texts: tuple[str, ...] | list[str]):
    """``request`` with the requirements ``texts`` (``--require``, a party line's ``require:``), each
    path checked against a character of the request (the paths a character has) and the rules' ids."""
    from chargen import engines, require
    from chargen.generate import make_attempt

    if not texts:
        return request
    sample = make_attempt(module, 0, 0, request.for_index(0), 0)[0]
    ids = engines.require(module.engine).ids(module.rules)
    return replace(request, requires=require.parse_all(tuple(texts), sample, ids))


def check_formats(formats: tuple[str, ...], module) -> None:
    """A format for some engines only (meg, foundry, statblock) refused before any folder is made."""
    from chargen.formats import FORMATS

    for name in formats:
        FORMATS[name].check_engine(module.engine)


def new_run(system: str, seed: int | None, first: int, count: int, formats: tuple[str, ...], asked: Asked,
            sheets: SheetOptions, overlays: tuple[Path, ...] = (), rules_dirs: tuple[Path, ...] = ()):
    """The spec of a new run from the options, and its module (the rules loaded and the request checked)."""
    from chargen.generate import check_request
    from chargen.rules import load_module
    from chargen.seeds import draw_batch_seed

    module = load_module(system, overlays, rules_dirs)
    check_formats(formats, module)
    base = asked.base()
    check_request(module, base)
    request = asked.request(module, base)
    spec = RunSpec(system, draw_batch_seed() if seed is None else seed, first, count, formats, request, sheets,
                   overlays=overlays, rules_dirs=rules_dirs)
    return spec.with_module(module), module


def resumed_run(folder: Path, given: Mapping, asked: Asked, sheets: SheetOptions,
                overlays: tuple[Path, ...] = (), rules_dirs: tuple[Path, ...] = ()):
    """The spec of the run in ``folder`` (options not ``given`` are its manifest's; one given must
    match), and its module; ``sheets``: the options not recorded (templates, workers)."""
    from chargen.rules import load_module
    from chargen.run.files import read_manifest
    from chargen.run.spec import run_versions
    from chargen.seeds import SEED_DERIVATIONS

    from chargen.run.resume import refuse_other_command

    manifest = read_manifest(folder)
    refuse_other_command(manifest, "generate", folder)
    recorded = RunSpec.from_manifest(manifest, given, folder)
    module = load_module(recorded.system, overlays, rules_dirs)
    check_formats(recorded.formats, module)
    check_recorded(module, manifest, folder / "manifest.json")
    derivation = SEED_DERIVATIONS[manifest["seed_derivation"]]  # checked by read_manifest: the batch keeps its own
    request = replace(_resumed_request(module, manifest, asked), derivation=derivation)
    spec = replace(recorded, request=request, overlays=overlays, rules_dirs=rules_dirs, versions=run_versions(derivation),
                   sheets=replace(recorded.sheets, template_dir=sheets.template_dir, jobs=sheets.jobs))
    return spec.with_module(module), module


def check_recorded(module, manifest: Mapping, path: Path) -> None:
    """What the manifest records of the request (archetype, profession, years, pins, requirements) and
    the layout, checked against the rules as a new run's options are; one that is not is an error
    naming the manifest and the key (a complete batch is checked too)."""
    from chargen import engines
    from chargen.errors import ChargenError
    from chargen.generate import GenerationRequest, check_request

    recorded = manifest.get("request", {})
    fields = {k: recorded.get(k) for k in ("archetype", "profession", "years")}
    layout = manifest.get("layout")
    if layout is not None and engines.layout(module.engine, layout) is None:
        raise OutputError(f"{path}: layout: the {module.engine} engine has no {layout!r} layout")
    for key, check in (("request", lambda: check_request(module, GenerationRequest(**fields))),
                       ("pins", lambda: Asked(**fields, sets=tuple(_pin_text(p) for p in manifest.get("pins", [])),
                                              force=_forced(manifest)).request(module)),
                       ("requires", lambda: Asked(**fields, requires=tuple(manifest.get("requires", []))).request(module))):
        try:
            check()
        except ChargenError as e:
            raise OutputError(f"{path}: {key}: " + str(e).replace(
                "add --force to pin it anyway", "the batch was not made with --force (the manifest was changed; "
                "make the batch again, with --force to pin it)")) from None


def _forced(manifest: Mapping) -> bool:
    """Whether the batch's pins were taken with ``--force`` (recorded only then: RunSpec.to_manifest)."""
    return manifest.get("force") is True


def _resumed_request(module, manifest: Mapping, asked: Asked):
    """The request of the batch being resumed: the manifest's archetype, profession and years unless
    given again, with its pins and constraints (checked again against the rules); --set and --require
    given again must be the same."""
    recorded = manifest.get("request") if isinstance(manifest.get("request"), dict) else {}
    fields = {k: getattr(asked, k) for k in ("archetype", "profession", "years")} if asked.given else \
        {k: v if isinstance(v := recorded.get(k), str) else None for k in ("archetype", "profession", "years")}
    texts = tuple(_pin_text(pin) for pin in manifest.get("pins", []))
    flavour = manifest.get("flavour", True) is not False
    if not asked.flavour and flavour:
        raise OutputError("cannot resume: the batch was made with its flavour tables (give no --no-flavour)")
    again = Asked(**fields, sets=texts, requires=tuple(str(t) for t in manifest.get("requires", [])),
                  force=_forced(manifest), flavour=flavour)
    request = again.request(module)
    if asked.sets or asked.requires:
        given = replace(asked, **fields, flavour=flavour).request(module)
        if given.pins != request.pins or tuple(map(str, given.requires)) != tuple(map(str, request.requires)):
            raise OutputError("cannot resume: the batch was made with other --set/--require options "
                              "(give none, or the manifest's)")
    return request


def _pin_text(pin: object) -> str:
    if not isinstance(pin, list) or len(pin) not in (2, 3):
        raise OutputError(f"cannot resume: the manifest's pins hold {str(pin)[:60]} (expected [path, value])")
    return "=".join(map(str, pin[-2:])) if len(pin) == 2 else f"{pin[0]}:{pin[1]}={pin[2]}"
