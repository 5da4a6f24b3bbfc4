"""What a sheet must show, as phrases to find in its PDF's text (D100 II, KoTM, RTD).

The sheet-relevant values of a character document are every leaf except
internal ids (``id`` keys, ``background.id``, ``armour[].covers`` ids, which
show as their location labels; an RTD stat's ``tier`` and a body part's
``state``, which show as their labels), the envelope's ``schema`` and
``engine``-free bookkeeping, and the ``rolls`` log. Each value is checked in
the phrase the sheet prints it in (a skill's whole row, a hit location's whole
row), so a value in the wrong place fails too. Degree ranges come from
degree_ranges(), and odds from the engines' sheet_context(), each tested
exactly on its own.
"""

from __future__ import annotations

import io
import re

import pypdf

from chargen.render.env import faces, num, signed
from chargen.systems.d100.degrees import degree_ranges


def pdf_text(pdf: bytes, name: str = "") -> tuple[str, int]:
    """The text of every page, whitespace collapsed, the page margins' "<name> page N of M"
    removed (so text running over a page break reads on); and the page count."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    margin = re.compile((re.escape(" ".join(name.split())) + " " if name else "") + r"page \d+ of \d+")
    pages = []
    for page in reader.pages:
        text = " ".join(page.extract_text().split())
        pages.append(margin.sub(" ", text))
    return " ".join(" ".join(pages).split()), len(reader.pages)


def degrees(chance: int) -> str:
    d = degree_ranges(chance)
    return f"{faces(*d['critical'])} {faces(*d['special'])} {faces(*d['fumble'])}"


def _dash(x) -> str:
    return "\u2013" if x is None else num(x)


def weapon_row(w: dict) -> str:
    special = f" · {w['special']}" if w["special"] else ""
    damage = "\u2013" if not w["damage"] else w["damage"] + (w["damage_modifier"] if w["damage_modifier"] not in (None, "0") else "")
    parts = [w["label"], f"{w['kind']}{special} · base {w['base']}%", _dash(w["sr"]), damage]
    for chance in (w["attack"], w["parry"]):  # no roll: a dash in each of its four cells
        parts.append(" ".join(["\u2013"] * 4) if chance is None else f"{chance} {degrees(chance)}")
    parts += [_dash(w["ap"]), str(w["hp"]), _dash(w["range"]), num(w["enc"])]
    return " ".join(parts)


def skill_row(s: dict) -> str:
    mark = " †" if not s["trained"] else ""
    return f"{s['label']}{mark} {s['base']} {s['value']} {degrees(s['value'])}"


def location_row(loc: dict) -> str:
    parts = [loc["label"], faces(*loc["melee"], 20), faces(*loc["missile"], 20),
             ", ".join(loc["armour"]) or "\u2013", str(loc["ap"]), str(loc["hp"])]
    return " ".join(p for p in parts if p)


def d100_phrases(doc: dict) -> list[str]:
    c, money = doc["combat"], doc["money"]
    labels = {loc["id"]: loc["label"] for loc in doc["hit_locations"]}
    out = [doc["identity"]["name"], f"BACKGROUND {doc['background']['label']}", f"SEX {doc['identity']['sex']}",
           f"AGE {doc['identity']['age']}"]
    out += [f"{k.upper()} {v}" for k, v in doc["characteristics"].items()]
    out += [f"Attack {signed(c['attack'])}%", f"Parry {signed(c['parry'])}%", f"Defence {signed(c['defence'])}%",
            f"Damage modifier {c['damage_modifier']} thrown {c['damage_modifier_thrown']}",
            f"Strike ranks SIZ {c['strike_ranks']['siz']} · DEX {c['strike_ranks']['dex']}", f"MOV {c['mov']}",
            f"POW points {c['pow_points']}", f"Total hit points {c['hit_points']}"]
    out += [location_row(loc) for loc in doc["hit_locations"]]
    out += [weapon_row(w) for w in doc["weapons"]]
    out += [f"experience modifier {signed(doc['experience_modifier'])}%"]
    out += [label.capitalize() for label in doc["skill_categories"]]
    out += [f"{signed(v)}%" for v in doc["skill_categories"].values()]
    out += [skill_row(s) for s in doc["skills"]]
    for a in doc["armour"]:  # "every location" for a piece that covers them all
        covers = ("every location" if len(a["covers"]) > 1 and len(a["covers"]) == len(labels)
                  else ", ".join(labels.get(i, i) for i in a["covers"]))
        out.append(f"{a['label']} AP {a['ap']} ENC {num(a['enc'])} {covers}")
    out += list(doc["equipment"])
    out.append(f"Starting {money['starting']} {money['currency']} {money['dice']}")
    if money["income"] is None:
        out.append("Income none")
    else:
        until = f" until age {money['income_until_age']}" if money["income_until_age"] is not None else ""
        out.append(f"Income {money['income']} {money['currency']} a year{until}")
    if doc["notes"]:
        out.append(" ".join(doc["notes"].split()))
    s, seed = doc["system"], doc["seed"]
    out += [f"{s['name']} {s['version']} (rules module {s['id']}, engine {s['engine']})", s["rules_hash"],
            f"batch seed {seed['batch']}", f"index {seed['index']}", f"character seed {seed['character']}"]
    out += [f"house rules {o['name']} ({o['hash']})" for o in s["overlays"]]
    return out


def smallprint(doc: dict) -> list[str]:
    s, seed = doc["system"], doc["seed"]
    out = [f"{s['name']} {s['version']} (rules module {s['id']}, engine {s['engine']})", s["rules_hash"],
           f"batch seed {seed['batch']}", f"index {seed['index']}", f"character seed {seed['character']}"]
    return out + [f"house rules {o['name']} ({o['hash']})" for o in s["overlays"]]


def notes(doc: dict) -> list[str]:
    return [" ".join(doc["notes"].split())] if doc["notes"] else []


DASH = "\u2013"


def span(r: list | None) -> str:
    return DASH if r is None else str(r[0]) if r[0] == r[1] else f"{r[0]}\u2013{r[1]}"


def kotm_phrases(doc: dict, rules=None) -> list[str]:
    from chargen.render.env import dashes
    from chargen.systems.kotm.sheet import sheet_context

    extra = sheet_context(doc, rules)
    level, sc, cf = doc["level"], doc["save_check"], doc["critical_fumble_damage"]
    out = [doc["identity"]["name"], f"PROFESSION {doc['profession']['label']}", f"SEX {doc['identity']['sex']}",
           f"AGE {doc['identity']['age']}", f"LEVEL {level} SD {doc['sd']} SAVE CHECK {sc} CF DAMAGE {cf}",
           f"2D10 against SD {doc['sd']}", f"Save check (SC) {sc} Critical fumble (CF) damage {cf} to the fumbler",
           f"at SD {doc['sd']} and level {level}"]
    for o in extra["outcomes"]:
        out.append(f"{o['abbr']} {o['label']} {dashes(o['dice']) or DASH} {dashes(o['reads'])} "
                   f"{o['odds']['percent']} {o['result']}")
    out += [f"{w['label']} {w['kind']} {signed(w['damage_modifier'])} {span(w['damage']['hit'])} "
            f"{span(w['damage']['critical_success'])} {span(w['damage']['outstanding_success'])}"
            for w in doc["weapons"]]
    out += [f"{dashes(r['roll'])} {r['label']} {r['effect']}" for r in extra["fumble_table"]]
    return out + notes(doc) + smallprint(doc)


def rtd_phrases(doc: dict, rules=None) -> list[str]:
    from chargen.systems.rtd.sheet import sheet_context

    extra = sheet_context(doc, rules)
    labels = {w["id"]: w["label"] for w in extra["wound_states"]}
    out = [doc["identity"]["name"], f"SEX {doc['identity']['sex']}", f"AGE {doc['identity']['age']}"]
    for s, row in zip(doc["stats"], extra["stats"], strict=True):
        cells = ["\u2013" if d["how"] == "out of reach" else d["odds"]["percent"] + (" auto" if d["how"] == "automatic" else "")
                 for d in row["difficulties"]]
        out.append(" ".join([s["label"], str(s["value"]), row["tier"]["label"]] + cells))
        out.append(f"{s['abbr']} {s['value']}")
    for s, row in zip(doc["skills"], extra["skills"], strict=True):
        nxt = f"{s['next_level_xp']} XP" if s["next_level_xp"] is not None else "\u2013"
        odds = " ".join((f"{o['with']} " if o["with"] != "as rolled" else "") + o["success"]["percent"]
                        for o in row["action_success"]) or "chooses the result"
        out.append(f"{s['label']} {s['xp']} {s['level_label']} {s['bonus']} {nxt} {odds}")
    important = {p["part"]: p["important"] for p in extra["body_parts"]}
    out += [f"{w['label']}{' *' if important[w['part']] else ''} {labels[w['state']]}" for w in doc["wounds"]]
    for w, row in zip(doc["weapons"], extra["weapons"], strict=True):
        damages = " ".join(str(r["damage"]) for r in row["rows"])
        out.append(f"{w['label']} {w['kind']} {w['damage']} {damages} {row['critical']['damage']} "
                   f"{num(float(w['critical_multiplier']))}\u00d7")
    return out + notes(doc) + smallprint(doc)


PHRASES = {"d100": d100_phrases, "kotm": kotm_phrases, "rtd": rtd_phrases}


def missing(doc: dict, text: str, rules=None) -> list[str]:
    engine = doc["system"]["engine"]
    phrases = d100_phrases(doc) if engine == "d100" else PHRASES[engine](doc, rules)
    return [p for p in phrases if p not in text]
