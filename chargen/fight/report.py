"""An encounter estimate as text for people, a document for tools, and the line an encounter sheet prints."""

from __future__ import annotations

import statistics

from chargen.fight.estimate import Estimate, rounds_summary
from chargen.fight.tactics import DEFAULT_MORALE


# The words a game master reads aloud beside a fighter's chance (of being out of a fight, of dying):
# each word up to (not including) its share; 0 is "none" and 1 "certain" (docs/commands.md).
RISK_WORDS = ((0.05, "remote"), (0.15, "slim"), (0.35, "real"), (0.65, "even"), (0.85, "likely"), (1.0, "near certain"))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def risk_text(p: float) -> str:
    """A chance as a word and a whole percentage: "slim 4%", "even 48%" (under 1% is "<1%")."""
    if p <= 0:
        return "none 0%"
    if p >= 1:
        return "certain 100%"
    word = next(w for upto, w in RISK_WORDS if p < upto)
    figure = "<1%" if p < 0.005 else ">99%" if p >= 0.995 else f"{100 * p:.0f}%"
    return f"{word} {figure}"


def risk_scale() -> str:
    """The scale in words: "none, remote (under 5%), slim (under 15%), ..., near certain, certain"."""
    steps = [f"{w} (under {100 * upto:.0f}%)" for upto, w in RISK_WORDS[:-1]]
    return ", ".join(["none"] + steps + [RISK_WORDS[-1][1], "certain"])


def risks(est: Estimate, s: int) -> list[dict]:
    """Each fighter of side ``s``: his chance a fight of ending it out of the fight, and dead."""
    out = []
    for i, doc in enumerate(est.sides[s].docs):
        p_out, p_dead = est.risk(s, i)
        out.append({"name": doc["identity"]["name"], "out": round(p_out, 4), "dead": round(p_dead, 4),
                    "out_text": risk_text(p_out), "dead_text": risk_text(p_dead)})
    return out


def to_json(est: Estimate) -> dict:
    r = rounds_summary(est)
    return {
        "system": est.system, "seed": est.seed, "fights": est.fights, "tactics": est.tactics.to_json(),
        "sides": [_side_json(est, s) for s in (0, 1)],
        "neither": {"both_fell_or_fled": est.mutual, "round_limit": est.unended},
        "rounds": None if r is None else {"median": r[0], "p10": r[1], "p90": r[2]},
    }


def _side_json(est: Estimate, s: int) -> dict:
    share, lo, hi = est.share(s)
    danger = est.most_dangerous(s)
    return {"label": est.sides[s].label, "fighters": [d["identity"]["name"] for d in est.sides[s].docs],
            "wins": est.wins[s], "share": round(share, 4), "interval95": [round(lo, 4), round(hi, 4)],
            "out_per_fight": round(est.out[s] / est.fights, 3), "dead_per_fight": round(est.dead[s] / est.fights, 3),
            "most_dangerous": None if danger is None else {"name": danger[0], "out_per_fight": round(danger[1], 3)},
            "risk": risks(est, s), "losses": losses(est, s)}


