"""The engine contract and the one registry of engines and their layouts.

An :class:`Engine` is declared once per rules system, as a typed object: how
it builds typed rules from a module's YAML, how it makes a character from a
request, what the name service groups characters by, which bounds its
characters can reach under the loaded rules, what ``chargen roll`` resolves
with which options, and the layouts (sheet views) it offers. A new engine is
one package and one :func:`register` call; nothing else in chargen names it.

The built-in engines are registered when first asked for (importing one costs
its rules code, so a command imports only the engines it uses). An installed
package declares its engines in the entry-point group ``chargen.engines``
(:data:`ENTRY_POINTS`): the name is the engine id, the value the module whose
import registers it (``pkg.engine``) or the engine object (``pkg.engine:ENGINE``).
They are read only when an engine id is not a built-in one, or when every engine
is listed; a broken one is one :class:`ChargenError` naming its distribution.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import metadata, resources
from pathlib import Path

from chargen.choices import CARDS_PER_PAGE
from chargen.errors import ChargenError
from chargen.view import CharacterView, plain, with_flavour

BUILTIN = {  # engine id -> the package whose import registers it
    "d100": "chargen.systems.d100",
    "kotm": "chargen.systems.kotm",
    "rtd": "chargen.systems.rtd",
}
ENTRY_POINTS = "chargen.engines"  # the entry-point group installed packages declare their engines in
# the layouts every built-in engine offers (:func:`sheet_block_card`), in the order --help lists them;
# the first is the default: a full page a character
BUILTIN_LAYOUTS = ("sheet", "block", "card")
DEFAULT_LAYOUT = BUILTIN_LAYOUTS[0]


@dataclass(frozen=True, slots=True)
class RollOption:
    """One option of ``chargen roll --system``: ``--<name>`` on the command line."""

    name: str                      # python name: "damage_mod" is --damage-mod
    kind: str                      # "int", "flag" or "text"
    help: str
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return flag(self.name)


def flag(name: str) -> str:
    """A roll option's name as the command line spells it: ``damage_mod`` is ``--damage-mod``."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True, slots=True)
class NameScheme:
    """What a character's name depends on, so the name service can keep names unique.

    ``draw(rules, roller)`` makes the identity rolls a name depends on and returns
    them as an ordered mapping (d100: background and sex; KoTM and RTD: sex). The
    pipeline makes these rolls first, before the engine's ``generate``, on the
    character's own generator, or on a separate identity generator when
    ``separate`` is set; the name service replays them for earlier indices to
    rank the character within its group. ``key`` prefixes the group's name permutation.
    """

    key: str
    draw: Callable[..., Mapping[str, str]]
    separate: bool = False
    uses_request: bool = False  # draw(rules, roller, request): the request changes the group (a d100 archetype's background)


@dataclass(frozen=True, slots=True)
class View:
    """What a layout's template is given: the character and the figures its layout adds."""

    character: dict
    figures: Mapping


@dataclass(frozen=True, slots=True)
class Layout:
    """One layout of one engine: its template and the figures its :class:`View` adds to the character.

    ``figures(doc, rules)`` gets the rules the character was made with when
    ``needs_rules`` is set (odds and tables from the rules), else ``None``.
    ``folder`` is where the template lives when it is not among the built-in
    templates (an engine outside the package); ``--template-dir`` still overrides it.
    ``fragment``: the template draws one character's part of a page (a stat block,
    a card), which the shared ``collection.html.j2`` sets on pages, several to a
    page; else it is a whole page of its own (the full sheet, extending ``base.html.j2``).

    The scope of a fragment layout: ``per_page``, a fixed number of characters a page
    (each page a ``<section class="<id>-page">``, each character an ``<article class="<id>">``);
    ``choices``, the numbers a page ``--cards-per-page`` chooses from (the card layout: 4 or 9);
    neither: the fragments flow two a row (the block layout). ``chunk``: the characters
    in each document party.pdf is laid out in (whole pages). ``encounter``: party.pdf opens
    with the encounter roster and groups the characters by archetype.
    """

    id: str
    template: str
    figures: Callable[[dict, object], Mapping]
    needs_rules: bool = False
    folder: Path | None = None
    fragment: bool = False
    per_page: int | None = None
    choices: tuple[int, ...] | None = None
    chunk: int = 240
    encounter: bool = False
    engine: str = ""               # set by register()

    def characters_a_page(self, chosen: int) -> int | None:
        """How many characters a page of this layout holds (``chosen``: --cards-per-page); None: they flow."""
        return chosen if self.choices is not None else self.per_page


