"""The batch pipeline's generation stage: one character document per index.

``make_character(module, batch_seed, index, request)`` runs the module's
engine on a :class:`GenerationRequest` (what the user asked for) and a
:class:`GenerationContext` (the roller, the name service and the derivation
trail). The document is the engine's body wrapped in an envelope that says how
to make it again: the schema version, the rules module (id, version, data hash
and any overlays) and the seeds. Character *i* depends only on the batch seed,
*i*, the request and the rules, never on the batch's size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from chargen import engines
from chargen.dice import Roller, new_rng
from chargen.errors import ChargenError
from chargen.flavour import DOC_KEY as FLAVOUR_KEY
from chargen.flavour.roll import roll_flavour
from chargen.paths import input_value, lookup, shown
from chargen.require import Budget, RequireError
from chargen.rules import RulesModule
from chargen.seeds import MAX_ATTEMPTS, archetype_seed, attempt_seed, batch_rank, character_rng, character_seed, identity_rng, unique_name

Batched = tuple[Budget, int]  # a batch's --require budget, and the character's position in the batch

SCHEMA_VERSION = "chargen-character/1"


@dataclass(frozen=True)
class GenerationRequest:
    """What the user asked of every character of a batch beyond the rules and seed.

    All empty: every character rolled as the rules say. ``archetype`` names an
    entry of the module's archetypes (``archetypes.yaml``); ``profession`` and
    ``years`` (a number or dice, as text) ask for previous experience, or override
    the archetype's (a party file's ``name:`` is the pin ``identity.name``). Each engine interprets the request inside its own package and
    checks it first (:attr:`chargen.engines.Engine.check_request`).
    ``pins``: (path, value) pairs checked by :func:`chargen.pins.resolve` (``--set``);
    an engine rolls as without them and then takes the pinned value (:meth:`pin`).
    ``requires``: :class:`chargen.require.Requirement` s a character must meet (``--require``),
    met by :func:`make_character` trying the attempts of :func:`chargen.seeds.attempt_seed`.
    """

    archetype: str | None = None
    profession: str | None = None
    years: str | None = None

    pins: tuple[tuple, ...] = ()  # (path, value): every character; (index, path, value): that one only
    requires: tuple = ()
    flavour: bool = True  # False (--no-flavour): no flavour tables rolled (chargen.flavour)
    forced: bool = False  # a pin past the rules' range, taken with --force (the manifest records it)
    # 2: an archetype's characters are made from chargen.seeds.archetype_seed (no clones across
    # archetypes); 1: from the batch seed (a batch recorded with derivation 1, a party line)
    derivation: int = 2

    def seed_for(self, batch_seed: int) -> int:
        """The seed this request's characters are made from (the batch seed, or derivation 2's archetype seed)."""
        if self.derivation >= 2 and self.archetype is not None:
            return archetype_seed(batch_seed, self.archetype)
        return batch_seed

    def asked(self) -> dict[str, str]:
        """The archetype, profession and years asked for, as given (the document's ``request``)."""
        return {k: str(v) for k, v in (("archetype", self.archetype), ("profession", self.profession),
                                       ("years", self.years)) if v is not None}

    def for_index(self, index: int) -> GenerationRequest:
        """The request as character ``index`` is made with: its own pins over the batch's."""
        if all(len(p) == 2 for p in self.pins):
            return self
        merged = {p[0]: p[1] for p in self.pins if len(p) == 2}
        merged.update({p[1]: p[2] for p in self.pins if len(p) == 3 and p[0] == index})
        return replace(self, pins=tuple(merged.items()))

    def pin(self, path: str, rolled: object) -> object:
        """The pinned value of ``path``, or ``rolled`` (which the caller rolled first, pin or not)."""
        for p, value in self.pins:
            if p == path:
                return value
        return rolled

    def pinned(self, prefix: str) -> dict[str, object]:
        """The pins under ``prefix.`` by the rest of their path (``stats.`` -> {"str": 14})."""
        return {p[len(prefix):]: v for p, v in self.pins if p.startswith(prefix)}


@dataclass(frozen=True, slots=True)
class Derivation:
    """How one derived value was reached: ``path`` in the document, its value, the rule and inputs."""

    path: str
    value: object
    rule: str
    inputs: Mapping = field(default_factory=dict)
    tables: tuple = ()  # the rules entries read: (rules file, key, row or None, value[, what was looked up]) each

    def to_dict(self) -> dict:
        out = {"path": self.path, "value": _copied(self.value), "rule": self.rule}
        if self.inputs:
            out["inputs"] = _copied(dict(self.inputs))
        if self.tables:
            out["tables"] = [list(t) for t in self.tables]
        return out




def _copied(value: object) -> object:
    """A copy of a JSON-shaped value (its dicts and lists new, so the document never shares them)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copied(v) for v in value]
    return value


_TARGETS: dict[int, tuple[object, Mapping]] = {}


def pin_targets(engine: engines.Engine, rules: object) -> Mapping:
    """``engine.pins(rules)``, worked out once per rules object (it reads every table: per character it
    cost a fifth of the generation)."""
    hit = _TARGETS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_TARGETS) > 16:
            _TARGETS.clear()
        hit = _TARGETS[id(rules)] = (rules, engine.pins(rules))
    return hit[1]


class Trail:
    """The derivation trail of one character: each derived value, the rule that made it, its inputs."""

    def __init__(self, record: bool = True) -> None:
        self.steps: list[Derivation] = []
        self.record = record  # False: values only (a recompute that checks, not explains); steps not kept

    def derive(self, path: str, value: object, rule: str, tables: tuple = (), **inputs) -> object:
        """Record ``value`` at ``path`` and return it (so a step can record as it computes);
        ``tables``: the (file, key, row, value) of each rules entry the value was read from
        (``row`` the band of a banded table, None for a single value)."""
        if self.record:
            self.steps.append(Derivation(path, value, rule, inputs, tuple(tables)))
        return value

    def to_document(self) -> list[dict]:
        """The trail as the character document stores it (``trail``: one step a line; its shape is
        ``$defs/trail_step`` of the character schema, version 1 with the document)."""
        return [d.to_dict() for d in self.steps]

    def explain(self, path: str) -> Derivation | None:
        """The last derivation recorded for ``path``, or None."""
        for d in reversed(self.steps):
            if d.path == path:
                return d
        return None


class NameService:
    """Names unique within a batch, whatever order an engine rolls in.

    A character's group (its :class:`~chargen.engines.NameScheme` draw) was
    rolled by the pipeline before the engine ran; its rank is the number of
    earlier indices of the batch in the same group, replayed from their seeds
    alone (cached per rules and batch seed). The rank-th name of the group's
    keyed permutation is unique while the list lasts, and the same whether the
    character is made alone or in its batch.
    """

    def __init__(self, engine: engines.Engine, rules: object, batch_seed: int, index: int, group: Mapping,
                 request: GenerationRequest | None = None, moved: bool = False):
        self.engine, self.rules, self.batch_seed, self.index = engine, rules, batch_seed, index
        self.moved = moved  # a pinned sex put it in another group than drawn: its rank counts from the list's end
        self.group = dict(group)
        self.request = request or GenerationRequest()
        # what the groups of earlier indices depend on: the request without pins and constraints
        self.groups_by = replace(self.request, pins=(), requires=())

    def unique(self, given: tuple[str, ...], bynames: tuple[str, ...], fmt: str) -> str:
        scheme = self.engine.names
        rank = batch_rank(self.rules, self.batch_seed, self.index,
                          _group_of(scheme, self.rules, self.batch_seed, self.request), variant=self.groups_by)
        key = ":".join([scheme.key, str(self.batch_seed), *self.group.values()])
        if self.moved:  # the drawn members of its group take ranks 0, 1, ...: counted from the end, it meets none
            rank = max(0, len(given) * len(bynames) - 1 - rank)
        return unique_name(key, rank, given, bynames, fmt)


def draw_group(scheme: engines.NameScheme, rules: object, roller: Roller, request: GenerationRequest) -> Mapping:
    """The identity rolls a name depends on (with the request, for a scheme that reads it: a d100 archetype's background)."""
    return scheme.draw(rules, roller, request) if scheme.uses_request else scheme.draw(rules, roller)


def _group_of(scheme: engines.NameScheme, rules: object, batch_seed: int, request: GenerationRequest | None = None):
    request = request or GenerationRequest()

    def group_of(i: int) -> tuple:
        return tuple(draw_group(scheme, rules, Roller(_identity_rng(scheme, batch_seed, i)), request).values())

    return group_of


def _identity_rng(scheme: engines.NameScheme, batch_seed: int, index: int):
    return identity_rng(batch_seed, index) if scheme.separate else character_rng(batch_seed, index)


@dataclass
class GenerationContext:
    """What an engine's ``generate`` rolls and names with: the roller, the name service, the trail."""

    roller: Roller
    names: NameService
    trail: Trail
    batch_seed: int
    index: int

    @property
    def identity(self) -> dict:
        """The identity rolls the name service drew first (d100: background and sex; KoTM, RTD: sex)."""
        return self.names.group


_GROUP_PINS = {"sex": "identity.sex"}  # a name group's key -> the path --set pins it with


def begin(module: RulesModule, batch_seed: int, index: int,
          request: GenerationRequest | None = None, attempt: int = 0) -> GenerationContext:
    """The context of character ``index``: its roller, with the name group drawn first.

    ``attempt`` > 0 (a ``--require`` reroll) rolls on :func:`chargen.seeds.attempt_seed`'s
    generator, the name group still drawn as for attempt 0 (so names stay unique in the batch).
    """
    engine = engines.require(module.engine)
    scheme = engine.names
    request = request or GenerationRequest()
    roller = Roller(new_rng(attempt_seed(batch_seed, index, attempt)))
    if scheme.separate or attempt:
        drawer = Roller(_identity_rng(scheme, batch_seed, index))
        group = draw_group(scheme, module.rules, drawer, request)
        roller.log.extend(drawer.log)
    else:
        group = draw_group(scheme, module.rules, roller, request)
    # a pinned background or sex replaces its roll (the name is drawn from the pinned group's list)
    pinned = {k: request.pin(_GROUP_PINS.get(k, k), v) for k, v in group.items()}
    names = NameService(engine, module.rules, batch_seed, index, pinned, request,
                        moved=pinned.get("sex") != group.get("sex"))
    return GenerationContext(roller, names, Trail(), batch_seed, index)


def make_character(module: RulesModule, batch_seed: int, index: int,
                   request: GenerationRequest | None = None, budget: Batched | None = None) -> dict:
    return make_character_traced(module, batch_seed, index, request, budget)[0]


def make_character_traced(module: RulesModule, batch_seed: int, index: int,
                          request: GenerationRequest | None = None,
                          budget: Batched | None = None) -> tuple[dict, Trail]:
    """The character document and the derivation trail of its derived values (with
    ``request.requires``, the first attempt that meets them: :func:`first_meeting`, within what
    ``budget`` leaves the character at its position in the batch)."""
    request = (request or GenerationRequest()).for_index(index)
    if request.requires:
        return first_meeting(module, batch_seed, index, request, budget=budget)
    return make_attempt(module, batch_seed, index, request, 0)


def first_meeting(module: RulesModule, batch_seed: int, index: int, request: GenerationRequest,
                  attempts: int = MAX_ATTEMPTS, budget: Batched | None = None) -> tuple[dict, Trail]:
    """The first attempt of character ``index`` that meets ``request.requires``, with its trail."""
    if budget is not None:
        attempts = min(attempts, budget[0].allowance(budget[1]))
    best: tuple | None = None
    for attempt in range(attempts):
        doc, trail = make_attempt(module, batch_seed, index, request, attempt)
        far = sum(r.distance(doc) for r in request.requires)
        if far == 0:
            if budget is not None:
                budget[0].take(budget[1], attempt + 1)
            return doc, trail
        if best is None or far < best[0]:
            best = (far, [(r.path, r.value(doc)) for r in request.requires], attempt)
    seen = f" (best seen: {', '.join(f'{p} {shown(v)}' for p, v in best[1])}, at attempt {best[2]})" if best else ""
    why = f"; {budget[0].exhausted(budget[1])}" if budget is not None and attempts < MAX_ATTEMPTS else ""
    raise RequireError(f"character {index}: no attempt of {attempts} meets "
                       f"{' and '.join(str(r) for r in request.requires)}{seen}{why}")


def make_attempt(module: RulesModule, batch_seed: int, index: int, request: GenerationRequest,
                 attempt: int) -> tuple[dict, Trail]:
    """Attempt ``attempt`` of character ``index`` (0: the character as the seed gives it)."""
    made_from = request.seed_for(batch_seed)
    ctx = begin(module, made_from, index, request, attempt)
    engine = engines.require(module.engine)
    body = engine.generate(module.rules, request, ctx)
    if "identity.name" in dict(request.pins):
        body["identity"]["name"] = request.pin("identity.name", body["identity"]["name"])
    trace_inputs(pin_targets(engine, module.rules), body, dict(request.pins), ctx.trail)
    doc = {
        "schema": SCHEMA_VERSION,
        "system": {
            "id": module.id,
            "name": module.name,
            "version": module.version,
            "engine": module.engine,
            "rules_hash": module.hash,
            "overlays": [dict(o) for o in module.overlays],
        },
        "seed": {
            "batch": batch_seed,
            "index": index,
            "character": character_seed(made_from, index),
        },
    }
    if made_from != batch_seed:
        doc["seed"]["derivation"] = 2  # made from the archetype seed (chargen.seeds, derivation 2)
    doc.update(body)
    if request.flavour and module.flavour is not None:
        doc[FLAVOUR_KEY] = roll_flavour(module.flavour, doc, made_from, index, attempt, request.pin)
    asked = request.asked()
    if asked:
        doc["request"] = asked
    if request.pins:
        doc["pins"] = dict(request.pins)
    if request.requires:
        doc["require"] = {"expressions": [str(r) for r in request.requires], "attempt": attempt}
    if ctx.trail.steps:
        doc["trail"] = ctx.trail.to_document()
    doc["rolls"] = [r.to_dict() for r in ctx.roller.log]
    return doc, ctx.trail


def numbered(doc: dict, number: int) -> dict:
    """``doc`` with its number in its batch recorded (``seed.number``: a party file's file index)."""
    doc["seed"]["number"] = number
    return doc


def trace_inputs(targets: Mapping, body: dict, pins: dict, trail: Trail) -> None:
    """A trail step for each input ``--set`` could pin, with its value as made: what tells a hand
    edit of an input (``chargen check``, the sheet's small print) from the value as rolled."""
    for path, target in targets.items():
        value = input_value(lookup(body, path))
        if value is not None and (getattr(target, "traced", True) or path in pins):
            trail.derive(path, value, "input: pinned with --set" if path in pins else "input: as rolled")


def characters(module: RulesModule, batch_seed: int, indices: range,
               request: GenerationRequest | None = None) -> Iterator[dict]:
    budget = Budget()
    for i in indices:
        yield make_character(module, batch_seed, i, request, (budget, i - indices.start))


def check_request(module: RulesModule, request: GenerationRequest) -> None:
    """Raise :class:`ChargenError` (one line per problem) when ``module``'s engine cannot make ``request``."""
    engine = engines.require(module.engine)
    problems = list(engine.check_request(module.rules, request))
    if request.archetype is not None and not engine.archetypes(module.rules):
        problems = [f"--archetype: module '{module.id}' has no archetypes (add an archetypes.yaml)"]
    if problems:
        raise ChargenError("; ".join(problems))
