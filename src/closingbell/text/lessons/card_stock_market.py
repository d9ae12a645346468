"""Card Stock Market's lessons in words (the ``card_stock_market`` catalog).

The fields a trigger gives (:mod:`closingbell.learn.card_stock_market`) are numbers as the
game counts them (a card's kind, a suit, a seat, dollars); they are named here with the
narrator's words. Figures of the rules (the levy, the bank's opening money) come from the
game's rules options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from closingbell.games.card_stock_market import cards as C
from closingbell.text.card_stock_market import CardStockMarketNarrator
from closingbell.text.lessons import GameLessons, Happened
from closingbell.text.narrator import Narrator


class CardStockMarketLessons(GameLessons):
    """Card Stock Market's lessons in the language of ``narrator``, for the learner at a seat."""

    def __init__(self, narrator: Narrator, seat: int) -> None:
        if not isinstance(narrator, CardStockMarketNarrator):
            raise TypeError("Card Stock Market's lessons need the Card Stock Market narrator")
        self.words = narrator
        """The game's words: suits, cards and seats by name."""
        self.seat = seat
        """The learner's seat."""
        _ = narrator.tr.gettext
        options = narrator.game.options
        levy: int = getattr(options, "levy", 100)
        bank: int | None = getattr(options, "bank_money", C.BANK_MONEY)
        self.titles: dict[str, str] = {
            "welcome": _("Your first game of Card Stock Market"),
            "purchase": _("Buying shares"),
            "market_change": _("Changing the market"),
            "face_card": _("Face cards"),
            "sale": _("Selling"),
            "bank_short": _("The bank runs short"),
            "reshuffle": _("The draw pile runs out"),
            "game_end": _("The end of the game"),
        }
        """Each lesson's title."""
        short = _(
            "When the bank cannot pay for a sale, every player, the seller too, pays ${levy} "
            "into it; whoever has less pays all their cash and owes the bank the rest, and "
            "money they receive later goes to the debt first."
        ).format(levy=levy)
        if bank is not None and bank < C.BANK_MONEY:
            practice = _(
                "In this practice game the bank opens with only ${amount}, so that you meet "
                "this rule; in a normal game it holds ${total}."
            ).format(amount=f"{bank:,}", total=f"{C.BANK_MONEY:,}")
            short = _("{sentence} {next}").format(sentence=short, next=practice)
        self.explanations: dict[str, str] = {
            "welcome": _(
                "Each suit is a company, and the card on top of its market pile sets its "
                "share price. On your turn you may trade (up to two buys or sales) and change "
                "the market (up to two cards played on the piles), or instead discard up to "
                "four cards; then you draw back up to eight cards. The game ends when someone "
                "draws a joker, and the most money wins."
            ),
            "purchase": _(
                "A certificate counts as many shares as its pips, and a jack, queen or king "
                "counts 5. You pay its shares times the price now, and a sale pays its shares "
                "times the price then: buy cheap, then raise the price with cards from your "
                "hand. Nobody may hold more than 12 shares of one suit."
            ),
            "market_change": _(
                "A number card played on its suit's pile sets the price to its value. The "
                "information strip limits how far one card may move a price, up or down (the "
                "market table shows it for each suit, and which of your cards you may play), "
                "so a big move takes two cards. A card must change the price, and any number "
                "card may cover a face card."
            ),
            "face_card": _(
                "A jack, queen or king played on the market does one of two things. As a "
                "raise it sets the price to $11, $12 or $13, if that is higher than now. As "
                "a bankruptcy it drops the price to $0 and sends every certificate of the "
                "suit to the discard pile, unpaid: a danger to whoever holds most of it. A "
                "bankrupt suit costs nothing to buy until a number card covers the face "
                "card. Bought as a certificate, a face card counts 5 shares."
            ),
            "sale": _(
                "A sale gives a certificate back to the bank, which pays its shares times the "
                "current price; the card goes to the discard pile. Sell after a rise, or "
                "before someone bankrupts the suit. When the game ends every certificate is "
                "sold anyway, at the prices of that moment."
            ),
            "bank_short": short,
            "reshuffle": _(
                "From now on, whoever draws a joker ends the game at once, so any turn may "
                "be the last. Sell what you mean to sell and raise what you hold while you "
                "can: the final sale is at the prices of that moment."
            ),
            "game_end": _(
                "Every certificate is sold to the bank at the current prices, a bankrupt "
                "suit's for nothing. Each player's score is their money less any debt, and "
                "the most money wins."
            ),
        }
        """Each lesson's explanation."""
        self.happened: dict[str, Happened] = {
            "welcome": self._welcome,
            "purchase": self._purchase,
            "market_change": self._market_change,
            "face_card": self._face_card,
            "sale": self._sale,
            "bank_short": self._bank_short,
            "reshuffle": self._reshuffle,
            "game_end": self._game_end,
        }
        """For each lesson, what just happened in words, from its fields."""

    # ------------------------------------------------------------------ what happened

    def _welcome(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        return _("A practice game: {players} players, each starting with ${amount}.").format(
            players=f["players"], amount=f["amount"]
        )

    def _purchase(self, f: Mapping[str, Any]) -> str:
        shares: int = f["shares"]
        text = self.words.tr.ngettext(
            "You bought {card}: {shares} share at ${price}, for ${cost}.",
            "You bought {card}: {shares} shares at ${price}, for ${cost}.",
            shares,
        )
        return text.format(
            card=self.words.card(f["card"]), shares=shares, price=f["price"], cost=f["cost"]
        )

    def _market_change(self, f: Mapping[str, Any]) -> str:
        w = self.words
        _ = w.tr.gettext
        text = (
            _("You played {card}: {suit} went from ${before} to ${price}.")
            if f["who"] == self.seat
            else _("{who} played {card}: {suit} went from ${before} to ${price}.")
        )
        return text.format(
            who=w.name(f["who"]),
            card=w.card(f["card"]),
            suit=w.suit(f["suit"]),
            before=f["before"],
            price=f["price"],
        )

    def _face_card(self, f: Mapping[str, Any]) -> str:
        w = self.words
        _ = w.tr.gettext
        who, card, suit = w.name(f["who"]), w.card(f["card"]), w.suit(f["suit"])
        mine = f["who"] == self.seat
        if f["how"] == "raise":
            text = (
                _("You played {card} as a raise: {suit} is now at ${price}.")
                if mine
                else _("{who} played {card} as a raise: {suit} is now at ${price}.")
            )
            return text.format(who=who, card=card, suit=suit, price=f["price"])
        lost: int = f["count"]
        if lost:
            text = (
                w.tr.ngettext(
                    "You played {card} to bankrupt {suit}: its price is $0, and you lost your "
                    "{count} share of it.",
                    "You played {card} to bankrupt {suit}: its price is $0, and you lost your "
                    "{count} shares of it.",
                    lost,
                )
                if mine
                else w.tr.ngettext(
                    "{who} played {card} to bankrupt {suit}: its price is $0, and you lost "
                    "{count} share.",
                    "{who} played {card} to bankrupt {suit}: its price is $0, and you lost "
                    "{count} shares.",
                    lost,
                )
            )
            return text.format(who=who, card=card, suit=suit, count=lost)
        text = (
            _(
                "You played {card} to bankrupt {suit}: its price is $0 and its certificates "
                "are gone."
            )
            if mine
            else _(
                "{who} played {card} to bankrupt {suit}: its price is $0 and its "
                "certificates are gone."
            )
        )
        return text.format(who=who, card=card, suit=suit)

    def _sale(self, f: Mapping[str, Any]) -> str:
        w = self.words
        _ = w.tr.gettext
        text = (
            _("You sold {card} for ${paid}.")
            if f["who"] == self.seat
            else _("{who} sold {card} for ${paid}.")
        )
        return text.format(who=w.name(f["who"]), card=w.card(f["card"]), paid=f["paid"])

    def _bank_short(self, f: Mapping[str, Any]) -> str:
        _ = self.words.tr.gettext
        if f["owed"]:
            return _(
                "The bank could not pay for a sale, so every player paid a levy of ${levy}; "
                "you could not pay it all and owe the bank ${amount}."
            ).format(levy=f["levy"], amount=f["owed"])
        return _(
            "The bank could not pay for a sale, so every player paid a levy of ${levy}."
        ).format(levy=f["levy"])

    def _reshuffle(self, f: Mapping[str, Any]) -> str:
        return self.words.tr.gettext(
            "The draw pile ran out: a new one of {count} cards was shuffled, the two jokers in it."
        ).format(count=f["count"])

    def _game_end(self, f: Mapping[str, Any]) -> str:
        w = self.words
        if f["who"] == self.seat:
            return w.tr.gettext("You drew a joker: the market closes.")
        return w.tr.gettext("{who} drew a joker: the market closes.").format(who=w.name(f["who"]))
