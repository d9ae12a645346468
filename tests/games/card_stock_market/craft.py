"""Crafted Card Stock Market positions for rules tests.

:func:`craft` sets up a real game with ``game.new_game(seed)`` and then moves the cards the
test names into place: market piles, bankrupt suits, hands, certificates, the discard pile
and the top of the draw pile. Every card it is not told about stays somewhere sensible
(hands are filled up to eight from the cards nobody asked for, the rest form the draw
pile, or the discard pile once the draw pile has the size asked for). Money, debts and
the bank are set so that every dollar is accounted for. With ``reshuffled=True`` the
position is just after the reshuffle: the jokers are in the draw pile and the record of
the reshuffle is rebuilt. The turn goes to ``current`` at the start of its turn, and the
helper ends with ``check_invariants``, so the engine can play on from it.

Cards are named as in the notation (``"7S"``, ``"10H"``, ``"QD"``, ``"Joker"``). A pile is
listed bottom first; a suit not named gets a single five.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import closingbell
from closingbell import IllegalActionError
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.state import START, CardStockMarketState

Card = int | str

_SUIT_IDS = {name.lower(): s for s, name in enumerate(C.SUITS)}
_SUIT_IDS.update({letter.lower(): s for s, letter in enumerate(C.SUIT_LETTERS)})


def make_game(players: int = 3, **options: object) -> CardStockMarket:
    """Load Card Stock Market with ``players`` seats and the given rules options."""
    game = closingbell.load_game("card_stock_market", players=players, **options)
    assert isinstance(game, CardStockMarket)
    return game


def card(name: Card) -> int:
    """The kind of a card given as ``"7S"`` (any case, suit symbols too) or as a kind."""
    if isinstance(name, int):
        if not 0 <= name <= C.JOKER:
            raise ValueError(f"no card has kind {name}")
        return name
    kind = C.parse_card(name)
    if kind is None:
        raise ValueError(f"{name!r} is not a card (write it like '7S', '10H' or 'Joker')")
    return kind


def cards(names: Iterable[Card]) -> list[int]:
    """The kinds of several cards."""
    return [card(n) for n in names]


def suit(name: int | str) -> int:
    """The index of a suit given by name or letter (any case) or index."""
    if isinstance(name, int):
        if not 0 <= name < C.NUM_SUITS:
            raise ValueError(f"no suit has index {name}")
        return name
    try:
        return _SUIT_IDS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"{name!r} is not a suit ({', '.join(C.SUITS)})") from None


def _per_seat(value: Mapping[int, object] | None, n: int) -> dict[int, object]:
    out = dict(value or {})
    for seat in out:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} does not exist with {n} players")
    return out


def craft(
    game: CardStockMarket,
    *,
    seed: int = 1,
    current: int = 0,
    dealer: int | None = None,
    piles: Mapping[str | int, Sequence[Card]] | None = None,
    bankrupt: Iterable[str | int] = (),
    hands: Mapping[int, Sequence[Card]] | None = None,
    certs: Mapping[int, Sequence[Card]] | None = None,
    discard: Sequence[Card] = (),
    draw_top: Sequence[Card] = (),
    draw_size: int | None = None,
    reshuffled: bool = False,
    cash: Mapping[int, int] | None = None,
    debts: Mapping[int, int] | None = None,
    bank: int | None = None,
) -> CardStockMarketState:
    """Return a consistent state of ``game`` arranged as described, ``current`` to act.

    - ``piles``: market piles, bottom first; ``bankrupt``: suits whose top card (a face
      card) bankrupted them.
    - ``hands``: exact hands; a seat not named holds eight cards, filled from the cards
      nobody named in the order the seed put them.
    - ``certs``: certificates on the table; ``discard``: the discard pile.
    - ``draw_top``: the next cards drawn, top first. ``draw_size`` fixes the draw pile's
      size; the unnamed cards that do not fit go to the discard pile.
    - ``reshuffled``: the draw pile was made anew just now; both jokers are in it (at the
      bottom unless ``draw_top`` names them). Otherwise they wait outside the game.
    - ``cash`` and ``debts`` per seat (cash defaults to the opening balance); ``bank``
      the bank's money. When ``bank`` is given, the seats whose cash is not named share
      what is left of the game's money (the first of them takes any odd dollars).
    """
    st = game.new_game(seed)
    n = st.n
    if not 0 <= current < n:
        raise ValueError(f"current seat {current} does not exist with {n} players")
    left: Counter[int] = Counter(dict.fromkeys(range(C.NUM_KINDS), C.COPIES))
    left[C.JOKER] = C.COPIES

    def place(ids: Iterable[int], where: str) -> list[int]:
        out = []
        for c in ids:
            left[c] -= 1
            if left[c] < 0:
                raise ValueError(f"too many {C.card_name(c)} cards ({where})")
            out.append(c)
        return out

    # ---------------------------------------------------------------- the market
    pile_map: dict[int, list[int]] = {}
    for name, values in (piles or {}).items():
        s = suit(name)
        ids = cards(values)
        if not ids or any(C.suit_of(c) != s for c in ids if c != C.JOKER):
            raise ValueError(f"the {C.SUITS[s]} pile must hold {C.SUITS[s]} cards")
        pile_map[s] = place(ids, f"the {C.SUITS[s]} pile")
    for s in range(C.NUM_SUITS):
        if s not in pile_map:
            pile_map[s] = place([C.kind(s, 5)], f"the {C.SUITS[s]} pile")
    busted = [False] * C.NUM_SUITS
    for name in bankrupt:
        s = suit(name)
        if not C.is_face(pile_map[s][-1]):
            raise ValueError(f"only a face card on top can bankrupt {C.SUITS[s]}")
        busted[s] = True

    # ---------------------------------------------------------------- cards
    hand_map = {q: place(cards(h), f"seat {q}'s hand") for q, h in _per_seat(hands, n).items()}
    cert_map = {
        q: place(cards(h), f"seat {q}'s certificates") for q, h in _per_seat(certs, n).items()
    }
    discard_ids = place(cards(discard), "the discard pile")
    top_ids = place(cards(draw_top), "the top of the draw pile")
    if C.JOKER in top_ids and not reshuffled:
        raise ValueError("the jokers join the draw pile only at the reshuffle")
    for ids in (*hand_map.values(), *cert_map.values(), discard_ids):
        if C.JOKER in ids:
            raise ValueError("a joker is never in a hand, a certificate or the discard pile")

    # Unnamed cards, in the order the seed put them (hands first, then the pile top down).
    free: list[int] = []
    avail = Counter(left)
    del avail[C.JOKER]
    for c in [*(c for h in st.hands for c in h), *reversed(st.draw), *(p[0] for p in st.piles)]:
        if avail[c] > 0:
            avail[c] -= 1
            free.append(c)
    for q in range(n):
        if q not in hand_map:
            take, free = free[: C.HAND_SIZE], free[C.HAND_SIZE :]
            if len(take) < C.HAND_SIZE:
                raise ValueError("not enough cards left to fill the hands")
            hand_map[q] = take
    for q, h in hand_map.items():
        if len(h) != C.HAND_SIZE:
            raise ValueError(f"seat {q} must hold {C.HAND_SIZE} cards at the start of a turn")
    jokers = left[C.JOKER]
    if draw_size is None:
        pile = top_ids + free
        spare: list[int] = []
    else:
        room = draw_size - len(top_ids) - (jokers if reshuffled else 0)
        if room < 0 or room > len(free):
            raise ValueError(f"the draw pile cannot hold {draw_size} cards")
        pile, spare = top_ids + free[:room], free[room:]
    if reshuffled:
        pile += [C.JOKER] * jokers
    if not pile:
        raise ValueError("the draw pile is never empty at the start of a turn")

    st.piles = [pile_map[s] for s in range(C.NUM_SUITS)]
    st.busted = busted
    st.prices = [0 if busted[s] else C.rank_of(st.piles[s][-1]) for s in range(C.NUM_SUITS)]
    st.hands = [sorted(hand_map[q]) for q in range(n)]
    st.certs = [sorted(cert_map.get(q, [])) for q in range(n)]
    st.held = [[0] * C.NUM_SUITS for _ in range(n)]
    for q in range(n):
        for c in st.certs[q]:
            st.held[q][C.suit_of(c)] += C.SHARES[c]
    st.draw = list(reversed(pile))
    st.discard = spare + discard_ids
    st.jokers_out = 0 if reshuffled else C.COPIES
    st.joker_by = -1
    st.reshuffled = reshuffled
    st.re_pile = sorted(pile) if reshuffled else []
    st.re_hands = [h[:] for h in st.hands] if reshuffled else []
    st.re_drawn = [[] for _ in range(n)] if reshuffled else []
    st.re_events = [[] for _ in range(n)] if reshuffled else []

    # ---------------------------------------------------------------- money
    opts = game.options
    total = (opts.bank_money or 0) + n * opts.starting_money
    cash_map = {q: int(str(v)) for q, v in _per_seat(cash, n).items()}
    money = [cash_map.get(q, opts.starting_money) for q in range(n)]
    if bank is not None:
        rest = [q for q in range(n) if q not in cash_map]
        spare_money = total - bank - sum(cash_map.values())
        if not rest:
            if spare_money:
                raise ValueError(f"cash and bank must add up to ${total}")
        else:
            each = spare_money // len(rest)
            for q in rest:
                money[q] = each
            money[rest[0]] += spare_money - each * len(rest)
    st.cash = money
    st.bank = total - sum(money)
    debt_map = _per_seat(debts, n)
    st.debt = [int(str(debt_map.get(q, 0))) for q in range(n)]
    # Debts come from levies: count as few as could have made the largest one.
    st.levies = -(-max(st.debt) // game.options.levy)

    # ---------------------------------------------------------------- the turn
    st.dealer = (current - 1) % n if dealer is None else dealer
    st.turn = current
    st.cur = current
    st.phase = START
    st.turns = 1
    st.trades = st.sales = st.changes = st.discards = 0
    st.bought = st.sold = 0
    st.from_deal = False  # a position: its history starts here, not at the deal
    st.history = []
    st.log = [(None, ("turn", current, 1), None)]
    st._legal = None
    st.check_invariants()
    return st


def play(state: CardStockMarketState, *moves: str) -> CardStockMarketState:
    """Apply each move, given in the text notation, and check the invariants after each."""
    for text in moves:
        state.apply_string(text)
        state.check_invariants()
    return state


def legal_texts(state: CardStockMarketState) -> list[str]:
    """The legal actions in the text notation."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def assert_refused(state: CardStockMarketState, move: str | int, reason: str) -> None:
    """``move`` must be refused with ``reason`` in the message, leaving the state as it was."""
    before = state.to_json()
    history = list(state.history)
    action = state.string_to_action(move) if isinstance(move, str) else move
    try:
        state.apply(action)
    except IllegalActionError as exc:
        assert reason in str(exc), f"{str(exc)!r} does not say {reason!r}"
    else:
        raise AssertionError(f"{move!r} was accepted")
    assert state.to_json() == before, "a refused action changed the state"
    assert state.history == history