def sheet_block_card(sheet: str, fragment: str, figures: Callable[[dict, object], Mapping],
                     fragment_figures: Callable[[dict, object], Mapping] | None = None,
                     needs_rules: bool = False) -> dict[str, Layout]:
    """An engine's three layouts: the full ``sheet`` template, and the stat block and the card on one
    ``fragment`` template (given ``fragment_figures``, else the sheet's ``figures``)."""
    part = fragment_figures or figures
    full, block, card = BUILTIN_LAYOUTS
    return {full: Layout(full, sheet, figures, needs_rules=needs_rules),
            block: Layout(block, fragment, part, needs_rules=needs_rules, fragment=True, encounter=True),
            card: Layout(card, fragment, part, needs_rules=needs_rules, fragment=True, choices=CARDS_PER_PAGE,
                         chunk=72)}


@dataclass(frozen=True)
class Engine:
    id: str
    label: str
    build_rules: Callable           # (docs, problems) -> typed rules
    generate: Callable              # (rules, request, ctx) -> body dict
    names: NameScheme
    schema: Mapping                 # JSON Schema of the body (structure and format limits)
    bounds: Callable = lambda rules: {}  # rules -> {JSON pointer in schema: (min, max)}
    check_document: Callable = lambda doc, rules: []  # (schema-valid doc, rules) -> problems: ids the rules lack
    reads: Mapping = field(default_factory=dict)  # kind -> {role: id} its code reads (checked by build_rules)
    roll_options: tuple[RollOption, ...] = ()
    resolve: Callable | None = None  # (rules, roller, options) -> Resolution
    roll_examples: tuple[Mapping, ...] = ()  # option sets that resolve (help, conformance tests)
    layouts: Mapping[str, Layout] = field(default_factory=dict)
    archetypes: Callable = lambda rules: ()  # rules -> its archetypes (objects with id, label, varies)
    check_request: Callable = lambda rules, request: []  # (rules, request) -> problems (one line each)
    # (doc, rules or None) -> the character's typed view (chargen.view): what csv, text, the cover
    # roster, the block and card fragments and `chargen stats` (its key_figures) read
    view: Callable[[dict, object], CharacterView] = plain
    pins: Callable = lambda rules: {}  # rules -> {path: chargen.pins.PinTarget}: what --set may pin
    # (rules, doc, trail) -> body: the derived values recomputed from the document's inputs
    # (rolls, choices, pins, hand edits), each recorded on the trail; None: the engine cannot
    recompute: Callable | None = None
    fill: Callable | None = None  # (rules, doc) -> problems: entries given by id completed (chargen.fill)
    # the folders of the rules modules an engine outside the package ships (each with its module.yaml):
    # listed by `chargen systems` and loaded by id, without --rules-dir
    modules: tuple[Path, ...] = ()
    # (doc, chargen.ranks.Rank) -> int: an archetype's signature figure (its rank's band holds it)
    signature: Callable | None = None
    # the weapon figure the path best_weapon ranks the usable weapons by (chargen.paths; "": none)
    best_weapon: str = ""
    # rules -> {list key: the ids its records can have} (weapons, skills): paths enter them by id
    ids: Callable = lambda rules: {}
    # (rules, draws, attacker doc, defender doc, chargen.combat.Choices) -> Resolution: one attack between two
    # characters (`chargen roll --attacker --defender`); every random value from draws (chargen.combat)
    combat: Callable | None = None
    # the module's files read only in play (the combat tables), not to make a character: the rules hash leaves
    # them out, so a character made before they changed still finds its rules
    play_files: tuple[str, ...] = ()
    # its fight rules (chargen.fight.play describes them): `chargen fight` and the encounter estimate
    fight: object | None = None


