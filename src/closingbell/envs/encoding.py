"""Fixed-length observation vectors and action masks, built from one seat's view only.

Each game and player count has one layout: a list of named fields laid end to end in a
``float32`` vector whose every entry lies in ``[0, 1]``. Seats are *rotated* so that the
observing seat comes first: relative seat ``r`` is absolute seat ``(seat + r) % players``.
Counts are divided by a documented scale and clipped at 1. ``docs/observations.md``
describes every field; :attr:`Encoder.fields` is the same table in code.

An encoder reads nothing but a :class:`~closingbell.core.view.View`, so two states that
differ only in what the seat cannot see give the same vector.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.card_stock_market import cards as CC
from closingbell.games.card_stock_market.state import PHASE_NAMES as CSM_PHASES
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.games.take_stock import cards as TC
from closingbell.games.take_stock.state import PHASE_NAMES as TS_PHASES
from closingbell.games.take_stock.state import ROUND_END_REASONS
from closingbell.games.take_stock.views import TakeStockView

FloatArray = npt.NDArray[np.float32]
"""A float32 vector."""
MaskArray = npt.NDArray[np.int8]
"""An int8 vector of zeros and ones."""


@dataclass(frozen=True)
class Field:
    """One named stretch of an observation vector."""

    name: str
    """The field's name, as in ``docs/observations.md``."""
    offset: int
    """Index of its first entry."""
    size: int
    """How many entries it takes."""
    description: str
    """What the entries hold, in one line."""

    @property
    def slice(self) -> slice:
        """The field's entries as a slice of the vector."""
        return slice(self.offset, self.offset + self.size)


class Encoder:
    """Turns one game's views into observation vectors and action masks."""

    def __init__(self, game: Game) -> None:
        self.game = game
        """The game (its options fix the layout)."""
        self.players = game.players
        """Seats at the table."""
        self.num_actions = game.info.num_distinct_actions
        """Length of the action mask."""
        self.fields: list[Field] = []
        """The layout, in order."""
        self.size = 0
        """Length of the observation vector."""
        self._at: dict[str, slice] = {}
        self._layout()

    def _add(self, name: str, size: int, description: str) -> None:
        field = Field(name, self.size, size, description)
        self.fields.append(field)
        self._at[name] = field.slice
        self.size += size

    def _layout(self) -> None:
        raise NotImplementedError

    def _fill(self, view: Any, out: FloatArray) -> None:
        raise NotImplementedError

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def encode(self, view: View) -> FloatArray:
        """The observation vector of ``view`` (a seat's view of this game)."""
        if view.seat is None:
            raise ValueError("an observation is encoded for a seat, not for a spectator")
        if getattr(view, "players", None) != self.players or view.game != self.game.info.name:
            raise ValueError("the view is of another game or player count")
        out = np.zeros(self.size, dtype=np.float32)
        self._fill(view, out)
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def action_mask(self, view: View) -> MaskArray:
        """1 for each legal action of ``view`` (all 0 when the seat has no decision)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        legal: tuple[int, ...] = getattr(view, "legal_actions", ())
        if legal:
            mask[list(legal)] = 1
        return mask

    # helpers for the games' fill methods

    def _rel(self, seat: int, absolute: int) -> int:
        """The relative position of ``absolute`` for an observer at ``seat``."""
        return (absolute - seat) % self.players

    def _per_seat(self, out: FloatArray, name: str, seat: int, values: Any, scale: float) -> None:
        """Write one number per seat, rotated, divided by ``scale``."""
        block = out[self._at[name]]
        n = self.players
        for q in range(n):
            block[(q - seat) % n] = values[q] / scale

    def _seat_one_hot(self, out: FloatArray, name: str, seat: int, who: int | None) -> None:
        """Mark relative seat of ``who`` (nothing when ``None``)."""
        if who is not None:
            out[self._at[name]][self._rel(seat, who)] = 1.0

    def _one_hot(self, out: FloatArray, name: str, index: int | None) -> None:
        if index is not None:
            out[self._at[name]][index] = 1.0

    def _add_seats(self, dealer: str) -> None:
        """The fields every game starts with: who decides, the dealer, whose turn it is."""
        n = self.players
        self._add("to_move", n + 1, "relative seat that must decide; last entry: game over")
        self._add("dealer", n, dealer)
        self._add("turn_player", n, "relative seat whose turn it is")

    def _fill_seats(self, view: Any, out: FloatArray) -> None:
        """Write the fields of :meth:`_add_seats` for ``view``'s seat."""
        seat = view.seat
        if view.current_player is None:
            out[self._at["to_move"]][self.players] = 1.0
        else:
            self._seat_one_hot(out, "to_move", seat, view.current_player)
        self._seat_one_hot(out, "dealer", seat, view.dealer)
        self._seat_one_hot(out, "turn_player", seat, view.turn_player)


