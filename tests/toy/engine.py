"""The toy engine: MIGHT and WITS rolled from the rules, a bonus from one table, a roll under MIGHT.

Nothing outside tests/toy names it: importing this module registers it (``register`` below).
"""

from __future__ import annotations

from pathlib import Path

from chargen.engines import Engine, Layout, NameScheme, RollOption, register
from chargen.resolve import Resolution, Step, require
from chargen.rules.check import file_cursors
from chargen.rules.tables import banded
from chargen.view import CharacterView, Figure, Group, Line, header, roster_pairs

HERE = Path(__file__).parent
RULES_DIR = HERE / "rules"


def build_rules(docs, problems):
    c = file_cursors(docs, ("module", "toy"), problems)
    if c is None:
        return None
    t = c["toy"]
    t.mapping(required=("source", "characteristics", "bonus", "names"))
    chars = {}
    for e in t["characteristics"].list(1):
        e.mapping(required=("id", "dice"))
        chars[e["id"].ident()] = e["dice"].dice()
    bonus = banded(t["bonus"])
    names = t["names"]
    names.mapping(required=("given", "bynames"))
    given = tuple(x.str() for x in names["given"].list(1))
    bynames = tuple(x.str() for x in names["bynames"].list(1))
    if "might" not in chars:
        t["characteristics"].fail("the toy engine reads characteristic 'might'")
    return None if problems.items else {"chars": chars, "bonus": bonus, "given": given, "bynames": bynames}


def draw_identity(rules, roller) -> dict:
    return {"sex": "any"}


def generate(rules, request, ctx) -> dict:
    chars = {k: ctx.roller.roll(d, f"characteristics.{k}") for k, d in rules["chars"].items()}
    bonus = ctx.trail.derive("bonus", rules["bonus"].lookup(chars["might"]), "the bonus row of MIGHT",
                             might=chars["might"])
    return {"identity": {"name": ctx.names.unique(rules["given"], rules["bynames"], "{given} {byname}"),
                         "sex": "any", "age": 20},
            "characteristics": chars, "bonus": bonus, "notes": ""}


def bounds(rules) -> dict:
    d = rules["chars"]["might"]
    return {"/properties/characteristics/properties/might": (d.minimum, d.maximum)}


def resolve(rules, roller, options) -> Resolution:
    might = require(options, "might", "a toy roll")
    face = roller.die(6, "might")
    outcome = "success" if face <= might else "failure"
    step = Step("might", outcome.capitalize(), "1D6", (face,), str(face), f"{face} against MIGHT {might}")
    return Resolution("toy", "might", {"might": might}, outcome, f"Toy roll (MIGHT {might}): {outcome}", (step,))


def view(doc, rules=None) -> CharacterView:
    """The toy's view: MIGHT and WITS (the rules' characteristics, else the document's) and the bonus."""
    keys = list(rules["chars"]) if rules is not None else list(doc["characteristics"])
    chars = tuple(Figure(k.upper(), doc["characteristics"].get(k, ""), k) for k in keys)
    bonus = Figure("Bonus", doc["bonus"], "bonus")
    return CharacterView(header(doc), (Line((Group("characteristics", chars), Group("bonus", (bonus,)))),),
                         notes=doc.get("notes") or "", columns=(*chars, bonus), roster=(*chars, bonus),
                         key_figures=(*chars, bonus))


SCHEMA = {
    "required": ["characteristics", "bonus", "notes"],
    "properties": {
        "characteristics": {"type": "object", "required": ["might"],
                            "properties": {"might": {"type": "integer"}},
                            "additionalProperties": {"type": "integer"}},
        "bonus": {"type": "integer"},
    },
}

ENGINE = register(Engine(
    id="toy",
    label="Toy",
    build_rules=build_rules,
    generate=generate,
    names=NameScheme("toy-names", draw_identity),
    schema=SCHEMA,
    bounds=bounds,
    reads={"characteristic": {"might": "might"}},
    roll_options=(RollOption("might", "int", "roll 1D6 at or under this MIGHT."),),
    resolve=resolve,
    roll_examples=({"might": 4},),
    layouts={"sheet": Layout("sheet", "toy.html.j2", lambda doc, rules: {"roster": roster_pairs(view(doc, rules))},
                             folder=HERE / "templates")},
    view=view,
    modules=(RULES_DIR / "toy",),
))