def read_schema(package: str, name: str = "schema.json") -> dict:
    """An engine package's body schema (a JSON file shipped beside its code)."""
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


_ENGINES: dict[str, Engine] = {}
_REGISTERED_BY: dict[str, str] = {}  # engine id -> the module whose import registers it
_LAYOUTS_BY: dict[tuple[str, str], str] = {}  # (engine, layout) added by register_layout -> the module that did


def register(engine: Engine) -> Engine:
    """Add ``engine`` to the registry (again: replace it). Returns it, for ``ENGINE = register(...)``."""
    for option in engine.roll_options:
        other = _option_owner(option.name, engine.id)
        if other is not None and other != option:
            raise ValueError(f"roll option {option.flag} of engine '{engine.id}' differs from the one "
                             f"another engine declares (kind {other.kind} vs {option.kind})")
    layouts = {k: replace(v, engine=engine.id) for k, v in engine.layouts.items()}
    object.__setattr__(engine, "layouts", layouts)
    _ENGINES[engine.id] = engine
    # the caller's module: importing it registers the engine again in a worker process
    _REGISTERED_BY[engine.id] = sys._getframe(1).f_globals.get("__name__", "")
    return engine


def register_layout(engine_id: str, entry: Layout) -> Layout:
    """Add a layout to a registered engine (a new layout is one template and this one call)."""
    engine = require(engine_id)
    entry = replace(entry, engine=engine_id)
    object.__setattr__(engine, "layouts", {**engine.layouts, entry.id: entry})
    _LAYOUTS_BY[(engine_id, entry.id)] = sys._getframe(1).f_globals.get("__name__", "")
    return entry


def unregister_layout(engine_id: str, layout_id: str) -> None:
    """Remove a layout :func:`register_layout` added (tests)."""
    engine = _ENGINES.get(engine_id)
    if engine is not None and _LAYOUTS_BY.pop((engine_id, layout_id), None) is not None:
        object.__setattr__(engine, "layouts", {k: v for k, v in engine.layouts.items() if k != layout_id})


def layout_ids() -> list[str]:
    """Every layout of every engine, in the order the engines declare them (the --layout choices)."""
    return list(dict.fromkeys(k for e in all_engines() for k in e.layouts))


def listed_layout_ids() -> list[str]:
    """The layouts --help lists, without importing an engine: the built-in ones, then those of the
    engines registered so far (:func:`layout_ids` imports every engine, to check a value)."""
    return list(dict.fromkeys([*BUILTIN_LAYOUTS, *(k for e in list(_ENGINES.values()) for k in e.layouts)]))


def layout_scope(layout_id: str) -> Layout:
    """The layout ``layout_id`` of the first engine that has it (a layout's scope is the same in every
    engine that offers it); an unknown id is a page per character."""
    for engine in list(_ENGINES.values()) + all_engines():
        if layout_id in engine.layouts:
            return engine.layouts[layout_id]
    return Layout(layout_id, "", lambda doc, rules: {})


def _option_owner(name: str, skip: str) -> RollOption | None:
    for e in _ENGINES.values():
        if e.id != skip:
            for o in e.roll_options:
                if o.name == name:
                    return o
    return None


