"""What a run makes: a frozen :class:`RunSpec`, which *is* the manifest's identity.

A spec names the rules (module id, overlays, rules folders, and once loaded the
module's record: version, hash, overlays), the seed and index range or a party
file's slots, the generation request (archetype, pins, requirements), the
formats and the sheet options. :meth:`RunSpec.to_manifest` is what
``manifest.json`` records of it (what ``--resume`` checks);
:meth:`RunSpec.from_manifest` reads it back, with the options the user gave
again; :meth:`RunSpec.differences` says, in the user's terms, how two runs differ.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from chargen import __version__
from chargen.choices import DEFAULT_CARDS_PER_PAGE, DEFAULT_PAPER
from chargen.engines import DEFAULT_LAYOUT
from chargen.generate import SCHEMA_VERSION, GenerationRequest
from chargen.run.files import MANIFEST_SCHEMA
from chargen.seeds import SEED_DERIVATIONS

DEFAULT_PARTY_NAME = "The party"


@dataclass(frozen=True)
class SheetOptions:
    formats: tuple[str, ...] = ("pdf",)   # the sheet formats of the run
    paper: str = DEFAULT_PAPER            # chargen.choices.PAPERS
    template_dir: Path | None = None
    jobs: int = 0                         # worker processes; 0: one per core
    party_name: str | None = None
    layout: str = DEFAULT_LAYOUT          # one of the engines' layouts (chargen.engines.Layout)
    cards_per_page: int = DEFAULT_CARDS_PER_PAGE  # a layout whose cards a page are chosen: chargen.choices.CARDS_PER_PAGE
    pdf_variant: str | None = None        # one of chargen.choices.PDF_VARIANTS
    compare: bool = False                 # party.pdf carries the party at a glance (chargen.render.glance)
    card_backs: bool = False              # cards continue on their backs (pages in front and back pairs)
    each_pdf: bool = False                # block and card layouts: a PDF of each character too (else party.pdf only)
    against: str | None = None            # the side the encounter is meant for, as given (chargen.fight.encounter)
    against_from: str = ""                # the folder ``against`` is relative to (a party file's); "": the current one

    @property
    def workers(self) -> int:
        return self.jobs or os.cpu_count() or 1

    @property
    def title(self) -> str:
        return self.party_name or DEFAULT_PARTY_NAME

    @property
    def pdf_each(self) -> bool:
        """Whether a pdf batch writes a PDF of each character: always in a layout of whole sheets; in the
        block and card layouts (party.pdf is the encounter sheet or the cards) only with ``each_pdf``."""
        return self.each_pdf or not layout_collects(self.layout)

    def per_character(self, formats: tuple) -> tuple:
        """The formats of ``formats`` (:class:`chargen.formats.Format`) with a file per character."""
        return tuple(f for f in formats if f.per_character and (f.name != "pdf" or self.pdf_each))


@dataclass(frozen=True, slots=True)
class Slot:
    """How one character of a batch is made: ``make_character(module, seed, index, request)``."""

    seed: int
    index: int
    request: GenerationRequest


@dataclass(frozen=True)
class Members:
    """A batch whose characters are not all one seed's indices (a party file): the slot of
    each file index, and what the manifest records of the plan (``record``: the party file,
    its hash and its lines with their rolled counts)."""

    slots: tuple[Slot, ...]
    record: dict
    relations: dict | None = None  # file index -> its relations in the party (chargen.flavour.relations)


@dataclass(frozen=True)
class Saved:
    """A run of saved characters' sheets (``chargen render``): the files planned
    (:func:`chargen.run.saved.plan`, in order) and the rules modules they were made with
    (none: as stored). Such a run writes no manifest."""

    planned: tuple
    modules: tuple = ()


def run_versions(derivation: int = 2) -> dict:
    """The manifest, chargen, character and seed schemas a run records (``derivation``: the seed
    derivation's number, :data:`chargen.seeds.SEED_DERIVATIONS`; a resumed run keeps its manifest's)."""
    text = next(t for t, n in SEED_DERIVATIONS.items() if n == derivation)
    return {"schema": MANIFEST_SCHEMA, "chargen": __version__, "character_schema": SCHEMA_VERSION,
            "seed_derivation": text}


def _versions() -> dict:
    return run_versions()


@dataclass(frozen=True)
class RunSpec:
    """One run: what it makes. ``rules`` is the loaded module's record (:meth:`with_module`)."""

    system: str
    seed: int
    first: int = 0
    count: int = 1
    formats: tuple[str, ...] = ("json",)
    request: GenerationRequest | None = None
    sheets: SheetOptions = SheetOptions(formats=())
    members: Members | None = None
    saved: Saved | None = None         # saved characters' sheets, in place of a seed's characters
    overlays: tuple[Path, ...] = ()
    rules_dirs: tuple[Path, ...] = ()
    rules: Mapping | None = None       # id, version, rules_hash, overlays: of the module loaded (or recorded)
    versions: Mapping = field(default_factory=_versions)  # the manifest, chargen, character and seed schemas

    @property
    def indices(self) -> range:
        return range(self.first, self.first + self.count)

    @property
    def title(self) -> str:
        """The party's name in batch files (party.pdf's title, meg's party_name)."""
        return self.sheets.title

    @property
    def sheet_formats(self) -> tuple[str, ...]:
        from chargen.formats import names

        return tuple(f for f in self.formats if f in names(sheet=True))

    @classmethod
    def of_saved(cls, planned, modules: tuple, sheets: SheetOptions, formats: tuple[str, ...] | None = None) -> RunSpec:
        """A render of saved characters (``chargen render``): no seed, no system of its own (each
        character carries its own rules), the sheet formats and any data ``formats`` (converting;
        default: the sheet formats only), no manifest."""
        return cls("", 0, count=len(planned), formats=formats or sheets.formats, sheets=sheets,
                   saved=Saved(tuple(planned), tuple(modules)))

    def with_module(self, module) -> RunSpec:
        """This spec with the record of ``module`` (the rules it is made with)."""
        return replace(self, system=module.id, rules={
            "id": module.id, "version": module.version, "rules_hash": module.hash,
            "overlays": [dict(o) for o in module.overlays]})

    def to_manifest(self) -> dict:
        """What makes a run the same run: the manifest's fields that --resume checks."""
        if self.rules is None:
            raise ValueError("RunSpec.to_manifest: no rules module (call with_module first)")
        v = self.versions
        ident = {"schema": v["schema"], "chargen": v["chargen"], "character_schema": v["character_schema"],
                 "system": {k: self.rules[k] for k in ("id", "version", "rules_hash", "overlays")},
                 "seed": self.seed, "seed_derivation": v["seed_derivation"], "first_index": self.first,
                 "count": self.count, "formats": list(self.formats)}
        asked = self.request.asked() if self.request is not None else {}
        if asked:
            ident["request"] = asked
        if self.members is not None:
            ident["party"] = self.members.record
        ident.update(self._sheet_record())
        if self.request is not None and self.request.pins:
            ident["pins"] = [list(p) for p in self.request.pins]
        if self.request is not None and self.request.forced:
            ident["force"] = True  # a pin past the rules' range: --resume takes it only then
        if self.request is not None and self.request.requires:
            ident["requires"] = [str(r) for r in self.request.requires]
        if self.request is not None and not self.request.flavour:
            ident["flavour"] = False  # --no-flavour (recorded only when set)
        return ident

    def _sheet_record(self) -> dict:
        """The sheet options that change a file's bytes (with sheets: paper, party name, layout, ...;
        with a batch file only: the party's name, which it may carry)."""
        from chargen.formats import resolve

        s = self.sheets
        if self.sheet_formats:
            record = {"paper": s.paper, "party_name": s.title, "layout": s.layout}
            if layout_chooses_cards(s.layout):
                record["cards_per_page"] = s.cards_per_page
            if s.pdf_variant:
                record["pdf_variant"] = s.pdf_variant
            if s.compare:
                record["compare"] = True
            if s.card_backs and layout_chooses_cards(s.layout):
                record["card_backs"] = True
            if s.each_pdf and layout_collects(s.layout):
                record["each_pdf"] = True
            if s.against:
                record["against"] = s.against
            return record
        if any(f.batch_file for f in resolve(self.formats)):
            return {"party_name": s.title}
        return {}

    @classmethod
    def from_manifest(cls, manifest: Mapping, given: Mapping, folder: Path | None = None) -> RunSpec:
        """The run a manifest records, for ``--resume``: ``given`` maps the options the user gave
        again (``system``, ``seed``, ``first``, ``count``, ``formats``, ``paper``, ``party_name``,
        ``layout``, ``cards_per_page``, ``pdf_variant``, ``compare``, ``card_backs``, ``each_pdf``) to their values; one that is not the
        manifest's is refused (naming ``folder``). Pins and requirements are read as recorded (check them against the
        rules before use: :func:`chargen.run.resume.resumed_request`)."""
        from chargen.run.resume import recorded_options

        taken = recorded_options(manifest, given, folder)
        sheets = SheetOptions(formats=(), paper=taken["paper"] or DEFAULT_PAPER, party_name=taken["party_name"],
                              layout=taken["layout"] or DEFAULT_LAYOUT,
                              cards_per_page=taken["cards_per_page"] or DEFAULT_CARDS_PER_PAGE,
                              pdf_variant=taken["pdf_variant"], compare=bool(taken["compare"]),
                              card_backs=bool(taken["card_backs"]), each_pdf=bool(taken["each_pdf"]),
                              against=taken["against"])
        spec = cls(system=taken["system"], seed=taken["seed"], first=taken["first"], count=taken["count"],
                   formats=taken["formats"], request=_recorded_request(manifest), sheets=sheets,
                   rules=dict(manifest["system"]),
                   versions={k: manifest.get(k) for k in _versions()})
        return replace(spec, sheets=replace(sheets, formats=spec.sheet_formats))

    def differences(self, other: RunSpec | Mapping) -> list[str]:
        """What differs between ``other`` (a spec, or the manifest of the run in a folder) and this
        run, one line each in the user's terms (none: the same run)."""
        from chargen.run.resume import differences

        old = other.to_manifest() if isinstance(other, RunSpec) else other
        return differences(old, self.to_manifest())


