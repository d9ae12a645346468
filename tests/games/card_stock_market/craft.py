"""Card Stock Market positions for rules tests: a thin layer over the position notation.

Rules tests write their positions in the notation (``docs/positions.md``) through
:func:`position`. :func:`craft` is the older keyword form, kept for the tests that use it
(the bots' tests among them): it turns its arguments into a short position's text and
reads it with ``game.state_from_position``, so it checks and defaults exactly as the
notation does. Cards are named as in the notation (``"7S"``, ``"10H"``, ``"QD"``,
``"Joker"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import closingbell
from closingbell import IllegalActionError
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket, CardStockMarketState

Card = int | str

_SUIT_IDS = {name.lower(): s for s, name in enumerate(C.SUITS)}
_SUIT_IDS.update({letter.lower(): s for s, letter in enumerate(C.SUIT_LETTERS)})


def make_game(players: int = 3, **options: object) -> CardStockMarket:
    """Load Card Stock Market with ``players`` seats and the given rules options."""
    game = closingbell.load_game("card_stock_market", players=players, **options)
    assert isinstance(game, CardStockMarket)
    return game


def position(text: str, players: int = 3, **options: object) -> CardStockMarketState:
    """The position ``text`` of a game with ``players`` seats and the given options."""
    return make_game(players, **options).state_from_position(text)


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


def _names(values: Iterable[Card]) -> list[str]:
    return [C.card_name(card(v)) for v in values]


def _list(values: Iterable[str]) -> str:
    return " ".join(values) or "-"


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
    """The position described, ``current`` to start its turn (read through the notation).

    - ``piles``: market piles, bottom first (a suit not named: its five); ``bankrupt``:
      suits whose top card (a face card) bankrupted them.
    - ``hands``: exact hands; a seat not named is dealt eight unnamed cards.
    - ``certs``: certificates; ``discard``: the discard pile, bottom first.
    - ``draw_top``: the next cards drawn, top first. ``draw_size`` fixes the draw pile's
      size; the unnamed cards that do not fit go under the discard pile.
    - ``reshuffled``: the draw pile was made anew; both jokers are in it (at the bottom
      unless ``draw_top`` names them). Otherwise they wait outside the game.
    - ``cash`` and ``debts`` per seat (cash defaults to the opening balance); ``bank``
      the bank's money: the seats whose cash is not named then share what is left of the
      game's money (the first of them takes any odd dollars).
    - ``dealer``: the dealer; by default the seat before ``current`` (turn number 1).
    """
    n = game.options.players
    for mapping in (hands, certs, cash, debts):
        for q in mapping or {}:
            if not isinstance(q, int) or not 0 <= q < n:
                raise ValueError(f"seat {q!r} does not exist with {n} players")
    fields = [f"seed: {seed}", f"turn: {current}"]
    if dealer is not None:
        fields.append(f"dealer: {dealer}")
        fields.append(f"turn_number: {(current - dealer - 1) % n + 1}")
    market = [c for s, pile in sorted((suit(k), v) for k, v in (piles or {}).items()) for c in pile]
    fields.append(f"market: {_list(_names(market))}")
    fields.append(f"bankrupt: {_list(C.SUIT_LETTERS[suit(s)] for s in bankrupt)}")
    hand_map = hands or {}
    parts = [_list(_names(hand_map[q])) if q in hand_map else "..." for q in range(n)]
    fields.append("hands: " + " / ".join(parts))
    cert_map = certs or {}
    fields.append("certs: " + " / ".join(_list(_names(cert_map.get(q, []))) for q in range(n)))
    top = _names(draw_top)
    if reshuffled:
        fields.append("jokers: draw")
    if draw_size is None:
        fields.append(f"draw: {' '.join([*top, '...'])}")
    else:
        jokers = C.COPIES - top.count("Joker") if reshuffled else 0
        room = draw_size - len(top) - jokers
        if room < 0:
            raise ValueError(f"the draw pile cannot hold {draw_size} cards")
        fields.append(f"draw: {_list([*top, *['?'] * room, *['Joker'] * jokers])}")
    fields.append(f"discard: {' '.join([*_names(reversed(discard)), '...'])}")
    opts = game.options
    money = [opts.starting_money] * n
    for q, value in (cash or {}).items():
        money[q] = value
    if bank is not None:
        total = (opts.bank_money or 0) + n * opts.starting_money
        rest = [q for q in range(n) if q not in (cash or {})]
        spare = total - bank - sum(money[q] for q in range(n) if q in (cash or {}))
        if rest:
            each = spare // len(rest)
            for q in rest:
                money[q] = each
            money[rest[0]] += spare - each * len(rest)
        fields.append(f"bank: {bank}")
    fields.append("cash: " + " / ".join(str(m) for m in money))
    debt_map = debts or {}
    fields.append("debts: " + " / ".join(str(debt_map.get(q, 0)) for q in range(n)))
    return game.state_from_position("\n".join(fields))


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
