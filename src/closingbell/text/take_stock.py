"""Take Stock in words: names, decisions, what happened and the results, in one language.

:class:`TakeStockNarrator` reads views and the log events a seat may see, never a state,
so it can say nothing that seat may not know. Every word comes from the ``take_stock``
message catalog; names of stocks and events follow the edition of the user's language.
The terminal and the web server both take their words from here.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.views import TakeStockView
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

DOMAIN = "take_stock"
"""The message catalog of Take Stock's words."""


@dataclass(frozen=True)
class RoundResult:
    """One scored round, as numbers and the words of why it ended."""

    round: int
    """The round's number, from 1."""
    reason: str | None
    """Why it ended, in words ("Market Closed was drawn"); ``None`` if not known."""
    prices: tuple[int, ...] | None
    """Each stock's price at scoring (``None`` for an event that does not hold them)."""
    shares: tuple[tuple[int, ...], ...] | None
    """For each seat, the shares it held of each stock."""
    points: tuple[int, ...]
    """Each seat's points in the round."""
    totals: tuple[int, ...]
    """Each seat's total after the round."""


@dataclass(frozen=True)
class FinalResult:
    """The end of the game: the scores broken down, the winners and the verdict in words."""

    scores: tuple[int, ...]
    """Each seat's final score."""
    winners: tuple[int, ...]
    """The winning seats (several share the win)."""
    by_round: tuple[tuple[int, ...], ...]
    """For each round, each seat's points."""
    by_stock: tuple[tuple[int, ...], ...] | None
    """For each seat, its points from each stock over the game; ``None`` unless every
    round's scoring was seen (:meth:`TakeStockNarrator.describe_event`)."""
    verdict: str
    """Who won, in words ("Winner: Ana")."""


