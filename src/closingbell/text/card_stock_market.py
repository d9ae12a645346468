"""Card Stock Market in words: names, decisions, what happened and the result.

:class:`CardStockMarketNarrator` reads views and the log events a seat may see, never a
state, so it can say nothing that seat may not know. Every word goes through the message
catalog ``card_stock_market``; figures (costs, price changes, the strip) come from the
view and the game's rules options, computed the way the rules module computes them. The
terminal and the web server both take their words from here.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.text.i18n import translations
from closingbell.text.narrator import (
    Cost,
    Fact,
    OptionWords,
    alike,
    capital,
    check_explained,
    cost_of,
    percent,
    telling,
)

if TYPE_CHECKING:
    from closingbell.bots.analysis import DecisionAnalysis

DOMAIN = "card_stock_market"
"""The message catalog of Card Stock Market's words."""

FACE_LETTERS = ("J", "Q", "K")
"""The face cards' letters, jack to king."""


def _signed(delta: int) -> str:
    """A price change with its sign: ``+3``, ``-2``, ``+0``."""
    return f"{delta:+d}"


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


@dataclass(frozen=True)
class FinalResult:
    """The end of the game as numbers, and its verdict in words."""

    scores: tuple[int, ...]
    """Each seat's final money, less debt."""
    winners: tuple[int, ...]
    """The winning seats (several share the win)."""
    cash: tuple[int, ...]
    """Each seat's cash (the final sale included)."""
    debts: tuple[int, ...]
    """Each seat's debt."""
    final_sales: tuple[int, ...] | None
    """What the final sale paid each seat, when the log since the joker was read."""
    closing: str | None
    """Who drew the joker, in words (``None`` if nobody did)."""
    verdict: str
    """Who won, in words ("Ana wins with $412.")."""


