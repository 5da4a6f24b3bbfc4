"""The D100 II character's typed view (:mod:`chargen.view`): what csv, text, the cover roster,
the stat block and card, ``chargen stats`` and the d100 interop read.

The characteristics are the rules' own, in the rules' order (a house rule's EDU is one more),
and the hit-location table carries the die the rules roll it on; without the rules (a saved
character whose house rules are not at hand) both are read from the document.
"""

from __future__ import annotations

from chargen.view import CharacterView, Figure, Group, Listing, Table, header, line, one


def _join(items) -> str:
    return "; ".join(str(i) for i in items)


def characteristics(doc: dict, rules) -> list[tuple[str, str, object]]:
    """``(id, abbr, value)`` of each characteristic: the rules' (in their order), else the document's."""
    k = doc["characteristics"]
    if rules is None:
        return [(key, key.upper(), value) for key, value in k.items()]
    return [(c.id, c.abbr, k.get(c.id, "")) for c in rules.characteristics]


def location_die(doc: dict, rules) -> int:
    """The die the hit-location table is rolled on: the rules', else the document's highest face."""
    if rules is not None:
        return rules.location_die
    return max((h["melee"][1] for h in doc["hit_locations"]), default=20)


def _range(r) -> str:
    return f"{r[0]:02d}-{r[1]:02d}"


def _pct(v) -> str:
    return "-" if v is None else f"{v}%"


def unusable(w: dict) -> str:
    """The mark of a weapon its bearer cannot use ('cannot use: STR/DEX 3/0 short': the points
    short of its minimums), as every layout and export gives it; '' for a usable weapon."""
    short = w.get("below_minimum")
    if not isinstance(short, dict):
        return ""
    return f"cannot use: STR/DEX {short.get('str', 0)}/{short.get('dex', 0)} short"


def _marked(text: str, w: dict) -> str:
    mark = unusable(w)
    return f"{text} ({mark})" if mark else text


def weapon_text(w: dict) -> str:
    """A weapon as the text block writes it: 'Broadsword 45% parry 30% 1D8+1+1D4 SR 5', and at the
    end, for one its bearer cannot use, '(cannot use: STR/DEX 3/0 short)'."""
    parts = [w["label"], _pct(w["attack"])]
    if w.get("parry") is not None:
        parts.append(f"parry {_pct(w['parry'])}")
    damage, dm = w.get("damage") or "-", w.get("damage_modifier")
    if w.get("damage") and dm and dm != "0":
        damage += dm if dm[0] in "+-" else "+" + dm
    parts.append(damage)
    if w.get("sr") is not None:
        parts.append(f"SR {w['sr']}")
    if w.get("range") is not None:
        parts.append(f"range {w['range']}")
    return _marked(" ".join(str(p) for p in parts), w)


def weapon_cell(w: dict) -> str:
    """A weapon as the roster writes it: 'Broadsword 45%/30% 1D8+1' (and the mark of one its bearer
    cannot use, as :func:`weapon_text`)."""
    parry = f"/{w['parry']}%" if w.get("parry") is not None else ""
    attack = "-" if w.get("attack") is None else f"{w['attack']}%"
    return _marked(f"{w['label']} {attack}{parry} {w.get('damage') or '-'}", w)


def _strip(doc: dict, chars: list) -> tuple:
    c = doc["combat"]
    sr = c["strike_ranks"]
    return (line(Group("characteristics", tuple(Figure(abbr, v, key) for key, abbr, v in chars)),
                 one("move", "Move", c["mov"]),
                 one("hit_points", "HP", c["hit_points"]), one("pow_points", "POW points", c["pow_points"]),
                 one("damage_modifier", "DM", c["damage_modifier"]),
                 one("strike_ranks", "SR", f"SIZ {sr['siz']} DEX {sr['dex']}")),
            line(one("attack", "Attack", f"{c['attack']:+d}%"), one("parry", "Parry", f"{c['parry']:+d}%"),
                 one("defence", "Defence", f"{c['defence']}%")))


def _locations(doc: dict, rules) -> Table:
    die = location_die(doc, rules)
    rows = tuple((h["label"], tuple(h["melee"]), tuple(h["missile"]), h["ap"], h["hp"]) for h in doc["hit_locations"])
    return Table("hit_locations", "Locations", ("location", "melee", "missile", "ap", "hp"), rows, f"1D{die}", die)


