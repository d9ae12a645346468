"""Plain-text rendering of a Take Stock view, and actions described in words."""

from __future__ import annotations

from typing import Any

from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.views import TakeStockView

REASONS = {
    "market_closed": "Market Closed was drawn",
    "high_card": "an 11 or 12 reached the market",
    "empty_hand": "a player discarded their last card",
    "no_cards": "no share card was left to draw",
}

DECISIONS = {
    "action": "Choose your turn action.",
    "discard": "Choose a card to discard.",
    "choose_event": "Choose which of the two drawn events takes effect.",
    "audit_stock": "Choose an unfrozen stock to audit.",
    "audit_what": "Remove the top share card or one split?",
    "freeze_stock": "Choose a stock to freeze (or a frozen one to thaw).",
    "retrieve": "Take a card from the discard pile, or stop.",
    "insider_discard": "Discard one card for each card retrieved.",
    "downturn_discard": "Market Downturn: discard one card (kept hidden until all have chosen).",
    "exercise": "The round is over: spend option tokens to save cards from your hand.",
    "game_over": "The game is over.",
}

HELP = {
    "action": (
        "Raise a price: put a card on its row, higher than the top card by at most 4 "
        "(not on a frozen stock; an 11 or 12 ends the round). Save a certificate: put a card "
        "in front of you and discard another (only while you hold fewer certificates than the "
        "longest row has cards, splits counted). Play the market: discard, then A: draw two "
        "events and apply one, or B: draw one and keep it. Play a saved event: discard, then "
        "apply it."
    ),
    "exercise": (
        "Each option token you return lets you save one card from your hand as a "
        "certificate; the Limit rule does not apply. Cards left in hand are discarded."
    ),
}


def describe_action(view: TakeStockView, action: int) -> str:
    """Say in words what ``action`` does in the position shown by ``view``."""
    if A.RAISE <= action < A.SAVE:
        s, v = C.card_stock(action), C.card_value(action)
        top = view.stocks[s].cards[-1]
        return f"Raise {C.STOCKS[s]} to {v} (+{v - top})"
    if A.SAVE <= action < A.DISCARD:
        return f"Save {C.card_name(action - A.SAVE)} as a certificate"
    if A.DISCARD <= action < A.MARKET_A:
        return f"Discard {C.card_name(action - A.DISCARD)}"
    if action == A.MARKET_A:
        return "Play the market, option A (draw two events, apply one)"
    if action == A.MARKET_B:
        return "Play the market, option B (draw one event and keep it)"
    if A.PLAY <= action < A.CHOOSE:
        return f"Play your saved {C.EVENT_NAMES[action - A.PLAY]}"
    if A.CHOOSE <= action < A.AUDIT_STOCK:
        return f"Apply {C.EVENT_NAMES[action - A.CHOOSE]}"
    if A.AUDIT_STOCK <= action < A.AUDIT_CARD:
        return f"Audit {C.STOCKS[action - A.AUDIT_STOCK]}"
    if action == A.AUDIT_CARD:
        return "Remove the top share card"
    if action == A.AUDIT_SPLIT:
        return "Remove one split"
    if A.FREEZE_STOCK <= action < A.RETRIEVE:
        s = action - A.FREEZE_STOCK
        verb = "Thaw" if view.stocks[s].frozen else "Freeze"
        return f"{verb} {C.STOCKS[s]}"
    if A.RETRIEVE <= action < A.RETRIEVE_DONE:
        return f"Retrieve {C.card_name(action - A.RETRIEVE)}"
    if action == A.RETRIEVE_DONE:
        return "Stop retrieving"
    if A.EXERCISE <= action < A.EXERCISE_DONE:
        return f"Exercise an option on {C.card_name(action - A.EXERCISE)}"
    return "Done exercising options"


def _cards(cards: Any, table: tuple[int, ...]) -> str:
    return ", ".join(f"{C.card_name(c)} ({table[C.card_value(c)]}sh)" for c in cards) or "-"


