"""Paragraph checks and paragraph effects (RULES.md §7, §15).

Entering a hex looks it up in the mission's trigger table: nothing, ``EVENT`` (a d10 on the
mission's event table) or a paragraph number. A trigger fires once unless it says
``repeat``. A paragraph is an ordered list of effects; ``goto``/branching effects jump to
another paragraph (at most ``MAX_JUMPS`` jumps, a guard against a looping mission file).

Placing Germans (RULES.md §5, §7): a German placed in the sight of US soldiers is sighted
(PC checks, the free snap fire, then Rounds); one placed aware but unseen is put on the map
as a known contact and Rounds begin; one placed unaware and unseen stays hidden, and his
``place`` event carries only ``hidden: true`` (no hex, card or stance), so ``info["events"]``
tells the agent no more than the observation does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ambush_env.core.state import Unit
from ambush_env.core.types import Side, Status

if TYPE_CHECKING:
    from ambush_env.core.engine import Game

MAX_JUMPS = 50
_STANCES = {"standing": 0, "crouching": 1, "prone": 2}


def _trigger_target(t: Any) -> tuple[Any, bool]:
    """(paragraph id or "EVENT", repeat) of a trigger-table entry in any loaded form."""
    if isinstance(t, (int, str)):
        return t, False
    para = getattr(t, "paragraph", None)
    if para is None and isinstance(t, dict):
        return t.get("paragraph"), bool(t.get("repeat", False))
    return para, bool(getattr(t, "repeat", False))


def paragraph_check(game: "Game", u: Unit, hex_: int) -> None:
    """The paragraph check of a US soldier entering ``hex_`` (RULES.md §7)."""
    t = game.triggers.get(hex_)
    if t is None:
        return
    target, repeat = _trigger_target(t)
    st = game.state
    if not repeat and hex_ in st.fired_triggers:
        return
    if hex_ not in st.fired_triggers:
        st.fired_triggers.append(hex_)
    label = game.board.label(hex_)
    if target == "EVENT":
        r = game.dice.d10(f"event table ({label})")
        para = None
        for e in game.mission.events:
            if e.rolls[0] <= r <= e.rolls[1]:
                para = e.paragraph
                break
        game.emit({"type": "event_roll", "hex": label, "unit": u.name, "roll": r, "paragraph": para})
        if para is None:
            return
        target = para
    game.emit({"type": "paragraph", "hex": label, "unit": u.name, "paragraph": target})
    run_paragraph(game, target, u)


def _para(game: "Game", pid: Any) -> list:
    paras = game.mission.paragraphs
    if pid in paras:
        return paras[pid]
    if str(pid) in paras:
        return paras[str(pid)]
    try:
        return paras[int(pid)]
    except (KeyError, ValueError, TypeError):
        raise KeyError(f"mission {game.mission_id}: no paragraph {pid!r}") from None


def _norm(effect: Any) -> tuple[str, dict]:
    """``(name, args)`` of a loaded effect model (tagged by ``effect``) or a plain mapping."""
    if isinstance(effect, BaseModel):
        name = effect.effect
        args = {}
        for fname, f in type(effect).model_fields.items():
            if fname != "effect":
                args[f.alias or fname] = getattr(effect, fname)
        return name, args
    d = dict(effect)
    if len(d) != 1:
        raise ValueError(f"paragraph effect must have one key, got {sorted(d)}")
    ((k, v),) = d.items()
    return k, v if isinstance(v, dict) else {"value": v}


def run_paragraph(game: "Game", pid: Any, u: Unit | None) -> None:
    """Run paragraph ``pid``'s effects in order, following jumps (RULES.md §15).

    Args:
        pid: paragraph id.
        u: the US soldier who triggered it (for perception checks, booby traps), or None.
    """
    jumps = 0
    queue = [pid]
    st = game.state
    while queue and not st.over:
        pid = queue.pop()
        jump = None
        for effect in _para(game, pid):
            name, arg = _norm(effect)
            jump = _EFFECTS[name](game, arg, u)
            if jump is not None or st.over:
                break
        if jump is not None:
            jumps += 1
            if jumps > MAX_JUMPS:
                raise RuntimeError(f"mission {game.mission_id}: paragraph jumps loop at {pid}")
            queue.append(jump)


# ------------------------------------------------------------------------------- effects
def _place(game: "Game", arg: dict, u: Unit | None) -> None:
    card = game.cards[arg["card"]]
    st = game.state
    hex_ = game.board.index(arg["hex"])
    g = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name=f"G{st.next_german}",
        role=card.id,
        hex=hex_,
        stance=_STANCES.get(arg.get("stance", "standing"), 0),
        IN=card.IN,
        PC=card.PC,
        WS=card.WS,
        MV=getattr(card, "MV", 4) or 4,
        weapon=card.weapon,
        route=[game.board.index(h) for h in (arg.get("route") or ())],
        equipment=list(getattr(card, "equipment", ()) or ()),
        aware=bool(arg.get("aware", False)),
    )
    g.ammo = game.weapon(card.weapon).clip
    st.next_german += 1
    st.units.append(g)
    watchers = [o for o in st.units if o.side == Side.US and o.status == Status.ACTIVE
                and o.hex >= 0 and game.can_see(o, g)]
    if watchers or g.aware:
        game.emit({"type": "place", "unit": g.name, "card": card.id, "hex": arg["hex"],
                   "stance": arg.get("stance", "standing"), "aware": g.aware})
    else:  # hidden: the events (info["events"]) say only that something was placed
        game.emit({"type": "place", "unit": g.name, "hidden": True})
    if watchers:
        game.sighting(g, watchers)
    elif g.aware:
        game.reveal(g)
        game.begin_rounds(f"{g.name} placed aware")


def _vp(game: "Game", arg: Any, u: Unit | None) -> None:
    if isinstance(arg, dict):
        game.award_vp(int(arg["amount"]), arg.get("reason", "paragraph"))
    else:
        game.award_vp(int(arg), "paragraph")


def _branch(ok: bool, arg: dict) -> Any:
    return arg.get("then") if ok else arg.get("else")


def _activation(game: "Game", arg: dict, u: Unit | None) -> Any:
    r = game.dice.d10("activation check")
    ok = r <= int(arg["at_or_below"])
    game.emit({"type": "activation_check", "roll": r, "at_or_below": arg["at_or_below"], "passed": ok})
    return _branch(ok, arg)


def _perception(game: "Game", arg: dict, u: Unit | None) -> Any:
    if u is None:
        return _branch(False, arg)
    mod = int(arg.get("modifier", 0))
    r = game.dice.d10(f"{u.name} perception check")
    ok = r <= u.PC + mod
    game.emit({"type": "perception_check", "unit": u.name, "roll": r, "pc": u.PC + mod, "passed": ok})
    return _branch(ok, arg)


def _message(game: "Game", arg: dict, u: Unit | None) -> None:
    game.emit({"type": "message", "text": str(arg["text"])})


def _set(game: "Game", arg: dict, u: Unit | None) -> None:
    flag = str(arg["flag"])
    if flag not in game.state.flags:
        game.state.flags.append(flag)


def _if_flag(game: "Game", arg: dict, u: Unit | None) -> Any:
    return _branch(arg["flag"] in game.state.flags, arg)


def _goto(game: "Game", arg: dict, u: Unit | None) -> Any:
    return arg["paragraph"]


def _booby_trap(game: "Game", arg: dict, u: Unit | None) -> None:
    if u is None:
        return
    from ambush_env.core import damage

    if u.vehicle >= 0:  # a car driven into the boobytrapped hex (seed 000 p. 32)
        from ambush_env.core.vehicles import booby_trap_car

        booby_trap_car(game, game.state.vehicles[u.vehicle])
        return

    row = arg.get("row") or "grenade_outside"
    r = game.dice.d10(f"{u.name} booby trap")
    result = game.tables.soldier_row[row][r]
    game.emit({"type": "booby_trap", "unit": u.name, "row": row, "roll": r, "result": result})
    damage.apply_damage(game, u.uid, result)


def _end_mission(game: "Game", arg: Any, u: Unit | None) -> None:
    game.end_mission(str(arg.get("reason") or "paragraph"))


def _not_yet(game: "Game", arg: Any, u: Unit | None) -> None:
    """Effects whose rules arrive with later issues (minefields, landmarks, strikes)."""
    game.emit({"type": "message", "text": f"effect not implemented yet: {arg}"})


_EFFECTS = {
    "place": _place,
    "vp": _vp,
    "activation": _activation,
    "perception": _perception,
    "message": _message,
    "set": _set,
    "if_flag": _if_flag,
    "goto": _goto,
    "booby_trap": _booby_trap,
    "end_mission": _end_mission,
    "minefield": _not_yet,
    "landmark": _not_yet,
    "strike": _not_yet,
}
