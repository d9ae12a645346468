"""Card Stock Market's names and what an action does in a position, in one language.

:class:`CardStockMarketFacts` holds the words every Card Stock Market sentence is made of
(seats, suits, cards, shares, dollars), what remains of a turn and which cards may move a
price, and says what an action does in the position a view shows and why the analysis
prefers one action to another (:meth:`CardStockMarketFacts.explain`, the hints'
:meth:`CardStockMarketFacts.facts`). Every figure comes from the view and from the rules'
own queries (:mod:`closingbell.games.card_stock_market.queries`): the narrator keeps the
words, the rules the arithmetic.
:class:`closingbell.text.card_stock_market.CardStockMarketNarrator` adds the prompts, the
rules' help, the actions and the log in words, and the result.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market import queries
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.state import PHASE_NAMES
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.text.i18n import translations
from closingbell.text.narrator import Cost, Fact, cost_sentence, explanation

if TYPE_CHECKING:
    from closingbell.bots.analysis import DecisionAnalysis

DOMAIN = "card_stock_market"
"""The message catalog of Card Stock Market's words."""

FACE_LETTERS = ("J", "Q", "K")
"""The face cards' letters, jack to king."""


def _dollars(amount: int) -> str:
    """Whole dollars: ``$28``, ``-$5``."""
    return f"${amount}" if amount >= 0 else f"-${-amount}"


def _signed_money(amount: int) -> str:
    """A gain or a loss in dollars: ``+$12``, ``-$6``."""
    return f"+${amount}" if amount >= 0 else f"-${-amount}"


def _money(amount: float) -> str:
    """An average in dollars: whole dollars from $10, else to the dime (``$42``, ``-$3.5``)."""
    digits = 0 if abs(amount) >= 10 else 1
    text = f"{abs(amount):.{digits}f}"
    return f"-${text}" if amount < 0 and float(text) else f"${text}"


