"""Resolving RTD rolls: stat roll-offs, standard actions and combat exchanges.

``chargen roll --system rtd`` takes exactly one of ``--stat N`` (a roll-off),
``--action`` (the 0-10 action scale) or ``--attack`` (one combat exchange).
"""

from __future__ import annotations

from fractions import Fraction

from chargen.dice import Roller
from chargen.engines import flag
from chargen.errors import OptionError
from chargen.resolve import Resolution, Step, given
from chargen.systems.rtd.combat import Exchange, Strike, exchange, strike_damage
from chargen.systems.rtd.mechanics import action, roll_off, success_chart
from chargen.systems.rtd.rules import RtdRules, Tier

MODES = {
    "stat": ("stat", "difficulty"),
    "action": ("action", "bonus", "skill_xp", "skill_bonus", "choose_result", "no_overshoot", "wound"),
    "attack": ("attack", "no_dodge", "damage", "parry_damage", "crit_mod"),
}
MODE_NAMES = {"stat": "a stat roll-off (--stat)", "action": "an action (--action)", "attack": "an attack (--attack)"}
ROLL_OPTIONS = tuple(dict.fromkeys(o for opts in MODES.values() for o in opts))


def resolve(rules: RtdRules, roller: Roller, options: dict) -> Resolution:
    modes = [m for m in MODES if given(options.get(m))]
    if len(modes) != 1:
        what = "needs one of" if not modes else "takes only one of"
        raise OptionError(f"--system rtd {what} --stat N, --action or --attack")
    mode = modes[0]
    stray = [k for k, v in options.items() if given(v) and k not in MODES[mode]]
    if stray:
        raise OptionError(f"{flag(stray[0])} does not apply to {MODE_NAMES[mode]} "
                          f"(it takes: {', '.join(flag(o) for o in MODES[mode] if o != mode)})")
    return {"stat": stat_roll, "action": action_roll, "attack": attack_roll}[mode](rules, roller, options)


def _check(value: int, name: str, lo: int, hi: int, what: str) -> int:
    if not lo <= value <= hi:
        raise OptionError(f"--{name} {value} is out of range ({lo} to {hi}: {what})")
    return value


def difficulty_of(rules: RtdRules, text: str) -> Tier:
    key = text.strip().lower().replace(" ", "_").replace("-", "_")
    tier = rules.tier(key)
    if tier is None:
        raise OptionError(f"--difficulty {text!r} is not a difficulty "
                          f"(expected one of: {', '.join(t.id for t in rules.tiers)})")
    return tier


def stat_roll(rules: RtdRules, roller: Roller, options: dict) -> Resolution:
    top = rules.tiers[-1].max
    stat = _check(options["stat"], "stat", 0, top, "the difficulty tiers")
    tier = difficulty_of(rules, options["difficulty"]) if given(options.get("difficulty")) else rules.tier_of(stat)
    ro = roll_off(stat, tier, roller.die)
    row = f"{tier.label} ({tier.min}-{tier.max})"
    if ro.how == "automatic":
        step = Step("roll-off", row, text=f"stat {stat} is at or above the maximum {tier.max}: automatic pass")
    elif ro.how == "out of reach":
        step = Step("roll-off", row, text=f"stat {stat} is below the minimum {tier.min}: cannot pass")
    else:
        verdict = "pass" if ro.passed else "fail"
        step = Step("roll-off", row, f"1D{tier.max}", (ro.face,), str(ro.face),
                    f"{ro.face} is {'at or under' if ro.passed else 'over'} stat {stat}: {verdict}")
    steps = [step]
    chart = success_chart(rules.charts, roller.die) if ro.passed else ()
    for c in chart:
        steps.append(Step(f"success chart {c.chart}", "Explode! Go to next chart." if c.explode else c.label,
                          f"1D{rules.charts.die}", (c.face,), str(c.total)))
    success = chart[-1].label if chart else None
    summary = f"RTD stat roll-off (stat {stat}, {tier.label}): " + (f"passed, {success}" if ro.passed else "failed")
    result = {"passed": ro.passed, "how": ro.how, "success": success, "chart": chart[-1].chart if chart else None,
              "chart_total": chart[-1].total if chart else None}
    inputs = {"stat": stat, "difficulty": tier.id}
    return Resolution("rtd", "stat", inputs, "passed" if ro.passed else "failed", summary, tuple(steps), result)


def _or(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}" if len(values) > 1 else str(values[0])