def layout_collects(layout_id: str) -> bool:
    """Whether a layout sets several characters to a page (block, card): its party.pdf is their collection."""
    from chargen import engines

    return engines.layout_scope(layout_id).fragment


def layout_chooses_cards(layout_id: str) -> bool:
    """Whether a layout's characters a page are chosen with --cards-per-page (recorded in the manifest)."""
    from chargen import engines

    return engines.layout_scope(layout_id).choices is not None


def _parsed(text: str) -> object:
    """A recorded requirement parsed (as text when it does not parse: the rules check refuses it)."""
    from chargen.errors import ChargenError
    from chargen.require import parse

    try:
        return parse(text)
    except ChargenError:
        return text


def _recorded_request(manifest: Mapping) -> GenerationRequest | None:
    """The manifest's request, pins and requirements as recorded (requirements parsed, not yet checked)."""
    asked = manifest.get("request") if isinstance(manifest.get("request"), dict) else {}
    asked = {k: v for k, v in asked.items() if isinstance(v, str) and k in ("archetype", "profession", "years")}
    pins = tuple(tuple(p) for p in manifest.get("pins", []) if isinstance(p, list))
    requires = tuple(_parsed(str(r)) for r in manifest.get("requires", []))
    flavour = manifest.get("flavour", True) is not False
    if not (asked or pins or requires) and flavour:
        return None
    derivation = SEED_DERIVATIONS.get(manifest.get("seed_derivation"), 1)  # checked: chargen.run.manifestcheck
    return GenerationRequest(**asked, pins=pins, requires=requires, flavour=flavour, derivation=derivation)