def _lists(doc: dict) -> tuple[Listing, ...]:
    above = [s for s in doc["skills"] if s["value"] > s["base"]]
    return (Listing("locations", "Locations", tuple(f"{h['label']} {_range(h['melee'])} AP {h['ap']} HP {h['hp']}"
                                                    for h in doc["hit_locations"])),
            Listing("weapons", "Weapons", tuple(weapon_text(w) for w in doc["weapons"])),
            Listing("skills", "Skills", tuple(f"{s['label']} {s['value']}%" for s in above)),
            Listing("armour", "Armour", tuple(f"{a['label']} (AP {a['ap']})" for a in doc["armour"])),
            Listing("equipment", "Equipment", tuple(doc["equipment"])))


def _columns(doc: dict, chars: list) -> tuple[Figure, ...]:
    c, xp = doc["combat"], doc.get("experience")
    pairs = [("background", doc["background"]["label"]), ("profession", xp["profession"]["label"] if xp else ""),
             ("years", xp["years"] if xp else ""), *((abbr, v) for _, abbr, v in chars),
             ("hit_points", c["hit_points"]), ("pow_points", c["pow_points"]), ("mov", c["mov"]),
             ("damage_modifier", c["damage_modifier"]), ("sr_siz", c["strike_ranks"]["siz"]),
             ("sr_dex", c["strike_ranks"]["dex"]), ("attack_bonus", c["attack"]), ("parry_bonus", c["parry"]),
             ("defence", c["defence"]), ("armour", _join(a["label"] for a in doc["armour"])),
             ("weapons", _join(weapon_cell(w) for w in doc["weapons"])),
             ("skills", _join(f"{s['label']} {s['value']}%" for s in doc["skills"] if s["value"] > s["base"])),
             ("money", f"{doc['money']['starting']} {doc['money']['currency']}")]
    return tuple(Figure(key, value, key) for key, value in pairs)


def _roster(doc: dict) -> tuple[Figure, ...]:
    """The cover's key figures: the background, HP, POW, DM and the best attack of a weapon the character can use."""
    combat = doc["combat"]
    out = [Figure("", doc["background"]["label"]), Figure("HP", combat["hit_points"]),
           Figure("POW", combat["pow_points"]), Figure("DM", combat["damage_modifier"])]
    attacks = [w for w in doc["weapons"] if w["attack"] is not None and not w.get("below_minimum")]
    if attacks:
        best = max(attacks, key=lambda w: w["attack"])
        out.append(Figure(best["label"], f"{best['attack']}%"))
    return tuple(out)


def _key_figures(doc: dict) -> tuple[Figure, ...]:
    """What ``chargen stats`` summarises: age, hit points, the attack and parry abilities, the
    best weapon attack and parry (of the weapons the character can use: one below its minimum
    STR/DEX cannot be used at all, so it is never the best), and every skill experience raised."""
    combat, weapons = doc["combat"], [w for w in doc["weapons"] if not w.get("below_minimum")]
    out = [("Age", doc["identity"]["age"]), ("Hit points", combat["hit_points"]),
           ("Attack ability", combat["attack"]), ("Parry ability", combat["parry"]),
           ("Best weapon attack %", max((w["attack"] for w in weapons if w["attack"] is not None), default=0)),
           ("Best weapon parry %", max((w["parry"] for w in weapons if w["parry"] is not None), default=0))]
    out += [(s["label"], s["value"]) for s in doc["skills"]
            if any(x["source"] in ("profession", "archetype") for x in s.get("sources", ()))]
    return tuple(Figure(label, value) for label, value in out)


def view(doc: dict, rules=None) -> CharacterView:
    chars = characteristics(doc, rules)
    xp = doc.get("experience")
    facts = (doc["background"]["label"], *([f"{xp['profession']['label']} {xp['years']} years"] if xp else []))
    return CharacterView(header(doc, facts), _strip(doc, chars), (_locations(doc, rules),), _lists(doc),
                         doc.get("notes") or "", _columns(doc, chars), _roster(doc), _key_figures(doc),
                         tuple(Figure(s["label"], s["value"], s["id"]) for s in doc["skills"]),
                         tuple(s["id"] for s in doc["skills"] if _raised(s)))


def _raised(skill: dict) -> bool:
    """Whether a skill is raised past its base and category modifier (by experience, a profession,
    an archetype, a pin or a hand edit): a source besides those two; without sources, above its base."""
    sources = skill.get("sources")
    if sources is None:
        return skill["value"] > skill["base"]
    return any(s.get("source") not in ("base", "category") for s in sources)