def _skill(rules: RtdRules, options: dict):
    xp = options.get("skill_xp")
    level = rules.skill_level(_check(xp, "skill-xp", 0, 1_000_000, "skill XP")) if given(xp) else None
    name = f"--skill-xp {xp} ({level.label})" if level else "an unskilled roll"
    chosen, result = options.get("skill_bonus"), options.get("choose_result")
    if level and level.choose and not given(chosen):
        raise OptionError(f"{name} chooses its bonus: give --skill-bonus {_or(level.choose)}")
    if given(chosen) and not (level and level.choose and chosen in level.choose):
        allowed = _or(level.choose) if level and level.choose else "none"
        raise OptionError(f"--skill-bonus {chosen} does not apply to {name} (it takes {allowed})")
    if level and level.choose_result and not given(result):
        a = rules.actions
        raise OptionError(f"{name} chooses the result: give --choose-result {a.clamp_min} to {a.clamp_max}")
    if given(result) and not (level and level.choose_result):
        raise OptionError(f"--choose-result applies only at a level that chooses its result, not {name}")
    if options.get("no_overshoot") and not (level and level.overshoot == "optional"):
        raise OptionError(f"--no-overshoot applies only at a level that may choose not to overshoot, not {name}")
    return level, xp


def action_roll(rules: RtdRules, roller: Roller, options: dict) -> Resolution:
    level, xp = _skill(rules, options)
    penalty, wound = 0, options.get("wound")
    if given(wound):
        state = rules.wounds.state(wound.strip().lower().replace(" ", "_").replace("-", "_"))
        if state is None:
            raise OptionError(f"--wound {wound!r} is not a wound state "
                              f"(expected one of: {', '.join(s.id for s in rules.wounds.states)})")
        if state.penalty is None:
            raise OptionError(f"--wound {state.id}: the part is gone; nothing that needs it can be done")
        penalty = state.penalty
    choose_result = options.get("choose_result")
    if given(choose_result):
        _check(choose_result, "choose-result", rules.actions.clamp_min, rules.actions.clamp_max, "the action scale")
    bonus = options.get("bonus") or 0
    _check(bonus, "bonus", -100, 100, "a bonus or penalty")
    roll = action(rules, roller.die, level, options.get("skill_bonus"), bonus, penalty,
                  not options.get("no_overshoot"), choose_result)
    steps = _action_steps(rules, roll)
    who = f" ({level.label}, {xp} XP)" if level else (" (untrained)" if given(xp) else "")
    points = f" (+{roll.row.skill_points} skill points)" if roll.row.skill_points else ""
    summary = f"RTD action{who}: {roll.result} {roll.row.label}{points}"
    result = {"result": roll.result, "success": roll.row.success, "overshoot": roll.row.overshoot,
              "skill_points": roll.row.skill_points, "raw": roll.raw, "capped": roll.capped}
    inputs = {"skill_xp": xp, "skill_level": level.id if level else None, "bonus": bonus, "wound_penalty": penalty}
    return Resolution("rtd", "action", inputs, roll.row.id, summary, tuple(steps), result)


def _action_steps(rules: RtdRules, roll) -> list[Step]:
    a = rules.actions
    if roll.face is None:
        steps = [Step("action", "chosen result", read=str(roll.raw - sum(v for _, v in roll.modifiers)))]
    else:
        steps = [Step("action die", f"natural {roll.face} reads {roll.face + a.add}", f"1D{a.sides}", (roll.face,),
                      str(roll.face + a.add))]
    steps += [Step("modifier", f"{what} {value:+d}") for what, value in roll.modifiers]
    notes = []
    if roll.raw != min(a.clamp_max, max(a.clamp_min, roll.raw)):
        notes.append(f"{roll.raw} is treated as {min(a.clamp_max, max(a.clamp_min, roll.raw))}")
    if roll.capped:
        notes.append(f"cannot overshoot: counts as {roll.result}")
    steps.append(Step("action scale", f"{roll.result} {roll.row.label}", read=str(roll.result),
                      text="; ".join(notes + [roll.row.text])))
    return steps


def faces(low: int, high: int, die: int) -> str:
    """Faces of a die as the seed writes them: "6", "1-2", or "4+" up to the die's top face."""
    if low == high:
        return str(low)
    return f"{low}+" if high == die else f"{low}-{high}"


def times(m: Fraction) -> str:
    return f"{float(m):g}x"