def render(view: TakeStockView, table: tuple[int, ...], names: list[str]) -> str:
    """The whole table as ``view``'s seat sees it, as lines of text."""
    lines = [f"Round {view.round} of {view.rounds}   dealer: {names[view.dealer]}"]
    lines.append("Market:")
    for row in view.stocks:
        tags = []
        if row.splits:
            tags.append(f"x{row.splits + 1}")
        if row.frozen:
            tags.append("FROZEN")
        cards = " ".join(str(v) for v in row.cards)
        lines.append(f"  {row.name:<6} {cards:<28} price {row.price:>3} {' '.join(tags)}")
    prices = [r.price for r in view.stocks]
    lines.append("Players:")
    for q, name in enumerate(names):
        worth = sum(table[C.card_value(c)] * prices[C.card_stock(c)] for c in view.certificates[q])
        mark = ">" if view.current_player == q else " "
        lines.append(
            f" {mark}{name:<10} score {view.scores[q]:>4}  hand {view.hand_sizes[q]}  "
            f"tokens {view.tokens[q]}  saved events {view.saved_counts[q]}  "
            f"certificates worth {worth}: {_cards(view.certificates[q], table)}"
        )
    lines.append(
        f"Piles: shares {view.draw_pile}, discards {len(view.discard_pile)}, "
        f"events {view.event_pile} before Market Closed, option tokens in box {view.option_supply}"
    )
    if view.seat is not None:
        lines.append(f"Your hand: {_cards(view.hand, table)}")
        saved = ", ".join(C.EVENT_NAMES[k] for k in view.saved_events) or "-"
        lines.append(f"Your saved events: {saved}")
    if view.drawn_events:
        lines.append("You drew: " + ", ".join(C.EVENT_NAMES[k] for k in view.drawn_events))
    if view.round_end_reason:
        lines.append(f"The round has ended: {REASONS[view.round_end_reason]}.")
    return "\n".join(lines)


def describe_event(event: dict[str, Any], names: list[str]) -> str | None:
    """One log entry in words, or ``None`` for entries not worth showing."""
    kind = event["type"]
    who = names[event["seat"]] if "seat" in event else ""

    def card(c: Any) -> str:
        return C.card_name(c) if isinstance(c, int) else "a card"

    if kind == "round_start":
        return f"Round {event['round']} begins; {names[event['dealer']]} deals."
    if kind == "draw":
        return f"{who} draws {card(event['card'])}." if event["card"] is not None else None
    if kind in ("raise", "save", "discard", "retrieve"):
        verbs = {
            "raise": "raises with",
            "save": "saves",
            "discard": "discards",
            "retrieve": "retrieves",
        }
        return f"{who} {verbs[kind]} {card(event['card'])}."
    if kind == "market":
        return f"{who} plays the market, option {event['option']}."
    if kind == "drew_events":
        got = event["events"]
        if isinstance(got, list):
            return f"{who} draws " + ", ".join(C.EVENT_NAMES[k] for k in got) + "."
        return f"{who} draws {got} event card(s)."
    if kind in ("play", "choose"):
        return f"{who} plays {C.EVENT_NAMES[event['event']]}."
    if kind == "market_closed":
        return f"{who} draws Market Closed!"
    if kind == "split":
        stock = C.STOCKS[event["stock"]]
        if event["discarded"]:
            return f"{stock} is frozen: the split is discarded."
        return f"{stock} splits."
    if kind == "crash":
        return f"{C.STOCKS[event['stock']]} crashes."
    if kind == "audit":
        return f"{who} audits {C.STOCKS[event['stock']]}: {event['removed']} removed."
    if kind == "freeze":
        state = "frozen" if event["frozen"] else "thawed"
        return f"{who}: {C.STOCKS[event['stock']]} is {state}."
    if kind == "tokens":
        return f"{who} {'gains' if event['change'] > 0 else 'loses'} an option token."
    if kind == "round_end":
        return f"Round {event['round']} ends: {REASONS[event['reason']]}."
    if kind == "round_score":
        pts = ", ".join(f"{names[q]} {p}" for q, p in enumerate(event["scores"]))
        return f"Round {event['round']} scores: {pts}."
    if kind == "game_over":
        return "Game over. Winner(s): " + ", ".join(names[q] for q in event["winners"]) + "."
    return None
