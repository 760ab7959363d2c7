"""Owns paragraph checks and paragraph effects (RULES.md §7, §15), run one effect at a time.

Entering a hex looks it up in the mission's trigger table: nothing, ``EVENT`` (a d10 on the
mission's event table) or a paragraph number. A trigger fires once unless it says
``repeat``. A paragraph is an ordered list of effects, run one effect at a time: each effect
is a ``"paragraph"`` request of the sequence of play, so what an effect sets off (a sighting
of the German it placed) is resolved before the next effect. ``goto``/branching effects jump
to another paragraph (at most ``MAX_JUMPS`` jumps, a guard against a looping mission file).

Placing Germans (RULES.md §5, §7): a German placed in the sight of US soldiers is sighted
(PC checks, the free snap fire, then Rounds); one placed aware but unseen is put on the map
as a known contact and Rounds begin; one placed unaware and unseen stays hidden, and his
``place`` event carries only ``hidden: true`` (no hex, card or stance), so ``info["events"]``
tells the agent no more than the observation does.
"""

from __future__ import annotations

from typing import Any

from ambush_env.core.combat import strikes, traps
from ambush_env.core.model import events as E
from ambush_env.core.model.state import Unit, Vehicle
from ambush_env.core.model.types import DIRECTION_NAMES, Side, Status
from ambush_env.core.rules import damage
from ambush_env.core.rules.ctx import Match
from ambush_env.core.rules.mines import lay
from ambush_env.core.rules.scoring import award_vp, end_mission
from ambush_env.core.vehicles.vehicles import booby_trap_car, booby_trap_tank
from ambush_env.core.world.missions import EffectForm, Paragraph
from ambush_env.core.world.vehicle_data import shipped_vehicle_data, vtype

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


def paragraph_check(m: Match, u: Unit, hex_: int) -> None:
    """The paragraph check of a US soldier entering ``hex_`` (RULES.md §7); a map booby trap
    in the hex goes off first (module ``traps``), and a soldier it fells triggers nothing."""
    if hex_ in m.booby_traps:
        traps.enters(m, u, hex_)
        if u.status != Status.ACTIVE or m.state.over:
            return
    t = m.triggers.get(hex_)
    if t is None:
        return
    target, repeat = _trigger_target(t)
    st = m.state
    if hex_ in st.dead_triggers:  # a boobytrap eliminated under a tank (seed 000 p. 32)
        return
    if not repeat and hex_ in st.fired_triggers:
        return
    if hex_ not in st.fired_triggers:
        st.fired_triggers.append(hex_)
    label = m.board.label(hex_)
    if target == "EVENT":
        r = m.dice.d10(f"event table ({label})")
        para = _event_paragraph(m, r)
        m.emit(E.EventRoll(hex=label, unit=u.name, roll=r, paragraph=para))
        if para is None:
            return
        target = para
    m.emit(E.Paragraph(hex=label, unit=u.name, paragraph=target))
    m.request("paragraph", target, 0, u.uid, 0)


def _event_paragraph(m: Match, roll: int) -> Any:
    """The paragraph of the mission's d10 event table for ``roll`` (None: nothing happens)."""
    for e in m.mission.events:
        if e.rolls[0] <= roll <= e.rolls[1]:
            return e.paragraph
    return None


def random_event(m: Match, when: str) -> None:
    """A random event check (mission ``rules.event_every_pulses`` / ``event_every_rounds``
    ⚙, RULES.md §15): a d10 on the event table, as an ``EVENT`` trigger rolls; its paragraph
    runs with no triggering soldier (a ``perception`` effect then takes its ``else``, a
    ``booby_trap`` effect does nothing)."""
    r = m.dice.d10(f"random event ({when})")
    para = _event_paragraph(m, r)
    m.emit(E.RandomEvent(when=when, roll=r, paragraph=para))
    if para is not None:
        m.request("paragraph", para, 0, -1, 0)


def _para(m: Match, pid: Any) -> Paragraph:
    paras = m.mission.paragraphs  # keyed by int (the mission's validation)
    if pid in paras:
        return paras[pid]
    try:
        return paras[int(pid)]
    except (KeyError, ValueError, TypeError):
        raise KeyError(f"mission {m.mission_id}: no paragraph {pid!r}") from None


def _norm(effect: Any) -> tuple[str, dict]:
    """``(name, args)`` of a loaded effect model (tagged by ``effect``) or a plain mapping."""
    if isinstance(effect, EffectForm):
        name = effect.tag
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


