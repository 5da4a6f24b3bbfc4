"""D100 II previous experience: each profession's gains at 0, 1 and many years and at its
caps, the kit and money the seed's sentences give, and the sources every value records."""

import pytest

from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_module

PROFESSIONS = ["farmer", "hunter", "town_guard", "soldier", "outlaw", "thief", "merchant", "craftsman", "sailor",
               "priest_scholar", "knight", "tribal_warrior", "tribal_hunter"]


def make(d100, seed=1, index=0, **request):
    return make_character(d100, seed, index, GenerationRequest(**request))


def test_every_profession_is_listed(d100):
    assert list(d100.rules.experience.professions) == PROFESSIONS


def _skill(doc, sid):
    return next(s for s in doc["skills"] if s["id"] == sid)


@pytest.mark.parametrize("profession", PROFESSIONS)
@pytest.mark.parametrize("years", [0, 1, 6, 40])
def test_each_professions_skill_gains(d100, profession, years):
    prof = d100.rules.experience.professions[profession]
    for index in range(5):
        doc = make(d100, 3, index, profession=profession, years=str(years))
        assert doc["identity"]["age"] == 16 + years
        assert doc["experience"] == {"profession": {"id": profession, "label": prof.label}, "years": years,
                                     "years_dice": str(years)}
        assert doc["background"]["id"] in prof.backgrounds
        for sid, per_year in prof.skills:
            s = _skill(doc, sid)
            before = s["base"] + s["modifier"]
            expected = max(0, min(per_year * years, prof.cap - before))
            assert s["value"] == before + expected
            got = [x for x in s["sources"] if x["source"] == "profession"]
            assert got == ([{"source": "profession", "value": expected, "id": profession, "years": years}]
                           if expected else [])
        for s in doc["skills"]:
            assert sum(x["value"] for x in s["sources"]) == s["value"]
            if s["id"] not in dict(prof.skills):
                assert [x["source"] for x in s["sources"]] == ["base", "category"]


@pytest.mark.parametrize("profession", [p for p in PROFESSIONS if p != "craftsman"])
def test_weapon_skill_gains_reach_the_cap(d100, profession):
    """After 40 years every weapon of the profession's kit is at its weapon cap (or above it, untouched)."""
    prof = d100.rules.experience.professions[profession]
    for index in range(3):
        doc = make(d100, 5, index, profession=profession, years="40")
        kit = doc["weapons"][1:]  # after the common belt knife
        assert kit
        for w in kit:
            value = w["attack"] if w["attack"] is not None else w["parry"]
            before = sum(x["value"] for x in w["sources"] if x["source"] in ("base", "category"))
            assert sum(x["value"] for x in w["sources"]) == value == max(before, prof.weapon_cap)


def test_one_year_of_soldiering(d100):
    doc = make(d100, 5, 0, profession="soldier", years="1")
    spear = next(w for w in doc["weapons"] if w["id"] in ("long_spear", "broadsword", "battle_axe", "short_spear", "shortsword"))
    assert spear["sources"][-1] == {"source": "profession", "value": 5, "id": "soldier", "years": 1}


def test_kit_is_replaced_but_gear_kept(d100):
    """'the same basic gear, but their weapons, armour and wealth will be as given under their profession'."""
    nobles = [make(d100, 9, i, profession="merchant", years="3") for i in range(40)]
    poor = [d for d in nobles if d["background"]["id"] == "poor_noble"]
    assert poor, "some merchants are poor nobles"
    for doc in poor:
        assert doc["armour"] == []  # no ringmail hauberk, no open helm: a merchant has no armour
        assert [w["id"] for w in doc["weapons"]][0] == "belt_knife"  # the common equipment is basic gear
        assert {w["id"] for w in doc["weapons"][1:]} <= {"shortsword", "dagger"}
        assert "Warm cloak or coat" in doc["equipment"]
    barbarian = next(d for i in range(60) if (d := make(d100, 9, i, profession="tribal_warrior", years="2")))
    assert any(g.endswith("trail food") for g in barbarian["equipment"])  # the background's gear stays
    assert [a["id"] for a in barbarian["armour"]] == ["soft_leather"]     # one piece: the profession's


def test_tribal_weapons_come_from_the_lists(d100):
    lists = d100.rules.experience.weapon_lists
    assert lists == {"tribal_melee": ("short_spear", "hand_axe", "club", "broadsword"),
                     "tribal_missile": ("sling", "self_bow", "javelin")}
    for i in range(20):
        doc = make(d100, 2, i, profession="tribal_warrior", years="3")
        melee, missile = doc["weapons"][1], doc["weapons"][2]
        assert melee["id"] in lists["tribal_melee"] and missile["id"] in lists["tribal_missile"]
        assert melee["sources"][0] == {"source": "base", "value": 15}  # the tribal base chance


def test_money_is_the_professions_not_cumulative(d100):
    """Starting wealth 'is not cumulative with wealth gained in previous experience'."""
    doc = make(d100, 4, 0, profession="soldier", years="6")
    money_rolls = [r for r in doc["rolls"] if r["for"] == "money"]
    assert len(money_rolls) == 1 and money_rolls[0]["dice"] == "3D10"
    assert doc["money"]["starting"] == money_rolls[0]["total"] * 6
    assert doc["money"]["dice"] == "3D10 per year x 6"