class CardStockMarketNarrator:
    """Card Stock Market's words in ``lang``, for a table whose seats are called ``names``."""

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
        self._final_sales: list[int] | None = None
        """Per seat, what the final sale paid, from the events seen since the joker."""

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

    def _with_notes(self, text: str, notes: Sequence[str]) -> str:
        _ = self.tr.gettext
        if not notes:
            return text
        joined = notes[0]
        for note in notes[1:]:
            joined = _("{list}; {item}").format(list=joined, item=note)
        return _("{action} ({notes})").format(action=text, notes=joined)

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
        if v.current_player is None:
            return 0, 0, 0
        if v.decision == "discarding":
            return 0, 0, C.MAX_DISCARDS - v.discards
        trades = C.MAX_TRADES - v.trades
        changes = C.MAX_CHANGES - v.changes
        if v.decision == "trading" and v.changes:
            changes = 0
        if v.decision == "market" and (v.trades or self._rules.trade_first):
            trades = 0
        discards = C.MAX_DISCARDS if v.decision == "turn" else 0
        return trades, changes, discards

    def number_spans(self, view: View, suit: int) -> list[tuple[int, int]]:
        """The number cards that may be played on ``suit`` now, as runs (lowest, highest).

        A face card on top may be covered by any number card; otherwise the strip bounds
        the run, and the price itself is left out unless ``same_price_change`` allows it.
        """
        m = self._view(view).suits[suit]
        if C.rank_of(m.pile[-1]) > 10:
            return [(1, 10)]
        low, high = max(1, m.price - m.max_fall), min(10, m.price + m.max_rise)
        if self._rules.same_price_change or not low <= m.price <= high:
            return [(low, high)] if low <= high else []
        return [(a, b) for a, b in ((low, m.price - 1), (m.price + 1, high)) if a <= b]

    def raises(self, view: View, suit: int) -> list[str]:
        """The face cards (their letters) that may raise ``suit`` now."""
        m = self._view(view).suits[suit]
        limited = self._rules.face_raise_limited
        return [
            letter
            for letter, rank in zip(FACE_LETTERS, (11, 12, 13), strict=True)
            if rank > m.price and (not limited or rank - m.price <= m.max_rise)
        ]

    def closing(self, view: View) -> str | None:
        """Who drew a joker and closed the market, in words (``None``: nobody yet)."""
        v = self._view(view)
        if v.joker_drawn_by is None:
            return None
        return self.tr.gettext("{name} drew a joker: the market is closed").format(
            name=self.name(v.joker_drawn_by)
        )

    # ------------------------------------------------------------------ decisions

    def prompt(self, view: View) -> str:
        """The question the current decision asks."""
        v = self._view(view)
        _ = self.tr.gettext
        if v.current_player is None:
            return _("The game is over.")
        if v.seat != v.current_player:
            return _("Waiting for {name} to play.").format(name=self.name(v.current_player))
        if v.decision == "turn":
            return _("Your turn: trade, change the market, discard, or end your turn.")
        if v.decision == "discarding":
            return _("Discard another card, or end your turn.")
        trades, changes, _discards = self.left(v)
        if v.decision == "trading":
            if trades and changes:
                return _("Make another transaction, change the market, or end your turn.")
            if trades:
                return _("Make another transaction, or end your turn.")
            return _("Change the market, or end your turn.")
        if trades and changes:
            return _("Make another market change, trade, or end your turn.")
        if changes:
            return _("Make another market change, or end your turn.")
        return _("Trade, or end your turn.")

    def help(self, view: View) -> str:
        """The rule behind the current decision, in a few sentences."""
        v = self._view(view)
        _ = self.tr.gettext
        rules = self._rules
        if rules.trade_first:
            turn = _(
                "A turn has two optional parts: trading (up to two buys or sales) and "
                "changing the market (up to two cards played to the market piles). Trading "
                "comes first: once the market has changed, there is no more buying or "
                "selling that turn."
            )
        else:
            turn = _(
                "A turn has two optional parts: trading (up to two buys or sales) and "
                "changing the market (up to two cards played to the market piles). They may "
                "come in either order, but the actions of each part come together."
            )
        buy = _(
            "A buy puts a card from your hand in front of you as a certificate worth as "
            "many shares as its pips (a jack, queen or king counts {face}); you pay the "
            "shares times the suit's price. Nobody may hold more than {cap} shares of one "
            "suit or spend more cash than they have."
        ).format(face=C.FACE_SHARES, cap=C.MAX_SHARES)
        if rules.bankrupt_free:
            bankrupt_buy = _("A bankrupt suit costs $0 until a number card covers it.")
        else:
            bankrupt_buy = _("A bankrupt suit cannot be bought until a number card covers it.")
        sell = _(
            "A sale returns a certificate to the bank, which pays its shares times the "
            "current price; the card goes to the discard pile."
        )
        same_suit = _("You may not buy and sell the same suit in one turn.")
        levy = _(
            "When the bank cannot pay a sale, every player pays ${levy} into it; whoever "
            "has less pays all their cash and owes the bank the rest."
        ).format(levy=rules.options.levy)
        if rules.immediate_repay:
            repay = _("Any money paid to a player in debt goes to the debt first.")
        else:
            repay = _("A player in debt repays from their cash when each of their turns ends.")
        numbers = _(
            "A number card played to its suit's pile sets the price to its value, moving it "
            "up or down by no more than the strip allows for that suit (the market table "
            "shows the cards you may play). Any number card may cover a face card."
        )
        faces = _(
            "A jack, queen or king either raises the price to $11, $12 or $13 (it must go "
            "up), or bankrupts the suit: the price falls to $0 and every certificate of "
            "that suit is discarded without payment."
        )
        face_limit = _("A face card's raise must also stay within the strip's largest rise.")
        no_standstill = _(
            "A market change must change something: a number card may not be played at the "
            "price its suit already has, and a suit already at $0 may be bankrupted again "
            "only while someone holds its shares."
        )
        discard = _(
            "Instead of trading and changing the market, you may discard up to {count} cards."
        ).format(count=C.MAX_DISCARDS)
        draw = _("When your turn ends, you draw until you hold {count} cards again.").format(
            count=C.HAND_SIZE
        )
        end = _(
            "When the draw pile first runs out, the market piles below their top cards, the "
            "discards and the two jokers are shuffled into a new one. Whoever draws a joker "
            "ends the game: all stock is sold at the current prices, and the most money, "
            "less debt, wins."
        )
        sentences: list[str]
        if v.current_player is None:
            sentences = [end]
        elif v.decision == "turn":
            sentences = [turn, buy, numbers, discard, draw]
        elif v.decision == "trading":
            sentences = [buy, bankrupt_buy, sell]
            if not rules.same_suit_trades:
                sentences.append(same_suit)
            if v.bank is not None:
                sentences += [levy, repay]
        elif v.decision == "market":
            sentences = [numbers, faces]
            if rules.face_raise_limited:
                sentences.append(face_limit)
            if not rules.same_price_change:
                sentences.append(no_standstill)
        else:
            sentences = [discard, draw]
        return "\n".join(sentences)

    def describe_action(self, view: View, action: int) -> str:
        """``action`` in words, with its cost or effect in the position ``view`` shows."""
        v = self._view(view)
        _ = self.tr.gettext
        ngettext = self.tr.ngettext
        seat = v.seat if v.seat is not None else v.turn_player
        notes: list[str] = []
        if action == A.DONE:
            draws = C.HAND_SIZE - len(v.hand)
            if draws <= 0:
                return _("End your turn")
            return ngettext(
                "End your turn and draw {count} card",
                "End your turn and draw {count} cards",
                draws,
            ).format(count=draws)
        if A.DISCARD <= action < A.DONE:
            if v.discards + 1 >= C.MAX_DISCARDS:
                notes.append(_("ends your turn"))
            text = _("Discard {card}").format(card=self.card(action - A.DISCARD))
            return self._with_notes(text, notes)
        if action < A.MARKET:
            card = action - (A.SELL if action >= A.SELL else A.BUY)
            s = C.suit_of(card)
            shares = C.SHARES[card]
            price = v.suits[s].price
            amount = shares * price
            if action < A.SELL:
                text = ngettext(
                    "Buy {card}: {count} share of {suit} for ${cost}",
                    "Buy {card}: {count} shares of {suit} for ${cost}",
                    shares,
                ).format(card=self.card(card), count=shares, suit=self.suit(s), cost=amount)
                notes.append(
                    _("you will hold {total} of the {cap} allowed").format(
                        total=v.shares[seat][s] + shares, cap=C.MAX_SHARES
                    )
                )
            else:
                text = ngettext(
                    "Sell {card} ({count} share) for ${amount}",
                    "Sell {card} ({count} shares) for ${amount}",
                    shares,
                ).format(card=self.card(card), count=shares, amount=amount)
                if v.bank is not None and v.bank < amount:
                    notes.append(
                        _("the bank is short: every player pays a levy of ${levy}").format(
                            levy=self._rules.options.levy
                        )
                    )
                debt = v.debts[seat]
                if debt and amount and self._rules.immediate_repay:
                    notes.append(
                        _("${amount} of it repays your debt").format(amount=min(debt, amount))
                    )
            if v.trades + 1 >= C.MAX_TRADES and v.changes:
                notes.append(_("ends your turn"))
            return self._with_notes(text, notes)
        if action < A.BANKRUPT:
            card = action - A.MARKET
            s = C.suit_of(card)
            m = v.suits[s]
            rank = C.rank_of(card)
            new_price = C.FACE_PRICE[rank - 1] if C.is_face(card) else rank
            change = _signed(new_price - m.price)
            values = {
                "suit": self.suit(s),
                "price": new_price,
                "change": change,
                "card": self.card(card),
            }
            if C.is_face(card):
                text = _("Raise {suit} to ${price} ({change}) with {card}").format(**values)
            elif C.rank_of(m.pile[-1]) > 10:
                text = _("Cover the face card on {suit} with {card}: ${price} ({change})").format(
                    **values
                )
            else:
                text = _("Move {suit} to ${price} ({change}) with {card}").format(**values)
            mine = v.shares[seat][s]
            if mine and new_price != m.price:
                notes.append(
                    _("your {count} shares go from ${before} to ${after}").format(
                        count=mine, before=mine * m.price, after=mine * new_price
                    )
                )
        else:
            card = A.bankrupt_card(action)
            s = C.suit_of(card)
            text = _("Declare {suit} bankrupt with {card}: the price falls to $0").format(
                suit=self.suit(s), card=self.card(card)
            )
            lost = sum(h[s] for h in v.shares)
            mine = v.shares[seat][s]
            if lost and mine == lost:
                notes.append(
                    ngettext("you lose {count} share", "you lose {count} shares", mine).format(
                        count=mine
                    )
                )
            elif mine:
                notes.append(
                    _("{count} shares are lost, {mine} of them yours").format(count=lost, mine=mine)
                )
            elif lost:
                notes.append(
                    ngettext("{count} share is lost", "{count} shares are lost", lost).format(
                        count=lost
                    )
                )
        if v.changes + 1 >= C.MAX_CHANGES and (v.trades or self._rules.trade_first):
            notes.append(_("ends your turn"))
        return self._with_notes(text, notes)

    # ------------------------------------------------------------------ why one action is better

    def explain(self, view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> str:
        """Why ``preferred`` beats ``taken`` in ``view``'s decision, in Card Stock Market's terms.

        The first sentence says what each action does in the position (a price and whose
        shares it moves, a purchase and the cash it leaves, a face card, a bankruptcy, the
        bank running short, the turn's unused actions...), read from ``view`` alone; the
        second gives what ``analysis`` measured the choice to cost. ``ValueError`` for an
        action that is not legal in ``view`` or an analysis of another seat.
        """
        v = self._view(view)
        check_explained(v, taken, preferred, analysis)
        _ = self.tr.gettext
        if taken == preferred:
            return _("This is the action the analysis prefers.")
        why = self._why(v, taken, preferred)
        cost = self._cost(cost_of(analysis, taken, preferred))
        return _("{why} {cost}").format(why=why, cost=cost)

    def _why(self, v: CardStockMarketView, taken: int, preferred: int) -> str:
        _ = self.tr.gettext
        taken_facts, preferred_facts = self.facts(v, taken), self.facts(v, preferred)
        told, prefer = telling(taken_facts, preferred_facts)
        words = {"taken": self.doing(v, taken), "preferred": self.doing(v, preferred)}
        if alike(taken_facts, preferred_facts):
            text = _(
                "From what you can see now, {taken} and {preferred} differ little; the "
                "analysis prefers {preferred} because it did better when the deals that fit "
                "what you can see were played out."
            ).format(**words)
        elif told is not None and prefer is not None:
            text = _("{taken} {taken_fact}, while {preferred} {preferred_fact}.").format(
                taken_fact=told, preferred_fact=prefer, **words
            )
        elif told is not None:
            text = _("{taken} {taken_fact}; the analysis prefers {preferred}.").format(
                taken_fact=told, **words
            )
        elif prefer is not None:
            text = _("The analysis prefers {preferred}, which {preferred_fact}.").format(
                preferred_fact=prefer, **words
            )
        else:
            text = _(
                "The analysis prefers {preferred} to {taken}: it does better in the deals "
                "that fit what you can see."
            ).format(**words)
        return capital(text)

    def _cost(self, cost: Cost) -> str:
        _ = self.tr.gettext
        figures = {
            "margin": _money(cost.margin),
            "low": _money(cost.low),
            "high": _money(cost.high),
            "before": percent(cost.win_preferred),
            "after": percent(cost.win_taken),
        }
        if round(100 * cost.win_preferred) > round(100 * cost.win_taken):
            return _(
                "The cost: about {margin} of final margin ({low} to {high}), and the chance "
                "of winning falls from {before} to {after}."
            ).format(**figures)
        return _(
            "The cost: about {margin} of final margin ({low} to {high}); the chance of "
            "winning stays about {after}."
        ).format(**figures)

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
            rank = C.rank_of(card)
            after = C.FACE_PRICE[rank - 1] if C.is_face(card) else rank
            return [self._move(v, s, after)]
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
        if mine + shares <= C.MAX_SHARES and shares * m.price <= v.cash[seat]:
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

    # ------------------------------------------------------------------ the log

    def describe_event(self, event: dict[str, Any]) -> str | None:
        """One visible log event in words, or ``None`` for events not worth a line.

        The screen also notes the final sale's proceeds as they pass, for
        :meth:`final_summary` (a joker event starts the count afresh, so events read
        twice are not counted twice).
        """
        _ = self.tr.gettext
        ngettext = self.tr.ngettext
        kind = event.get("type")
        if kind == "setup":
            tops = event["tops"]
            prices = ", ".join(
                f"{C.SUIT_SYMBOLS[C.suit_of(c)]} ${C.rank_of(c)}"
                for c in sorted(tops, key=C.suit_of)
            )
            return _("{name} deals and keeps the bank; the market opens at {prices}").format(
                name=self.name(event["dealer"]), prices=prices
            )
        if kind in ("deal", "draw"):
            cards = event["cards"]
            name = self.name(event["seat"])
            if cards is None:
                if kind == "deal":
                    return None
                count = event["count"]
                return ngettext(
                    "{name} draws {count} card", "{name} draws {count} cards", count
                ).format(name=name, count=count)
            if kind == "deal":
                return _("{name} is dealt {cards}").format(name=name, cards=self.cards(cards))
            return _("{name} draws {cards}").format(name=name, cards=self.cards(cards))
        if kind == "turn":
            return _("Turn {number}: {name}").format(
                number=event["number"], name=self.name(event["seat"])
            )
        if kind == "buy":
            return _("{name} buys {card} at ${price}: pays ${cost}").format(
                name=self.name(event["seat"]),
                card=self.card(event["card"]),
                price=event["price"],
                cost=event["cost"],
            )
        if kind == "sell":
            return _("{name} sells {card} at ${price}: receives ${paid}").format(
                name=self.name(event["seat"]),
                card=self.card(event["card"]),
                price=event["price"],
                paid=event["paid"],
            )
        if kind == "levy":
            paid: list[int] = event["paid"]
            owed: list[int] = event["owed"]
            text = _("The bank cannot pay: every player pays a levy of ${levy}").format(
                levy=paid[0] + owed[0]
            )
            debts = [
                _("{name} owes ${amount}").format(name=self.name(q), amount=amount)
                for q, amount in enumerate(owed)
                if amount
            ]
            return self._with_notes(text, [self.join(debts)] if debts else [])
        if kind == "repay":
            return _("{name} repays ${amount} of debt").format(
                name=self.name(event["seat"]), amount=event["amount"]
            )
        if kind == "market":
            card = event["card"]
            return _("{name} plays {card}: {suit} now at ${price}").format(
                name=self.name(event["seat"]),
                card=self.card(card),
                suit=self.suit(C.suit_of(card)),
                price=event["price"],
            )
        if kind == "bankrupt":
            card = event["card"]
            text = _("{name} plays {card} and bankrupts {suit}").format(
                name=self.name(event["seat"]),
                card=self.card(card),
                suit=self.suit(C.suit_of(card)),
            )
            losses = [
                ngettext("{name} loses {count} share", "{name} loses {count} shares", n).format(
                    name=self.name(q), count=n
                )
                for q, n in enumerate(event["lost"])
                if n
            ]
            return self._with_notes(text, [self.join(losses)] if losses else [])
        if kind == "discard":
            return _("{name} discards {card}").format(
                name=self.name(event["seat"]), card=self.card(event["card"])
            )
        if kind == "reshuffle":
            return _(
                "The draw pile has run out: the market piles below their top cards, the "
                "discards and the jokers make a new draw pile of {count} cards"
            ).format(count=event["cards"])
        if kind == "joker":
            self._final_sales = [0] * len(self.names)
            return _("{name} draws a joker: the market closes and the game ends").format(
                name=self.name(event["seat"])
            )
        if kind == "final_sale":
            if self._final_sales is not None:
                self._final_sales[event["seat"]] += event["paid"]
            return _("Final sale: {name} sells {card} at ${price} for ${paid}").format(
                name=self.name(event["seat"]),
                card=self.card(event["card"]),
                price=event["price"],
                paid=event["paid"],
            )
        if kind == "game_over":
            winners: list[int] = event["winners"]
            scores: list[int] = event["scores"]
            names = self.join([self.name(q) for q in winners])
            best = scores[winners[0]]
            if len(winners) == 1:
                return _("Game over: {names} wins with ${score}").format(names=names, score=best)
            return _("Game over: {names} share the win with ${score}").format(
                names=names, score=best
            )
        return None

    # ------------------------------------------------------------------ the result

    def final_result(self, view: View) -> FinalResult:
        """The end of the game: each seat's cash, final sale, debt and total, and the winner."""
        v = self._view(view)
        _ = self.tr.gettext
        scores = tuple(v.scores)
        best = max(scores)
        winners = tuple(q for q in range(v.players) if scores[q] == best)
        sales = self._final_sales
        if sales is not None and len(sales) != v.players:
            sales = None
        names = self.join([self.name(q) for q in winners])
        if len(winners) == 1:
            verdict = _("{names} wins with ${score}.").format(names=names, score=best)
        else:
            verdict = _("{names} share the win with ${score}.").format(names=names, score=best)
        return FinalResult(
            scores=scores,
            winners=winners,
            cash=tuple(v.cash),
            debts=tuple(v.debts),
            final_sales=None if sales is None else tuple(sales),
            closing=self.closing(v),
            verdict=verdict,
        )


def option_words(lang: str) -> dict[str, OptionWords]:
    """Every rules option of Card Stock Market in ``lang``: label, help, choices' labels."""
    _ = translations(lang, DOMAIN).gettext
    return {
        "players": OptionWords(_("Number of players"), _("How many people and bots play.")),
        "strip": OptionWords(
            _("Information strip"),
            _(
                "The largest rise and the largest fall one card may make, in dollars, for "
                "clubs, diamonds, hearts and spades in turn (eight numbers)."
            ),
            {
                "uniform": _("Uniform: $3 up and down for every suit"),
                "graded": _("Graded: limits that differ by suit and direction"),
            },
        ),
        "starting_money": OptionWords(
            _("Starting cash"), _("Each player's cash when the game begins, in dollars.")
        ),
        "bank_money": OptionWords(
            _("The bank's money"),
            _("How many dollars the bank holds at the start; left empty, it never runs out."),
        ),
        "levy": OptionWords(
            _("Levy"),
            _("What every player pays into the bank when it cannot pay for a sale, in dollars."),
        ),
        "same_suit_trades": OptionWords(
            _("Buy and sell one suit in a turn"),
            _("When on, a player may both buy and sell shares of the same suit in one turn."),
        ),
        "face_raise_limited": OptionWords(
            _("Face-card raises within the strip"),
            _(
                "When on, a jack, queen or king played as a raise may not lift the price by "
                "more than the strip's largest rise for its suit."
            ),
        ),
        "phase_order": OptionWords(
            _("Order of trading and market changes"),
            _("Whether a player may still buy or sell after changing the market in a turn."),
            {
                "either": _("Either order, each part's actions together"),
                "trade_first": _("Trading first: none after a market change"),
            },
        ),
        "same_price_change": OptionWords(
            _("Market changes that change nothing"),
            _(
                "When on, a number card may be played at the price its suit already has, "
                "and a bankrupt suit nobody holds may be bankrupted again."
            ),
        ),
        "bankrupt_buying": OptionWords(
            _("Buying a bankrupt suit"),
            _(
                "Whether a suit at $0 after a bankruptcy may be bought before a number card "
                "covers its face card."
            ),
            {"free": _("Allowed, at $0"), "forbidden": _("Not allowed")},
        ),
        "ace_at_setup": OptionWords(
            _("An ace may open a pile"),
            _("When on, an ace dealt at the start may open its suit's pile at $1."),
        ),
        "debt_repayment": OptionWords(
            _("Repaying debt"),
            _("When a player in debt pays the bank back."),
            {
                "immediate": _("At once, from any money received"),
                "end_of_turn": _("From cash, at the end of each of their turns"),
            },
        ),
        "first_dealer": OptionWords(
            _("Dealer and banker"),
            _("The seat that deals and keeps the bank; left empty, it is drawn from the seed."),
        ),
    }