def run_effect(m: Match, pid: Any, k: int, u: Unit | None, jumps: int) -> None:
    """Run effect ``k`` of paragraph ``pid`` and record the next one (or the jump) as a
    request (RULES.md §15).

    Args:
        pid: paragraph id.
        k: index of the effect in the paragraph.
        u: the US soldier who triggered it (for perception checks, booby traps), or None.
        jumps: jumps taken so far in this chain.

    Raises:
        RuntimeError: more than ``MAX_JUMPS`` jumps (a looping mission file).
    """
    effects = _para(m, pid)
    if k >= len(effects):
        return
    name, arg = _norm(effects[k])
    jump = _EFFECTS[name](m, arg, u)
    if m.state.over:
        return
    uid = u.uid if u is not None else -1
    if jump is not None:
        if jumps + 1 > MAX_JUMPS:
            raise RuntimeError(f"mission {m.mission_id}: paragraph jumps loop at {pid}")
        m.request("paragraph", jump, 0, uid, jumps + 1)
    elif k + 1 < len(effects):
        m.request("paragraph", pid, k + 1, uid, jumps)


# ------------------------------------------------------------------------------- effects
def new_german(
    m: Match,
    card_id: str,
    hex_: int,
    *,
    stance: str = "standing",
    aware: bool = False,
    route: list[int] | None = None,
) -> Unit:
    """A German of the deck's card ``card_id`` added to the state at ``hex_`` (no events)."""
    card = m.cards[card_id]
    st = m.state
    g = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name=f"G{st.next_german}",
        role=card.id,
        hex=hex_,
        stance=_STANCES.get(stance, 0),
        IN=card.IN,
        PC=card.PC,
        WS=card.WS,
        MV=getattr(card, "MV", 4) or 4,
        weapon=card.weapon,
        route=list(route or ()),
        equipment=list(getattr(card, "equipment", ()) or ()),
        aware=aware,
    )
    g.ammo = m.weapon(card.weapon).clip
    g.slot = sum(1 for o in st.units if o.side == Side.GERMAN)  # his side's unit slot
    st.next_german += 1
    st.units.append(g)
    return g


def make_tank_unit(
    m: Match, v: Vehicle, *, aware: bool = False, route: list[int] | None = None
) -> Unit:
    """The unit of the German tank ``v`` placed by a mission (:func:`ambush_env.core.vehicles.tanks.
    make_tank_unit`, reused when the setup made it already), with its awareness and route."""
    from ambush_env.core.vehicles.tanks import make_tank_unit as _make

    u = _make(m.state, v)
    u.aware = aware
    u.route = list(route or ())
    return u


