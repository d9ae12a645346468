"""A rule-based Take Stock player.

The bot sees only its seat's view. For every decision it builds a small model of the
round from that view and scores each legal action by the change it makes to one number:
the expected value of its own certificates minus that of its opponents at the end of the
round, where

- a stock's *expected closing price* is its top card raised by the rise still expected
  this round (less as the event pile runs down; never past 10), times its multiplier (so
  a split multiplies future raises too), trimmed for the audits and crashes still to
  come; a frozen stock keeps its price;
- the bot's *stake* in a stock is its certificates' shares, plus a share of the cards in
  hand that it may still save or exercise, minus a weighted mean of the opponents'
  certificates (weighted towards the leader at more than two seats);
- cards in hand also hold the option of raising a stock in which the bot has a stake.

Actions that end the round (an 11 or 12, Market Closed coming up with way A or B, a save
that empties the hand) are scored by the round's actual outcome instead: prices as they
stand, certificates plus the options each seat is expected to exercise, and a little more
when the totals then put the bot ahead (much more in the last round). Events are scored
with the same model, so the choice between two drawn events, which stock to audit or
freeze, and whether a saved event is worth playing now all follow from it. Discards give
up the card worth least in hand; options are exercised on the most valuable cards, and
tokens are kept for later rounds while a card is worth less than a typical later use.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from closingbell import native
from closingbell.bots.base import HeuristicBot
from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.take_stock import actions as A
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock import queries
from closingbell.games.take_stock.game import TakeStock
from closingbell.games.take_stock.views import TakeStockView

if TYPE_CHECKING:
    from closingbell.native._take_stock_bot import TakeStockBot

_V = C.VALUES
_STOCKS = range(C.NUM_STOCKS)


@dataclass(frozen=True, kw_only=True)
class TakeStockWeights:
    """The tunable numbers of :class:`TakeStockHeuristic`.

    The defaults were set by hand and checked in self-play matches; within sensible ranges
    most of them change the win rate by less than such matches can measure.
    """

    growth: float = 3.5
    """How far an unfrozen stock's top is expected to rise over a whole round."""
    cap: float = 10.0
    """The highest top expected growth reaches (11 and 12 end the round)."""
    upside: float = 0.1
    """Expected relative gain from splits still to come over a whole round."""
    downside: float = 0.15
    """Expected relative loss from audits and crashes still to come over a whole round."""
    frozen_downside: float = 0.05
    """The same for a frozen stock, which only a crash can touch."""
    full_round_events: float = 20.0
    """Event cards left above Market Closed at which the whole round counts as still to come."""
    alpha_high: float = 0.55
    """The chance that one of the best cards in hand ends the round as a certificate."""
    alpha_low: float = 0.2
    """The same for the other cards in hand."""
    raise_option: float = 0.5
    """The share of a possible raise's gain that a card in hand is worth."""
    limit_bonus: float = 2.0
    """The value of lengthening the longest row while the Limit rule stops the bot saving."""
    token_value: float = 18.0
    """A token's typical worth in a later round (a good card exercised at round end)."""
    saved_event: float = 0.7
    """The share of a random event's positive value that drawing it with way B is worth."""
    hold: float = 0.25
    """The share of a saved event's value kept back as the worth of playing it later."""
    end_bias: float = 0.0
    """Added to the value of actions that end the round."""
    end_lead: float = 20.0
    """How much more ending the round is worth when it leaves the bot ahead on totals (less
    when behind), shared out over the rounds still to come."""
    lead_scale: float = 20.0
    """The lead, in points, at which ``end_lead`` is mostly earned."""
    leader_weight: float = 0.3
    """At more than two seats, the weight given to the leading opponent over the others."""