def _card_block(out: FloatArray, at: slice, width: int) -> FloatArray:
    """The field at ``at`` seen as rows of ``width`` entries (one row per channel)."""
    block = out[at]
    return block.reshape(-1, width)


class TakeStockEncoder(Encoder):
    """The observation layout of Take Stock (see ``docs/observations.md``)."""

    CARD_CHANNELS_FIXED: tuple[str, ...] = (
        "hand",
        "own_hidden",
        "market_row",
        "discard_pile",
        "retrieved",
        "unseen",
    )
    """Share-card channels before the per-seat ones."""
    EVENT_CHANNELS: tuple[str, ...] = (
        "saved_events",
        "drawn_events",
        "pending_event",
        "below_known",
        "below_public",
        "discard_known",
        "discard_public",
    )
    """Event-kind channels, each a count divided by the deck's count of that kind."""
    FOLLOW: tuple[str, ...] = ("save", "market A", "market B", "play")
    """What a pending discard pays for, in the order of ``pending_discard_for``."""

    def _layout(self) -> None:
        n = self.players
        self._add_seats("relative seat of this round's dealer")
        self._add("round", 1, "round / rounds")
        self._add("decision", len(TS_PHASES), "the pending decision, one-hot (PHASE_NAMES)")
        self._add("top", TC.NUM_STOCKS, "top value of each row / 12")
        self._add("splits", TC.NUM_STOCKS, "split cards on each row / 3")
        self._add("frozen", TC.NUM_STOCKS, "1 if the stock is frozen")
        self._add("price", TC.NUM_STOCKS, "price of each stock / 48")
        channels = len(self.CARD_CHANNELS_FIXED) + 2 * n - 1
        self._add(
            "share_cards",
            channels * TC.NUM_SHARE_CARDS,
            f"{channels} channels x 60 share cards: where each card is, as far as the seat knows",
        )
        self._add(
            "event_kinds",
            len(self.EVENT_CHANNELS) * TC.NUM_EVENT_KINDS,
            "7 channels x 24 event kinds: counts / copies in the deck",
        )
        self._add("hand_sizes", n, "cards each relative seat holds / 10")
        self._add("saved_counts", n, "saved event cards of each relative seat / 10")
        self._add("tokens", n, "option tokens of each relative seat / 10")
        self._add("scores", n, "total score of each relative seat / 1000")
        self._add(
            "last_round_scores", n, "points of each relative seat in the last scored round / 400"
        )
        self._add("waiting", n, "1 for each relative seat yet to choose in a hidden choice")
        self._add("hidden_counts", n, "cards each relative seat set aside in a hidden choice / 10")
        self._add("option_supply", 1, "option tokens left in the box / 30")
        self._add("draw_pile", 1, "share cards in the draw pile / 55")
        self._add("event_pile", 1, "event cards above Market Closed / 40")
        self._add("event_below", 1, "event cards under Market Closed / 10")
        self._add("event_discard", 1, "event cards in the event discard pile / 40")
        self._add("owed_discards", 1, "discards still owed for retrieved cards / 3")
        self._add("event_stock", TC.NUM_STOCKS, "the stock an audit or Insider Trading concerns")
        self._add("pending_discard_for", len(self.FOLLOW), "what a pending discard pays for")
        self._add("round_end_reason", len(ROUND_END_REASONS), "why the round ended, if it has")

    def _fill(self, view: Any, out: FloatArray) -> None:
        assert isinstance(view, TakeStockView) and view.seat is not None
        n = self.players
        seat = view.seat
        at = self._at
        self._fill_seats(view, out)
        out[at["round"]] = view.round / view.rounds
        self._one_hot(out, "decision", TS_PHASES.index(view.decision))
        for s, row in enumerate(view.stocks):
            out[at["top"]][s] = row.cards[-1] / TC.VALUES
            out[at["splits"]][s] = row.splits / 3
            out[at["frozen"]][s] = float(row.frozen)
            out[at["price"]][s] = row.price / 48
        cards = _card_block(out, at["share_cards"], TC.NUM_SHARE_CARDS)
        cards[0, list(view.hand)] = 1.0
        cards[1, list(view.own_hidden)] = 1.0
        for s, row in enumerate(view.stocks):
            cards[2, [TC.card_id(s, v) for v in row.cards]] = 1.0
        cards[3, list(view.discard_pile)] = 1.0
        cards[4, list(view.retrieved)] = 1.0
        own = set(view.hand) | set(view.own_hidden)
        unseen = [c for pool in view.pools for c in pool if c not in own]
        cards[5, unseen] = 1.0
        base = len(self.CARD_CHANNELS_FIXED)
        for q in range(n):
            r = self._rel(seat, q)
            cards[base + r, list(view.certificates[q])] = 1.0
            if r > 0:
                cards[base + n + r - 1, list(view.known_in_hands[q])] = 1.0
        events = _card_block(out, at["event_kinds"], TC.NUM_EVENT_KINDS)
        pending = () if view.pending_event is None else (view.pending_event,)
        for ch, kinds in enumerate(
            (
                view.saved_events,
                view.drawn_events,
                pending,
                view.event_below_known,
                view.event_below_public,
                view.event_discard_known,
                view.event_discard_public,
            )
        ):
            for kind in kinds:
                events[ch, kind] += 1.0 / TC.EVENT_DECK[kind]
        self._per_seat(out, "hand_sizes", seat, view.hand_sizes, 10)
        self._per_seat(out, "saved_counts", seat, view.saved_counts, 10)
        self._per_seat(out, "tokens", seat, view.tokens, 10)
        self._per_seat(out, "scores", seat, [max(0, x) for x in view.scores], 1000)
        if view.round_scores:
            last = [max(0, x) for x in view.round_scores[-1]]
            self._per_seat(out, "last_round_scores", seat, last, 400)
        for q in view.waiting:
            out[at["waiting"]][self._rel(seat, q)] = 1.0
        self._per_seat(out, "hidden_counts", seat, view.hidden_counts, 10)
        out[at["option_supply"]] = view.option_supply / TC.TOTAL_TOKENS
        out[at["draw_pile"]] = view.draw_pile / len(TC.SHARE_CARDS)
        out[at["event_pile"]] = view.event_pile / TC.NUM_EVENT_CARDS
        out[at["event_below"]] = view.event_below / TC.CARDS_BELOW_CLOSED
        out[at["event_discard"]] = view.event_discard / TC.NUM_EVENT_CARDS
        out[at["owed_discards"]] = view.owed_discards / TC.MAX_RETRIEVE
        self._one_hot(out, "event_stock", view.event_stock)
        if view.pending_discard_for is not None:
            self._one_hot(out, "pending_discard_for", self.FOLLOW.index(view.pending_discard_for))
        if view.round_end_reason is not None:
            self._one_hot(out, "round_end_reason", ROUND_END_REASONS.index(view.round_end_reason))


