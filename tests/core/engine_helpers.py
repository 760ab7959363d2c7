"""Helpers for engine tests: set up a situation on the real mission map and force the dice."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ambush_env.core import Game
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.state import TurnState, Unit
from ambush_env.core.model.types import ARSpace, Phase, Side, Stance, Status

_GAME: Game | None = None


def fresh_game(seed: int = 0) -> Game:
    """A reset game of the reference mission (the static data is loaded once per process)."""
    global _GAME
    if _GAME is None:
        _GAME = Game("farm_assault", seed=seed)
    _GAME.reset(seed=seed)
    return _GAME


def dict_forms(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, a rules function that returns its typed events (a list, or a tuple whose last
    item is that list, like ``roll_damage``), returning their dict forms instead
    (:meth:`~ambush_env.core.model.events.Event.to_dict`, the form ``info["events"]`` holds)."""

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        if isinstance(out, tuple):
            return (*out[:-1], [e.to_dict() for e in out[-1]])
        return [e.to_dict() for e in out]

    return wrapped


def force(game: Game, rolls: list[int]) -> None:
    """Replace the dice with exactly these rolls (running out raises DiceExhaustedError)."""
    game.dice = Dice.scripted(rolls)
    game.invalidate()


def clear_board(game: Game, keep: int | None = None) -> None:
    """Take every US soldier off the map except the first ``keep`` squad slots."""
    for u in game.state.units:
        if u.side == Side.US and keep is not None and u.slot >= keep:
            u.status = int(Status.REMOVED)
            u.hex = -1
            u.ar = int(ARSpace.INACTIVE)
    game.invalidate()


def put(game: Game, slot: int, label: str, stance: int = Stance.STANDING) -> Unit:
    """Move US squad slot ``slot`` to ``label`` (no paragraph check)."""
    u = next(x for x in game.state.units if x.side == Side.US and x.slot == slot)
    u.hex = game.board.index(label)
    u.stance = int(stance)
    u.status = int(Status.ACTIVE)
    game.invalidate()
    return u


def add_german(
    game: Game,
    card: str,
    label: str,
    *,
    stance: int = Stance.STANDING,
    aware: bool = True,
    known: bool = True,
) -> Unit:
    """Put a German from the deck on the map directly (no paragraph, no sighting)."""
    c = game.cards[card]
    st = game.state
    g = Unit(
        uid=len(st.units),
        side=int(Side.GERMAN),
        name=f"G{st.next_german}",
        role=c.id,
        hex=game.board.index(label),
        stance=int(stance),
        IN=c.IN,
        PC=c.PC,
        WS=c.WS,
        MV=c.MV,
        weapon=c.weapon,
        equipment=list(c.equipment),
        aware=aware,
    )
    g.ammo = game.weapon(c.weapon).clip
    st.next_german += 1
    st.units.append(g)
    if known:
        st.contacts.append(g.uid)
    game.invalidate()
    return g


def rounds(game: Game, round_no: int = 3, initiative: int = Side.US) -> None:
    """Switch to Rounds without rolling (round number ``round_no``, given initiative)."""
    st = game.state
    st.phase = int(Phase.ROUNDS)
    st.round = round_no
    st.rounds_total = round_no
    st.initiative = int(initiative)
    st.turn = TurnState()
    for u in st.units:
        u.ar = int(ARSpace.COMPLETE) if u.status == Status.ACTIVE else int(ARSpace.INACTIVE)
    game.invalidate()


def give_turn(game: Game, u: Unit, space: int = ARSpace.ONE_TURN) -> None:
    """Make ``u`` the acting unit with its marker on ``space``."""
    u.ar = int(space)
    game.state.turn = TurnState(uid=u.uid)
    game.invalidate()


def german_turn(game: Game, g: Unit) -> None:
    """Play the German ``g``'s turn from his card now (``Game.german_turn``)."""
    game.german_turn(g)


def resolve(game: Game) -> None:
    """Resolve the requests a rules call recorded (sighting, Rounds beginning, paragraphs)."""
    from ambush_env.core.play.sequence import resolve as _resolve

    _resolve(game)
    game.invalidate()


def run_paragraph(game: Game, pid, u: Unit | None) -> None:
    """Run paragraph ``pid`` now, as if ``u`` had triggered it, and resolve what it sets off."""
    game.request("paragraph", pid, 0, u.uid if u is not None else -1, 0)
    resolve(game)


def paragraph_check(game: Game, u: Unit, hex_: int) -> None:
    """The paragraph check of ``u`` entering ``hex_``, resolved at once."""
    from ambush_env.core.play import paragraphs

    paragraphs.paragraph_check(game, u, hex_)
    resolve(game)


def german_action(game: Game, g: Unit, name: str, args: dict | None = None) -> bool:
    """Carry out one card action of ``g`` (RULES.md §14) as the interpreter would: his turn
    starts, the action's orders are chosen from his legal orders and applied one by one,
    their interruptions resolved. Returns whether the action gave any order (False: it was
    skipped)."""
    from ambush_env.core.model.orders import decode
    from ambush_env.core.play import german
    from ambush_env.core.play.apply import apply_order
    from ambush_env.core.play.legal import legal_orders
    from ambush_env.core.rules.turns import start_turn

    if game.state.turn.uid != g.uid:
        start_turn(game, g)
    acted = False
    while game.state.turn.uid == g.uid and not game.state.over:
        got = german._ACTIONS[name](game, g, args or {}, set(legal_orders(game, g)))
        if got is None:
            break
        order, done = got
        acted = True
        game.state.turn.card_acted = True
        kind, arg = decode(order)
        apply_order(game, g, kind, arg)
        resolve(game)
        if done:
            break
    game.invalidate()
    return acted


def find_in_order(events: list[dict], expected: list[tuple[str, dict]]) -> None:
    """Each expected ``(type, fields)`` matches a later event than the one before (fields:
    equal values; a dict value must equal the event's whole dict)."""
    k = 0
    for typ, fields in expected:
        while k < len(events) and not (
            events[k]["type"] == typ and all(events[k].get(f) == v for f, v in fields.items())
        ):
            k += 1
        assert k < len(events), f"no {typ} event with {fields} (in order) among {events}"
        k += 1


def probe_deck_game(tmp_dir, probes: list[dict]) -> Game:
    """Farm Assault with the regular deck plus test-only ``probes`` cards (a deck file named
    ``probe`` written in ``tmp_dir``)."""
    from pathlib import Path

    import yaml

    from ambush_env.core.world.data import data_path

    raw = yaml.safe_load(data_path("cards/regular.yaml").read_text(encoding="utf-8"))
    raw["id"] = "probe"
    raw["cards"] = raw["cards"] + probes
    path = Path(tmp_dir) / "probe.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return Game("farm_assault", opponent=str(path))


def only_us(game: Game, us: list[tuple[str, int]]) -> list[Unit]:
    """A fresh game (seed 0) with exactly the US soldiers ``us`` (hex, stance), by squad slot."""
    game.reset(seed=0)
    clear_board(game, keep=len(us))
    return [put(game, k, lbl, st) for k, (lbl, st) in enumerate(us)]


def forced_german_turn(game: Game, ger: Unit, rolls: list[int]) -> list[dict]:
    """One German turn in Round 3 with the dice forced (the card roll first), every forced
    roll used; its events in dict form."""
    rounds(game)
    force(game, rolls)
    first = len(game.log)
    game.german_turn(ger)
    assert game.dice.forced_left == 0, f"{game.dice.forced_left} forced dice unused"
    return [e.to_dict() for e in game.log[first:]]
