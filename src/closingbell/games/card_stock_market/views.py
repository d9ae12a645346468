"""What one seat may see of a Card Stock Market game, and full states sampled from it.

:func:`build_view` is the only way information leaves a state for a front end, a bot or
a learning agent. :func:`sample_state` goes the other way: it deals the cards a seat
cannot see at random, keeping to everything the seat knows, so that search bots can play
out possible worlds.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from closingbell.core.errors import StateFormatError
from closingbell.core.rng import fresh_seed
from closingbell.core.view import View
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.ruleset import CardStockMarketRuleset
from closingbell.games.card_stock_market.state import PHASE_NAMES, AnyState, CardStockMarketFields

_SEARCH_LIMIT = 200_000
"""Steps the search for an explanation of the plays since the reshuffle may take."""


@dataclass(frozen=True)
class SuitMarket:
    """One suit's market pile, as everyone sees it."""

    name: str
    """The suit's name."""
    pile: tuple[int, ...]
    """The cards of its market pile, bottom first (all were played face up)."""
    price: int
    """The current price of one share."""
    bankrupt: bool
    """Whether the top card is a face card that bankrupted the suit."""
    max_rise: int
    """The strip's largest rise per number card."""
    max_fall: int
    """The strip's largest fall per number card."""


@dataclass(frozen=True)
class CardStockMarketView(View):
    """Everything one seat of a Card Stock Market game may see or remember, and nothing more.

    Cards are kinds (``suit * 13 + rank - 1``, 52 for a joker; see
    :mod:`closingbell.games.card_stock_market.cards`). Per-seat tuples are indexed by seat;
    card lists are sorted unless said otherwise.
    """

    players: int
    """Seats at the table."""
    dealer: int
    """The dealer and banker."""
    turn_player: int
    """Whose turn it is (or was, when the game ended)."""
    turn_number: int
    """Turns begun so far, this one included."""
    current_player: int | None
    """The seat that must decide now; ``None`` once the game is over."""
    decision: str
    """The pending decision's name (see ``PHASE_NAMES``)."""
    suits: tuple[SuitMarket, ...]
    """The four market piles, clubs, diamonds, hearts, spades."""
    hand: tuple[int, ...]
    """This seat's hand (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """Cards in each seat's hand."""
    certificates: tuple[tuple[int, ...], ...]
    """Each seat's stock certificates, face up on the table."""
    shares: tuple[tuple[int, ...], ...]
    """Each seat's shares per suit."""
    cash: tuple[int, ...]
    """Each seat's money."""
    debts: tuple[int, ...]
    """What each seat owes the bank."""
    bank: int | None
    """The bank's money (``None``: an unlimited bank)."""
    levies: int
    """Levies made so far because the bank could not pay."""
    scores: tuple[int, ...]
    """Each seat's money less its debt."""
    discard_pile: tuple[int, ...]
    """The discard pile (every card went there face up)."""
    draw_pile: int
    """Cards in the draw pile."""
    jokers_held_out: int
    """Jokers waiting outside the game for the reshuffle (2 before it, 0 after)."""
    joker_drawn_by: int | None
    """The seat whose drawn joker ended the game."""
    reshuffled: bool
    """Whether the draw pile has run out and been made anew."""
    reshuffle_pile: tuple[int, ...]
    """The cards shuffled into the new draw pile, jokers included."""
    reshuffle_hand_sizes: tuple[int, ...]
    """Each seat's hand size at the reshuffle."""
    reshuffle_hidden: tuple[int, ...]
    """The cards that were in the hands at the reshuffle (all cards no one could see)."""
    own_reshuffle_hand: tuple[int, ...]
    """This seat's hand at the reshuffle."""
    own_drawn: tuple[int, ...]
    """The cards this seat has drawn since the reshuffle."""
    records: tuple[tuple[int, ...], ...]
    """Per seat since the reshuffle, in order: a card's kind for each card that left the
    hand face up, ``-k`` for ``k`` cards drawn."""
    trades: int
    """Transactions made this turn."""
    sales: int
    """How many of them were sales."""
    changes: int
    """Market changes made this turn."""
    discards: int
    """Cards discarded this turn."""
    bought_suits: tuple[int, ...]
    """Suits bought this turn."""
    sold_suits: tuple[int, ...]
    """Suits sold this turn."""
    legal_actions: tuple[int, ...]
    """The legal actions, when this seat must decide; empty otherwise."""