@pytest.mark.parametrize("years, income", [(4, True), (5, False), (12, False)])
def test_a_poor_nobles_allowance_stops_at_21(d100, years, income):
    """'A poor noble only receives this allowance until his 21st birthday.'"""
    docs = [make(d100, 6, i, profession="knight", years=str(years)) for i in range(30)]
    poor = [d for d in docs if d["background"]["id"] == "poor_noble"]
    rich = [d for d in docs if d["background"]["id"] != "poor_noble"]
    assert poor and rich
    for d in poor:
        assert d["identity"]["age"] == 16 + years
        assert (d["money"]["income"] is not None) == income and d["money"]["income_until_age"] == 21
    for d in rich:
        assert d["money"]["income"] is not None  # a rich noble's allowance does not stop


def test_plain_generate_rolls_no_experience(d100):
    doc = make_character(d100, 42, 7)
    assert doc["identity"]["age"] == 16 and "experience" not in doc and "archetype" not in doc
    assert all([x["source"] for x in s["sources"]] == ["base", "category"] for s in doc["skills"])
    assert not any(r["for"] == "experience.years" for r in doc["rolls"])


def test_years_as_dice_are_rolled_and_recorded(d100):
    doc = make(d100, 8, 0, profession="hunter", years="1D6+2")
    roll = next(r for r in doc["rolls"] if r["for"] == "experience.years")
    assert doc["experience"]["years"] == roll["total"] and doc["experience"]["years_dice"] == "1D6+2"
    assert doc["identity"]["age"] == 16 + roll["total"]


def test_an_overlay_removing_a_skill_removes_it_from_the_professions(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("overlay: d100\nname: no pockets\nchanges:\n  skills:\n    remove:\n      skills: [pick_pockets]\n")
    module = load_module("d100", [path])
    assert "pick_pockets" not in dict(module.rules.experience.professions["thief"].skills)
    make_character(module, 1, 0, GenerationRequest(profession="thief", years="3"))


def test_a_profession_with_an_unknown_skill_is_a_problem(tmp_path):
    from chargen.errors import RulesError

    path = tmp_path / "house.yaml"
    path.write_text("overlay: d100\nname: typo\nchanges:\n  professions:\n    add:\n"
                    "      professions[id=thief].skills: {lock_pickin: 3}\n")
    with pytest.raises(RulesError) as e:
        load_module("d100", [path])
    assert e.value.problems[0].startswith(
        f"{path}:6: changes.professions.add.professions[id=thief].skills.lock_pickin: unknown skill 'lock_pickin' "
        "(expected one of: ")


def test_an_overlay_removing_backgrounds_removes_them_from_professions_and_archetypes(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("overlay: d100\nname: peasants only\nchanges:\n  backgrounds:\n    set:\n"
                    "      backgrounds[id=peasant].roll: 01-100\n    remove:\n"
                    "      backgrounds: [townsfolk, barbarian, poor_noble, rich_noble, very_rich_noble]\n"
                    "  names:\n    remove:\n      lists: [townsfolk, barbarian, poor_noble, rich_noble, very_rich_noble]\n")
    module = load_module("d100", [path])
    assert module.rules.experience.professions["soldier"].backgrounds == ("peasant",)
    assert module.rules.experience.professions["knight"].backgrounds == ()
    assert "noble_knight" not in module.rules.archetypes and "barbarian_warrior" not in module.rules.archetypes
    assert module.rules.archetypes["town_guard"].backgrounds == ("peasant",)
    doc = make_character(module, 1, 0, GenerationRequest(archetype="town_guard"))
    assert doc["background"]["id"] == "peasant"
    from chargen.generate import check_request
    from chargen.errors import ChargenError

    with pytest.raises(ChargenError) as e:
        check_request(module, GenerationRequest(profession="knight", years="2"))
    assert str(e.value) == "--profession: 'knight' is open to no background of this module (its backgrounds were removed)"


@pytest.mark.parametrize("profession", ["soldier", "merchant", "tribal_warrior"])
def test_zero_years_is_the_backgrounds_16_year_old(d100, profession):
    """0 years: no previous experience undergone ("Characters that undergo previous experience will
    get the same basic gear, but their weapons, armour and wealth will be as given under their
    profession"), so the background's wealth and kit, as a plain 16-year-old has them."""
    for index in range(6):
        doc = make(d100, 7, index, profession=profession, years="0")
        bg = next(b for _, _, b in d100.rules.backgrounds.rows if b.id == doc["background"]["id"])
        assert doc["identity"]["age"] == 16 and doc["experience"]["years"] == 0
        money = next(r for r in doc["rolls"] if r["for"] == "money")
        assert money["dice"] == str(bg.money_dice)
        assert doc["money"]["starting"] == money["total"] * bg.money_times > 0
        assert doc["money"]["income"] == (doc["money"]["starting"] if bg.income else None)
        assert not any(x["source"] == "profession" for w in doc["weapons"] for x in w["sources"])
        plain = make_character(d100, 7, index, GenerationRequest())
        if plain["background"] == doc["background"] and plain["characteristics"] == doc["characteristics"]:
            assert [w["id"] for w in plain["weapons"]] == [w["id"] for w in doc["weapons"]]
    poor = next(make(d100, 7, i, profession="soldier", years="0") for i in range(40)
                if make(d100, 7, i, profession="soldier", years="0")["background"]["id"] == "poor_noble")
    assert [a["id"] for a in poor["armour"]] == ["ringmail_hauberk", "open_helm"]  # the poor noble's own kit
