"""Take Stock's action ids and their text notation.

Every decision is one action. Ids are stable (records and learning agents rely on them):

=================  =========  ==========================================
id range           text       decision
=================  =========  ==========================================
0-59 (+card)       raise C    turn action: put share card C on its row
60-119 (+card)     save C     turn action: save C as a certificate
120-179 (+card)    discard C  any discard from the hand
180, 181           market A   turn action: play the market, option A / B
182-205 (+kind)    play E     turn action: play saved event E
206-229 (+kind)    choose E   option A: apply E, the other drawn card is discarded
230-234 (+stock)   audit S    Stock Audit: audit stock S
235, 236           audit card / audit split: what the audit removes
237-241 (+stock)   freeze S   Stock Freeze: freeze (or thaw) stock S
242-301 (+card)    retrieve C Insider Trading: take C from the discard pile
302                retrieve done
303-362 (+card)    exercise C end of round: spend an option token on C
363                exercise done
=================  =========  ==========================================
"""

from __future__ import annotations

from closingbell.core.errors import NotationError
from closingbell.games.take_stock.cards import (
    EVENT_NAMES,
    NUM_EVENT_KINDS,
    NUM_SHARE_CARDS,
    NUM_STOCKS,
    STOCKS,
    card_name,
)

RAISE = 0
SAVE = RAISE + NUM_SHARE_CARDS
DISCARD = SAVE + NUM_SHARE_CARDS
MARKET_A = DISCARD + NUM_SHARE_CARDS
MARKET_B = MARKET_A + 1
PLAY = MARKET_B + 1
CHOOSE = PLAY + NUM_EVENT_KINDS
AUDIT_STOCK = CHOOSE + NUM_EVENT_KINDS
AUDIT_CARD = AUDIT_STOCK + NUM_STOCKS
AUDIT_SPLIT = AUDIT_CARD + 1
FREEZE_STOCK = AUDIT_SPLIT + 1
RETRIEVE = FREEZE_STOCK + NUM_STOCKS
RETRIEVE_DONE = RETRIEVE + NUM_SHARE_CARDS
EXERCISE = RETRIEVE_DONE + 1
EXERCISE_DONE = EXERCISE + NUM_SHARE_CARDS
NUM_ACTIONS = EXERCISE_DONE + 1
"""The number of distinct action ids."""


def _build_names() -> tuple[str, ...]:
    names: list[str] = []
    for verb in ("raise", "save", "discard"):
        names += [f"{verb} {card_name(c)}" for c in range(NUM_SHARE_CARDS)]
    names += ["market A", "market B"]
    names += [f"play {e}" for e in EVENT_NAMES]
    names += [f"choose {e}" for e in EVENT_NAMES]
    names += [f"audit {s}" for s in STOCKS]
    names += ["audit card", "audit split"]
    names += [f"freeze {s}" for s in STOCKS]
    names += [f"retrieve {card_name(c)}" for c in range(NUM_SHARE_CARDS)]
    names.append("retrieve done")
    names += [f"exercise {card_name(c)}" for c in range(NUM_SHARE_CARDS)]
    names.append("exercise done")
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _build_names()
"""The text form of every action id."""

_PARSE: dict[str, int] = {name.lower(): i for i, name in enumerate(ACTION_NAMES)}
_PARSE.update({f"thaw {s.lower()}": FREEZE_STOCK + i for i, s in enumerate(STOCKS)})


def action_to_string(action: int) -> str:
    """The text form of ``action``."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise NotationError(f"{action!r} is not a Take Stock action id (0 to {NUM_ACTIONS - 1})")
    return ACTION_NAMES[action]


def string_to_action(text: str) -> int:
    """The action id named by ``text`` (case and spacing do not matter)."""
    if not isinstance(text, str):
        raise NotationError(f"an action's text form must be a string, not {text!r}")
    key = " ".join(text.lower().replace("-", " ").split())
    try:
        return _PARSE[key]
    except KeyError:
        raise NotationError(
            f"{text!r} is not a Take Stock action (examples: 'raise Oil 5', 'save Corn 9', "
            f"'discard Gem 3', 'market A', 'play Split Tech', 'choose Audit', 'audit Oil', "
            f"'audit card', 'freeze Movie', 'retrieve Oil 8', 'exercise done')"
        ) from None