def put_vehicle(
    m: Match, spec: Any, *, request: bool = True, vehicle: Vehicle | None = None
) -> Vehicle:
    """A German vehicle and its men arrive (seed 000 p. 31-32): ``spec`` is a mission's
    ``german_vehicles`` entry or a ``place_vehicle`` effect (vehicle, hex, facing, driver,
    passengers / card, crew, aware, route). A car's driver and passengers are Germans of the
    deck seated in it; a tank gets its card (default: the first of its type), crew (default:
    its type's) and its unit (:func:`make_tank_unit`), its cannon loaded as at the start (``start_loaded`` ⚙).

    Then, as for ``place`` (RULES.md §5, §7): men aboard seen by US soldiers are sighted (one
    sighting, of the first of them; the others become contacts with him ⚙); aware ones unseen is a known contact and Rounds begin; an unaware one unseen stays
    hidden, and so does the vehicle (:func:`~ambush_env.core.model.state.known_vehicle`): its event,
    as a hidden ``place``'s, carries only its name and ``hidden``. ``request=False`` (the setup) records no sighting
    or Rounds request: the sequence of play's sighting checks find the crews later; there
    ``vehicle`` is the mission's vehicle already made (:meth:`~ambush_env.core.rules.ctx.Ctx.
    start_vehicles`), to be crewed.
    """
    from ambush_env.core.world.vehicle_cards import shipped_vehicle_cards
    from ambush_env.core.world.vehicle_data import vtype

    st = m.state
    b = m.board
    args = (
        dict(spec)
        if isinstance(spec, dict)
        else {
            k: getattr(spec, k)
            for k in (
                "vehicle",
                "hex",
                "facing",
                "driver",
                "passengers",
                "card",
                "crew",
                "aware",
                "route",
            )
        }
    )
    if vehicle is None:
        vid = len(st.vehicles)
        v = Vehicle(
            vid=vid,
            type=args["vehicle"],
            side=int(Side.GERMAN),
            name=f"V{vid + 1}",
            hex=b.index(args["hex"]),
            facing=DIRECTION_NAMES.index(args.get("facing") or "N"),
        )
        v.closed = not vtype(v).open
        st.vehicles.append(v)
    else:
        v, vid = vehicle, vehicle.vid
    t = vtype(v)
    aware = bool(args.get("aware", False))
    route = [b.index(h) for h in (args.get("route") or ())]
    men: list[Unit] = []
    if t.kind == "tank":
        v.card = args.get("card") or shipped_vehicle_cards().default_tank_card(v.type) or ""
        v.crew = int(args.get("crew") or t.occupants)
        v.cannon_loaded = shipped_vehicle_data().start_loaded  # as at the start ⚙
        men.append(make_tank_unit(m, v, aware=aware, route=route))
    else:
        seats = ([args["driver"]] if args.get("driver") else []) + list(
            args.get("passengers") or ()
        )
        for k, cid in enumerate(seats):
            g = new_german(m, cid, v.hex, aware=aware, route=route)
            g.vehicle = vid
            if k == 0 and args.get("driver"):
                v.driver = g.uid
            else:
                v.passengers.append(g.uid)
            men.append(g)
    watchers = [
        o
        for o in st.units
        if o.side == Side.US
        and o.status == Status.ACTIVE
        and o.hex >= 0
        and men
        and m.can_see(o, men[0])
    ]
    if watchers or aware or not men:
        m.emit(
            E.PlaceVehicle(
                vehicle=v.name,
                kind=v.type,
                hex=b.label(v.hex),
                facing=DIRECTION_NAMES[v.facing],
                aboard=[g.name for g in men],
            )
        )
    else:  # hidden with its men (state.known_vehicle): the event says only that it was placed
        m.emit(E.PlaceVehicle(vehicle=v.name, hidden=True))
    if not request or not men:
        return v
    if watchers:  # the car and its men are one target (seed 000 p. 31): one sighting ⚙
        for g in men[1:]:
            m.reveal(g)
        m.request("sighting", men[0].uid, [o.uid for o in watchers])
    elif aware:
        for g in men:
            m.reveal(g)
        m.request("begin_rounds", f"{v.name} placed aware", [])
    return v


def _place_vehicle(m: Match, arg: dict, u: Unit | None) -> None:
    put_vehicle(m, arg)


def _place(m: Match, arg: dict, u: Unit | None) -> None:
    st = m.state
    g = new_german(
        m,
        arg["card"],
        m.board.index(arg["hex"]),
        stance=arg.get("stance", "standing"),
        aware=bool(arg.get("aware", False)),
        route=[m.board.index(h) for h in (arg.get("route") or ())],
    )
    card = m.cards[arg["card"]]
    watchers = [
        o
        for o in st.units
        if o.side == Side.US and o.status == Status.ACTIVE and o.hex >= 0 and m.can_see(o, g)
    ]
    if watchers or g.aware:
        m.emit(
            E.Place(
                unit=g.name,
                card=card.id,
                hex=arg["hex"],
                stance=arg.get("stance", "standing"),
                aware=g.aware,
            )
        )
    else:  # hidden: the events (info["events"]) say only that something was placed
        m.emit(E.Place(unit=g.name, hidden=True))
    if watchers:
        m.request("sighting", g.uid, [o.uid for o in watchers])
    elif g.aware:  # Rounds begin, every US soldier unaware in Round 1 (RULES.md §5)
        m.reveal(g)
        m.request("begin_rounds", f"{g.name} placed aware", [])


def _vp(m: Match, arg: Any, u: Unit | None) -> None:
    if isinstance(arg, dict):
        award_vp(m, int(arg["amount"]), arg.get("reason", "paragraph"))
    else:
        award_vp(m, int(arg), "paragraph")


def _branch(ok: bool, arg: dict) -> Any:
    return arg.get("then") if ok else arg.get("else")