def _suits_of(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(C.NUM_SUITS) if (mask >> s) & 1)


def build_view(st: CardStockMarketFields, seat: int | None) -> CardStockMarketView:
    """Return what ``seat`` (``None``: a spectator) may see of ``st``."""
    n = st.n
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"a view is for a seat from 0 to {n - 1}, or None for a spectator")
    game = st.game
    suits = tuple(
        SuitMarket(
            C.SUITS[s],
            tuple(st.piles[s]),
            st.prices[s],
            st.busted[s],
            game.rise[s],
            game.fall[s],
        )
        for s in range(C.NUM_SUITS)
    )
    mine = seat is not None
    re_hidden: list[int] = []
    for h in st.re_hands:
        re_hidden += h
    return CardStockMarketView(
        game="card_stock_market",
        seat=seat,
        players=n,
        dealer=st.dealer,
        turn_player=st.turn,
        turn_number=st.turns,
        current_player=st.cur,
        decision=PHASE_NAMES[st.phase],
        suits=suits,
        hand=tuple(st.hands[seat]) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in st.hands),
        certificates=tuple(tuple(c) for c in st.certs),
        shares=tuple(tuple(h) for h in st.held),
        cash=tuple(st.cash),
        debts=tuple(st.debt),
        bank=st.bank if game.bank_limited else None,
        levies=st.levies,
        scores=tuple(st.scores()),
        discard_pile=tuple(sorted(st.discard)),
        draw_pile=len(st.draw),
        jokers_held_out=st.jokers_out,
        joker_drawn_by=st.joker_by if st.joker_by >= 0 else None,
        reshuffled=st.reshuffled,
        reshuffle_pile=tuple(st.re_pile),
        reshuffle_hand_sizes=tuple(len(h) for h in st.re_hands),
        reshuffle_hidden=tuple(sorted(re_hidden)),
        own_reshuffle_hand=tuple(st.re_hands[seat]) if seat is not None and st.reshuffled else (),
        own_drawn=(tuple(sorted(st.re_drawn[seat])) if seat is not None and st.reshuffled else ()),
        records=tuple(tuple(e) for e in st.re_events),
        trades=st.trades,
        sales=st.sales,
        changes=st.changes,
        discards=st.discards,
        bought_suits=_suits_of(st.bought),
        sold_suits=_suits_of(st.sold),
        legal_actions=tuple(st.legal_actions()) if mine and st.cur == seat else (),
    )


def _fail(message: str) -> StateFormatError:
    return StateFormatError(f"view cannot be sampled: {message}")


