"""Puzzles in words: each theme's name and what it is about, and the question a puzzle asks."""

from __future__ import annotations

from closingbell.text.i18n import translations


def theme_words(game: str, lang: str) -> dict[str, tuple[str, str]]:
    """Each theme of ``game`` by name: its label and one sentence on what it is about."""
    _ = translations(lang).gettext
    shared = {"discard": (_("Discards"), _("Which card to let go of."))}
    if game == "take_stock":
        return {
            "limit": (_("The Limit"), _("Saving a certificate against the Limit rule.")),
            "split": (_("Splits"), _("A stock split doubles a price.")),
            "crash": (_("Crashes"), _("A crash cuts a stock, or the whole market, down.")),
            "audit": (_("Audits"), _("What a Stock Audit should take away.")),
            "freeze": (_("Freezes"), _("Freezing or thawing a stock.")),
            "insider": (_("Insider Trading"), _("Taking cards back from the discard pile.")),
            "events": (_("Other events"), _("Choosing or playing an event card.")),
            "market": (_("The market"), _("When to play the market for events.")),
            "options": (
                _("Exercising options"),
                _("Spending option tokens to save cards at a round's end."),
            ),
            "raise": (_("Raising prices"), _("Laying a card to raise a stock.")),
            "save": (_("Saving certificates"), _("Which certificate to save.")),
            "final_round": (_("The last round"), _("Decisions of the game's last round.")),
            **shared,
        }
    if game == "card_stock_market":
        return {
            "bankruptcy": (_("Bankruptcy"), _("A face card that wipes a suit's shares out.")),
            "bank_short": (
                _("The bank runs short"),
                _("A sale the bank cannot pay without a levy on everyone."),
            ),
            "final_sale": (
                _("The final sale"),
                _("After the reshuffle any draw may end the game and sell every share."),
            ),
            "share_cap": (_("The share cap"), _("Buying up to the 12-share limit.")),
            "face_card": (_("Face cards"), _("Playing a jack, queen or king.")),
            "buy": (_("Buying"), _("Which stock to buy, and when.")),
            "sell": (_("Selling"), _("Which shares to sell, and when.")),
            "price": (_("Price changes"), _("Moving a suit's price up or down.")),
            **shared,
        }
    return {}


def question(lang: str) -> str:
    """The question every puzzle asks, in ``lang``."""
    _ = translations(lang).gettext
    return _("Your decision: one choice is clearly best from what you can see. Which is it?")


def verdict(lang: str, solved: bool) -> str:
    """What the player is told after choosing."""
    _ = translations(lang).gettext
    if solved:
        return _("Right: that is the best choice.")
    return _("Not the best choice.")