def text(est: Estimate) -> str:
    a, b = (est.sides[s].label for s in (0, 1))
    n = (len(est.sides[0].docs), len(est.sides[1].docs))
    lines = [f"{a} ({n[0]}) against {b} ({n[1]}): {est.fights:,} fight{'s' if est.fights != 1 else ''}, seed {est.seed}"]
    if est.unended == est.fights and not any(est.out) and not any(est.wins):
        lines.append(f"  nobody can hurt anybody: every fight stopped at the round limit "
                     f"({est.tactics.max_rounds} rounds) with nobody out")
    for s in (0, 1):
        share, lo, hi = est.share(s)
        lines.append(f"  {est.sides[s].label} win {pct(share)} ({pct(lo)}-{pct(hi)}, 95%)")
    if est.mutual or est.unended:
        lines.append(f"  neither side: {pct((est.mutual + est.unended) / est.fights)} (both fell or fled in one round: "
                     f"{est.mutual}; stopped at the round limit of {est.tactics.max_rounds}: {est.unended})")
    r = rounds_summary(est)
    if r is not None:
        lines.append(f"  rounds: median {r[0]:g}, 80% of fights from {r[1]} to {r[2]}")
    lines.append("  out of the fight, a fight (of them dead): " + "; ".join(
        f"{est.sides[s].label} {est.out[s] / est.fights:.1f} of {n[s]} ({est.dead[s] / est.fights:.1f})" for s in (0, 1)))
    lines += ["  " + why(est, s) for s in (0, 1)]
    lines += _risk_lines(est)
    for s in (0, 1):
        danger = est.most_dangerous(s)
        if danger is not None:
            lines.append(f"  most dangerous of {est.sides[s].label}: {danger[0]} "
                         f"(puts {danger[1]:.2f} enemies out a fight)")
    lines.append("  tactics: " + tactics_text(est.tactics))
    return "\n".join(lines) + "\n"


def losses(est: Estimate, s: int) -> dict | None:
    """How side ``s`` loses, over the fights it lost: how many it lost broken and fleeing (some of it
    still standing) or all down, and the medians of its fighters out, dead, and the round it lost in."""
    lost = est.losses[s]
    if not lost:
        return None
    size = len(est.sides[s].docs)
    fled = sum(1 for _, out, _ in lost if out < size)
    return {"fights": len(lost), "fled": fled, "all_down": len(lost) - fled,
            "median_out": statistics.median_low(o for _, o, _ in lost),
            "median_dead": statistics.median_low(d for _, _, d in lost),
            "median_round": statistics.median_low(r for r, _, _ in lost)}


def why(est: Estimate, s: int) -> str:
    """One line on how side ``s`` usually loses: "how pikes lose (197 of 500 fights): broken and fleeing
    99.5%, all down 0.5%; typically 3 of 5 out, 1 dead, by round 4 (medians)" (the lower median)."""
    label, size, loss = est.sides[s].label, len(est.sides[s].docs), losses(est, s)
    if loss is None:
        return f"how {label} lose: never, in {est.fights:,} fight{'s' if est.fights != 1 else ''}"
    n = loss["fights"]
    how = ("always broken and fleeing" if not loss["all_down"] else "always all down" if not loss["fled"] else
           f"broken and fleeing {pct(loss['fled'] / n)}, all down {pct(loss['all_down'] / n)}")
    return (f"how {label} lose ({n:,} of {est.fights:,} fights): {how}; typically {loss['median_out']} of {size} "
            f"out, {loss['median_dead']} dead, by round {loss['median_round']} (medians)")


def _risk_lines(est: Estimate) -> list[str]:
    lines = ["  each fighter's chance, a fight, of ending it out of the fight, and dead:"]
    for s in (0, 1):
        lines.append(f"    {est.sides[s].label}")
        lines += [f"      {r['name']}: out {r['out_text']}, dead {r['dead_text']}" for r in risks(est, s)]
    return lines


def tactics_text(t) -> str:
    morale = ("fights to the last" if t.morale >= 1 else
              f"a side breaks and flees once more than {t.morale} of it is out")
    default = " (the defaults)" if (t.target, t.parry, t.morale) == ("spread", "first", DEFAULT_MORALE) else ""
    return f"target {t.target}, parry {t.parry}, {morale}, at most {t.max_rounds} rounds{default}"


def sheet_line(est: Estimate, side: int = 0) -> str:
    """What an encounter sheet prints: "the bandits win 23% (20-26%), 4 rounds"."""
    share, lo, hi = est.share(side)
    r = rounds_summary(est)
    rounds = f", {r[0]:g} round{'' if r[0] == 1 else 's'} (median)" if r is not None else ""
    return (f"{est.sides[side].label} win {100 * share:.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%) against "
            f"{est.sides[1 - side].label}{rounds}")