def get(engine_id: str) -> Engine | None:
    """The engine registered as ``engine_id`` (a built-in one is imported on first use, an installed
    package's when its entry point is first read), or None."""
    if engine_id not in _ENGINES and engine_id in BUILTIN:
        importlib.import_module(BUILTIN[engine_id])
    elif engine_id not in _ENGINES and engine_id in _entry_points():
        _load_entry_point(_entry_points()[engine_id])
    return _ENGINES.get(engine_id)


def require(engine_id: str) -> Engine:
    engine = get(engine_id)
    if engine is None:
        raise ChargenError(f"no engine '{engine_id}' (expected one of: {', '.join(ids())})")
    return engine


def ids() -> list[str]:
    return sorted(set(BUILTIN) | set(_ENGINES) | set(_entry_points()))


def installed() -> list[Engine]:
    """The engines from outside the package: registered at run time or declared by an installed package."""
    return [require(i) for i in ids() if i not in BUILTIN]


@functools.cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    """Engine id -> the entry point an installed package declares it with (the first one found)."""
    found: dict[str, metadata.EntryPoint] = {}
    for point in metadata.entry_points(group=ENTRY_POINTS):
        found.setdefault(point.name, point)
    return found


def _load_entry_point(point: metadata.EntryPoint) -> None:
    where = f"engine entry point '{point.name} = {point.value}'"
    if point.dist is not None:
        where += f" of {point.dist.name} {point.dist.version}"
    try:
        load_spec(point.value)
    except Exception as e:  # noqa: BLE001 - whatever the package raises: one line naming it
        raise ChargenError(f"{where} does not load: {type(e).__name__}: {e}") from None
    if point.name not in _ENGINES:
        raise ChargenError(f"{where} registers no engine '{point.name}' (an entry point of {ENTRY_POINTS} "
                           "is named after the id of the engine it registers)")


def load_spec(spec: str) -> None:
    """Import ``module`` (its import registers engines), or ``module:attr`` and register that engine
    when importing did not (its spec is then what a worker process loads again)."""
    module_name, _, attr = spec.partition(":")
    obj = importlib.import_module(module_name.strip())
    for part in attr.strip().split(".") if attr.strip() else ():
        obj = getattr(obj, part)
    if isinstance(obj, Engine) and _ENGINES.get(obj.id) is not obj:
        register(obj)
        _REGISTERED_BY[obj.id] = spec


def all_engines() -> list[Engine]:
    """Every engine, the built-in ones imported."""
    return [require(i) for i in ids()]


def layout(engine_id: str, layout_id: str) -> Layout | None:
    """The (layout, engine) entry of the registry, or None when either is unknown."""
    engine = get(engine_id)
    return engine.layouts.get(layout_id) if engine is not None else None


def layout_folders() -> list[Path]:
    """The template folders of registered engines that ship their own (outside the built-in templates)."""
    return list(dict.fromkeys(lay.folder for e in _ENGINES.values() for lay in e.layouts.values() if lay.folder))


def external_modules() -> list[str]:
    """The modules that registered engines (or layouts) from outside the package (imported again in
    worker processes)."""
    engines = [m for i, m in _REGISTERED_BY.items() if i not in BUILTIN]
    return [m for m in dict.fromkeys(engines + list(_LAYOUTS_BY.values())) if m != "__main__"]


def import_modules(names: list[str]) -> None:
    """Load the modules (or ``module:attr`` specs) that register external engines (in a worker
    process, before any sheet)."""
    for name in names:
        load_spec(name)


def unregister(engine_id: str) -> None:
    """Remove an engine registered at run time (tests); built-in engines come back on next use."""
    _ENGINES.pop(engine_id, None)
    _REGISTERED_BY.pop(engine_id, None)


def view_of(doc: dict, rules: object = None) -> CharacterView:
    """The typed view of ``doc`` by its engine (:func:`chargen.view.plain` for an engine not registered here)."""
    engine = get(doc["system"].get("engine", doc["system"]["id"]))
    return with_flavour(plain(doc, rules) if engine is None else engine.view(doc, rules), doc)
