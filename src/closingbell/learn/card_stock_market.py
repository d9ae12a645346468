"""Card Stock Market's guided first game: the deal, and when each of its lessons fires.

Three players: the learner in seat 1 plays first (seat 3 deals and keeps the bank),
against two medium bots. The bank opens nearly empty (see :data:`BANK`), so that it runs
short, and its rule is seen, in a first game; the lesson says so. The lessons, in order:
the game in a few words (at the learner's first decision), their first purchase, the
first market change, the first face card played, the first sale, the bank running short,
the draw pile running out, and the joker that ends the game. Their words are in
:mod:`closingbell.text.lessons.card_stock_market`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from closingbell.core.view import View
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.learn import HUMAN, Event, Lesson, Moment, Tutorial

Fields = Mapping[str, Any] | None

BANK = 200
"""The bank's opening money in the guided game (a normal game's is $1,240): small enough
that a sale soon finds the bank short."""


def _csm(view: View) -> CardStockMarketView:
    if not isinstance(view, CardStockMarketView):
        raise TypeError("Card Stock Market's lessons read Card Stock Market views")
    return view


def _price_before(m: Moment, suit: int) -> int | None:
    return None if m.before is None else _csm(m.before).suits[suit].price


def welcome(m: Moment) -> Fields:
    """At the learner's first decision."""
    v = _csm(m.view)
    if v.current_player != m.seat:
        return None
    return {"amount": v.cash[m.seat], "players": v.players}


def purchase(m: Moment, event: Event) -> Fields:
    """The learner buys a certificate."""
    if event["type"] != "buy" or event["seat"] != m.seat:
        return None
    card: int = event["card"]
    return {
        "card": card,
        "shares": C.SHARES[card],
        "price": event["price"],
        "cost": event["cost"],
    }


def market_change(m: Moment, event: Event) -> Fields:
    """A number card changes a price (anyone's)."""
    if event["type"] != "market" or C.is_face(event["card"]):
        return None
    card: int = event["card"]
    suit = C.suit_of(card)
    v = _csm(m.view)
    before = _price_before(m, suit)
    return {
        "who": event["seat"],
        "card": card,
        "suit": suit,
        "before": before if before is not None else event["price"],
        "price": event["price"],
        "rise": v.suits[suit].max_rise,
        "fall": v.suits[suit].max_fall,
    }


def face_card(m: Moment, event: Event) -> Fields:
    """A jack, queen or king is played to the market, as a raise or a bankruptcy."""
    kind = event["type"]
    if kind == "market" and C.is_face(event["card"]):
        card: int = event["card"]
        return {
            "how": "raise",
            "who": event["seat"],
            "card": card,
            "suit": C.suit_of(card),
            "price": event["price"],
        }
    if kind == "bankrupt":
        card = event["card"]
        lost: list[int] = event["lost"]
        return {
            "how": "bankrupt",
            "who": event["seat"],
            "card": card,
            "suit": C.suit_of(card),
            "count": lost[m.seat],
        }
    return None


def sale(m: Moment, event: Event) -> Fields:
    """A certificate is sold during play (anyone's)."""
    if event["type"] != "sell":
        return None
    return {"who": event["seat"], "card": event["card"], "paid": event["paid"]}


def bank_short(m: Moment, event: Event) -> Fields:
    """The bank cannot pay for a sale and levies every player."""
    if event["type"] != "levy":
        return None
    paid: list[int] = event["paid"]
    owed: list[int] = event["owed"]
    return {"levy": paid[m.seat] + owed[m.seat], "owed": owed[m.seat]}


def reshuffle(m: Moment, event: Event) -> Fields:
    """The draw pile runs out and is made anew, the jokers in it."""
    if event["type"] != "reshuffle":
        return None
    return {"count": event["cards"]}


def game_end(m: Moment, event: Event) -> Fields:
    """A joker is drawn: the game ends."""
    if event["type"] != "joker":
        return None
    return {"who": event["seat"]}


LESSONS: tuple[Lesson, ...] = (
    Lesson("welcome", on_view=welcome),
    Lesson("purchase", on_event=purchase),
    Lesson("market_change", on_event=market_change),
    Lesson("face_card", on_event=face_card),
    Lesson("sale", on_event=sale),
    Lesson("bank_short", on_event=bank_short),
    Lesson("reshuffle", on_event=reshuffle),
    Lesson("game_end", on_event=game_end),
)
"""Card Stock Market's lessons, in the order they are shown when several fire together."""

TUTORIAL = Tutorial(
    game="card_stock_market",
    options={"players": 3, "first_dealer": 2, "bank_money": BANK},
    seed=18,
    seat=0,
    seats=(HUMAN, "medium", "medium"),
    lessons=LESSONS,
    script=(
        "buy 9H",
        "buy 2S",
        "market KH",
        "market 3C",
        "buy 8H",
        "buy 5S",
        "bankrupt KD",
        "market AC",
        "bankrupt QC",
        "buy 10C",
        "sell 5S",
        "buy 6C",
        "buy KC",
        "market 8C",
        "market 7H",
        "buy QS",
        "buy 4S",
        "market 9H",
        "done",
        "buy 6S",
        "buy 3S",
        "market 5D",
        "done",
        "sell 6S",
        "sell 8H",
        "market 6S",
        "market 7D",
        "buy 3H",
        "buy 5H",
        "market QH",
        "market JC",
    ),
    notes={
        "options": "Seat 3 deals, so the learner plays first; the bank opens with $200 "
        "so that it runs short early.",
    },
)
"""Card Stock Market's guided first game."""