def _activation(m: Match, arg: dict, u: Unit | None) -> Any:
    r = m.dice.d10("activation check")
    ok = r <= int(arg["at_or_below"])
    m.emit(E.ActivationCheck(roll=r, at_or_below=arg["at_or_below"], passed=ok))
    return _branch(ok, arg)


def _perception(m: Match, arg: dict, u: Unit | None) -> Any:
    if u is None:
        return _branch(False, arg)
    mod = int(arg.get("modifier", 0))
    r = m.dice.d10(f"{u.name} perception check")
    ok = r <= u.PC + mod
    m.emit(E.PerceptionCheck(unit=u.name, roll=r, pc=u.PC + mod, passed=ok))
    return _branch(ok, arg)


def _message(m: Match, arg: dict, u: Unit | None) -> None:
    m.emit(E.Message(text=str(arg["text"])))


def _set(m: Match, arg: dict, u: Unit | None) -> None:
    flag = str(arg["flag"])
    if flag not in m.state.flags:
        m.state.flags.append(flag)


def _if_flag(m: Match, arg: dict, u: Unit | None) -> Any:
    return _branch(arg["flag"] in m.state.flags, arg)


def _goto(m: Match, arg: dict, u: Unit | None) -> Any:
    return arg["paragraph"]


def _booby_trap(m: Match, arg: dict, u: Unit | None) -> None:
    if u is None:
        return
    if u.vehicle >= 0:  # a vehicle driven into the boobytrapped hex (seed 000 p. 32)
        v = m.state.vehicles[u.vehicle]
        if vtype(v).kind == "tank":
            booby_trap_tank(m, v)
        else:
            booby_trap_car(m, v)
        return

    row = arg.get("row") or "grenade_outside"
    r = m.dice.d10(f"{u.name} booby trap")
    result = m.tables.soldier_row[row][r]
    m.emit(E.BoobyTrap(unit=u.name, row=row, roll=r, result=result))
    damage.apply_damage(m, u.uid, result)


def _minefield(m: Match, arg: dict, u: Unit | None) -> None:
    """Mines in ``hexes`` for the rest of the mission (module ``mines``; seed 000 p. 32)."""
    lay(
        m,
        [m.board.index(h) for h in arg["hexes"]],
        str(arg.get("kind") or "anti_personnel"),
        known=bool(arg.get("known", True)),
    )


def _landmark(m: Match, arg: dict, u: Unit | None) -> None:
    """A landmark appears at ``hex`` (RULES.md §3, §15; seed 004 p. 18: landmarks block when
    a paragraph declares them blocking): recorded in ``state.landmarks`` for the rest of the
    mission; a blocking one blocks sight from now on, as a mission's ``blocking_landmarks``
    do (:attr:`~ambush_env.core.rules.ctx.Match.sight`). ⚙ A second landmark on the same hex
    replaces the first (one landmark a hex, as on a map). ⚙ Sight only: movement and cover
    are the hex's terrain's."""
    hex_ = m.board.index(arg["hex"])
    entry = (hex_, str(arg["name"]), bool(arg.get("blocking", False)))
    st = m.state
    st.landmarks = [x for x in st.landmarks if x[0] != hex_] + [entry]
    m.emit(E.LandmarkAppears(hex=arg["hex"], name=entry[1], blocking=entry[2]))


def _strike(m: Match, arg: dict, u: Unit | None) -> None:
    """An artillery strike or strafing run (module ``strikes``; RULES.md §15)."""
    hexes = [m.board.index(h) for h in arg["hexes"]]
    if arg.get("line"):
        hexes = strikes.line_hexes(m, hexes[0], hexes[-1])
    strikes.strike(m, str(arg["kind"]), hexes, str(arg["row"]))


def _command(m: Match, arg: dict, u: Unit | None) -> None:
    """Every US soldier in command for the next ``rounds`` Rounds (RULES.md §5), the Round
    under way counting as the first ⚙ (``state.command_until``, a mission Round number)."""
    st = m.state
    n = int(arg["rounds"])
    until = st.rounds_total + n - (1 if m.in_rounds else 0)
    st.command_until = max(st.command_until, until)
    m.emit(E.CommandOverride(rounds=n, until_round=st.command_until))


def _end_mission(m: Match, arg: Any, u: Unit | None) -> None:
    end_mission(m, str(arg.get("reason") or "paragraph"))


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
    "minefield": _minefield,
    "landmark": _landmark,
    "strike": _strike,
    "place_vehicle": _place_vehicle,
    "command": _command,
}
