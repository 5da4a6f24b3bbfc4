"""What an encounter sheet prints about the fight it is meant for: the estimate's line and the
combat-order table (every combatant's weapons by strike rank, with hit points to tick)."""

from __future__ import annotations

from chargen import engines
from chargen.fight import report
from chargen.fight.estimate import DEFAULT_FIGHTS, SideSpec, default_jobs, estimate
from chargen.fight.tactics import Tactics


def encounter(module, npcs: SideSpec, party: SideSpec, seed: int, fights: int = DEFAULT_FIGHTS) -> dict:
    """The estimate of ``npcs`` against ``party`` (the default tactics) and the combat order of both sides."""
    est = estimate(module, (npcs, party), fights, seed, Tactics(), default_jobs())
    rows = order(module, (npcs, party))
    return {"line": report.sheet_line(est, 0),
            "detail": f"{fights:,} fights played by the rules (see chargen fight): " + report.tactics_text(est.tactics),
            "order": rows, "ranked": any(r["sr"] is not None for r in rows),
            "risks": [{"side": est.sides[s].label, "fighters": report.risks(est, s)} for s in (0, 1)],
            "why": [report.why(est, s) for s in (0, 1)],
            "scale": report.risk_scale()}


def order(module, sides: tuple[SideSpec, SideSpec]) -> list[dict]:
    """Every combatant's lines (one per weapon), by strike rank where the system has them (D100 II);
    combatants of one rank act together (``tie``: the line shares its rank with another). A system
    whose order is rolled each round (KoTM, RTD) gives the roll (``initiative``) instead, in side order."""
    kit = engines.require(module.engine).fight
    rows = []
    for s, side in enumerate(sides):
        for i, doc in enumerate(side.docs):
            for row in kit.order(module.rules, kit.profile(module.rules, doc)):
                rows.append({**row, "name": doc["identity"]["name"], "side": side.label, "side_index": s, "index": i})
    for row in rows:
        row["sr"] = row.get("sr")
        row["rank"] = str(row["sr"]) if row["sr"] is not None else str(row.get("initiative") or "-")
    rows.sort(key=lambda r: (r["sr"] is None, r["sr"] or 0, r["side_index"], r["name"]))
    seen = set()
    for row in rows:  # his hit points to tick on his first line only
        row["ticks"] = (row["side_index"], row["index"]) not in seen
        seen.add((row["side_index"], row["index"]))
    for i, row in enumerate(rows):
        row["tie"] = row["sr"] is not None and any(
            0 <= j < len(rows) and rows[j]["sr"] == row["sr"] for j in (i - 1, i + 1))
    return rows

