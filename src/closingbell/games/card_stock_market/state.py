"""The complete state of a Card Stock Market game: plain lists and integers, copied cheaply.

The state is mutable; :meth:`CardStockMarketState.clone` copies it field by field. The
rules that change it live in :mod:`closingbell.games.card_stock_market.rules`, what a seat
may see in :mod:`closingbell.games.card_stock_market.views`.

Cards are kinds (see :mod:`.cards`); two copies of each kind exist, and both jokers are
:data:`~.cards.JOKER`. Hands and certificates are kept sorted.

Bookkeeping of public knowledge
-------------------------------
Before the draw pile first runs out, every hidden card (in a hand or in the draw pile) is
as likely to be anywhere as any other, so nothing more is needed. The reshuffle changes
that: the new draw pile is made of cards everyone saw (the market piles' lower cards, the
discard pile and the two jokers), while the hands keep cards from before. So the state
records, at the reshuffle, the new pile (``re_pile``) and each hand (``re_hands``), and
from then on the cards each seat draws (``re_drawn``) and each seat's public record
(``re_events``: a card kind for every card that left the hand face up, ``-k`` for ``k``
cards drawn). A seat sees the pile, the sizes of the hands, its own hand and draws, and
every record; that is enough to deal the unseen cards again in a way that could have
happened (see ``views.sample_state``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from closingbell.core.errors import StateFormatError
from closingbell.core.events import Entry, entry_to_dict, visible_entries
from closingbell.core.game import State

if TYPE_CHECKING:
    from closingbell.games.card_stock_market.game import CardStockMarket
    from closingbell.games.card_stock_market.views import CardStockMarketView

# Decision kinds.
START = 0
TRADE = 1
MARKET = 2
DISCARD = 3
OVER = 4
PHASE_NAMES: tuple[str, ...] = ("turn", "trading", "market", "discarding", "game_over")
"""The name of each decision kind: the turn's first choice, more trading, more market
changes, more discards, and the end of the game."""

EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("dealer", "turned", "tops"),
    "deal": ("seat", "cards"),
    "turn": ("seat", "number"),
    "buy": ("seat", "card", "price", "cost"),
    "sell": ("seat", "card", "price", "paid"),
    "levy": ("paid", "owed"),
    "repay": ("seat", "amount"),
    "market": ("seat", "card", "price"),
    "bankrupt": ("seat", "card", "lost"),
    "discard": ("seat", "card"),
    "end_turn": ("seat",),
    "draw": ("seat", "cards"),
    "reshuffle": ("cards",),
    "joker": ("seat",),
    "final_sale": ("seat", "card", "price", "paid"),
    "game_over": ("scores", "winners"),
}
"""The field names of each event kind in the log (see ``visible_events``).

