"""Crafted Take Stock positions for rules tests.

:func:`craft` deals a real game with ``game.new_game(seed)`` and then moves the cards the
test names into place: market rows, splits, freezes, hands, certificates, the share piles,
saved and upcoming event cards, tokens, the round and the scores. Every card it is not
told about stays somewhere sensible (hands are topped up from the cards nobody asked for,
the rest form the draw pile). It rebuilds the bookkeeping of public knowledge the way the
engine keeps it (one pool of hidden share cards, as after a deal; the cards under Market
Closed known to nobody, the event discard pile to everyone), hands the turn to ``current``
in the ``action`` decision (the seat has already drawn), and ends with
``check_invariants``, so the engine can play on from it.

Cards are named as in the notation (``"Oil 7"``, ``"Split Tech"``, ``"Audit"``) or given
as ids. Rows list values (``{"Oil": [1, 3, 7]}``; the 1 may be left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

import pytest

import closingbell
from closingbell import IllegalActionError
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.state import ACTION, FOLLOW_NONE, TakeStockState

Card = int | str

_STOCK_IDS = {name.lower(): s for s, name in enumerate(C.STOCKS)}
_EVENT_IDS = {name.lower(): k for k, name in enumerate(C.EVENT_NAMES)}


def make_game(players: int = 3, **options: object) -> TakeStock:
    """Load Take Stock with ``players`` seats and the given rules options."""
    game = closingbell.load_game("take_stock", players=players, **options)
    assert isinstance(game, TakeStock)
    return game


def card(name: Card) -> int:
    """The id of a share card given as ``"Oil 7"`` (any case) or as an id."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_SHARE_CARDS:
            raise ValueError(f"no share card has id {name}")
        return name
    stock, _, value = name.strip().rpartition(" ")
    if stock.lower() not in _STOCK_IDS or not value.isdigit() or not 1 <= int(value) <= 12:
        raise ValueError(f"{name!r} is not a share card (write it like 'Oil 7')")
    return C.card_id(_STOCK_IDS[stock.lower()], int(value))


def cards(names: Iterable[Card]) -> list[int]:
    """The ids of several share cards."""
    return [card(n) for n in names]


def stock(name: int | str) -> int:
    """The index of a stock given by name (any case) or index."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_STOCKS:
            raise ValueError(f"no stock has index {name}")
        return name
    try:
        return _STOCK_IDS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"{name!r} is not a stock ({', '.join(C.STOCKS)})") from None


def event(name: int | str) -> int:
    """The kind of an event card given by name (``"Split Oil"``, any case) or kind."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_EVENT_KINDS:
            raise ValueError(f"no event kind {name}")
        return name
    try:
        return _EVENT_IDS[" ".join(name.lower().split())]
    except KeyError:
        raise ValueError(f"{name!r} is not an event card") from None


def _per_seat(value: Mapping[int, object] | Sequence[object] | None, n: int) -> dict[int, object]:
    if value is None:
        return {}
    items = value.items() if isinstance(value, Mapping) else enumerate(value)
    out = dict(items)
    for seat in out:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} does not exist with {n} players")
    return out


