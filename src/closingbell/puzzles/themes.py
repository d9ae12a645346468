"""What a puzzle is about: themes read from the decision's view and its two best actions.

A puzzle asks for the best action; what it teaches is the difference between that action
and the next best. Its themes are read from what the seat could see and from what those
two actions are (never from the hidden cards, so a theme shown before the answer gives
nothing away that the board does not). Each game lists its themes in :data:`THEMES`;
their words are in :mod:`closingbell.text.puzzles`.
"""

from __future__ import annotations

from collections.abc import Callable

from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as CA
from closingbell.games.card_stock_market import cards as CC
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.games.take_stock import actions as TA
from closingbell.games.take_stock import cards as TC
from closingbell.games.take_stock.views import TakeStockView

THEMES: dict[str, tuple[str, ...]] = {
    "take_stock": (
        "limit",
        "split",
        "crash",
        "audit",
        "freeze",
        "insider",
        "events",
        "market",
        "options",
        "raise",
        "save",
        "discard",
        "final_round",
    ),
    "card_stock_market": (
        "bankruptcy",
        "bank_short",
        "final_sale",
        "share_cap",
        "face_card",
        "buy",
        "sell",
        "price",
        "discard",
    ),
}
"""Each game's themes, in the order a theme filter lists them."""


def _event_theme(kind: int) -> str:
    if kind < TC.CRASH:
        return "split"
    if kind < TC.INSIDER or kind == TC.MARKET_CRASH:
        return "crash"
    if kind < TC.AUDIT:
        return "insider"
    if kind == TC.AUDIT:
        return "audit"
    if kind == TC.FREEZE:
        return "freeze"
    return "events"


def _take_stock_action(view: TakeStockView, action: int) -> set[str]:
    out: set[str] = set()
    if action < TA.SAVE:
        out.add("raise")
    elif action < TA.DISCARD:
        out.add("save")
        if len(view.certificates[view.seat or 0]) + 1 >= view.limit:
            out.add("limit")
    elif action < TA.MARKET_A:
        out.add("discard")
    elif action < TA.PLAY:
        out.add("market")
    elif action < TA.AUDIT_STOCK:
        out.add(_event_theme((action - TA.PLAY) % TC.NUM_EVENT_KINDS))
    elif action < TA.FREEZE_STOCK:
        out.add("audit")
    elif action < TA.RETRIEVE:
        out.add("freeze")
    elif action < TA.EXERCISE:
        out.add("insider")
    else:
        out.add("options")
    return out


def _take_stock(view: View, actions: tuple[int, ...]) -> set[str]:
    assert isinstance(view, TakeStockView)
    out: set[str] = set()
    for action in actions:
        out |= _take_stock_action(view, action)
    seat = view.seat or 0
    turn = view.decision == "action"
    if turn and len(view.certificates[seat]) >= view.limit:
        out.add("limit")  # the Limit forbids saving: the decision is shaped by it
    if view.round == view.rounds:
        out.add("final_round")
    return out


def _card_stock_market_action(view: CardStockMarketView, action: int) -> set[str]:
    seat = view.seat or 0
    if action < CA.SELL:
        card = action - CA.BUY
        suit = CC.SUIT_OF[card]
        out = {"buy"}
        if view.shares[seat][suit] + CC.SHARES[card] == CC.MAX_SHARES:
            out.add("share_cap")
        return out
    if action < CA.MARKET:
        card = action - CA.SELL
        out = {"sell"}
        pay = CC.SHARES[card] * view.suits[CC.SUIT_OF[card]].price
        if view.bank is not None and view.bank < pay:
            out.add("bank_short")
        return out
    if action < CA.BANKRUPT:
        card = action - CA.MARKET
        return {"price", "face_card"} if CC.is_face(card) else {"price"}
    if action < CA.DISCARD:
        return {"bankruptcy", "face_card"}
    if action < CA.DONE:
        return {"discard"}
    return set()


def _card_stock_market(view: View, actions: tuple[int, ...]) -> set[str]:
    assert isinstance(view, CardStockMarketView)
    out: set[str] = set()
    for action in actions:
        out |= _card_stock_market_action(view, action)
    if view.reshuffled:
        out.add("final_sale")  # the next draw may end the game and sell every share
    return out


_READERS: dict[str, Callable[[View, tuple[int, ...]], set[str]]] = {
    "take_stock": _take_stock,
    "card_stock_market": _card_stock_market,
}


def themes_of(game: str, view: View, best: int, runner_up: int) -> tuple[str, ...]:
    """The themes of a decision whose best action is ``best`` and next best ``runner_up``.

    Read from ``view`` (the deciding seat's) and the two actions only, in the order of
    :data:`THEMES`; a game with no themes gives none.
    """
    reader = _READERS.get(game)
    if reader is None:
        return ()
    found = reader(view, (best, runner_up))
    return tuple(t for t in THEMES[game] if t in found)