class CardStockMarketEncoder(Encoder):
    """The observation layout of Card Stock Market (see ``docs/observations.md``)."""

    CARD_CHANNELS_FIXED: tuple[str, ...] = (
        "hand",
        "market_piles",
        "pile_tops",
        "discard_pile",
        "reshuffle_pile",
        "reshuffle_hidden",
        "own_reshuffle_hand",
        "own_drawn",
    )
    """Card-kind channels before the per-seat ones."""
    KINDS = CC.NUM_KINDS + 1
    """Card kinds, the joker last."""

    def _layout(self) -> None:
        n = self.players
        opts: Any = self.game.options
        self.money = (opts.bank_money or CC.BANK_MONEY) + n * opts.starting_money
        """The scale of every amount of money: all the money in the game."""
        self._add_seats("relative seat of the dealer")
        self._add("turn_number", 1, "turns begun / 200")
        self._add("decision", len(CSM_PHASES), "the pending decision, one-hot (PHASE_NAMES)")
        self._add("price", CC.NUM_SUITS, "each suit's price / 13")
        self._add("bankrupt", CC.NUM_SUITS, "1 if the suit's top card bankrupted it")
        self._add("top_is_face", CC.NUM_SUITS, "1 if a face card is on top of the suit's pile")
        self._add("pile_size", CC.NUM_SUITS, "cards in the suit's market pile / 40")
        self._add("max_rise", CC.NUM_SUITS, "the strip's largest rise / 13")
        self._add("max_fall", CC.NUM_SUITS, "the strip's largest fall / 13")
        channels = len(self.CARD_CHANNELS_FIXED) + 2 * n
        self._add(
            "card_kinds",
            channels * self.KINDS,
            f"{channels} channels x 53 kinds: copies of each kind in each place / 2",
        )
        self._add("hand_sizes", n, "cards in each relative seat's hand / 8")
        self._add("shares", n * CC.NUM_SUITS, "shares of each suit per relative seat / 12")
        self._add("cash", n, "each relative seat's money / all the money")
        self._add("debts", n, "what each relative seat owes the bank / all the money")
        self._add("reshuffle_hand_sizes", n, "each relative seat's hand size at the reshuffle / 8")
        self._add("drawn_since_reshuffle", n, "cards each relative seat drew since then / 52")
        self._add("joker_drawn_by", n, "relative seat whose joker ended the game")
        self._add("bank", 1, "the bank's money / all the money (0 if unlimited)")
        self._add("bank_unlimited", 1, "1 if the bank never runs short")
        self._add("levies", 1, "levies so far / 10")
        self._add("draw_pile", 1, "cards in the draw pile / 106")
        self._add("jokers_held_out", 1, "jokers outside the game / 2")
        self._add("reshuffled", 1, "1 once the draw pile has been made anew")
        self._add("turn_counts", 4, "this turn's trades / 2, sales / 2, changes / 2, discards / 4")
        self._add("bought_suits", CC.NUM_SUITS, "suits bought this turn")
        self._add("sold_suits", CC.NUM_SUITS, "suits sold this turn")

    def _fill(self, view: Any, out: FloatArray) -> None:
        assert isinstance(view, CardStockMarketView) and view.seat is not None
        n = self.players
        seat = view.seat
        at = self._at
        money = self.money
        self._fill_seats(view, out)
        out[at["turn_number"]] = view.turn_number / 200
        self._one_hot(out, "decision", CSM_PHASES.index(view.decision))
        kinds = _card_block(out, at["card_kinds"], self.KINDS)
        for s, suit in enumerate(view.suits):
            out[at["price"]][s] = suit.price / CC.MAX_PRICE
            out[at["bankrupt"]][s] = float(suit.bankrupt)
            out[at["top_is_face"]][s] = float(CC.is_face(suit.pile[-1]))
            out[at["pile_size"]][s] = len(suit.pile) / 40
            out[at["max_rise"]][s] = suit.max_rise / CC.MAX_PRICE
            out[at["max_fall"]][s] = suit.max_fall / CC.MAX_PRICE
            for card in suit.pile:
                kinds[1, card] += 0.5
            kinds[2, suit.pile[-1]] += 0.5
        for ch, cards in (
            (0, view.hand),
            (3, view.discard_pile),
            (4, view.reshuffle_pile),
            (5, view.reshuffle_hidden),
            (6, view.own_reshuffle_hand),
            (7, view.own_drawn),
        ):
            for card in cards:
                kinds[ch, card] += 0.5
        base = len(self.CARD_CHANNELS_FIXED)
        drawn = [0] * n
        for q in range(n):
            r = self._rel(seat, q)
            for card in view.certificates[q]:
                kinds[base + r, card] += 0.5
            for entry in view.records[q] if q < len(view.records) else ():
                if entry >= 0:
                    kinds[base + n + r, entry] += 0.5
                else:
                    drawn[q] -= entry
        self._per_seat(out, "hand_sizes", seat, view.hand_sizes, CC.HAND_SIZE)
        shares = out[at["shares"]].reshape(n, CC.NUM_SUITS)
        for q in range(n):
            shares[self._rel(seat, q)] = np.asarray(view.shares[q], dtype=np.float32) / 12
        self._per_seat(out, "cash", seat, view.cash, money)
        self._per_seat(out, "debts", seat, view.debts, money)
        if view.reshuffle_hand_sizes:
            self._per_seat(out, "reshuffle_hand_sizes", seat, view.reshuffle_hand_sizes, 8)
        self._per_seat(out, "drawn_since_reshuffle", seat, drawn, CC.NUM_KINDS)
        self._seat_one_hot(out, "joker_drawn_by", seat, view.joker_drawn_by)
        out[at["bank"]] = 0.0 if view.bank is None else view.bank / money
        out[at["bank_unlimited"]] = float(view.bank is None)
        out[at["levies"]] = view.levies / 10
        out[at["draw_pile"]] = view.draw_pile / (CC.DECK_SIZE + CC.COPIES)
        out[at["jokers_held_out"]] = view.jokers_held_out / CC.COPIES
        out[at["reshuffled"]] = float(view.reshuffled)
        counts = out[at["turn_counts"]]
        counts[:] = (
            view.trades / CC.MAX_TRADES,
            view.sales / CC.MAX_TRADES,
            view.changes / CC.MAX_CHANGES,
            view.discards / CC.MAX_DISCARDS,
        )
        out[at["bought_suits"]][list(view.bought_suits)] = 1.0
        out[at["sold_suits"]][list(view.sold_suits)] = 1.0


ENCODERS: dict[str, type[Encoder]] = {
    "take_stock": TakeStockEncoder,
    "card_stock_market": CardStockMarketEncoder,
}
"""The encoder class of each registered game."""


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (its options fix the layout)."""
    try:
        cls = ENCODERS[game.info.name]
    except KeyError:
        raise ValueError(f"no observation encoding for game {game.info.name!r}") from None
    return cls(game)