def craft(
    game: TakeStock,
    *,
    seed: int = 1,
    current: int = 0,
    dealer: int | None = None,
    rows: Mapping[str | int, Sequence[int]] | None = None,
    splits: Mapping[str | int, int] | None = None,
    frozen: Iterable[str | int] = (),
    hands: Mapping[int, Sequence[Card]] | None = None,
    known: Mapping[int, Sequence[Card]] | None = None,
    certs: Mapping[int, Sequence[Card]] | None = None,
    discard: Sequence[Card] = (),
    draw_top: Sequence[Card] = (),
    draw_size: int | None = None,
    spare_to_certs: int | None = None,
    saved: Mapping[int, Sequence[int | str]] | None = None,
    event_top: Sequence[int | str] = (),
    events_above: int | None = None,
    event_discard: Sequence[int | str] = (),
    tokens: Mapping[int, int] | Sequence[int] | None = None,
    round: int = 1,
    scores: Sequence[int] | None = None,
) -> TakeStockState:
    """Return a consistent state of ``game`` arranged as described, ``current`` to act.

    - ``rows``/``splits``/``frozen``: the market (unnamed stocks stand at 1, no split).
    - ``hands``: exact hands; a seat not named keeps a hand of the dealt size (one more for
      ``current``, who has drawn), its own cards first, topped up with unnamed cards.
      ``known`` marks cards of a hand as publicly known (as after Insider Trading).
    - ``certs``: certificates on the table; ``discard``: the shares discard pile.
    - ``draw_top``: the next share cards to be drawn, top first. ``draw_size`` fixes the
      draw pile's size; the unnamed cards that do not fit go to the discard pile, or to
      the certificates of seat ``spare_to_certs`` when it is given.
    - ``saved``: saved event cards per seat; ``event_top``: the next event cards, top
      first; ``events_above`` fixes how many cards lie above Market Closed (the unnamed
      rest go under it; by default exactly ten, never fewer); ``event_discard``: the
      face-down event discard pile (known to everyone, as if its cards had been played).
    - ``tokens``: unused option tokens per seat (the supply holds the rest of the 30).
    - ``round`` and ``scores``: the round being played and the totals so far (recorded as
      the first earlier round's points, later earlier rounds scoring nothing).
    """
    st = game.new_game(seed)
    n = st.n
    if not 0 <= current < n:
        raise ValueError(f"current seat {current} does not exist with {n} players")

    # ---------------------------------------------------------------- the market
    st.rows = [[1] for _ in range(C.NUM_STOCKS)]
    st.splits = [0] * C.NUM_STOCKS
    st.frozen = [False] * C.NUM_STOCKS
    placed: dict[int, str] = {}

    def place(ids: Iterable[int], where: str) -> list[int]:
        out = []
        for c in ids:
            if C.card_value(c) == 1:
                raise ValueError(f"{C.card_name(c)} never leaves the market")
            if c in placed:
                raise ValueError(f"{C.card_name(c)} is placed twice ({placed[c]} and {where})")
            placed[c] = where
            out.append(c)
        return out

    for name, values in (rows or {}).items():
        s = stock(name)
        vals = list(values)
        if not vals or vals[0] != 1:
            vals = [1, *vals]
        if any(a >= b for a, b in pairwise(vals)) or vals[-1] > 10:
            raise ValueError(f"row {vals} must rise and stay below 11 while the round runs")
        place((C.card_id(s, v) for v in vals[1:]), f"the {C.STOCKS[s]} row")
        st.rows[s] = vals
    for name, count in (splits or {}).items():
        if not 0 <= count <= 3:
            raise ValueError("a stock has 0 to 3 splits")
        st.splits[stock(name)] = count
    for name in frozen:
        st.frozen[stock(name)] = True

    # ---------------------------------------------------------------- share cards
    hand_map = {q: cards(h) for q, h in _per_seat(hands, n).items()}
    for q, h in hand_map.items():
        place(h, f"seat {q}'s hand")
    cert_map = {q: cards(h) for q, h in _per_seat(certs, n).items()}
    for q, h in cert_map.items():
        place(h, f"seat {q}'s certificates")
    discard_ids = place(cards(discard), "the discard pile")
    top_ids = place(cards(draw_top), "the top of the draw pile")

    # Unnamed cards, in the order the seed put them (hands first, then the pile top down).
    free = [c for h in st.hands for c in h if c not in placed]
    free += [c for c in reversed(st.draw) if c not in placed]
    for q in range(n):
        if q in hand_map:
            continue
        size = C.HAND_SIZES[n] + (1 if q == current else 0)
        own = [c for c in st.hands[q] if c not in placed][:size]
        for c in own:
            free.remove(c)
        while len(own) < size:
            if not free:
                raise ValueError("not enough share cards left to fill the hands")
            own.append(free.pop(0))
        place(own, f"seat {q}'s hand")
        hand_map[q] = own
    if draw_size is None:
        pile = top_ids + free
        spare: list[int] = []
    else:
        if draw_size < len(top_ids):
            raise ValueError("draw_size is smaller than draw_top")
        room = draw_size - len(top_ids)
        if room > len(free):
            raise ValueError(f"only {len(top_ids) + len(free)} cards can form the draw pile")
        pile = top_ids + free[:room]
        spare = free[room:]
    if spare_to_certs is not None:
        cert_map.setdefault(spare_to_certs, []).extend(spare)
    else:
        discard_ids = spare + discard_ids
    if not pile and game.last_card_rule:
        raise ValueError("under empty_draw='last_card' the draw pile is never empty mid-round")

    for q in range(n):
        if len(hand_map[q]) < (2 if q == current else 1):
            raise ValueError(f"seat {q}'s hand is too small for a round in progress")
    st.hands = [sorted(hand_map[q]) for q in range(n)]
    st.certs = [list(cert_map.get(q, [])) for q in range(n)]
    st.draw = list(reversed(pile))
    st.discard = discard_ids
    st.hidden = [[] for _ in range(n)]
    st.retrieved = []

    # Public knowledge: one pool of hidden cards, as right after a deal.
    known_map = {q: cards(k) for q, k in _per_seat(known, n).items()}
    st.pool_of = [-1] * C.NUM_SHARE_CARDS
    for c in pile:
        st.pool_of[c] = 0
    st.known = [[] for _ in range(n)]
    st.hand_pool = []
    for q in range(n):
        for c in known_map.get(q, []):
            if c not in st.hands[q]:
                raise ValueError(f"known card {C.card_name(c)} is not in seat {q}'s hand")
        st.known[q] = sorted(known_map.get(q, []))
        hidden_count = 0
        for c in st.hands[q]:
            if c not in st.known[q]:
                st.pool_of[c] = 0
                hidden_count += 1
        st.hand_pool.append([hidden_count])
    st.reshuffles = 0

    # ---------------------------------------------------------------- event cards
    remaining = list(C.EVENT_DECK)
    remaining[C.MARKET_CLOSED] -= 1  # in play, between the pile above and the cards below

    def take(kind: int, where: str) -> int:
        if kind == C.MARKET_CLOSED:
            raise ValueError(f"Market Closed cannot be {where} (use events_above)")
        remaining[kind] -= 1
        if remaining[kind] < 0:
            raise ValueError(f"too many {C.EVENT_NAMES[kind]} cards ({where})")
        return kind

    for s in range(C.NUM_STOCKS):
        for _ in range(st.splits[s]):
            take(C.SPLIT + s, "in the market")
        if st.frozen[s]:
            take(C.FREEZE, "in the market")
    saved_map = {q: [take(event(k), "saved") for k in ks] for q, ks in _per_seat(saved, n).items()}
    top_kinds = [take(event(k), "on top of the event pile") for k in event_top]
    discard_kinds = [take(event(k), "in the event discard pile") for k in event_discard]
    filler: list[int] = []
    for k in reversed(st.ev_below + st.ev_above):  # the seed's order, top of the pile first
        if remaining[k] > 0:
            remaining[k] -= 1
            filler.append(k)
    assert not any(remaining), "every event card is placed"
    # At least ten cards lie under Market Closed all round: the others came from above it.
    most = len(filler) - C.CARDS_BELOW_CLOSED
    room = most if events_above is None else events_above - len(top_kinds)
    if room < 0 or room > most:
        raise ValueError(
            f"{events_above} cards above Market Closed: it must be from {len(top_kinds)} "
            f"(event_top) to {len(top_kinds) + most} (ten cards stay under it)"
        )
    above = filler[:room]
    below = filler[room:]
    st.ev_above = list(reversed(top_kinds + above))  # drawn with pop(): the top is last
    st.ev_below = below
    st.ev_below_mask = [0] * len(below)
    everyone = (1 << (n + 1)) - 1
    st.ev_discard = discard_kinds
    st.ev_discard_mask = [everyone] * len(discard_kinds)
    st.saved = [list(saved_map.get(q, [])) for q in range(n)]

    # ---------------------------------------------------------------- tokens, turn, scores
    if tokens is not None:
        token_map = _per_seat(tokens, n)
        st.tokens = [int(token_map.get(q, C.START_TOKENS)) for q in range(n)]
    st.supply = C.TOTAL_TOKENS - sum(st.tokens)
    if st.supply < 0 or min(st.tokens) < 0:
        raise ValueError("there are only 30 option tokens")
    if not 1 <= round <= game.options.rounds:
        raise ValueError(f"round {round} is not played with rounds={game.options.rounds}")
    st.round = round
    totals = list(scores) if scores is not None else [0] * n
    if len(totals) != n or (round == 1 and any(totals)):
        raise ValueError("scores need one total per seat, and only after round 1")
    st.totals = totals
    earlier = [list(totals)] + [[0] * n for _ in range(round - 2)]
    st.round_scores = earlier[: round - 1]
    st.round_reasons = ["market_closed"] * (round - 1)
    st.dealer = (current - 1) % n if dealer is None else dealer
    st.turn = current
    st.cur = current
    st.phase = ACTION
    st.end_reason = None
    st.follow = FOLLOW_NONE
    st.pair = []
    st.ev_active = -1
    st.ev_stock = -1
    st.owed = 0
    st.queue = []
    st.from_deal = False  # a position: its history starts here, not at the deal
    st.history = []
    st.log = [(None, ("round_start", st.round, st.dealer), None)]
    st._legal = None
    st.check_invariants()
    return st


def play(state: TakeStockState, *moves: str) -> TakeStockState:
    """Apply each move, given in the text notation, and check the invariants after each."""
    for text in moves:
        state.apply_string(text)
        state.check_invariants()
    return state


def legal_names(state: TakeStockState) -> list[str]:
    """The legal actions of ``state`` in the text notation, in id order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_refused(state: TakeStockState, action: int | str, *reason: str) -> str:
    """Check that ``action`` is refused with a message holding each ``reason`` fragment,
    and that the state is left exactly as it was; return the message."""
    before = state.to_json()
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        if isinstance(action, str):
            state.apply(state.string_to_action(action))
        else:
            state.apply(action)
    message = str(info.value)
    for fragment in reason:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert state.to_json() == before, "a refused action changed the state"
    assert state.legal_actions() == legal
    return message
