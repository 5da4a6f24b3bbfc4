"""What the KoTM engine reads by id (rules.READS): a house rule that renames one is a rules
problem, at the overlay's line; one that relabels it plays as before."""

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.generate import make_character
from chargen.rules import load_module
from chargen.systems.kotm.resolve import attack
from chargen.systems.kotm.rules import READS
from tests.conftest import d, scripted
from tests.test_kotm_fumbles import reads

LISTS = {"outcome": ("attack", "exceptions"), "condition": ("fumbles", "conditions")}


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_the_engine_declares_what_it_reads():
    assert READS == {
        "outcome": {"outstanding_success": "os", "critical_success": "cs", "critical_fumble": "cf",
                    "total_fumble": "tf"},
        "condition": {"missile_weapon": "missile", "no_helm": "no_helm"},
    }


@pytest.mark.parametrize("kind, role, ident", [(k, r, i) for k, roles in READS.items() for r, i in roles.items()])
def test_a_rename_is_a_rules_problem_at_the_overlays_line(write, kind, role, ident):
    stem, key = LISTS[kind]
    overlay = write("rename.yaml", f"""
        overlay: kotm
        name: renamed
        changes:
          {stem}:
            set:
              {key}[id={ident}].id: renamed
        """)
    why = f" ({role.replace('_', ' ')})" if role != ident else ""
    line = (f"{overlay}:6: changes.{stem}.set.{key}[id={ident}].id: the kotm engine reads {kind} '{ident}'{why}; "
            "keep the id and change its label instead")
    r = run("rules", "check", overlay)  # a renamed condition also leaves a row's again_if unknown
    assert r.exit_code == 1 and r.stdout.splitlines()[0] == line
    r = run("generate", "--system", "kotm", "--seed", "1", "--rules", overlay)
    assert r.exit_code == 1 and r.output.splitlines()[-1].startswith(f"Error: {line}")


def test_the_briefs_example_line(write):
    overlay = write("os.yaml", """
        overlay: kotm
        name: outstanding
        changes:
          attack:
            set:
              exceptions[id=os].id: outstanding
        """)
    r = run("rules", "check", overlay)
    assert r.exit_code == 1
    assert r.stdout == (f"{overlay}:6: changes.attack.set.exceptions[id=os].id: the kotm engine reads outcome 'os' "
                        "(outstanding success); keep the id and change its label instead\n")


def test_a_removed_condition_names_the_line_that_removed_it(write):
    overlay = write("helm.yaml", """
        overlay: kotm
        name: no helms
        changes:
          fumbles:
            remove:
              conditions: [no_helm]
            set:
              rows[id=knocked_silly].again_if: missile
        """)
    r = run("rules", "check", overlay)
    assert r.exit_code == 1
    assert r.stdout == ("chargen/rules/kotm/fumbles.yaml:31: conditions: missing condition 'no_helm' "
                        f"(the kotm engine needs missile, no_helm); removed 'no_helm' at {overlay}:6\n")


def test_outcome_roles_keep_hit_or_miss_and_outcomes_their_own_ids(write):
    overlay = write("roles.yaml", """
        overlay: kotm
        name: roles
        changes:
          attack:
            set:
              exceptions[id=cf].hit: true
              hit.id: miss
        """)
    r = run("rules", "check", overlay)
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{overlay}:6: changes.attack.set.exceptions[id=cf].hit: the kotm engine plays outcome 'cf' "
        "(critical fumble) with hit: false (keep it; change the faces or the label instead)",
        f"{overlay}:7: changes.attack.set.hit.id: outcome id 'miss' is taken (every outcome needs its own id)",
    ]


def test_a_relabel_plays_as_before(write, kotm):
    overlay = write("labels.yaml", """
        overlay: kotm
        name: labels
        changes:
          attack:
            set:
              exceptions[id=os].label: Outstanding
              exceptions[id=os].abbr: OUT
              hit.label: Strike
          fumbles:
            set:
              rows[id=bad].label: Rather Bad
        """)
    module = load_module("kotm", [overlay])
    for i in range(20):
        assert make_character(module, 3, i)["weapons"] == make_character(kotm, 3, i)["weapons"]
    r = attack(module.rules, scripted(*d(10, 10, 10)), sd=30, level=4, modifier=1)
    assert (r.outcome, r.result["damage"], r.steps[0].row) == ("os", 30, "Outstanding (OUT)")
    r = attack(module.rules, scripted(*d(10, 9, 9), *reads(97, 3, 99)), sd=30, level=4)
    assert r.steps[3].line() == ("      fumble table #3 2D10 [9 9] -> 99: 99 Even Worse - "
                                 "ignored (rolled for Rather Bad)")
