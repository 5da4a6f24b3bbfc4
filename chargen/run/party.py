"""Party and encounter files: a whole encounter from one YAML file, as one batch.

::

    name: Bandits of the Old Road
    system: d100
    seed: 20261201
    members:
      - {archetype: bandit_chief, name: Red Ulf}
      - {archetype: bandit, count: 1D4+2}
      - {archetype: hedge_archer, count: 2, years: 3}
    formats: [json, pdf]

Each member line has a *key*: its ``key:``, or else its archetype id and its
occurrence among the lines of that archetype without a ``key:``
(``bandit#1``, ``bandit#2``; a line without an archetype is ``plain#N``). The
line's seed and its count roll depend only on the file's seed and the key::

    line seed  = int(sha256(b"chargen/party/1:<file seed>:<key>")[:8])
    count roll = the count dice on a generator seeded with sha256(b"chargen/party/1/count:<file seed>:<key>")[:8]

so adding, removing or reordering lines, or changing a line's count, changes
no other line's characters (their documents, byte for byte). Character *j* of
a line is ``make_character(module, line seed, j, line request)``: raising a
count adds characters at the end of the line and keeps the first ones. Files
are numbered in file order, so a line added before another renumbers the
files after it (their characters stay the same; each records its number in the
party, its file index, as ``seed.number``: the number its block, card, sheet
and file name show).

The file is validated like rules: every problem at once, each one line
``file:line: key.path: what is wrong (what is allowed)``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from chargen import dice as dicemod
from chargen import engines
from chargen.choices import CARDS_PER_PAGE, DEFAULT_CARDS_PER_PAGE
from chargen.engines import DEFAULT_LAYOUT
from chargen.run.spec import Members, RunSpec, SheetOptions, Slot, run_versions
from chargen.dice import Roller, new_rng
from chargen.errors import DiceError, RulesError
from chargen.generate import GenerationRequest
from chargen.rules import RulesModule, load_module
from chargen.rules.check import Cursor, Problems
from chargen.rules.yamlio import MAX_FILE_BYTES, Located, load_text, read_bytes
from chargen.seeds import MAX_COUNT, MAX_SEED

PARTY_KEYS = ("name", "system", "seed", "members")
OPTIONAL_KEYS = ("formats", "layout", "cards_per_page", "relations", "against")
MEMBER_KEYS = ("archetype", "count", "name", "years", "profession", "key", "set", "require")
MAX_LINES = 500
MAX_LINE_COUNT = 1000


@dataclass(frozen=True, slots=True)
class Line:
    """One member line: its key, what it asks for, its count (rolled), and its seed."""

    key: str
    request: GenerationRequest
    count_dice: str
    count: int
    seed: int


@dataclass(frozen=True)
class Party:
    name: str
    system: str
    seed: int
    formats: tuple[str, ...]
    layout: str | None
    lines: tuple[Line, ...]
    file: str       # the file's name (no folder)
    sha256: str     # of the file's bytes
    cards_per_page: int = DEFAULT_CARDS_PER_PAGE
    relations: dict | None = None  # file index -> its relations (chargen.flavour.relations), with relations:
    against: str | None = None     # against: the side the encounter is meant for, relative to the file's folder
    folder: str = ""               # the party file's folder
    derivation: int = 2            # the seed derivation its characters are made with (chargen.seeds)

    @property
    def count(self) -> int:
        return sum(line.count for line in self.lines)

    def members(self) -> Members:
        """The batch's slots, in file order, and what the manifest records of the file."""
        slots = tuple(Slot(line.seed, j, line.request) for line in self.lines for j in range(line.count))
        return Members(slots, self.record(), self.relations)

    def spec(self, sheets: SheetOptions = SheetOptions(), given: Collection[str] = (), overlays: tuple[Path, ...] = (),
             rules_dirs: tuple[Path, ...] = ()) -> RunSpec:
        """The run this party file describes. ``sheets``: the command line's sheet options (paper,
        templates, jobs, PDF variant, ...); ``given``: those of its fields given on the command line,
        which override the file's keys (``layout`` its ``layout:``, ``cards_per_page`` its
        ``cards_per_page:``, ``party_name`` its ``name:`` as the title of party.pdf and index.html);
        the file's keys stand in for the others."""
        own = {"party_name": self.name, "layout": self.layout or DEFAULT_LAYOUT, "cards_per_page": self.cards_per_page,
               "against": self.against, "against_from": self.folder if self.against else ""}
        if "against" in given:
            given = (*given, "against_from")
        sheets = replace(sheets, formats=tuple(f for f in self.formats if f in ("html", "pdf")),
                         **{k: v for k, v in own.items() if k not in given})
        return RunSpec(self.system, self.seed, 0, self.count, self.formats, sheets=sheets, members=self.members(),
                       overlays=overlays, rules_dirs=rules_dirs, versions=run_versions(self.derivation))

    def record(self) -> dict:
        return {"file": self.file, "sha256": self.sha256, "name": self.name,
                "lines": [{"key": ln.key, **({"archetype": ln.request.archetype} if ln.request.archetype else {}),
                           "count": ln.count, "count_dice": ln.count_dice, "seed": ln.seed,
                           **({"require": [str(r) for r in ln.request.requires]} if ln.request.requires else {})}
                          for ln in self.lines]}


