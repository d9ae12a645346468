"""Take Stock's lessons in words (the ``take_stock`` catalog), for :mod:`closingbell.learn`.

The fields a trigger gives are numbers as the game counts them (a stock's index, a card's
id, a seat, an event's kind, a round's end reason); they are named here with the
narrator's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from closingbell.games.take_stock import cards as C
from closingbell.text.lessons import GameLessons, Happened
from closingbell.text.narrator import Narrator
from closingbell.text.take_stock import TakeStockNarrator


class TakeStockLessons(GameLessons):
    """Take Stock's lessons in the language of ``narrator``, for the learner at ``seat``."""

    def __init__(self, narrator: Narrator, seat: int) -> None:
        if not isinstance(narrator, TakeStockNarrator):
            raise TypeError("Take Stock's lessons need the Take Stock narrator")
        self.words = narrator
        """The game's words: stocks, cards, events and seats by name."""
        self.seat = seat
        """The learner's seat."""
        _ = narrator.tr.gettext
        self.titles: dict[str, str] = {
            "welcome": _("Your first game of Take Stock"),
            "first_raise": _("Raising a price"),
            "certificate": _("Certificates"),
            "limit": _("The Limit rule"),
            "event": _("Event cards"),
            "round_end": _("The end of a round"),
            "scoring": _("Scoring"),
        }
        """Each lesson's title."""
        self.explanations: dict[str, str] = {
            "welcome": _(
                "The five stocks all start at a price of 1. On your turn you do one thing: "
                "raise a stock's price with a card from your hand, keep a card as a "
                "certificate, or play the market for an event card. When a round ends, each "
                "certificate scores its shares times its stock's price, so keep certificates "
                "in the stocks that will rise, and make them rise. The highest total after "
                "the last round wins."
            ),
            "first_raise": _(
                "A raise lays a card on its stock's row, 1 to 4 above the row's top card. "
                "The higher price pays everyone who holds certificates of that stock, the "
                "other players too, so raise the stocks you hold more of than they do. "
                "Laying an 11 or a 12 ends the round at once: keep such a card for a moment "
                "when the prices suit you."
            ),
            "certificate": _(
                "A certificate scores only when the round ends: its shares times its stock's "
                "price at that moment. Higher cards carry more shares (your hand shows each "
                "card's), but a card kept as a certificate can no longer raise a price. "
                "Keeping one also costs a second card from your hand, laid face up on the "
                "discard pile."
            ),
            "limit": _(
                "You may keep a certificate only while you hold fewer certificates than the "
                "longest row has cards, splits included. Once a row grows, by your raise or "
                "another player's, you may keep one more. At the end of a round option "
                "tokens get round the rule: each token you give back keeps one more card "
                "from your hand."
            ),
            "event": _(
                "Playing the market costs one card from your hand. With A you draw two event "
                "cards and choose the one that takes effect; with B you draw one and keep it "
                "face down to play on a later turn. Events split a stock (multiplying its "
                "price), crash one stock or all of them, freeze or audit a stock, let a "
                "player take cards back from the discard pile, make everyone draw or "
                "discard, or hand out and take back option tokens. Market Closed is hidden "
                "in the event pile: whoever draws it ends the round."
            ),
            "round_end": _(
                "A round ends when Market Closed is drawn, an 11 or a 12 is laid on a row, a "
                "player's hand runs out, or no share card is left to draw. Before the "
                "scoring, each player may give back option tokens: each one turns a card "
                "from their hand into a certificate, whatever the Limit rule says. Tokens "
                "must last the whole game and few events give new ones, so keep some for a "
                "round that pays."
            ),
            "scoring": _(
                "Each certificate earned its shares times its stock's final price, and a "
                "split multiplies a price, so certificates of split stocks pay the most. "
                "Then the rows, certificates and hands are cleared and new cards are dealt; "
                "the player with the lowest total deals the next round. The highest total "
                "after the last round wins."
            ),
        }
        """Each lesson's explanation."""
        self.happened: dict[str, Happened] = {
            "welcome": self._welcome,
            "first_raise": self._first_raise,
            "certificate": self._certificate,
            "limit": self._limit,
            "event": self._event,
            "round_end": self._round_end,
            "scoring": self._scoring,
        }
        """For each lesson, what just happened in words, from its fields."""

    # ------------------------------------------------------------------ what happened

    def _welcome(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        return _("A practice game: {players} players, {rounds} rounds.").format(
            players=f["players"], rounds=f["rounds"]
        )

    def _first_raise(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        return _("You raised {stock} from {before} to {value}.").format(
            stock=self.words.stock_names[f["stock"]], before=f["before"], value=f["value"]
        )

    def _certificate(self, f: Mapping[str, Any]) -> str:
        w = self.words
        card: int = f["card"]
        shares = w.shares[C.card_value(card)]
        return w.tr.gettext("You kept {card} as a certificate: {shares}.").format(
            card=w.card_name(card), shares=w.share_words(shares)
        )

    def _limit(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        return _(
            "Certificates you hold: {count}. Cards in the longest row: {limit}. So you may "
            "not keep another one now."
        ).format(count=f["count"], limit=f["limit"])

    def _event(self, f: Mapping[str, Any]) -> str:
        w = self.words
        _ = w.tr.gettext
        if f["how"] == "drew":
            return _(
                "You drew {events}: choose the one that takes effect; the other is "
                "discarded unseen."
            ).format(events=w.event_list(f["events"]))
        event = w.event_names[f["event"]]
        who = w.names[f["who"]]
        mine = f["who"] == self.seat
        if f["how"] == "played":
            if mine:
                return _("You played a saved event: {event}.").format(event=event)
            return _("{who} played a saved event: {event}.").format(who=who, event=event)
        if mine:
            return _("You played the market and let {event} take effect.").format(event=event)
        return _("{who} played the market and let {event} take effect.").format(
            who=who, event=event
        )

    def _round_end(self, f: Mapping[str, Any]) -> str:
        w = self.words
        return w.tr.gettext("Round {round} is over: {reason}.").format(
            round=f["round"], reason=w.reasons[f["reason"]]
        )

    def _scoring(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        text = (
            _("The last round is scored: you made {points} points, {total} in all.")
            if f["last"]
            else _("Round {round} is scored: you made {points} points, {total} so far.")
        )
        return text.format(round=f["round"], points=f["points"], total=f["total"])