def sample_state(
    cls: type[AnyState], game: CardStockMarketRuleset, view: CardStockMarketView, rng: random.Random
) -> AnyState:
    """Deal a full state, a ``cls``, that gives ``view`` to its seat, hidden cards drawn by ``rng``.

    Every sampled state is one that could have come about: the hands and the draw pile
    hold exactly the cards the seat cannot place, and after the reshuffle the draw pile
    holds only cards (both jokers among them) that went into it, each hand holds cards
    from before the reshuffle and cards drawn since in numbers the table saw, and every
    card a seat has played since can be explained. The sampled state has a fresh seed
    (so the next shuffle is unknown too), an empty history and an empty log: it is a
    possible present, not a replayable game.
    """
    n = game.options.players
    if view.players != n or view.game != "card_stock_market":
        raise _fail("the view is of another game or player count")
    seat = view.seat
    opts = game.options
    st = cls.__new__(cls)
    st.game = game
    st.n = n
    st.seed = fresh_seed(rng)
    st.dealer = view.dealer
    st.turn = view.turn_player
    st.turns = view.turn_number
    st.cur = view.current_player
    if view.decision not in PHASE_NAMES:
        raise _fail(f"unknown decision {view.decision!r}")
    st.phase = PHASE_NAMES.index(view.decision)
    st.piles = [list(m.pile) for m in view.suits]
    st.busted = [m.bankrupt for m in view.suits]
    st.prices = [m.price for m in view.suits]
    st.certs = [list(c) for c in view.certificates]
    st.held = [list(h) for h in view.shares]
    st.cash = list(view.cash)
    st.debt = list(view.debts)
    total = (opts.bank_money or 0) + n * opts.starting_money
    st.bank = view.bank if view.bank is not None else total - sum(view.cash)
    st.levies = view.levies
    st.discard = list(view.discard_pile)
    st.jokers_out = view.jokers_held_out
    st.joker_by = -1 if view.joker_drawn_by is None else view.joker_drawn_by
    st.reshuffled = view.reshuffled
    st.re_pile = list(view.reshuffle_pile)
    st.re_events = [list(r) for r in view.records]
    st.trades = view.trades
    st.sales = view.sales
    st.changes = view.changes
    st.discards = view.discards
    st.bought = sum(1 << s for s in view.bought_suits)
    st.sold = sum(1 << s for s in view.sold_suits)
    st.history = []
    st.log = []
    st._legal = None
    if view.reshuffled:
        _deal_after_reshuffle(st, view, seat, rng)
    else:
        _deal_before_reshuffle(st, view, seat, rng)
    try:
        st.check_invariants()
    except (AssertionError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise _fail(str(exc)) from None
    return st


def _deal_before_reshuffle(
    st: CardStockMarketFields, view: CardStockMarketView, seat: int | None, rng: random.Random
) -> None:
    """One pool: every card no one can see is as likely in any hand as in the pile."""
    unseen = Counter(dict.fromkeys(range(C.NUM_KINDS), C.COPIES))
    seen: list[int] = [*view.discard_pile, *view.hand]
    for m in view.suits:
        seen += m.pile
    for certs in view.certificates:
        seen += certs
    unseen.subtract(seen)
    if min(unseen.values()) < 0:
        raise _fail("more copies of a card are seen than the deck holds")
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    st.hands = []
    at = 0
    for q in range(st.n):
        if q == seat:
            st.hands.append(list(view.hand))
            continue
        size = view.hand_sizes[q]
        st.hands.append(sorted(cards[at : at + size]))
        at += size
    st.draw = cards[at:]
    if len(st.draw) != view.draw_pile:
        raise _fail(f"{len(cards)} unseen cards for {at} in hands and {view.draw_pile} to draw")
    st.re_hands = []
    st.re_drawn = []


def _deal_after_reshuffle(
    st: CardStockMarketFields, view: CardStockMarketView, seat: int | None, rng: random.Random
) -> None:
    """Two pools: the hands at the reshuffle, and the new draw pile."""
    n = st.n
    old = Counter(view.reshuffle_hidden)
    new = Counter(view.reshuffle_pile)
    old.subtract(view.own_reshuffle_hand)
    new.subtract(view.own_drawn)
    if view.joker_drawn_by is not None:
        new[C.JOKER] -= 1
    if min(old.values(), default=0) < 0 or min(new.values(), default=0) < 0:
        raise _fail("this seat's own cards are not among those of the reshuffle")
    jokers = new.pop(C.JOKER, 0)
    others = [q for q in range(n) if q != seat]
    # Each other seat's plays since the reshuffle, with the draws made before each.
    plays: list[tuple[int, int, int]] = []
    drawn_count = [0] * n
    for q in others:
        for e in view.records[q]:
            if e < 0:
                drawn_count[q] -= e
            else:
                plays.append((q, e, drawn_count[q]))
    source = _explain(plays, view, old, new, rng)
    # Fill: each seat's hand at the reshuffle and its draws hold the cards its plays
    # needed, the rest dealt at random from what is left of each pool.
    re_hands: list[list[int]] = [[] for _ in range(n)]
    re_drawn: list[list[int]] = [[] for _ in range(n)]
    for (q, card, _), from_old in zip(plays, source, strict=True):
        (re_hands if from_old else re_drawn)[q].append(card)
    old_rest = sorted(old.elements())
    new_rest = sorted(new.elements())
    rng.shuffle(old_rest)
    rng.shuffle(new_rest)
    for q in others:
        need = view.reshuffle_hand_sizes[q] - len(re_hands[q])
        re_hands[q] += old_rest[:need]
        old_rest = old_rest[need:]
        need = drawn_count[q] - len(re_drawn[q])
        re_drawn[q] += new_rest[:need]
        new_rest = new_rest[need:]
        if len(re_drawn[q]) != drawn_count[q] or len(re_hands[q]) != view.reshuffle_hand_sizes[q]:
            raise _fail(f"too few unseen cards for seat {q}")
    if old_rest:
        raise _fail(f"{len(old_rest)} cards of the hands at the reshuffle have no place")
    pile = new_rest + [C.JOKER] * jokers
    rng.shuffle(pile)
    if len(pile) != view.draw_pile:
        raise _fail(f"{len(pile)} cards left for a draw pile of {view.draw_pile}")
    st.draw = pile
    st.hands = []
    for q in range(n):
        if q == seat:
            re_hands[q] = list(view.own_reshuffle_hand)
            re_drawn[q] = list(view.own_drawn)
            st.hands.append(list(view.hand))
            continue
        have = Counter(re_hands[q]) + Counter(re_drawn[q])
        have.subtract(e for e in view.records[q] if e >= 0)
        st.hands.append(sorted(have.elements()))
    st.re_hands = [sorted(h) for h in re_hands]
    st.re_drawn = re_drawn


class _Pools:
    """What the two pools have left and what each seat may still take from them."""

    __slots__ = ("new", "new_used", "old", "old_left")

    def __init__(self, old: Counter[int], new: Counter[int], old_left: list[int]) -> None:
        self.old = old
        """Cards of the hands at the reshuffle not yet given to a play."""
        self.new = new
        """Cards of the new draw pile (no jokers) not yet given to a play."""
        self.old_left = old_left
        """Per seat: cards from before the reshuffle it may still have played."""
        self.new_used = [0] * len(old_left)
        """Per seat: plays already explained as drawn cards."""

    def take(self, from_old: bool, q: int, card: int, sign: int = -1) -> None:
        """Take (``sign`` -1) or give back (+1) the card of one play of seat ``q``."""
        if from_old:
            self.old_left[q] += sign
            self.old[card] += sign
        else:
            self.new_used[q] -= sign
            self.new[card] += sign

    def can_finish(self, plays: list[tuple[int, int, int]]) -> bool:
        """Whether ``plays`` may still be explained, as far as a quick test can tell.

        Exact for each seat on its own: taking a play's card from the new pile whenever it
        may, and turning an earlier such choice back to the old pool when a seat would have
        played more drawn cards than it had drawn, uses as few old cards as possible. Seats
        compete for the same card only through the pools' counts, checked per card.
        """
        old = self.old
        new = self.new
        need: Counter[int] = Counter()
        seat = -1
        flexible = used = olds = 0
        for q, card, drawn in plays:
            if q != seat:
                if seat >= 0 and olds > self.old_left[seat]:
                    return False
                seat = q
                flexible = olds = 0
                used = self.new_used[q]
            need[card] += 1
            can_old = old[card] > 0
            if new[card] > 0:
                used += 1
                if can_old:
                    flexible += 1
                if used > drawn:
                    if not flexible:
                        return False
                    flexible -= 1
                    used -= 1
                    olds += 1
            elif can_old:
                olds += 1
            else:
                return False
        if seat >= 0 and olds > self.old_left[seat]:
            return False
        return all(count <= old[card] + new[card] for card, count in need.items())


def _explain(
    plays: list[tuple[int, int, int]],
    view: CardStockMarketView,
    old: Counter[int],
    new: Counter[int],
    rng: random.Random,
) -> list[bool]:
    """Choose for each play whether its card was held at the reshuffle (``True``) or drawn.

    The choice must leave no pool giving more of a card than it has, no seat playing more
    cards from before than it held, and no seat more drawn cards than it had drawn by then.
    A depth-first search tries the two sources in random order and looks ahead after each
    choice (:meth:`_Pools.can_finish`); the true history is one answer, so one exists.
    ``old`` and ``new`` are left holding what the explanation did not use.
    """
    pools = _Pools(old, new, list(view.reshuffle_hand_sizes))
    source: list[bool] = []
    options: list[list[bool]] = []
    steps = 0
    i = 0
    while i < len(plays):
        steps += 1
        if steps > _SEARCH_LIMIT:
            raise _fail("no explanation found for the plays since the reshuffle")
        q, card, drawn = plays[i]
        if len(options) == i:
            choices = []
            if pools.old_left[q] > 0 and old[card] > 0:
                choices.append(True)
            if pools.new_used[q] < drawn and new[card] > 0:
                choices.append(False)
            if len(choices) == 2 and rng.random() < 0.5:
                choices.reverse()
            options.append(choices)
        choices = options[i]
        while choices:
            from_old = choices.pop()
            pools.take(from_old, q, card)
            if pools.can_finish(plays[i + 1 :]):
                source.append(from_old)
                i += 1
                break
            pools.take(from_old, q, card, 1)
        else:
            # Dead end: forget this play's options and undo the previous choice.
            options.pop()
            i -= 1
            if i < 0:
                raise _fail("the plays since the reshuffle cannot be explained")
            q, card, _ = plays[i]
            pools.take(source.pop(), q, card, 1)
    return source