class CardStockMarketFacts:
    """Card Stock Market's names and facts in ``lang``, for seats called ``names``."""

    def __init__(self, game: Game, names: Sequence[str], lang: str) -> None:
        if not isinstance(game, CardStockMarket):
            raise TypeError("CardStockMarketNarrator needs a Card Stock Market game")
        if len(names) != game.options.players:
            raise ValueError(f"{len(names)} names for {game.options.players} seats")
        self.game: Game = game
        """The game being played (its rules options; no cards)."""
        self.names: Sequence[str] = names
        """Each seat's name, as the log and the tables show it."""
        self.lang = lang
        """The user's language."""
        self.tr: gettext.NullTranslations = translations(lang, DOMAIN)
        """The ``card_stock_market`` catalog in the user's language."""
        self._rules = game

    # ------------------------------------------------------------------ small words

    def _view(self, view: View) -> CardStockMarketView:
        if not isinstance(view, CardStockMarketView):
            raise TypeError("CardStockMarketNarrator tells Card Stock Market views only")
        return view

    def name(self, seat: int) -> str:
        """A seat's name."""
        return self.names[seat]

    def suit(self, suit: int) -> str:
        """A suit's name ("Clubs")."""
        _ = self.tr.gettext
        return (_("Clubs"), _("Diamonds"), _("Hearts"), _("Spades"))[suit]

    def card(self, card: int) -> str:
        """A card as written: "7♣", "K♠", or the joker's name."""
        _ = self.tr.gettext
        return _("Joker") if card == C.JOKER else C.card_symbol(card)

    def cards(self, cards: Sequence[int]) -> str:
        """Cards as written, separated by spaces."""
        return " ".join(self.card(c) for c in cards)

    def join(self, items: Sequence[str]) -> str:
        """``A``, ``A and B``, ``A, B and C`` (in the user's language)."""
        _ = self.tr.gettext
        if not items:
            return ""
        text = items[0]
        for item in items[1:-1]:
            text = _("{list}, {item}").format(list=text, item=item)
        if len(items) > 1:
            text = _("{list} and {item}").format(list=text, item=items[-1])
        return text

    def vocabulary(self) -> dict[str, Any]:
        """The names a front end draws with: ``suits`` and ``cards`` (by card id)."""
        return {
            "suits": [self.suit(s) for s in range(C.NUM_SUITS)],
            "cards": [self.card(c) for c in range(C.JOKER + 1)],
        }

    # ------------------------------------------------------------------ the turn

    def left(self, view: View) -> tuple[int, int, int]:
        """What remains of the turn: transactions, market changes and discards left."""
        v = self._view(view)
        return queries.turn_left(
            PHASE_NAMES.index(v.decision), v.trades, v.changes, v.discards, self._rules.trade_first
        )

    def number_spans(self, view: View, suit: int) -> list[tuple[int, int]]:
        """The number cards that may be played on ``suit`` now, as runs (lowest, highest).

        A face card on top may be covered by any number card; otherwise the strip bounds
        the run, and the price itself is left out unless ``same_price_change`` allows it.
        """
        m = self._view(view).suits[suit]
        face = C.rank_of(m.pile[-1]) > 10
        same = self._rules.same_price_change
        spans: list[tuple[int, int]] = []
        for rank in range(1, 11):
            if not queries.can_change(
                rank, m.price, face, m.max_rise, m.max_fall, same_price_change=same
            ):
                continue
            if spans and spans[-1][1] == rank - 1:
                spans[-1] = (spans[-1][0], rank)
            else:
                spans.append((rank, rank))
        return spans

    def raises(self, view: View, suit: int) -> list[str]:
        """The face cards (their letters) that may raise ``suit`` now."""
        m = self._view(view).suits[suit]
        limited = self._rules.face_raise_limited
        return [
            letter
            for letter, rank in zip(FACE_LETTERS, (11, 12, 13), strict=True)
            if queries.can_raise(rank, m.price, m.max_rise, limited)
        ]

    # ------------------------------------------------------------------ why one action is better

    def explain(self, view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> str:
        """Why ``preferred`` beats ``taken`` in ``view``'s decision, in Card Stock Market's terms.

        The first sentence says what each action does in the position (a price and whose
        shares it moves, a purchase and the cash it leaves, a face card, a bankruptcy, the
        bank running short, the turn's unused actions...), read from ``view`` alone; the
        second gives what ``analysis`` measured the choice to cost. ``ValueError`` for an
        action that is not legal in ``view`` or an analysis of another seat.
        """
        return explanation(self, self._view(view), taken, preferred, analysis, cost=self._cost)

    def _cost(self, cost: Cost) -> str:
        _ = self.tr.gettext
        return cost_sentence(
            cost,
            _money,
            falls=_(
                "The cost: about {margin} of final margin ({low} to {high}), and the chance "
                "of winning falls from {before} to {after}."
            ),
            stays=_(
                "The cost: about {margin} of final margin ({low} to {high}); the chance of "
                "winning stays about {after}."
            ),
        )

    def amount(self, margin: float, *, unit: bool = True) -> str:
        """A mean final margin in dollars: "$42", "$3.5" (dollars always show their sign)."""
        return _money(margin)

    def doing(self, view: View, action: int) -> str:
        """``action`` as a short phrase that can begin a sentence ("buying 7♦")."""
        v = self._view(view)
        _ = self.tr.gettext
        if action == A.DONE:
            return _("ending your turn")
        if A.DISCARD <= action < A.DONE:
            return _("discarding {card}").format(card=self.card(action - A.DISCARD))
        if action < A.SELL:
            return _("buying {card}").format(card=self.card(action - A.BUY))
        if action < A.MARKET:
            return _("selling {card}").format(card=self.card(action - A.SELL))
        if action < A.BANKRUPT:
            card = action - A.MARKET
            s = C.suit_of(card)
            names = {"card": self.card(card), "suit": self.suit(s)}
            if C.is_face(card):
                return _("raising {suit} with {card}").format(**names)
            if C.rank_of(v.suits[s].pile[-1]) > 10:
                return _("covering the face card on {suit} with {card}").format(**names)
            return _("playing {card} on {suit}").format(**names)
        card = A.bankrupt_card(action)
        return _("bankrupting {suit} with {card}").format(
            suit=self.suit(C.suit_of(card)), card=self.card(card)
        )

    def _count(self, n: int) -> str:
        return self.tr.ngettext("{count} share", "{count} shares", n).format(count=n)

    def _rival(self, v: CardStockMarketView, s: int) -> int | None:
        """The other seat holding the most shares of suit ``s`` (``None``: nobody)."""
        best: int | None = None
        for q in range(v.players):
            if (
                q != v.seat
                and v.shares[q][s]
                and (best is None or v.shares[q][s] > v.shares[best][s])
            ):
                best = q
        return best

    def unseen_faces(self, view: View, suit: int) -> int:
        """How many of ``suit``'s six face cards the view's seat cannot see anywhere.

        They are in the other hands or the draw pile; any of them can bankrupt the suit.
        """
        v = self._view(view)
        faces = {C.kind(suit, rank) for rank in (11, 12, 13)}
        seen = [*v.hand, *v.discard_pile]
        for m in v.suits:
            seen += m.pile
        for certs in v.certificates:
            seen += certs
        return len(faces) * C.COPIES - sum(1 for c in seen if c in faces)

    def _holdings(self, v: CardStockMarketView, s: int, d: int) -> tuple[str | None, int]:
        """What a price change of ``d`` on suit ``s`` does to its holders, and how much."""
        _ = self.tr.gettext
        seat = v.seat if v.seat is not None else v.turn_player
        parts = []
        weight = 0
        mine = v.shares[seat][s]
        if mine:
            parts.append(
                _("your {lot}: {amount}").format(
                    lot=self._count(mine), amount=_signed_money(mine * d)
                )
            )
            weight += min(45, abs(mine * d))
        rival = self._rival(v, s)
        if rival is not None:
            theirs = v.shares[rival][s]
            parts.append(
                _("{name}'s {lot}: {amount}").format(
                    name=self.name(rival),
                    lot=self._count(theirs),
                    amount=_signed_money(theirs * d),
                )
            )
            weight += min(30, abs(theirs * d))
        if not parts:
            return None, weight
        return _("; ").join(parts), weight

    def facts(self, view: View, action: int) -> list[Fact]:
        """What ``action`` does in the position ``view`` shows, most telling first.

        Each fact is a phrase that follows :meth:`doing` ("buying 7♦" "spends $28 on 7
        shares of Diamonds at $4, leaving $172"). Every figure comes from the view.
        """
        v = self._view(view)
        _ = self.tr.gettext
        seat = v.seat if v.seat is not None else v.turn_player
        facts: list[Fact] = []
        if action == A.DONE:
            return self._done_facts(v)
        if A.DISCARD <= action < A.DONE:
            if v.decision == "turn":
                facts.append(Fact(_("gives up this turn's trading and market changes"), 50))
            use = self._card_use(v, action - A.DISCARD)
            if use is not None:
                same = None if use.same is None else ("gives up", *use.same)
                facts.append(Fact(_("gives up {use}").format(use=use.text), use.weight, same))
            return sorted(facts, key=lambda f: -f.weight)
        if action < A.SELL:
            card = action - A.BUY
            s = C.suit_of(card)
            shares = C.SHARES[card]
            price = v.suits[s].price
            cost = shares * price
            suit = self.suit(s)
            faces = self.unseen_faces(v, s)
            if price == 0:
                facts.append(
                    Fact(
                        _(
                            "takes {lot} of {suit} for nothing while it stands bankrupt, with "
                            "{faces} of its face cards unseen"
                        ).format(lot=self._count(shares), suit=suit, faces=faces),
                        60,
                        same=("free", shares, faces),
                    )
                )
            else:
                facts.append(
                    Fact(
                        _(
                            "spends {cost} on {lot} of {suit} at {price}, leaving {cash} in cash"
                        ).format(
                            cost=_dollars(cost),
                            lot=self._count(shares),
                            suit=suit,
                            price=_dollars(price),
                            cash=_dollars(v.cash[seat] - cost),
                        ),
                        40,
                        same=("buy", shares, cost),
                    )
                )
                if faces:
                    facts.append(
                        Fact(
                            _(
                                "puts {cost} into {suit}, which any of its {faces} unseen face "
                                "cards can bankrupt"
                            ).format(cost=_dollars(cost), suit=suit, faces=faces),
                            25,
                            same=("exposed", cost, faces),
                        )
                    )
            if C.is_face(card):
                facts.append(
                    Fact(
                        _(
                            "spends a face card as {lot}, not as a raise or a bankruptcy of {suit}"
                        ).format(lot=self._count(shares), suit=suit),
                        45,
                        same=("face bought", shares),
                    )
                )
            if v.shares[seat][s] + shares == C.MAX_SHARES:
                facts.append(
                    Fact(
                        _("fills your limit of {cap} shares of {suit}").format(
                            cap=C.MAX_SHARES, suit=suit
                        ),
                        30,
                        same=("fills",),
                    )
                )
            return sorted(facts, key=lambda f: -f.weight)
        if action < A.MARKET:
            card = action - A.SELL
            s = C.suit_of(card)
            shares = C.SHARES[card]
            price = v.suits[s].price
            amount = shares * price
            if v.bank is not None and v.bank < amount:
                facts.append(
                    Fact(
                        _(
                            "leaves the bank unable to pay {amount}, so every player pays the "
                            "levy of {levy}"
                        ).format(amount=_dollars(amount), levy=_dollars(self._rules.options.levy)),
                        80,
                    )
                )
            debt = v.debts[seat]
            if debt and amount and self._rules.immediate_repay:
                facts.append(
                    Fact(
                        _("brings in {amount}, of which {paid} goes to your debt").format(
                            amount=_dollars(amount), paid=_dollars(min(debt, amount))
                        ),
                        45,
                    )
                )
            facts.append(
                Fact(
                    _("brings in {amount} for {lot} of {suit} at {price}").format(
                        amount=_dollars(amount),
                        lot=self._count(shares),
                        suit=self.suit(s),
                        price=_dollars(price),
                    ),
                    40,
                    same=("sell", amount, shares),
                )
            )
            return sorted(facts, key=lambda f: -f.weight)
        if action < A.BANKRUPT:
            card = action - A.MARKET
            s = C.suit_of(card)
            return [self._move(v, s, queries.market_price(card))]
        card = A.bankrupt_card(action)
        s = C.suit_of(card)
        price = v.suits[s].price
        holdings, weight = self._holdings(v, s, -price)
        if holdings is None or price == 0:
            lost = sum(h[s] for h in v.shares)
            if lost:
                return [
                    Fact(
                        _("wipes out the {lot} of {suit} bought at $0").format(
                            lot=self._count(lost), suit=self.suit(s)
                        ),
                        35,
                        same=("wipe free", lost),
                    )
                ]
            return [
                Fact(
                    _("drops {suit}, which nobody holds, from {before} to $0").format(
                        suit=self.suit(s), before=_dollars(price)
                    ),
                    20,
                    same=("drop",),
                )
            ]
        return [
            Fact(
                _("wipes out every share of {suit} at {price} ({holdings})").format(
                    suit=self.suit(s), price=_dollars(price), holdings=holdings
                ),
                30 + weight,
                same=("wipe", holdings),
            )
        ]

    def _move(self, v: CardStockMarketView, s: int, after: int) -> Fact:
        """Suit ``s`` going to price ``after``, with what it does to its holders."""
        _ = self.tr.gettext
        before = v.suits[s].price
        if after == before:
            return Fact(
                _("leaves {suit} at {price}, only to shed a card").format(
                    suit=self.suit(s), price=_dollars(before)
                ),
                20,
                same=("shed",),
            )
        text = _("moves {suit} from {before} to {after}").format(
            suit=self.suit(s), before=_dollars(before), after=_dollars(after)
        )
        holdings, weight = self._holdings(v, s, after - before)
        if holdings is None:
            # A suit nobody holds moves nobody's money, whichever suit and way: alike.
            return Fact(_("{move}, a suit nobody holds").format(move=text), 10, same=("move",))
        # Two suits moving the same sums for the same holders read alike.
        return Fact(
            _("{move} ({holdings})").format(move=text, holdings=holdings),
            15 + weight,
            same=("move", holdings),
        )

    def _card_use(self, v: CardStockMarketView, card: int) -> Fact | None:
        """The best use a card in hand has now: a move of its price, or a purchase."""
        _ = self.tr.gettext
        seat = v.seat if v.seat is not None else v.turn_player
        s = C.suit_of(card)
        m = v.suits[s]
        suit = self.suit(s)
        if C.is_face(card):
            return Fact(
                _("a face card that could raise {suit} or bankrupt it").format(suit=suit),
                40,
                same=("face",),
            )
        rank = C.rank_of(card)
        playable = any(low <= rank <= high for low, high in self.number_spans(v, s))
        mine = v.shares[seat][s]
        if playable and mine and rank != m.price:
            gain = mine * (rank - m.price)
            return Fact(
                _("a move of {suit} to {price}, {amount} for your {lot}").format(
                    suit=suit,
                    price=_dollars(rank),
                    amount=_signed_money(gain),
                    lot=self._count(mine),
                ),
                30 + min(30, abs(gain)),
                same=("move for you", gain),
            )
        if playable:
            return Fact(
                _("a move of {suit} from {before} to {after}").format(
                    suit=suit, before=_dollars(m.price), after=_dollars(rank)
                ),
                25,
                same=("move of nobody's", rank > m.price),
            )
        shares = C.SHARES[card]
        if queries.can_buy(mine, v.cash[seat], shares, m.price):
            return Fact(
                _("a purchase of {lot} of {suit} for {cost}").format(
                    lot=self._count(shares), suit=suit, cost=_dollars(shares * m.price)
                ),
                20,
                same=("purchase", shares, shares * m.price),
            )
        return None

    def _done_facts(self, v: CardStockMarketView) -> list[Fact]:
        _ = self.tr.gettext
        ngettext = self.tr.ngettext
        trades, changes, _discards = self.left(v)
        if v.decision == "turn":
            return [Fact(_("passes the whole turn: no trade, no market change, no discard"), 30)]
        unused = []
        if trades:
            unused.append(
                ngettext("{count} transaction", "{count} transactions", trades).format(count=trades)
            )
        if changes:
            unused.append(
                ngettext("{count} market change", "{count} market changes", changes).format(
                    count=changes
                )
            )
        if v.decision == "discarding":
            left = C.MAX_DISCARDS - v.discards
            unused.append(ngettext("{count} discard", "{count} discards", left).format(count=left))
        if not unused:
            return []
        return [Fact(_("leaves {unused} of this turn unused").format(unused=self.join(unused)), 25)]