def line_seed(file_seed: int, key: str) -> int:
    digest = hashlib.sha256(f"chargen/party/1:{file_seed}:{key}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def roll_count(file_seed: int, key: str, dice: dicemod.Dice) -> int:
    digest = hashlib.sha256(f"chargen/party/1/count:{file_seed}:{key}".encode("utf-8")).digest()
    return Roller(new_rng(int.from_bytes(digest[:8], "big"))).roll(dice, f"party.{key}.count")


def is_party_file(path: Path) -> bool:
    """Whether ``path`` reads as a party file (a mapping with ``members``)."""
    try:
        doc = load_text(read_bytes(path, str(path), MAX_FILE_BYTES).decode("utf-8", "replace"), str(path))
    except (RulesError, OSError):
        return False
    return isinstance(doc.data, dict) and "members" in doc.data


def read_party(path: Path, overlays: tuple[Path, ...] = (), rules_dirs: tuple[Path, ...] = (),
               derivation: int = 2) -> tuple[Party, RulesModule]:
    """The party file at ``path`` and its rules module; :class:`RulesError` lists every problem.
    ``derivation``: the seed derivation its characters are made with (a resumed party: its manifest's)."""
    raw = read_bytes(path, str(path), MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError([f"{path}: not UTF-8 text (byte {e.start})"]) from None
    doc = load_text(text, str(path))
    problems = Problems()
    c = Cursor.root(doc, problems)
    if not c.mapping(required=PARTY_KEYS, optional=OPTIONAL_KEYS) and not isinstance(c.value, dict):
        problems.raise_if_any()
    module = _module(c, overlays, rules_dirs, problems)
    party = _party(c, module, path.name, "sha256:" + hashlib.sha256(raw).hexdigest(), problems, derivation)
    problems.raise_if_any()
    return replace(party, folder=str(path.parent), derivation=derivation), module


def _module(c: Cursor, overlays, rules_dirs, problems: Problems) -> RulesModule | None:
    system = c["system"].ident() if c["system"].present else None
    if system is None:
        return None
    try:
        return load_module(system, overlays, rules_dirs)
    except RulesError as e:
        problems.extend(e)
    except Exception as e:  # an unknown system: a ChargenError naming the modules there are
        from chargen.errors import ChargenError

        if not isinstance(e, ChargenError):
            raise
        c["system"].fail(str(e))
    return None


def _party(c: Cursor, module: RulesModule | None, file: str, digest: str, problems: Problems,
           derivation: int = 2) -> Party | None:
    name = c["name"].str(120) if c["name"].present else None  # a missing key is reported once, by mapping()
    seed = c["seed"].int(0, MAX_SEED) if c["seed"].present else None
    formats = _formats(c["formats"]) if c["formats"].present else ("json",)
    layout = _layout(c["layout"], module) if c["layout"].present else None
    cards = c["cards_per_page"].one_of(CARDS_PER_PAGE) if c["cards_per_page"].present else DEFAULT_CARDS_PER_PAGE
    entries = c["members"].list(1) if c["members"].present else []
    if len(entries) > MAX_LINES:
        c["members"].fail(f"{len(entries)} member lines (at most {MAX_LINES})")
        return None
    lines = _lines(entries, module, seed, derivation)
    total = sum(line.count for line in lines if line)
    if total > MAX_COUNT or (entries and all(lines) and total == 0):
        c["members"].fail(f"the counts come to {total:,} characters (expected 1 to {MAX_COUNT:,})")
    if name and module is not None and any(f in ("html", "pdf") for f in formats):
        _check_name(c["name"], name)
    if problems.items or module is None:
        return None
    relations = _relations(c["relations"], module, seed, lines) if c["relations"].present else None
    against = c["against"].str(1000) if c["against"].present else None
    if problems.items:
        return None
    return Party(name, module.id, seed, formats, layout, tuple(lines), file, digest, cards, relations, against)


def _relations(c: Cursor, module: RulesModule, seed: int, lines: list[Line]) -> dict | None:
    """The file's ``relations:`` (chargen.flavour.relations): each member's ties, by file index."""
    from chargen.flavour import relations
    from chargen.generate import make_character
    from chargen.require import Budget

    slots, budget = [(ln, j) for ln in lines for j in range(ln.count)], Budget()
    names = [make_character(module, ln.seed, j, ln.request, (budget, n))["identity"]["name"]
             for n, (ln, j) in enumerate(slots)]
    fixed, count = relations.read(c, module.flavour, names)
    if c.problems.items:
        return None
    return relations.by_member(module.flavour, relations.draw(module.flavour, seed, len(names), fixed, count), names)


def _formats(c: Cursor) -> tuple[str, ...]:
    from chargen.formats import names

    known = list(names())
    out = []
    for x in c.list(1):
        f = x.one_of(known)
        if f in out:
            x.fail(f"format '{f}' is listed twice")
        elif f:
            out.append(f)
    return tuple(out)


def _layout(c: Cursor, module: RulesModule | None) -> str | None:
    if module is None:
        return None
    return c.one_of(sorted(engines.require(module.engine).layouts))


def _check_name(c: Cursor, name: str) -> None:
    from chargen.errors import RenderError
    from chargen.render.contain.names import check_party_name
    from chargen.render.templates import TemplateSet

    try:
        check_party_name(name, TemplateSet.load(None))
    except RenderError as e:
        c.fail(str(e))


def _lines(entries: list[Cursor], module: RulesModule | None, seed: int | None, derivation: int = 2) -> list[Line | None]:
    occurrences: Counter = Counter()
    keys: dict[str, Cursor] = {}
    out = []
    for e in entries:
        if not e.mapping(optional=MEMBER_KEYS):
            out.append(None)
            continue
        key = _key(e, occurrences)
        if key in keys:
            e["key"].fail(f"key '{key}' is also the key of {_line_of(keys[key])} "
                          "(each line's key must be its own: it seeds the line)")
        keys.setdefault(key, e)
        out.append(_line(e, key, module, seed, derivation))
    return out


def _line_of(c: Cursor) -> str:
    file, line, _ = c.doc.where(c.path)
    return f"the member line at line {line}" if line else "another member line"


def _key(e: Cursor, occurrences: Counter) -> str:
    if e["key"].present:
        return e["key"].ident() or "?"
    archetype = e["archetype"].value if isinstance(e["archetype"].value, str) else "plain"
    occurrences[archetype] += 1
    return f"{archetype}#{occurrences[archetype]}"


def _line(e: Cursor, key: str, module: RulesModule | None, seed: int | None, derivation: int = 2) -> Line | None:
    count_dice = _count(e)
    if e["name"].present:
        e["name"].str(120)
        if count_dice is None or count_dice.minimum != 1 or count_dice.maximum != 1:
            e["name"].fail("a name is for a line of one character (remove count, or the name)")
    text = {k: _text(e[k]) for k in ("years", "profession", "name")}
    archetype = e["archetype"].ident() if e["archetype"].present else None
    named = (("identity.name", text["name"]),) if text["name"] else ()  # as --set identity.name=... gives it
    request = GenerationRequest(archetype=archetype, profession=text["profession"], years=text["years"], pins=named,
                                derivation=derivation)
    if module is not None and archetype is not None:
        known = [a.id for a in engines.require(module.engine).archetypes(module.rules)]
        if archetype not in known:
            e["archetype"].fail(f"unknown archetype '{archetype}' (expected one of: {', '.join(sorted(known)) or 'none'})")
            return None
    if module is not None:
        _request_problems(e, module, request)
        request = _pinned(e, module, request)
        request = _required(e, module, request)
    if count_dice is None or seed is None:
        return None
    return Line(key, request, str(count_dice), roll_count(seed, key, count_dice), line_seed(seed, key))


def _pinned(e: Cursor, module: RulesModule, request: GenerationRequest) -> GenerationRequest:
    """A line's ``set: {path: value}``: pins, as ``--set`` gives them, for every character of the line."""
    from chargen.pins import PinError, resolve

    c = e["set"]
    if not c.present:
        return request
    if not isinstance(c.value, dict):
        c.fail("expected a mapping of paths to values, as --set PATH=VALUE gives them (e.g. {characteristics.str: 16})")
        return request
    from chargen.pins import module_targets

    targets = module_targets(module)
    pins = list(request.pins)
    for path, vc in c.items():
        try:
            pins += resolve(targets, [f"{path}={vc.value}"])
        except PinError as err:
            vc.fail(str(err).replace("--set ", "", 1).replace("; add --force to pin it anyway", ""))
    return replace(request, pins=tuple(pins))


def _required(e: Cursor, module: RulesModule, request: GenerationRequest) -> GenerationRequest:
    """A line's ``require: [EXPR, ...]``: constraints, as ``--require`` gives them, on every character of the
    line (each expression checked on its own, its problem at its line)."""
    from chargen.errors import ChargenError
    from chargen.require import MAX_REQUIRES
    from chargen.run.asked import with_requires

    c = e["require"]
    if not c.present:
        return request
    items = c.list(1) if isinstance(c.value, list) else []
    if not isinstance(c.value, list):
        c.fail('expected a list of expressions, as --require gives them (e.g. ["best_weapon.attack>=60"])')
    if len(items) > MAX_REQUIRES:
        c.fail(f"{len(items)} expressions (at most {MAX_REQUIRES})")
        return request
    texts = []
    for x in items:
        text = x.str(200)
        if text is None:
            continue
        try:
            with_requires(module, request, [text])
        except ChargenError as err:
            x.fail(str(err).replace("--require ", "", 1))
            continue
        texts.append(text)
    return with_requires(module, request, texts) if len(texts) == len(items) else request


def _text(c: Cursor) -> str | None:
    """A years, profession or name value as the request takes it (text; a number is its digits)."""
    if not c.present:
        return None
    if isinstance(c.value, int) and not isinstance(c.value, bool):
        return str(c.value)
    return c.str(120)


def _count(e: Cursor) -> dicemod.Dice | None:
    c = e["count"]
    if not c.present:
        return dicemod.parse("1")
    d = c.dice()
    if d is not None and (d.minimum < 0 or d.maximum > MAX_LINE_COUNT):
        c.fail(f"{d} can give {d.minimum} to {d.maximum} characters (expected 0 to {MAX_LINE_COUNT})")
        return None
    return d


def _request_problems(e: Cursor, module: RulesModule, request: GenerationRequest) -> None:
    """The engine's problems with the line's request, each at the key it names (``--years: ...`` at ``years``)."""
    for problem in engines.require(module.engine).check_request(module.rules, request):
        option, _, message = problem.partition(": ")
        key = option.removeprefix("--")
        if message and key in MEMBER_KEYS and e[key].present:
            e[key].fail(message.replace("--", ""))
        else:
            e.fail(problem.replace("--", ""))


def check_party(path: Path, rules_dirs: tuple[Path, ...] = ()) -> list[str]:
    """Every problem of the party file at ``path`` (none: an empty list)."""
    try:
        read_party(path, (), rules_dirs)
    except RulesError as e:
        return list(e.problems)
    except DiceError as e:
        return [f"{path}: {e}"]
    return []
