"""Take Stock's names and what an action does in a position, in one language.

:class:`TakeStockFacts` holds the words every Take Stock sentence is made of (stocks, events,
cards, shares, points) and says what an action does in the position a view shows and why
the analysis prefers one action to another (:meth:`TakeStockFacts.explain`, the hints'
:meth:`TakeStockFacts.facts`). Every figure comes from the view and from the rules' own
queries (:mod:`closingbell.games.take_stock.queries`): the narrator keeps the words, the
rules the arithmetic. :class:`closingbell.text.take_stock.TakeStockNarrator` adds the
prompts, the rules' help, the log in words and the results.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import queries
from closingbell.games.take_stock.options import TakeStockOptions
from closingbell.games.take_stock.views import TakeStockView
from closingbell.text.i18n import translations
from closingbell.text.narrator import Cost, Fact, cost_sentence, explanation

if TYPE_CHECKING:
    from closingbell.bots.analysis import DecisionAnalysis

DOMAIN = "take_stock"
"""The message catalog of Take Stock's words."""


class TakeStockFacts:
    """Take Stock's names and facts in ``lang``, for a table whose seats are called ``names``."""

    def __init__(self, game: Game, names: Sequence[str], lang: str) -> None:
        self.game = game
        """The game being played (its options decide shares and scoring)."""
        self.names: Sequence[str] = list(names)
        """Each seat's name, as the table calls it."""
        self.lang = lang
        """The user's language."""
        self.tr: gettext.NullTranslations = translations(lang, DOMAIN)
        """The ``take_stock`` catalog in the user's language."""
        self._ = self.tr.gettext
        self.ngettext = self.tr.ngettext
        _ = self._
        self.shares: tuple[int, ...] = getattr(game, "shares", (0, 0, *C.DEFAULT_SHARES))
        """Shares per card, indexed by the card's value."""
        options = getattr(game, "options", None)
        self.options = options if isinstance(options, TakeStockOptions) else TakeStockOptions()
        """The game's rules options, which the rules' queries read."""
        self.stock_names: tuple[str, ...] = (_("Corn"), _("Gem"), _("Oil"), _("Tech"), _("Movie"))
        """Each stock's name in the user's language."""
        self.event_names: tuple[str, ...] = self._event_names()
        """Each event kind's name in the user's language."""
        self.reasons: dict[str, str] = {
            "market_closed": _("Market Closed was drawn"),
            "high_card": _("an 11 or 12 was placed on the market"),
            "empty_hand": _("a player's hand became empty"),
            "no_cards": _("no share card was left to draw"),
        }
        """Why a round ended, in words."""
        self.rounds_seen: dict[int, dict[str, Any]] = {}
        """The round-scoring events described so far, by round (for the final breakdown)."""

    def _event_names(self) -> tuple[str, ...]:
        _ = self._
        per_stock = []
        for fmt in (_("Stock Split ({stock})"), _("Stock Crash ({stock})")):
            per_stock += [fmt.format(stock=s) for s in self.stock_names]
        per_stock += [_("Insider Trading ({stock})").format(stock=s) for s in self.stock_names]
        names = (
            *per_stock,
            _("Stock Audit"),
            _("Stock Freeze"),
            _("No Market Change"),
            _("Market Upturn"),
            _("Market Downturn"),
            _("Stock Option Gained"),
            _("Stock Option Lost"),
            _("Market Crash"),
            _("Market Closed"),
        )
        assert len(names) == C.NUM_EVENT_KINDS
        return names

    def card_name(self, card: int) -> str:
        """A share card as plain words, such as "Oil 7"."""
        return self._("{stock} {value}").format(
            stock=self.stock_names[C.card_stock(card)], value=C.card_value(card)
        )

    def share_words(self, n: int) -> str:
        """A number of shares in words: "1 share", "3 shares"."""
        return self.ngettext("{n} share", "{n} shares", n).format(n=n)

    def event_list(self, kinds: Sequence[int]) -> str:
        """Event kinds as one list in words."""
        return self._(", ").join(self.event_names[k] for k in kinds)

    def card_list(self, cards: Sequence[int]) -> str:
        """Share cards as one list in words ("Oil 7, Gem 3")."""
        return self._(", ").join(self.card_name(c) for c in cards)

    def vocabulary(self) -> dict[str, Any]:
        """The names a front end draws with: stocks, events, cards by id, shares by value."""
        return {
            "stocks": list(self.stock_names),
            "events": list(self.event_names),
            "cards": [self.card_name(c) for c in range(C.NUM_SHARE_CARDS)],
            "shares": list(self.shares),
        }

    def explain(self, view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> str:
        """Why ``preferred`` beats ``taken`` in ``view``'s decision, in Take Stock's terms.

        The first sentence says what each action does in the position (a price and whose
        certificates it moves, the Limit, the end of the round, Market Closed, the tokens
        left for the rounds to come...), read from ``view`` alone; the second gives what
        ``analysis`` measured the choice to cost. ``ValueError`` for an action that is not
        legal in ``view`` or an analysis of another seat.
        """
        return explanation(self, take_stock_view(view), taken, preferred, analysis, cost=self._cost)

    def _cost(self, cost: Cost) -> str:
        _ = self._
        if cost.horizon == "round":
            return cost_sentence(
                cost,
                lambda margin: f"{margin:.1f}",
                falls=_(
                    "The cost: about {margin} points of standing at the round's end ({low} to "
                    "{high}), and the chance of leading then falls from {before} to {after}."
                ),
                stays=_(
                    "The cost: about {margin} points of standing at the round's end ({low} to "
                    "{high}); the chance of leading then stays about {after}."
                ),
            )
        return cost_sentence(
            cost,
            lambda margin: f"{margin:.1f}",
            falls=_(
                "The cost: about {margin} points of final margin ({low} to {high}), and the "
                "chance of winning falls from {before} to {after}."
            ),
            stays=_(
                "The cost: about {margin} points of final margin ({low} to {high}); the chance "
                "of winning stays about {after}."
            ),
        )

    def amount(self, margin: float, *, unit: bool = True) -> str:
        """A mean final margin in points, to a tenth: "3.3 points", or "3.3" without the unit."""
        figure = f"{margin:.1f}"
        return self._("{amount} points").format(amount=figure) if unit else figure

    def point_words(self, n: int, *, signed: bool = False) -> str:
        """A number of points in words: "1 point", "16 points", or signed: "+16 points"."""
        text = f"{n:+d}" if signed else str(n)
        return self.ngettext("{n} point", "{n} points", abs(n)).format(n=text)

    def doing(self, view: View, action: int) -> str:
        """``action`` as a short phrase that can begin a sentence ("raising Oil to 9")."""
        v = take_stock_view(view)
        _ = self._
        stock = self.stock_names
        if v.decision == "action" and action < A.SAVE:
            return _("raising {stock} to {value}").format(
                stock=stock[C.card_stock(action)], value=C.card_value(action)
            )
        if v.decision == "action" and action < A.DISCARD:
            return _("saving {card}").format(card=self.card_name(action - A.SAVE))
        if A.DISCARD <= action < A.MARKET_A:
            return _("discarding {card}").format(card=self.card_name(action - A.DISCARD))
        if action == A.MARKET_A:
            return _("playing the market (A)")
        if action == A.MARKET_B:
            return _("playing the market (B)")
        if A.PLAY <= action < A.CHOOSE:
            return _("playing your saved {event}").format(event=self.event_names[action - A.PLAY])
        if A.CHOOSE <= action < A.AUDIT_STOCK:
            return _("letting {event} take effect").format(
                event=self.event_names[action - A.CHOOSE]
            )
        if A.AUDIT_STOCK <= action < A.AUDIT_CARD:
            return _("auditing {stock}").format(stock=stock[action - A.AUDIT_STOCK])
        if action in (A.AUDIT_CARD, A.AUDIT_SPLIT):
            s = v.event_stock if v.event_stock is not None else 0
            if action == A.AUDIT_CARD:
                return _("removing the top card of {stock}").format(stock=stock[s])
            return _("removing a split of {stock}").format(stock=stock[s])
        if A.FREEZE_STOCK <= action < A.RETRIEVE:
            s = action - A.FREEZE_STOCK
            if v.stocks[s].frozen:
                return _("thawing {stock}").format(stock=stock[s])
            return _("freezing {stock}").format(stock=stock[s])
        if A.RETRIEVE <= action < A.RETRIEVE_DONE:
            return _("taking {card}").format(card=self.card_name(action - A.RETRIEVE))
        if action == A.RETRIEVE_DONE:
            return _("taking no more cards")
        if A.EXERCISE <= action < A.EXERCISE_DONE:
            return _("spending a token on {card}").format(card=self.card_name(action - A.EXERCISE))
        return _("exercising no more options")

    def held(self, view: View) -> list[list[int]]:
        """Each seat's shares of each stock in its certificates."""
        return [
            queries.shares_held(certs, self.shares) for certs in take_stock_view(view).certificates
        ]

    def _rival(self, v: TakeStockView, held: list[list[int]], s: int) -> int | None:
        """The other seat holding the most shares of stock ``s`` (``None``: nobody)."""
        best: int | None = None
        for q in range(v.players):
            if q != v.seat and held[q][s] and (best is None or held[q][s] > held[best][s]):
                best = q
        return best

    def _points(self, v: TakeStockView, prices: list[int]) -> list[int]:
        """Each seat's points for its certificates at ``prices``."""
        return [queries.worth(certs, prices, self.shares) for certs in v.certificates]

    def _move(
        self, v: TakeStockView, held: list[list[int]], s: int, after: int, *, can: bool = False
    ) -> Fact:
        """Stock ``s`` going to price ``after``, with what it does to its holders."""
        _ = self._
        seat = v.seat if v.seat is not None else 0
        before = v.stocks[s].price
        d = after - before
        names = {"stock": self.stock_names[s], "before": before, "after": after}
        if not d:
            return Fact(
                _("leaves {stock} at {price}").format(stock=names["stock"], price=before),
                5,
                same=("leaves",),
            )
        if can:
            text = _("can take {stock} from {before} to {after}").format(**names)
        else:
            text = _("takes {stock} from {before} to {after}").format(**names)
        parts = []
        weight = 15
        mine = held[seat][s]
        if mine:
            parts.append(
                _("your {shares}: {worth}").format(
                    shares=self.share_words(mine), worth=self.point_words(mine * d, signed=True)
                )
            )
            weight += min(45, abs(mine * d))
        rival = self._rival(v, held, s)
        if rival is not None:
            theirs = held[rival][s]
            parts.append(
                _("{name}'s {shares}: {worth}").format(
                    name=self.names[rival],
                    shares=self.share_words(theirs),
                    worth=self.point_words(theirs * d, signed=True),
                )
            )
            weight += min(30, abs(theirs * d))
        if not parts:
            # A stock nobody holds moves nobody's points, whichever stock and way: alike.
            return Fact(text, weight, same=("move", can))
        holdings = _("; ").join(parts)
        text = _("{move} ({holdings})").format(move=text, holdings=holdings)
        # Two stocks moving the same points for the same holders read alike.
        return Fact(text, weight, same=("move", can, holdings))

    def _worth(self, v: TakeStockView, card: int) -> int:
        """What ``card`` would score as a certificate at today's prices."""
        return queries.card_worth(card, v.scoring_prices, self.shares)

    def facts(self, view: View, action: int) -> list[Fact]:
        """What ``action`` does in the position ``view`` shows, most telling first.

        Each fact is a phrase that follows :meth:`doing` ("raising Oil to 9" "adds 16
        points to your 4 shares of Oil"). Every figure comes from the view.
        """
        v = take_stock_view(view)
        held = self.held(v)
        if v.decision == "action":
            found = self._turn_facts(v, held, action)
        elif A.DISCARD <= action < A.MARKET_A:
            found = self._discard_facts(v, held, action - A.DISCARD)
        elif A.CHOOSE <= action < A.AUDIT_STOCK:
            found = self._event_facts(v, held, action - A.CHOOSE, own_after=len(v.hand))
        elif A.AUDIT_STOCK <= action < A.AUDIT_CARD:
            found = self._audit_facts(v, held, action - A.AUDIT_STOCK, None)
        elif action in (A.AUDIT_CARD, A.AUDIT_SPLIT):
            s = v.event_stock if v.event_stock is not None else 0
            found = self._audit_facts(v, held, s, action == A.AUDIT_CARD)
        elif A.FREEZE_STOCK <= action < A.RETRIEVE:
            found = self._freeze_facts(v, held, action - A.FREEZE_STOCK)
        elif A.RETRIEVE <= action <= A.RETRIEVE_DONE:
            found = self._retrieve_facts(v, held, action)
        else:
            found = self._exercise_facts(v, action)
        return sorted(found, key=lambda f: -f.weight)

    def _events_left(self, v: TakeStockView) -> str:
        return self.ngettext(
            "{n} event card left before Market Closed",
            "{n} event cards left before Market Closed",
            v.event_pile,
        ).format(n=v.event_pile)

    def _turn_facts(self, v: TakeStockView, held: list[list[int]], action: int) -> list[Fact]:
        _ = self._
        seat = v.seat if v.seat is not None else 0
        facts: list[Fact] = []
        if action < A.SAVE:
            s, value = C.card_stock(action), C.card_value(action)
            row = v.stocks[s]
            after = queries.price(value, row.splits)
            if value in C.CLOSING_VALUES:
                prices = list(v.scoring_prices)
                prices[s] = after
                points = self._points(v, prices)
                leader = max((q for q in range(v.players) if q != seat), key=lambda q: points[q])
                facts.append(
                    Fact(
                        _(
                            "ends the round at once: at those prices your certificates score "
                            "{worth} and {name}'s {rival_worth}"
                        ).format(
                            worth=self.point_words(points[seat]),
                            name=self.names[leader],
                            rival_worth=self.point_words(points[leader]),
                        ),
                        90,
                    )
                )
            facts.append(self._raise_fact(v, held, s, after))
            longest = queries.row_count(len(row.cards) + 1, row.splits, row.frozen, self.options)
            if value not in C.CLOSING_VALUES and longest > v.limit:
                facts.append(
                    Fact(
                        _(
                            "makes {stock} the longest row, so the Limit rises to {limit} "
                            "certificates"
                        ).format(stock=self.stock_names[s], limit=longest),
                        35,
                        same=("limit", longest),
                    )
                )
            return facts
        if action < A.DISCARD:
            card = action - A.SAVE
            s = C.card_stock(card)
            if len(v.hand) == 2:
                facts.append(
                    Fact(_("empties your hand with the discard that follows, ending the round"), 85)
                )
            limit = v.limit
            if limit - len(v.certificates[seat]) - 1 == 0:
                allowed = self.ngettext("{n} certificate", "{n} certificates", limit).format(
                    n=limit
                )
                facts.append(
                    Fact(
                        _(
                            "uses your last free save: the Limit allows {certificates} until "
                            "a row grows, with {events}"
                        ).format(certificates=allowed, events=self._events_left(v)),
                        60,
                    )
                )
            worth = self._worth(v, card)
            shares = self.share_words(self.shares[C.card_value(card)])
            if worth == 0 and v.stocks[s].frozen:
                facts.append(
                    Fact(
                        _(
                            "adds {shares} of {stock}, which score nothing while it is frozen"
                        ).format(shares=shares, stock=self.stock_names[s]),
                        50,
                        same=("save frozen",),
                    )
                )
            else:
                facts.append(
                    Fact(
                        _(
                            "adds {shares} of {stock}, worth {worth} at today's price of {price}"
                        ).format(
                            shares=shares,
                            stock=self.stock_names[s],
                            worth=self.point_words(worth),
                            price=v.stocks[s].price,
                        ),
                        45,
                        same=("save", worth),
                    )
                )
            return facts
        if action in (A.MARKET_A, A.MARKET_B):
            if v.event_pile == 0:
                facts.append(
                    Fact(_("draws Market Closed, the next event card, and ends the round"), 90)
                )
            elif v.event_pile == 1 and action == A.MARKET_A:
                facts.append(
                    Fact(
                        _(
                            "meets Market Closed as its second card: the round ends and the "
                            "first card has no effect"
                        ),
                        85,
                    )
                )
            elif action == A.MARKET_A:
                facts.append(
                    Fact(
                        _("spends a card on the better of two unseen events"),
                        20,
                    )
                )
            else:
                facts.append(
                    Fact(
                        _("spends a card on one hidden event to play later"),
                        20,
                    )
                )
            return facts
        return self._event_facts(v, held, action - A.PLAY, own_after=len(v.hand) - 1)

    def _raise_fact(self, v: TakeStockView, held: list[list[int]], s: int, after: int) -> Fact:
        """What a raise of stock ``s`` to ``after`` adds to the certificates of it."""
        _ = self._
        seat = v.seat if v.seat is not None else 0
        d = after - v.stocks[s].price
        mine = held[seat][s]
        rival = self._rival(v, held, s)
        stock = self.stock_names[s]
        if mine and rival is not None:
            theirs = held[rival][s]
            return Fact(
                _(
                    "adds {worth} to your {shares} of {stock} and {rival_worth} to "
                    "{name}'s {rival_shares}"
                ).format(
                    worth=self.point_words(mine * d),
                    shares=self.share_words(mine),
                    stock=stock,
                    rival_worth=self.point_words(theirs * d),
                    name=self.names[rival],
                    rival_shares=self.share_words(theirs),
                ),
                40 + min(30, mine * d),
                same=("raise", mine * d, rival, theirs * d),
            )
        if mine:
            return Fact(
                _("adds {worth} to your {shares} of {stock}").format(
                    worth=self.point_words(mine * d), shares=self.share_words(mine), stock=stock
                ),
                40 + min(30, mine * d),
                same=("raise", mine * d, None, 0),
            )
        if rival is not None:
            theirs = held[rival][s]
            return Fact(
                _("adds {worth} to {name}'s {shares} of {stock}, and nothing to yours").format(
                    worth=self.point_words(theirs * d),
                    name=self.names[rival],
                    shares=self.share_words(theirs),
                    stock=stock,
                ),
                45 + min(25, theirs * d),
                same=("raise", 0, rival, theirs * d),
            )
        return Fact(
            _("lifts {stock}, which nobody holds yet, from {before} to {after}").format(
                stock=stock, before=v.stocks[s].price, after=after
            ),
            15,
            same=("lift",),
        )

    def _discard_facts(self, v: TakeStockView, held: list[list[int]], card: int) -> list[Fact]:
        _ = self._
        facts: list[Fact] = []
        last = len(v.hand) == 1 and (
            v.decision == "downturn_discard" or v.pending_discard_for == "save"
        )
        if last:
            facts.append(Fact(_("empties your hand, ending the round"), 85))
        found = self._card_use(v, held, card)
        if found is not None:
            facts.append(
                Fact(
                    _("gives up {use}").format(use=found.text),
                    found.weight,
                    _within("gives up", found),
                )
            )
        return facts

    def _card_use(self, v: TakeStockView, held: list[list[int]], card: int) -> Fact | None:
        """The best use a card in hand has now: a raise, or a certificate's points."""
        _ = self._
        seat = v.seat if v.seat is not None else 0
        s, value = C.card_stock(card), C.card_value(card)
        stock = self.stock_names[s]
        row = v.stocks[s]
        after = queries.raised_price(row.cards, row.splits, row.frozen, value)
        mine = held[seat][s]
        if after is not None and value in C.CLOSING_VALUES:
            return Fact(
                _("a raise of {stock} to {value} that would end the round").format(
                    stock=stock, value=value
                ),
                45,
                same=("closing raise",),
            )
        if after is not None and mine:
            gain = mine * (after - v.stocks[s].price)
            return Fact(
                _("a raise that would add {worth} to your {shares} of {stock}").format(
                    worth=self.point_words(gain), shares=self.share_words(mine), stock=stock
                ),
                40 + min(30, gain),
                same=("raise for you", gain),
            )
        if after is not None:
            return Fact(
                _("a raise of {stock} from {before} to {after}").format(
                    stock=stock, before=v.stocks[s].price, after=after
                ),
                35,
                same=("raise of nobody's",),
            )
        worth = self._worth(v, card)
        if worth:
            return Fact(
                _("a certificate of {stock} worth {worth} at today's price").format(
                    stock=stock, worth=self.point_words(worth)
                ),
                20 + min(20, worth // 2),
                same=("certificate", worth),
            )
        return None

    def _event_facts(
        self, v: TakeStockView, held: list[list[int]], kind: int, *, own_after: int
    ) -> list[Fact]:
        """What event ``kind`` would do if it took effect now."""
        _ = self._
        seat = v.seat if v.seat is not None else 0
        stock = C.event_stock(kind)
        if kind < C.CRASH and stock is not None:
            row = v.stocks[stock]
            if row.frozen:
                return [
                    Fact(
                        _("is wasted: {stock} is frozen, so the split is discarded").format(
                            stock=self.stock_names[stock]
                        ),
                        40,
                        same=("wasted",),
                    )
                ]
            return [
                self._move(v, held, stock, queries.price(*queries.split(row.cards, row.splits)))
            ]
        if kind < C.INSIDER and stock is not None:
            return [self._move(v, held, stock, self._crashed(v, stock))]
        if kind < C.AUDIT and stock is not None:
            cards = [c for c in v.discard_pile if C.card_stock(c) == stock]
            if not cards:
                return [
                    Fact(
                        _("finds no {stock} card in the discard pile to take").format(
                            stock=self.stock_names[stock]
                        ),
                        35,
                        same=("nothing to take",),
                    )
                ]
            return [
                Fact(
                    _(
                        "lets you take up to {n} of the {stock} cards in the discard pile ({cards})"
                    ).format(
                        n=min(C.MAX_RETRIEVE, len(cards)),
                        stock=self.stock_names[stock],
                        cards=self.card_list(cards),
                    ),
                    30,
                )
            ]
        if kind == C.MARKET_CRASH:
            prices = [self._crashed(v, s) for s in range(C.NUM_STOCKS)]
            now = self._points(v, [r.price for r in v.stocks])
            then = self._points(v, prices)
            lost = [b - a for b, a in zip(now, then, strict=True)]
            rival = max((q for q in range(v.players) if q != seat), key=lambda q: lost[q])
            weight = 20 + min(50, abs(lost[rival] - lost[seat]))
            if not lost[seat] and not lost[rival]:
                return [Fact(_("crashes every stock, though no certificate loses anything"), 10)]
            if not lost[seat]:
                text = _(
                    "crashes every stock: {name}'s certificates lose {rival_worth}, and yours "
                    "nothing"
                ).format(name=self.names[rival], rival_worth=self.point_words(lost[rival]))
                return [Fact(text, weight)]
            text = _(
                "crashes every stock: your certificates lose {worth} and {name}'s {rival_worth}"
            ).format(
                worth=self.point_words(lost[seat]),
                name=self.names[rival],
                rival_worth=self.point_words(lost[rival]),
            )
            return [Fact(text, weight)]
        if kind == C.AUDIT:
            best: tuple[int, int, int] | None = None  # (gain over the others, stock, price)
            for s, row in enumerate(v.stocks):
                if row.frozen:
                    continue
                for lower in self._audit_prices(v, s):
                    d = lower - row.price
                    other = self._rival(v, held, s)
                    theirs = held[other][s] if other is not None else 0
                    gain = (held[seat][s] - theirs) * d
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, s, lower)
            if best is None:
                return [
                    Fact(
                        _(
                            "lets you audit a stock, though no audit now hurts the others more "
                            "than you"
                        ),
                        10,
                    )
                ]
            return [self._move(v, held, best[1], best[2], can=True)]
        if kind == C.FREEZE:
            return [Fact(_("lets you freeze a stock or thaw one"), 10)]
        if kind == C.NO_CHANGE:
            return [Fact(_("changes nothing"), 15)]
        if kind == C.UPTURN:
            return [Fact(_("gives every player one more card"), 15)]
        if kind == C.DOWNTURN:
            if own_after == 1:
                return [
                    Fact(
                        _("makes every player discard a card, and your last card ends the round"),
                        50,
                    )
                ]
            short = [q for q in range(v.players) if q != seat and v.hand_sizes[q] == 1]
            if short:
                return [
                    Fact(
                        _(
                            "makes every player discard a card, and the round ends because "
                            "{name} holds only one"
                        ).format(name=self.names[short[0]]),
                        50,
                    )
                ]
            return [Fact(_("makes every player discard a card"), 15)]
        if kind == C.OPTION_GAINED:
            shortage = getattr(self.game.options, "option_shortage", "turn_order")
            if v.option_supply < v.players and shortage == "nobody":
                return [
                    Fact(
                        _("gives nobody a token, as the box holds only {n}").format(
                            n=v.option_supply
                        ),
                        20,
                    )
                ]
            return [Fact(_("gives every player an option token"), 20)]
        if kind == C.OPTION_LOST:
            return [Fact(_("takes an option token from every player who has one"), 20)]
        return []

    def _crashed(self, v: TakeStockView, s: int) -> int:
        """Stock ``s``'s price after a crash now."""
        row = v.stocks[s]
        return queries.price(*queries.crashed(row.cards, row.splits, self.options))

    def _audit_prices(self, v: TakeStockView, s: int) -> list[int]:
        """The prices an audit of stock ``s`` can leave: the top card removed, or a split."""
        row = v.stocks[s]
        return [queries.price(*left) for left in queries.audits(row.cards, row.splits) if left]

    def _audit_facts(
        self, v: TakeStockView, held: list[list[int]], s: int, card: bool | None
    ) -> list[Fact]:
        _ = self._
        row = v.stocks[s]
        if card is None:
            prices = self._audit_prices(v, s)
            if not prices:
                return [
                    Fact(
                        _("changes nothing: {stock} has nothing to remove").format(
                            stock=self.stock_names[s]
                        ),
                        30,
                        same=("nothing to remove",),
                    )
                ]
            return [self._move(v, held, s, min(prices), can=len(prices) > 1)]
        left = queries.audits(row.cards, row.splits)[0 if card else 1]
        assert left is not None  # the audit_what decision offers only what can go
        return [self._move(v, held, s, queries.price(*left))]

    def _freeze_facts(self, v: TakeStockView, held: list[list[int]], s: int) -> list[Fact]:
        _ = self._
        row = v.stocks[s]
        stock = self.stock_names[s]
        if row.frozen:
            return [
                Fact(
                    _("lets {stock} be raised again from {price}").format(
                        stock=stock, price=row.price
                    ),
                    20,
                    same=("thaw", row.price),
                )
            ]
        frozen_price = queries.scoring_price(row.price, True, self.options)
        if frozen_price != row.price:
            fact = self._move(v, held, s, frozen_price)
            return [
                Fact(
                    _("makes {stock} score nothing while it is frozen: it {move}").format(
                        stock=stock, move=fact.text
                    ),
                    fact.weight,
                    _within("frozen", fact),
                )
            ]
        return [
            Fact(
                _("holds {stock} at {price}: nobody can raise, split or audit it").format(
                    stock=stock, price=row.price
                ),
                20,
                same=("freeze", row.price),
            )
        ]

    def _retrieve_facts(self, v: TakeStockView, held: list[list[int]], action: int) -> list[Fact]:
        _ = self._
        if action == A.RETRIEVE_DONE:
            return [Fact(_("spares you a discard for every card you do not take"), 5)]
        found = self._card_use(v, held, action - A.RETRIEVE)
        if found is None:
            return [Fact(_("brings a card into your hand that would score nothing now"), 5)]
        return [
            Fact(
                _("brings into your hand {use}").format(use=found.text),
                found.weight,
                _within("brings", found),
            )
        ]

    def _exercise_facts(self, v: TakeStockView, action: int) -> list[Fact]:
        _ = self._
        seat = v.seat if v.seat is not None else 0
        left = v.tokens[seat] - len(v.own_hidden)
        tokens = self.ngettext("{n} token", "{n} tokens", left).format(n=left)
        last_round = v.round >= v.rounds
        if action == A.EXERCISE_DONE:
            if last_round and getattr(self.game.options, "final_tie", "shared") == "most_tokens":
                return [
                    Fact(
                        _("keeps {tokens}, which now count only to break a tie for the win").format(
                            tokens=tokens
                        ),
                        40,
                    )
                ]
            if last_round:
                return [
                    Fact(
                        _("leaves {tokens} unused, worth nothing after this last round").format(
                            tokens=tokens
                        ),
                        60,
                    )
                ]
            rounds = v.rounds - v.round
            return [
                Fact(
                    self.ngettext(
                        "keeps {tokens} for {n} more round",
                        "keeps {tokens} for {n} more rounds",
                        rounds,
                    ).format(tokens=tokens, n=rounds),
                    25,
                )
            ]
        card = action - A.EXERCISE
        worth = self._worth(v, card)
        return [
            Fact(
                _(
                    "scores {worth} this round with {shares} of {stock}, for one of your {tokens}"
                ).format(
                    worth=self.point_words(worth),
                    shares=self.share_words(self.shares[C.card_value(card)]),
                    stock=self.stock_names[C.card_stock(card)],
                    tokens=tokens,
                ),
                40 + min(30, worth // 3),
                same=("exercise", worth),
            )
        ]


def _within(kind: str, fact: Fact) -> tuple[object, ...] | None:
    """The :attr:`Fact.same` of a fact that wraps ``fact`` in words of ``kind``."""
    return None if fact.same is None else (kind, *fact.same)


def take_stock_view(view: View) -> TakeStockView:
    """``view`` as a Take Stock view; ``TypeError`` for another game's."""
    if not isinstance(view, TakeStockView):
        raise TypeError("the Take Stock narrator needs a Take Stock view")
    return view