``deal`` and ``draw`` are private: other seats read ``cards`` as a count. ``levy`` lists
what each seat paid and what each seat newly owes; ``bankrupt`` lists the shares each
seat lost; ``setup`` lists every card the banker turned up, in order, and the four that started
the market piles (the others went back into the deck).
"""


class CardStockMarketState(State):
    """One position of a Card Stock Market game (use the public API; fields are internal)."""

    __slots__ = (
        "_legal",
        "bank",
        "bought",
        "busted",
        "cash",
        "certs",
        "changes",
        "cur",
        "dealer",
        "debt",
        "discard",
        "discards",
        "draw",
        "game",
        "hands",
        "held",
        "history",
        "joker_by",
        "jokers_out",
        "levies",
        "log",
        "n",
        "phase",
        "piles",
        "prices",
        "re_drawn",
        "re_events",
        "re_hands",
        "re_pile",
        "reshuffled",
        "sales",
        "seed",
        "sold",
        "trades",
        "turn",
        "turns",
    )

    game: CardStockMarket
    n: int
    seed: int
    dealer: int
    turn: int
    turns: int
    cur: int | None
    phase: int
    piles: list[list[int]]
    busted: list[bool]
    prices: list[int]
    hands: list[list[int]]
    certs: list[list[int]]
    held: list[list[int]]
    cash: list[int]
    debt: list[int]
    bank: int
    levies: int
    draw: list[int]
    discard: list[int]
    jokers_out: int
    joker_by: int
    reshuffled: bool
    re_pile: list[int]
    re_hands: list[list[int]]
    re_drawn: list[list[int]]
    re_events: list[list[int]]
    trades: int
    sales: int
    changes: int
    discards: int
    bought: int
    sold: int
    history: list[int]
    log: list[Entry]
    _legal: list[int] | None

    # ------------------------------------------------------------------ public API

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""
        return self.cur

    def legal_actions(self) -> list[int]:
        """The sorted action ids legal for the pending decision."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _rules.legal_actions(self)
        return list(legal)

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError``, changing nothing."""
        if type(action) is not int:
            action = self.coerce_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = _rules.legal_actions(self)
        if action not in legal:
            raise self.refuse(action, _rules.explain_illegal(self, action))
        self._legal = None
        self.history.append(action)
        _rules.apply_action(self, action)

    def is_terminal(self) -> bool:
        """Whether a joker has been drawn and the stock sold."""
        return self.phase == OVER

    def scores(self) -> list[int]:
        """Each seat's money less its debt (final once the game is over)."""
        return [c - d for c, d in zip(self.cash, self.debt, strict=True)]

    def winners(self) -> list[int]:
        """The seats with the most money (several share a tie)."""
        scores = self.scores()
        best = max(scores)
        return [p for p in range(self.n) if scores[p] == best]

    def net_worth(self) -> list[int]:
        """Each seat's money less debt plus its shares at the current prices."""
        prices = self.prices
        return [
            self.cash[p]
            - self.debt[p]
            + sum(h * pr for h, pr in zip(self.held[p], prices, strict=True))
            for p in range(self.n)
        ]

    def clone(self) -> CardStockMarketState:
        """An independent copy (field by field; no deepcopy)."""
        new = CardStockMarketState.__new__(CardStockMarketState)
        new.game = self.game
        new.n = self.n
        new.seed = self.seed
        new.dealer = self.dealer
        new.turn = self.turn
        new.turns = self.turns
        new.cur = self.cur
        new.phase = self.phase
        new.piles = [p[:] for p in self.piles]
        new.busted = self.busted[:]
        new.prices = self.prices[:]
        new.hands = [h[:] for h in self.hands]
        new.certs = [c[:] for c in self.certs]
        new.held = [h[:] for h in self.held]
        new.cash = self.cash[:]
        new.debt = self.debt[:]
        new.bank = self.bank
        new.levies = self.levies
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.jokers_out = self.jokers_out
        new.joker_by = self.joker_by
        new.reshuffled = self.reshuffled
        new.re_pile = self.re_pile  # never changed after the reshuffle: shared safely
        new.re_hands = self.re_hands  # likewise
        new.re_drawn = [d[:] for d in self.re_drawn]
        new.re_events = [e[:] for e in self.re_events]
        new.trades = self.trades
        new.sales = self.sales
        new.changes = self.changes
        new.discards = self.discards
        new.bought = self.bought
        new.sold = self.sold
        new.history = self.history[:]
        new.log = self.log[:]
        new._legal = self._legal
        return new

    def view(self, player: int | None) -> CardStockMarketView:
        """What ``player`` may see; ``None`` gives a spectator's view."""
        return _views.build_view(self, player)

    def visible_events(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The log from entry ``start`` on, as ``player`` may read it, as dicts."""
        if player is not None and not (
            isinstance(player, int) and not isinstance(player, bool) and 0 <= player < self.n
        ):
            raise ValueError(f"player must be a seat from 0 to {self.n - 1} or None")
        return [entry_to_dict(f, EVENT_FIELDS) for f in visible_entries(self.log, player, start)]

    @property
    def decision(self) -> str:
        """The name of the pending decision (``game_over`` at the end)."""
        return PHASE_NAMES[self.phase]

    # ------------------------------------------------------------------ serialization

    _SCALARS = (
        "seed",
        "dealer",
        "turn",
        "turns",
        "cur",
        "phase",
        "bank",
        "levies",
        "jokers_out",
        "joker_by",
        "reshuffled",
        "trades",
        "sales",
        "changes",
        "discards",
        "bought",
        "sold",
    )
    _LISTS = (
        "piles",
        "busted",
        "prices",
        "hands",
        "certs",
        "held",
        "cash",
        "debt",
        "draw",
        "discard",
        "re_pile",
        "re_hands",
        "re_drawn",
        "re_events",
        "history",
    )

    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-ready data."""
        out: dict[str, Any] = {
            "format": "closingbell.card_stock_market.state",
            "version": self.game.info.version,
            "options": self.game.options_dict(),
        }
        for name in self._SCALARS:
            out[name] = getattr(self, name)
        for name in self._LISTS:
            out[name] = json.loads(json.dumps(getattr(self, name)))
        out["log"] = [
            [owner, list(full), None if red is None else list(red)] for owner, full, red in self.log
        ]
        out["log"] = json.loads(json.dumps(out["log"]))
        return out

    @classmethod
    def from_dict(cls, game: CardStockMarket, data: Any) -> CardStockMarketState:
        """Rebuild a state from :meth:`to_dict` output, checking it thoroughly."""
        fmt = "closingbell.card_stock_market.state"
        if not isinstance(data, dict) or data.get("format") != fmt:
            raise StateFormatError("not a Card Stock Market state (missing or wrong 'format')")
        if data.get("version") != game.info.version:
            raise StateFormatError(
                f"state version {data.get('version')!r} does not match the game's "
                f"version {game.info.version}"
            )
        if data.get("options") != game.options_dict():
            raise StateFormatError("the state's options differ from this game's options")
        st = cls.__new__(cls)
        st.game = game
        st.n = game.options.players
        try:
            for name in cls._SCALARS:
                setattr(st, name, data[name])
            for name in cls._LISTS:
                setattr(st, name, data[name])
            st.log = [
                (owner, tuple(_tuplify(full)), None if red is None else tuple(_tuplify(red)))
                for owner, full, red in data["log"]
            ]
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"malformed Card Stock Market state: {exc!r}") from None
        st._legal = None
        try:
            _check_types(st)
            st.check_invariants()
        except (AssertionError, TypeError, ValueError, IndexError, KeyError) as exc:
            raise StateFormatError(f"inconsistent Card Stock Market state: {exc}") from None
        return st

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if cards, money or bookkeeping are inconsistent."""
        _rules.check_invariants(self)


def _tuplify(value: Any) -> list[Any]:
    """Lists inside a log form become tuples again (the inverse of ``to_dict``)."""
    return [tuple(v) if isinstance(v, list) else v for v in value]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_types(st: CardStockMarketState) -> None:
    """Refuse values of the wrong JSON type before the invariants look at them."""
    for name in CardStockMarketState._SCALARS:
        value = getattr(st, name)
        if name == "reshuffled":
            assert isinstance(value, bool), "'reshuffled' must be true or false"
        elif name == "cur":
            assert value is None or _is_int(value), "'cur' must be a seat or null"
        else:
            assert _is_int(value), f"{name!r} must be an integer"
    for name in ("prices", "cash", "debt", "draw", "discard", "re_pile", "history"):
        value = getattr(st, name)
        assert isinstance(value, list) and all(_is_int(v) for v in value), f"{name!r}: ints"
    assert isinstance(st.busted, list) and all(isinstance(b, bool) for b in st.busted), "busted"
    for name in ("piles", "hands", "certs", "held", "re_hands", "re_drawn", "re_events"):
        value = getattr(st, name)
        assert isinstance(value, list) and all(
            isinstance(row, list) and all(_is_int(v) for v in row) for row in value
        ), f"{name!r} must be lists of integers"


# Imported last: these modules use the names above.
from closingbell.games.card_stock_market import rules as _rules  # noqa: E402
from closingbell.games.card_stock_market import views as _views  # noqa: E402
