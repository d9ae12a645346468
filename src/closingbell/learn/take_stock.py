"""Take Stock's guided first game: the deal, and when each of its lessons fires.

Three players, two rounds: the learner in seat 1 plays first (seat 3 deals), against two
medium bots. The lessons, in order: the game in a few words (at the learner's first
decision), their first raise, their first certificate, the Limit rule (when it keeps them
from saving), an event card (the first to take effect, or the two they draw), the end of
a round, and its scoring. Their words are in :mod:`closingbell.text.lessons.take_stock`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from closingbell.core.view import View
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.views import TakeStockView
from closingbell.learn import HUMAN, Event, Lesson, Moment, Tutorial

Fields = Mapping[str, Any] | None


def _ts(view: View) -> TakeStockView:
    if not isinstance(view, TakeStockView):
        raise TypeError("Take Stock's lessons read Take Stock views")
    return view


def _deciding(m: Moment, decision: str) -> TakeStockView | None:
    """The learner's view when the learner is to take ``decision``, else ``None``."""
    v = _ts(m.view)
    if v.current_player == m.seat and v.decision == decision:
        return v
    return None


def welcome(m: Moment) -> Fields:
    """At the learner's first decision."""
    v = _ts(m.view)
    if v.current_player != m.seat:
        return None
    return {"rounds": v.rounds, "players": v.players}


def first_raise(m: Moment, event: Event) -> Fields:
    """The learner raises a price."""
    if event["type"] != "raise" or event["seat"] != m.seat:
        return None
    card: int = event["card"]
    stock = C.card_stock(card)
    before = 1
    if m.before is not None:
        before = _ts(m.before).stocks[stock].cards[-1]
    return {"stock": stock, "value": C.card_value(card), "before": before}


def first_certificate(m: Moment, event: Event) -> Fields:
    """The learner saves a certificate."""
    if event["type"] != "save" or event["seat"] != m.seat:
        return None
    return {"card": event["card"]}


def limit_rule(m: Moment) -> Fields:
    """The Limit rule keeps the learner from saving at an action decision."""
    v = _deciding(m, "action")
    if v is None or not v.hand:
        return None
    count = len(v.certificates[m.seat])
    bound = v.limit
    if count < bound:
        return None
    return {"count": count, "limit": bound}


def event_taken(m: Moment, event: Event) -> Fields:
    """An event card takes effect: chosen after playing the market, or a saved one played."""
    if event["type"] == "choose":
        return {"how": "chose", "who": event["seat"], "event": event["event"]}
    if event["type"] == "play":
        return {"how": "played", "who": event["seat"], "event": event["event"]}
    return None


def events_drawn(m: Moment) -> Fields:
    """The learner has drawn two events and must choose one."""
    v = _deciding(m, "choose_event")
    if v is None:
        return None
    return {"how": "drew", "events": list(v.drawn_events)}


def round_end(m: Moment, event: Event) -> Fields:
    """A round ends."""
    if event["type"] != "round_end":
        return None
    return {"round": event["round"], "reason": event["reason"]}


def scoring(m: Moment, event: Event) -> Fields:
    """A round is scored."""
    if event["type"] != "round_score":
        return None
    v = _ts(m.view)
    r: int = event["round"]
    return {
        "round": r,
        "points": event["scores"][m.seat],
        "total": sum(scores[m.seat] for scores in v.round_scores[:r]),
        "last": r == v.rounds,
    }


LESSONS: tuple[Lesson, ...] = (
    Lesson("welcome", on_view=welcome),
    Lesson("first_raise", on_event=first_raise),
    Lesson("certificate", on_event=first_certificate),
    Lesson("limit", on_view=limit_rule),
    Lesson("event", on_event=event_taken, on_view=events_drawn),
    Lesson("round_end", on_event=round_end),
    Lesson("scoring", on_event=scoring),
)
"""Take Stock's lessons, in the order they are shown when several fire together."""

TUTORIAL = Tutorial(
    game="take_stock",
    options={"players": 3, "rounds": 2, "first_dealer": 2},
    seed=6,
    seat=0,
    seats=(HUMAN, "medium", "medium"),
    lessons=LESSONS,
    script=(
        "save Corn 11",
        "discard Oil 5",
        "raise Corn 5",
        "save Movie 11",
        "discard Movie 2",
        "raise Movie 3",
        "save Oil 12",
        "discard Corn 3",
        "raise Oil 4",
        "market A",
        "discard Gem 11",
        "choose Split Oil",
        "raise Corn 9",
        "exercise Tech 8",
        "exercise Corn 8",
        "exercise done",
        "save Oil 7",
        "discard Movie 4",
        "save Movie 11",
        "discard Gem 2",
        "market A",
        "discard Gem 3",
        "choose Audit",
        "audit Tech",
        "raise Oil 5",
        "raise Movie 5",
        "save Corn 6",
        "discard Gem 4",
        "raise Gem 5",
        "market A",
        "discard Tech 2",
        "choose Audit",
        "audit Tech",
        "exercise Gem 11",
        "exercise Oil 3",
        "exercise Corn 7",
    ),
    notes={
        "options": "Two rounds keep a first game short; seat 3 deals, so the learner plays first.",
    },
)
"""Take Stock's guided first game."""
