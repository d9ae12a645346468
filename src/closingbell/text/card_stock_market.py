"""Card Stock Market in words: decisions, actions, what happened and the result.

:class:`CardStockMarketNarrator` reads views and the log events a seat may see, never a
state, so it can say nothing that seat may not know. Every word goes through the message
catalog ``card_stock_market``; figures (costs, price changes, the strip) come from the view,
the game's rules options and the rules' own queries. The terminal and the web server both
take their words from here. The names it speaks with, what remains of a turn and what an
action does in a position (:meth:`~CardStockMarketNarrator.explain`) come from
:class:`~closingbell.text.facts.card_stock_market.CardStockMarketFacts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market import queries
from closingbell.games.card_stock_market.state import DISCARD, MARKET, TRADE
from closingbell.text.facts.card_stock_market import DOMAIN, CardStockMarketFacts
from closingbell.text.i18n import translations
from closingbell.text.narrator import OptionWords


def _signed(delta: int) -> str:
    """A price change with its sign: ``+3``, ``-2``, ``+0``."""
    return f"{delta:+d}"


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


class CardStockMarketNarrator(CardStockMarketFacts):
    """Card Stock Market's words in ``lang``, for a table whose seats are called ``names``."""

    def __init__(self, game: Game, names: Sequence[str], lang: str) -> None:
        super().__init__(game, names, lang)
        self._final_sales: list[int] | None = None
        """Per seat, what the final sale paid, from the events seen since the joker."""

    def _with_notes(self, text: str, notes: Sequence[str]) -> str:
        _ = self.tr.gettext
        if not notes:
            return text
        joined = notes[0]
        for note in notes[1:]:
            joined = _("{list}; {item}").format(list=joined, item=note)
        return _("{action} ({notes})").format(action=text, notes=joined)

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
            if queries.turn_over(DISCARD, 0, 0, v.discards + 1, self._rules.trade_first):
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
            if queries.turn_over(TRADE, v.trades + 1, v.changes, 0, self._rules.trade_first):
                notes.append(_("ends your turn"))
            return self._with_notes(text, notes)
        if action < A.BANKRUPT:
            card = action - A.MARKET
            s = C.suit_of(card)
            m = v.suits[s]
            new_price = queries.market_price(card)
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
        if queries.turn_over(MARKET, v.trades, v.changes + 1, 0, self._rules.trade_first):
            notes.append(_("ends your turn"))
        return self._with_notes(text, notes)

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
