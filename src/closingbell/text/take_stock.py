"""Take Stock in words: names, decisions, what happened and the results, in one language.

:class:`TakeStockNarrator` reads views and the log events a seat may see, never a state,
so it can say nothing that seat may not know. Every word comes from the ``take_stock``
message catalog; names of stocks and events follow the edition of the user's language.
The terminal and the web server both take their words from here. The names it speaks with
and what an action does in a position (:meth:`~TakeStockNarrator.explain`) come from
:class:`~closingbell.text.facts.take_stock.TakeStockFacts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from closingbell.core.view import View
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import queries
from closingbell.text.facts.take_stock import DOMAIN, TakeStockFacts, take_stock_view
from closingbell.text.i18n import translations
from closingbell.text.narrator import OptionWords


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


class TakeStockNarrator(TakeStockFacts):
    """Take Stock's words in ``lang``, for a table whose seats are called ``names``."""

    # ------------------------------------------------------------------ the table

    def situation(self, view: View) -> list[str]:
        """What is special about the pending decision, one sentence a line (often none)."""
        v = take_stock_view(view)
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
        v = take_stock_view(view)
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
        v = take_stock_view(view)
        _ = self._
        d = v.decision
        if d == "action":
            limit = v.limit
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
        v = take_stock_view(view)
        _ = self._
        if A.RAISE <= action < A.SAVE:
            s, value = C.card_stock(action), C.card_value(action)
            top = v.stocks[s].cards[-1]
            price = queries.price(value, v.stocks[s].splits)
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

    # ------------------------------------------------------------------ results

    def round_result(self, view: View, event: dict[str, Any]) -> RoundResult | None:
        """The result of the round a ``round_score`` event scored (``None`` for other events)."""
        if event.get("type") != "round_score":
            return None
        v = take_stock_view(view)
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
        v = take_stock_view(view)
        best = max(v.scores)
        top = [q for q, s in enumerate(v.scores) if s == best]
        if len(top) > 1 and getattr(self.game.options, "final_tie", "shared") == "most_tokens":
            most = max(v.tokens[q] for q in top)
            top = [q for q in top if v.tokens[q] == most]
        return top

    def final_result(self, view: View) -> FinalResult:
        """The final scores by round and, when every round was seen, by stock."""
        v = take_stock_view(view)
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