class _Board:
    """The bot's model of one decision, built from a view."""

    def __init__(self, bot: TakeStockHeuristic, view: TakeStockView) -> None:
        w = bot.weights
        self.w = w
        self.sh = sh = bot.shares
        self.options = bot.options
        self.take_first = bot.take_first
        me = view.seat
        assert me is not None
        self.me = me
        self.view = view
        n = view.players
        self.n = n
        stocks = view.stocks
        self.rows = [r.cards for r in stocks]
        self.tops = [r.cards[-1] for r in stocks]
        self.splits = [r.splits for r in stocks]
        self.frozen = [r.frozen for r in stocks]
        self.prices = [r.price for r in stocks]
        self.limit = view.limit
        # How much of the round is still to come: the event pile runs down to Market
        # Closed, and high tops bring an 11 or 12 within reach.
        tau = min(1.0, view.event_pile / w.full_round_events)
        top_high = max(self.tops)
        if top_high > 5:
            tau *= max(0.4, 1.0 - 0.08 * (top_high - 5))
        self.tau = tau
        self.rise = tau * w.growth
        self.fac = 1.0 + tau * (w.upside - w.downside)
        self.ffac = 1.0 - tau * w.frozen_downside
        self.est = [self.expect(self.tops[s], self.splits[s] + 1, self.frozen[s]) for s in _STOCKS]
        # Rounds still to play after this one, and how many tokens a seat spends now.
        self.later = view.rounds - view.round
        # Opponents: weights and certificate shares.
        certs = view.certificates
        opp_w = [0.0] * n
        if n == 2:
            opp_w[1 - me] = 1.0
        else:
            leader = -1
            best = -1.0
            for q in range(n):
                if q == me:
                    continue
                value = view.scores[q] + queries.worth(certs[q], self.prices, sh)
                if value > best:
                    best, leader = value, q
            base = (1.0 - w.leader_weight) / (n - 1)
            for q in range(n):
                if q != me:
                    opp_w[q] = base + (w.leader_weight if q == leader else 0.0)
        self.opp_w = opp_w
        scores = view.scores
        # The bot's total minus the best opponent's.
        self.lead = scores[me] - max(scores[q] for q in range(n) if q != me)
        opp = [0.0] * C.NUM_STOCKS
        mine = [0.0] * C.NUM_STOCKS
        for q in range(n):
            if q == me:
                for c in certs[q]:
                    mine[c // _V] += sh[c % _V + 1]
            elif opp_w[q]:
                wq = opp_w[q]
                for c in certs[q]:
                    opp[c // _V] += wq * sh[c % _V + 1]
        self.mine = mine
        self.opp = opp
        # The hand: the best cards (by certificate value) are likelier to become certificates.
        hand = list(view.hand)
        self.hand = hand
        est = self.est
        ranked = sorted(hand, key=lambda c: -sh[c % _V + 1] * est[c // _V])
        tokens = view.tokens[me] - len(view.own_hidden)
        self.tokens = tokens
        k = self.planned(tokens) + 1
        alpha: dict[int, float] = {}
        for i, c in enumerate(ranked):
            alpha[c] = w.alpha_high if i < k else w.alpha_low
        self.alpha = alpha
        self.top_k = set(ranked[:k])
        self.next_in = (
            (w.alpha_high - w.alpha_low) * sh[ranked[k] % _V + 1] * est[ranked[k] // _V]
            if k < len(ranked)
            else 0.0
        )
        by_stock: list[list[int]] = [[] for _ in _STOCKS]
        stake = [mine[s] - opp[s] for s in _STOCKS]
        for c in hand:
            s = c // _V
            by_stock[s].append(c)
            stake[s] += alpha[c] * sh[c % _V + 1]
        self.by_stock = by_stock
        self.stake = stake
        self.values = [
            self.stock_value(
                self.tops[s], self.splits[s] + 1, self.frozen[s], stake[s], by_stock[s]
            )
            for s in _STOCKS
        ]
        self._held: dict[int, float] = {}
        self._unseen: list[int] | None = None
        self._best: dict[tuple[float, ...], float] = {}
        self._events: dict[int, float] = {}

    # ------------------------------------------------------------------ the model

    def expect(self, top: int, mult: int, frozen: bool) -> float:
        """The expected closing price of a stock standing at ``top`` times ``mult``."""
        if frozen:
            return queries.scoring_price(top * mult, True, self.options) * self.ffac
        room = self.w.cap - top
        if room <= 0:
            return mult * top * self.fac
        return mult * (top + min(room, self.rise)) * self.fac

    def planned(self, tokens: int) -> int:
        """Tokens a seat holding ``tokens`` can be expected to spend this round."""
        if self.later <= 0:
            return tokens
        return math.ceil(tokens / (self.later + 1))

    def stock_value(
        self, top: int, mult: int, frozen: bool, stake: float, cards: list[int]
    ) -> float:
        """A stock's part of the evaluation: stake times expected price, plus raises.

        ``cards`` are the hand's cards of the stock, in rising order. Several raise cards
        do not add up: what they are worth is the highest top a chain of them reaches.
        """
        e = self.expect(top, mult, frozen)
        value = e * stake
        if not frozen and cards:
            reach = top
            rest = stake
            steps = 0
            alpha = self.alpha
            low = self.w.alpha_low
            sh = self.sh
            for c in cards:
                v = c % _V + 1
                if reach < v <= reach + C.MAX_RAISE:
                    reach = v
                    rest -= alpha.get(c, low) * sh[v]
                    steps += 1
            if steps and rest > 0:
                gain = self.expect(reach, mult, False) - e
                value += self.w.raise_option * rest * gain * (1.1 - 0.1 * steps)
        return value

    def held(self, c: int) -> float:
        """What card ``c`` is worth in hand: what the evaluation loses without it."""
        cached = self._held.get(c)
        if cached is not None:
            return cached
        s = c // _V
        cards = [x for x in self.by_stock[s] if x != c]
        stake = self.stake[s] - self.alpha[c] * self.sh[c % _V + 1]
        after = self.stock_value(self.tops[s], self.splits[s] + 1, self.frozen[s], stake, cards)
        value = self.values[s] - after
        if c in self.top_k:
            value -= self.next_in
        self._held[c] = value
        return value

    def worst(self, exclude: int = -1) -> tuple[int, float]:
        """The card least worth keeping (other than ``exclude``) and its worth."""
        best_c = -1
        best_v = math.inf
        for c in self.hand:
            if c != exclude:
                v = self.held(c)
                if v < best_v:
                    best_c, best_v = c, v
        return best_c, (0.0 if best_c < 0 else best_v)

    def absolute(self) -> float:
        """The evaluation of the position as it stands, if the round goes on."""
        w = self.w
        others = 0.0
        view = self.view
        for q in range(self.n):
            wq = self.opp_w[q]
            if wq:
                h = view.hand_sizes[q]
                k = min(h, self.planned(view.tokens[q]) + 1)
                best = self.best_unseen(self.est, h, k)
                rest = h * self.best_unseen(self.est, 1, 1) - best
                others += wq * (w.alpha_high * best + w.alpha_low * rest)
        return sum(self.values) - others

    def unseen(self) -> list[int]:
        """The share cards this seat cannot see: in other hands or the draw pile."""
        if self._unseen is not None:
            return self._unseen
        view = self.view
        seen = bytearray(C.NUM_SHARE_CARDS)
        for c in (*view.hand, *view.own_hidden, *view.discard_pile, *view.retrieved):
            seen[c] = 1
        for certs in view.certificates:
            for c in certs:
                seen[c] = 1
        for s, row in enumerate(self.rows):
            for v in row:
                seen[s * _V + v - 1] = 1
        self._unseen = [c for c in C.SHARE_CARDS if not seen[c]]
        return self._unseen

    def best_unseen(self, prices: list[float] | list[int], h: int, k: int) -> float:
        """The expected worth of the ``k`` best of ``h`` cards drawn from the unseen ones."""
        if h <= 0 or k <= 0:
            return 0.0
        key = (*prices, h, k)
        cached = self._best.get(key)
        if cached is not None:
            return cached
        sh = self.sh
        cards = self.unseen()
        if not cards:
            return 0.0
        worths = sorted(sh[c % _V + 1] * prices[c // _V] for c in cards)
        total = len(worths)
        k = min(k, h)
        # E[sum of the k largest] = sum over steps of the step height times the expected
        # number of draws at or above it, capped at k.
        binom = [math.comb(h, i) for i in range(h + 1)]
        value = 0.0
        below = 0.0
        i = 0
        while i < total:
            x = worths[i]
            p = (total - i) / total
            q = 1.0 - p
            count = 0.0
            for j in range(1, h + 1):
                count += min(j, k) * binom[j] * p**j * q ** (h - j)
            value += (x - below) * count
            below = x
            while i < total and worths[i] == x:
                i += 1
        self._best[key] = value
        return value

    def final(
        self,
        prices: list[int] | None = None,
        frozen: list[bool] | None = None,
        add_cert: int = -1,
        hand: list[int] | None = None,
        hand_sizes: dict[int, int] | None = None,
    ) -> float:
        """The evaluation if the round ended now, with the changes given applied."""
        prices = self.prices if prices is None else prices
        frozen = self.frozen if frozen is None else frozen
        prices = queries.scoring_prices(prices, frozen, self.options)
        hand = self.hand if hand is None else hand
        sh = self.sh
        value = 0.0
        for s in _STOCKS:
            value += prices[s] * (self.mine[s] - self.opp[s])
        if add_cert >= 0:
            value += queries.card_worth(add_cert, prices, sh)
        # My options, exercised as the bot would.
        worths = sorted((queries.card_worth(c, prices, sh) for c in hand), reverse=True)
        tokens = self.tokens
        for i, worth in enumerate(worths[:tokens]):
            if worth <= self.keep_value(tokens - i):
                break
            value += worth
        # The opponents' options: the best of their cards, which the bot cannot see.
        view = self.view
        for q in range(self.n):
            wq = self.opp_w[q]
            if wq:
                h = view.hand_sizes[q] if hand_sizes is None else hand_sizes.get(q, 0)
                value -= wq * self.best_unseen(prices, h, self.planned(view.tokens[q]))
        # A round that ends with the bot ahead on totals is a lead banked, one that ends
        # with it behind is a chance lost; the more so, the fewer rounds are left.
        w = self.w
        margin = self.lead + value
        banked = w.end_lead * math.tanh(margin / w.lead_scale) / (1 + self.later)
        return value + banked + w.end_bias

    def keep_value(self, tokens: int) -> float:
        """What keeping one of ``tokens`` tokens for a later round is worth."""
        if self.later <= 0 or tokens <= 0:
            return 0.0
        return self.w.token_value * min(1.0, (self.later + 0.5) / tokens)

    def token_worth(self) -> float:
        """Roughly what the last of the bot's tokens is worth to it."""
        if self.later > 0 or self.tokens <= 0:
            return self.keep_value(self.tokens)
        # The last round: the token would turn one of the best cards into a certificate.
        sh = self.sh
        est = self.est
        worths = sorted((sh[c % _V + 1] * est[c // _V] for c in self.hand), reverse=True)
        k = min(self.tokens, len(worths))
        return worths[k - 1] if k else 0.0

    def audit_choice(self, s: int) -> float:
        """The gain of auditing stock ``s`` and removing what serves best (or nothing)."""
        card, split = self.audit_options(s)
        gain = max(card, split)
        return 0.0 if gain == -math.inf else gain

    # ------------------------------------------------------------------ events

    def with_stock(self, s: int, top: int, splits: int, frozen: bool) -> float:
        """The change in the evaluation if stock ``s`` stood at ``top`` with ``splits``."""
        after = self.stock_value(top, splits + 1, frozen, self.stake[s], self.by_stock[s])
        return after - self.values[s]

    def split_gain(self, s: int) -> float:
        """A split of stock ``s``."""
        if self.frozen[s] or self.splits[s] >= 3:
            return 0.0
        top, splits = queries.split(self.rows[s], self.splits[s])
        return self.with_stock(s, top, splits, False)

    def crash_gain(self, s: int) -> float:
        """A crash of stock ``s``."""
        top, splits = queries.crashed(self.rows[s], self.splits[s], self.options)
        return self.with_stock(s, top, splits, False)

    def audit_options(self, s: int) -> tuple[float, float]:
        """The gains of auditing stock ``s``'s top card and one of its splits (-inf: none)."""
        by_card, by_split = queries.audits(self.rows[s], self.splits[s])
        card = -math.inf if by_card is None else self.with_stock(s, *by_card, False)
        split = -math.inf if by_split is None else self.with_stock(s, *by_split, False)
        return card, split

    def audit_gain(self) -> float:
        """The best audit the bot could make now."""
        gains = [self.audit_choice(s) for s in _STOCKS if not self.frozen[s]]
        return max(gains) if gains else 0.0

    def freeze_option(self, s: int) -> float:
        """The gain of freezing stock ``s`` (or thawing it, if frozen)."""
        return self.with_stock(s, self.tops[s], self.splits[s], not self.frozen[s])

    def insider_gain(self, s: int, paid: bool) -> float:
        """Insider Trading in stock ``s``: the best cards taken for the least useful given."""
        pile = [c for c in self.view.discard_pile if c // _V == s]
        if not pile:
            return 0.0
        gains = sorted((self.worth_in_hand(c) for c in pile), reverse=True)
        costs = sorted(self.held(c) for c in self.hand)
        if paid and costs:
            costs = costs[1:]
        total = 0.0
        for take, give in zip(gains[: C.MAX_RETRIEVE], costs, strict=False):
            if take <= give:
                break
            total += take - give
        return total

    def worth_in_hand(self, c: int) -> float:
        """What card ``c``, not in hand, would be worth if it joined the hand."""
        s = c // _V
        cards = sorted((*self.by_stock[s], c))
        stake = self.stake[s] + self.w.alpha_low * self.sh[c % _V + 1]
        after = self.stock_value(self.tops[s], self.splits[s] + 1, self.frozen[s], stake, cards)
        return after - self.values[s]

    def downturn_gain(self, paid: bool) -> float:
        """A Market Downturn: everyone discards; it ends the round if a hand empties."""
        ranked = sorted(self.hand, key=self.held)
        if paid:
            ranked = ranked[1:]
        view = self.view
        if len(ranked) <= 1 or any(view.hand_sizes[q] <= 1 for q in range(self.n) if q != self.me):
            sizes = {q: max(0, view.hand_sizes[q] - 1) for q in range(self.n)}
            return self.final(hand=ranked[1:], hand_sizes=sizes) - self.absolute()
        return -0.5 * self.held(ranked[0])

    def event_gain(self, kind: int, paid: bool = False) -> float:
        """The change in the evaluation if the bot played event ``kind`` now.

        ``paid``: the card paying for the play is still in hand (it goes before the event).
        """
        key = kind + (100 if paid else 0)
        cached = self._events.get(key)
        if cached is not None:
            return cached
        if kind < C.CRASH:
            gain = self.split_gain(kind - C.SPLIT)
        elif kind < C.INSIDER:
            gain = self.crash_gain(kind - C.CRASH)
        elif kind < C.AUDIT:
            gain = self.insider_gain(kind - C.INSIDER, paid)
        elif kind == C.AUDIT:
            gain = self.audit_gain()
        elif kind == C.FREEZE:
            gain = max(self.freeze_option(s) for s in _STOCKS)
        elif kind == C.MARKET_CRASH:
            gain = sum(self.crash_gain(s) for s in _STOCKS)
        elif kind == C.DOWNTURN:
            gain = self.downturn_gain(paid)
        elif kind == C.OPTION_LOST:
            tv = self.token_worth()
            gain = -tv if self.tokens > 0 else 0.0
            tokens = self.view.tokens
            gain += sum(tv * self.opp_w[q] for q in range(self.n) if tokens[q] > 0)
        else:  # No Change, Upturn, Option Gained: no clear gain for anyone.
            gain = 0.0
        self._events[key] = gain
        return gain

    def unseen_events(self) -> list[tuple[int, float]]:
        """Kinds that may still be drawn, with their probabilities."""
        view = self.view
        left = list(C.EVENT_DECK)
        left[C.MARKET_CLOSED] = 0
        for s in _STOCKS:
            left[C.SPLIT + s] -= self.splits[s]
            if self.frozen[s]:
                left[C.FREEZE] -= 1
        seen = (
            *view.event_discard_known,
            *view.event_below_known,
            *view.saved_events,
            *view.drawn_events,
        )
        for k in seen:
            left[k] -= 1
        if view.pending_event is not None:
            left[view.pending_event] -= 1
        total = sum(x for x in left if x > 0)
        if total <= 0:
            return []
        return [(k, x / total) for k, x in enumerate(left) if x > 0]


class TakeStockHeuristic(HeuristicBot):
    """A rule-based Take Stock player that values every choice by its effect on the round.

    ``engine`` chooses who computes ``pick`` and ``evaluate``: ``"reference"`` this
    module's Python, ``"native"`` the same procedure compiled
    (:mod:`closingbell.native._take_stock_bot`, an error if it is not built or cannot take
    the weights), ``"auto"`` the compiled one where it can be used. Both give the same
    results, bit for bit, so the bot plays the same whatever the engine.
    """

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        epsilon: float = 0.0,
        weights: TakeStockWeights | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__(game, seed, epsilon=epsilon, engine=engine)
        if not isinstance(game, TakeStock):
            raise TypeError("TakeStockHeuristic plays Take Stock only")
        options = game.options
        self.options = options
        """The game's rules options (the queries of the rules read them)."""
        self.weights = weights if weights is not None else TakeStockWeights()
        """The numbers the bot's judgement depends on."""
        self.shares: tuple[int, ...] = game.shares
        """Shares per card value (from the game's ``shares_table`` option)."""
        self.take_first = options.insider_order == "take_first"
        """Whether Insider Trading's cards join the hand before its discards."""
        self._compiled = _compiled_bot(self, engine)
        self.engine = "reference" if self._compiled is None else "native"
        """Who computes the choices: ``native`` (compiled) or ``reference`` (Python)."""

    def compiled_procedure(self) -> TakeStockBot | None:
        """The compiled procedure this bot plays by, or ``None`` when it plays in Python."""
        return self._compiled

    def evaluate(self, view: View) -> float:
        """The seat's expected end-of-round standing against its opponents, by the model."""
        if not isinstance(view, TakeStockView):
            raise TypeError("TakeStockHeuristic needs a Take Stock view")
        if self._compiled is not None and view.seat is not None:
            return self._compiled.evaluate(view)
        return _Board(self, view).absolute()

    def pick(self, view: View, legal: tuple[int, ...]) -> int:
        """The best legal action by the bot's model of the round."""
        if not isinstance(view, TakeStockView):
            raise TypeError("TakeStockHeuristic needs a Take Stock view")
        if self._compiled is not None and view.seat is not None:
            return self._compiled.pick(view, legal)
        board = _Board(self, view)
        decision = view.decision
        if decision == "action":
            return _best(legal, lambda a: _turn_action(board, a))
        if decision in ("discard", "insider_discard", "downturn_discard"):
            return _best(legal, lambda a: -board.held(a - A.DISCARD))
        if decision == "choose_event":
            return _best(legal, lambda a: board.event_gain(a - A.CHOOSE))
        if decision == "audit_stock":
            return _best(legal, lambda a: board.audit_choice(a - A.AUDIT_STOCK))
        if decision == "audit_what":
            s = view.event_stock
            assert s is not None
            card, split = board.audit_options(s)
            return A.AUDIT_CARD if card >= split else A.AUDIT_SPLIT
        if decision == "freeze_stock":
            return _best(legal, lambda a: board.freeze_option(a - A.FREEZE_STOCK))
        if decision == "retrieve":
            return _retrieve(board, legal)
        if decision == "exercise":
            return _exercise(board, legal)
        return legal[0]


def _compiled_bot(bot: TakeStockHeuristic, engine: str) -> TakeStockBot | None:
    """The compiled procedure ``bot`` delegates to under ``engine``, or ``None`` for Python."""
    if engine not in native.ENGINES:
        raise ValueError(f"engine must be one of {', '.join(native.ENGINES)}, not {engine!r}")
    if engine == "reference":
        return None
    compiled = native.module("_take_stock_bot")
    if compiled is None:
        if engine == "native":
            raise RuntimeError(
                "the compiled Take Stock bot is not built "
                "(reinstall with a C compiler and Python's headers: pip install -e .)"
            )
        return None
    weights = dataclasses.asdict(bot.weights)
    reason = compiled.unsupported(weights)
    if reason is not None:
        if engine == "native":
            raise ValueError(f"the compiled Take Stock bot cannot play: {reason}")
        return None
    made: TakeStockBot = compiled.TakeStockBot(
        bot.shares,
        weights,
        zero_frozen=bot.options.frozen_scoring == "zero",
        limit_counts_freeze=bot.options.limit_counts_freeze,
        take_first=bot.take_first,
        crash_counts_one=bot.options.crash_counts_one,
    )
    return made


def _best(legal: tuple[int, ...], score: Callable[[int], float]) -> int:
    """The legal action with the highest score (the first one on ties)."""
    best = legal[0]
    best_v = -math.inf
    for a in legal:
        v = score(a)
        if v > best_v:
            best, best_v = a, v
    return best


def _turn_action(b: _Board, a: int) -> float:
    """The score of turn action ``a``: the change in the evaluation it brings."""
    view = b.view
    if a < A.SAVE:
        c = a - A.RAISE
        s = c // _V
        v = c % _V + 1
        if v in C.CLOSING_VALUES:
            prices = list(b.prices)
            prices[s] = v * (b.splits[s] + 1)
            hand = [x for x in b.hand if x != c]
            return b.final(prices=prices, hand=hand) - b.absolute()
        cards = [x for x in b.by_stock[s] if x != c]
        stake = b.stake[s] - b.alpha[c] * b.sh[v]
        after = b.stock_value(v, b.splits[s] + 1, False, stake, cards)
        gain = after - b.values[s]
        if c in b.top_k:
            gain += b.next_in
        if len(b.rows[s]) + b.splits[s] + 1 > b.limit and len(view.certificates[b.me]) >= b.limit:
            gain += b.w.limit_bonus
        return gain
    if a < A.DISCARD:
        c = a - A.SAVE
        s = c // _V
        v = c % _V + 1
        if len(b.hand) <= 2:
            return b.final(add_cert=c, hand=[]) - b.absolute()
        cards = [x for x in b.by_stock[s] if x != c]
        stake = b.stake[s] + (1.0 - b.alpha[c]) * b.sh[v]
        after = b.stock_value(b.tops[s], b.splits[s] + 1, b.frozen[s], stake, cards)
        gain = after - b.values[s]
        if c in b.top_k:
            gain += b.next_in
        return gain - b.worst(exclude=c)[1]
    worst_c, cost = b.worst()
    if a in (A.MARKET_A, A.MARKET_B):
        pile = view.event_pile
        if pile <= (1 if a == A.MARKET_A else 0):
            hand = [x for x in b.hand if x != worst_c]
            return b.final(hand=hand) - b.absolute()
        dist = b.unseen_events()
        if not dist:
            return -cost
        gains = sorted((b.event_gain(k), p) for k, p in dist)
        if a == A.MARKET_B:
            return b.w.saved_event * sum(p * max(0.0, g) for g, p in gains) - cost
        # Way A: the better of two cards drawn (as if with replacement).
        expected = 0.0
        below = 0.0
        for g, p in gains:
            at = below + p
            expected += g * (at * at - below * below)
            below = at
        return expected - cost
    kind = a - A.PLAY
    gain = b.event_gain(kind, paid=True)
    # Kept, the card could do as much later; the less of the round is left, the less so.
    return gain - b.w.hold * b.tau * max(0.0, gain) - cost


def _retrieve(b: _Board, legal: tuple[int, ...]) -> int:
    """Take the best card of the stock while it beats the card it will cost."""
    view = b.view
    costs = [b.held(c) for c in b.hand]
    if b.take_first:
        # The cards taken join the hand before the discards, so they may pay too.
        costs += [b.worth_in_hand(c) for c in view.retrieved]
    costs.sort()
    owed = len(view.retrieved)
    best_a = A.RETRIEVE_DONE
    best_v = 0.0
    give = costs[owed] if owed < len(costs) else math.inf
    for a in legal:
        if a == A.RETRIEVE_DONE:
            continue
        gain = b.worth_in_hand(a - A.RETRIEVE) - give
        if gain > best_v:
            best_a, best_v = a, gain
    return best_a


def _exercise(b: _Board, legal: tuple[int, ...]) -> int:
    """Spend a token on the most valuable card, unless keeping the token is worth more."""
    prices = b.view.scoring_prices
    best_a = A.EXERCISE_DONE
    best_v = b.keep_value(b.tokens)
    for a in legal:
        if a == A.EXERCISE_DONE:
            continue
        c = a - A.EXERCISE
        worth = queries.card_worth(c, prices, b.sh)
        if worth > best_v:
            best_a, best_v = a, worth
    return best_a