class TakeStockNarrator:
    """Take Stock's words in ``lang``, for a table whose seats are called ``names``."""

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

    # ------------------------------------------------------------------ names

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

    # ------------------------------------------------------------------ the table

    def prices(self, view: View) -> list[int]:
        """Each stock's worth per share now, as scoring would count it."""
        v = _ts(view)
        zero = getattr(self.game.options, "frozen_scoring", "price") == "zero"
        return [0 if zero and row.frozen else row.price for row in v.stocks]

    def limit(self, view: View) -> int:
        """How many cards the longest row has for the Limit rule."""
        v = _ts(view)
        with_freeze = bool(getattr(self.game.options, "limit_counts_freeze", False))
        return max(
            len(r.cards) + r.splits + (1 if with_freeze and r.frozen else 0) for r in v.stocks
        )

    def situation(self, view: View) -> list[str]:
        """What is special about the pending decision, one sentence a line (often none)."""
        v = _ts(view)
        _ = self._
        lines: list[str] = []
        if v.round_end_reason:
            lines.append(
                _("Round {round} is over: {reason}.").format(
                    round=v.round, reason=self.reasons[v.round_end_reason]
                )
            )
        if v.drawn_events:
            lines.append(_("You drew: {events}.").format(events=self.event_list(v.drawn_events)))
        if v.pending_event is not None and v.current_player == v.seat:
            lines.append(
                _("Event being played: {event}.").format(event=self.event_names[v.pending_event])
            )
        if v.retrieved:
            lines.append(_("Retrieved so far: {cards}.").format(cards=self.card_list(v.retrieved)))
        if v.own_hidden:
            lines.append(
                _("Set aside (not yet shown to the others): {cards}.").format(
                    cards=self.card_list(v.own_hidden)
                )
            )
        return lines

    # ------------------------------------------------------------------ decisions

    def prompt(self, view: View) -> str:
        """The question the current decision asks."""
        v = _ts(view)
        _ = self._
        d = v.decision
        if d == "action":
            return _("Your turn: choose one action.")
        if d == "discard":
            purposes = {
                "save": _("to go with the certificate you saved"),
                "market A": _("to play the market (option A)"),
                "market B": _("to play the market (option B)"),
                "play": _("to play your saved event"),
            }
            purpose = purposes.get(v.pending_discard_for or "", "")
            if purpose:
                return _("Choose a card to discard {purpose}.").format(purpose=purpose)
            return _("Choose a card to discard.")
        if d == "choose_event":
            return _("Choose which of the two events takes effect; the other is discarded.")
        if d == "audit_stock":
            return _("Stock Audit: choose a stock to audit.")
        if d == "audit_what":
            stock = self.stock_names[v.event_stock] if v.event_stock is not None else ""
            return _("Stock Audit of {stock}: remove its top card or one split?").format(
                stock=stock
            )
        if d == "freeze_stock":
            return _("Stock Freeze: choose a stock to freeze, or a frozen one to thaw.")
        if d == "retrieve":
            return _("Insider Trading: take a card from the share discard pile, or stop.")
        if d == "insider_discard":
            return _("Insider Trading: discard one card for each card taken ({n} to go).").format(
                n=v.owed_discards
            )
        if d == "downturn_discard":
            return _("Market Downturn: choose a card to discard (shown when all have chosen).")
        if d == "exercise":
            return _("The round is over: exercise option tokens to save cards from your hand.")
        return _("The game is over.")

    def help(self, view: View) -> str:
        """The rule behind the current decision, in the user's language."""
        v = _ts(view)
        _ = self._
        d = v.decision
        if d == "action":
            limit = self.limit(v)
            return _(
                "On your turn you do one of four things.\n"
                "• Raise a price: lay a card from your hand on its stock's row. It must be "
                "higher than the row's top card, by 4 at most, and the stock must not be "
                "frozen. Laying an 11 or a 12 ends the round.\n"
                "• Save a certificate: put a card face up in front of you, then discard "
                "another. Limit rule: you may do this only while you have fewer certificates "
                "than the longest row has cards (splits count). The longest row now has "
                "{limit}.\n"
                "• Play the market: discard a card, then A: look at two event cards, one "
                "takes effect and the other is discarded face down, or B: take one event card "
                "and keep it hidden for a later turn.\n"
                "• Play an event you saved earlier: discard a card, then it takes effect.\n"
                "At the end of the round each certificate scores its shares times its "
                "stock's price."
            ).format(limit=limit)
        if d == "discard":
            return _(
                "Saving a certificate, playing the market and playing a saved event each "
                "cost one card from your hand, put face up on the share discard pile. If it "
                "is your last card, the round ends."
            )
        if d == "choose_event":
            return _(
                "You drew two event cards with option A. The one you choose takes effect now; "
                "the other goes face down on the event discard pile without being shown."
            )
        if d in ("audit_stock", "audit_what"):
            return _(
                "A Stock Audit removes either the top share card of an unfrozen stock (never "
                "its 1) or one of its split cards. A stock with nothing to remove may still be "
                "chosen: then nothing happens."
            )
        if d == "freeze_stock":
            return _(
                "A frozen stock's price cannot be raised, it cannot be audited, and a split "
                "played on it is discarded. Choosing a frozen stock thaws it instead."
            )
        if d in ("retrieve", "insider_discard"):
            return _(
                "Insider Trading lets you take up to three cards of its stock from the share "
                "discard pile; the others see what you take. For each card taken you discard "
                "one card from your hand."
            )
        if d == "downturn_discard":
            return _(
                "Market Downturn: every player discards one card. The cards are shown only "
                "when everyone has chosen. A player who discards their last card ends the "
                "round."
            )
        if d == "exercise":
            return _(
                "For each option token you give back, one card from your hand becomes a "
                "certificate; the Limit rule does not apply now. Cards left in your hand are "
                "discarded. Tokens must last the whole game: you get no new ones unless an "
                "event gives them."
            )
        return _("The game is over.")

    def describe_action(self, view: View, action: int) -> str:
        """``action`` in words, in the position ``view`` shows."""
        v = _ts(view)
        _ = self._
        if A.RAISE <= action < A.SAVE:
            s, value = C.card_stock(action), C.card_value(action)
            top = v.stocks[s].cards[-1]
            price = value * (v.stocks[s].splits + 1)
            text = _("Raise {stock} to {value} (+{step})").format(
                stock=self.stock_names[s], value=value, step=value - top
            )
            if v.stocks[s].splits:
                more = _("(price {price})").format(price=price)
                text = _("{action} {more}").format(action=text, more=more)
            if value in C.CLOSING_VALUES:
                text = _("{action} {more}").format(action=text, more=_("and end the round"))
            return text
        if A.SAVE <= action < A.DISCARD:
            card = action - A.SAVE
            return _("Save {card} as a certificate ({shares}), then discard a card").format(
                card=self.card_name(card), shares=self.share_words(self.shares[C.card_value(card)])
            )
        if A.DISCARD <= action < A.MARKET_A:
            return _("Discard {card}").format(card=self.card_name(action - A.DISCARD))
        if action == A.MARKET_A:
            return _("Discard a card and play the market, A: draw two events, one takes effect")
        if action == A.MARKET_B:
            return _("Discard a card and play the market, B: draw one event and keep it")
        if A.PLAY <= action < A.CHOOSE:
            return _("Discard a card and play your saved {event}").format(
                event=self.event_names[action - A.PLAY]
            )
        if A.CHOOSE <= action < A.AUDIT_STOCK:
            return _("Let {event} take effect").format(event=self.event_names[action - A.CHOOSE])
        if A.AUDIT_STOCK <= action < A.AUDIT_CARD:
            s = action - A.AUDIT_STOCK
            return _("Audit {stock} (price {price})").format(
                stock=self.stock_names[s], price=v.stocks[s].price
            )
        if action == A.AUDIT_CARD:
            return _("Remove the top share card")
        if action == A.AUDIT_SPLIT:
            return _("Remove one split")
        if A.FREEZE_STOCK <= action < A.RETRIEVE:
            s = action - A.FREEZE_STOCK
            if v.stocks[s].frozen:
                return _("Thaw {stock}").format(stock=self.stock_names[s])
            return _("Freeze {stock} at price {price}").format(
                stock=self.stock_names[s], price=v.stocks[s].price
            )
        if A.RETRIEVE <= action < A.RETRIEVE_DONE:
            return _("Take {card} from the discard pile").format(
                card=self.card_name(action - A.RETRIEVE)
            )
        if action == A.RETRIEVE_DONE:
            return _("Take no more cards")
        if A.EXERCISE <= action < A.EXERCISE_DONE:
            card = action - A.EXERCISE
            return _("Spend a token to save {card} ({shares})").format(
                card=self.card_name(card), shares=self.share_words(self.shares[C.card_value(card)])
            )
        return _("Exercise no more options")

    # ------------------------------------------------------------------ what happened

    def _who(self, event: dict[str, Any]) -> str:
        seat: int = event["seat"]
        return self.names[seat]

    def describe_event(self, event: dict[str, Any]) -> str | None:
        """One visible log event in words, or ``None`` for events not worth a line."""
        _ = self._
        kind = event["type"]
        if kind == "round_start":
            return _("Round {round} begins; {dealer} deals.").format(
                round=event["round"], dealer=self.names[event["dealer"]]
            )
        if kind == "draw":
            if event["card"] is None:
                return _("{who} draws a share card.").format(who=self._who(event))
            return _("{who} draws {card}.").format(
                who=self._who(event), card=self.card_name(event["card"])
            )
        if kind == "reshuffle":
            return _("The share discard pile is shuffled into a new draw pile.")
        if kind == "raise":
            card = event["card"]
            return _("{who} raises {stock} to {value}.").format(
                who=self._who(event),
                stock=self.stock_names[C.card_stock(card)],
                value=C.card_value(card),
            )
        if kind == "save":
            card = event["card"]
            return _("{who} saves {card} as a certificate ({shares}).").format(
                who=self._who(event),
                card=self.card_name(card),
                shares=self.share_words(self.shares[C.card_value(card)]),
            )
        if kind == "discard":
            return _("{who} discards {card}.").format(
                who=self._who(event), card=self.card_name(event["card"])
            )
        if kind == "market":
            if event["option"] == "A":
                return _("{who} plays the market: two events, one takes effect.").format(
                    who=self._who(event)
                )
            return _("{who} plays the market: one event to keep.").format(who=self._who(event))
        if kind == "drew_events":
            got = event["events"]
            if got is not None:
                return _("{who} draws {events}.").format(
                    who=self._who(event), events=self.event_list(got)
                )
            count = event["count"]
            return self.ngettext(
                "{who} draws {n} event card.", "{who} draws {n} event cards.", count
            ).format(who=self._who(event), n=count)
        if kind == "market_closed":
            return _("{who} draws Market Closed: the round ends.").format(who=self._who(event))
        if kind == "play":
            return _("{who} plays a saved event: {event}.").format(
                who=self._who(event), event=self.event_names[event["event"]]
            )
        if kind == "choose":
            return _("{who} lets {event} take effect.").format(
                who=self._who(event), event=self.event_names[event["event"]]
            )
        if kind == "event_discard":
            if event["event"] is None:
                return _("{who} discards the other event face down.").format(who=self._who(event))
            return _("{who} discards {event} face down.").format(
                who=self._who(event), event=self.event_names[event["event"]]
            )
        if kind == "split":
            stock = self.stock_names[event["stock"]]
            if event["discarded"]:
                return _("{stock} is frozen: the split is discarded.").format(stock=stock)
            if event["removed"] is None:
                return _("{stock} splits.").format(stock=stock)
            return _("{stock} splits; its {value} goes to the discard pile.").format(
                stock=stock, value=C.card_value(event["removed"])
            )
        if kind == "crash":
            stock = self.stock_names[event["stock"]]
            parts = [_("{stock} crashes.").format(stock=stock)]
            if event["freeze_removed"]:
                parts.append(_("Its freeze is removed."))
            if event["removed"]:
                parts.append(
                    _("Cards removed: {values}.").format(
                        values=_(", ").join(str(C.card_value(c)) for c in event["removed"])
                    )
                )
            if event["split_removed"]:
                parts.append(_("One split is removed."))
            text = parts[0]
            for part in parts[1:]:
                text = _("{sentence} {next}").format(sentence=text, next=part)
            return text
        if kind == "retrieve":
            return _("{who} takes {card} from the share discard pile.").format(
                who=self._who(event), card=self.card_name(event["card"])
            )
        if kind == "audit":
            stock = self.stock_names[event["stock"]]
            removed = event["removed"]
            if removed == "nothing":
                return _("{who} audits {stock}: there is nothing to remove.").format(
                    who=self._who(event), stock=stock
                )
            if removed == "split":
                return _("{who} audits {stock}: one split is removed.").format(
                    who=self._who(event), stock=stock
                )
            value = str(removed).rsplit(" ", 1)[-1]
            return _("{who} audits {stock}: its {value} is removed.").format(
                who=self._who(event), stock=stock, value=value
            )
        if kind == "freeze":
            stock = self.stock_names[event["stock"]]
            if event["frozen"]:
                return _("{who} freezes {stock}.").format(who=self._who(event), stock=stock)
            return _("{who} thaws {stock}.").format(who=self._who(event), stock=stock)
        if kind == "tokens":
            if event["change"] > 0:
                return _("{who} gains an option token.").format(who=self._who(event))
            return _("{who} loses an option token.").format(who=self._who(event))
        if kind == "downturn_discard":
            if event["card"] is None:
                return _("{who} chooses a card to discard.").format(who=self._who(event))
            return _("{who} sets {card} aside to discard.").format(
                who=self._who(event), card=self.card_name(event["card"])
            )
        if kind == "downturn_reveal":
            return _("Market Downturn: the discarded cards are {cards}.").format(
                cards=_(", ").join(self.card_name(c) for c in event["cards"]) or "–"
            )
        if kind == "exercise":
            if event["card"] is None:
                return _("{who} exercises an option.").format(who=self._who(event))
            return _("{who} exercises an option on {card}.").format(
                who=self._who(event), card=self.card_name(event["card"])
            )
        if kind == "exercise_reveal":
            used = [
                _("{who}: {cards}").format(
                    who=self.names[q], cards=_(", ").join(self.card_name(c) for c in cards)
                )
                for q, cards in enumerate(event["cards"])
                if cards
            ]
            if not used:
                return _("Nobody exercises options.")
            return _("Options exercised: {list}.").format(list=_("; ").join(used))
        if kind == "round_end":
            return _("Round {round} ends: {reason}.").format(
                round=event["round"], reason=self.reasons[event["reason"]]
            )
        if kind == "round_score":
            self.rounds_seen[event["round"]] = event
            points = _(", ").join(
                _("{who} {points}").format(who=self.names[q], points=p)
                for q, p in enumerate(event["scores"])
            )
            return _("Round {round} scores: {points}.").format(round=event["round"], points=points)
        if kind == "game_over":
            return _("The game is over.")
        return None

    # ------------------------------------------------------------------ why one action is better

    def explain(self, view: View, taken: int, preferred: int, analysis: DecisionAnalysis) -> str:
        """Why ``preferred`` beats ``taken`` in ``view``'s decision, in Take Stock's terms.

        The first sentence says what each action does in the position (a price and whose
        certificates it moves, the Limit, the end of the round, Market Closed, the tokens
        left for the rounds to come...), read from ``view`` alone; the second gives what
        ``analysis`` measured the choice to cost. ``ValueError`` for an action that is not
        legal in ``view`` or an analysis of another seat.
        """
        v = _ts(view)
        check_explained(v, taken, preferred, analysis)
        _ = self._
        if taken == preferred:
            return _("This is the action the analysis prefers.")
        why = self._why(v, taken, preferred)
        cost = self._cost(cost_of(analysis, taken, preferred))
        return _("{why} {cost}").format(why=why, cost=cost)

    def _why(self, v: TakeStockView, taken: int, preferred: int) -> str:
        _ = self._
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
        _ = self._
        figures = {
            "margin": f"{cost.margin:.1f}",
            "low": f"{cost.low:.1f}",
            "high": f"{cost.high:.1f}",
            "before": percent(cost.win_preferred),
            "after": percent(cost.win_taken),
        }
        if round(100 * cost.win_preferred) > round(100 * cost.win_taken):
            return _(
                "The cost: about {margin} points of final margin ({low} to {high}), and the "
                "chance of winning falls from {before} to {after}."
            ).format(**figures)
        return _(
            "The cost: about {margin} points of final margin ({low} to {high}); the chance "
            "of winning stays about {after}."
        ).format(**figures)

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
        v = _ts(view)
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
        v = _ts(view)
        out = [[0] * C.NUM_STOCKS for _ in range(v.players)]
        for q, certs in enumerate(v.certificates):
            for c in certs:
                out[q][C.card_stock(c)] += self.shares[C.card_value(c)]
        return out

    def _rival(self, v: TakeStockView, held: list[list[int]], s: int) -> int | None:
        """The other seat holding the most shares of stock ``s`` (``None``: nobody)."""
        best: int | None = None
        for q in range(v.players):
            if q != v.seat and held[q][s] and (best is None or held[q][s] > held[best][s]):
                best = q
        return best

    def _points(self, held: list[list[int]], prices: list[int]) -> list[int]:
        """Each seat's points for its certificates at ``prices``."""
        return [sum(h * p for h, p in zip(row, prices, strict=True)) for row in held]

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

    def _raise_to(self, v: TakeStockView, s: int, value: int) -> int | None:
        """The price ``value`` would raise stock ``s`` to now, or ``None`` if it cannot."""
        row = v.stocks[s]
        top = row.cards[-1]
        if row.frozen or not top < value <= top + C.MAX_RAISE:
            return None
        return value * (row.splits + 1)

    def _worth(self, v: TakeStockView, card: int) -> int:
        """What ``card`` would score as a certificate at today's prices."""
        return self.shares[C.card_value(card)] * self.prices(v)[C.card_stock(card)]

    def facts(self, view: View, action: int) -> list[Fact]:
        """What ``action`` does in the position ``view`` shows, most telling first.

        Each fact is a phrase that follows :meth:`doing` ("raising Oil to 9" "adds 16
        points to your 4 shares of Oil"). Every figure comes from the view.
        """
        v = _ts(view)
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
            after = value * (row.splits + 1)
            if value in C.CLOSING_VALUES:
                prices = self.prices(v)
                prices[s] = after
                points = self._points(held, prices)
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
            longest = len(row.cards) + 1 + row.splits
            if getattr(self.game.options, "limit_counts_freeze", False) and row.frozen:
                longest += 1
            if value not in C.CLOSING_VALUES and longest > self.limit(v):
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
            limit = self.limit(v)
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
        after = self._raise_to(v, s, value)
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
            top = row.cards[-2] if len(row.cards) > 1 else row.cards[-1]
            return [self._move(v, held, stock, top * (row.splits + 2))]
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
            now = self._points(held, [r.price for r in v.stocks])
            then = self._points(held, prices)
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
        cards = list(row.cards)
        with_one = getattr(self.game.options, "crash_counts_one", False)
        counted = len(cards) if with_one else len(cards) - 1
        del cards[len(cards) - counted // 2 :]
        return cards[-1] * (max(0, row.splits - 1) + 1)

    def _audit_prices(self, v: TakeStockView, s: int) -> list[int]:
        """The prices an audit of stock ``s`` can leave: the top card removed, or a split."""
        row = v.stocks[s]
        out = []
        if len(row.cards) > 1:
            out.append(row.cards[-2] * (row.splits + 1))
        if row.splits:
            out.append(row.cards[-1] * row.splits)
        return out

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
        after = row.cards[-2] * (row.splits + 1) if card else row.cards[-1] * row.splits
        return [self._move(v, held, s, after)]

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
        if getattr(self.game.options, "frozen_scoring", "price") == "zero":
            fact = self._move(v, held, s, 0)
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

    # ------------------------------------------------------------------ results

    def round_result(self, view: View, event: dict[str, Any]) -> RoundResult | None:
        """The result of the round a ``round_score`` event scored (``None`` for other events)."""
        if event.get("type") != "round_score":
            return None
        v = _ts(view)
        r: int = event["round"]
        self.rounds_seen[r] = event
        prices = event.get("prices")
        held = event.get("shares")
        players = len(self.names)
        totals = tuple(sum(rs[q] for rs in v.round_scores[:r]) for q in range(players))
        reason = None
        if r <= len(v.round_end_reasons):
            reason = self.reasons[v.round_end_reasons[r - 1]]
        return RoundResult(
            round=r,
            reason=reason,
            prices=None if prices is None else tuple(prices),
            shares=None if held is None else tuple(tuple(row) for row in held),
            points=tuple(event["scores"]),
            totals=totals,
        )

    def winners(self, view: View) -> list[int]:
        """The seats with the best score, the tie broken as the rules options say."""
        v = _ts(view)
        best = max(v.scores)
        top = [q for q, s in enumerate(v.scores) if s == best]
        if len(top) > 1 and getattr(self.game.options, "final_tie", "shared") == "most_tokens":
            most = max(v.tokens[q] for q in top)
            top = [q for q in top if v.tokens[q] == most]
        return top

    def final_result(self, view: View) -> FinalResult:
        """The final scores by round and, when every round was seen, by stock."""
        v = _ts(view)
        rounds = len(v.round_scores)
        players = len(self.names)
        by_stock = None
        if all(r in self.rounds_seen for r in range(1, rounds + 1)):
            by_stock = tuple(
                tuple(
                    sum(e["shares"][q][s] * e["prices"][s] for e in self.rounds_seen.values())
                    for s in range(C.NUM_STOCKS)
                )
                for q in range(players)
            )
        winners = self.winners(v)
        names = self._(", ").join(self.names[q] for q in winners)
        verdict = self.ngettext("Winner: {names}", "Winners (shared): {names}", len(winners))
        return FinalResult(
            scores=tuple(v.scores),
            winners=tuple(winners),
            by_round=tuple(tuple(rs) for rs in v.round_scores),
            by_stock=by_stock,
            verdict=verdict.format(names=names),
        )


def option_words(lang: str) -> dict[str, OptionWords]:
    """Every rules option of Take Stock in ``lang``: label, help, choices' labels."""
    _ = translations(lang, DOMAIN).gettext
    return {
        "players": OptionWords(_("Number of players"), _("How many people and bots play.")),
        "rounds": OptionWords(
            _("Rounds"), _("How many rounds the game lasts. The rulebook plays four.")
        ),
        "shares_table": OptionWords(
            _("Shares per card value"),
            _(
                "How many shares a share card is worth, for each value from 2 to 12 in turn "
                "(eleven numbers from 1 to 3)."
            ),
        ),
        "limit_counts_freeze": OptionWords(
            _("A freeze counts for the Limit rule"),
            _(
                "When on, a frozen stock's freeze card counts as one more card of its row "
                "when the Limit rule compares certificates with the longest row."
            ),
        ),
        "frozen_scoring": OptionWords(
            _("Frozen stocks at scoring"),
            _("What the certificates of a frozen stock are worth when a round is scored."),
            {"price": _("Their price"), "zero": _("Nothing")},
        ),
        "option_shortage": OptionWords(
            _("Too few option tokens"),
            _(
                "What Stock Option Gained does when the box holds fewer tokens than it "
                "should hand out."
            ),
            {
                "turn_order": _("Hand out the rest in turn order"),
                "nobody": _("Nobody gets one"),
            },
        ),
        "insider_order": OptionWords(
            _("Insider Trading order"),
            _("Whether you discard before or after the cards you take join your hand."),
            {
                "discard_first": _("Discard first (English rules)"),
                "take_first": _("Take first (Chinese edition)"),
            },
        ),
        "empty_draw": OptionWords(
            _("Running out of share cards"),
            _("When the share discard pile becomes a new draw pile."),
            {
                "last_card": _("As the last card is drawn (English rules)"),
                "next_draw": _("When a card is next needed (Chinese edition)"),
            },
        ),
        "crash_counts_one": OptionWords(
            _("A crash counts the 1"),
            _(
                "When on, a crash removes half of a row's cards counting its 1 (which always "
                "stays); when off, half of the cards above the 1."
            ),
        ),
        "keep_saved_events": OptionWords(
            _("Keep saved events"),
            _(
                "When on, saved event cards stay with their players into the next round, "
                "unless Market Closed ended the round."
            ),
        ),
        "first_dealer": OptionWords(
            _("First dealer"),
            _("The seat that deals the first round; left empty, it is drawn from the seed."),
        ),
        "dealer_tie": OptionWords(
            _("Tie for dealer"),
            _("Who deals the next round when several players tie for the lowest score."),
            {
                "after_dealer": _("The first of them after the last dealer"),
                "random": _("One of them at random"),
            },
        ),
        "final_tie": OptionWords(
            _("Tie for the win"),
            _("How a tie for the highest final score is settled."),
            {
                "shared": _("They share the win"),
                "most_tokens": _("Most option tokens left wins"),
            },
        ),
    }


def _within(kind: str, fact: Fact) -> tuple[object, ...] | None:
    """The :attr:`Fact.same` of a fact that wraps ``fact`` in words of ``kind``."""
    return None if fact.same is None else (kind, *fact.same)


def _ts(view: View) -> TakeStockView:
    if not isinstance(view, TakeStockView):
        raise TypeError("the Take Stock narrator needs a Take Stock view")
    return view