def _strike_steps(rules: RtdRules, s: Strike, who: str, depth: int, crit_mod: int) -> list[Step]:
    c = rules.combat
    if s.face is None:
        th, dg = c.parry_crits
        return [Step(f"{who} critical", "Critical hit", depth=depth,
                     text=f"a to-hit of {th} against a parry of {dg}: automatic, {times(s.multiplier)} damage")]
    steps = [Step(f"{who} to hit", s.row.label, f"1D{c.to_hit_die}", (s.face,), str(s.face), s.row.text, depth)]
    if s.critical and s.automatic:
        th, dg = c.attack_crits
        steps.append(Step(f"{who} critical", "Critical hit", depth=depth,
                          text=f"a to-hit of {th} against a dodge of {dg}: automatic, {times(s.multiplier)} damage"))
    elif s.critical_face is not None:
        mod = f" (+{crit_mod}: counts as any of {s.critical_face}-{s.critical_face + crit_mod})" if crit_mod else ""
        steps.append(Step(f"{who} critical chart", "Critical hit" if s.critical else "No critical hit",
                          f"1D{c.critical_die}", (s.critical_face,), str(s.critical_face),
                          f"{times(s.multiplier)} damage{mod}", depth))
    return steps


def attack_roll(rules: RtdRules, roller: Roller, options: dict) -> Resolution:
    crit_mod = _check(options.get("crit_mod") or 0, "crit-mod", 0, rules.combat.critical_die - 1, "critical modifier")
    damage, parry_damage = options.get("damage"), options.get("parry_damage")
    for name, v in (("damage", damage), ("parry-damage", parry_damage)):
        if given(v):
            _check(v, name, 0, 10_000, "weapon damage")
    ex = exchange(rules.combat, roller.die, dodge=not options.get("no_dodge"), crit_mod=crit_mod)
    steps = _exchange_steps(rules, ex, crit_mod)
    result = {"to_hit": ex.attack.row.id, "dodge": ex.dodge.id if ex.dodge else None,
              "multiplier": float(ex.attack.multiplier), "critical": ex.attack.critical,
              "damage": strike_damage(ex.attack, damage) if given(damage) else None, "counterattack": None}
    summary = f"RTD attack: {ex.attack.row.label}"
    if ex.attack.lands:
        summary += f", {times(ex.attack.multiplier)} damage"
    elif ex.attack.row.multiplier > 0:
        summary += f", avoided ({ex.dodge.label})"
    else:
        summary += ", no damage"
    if result["damage"] is not None and ex.attack.lands:
        summary += f" ({result['damage']})"
        steps.append(Step("damage", "attack", text=f"{damage} x {times(ex.attack.multiplier)} = {result['damage']}"))
    if ex.counter:
        result["counterattack"] = _counter_result(rules, ex, parry_damage, steps)
        c = ex.counter
        summary += (f"; counterattack {c.row.label if c.row else 'Critical hit'}, {times(c.multiplier)} "
                    f"+{rules.combat.parry_bonus} damage" if c.lands else "; counterattack misses")
    inputs = {"dodge": not options.get("no_dodge"), "crit_mod": crit_mod, "damage": damage, "parry_damage": parry_damage}
    outcome = "critical" if ex.attack.critical else ex.attack.row.id if ex.attack.lands else "no_damage"
    return Resolution("rtd", "attack", inputs, outcome, summary, tuple(steps), result)


def _exchange_steps(rules: RtdRules, ex: Exchange, crit_mod: int) -> list[Step]:
    steps = _strike_steps(rules, ex.attack, "attack", 0, crit_mod)
    if ex.dodge is not None:
        note = ex.dodge.text
        if ex.free_parry:
            (th_lo, th_hi), (dg_lo, dg_hi) = rules.combat.free_parry
            note += (f" A to-hit of {faces(th_lo, th_hi, rules.combat.to_hit_die)} against a dodge of "
                     f"{faces(dg_lo, dg_hi, rules.combat.dodge_die)}: free parry.")
        steps.insert(1, Step("dodge", ex.dodge.label, f"1D{rules.combat.dodge_die}", (ex.dodge_face,),
                             str(ex.dodge_face), note))
    if ex.counter:
        steps += _strike_steps(rules, ex.counter, "counterattack", 1, 0)
    return steps


def _counter_result(rules: RtdRules, ex: Exchange, parry_damage, steps: list[Step]) -> dict:
    c, bonus = ex.counter, rules.combat.parry_bonus
    dmg = strike_damage(c, parry_damage, bonus) if given(parry_damage) else None
    if dmg is not None and c.lands:
        steps.append(Step("damage", "counterattack", depth=1,
                          text=f"{parry_damage} x {times(c.multiplier)} + {bonus} (parry) = {dmg}"))
    return {"free_parry": ex.free_parry, "to_hit": c.row.id if c.row else None, "multiplier": float(c.multiplier),
            "critical": c.critical, "damage": dmg, "parry_bonus": bonus if c.lands else 0}
