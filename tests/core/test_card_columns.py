"""Each card column behaves like a soldier in that state (RULES.md §14; issue 13, done-when 2).

"A card's three columns differ, and each behaves like a soldier in that state would (an unaware
German mostly holds or moves on his route; an aware one fights; self-preservation seeks cover,
retreats or surrenders)." For every card of every shipped deck (``cards.list_decks``) and every
column, German turns are played on the Farm Assault map from generated situations — US soldiers
at ranges 1-10, standing, crouching or prone, in the open or in cover; the German in the open,
in cover or in a building, wounded or outnumbered for Self-Preservation, the MG gunner with or
without his loader, his gun (or Panzerschreck) set up or not, a satchel charge prepared or not,
the US jeep near him with a US soldier at the wheel or not — with the card's d10 forced to each
of the ten rows in turn (later dice random, from a seed per situation), and:

* **Unaware never fires** (:func:`test_an_unaware_column_never_fires`): no order of his turn is
  a fire (at a soldier, a vehicle or a wall), grenade, satchel or assault order, no move of it is a charge, and no fire,
  throw or assault event is his. RULES.md §5 already bars an unaware soldier from firing, which
  alone would keep the column quiet; so half the turns are played *armed*: the German rolls on
  his Unaware column and is then made aware, so every fire order is legal for the rest of the
  turn and only the column itself can keep him from firing.
* **Self-Preservation never closes in**
  (:func:`test_a_self_preservation_column_never_moves_nearer_the_us`): every ``move`` event
  of his turn ends in a hex whose hex distance to the nearest active US soldier on the map (as
  they stood when his turn began) is no less than his own hex's was then.
* **Aware fights** (:func:`test_an_aware_column_fires_at_a_visible_target`, the sanity check
  that the columns differ): with a US soldier in sight every card's Aware column fires (or
  throws, or assaults) on some rows, and on many draws in all.

Each property test plays over 1 000 forced draws of its column in the default run; the
``slow`` variant plays five times as many situations. Hand-made positions pin the
interpreter's Self-Preservation rule (``german._move``): a move to cover and a move away that
used to step nearer the US, and cover that is no nearer still taken.

Found and fixed here: the Self-Preservation rows' ``move {toward: cover}`` ranked cover first
and only then the distance from the US, so it walked into cover nearer them; ``move {toward:
away}`` aimed at the farthest hex but walked the cheapest way there, past them. No deck's data
was at fault (no Unaware row fires, no Self-Preservation row names ``nearest_us``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from engine_helpers import add_german, rounds

from ambush_env.core import Game
from ambush_env.core.model import orders as O
from ambush_env.core.model.dice import Dice
from ambush_env.core.model.orders import OrderKind as K
from ambush_env.core.model.state import Unit
from ambush_env.core.model.types import ARSpace, Side, Stance, Status, Terrain
from ambush_env.core.play import german
from ambush_env.core.rules.turns import start_turn
from ambush_env.core.world.cards import COLUMN_NAMES, list_decks

DECKS = list_decks()
US = int(Side.US)
ACTIVE = int(Status.ACTIVE)
MISSION = "farm_assault"
SITUATIONS = 12  # per card × column × row in the default run (× 10 rows × every card × decks)
SLOW_SITUATIONS = 60
MIN_DRAWS = 1000  # issue 13: "over 1 000 forced draws"

#: Every order by which a soldier fires, throws or assaults (RULES.md §5: not an unaware one).
HOSTILE_KINDS = frozenset(
    {
        K.FIRE_AIMED,
        K.FIRE_SNAP,
        K.FIRE_WALL,
        K.FIRE_HEX,
        K.GRENADE,
        K.SATCHEL,
        K.ASSAULT_KILL,
        K.ASSAULT_CAPTURE,
        K.FIRE_AIMED_VEHICLE,
        K.FIRE_SNAP_VEHICLE,
        K.GRENADE_INTO,
        K.CHARGE_UNDER,
        K.CHARGE_TREADS,
        K.MOLOTOV,
        K.FIRE_CALLED,
    }
)
#: Events whose ``shooter`` / ``unit`` fired, threw or assaulted.
HOSTILE_EVENTS = frozenset(
    {"fire", "fire_chain", "fire_wall", "fire_vehicle", "throw", "throw_into", "assault"}
)
#: Card actions that fire, throw or assault (an Unaware row names none of them).
HOSTILE_ACTIONS = frozenset({"fire", "snap_fire", "throw_grenade", "throw_satchel", "assault"})
COVER = (Terrain.WOODS, Terrain.BRUSH, Terrain.BUILDING, Terrain.RUBBLE)


# ------------------------------------------------------------------------------ the games
_GAMES: dict[str, Game] = {}


def game_for(deck: str) -> Game:
    """A game of the reference mission with ``deck`` (static data built once per process)."""
    if deck not in _GAMES:
        _GAMES[deck] = Game(MISSION, opponent=deck)
    return _GAMES[deck]


def cards_of(deck: str) -> list[str]:
    return [c.id for c in game_for(deck).deck.cards]


# ------------------------------------------------------------------------------ situations
@dataclass
class Turn:
    """One German turn played from a situation with a forced card roll."""

    deck: str
    card: str
    column: str
    roll: int
    armed: bool
    start: str
    near0: int  # his distance to the nearest active US soldier at the start
    us: list[int]  # the active US soldiers' hexes at the start
    visible: bool  # he could see a US soldier at the start
    orders: list[K] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)

    @property
    def what(self) -> str:
        return (
            f"{self.deck} {self.card} {self.column} roll {self.roll}"
            f"{' (armed)' if self.armed else ''} from {self.start}"
        )


def _hexes_at(g: Game, centre: int, lo: int, hi: int) -> list[int]:
    row = g.board.distance_row(centre)
    return [
        h
        for h in range(g.board.n)
        if lo <= row[h] <= hi
        and g.tables.terrain_mp[g.board.terrain[h]] is not None
        and g.tables.terrain_mp[g.board.terrain[h]] >= 0
    ]


def _place_us(g: Game, hexes: list[tuple[int, int]]) -> None:
    """Exactly the US soldiers of ``hexes`` (hex, stance) on the map, by squad slot."""
    for u in g.state.units:
        if u.side != US:
            continue
        if u.slot < len(hexes):
            u.hex, u.stance = hexes[u.slot]
            u.status = ACTIVE
        else:
            u.status, u.hex, u.ar = int(Status.REMOVED), -1, int(ARSpace.INACTIVE)


def _jeep_near(g: Game, here: int, rng: random.Random) -> None:
    """The mission's US jeep (vehicle 0) 2-6 hexes from ``here`` on a hex it may stand on,
    the first active US soldier at its wheel."""
    v = g.state.vehicles[0]
    road = [
        h for h in _hexes_at(g, here, 2, 6) if g.board.terrain[h] in (Terrain.ROAD, Terrain.CLEAR)
    ]
    drv = next((o for o in g.state.units if o.side == US and o.status == ACTIVE), None)
    if not road or drv is None or v.side != US:
        return
    v.hex = rng.choice(road)
    drv.hex, drv.vehicle, v.driver = v.hex, v.vid, drv.uid


def wound(g: Game, u: Unit) -> None:
    """``u`` wounded as a damage roll leaves him (seed 002 p. 26): MV and port boxes capped."""
    rules = g.tables.damage.wounded
    u.wounded = True
    u.MV = min(u.MV, rules.mv)
    u.port_boxes = min(u.port_boxes, rules.port_boxes)
    del u.equipment[u.port_boxes :]


def situation(g: Game, card: str, column: str, rng: random.Random) -> Unit | None:
    """Set ``g`` up for a turn of a German of ``card`` reading ``column``; None when the draw
    did not give that column (the caller draws again)."""
    b = g.board
    g.reset(seed=rng.randrange(1 << 30))
    here = rng.choice(_hexes_at(g, b.index("I7"), 0, 6))
    way = (
        rng.choice(("wounded", "wounded", "outnumbered", "both", "same_hex"))
        if column == "self_preservation"
        else "plain"
    )
    # the MG gunner with his loader, most times (a crew weapon needs both, RULES.md §8)
    crew = card == "mg_gunner" and "mg_loader" in g.cards and rng.random() < 0.75
    ours = 2 if crew else 1
    ranges = rng.choice(((1, 2), (2, 4), (3, 6), (5, 10), (1, 10)))
    n_us = rng.randint(1, 2 if column != "self_preservation" else 4)
    if way in ("outnumbered", "both", "same_hex"):
        n_us = max(n_us, 3 * ours)
        ranges = (1, 2)
    spots = []
    for _ in range(min(n_us, 8)):
        near = _hexes_at(g, here, *ranges)
        if rng.random() < 0.35:  # in cover where there is any
            near = [h for h in near if b.terrain[h] in COVER] or near
        spots.append((rng.choice(near), rng.choice((0, 0, 1, 2))))
    if way == "same_hex":
        spots[0] = (here, spots[0][1])
    _place_us(g, spots)
    aware = column == "aware" or (column == "self_preservation" and rng.random() < 0.8)
    label = b.label(here)
    ger = add_german(g, card, label, aware=aware, stance=rng.choice((0, 0, 1, 2)))
    if crew:
        add_german(g, "mg_loader", label, aware=aware, stance=ger.stance)
    if rng.random() < 0.7:  # the route a placement gives him (``move {toward: route}``)
        ger.route = [rng.choice(_hexes_at(g, here, 2, 6)) for _ in range(rng.randint(1, 3))]
    ger.prepared = rng.random() < 0.5
    ger.jammed = rng.random() < 0.1
    if "satchel" in ger.equipment:  # a satchel charge prepared or not (RULES.md §6)
        ger.satchel_ready = rng.random() < 0.5
    if rng.random() < 0.3:  # the US jeep near him, a US soldier driving (the anti-tank cards)
        _jeep_near(g, here, rng)
    if way in ("wounded", "both", "same_hex"):
        wound(g, ger)
    rounds(g)
    g.invalidate()
    return ger if german.column_for(g, ger) == column else None


def play(
    deck: str,
    card: str,
    column: str,
    roll: int,
    rng: random.Random,
    armed: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> Turn:
    """One German turn of ``card`` on ``column`` with the card roll forced to ``roll``."""
    g = game_for(deck)
    for _ in range(50):
        ger = situation(g, card, column, rng)
        if ger is not None:
            break
    else:  # pragma: no cover - the situations are built to give their column
        raise AssertionError(f"no situation gives {deck} {card} its {column} column")
    us = [o for o in g.state.units if o.side == US and o.status == ACTIVE and o.hex >= 0]
    b = g.board
    turn = Turn(
        deck,
        card,
        column,
        roll,
        armed,
        b.label(ger.hex),
        min(b.distance(ger.hex, o.hex) for o in us),
        [o.hex for o in us],
        any(g.can_see(ger, o) for o in us),
    )
    g.dice = Dice(seed=rng.randrange(1 << 30))
    g.dice.force([roll])  # the card roll; the later dice come from the seeded stream
    g.invalidate()
    real = german.choose

    def recording(m, u, legal):
        order = real(m, u, legal)
        if u is ger:
            turn.orders.append(O.decode(order)[0])
        return order

    monkeypatch.setattr(german, "choose", recording)
    first = len(g.log)
    assert start_turn(g, ger)
    german.wanted_kinds(g, ger)  # rolls his card on the column of his state now
    if armed:  # aware from here on: his fire orders are legal, only the column can refuse
        ger.aware = True
        g.invalidate()
    g.german_turn(ger)
    monkeypatch.setattr(german, "choose", real)
    turn.events = [e.to_dict() for e in g.log[first:]]
    (card_event,) = [e for e in turn.events if e["type"] == "german_card"]
    assert (card_event["column"], card_event["roll"]) == (column, roll), turn.what
    return turn


def turns(column: str, situations: int, monkeypatch: pytest.MonkeyPatch, seed: int):
    """Every deck × card × row of ``column``, ``situations`` turns each."""
    for deck in DECKS:
        for card in cards_of(deck):
            rng = random.Random(f"{seed} {deck} {card} {column}")
            for roll in range(10):
                for s in range(situations):
                    armed = column == "unaware" and s % 2 == 1
                    yield play(deck, card, column, roll, rng, armed, monkeypatch)


def hostile(t: Turn, name: str) -> list[str]:
    """What in ``t`` fired, threw or assaulted: orders, charges and events of ``name``."""
    out = [f"order {k.name}" for k in t.orders if k in HOSTILE_KINDS]
    for e in t.events:
        who = e.get("shooter", e.get("unit"))
        if e["type"] in HOSTILE_EVENTS and who == name:
            out.append(f"event {e['type']}")
        if e["type"] == "move" and who == name and e.get("charge"):
            out.append("a charge")
    return out


# ------------------------------------------------------------------------------ the data
@pytest.mark.parametrize("deck", DECKS)
def test_the_decks_have_the_three_columns(deck):
    """Every card of every shipped deck has the three columns of RULES.md §14, and no Unaware
    row names an action that fires, throws or assaults."""
    for card in game_for(deck).deck.cards:
        for column in COLUMN_NAMES:
            assert getattr(card.columns, column), (deck, card.id, column)
        for row in card.columns.unaware:
            names = {german.normalize(a)[0] for a in row.do}
            assert not names & HOSTILE_ACTIONS, (deck, card.id, row.rolls, names)


# ------------------------------------------------------------------------------ the columns
def _unaware(situations: int, monkeypatch: pytest.MonkeyPatch) -> None:
    draws, armed_visible, moved = 0, 0, 0
    rows = Counter()
    for t in turns("unaware", situations, monkeypatch, seed=13):
        name = next(e["unit"] for e in t.events if e["type"] == "german_card")
        assert not hostile(t, name), f"{t.what}: {hostile(t, name)}"
        draws += 1
        rows[(t.deck, t.card, t.roll)] += 1
        armed_visible += t.armed and t.visible
        moved += any(e["type"] == "move" for e in t.events)
    assert draws >= MIN_DRAWS
    assert len(rows) == 10 * sum(len(cards_of(d)) for d in DECKS)  # every row of every card
    assert armed_visible >= draws // 8  # armed with a US soldier in sight, often
    assert moved > 0  # the route and cover rows do walk


def test_an_unaware_column_never_fires(monkeypatch):
    """Over more than 1 000 forced draws no Unaware row of any card fires, throws, assaults or
    charges, even when he is made aware after the roll and every fire order is legal."""
    _unaware(SITUATIONS, monkeypatch)


@pytest.mark.slow
def test_an_unaware_column_never_fires_slow(monkeypatch):
    _unaware(SLOW_SITUATIONS, monkeypatch)


def _self_preservation(situations: int, monkeypatch: pytest.MonkeyPatch) -> None:
    draws = moves = surrendered = 0
    g_of = {d: game_for(d) for d in DECKS}
    for t in turns("self_preservation", situations, monkeypatch, seed=14):
        b = g_of[t.deck].board
        name = next(e["unit"] for e in t.events if e["type"] == "german_card")
        for e in t.events:
            if e["type"] == "move" and e["unit"] == name:
                to = b.index(e["to"])
                near = min(b.distance(to, h) for h in t.us)
                assert near >= t.near0, (
                    f"{t.what}: moved to {e['to']}, {near} from the nearest US soldier "
                    f"(started {t.near0} away; US at {[b.label(h) for h in t.us]})"
                )
                moves += 1
        surrendered += (
            any(e["type"] in ("surrender", "captured") for e in t.events) or K.SURRENDER in t.orders
        )
        draws += 1
    assert draws >= MIN_DRAWS
    assert moves >= draws // 4  # cover and fall-back moves are actually walked
    assert surrendered > 0


def test_a_self_preservation_column_never_moves_nearer_the_us(monkeypatch):
    """Over more than 1 000 forced draws no move of a Self-Preservation turn ends nearer the
    nearest active US soldier than the German stood when his turn began."""
    _self_preservation(SITUATIONS, monkeypatch)


@pytest.mark.slow
def test_a_self_preservation_column_never_moves_nearer_the_us_slow(monkeypatch):
    _self_preservation(SLOW_SITUATIONS, monkeypatch)


def test_an_aware_column_fires_at_a_visible_target(monkeypatch):
    """The columns differ: in sight of a US soldier every card's Aware column fires, throws or
    assaults on some rows, and on many of the draws in all (the same cards' Unaware columns
    never do, :func:`test_an_unaware_column_never_fires`)."""
    fired_rows: dict[tuple[str, str], set[int]] = {}
    draws = fired = 0
    for t in turns("aware", 2, monkeypatch, seed=15):
        if not t.visible:
            continue
        name = next(e["unit"] for e in t.events if e["type"] == "german_card")
        draws += 1
        if hostile(t, name):
            fired += 1
            fired_rows.setdefault((t.deck, t.card), set()).add(t.roll)
    for deck in DECKS:
        for card in cards_of(deck):
            assert fired_rows.get((deck, card)), f"{deck} {card}: the Aware column never fired"
    assert fired >= draws // 4, (fired, draws)


# ------------------------------------------------------------------------------ positions
def _position(
    deck: str, card: str, at: str, us: list[str], stance: int = Stance.STANDING
) -> tuple[Game, Unit]:
    g = game_for(deck)
    g.reset(seed=0)
    b = g.board
    _place_us(g, [(b.index(x), int(Stance.STANDING)) for x in us])
    ger = add_german(g, card, at, stance=stance)
    wound(g, ger)  # the Self-Preservation column
    rounds(g)
    assert german.column_for(g, ger) == "self_preservation"
    return g, ger


def _nearest(g: Game, h: int) -> int:
    return min(
        g.board.distance(h, o.hex)
        for o in g.state.units
        if o.side == US and o.status == ACTIVE and o.hex >= 0
    )


def test_a_self_preservation_move_to_cover_does_not_step_nearer():
    """The old golden playthrough's case (farm_assault, Round 8): a wounded, prone MG loader
    at L9 (clear; prone: one hex a move action), the nearest of seven US soldiers at I7 and
    H9, four hexes off. ``move {toward: cover, max: 2}`` used to head for the farmhouse L7 (a
    building, three hexes from I7) and step onto the road of L8 (three off); now no cover is
    in reach without closing in, so he falls back to the hex of his reach farthest from them
    (M10, five off) instead."""
    g, ger = _position(
        "regular",
        "mg_loader",
        "L9",
        ["B9", "I7", "D1", "A6", "B2", "H9", "C3"],
        stance=Stance.PRONE,
    )
    assert _nearest(g, ger.hex) == 4
    assert _nearest(g, g.board.index("L7")) == _nearest(g, g.board.index("L8")) == 3
    g.dice = Dice(seed=1)
    g.dice.force([1])  # self-preservation 0-2: move to cover max 2, then prone
    g.german_turn(ger)
    moves = [e.to_dict()["to"] for e in g.log if e.type == "move"]
    assert moves and all(_nearest(g, g.board.index(h)) >= 4 for h in moves)
    assert g.board.label(ger.hex) == "M10" and ger.stance == Stance.PRONE


def test_a_self_preservation_cover_move_still_takes_cover_that_is_no_nearer():
    """The rule bars only hexes nearer the US: an unwounded rifleman at G14 (clear), three US
    soldiers two hexes off at I13 (outnumbered, the Self-Preservation column), has the brush
    of H13 (one from them) and of F13/E13 (two and more) in reach; he takes the brush that is
    no nearer."""
    g = game_for("regular")
    g.reset(seed=0)
    b = g.board
    _place_us(g, [(b.index("I13"), int(Stance.STANDING))] * 3)
    ger = add_german(g, "rifleman", "G14")
    rounds(g)
    assert german.column_for(g, ger) == "self_preservation" and not ger.wounded
    assert b.terrain[b.index("H13")] in COVER and _nearest(g, b.index("H13")) == 1
    g.dice = Dice(seed=1)
    g.dice.force([0])  # self-preservation 0-2: move to cover max 2 (then prone)
    g.german_turn(ger)
    assert b.terrain[ger.hex] in COVER and b.label(ger.hex) in ("F13", "E13")
    assert _nearest(g, ger.hex) >= 2


def test_a_self_preservation_move_away_never_breaks_out_past_the_us():
    """An outnumbered NCO at D5 with US soldiers two hexes off at C7, F6 and D3: his
    ``move {toward: away, max: 5}`` used to run for the far hex E10 by E6, one hex from C7
    and F6; now every hex of his way is at least two off, and he falls back west instead."""
    g = game_for("green")
    g.reset(seed=0)
    b = g.board
    _place_us(g, [(b.index(x), int(Stance.STANDING)) for x in ("C7", "F6", "D3")])
    ger = add_german(g, "nco_smg", "D5")
    rounds(g)
    assert german.column_for(g, ger) == "self_preservation" and _nearest(g, ger.hex) == 2
    g.dice = Dice(seed=1)
    g.dice.force([3])  # self-preservation 3-5: move away max 5
    g.german_turn(ger)
    moves = [e.to_dict()["to"] for e in g.log if e.type == "move"]
    assert moves and all(_nearest(g, b.index(h)) >= 2 for h in moves), moves
    assert _nearest(g, ger.hex) > 2
