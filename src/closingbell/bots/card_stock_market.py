"""A rule-based Card Stock Market player that reads only its seat's view.

The game is won with money at the end, when every certificate is sold at the prices of
that moment. The bot therefore values a position as its money plus its shares at an
*expected sale price*, less the same for its opponents (the leader weighted most), plus
what the cards in its hand may still do:

- A share's expected sale price is the better of selling at the bot's next turn and
  holding to the end. Over the opponent turns in between, the price drifts towards an
  average (faster when a face card is on top, since any number card may cover it) and
  the suit may be bankrupted, with a chance that grows with the face cards of that suit
  no one has seen. The turns left come from the draw pile: before the reshuffle, the pile
  and a third of the next one; after it, the cards above the first of the two jokers. So
  cheap stock is worth buying early, and near the end only stock whose price the bot can
  still raise is.
- A card in hand is worth part of its best later use: raising a suit the bot holds more
  of than its opponents, lowering or bankrupting one they hold more of, or buying it
  (within the 12-share cap and the bot's cash) when the price is low or another card in
  hand can push it up. The most useful card of a suit counts in full, the others little.

Each decision plans the rest of the turn: every legal action is scored, the most
promising few are completed greedily under the rules' phase order (so "lower, then buy
cheap", "buy, then raise", "raise, then sell" and "sell, then bankrupt" are found), and
the best plan's first action is played. Each card used is replaced by a draw, worth an
unseen card's average. A sale that would make the bank levy every player counts the
levy and any debt it leaves the bot. When no plan beats discarding, the bot discards its
least useful cards, and at least one: it never passes a whole turn, so the draw pile
keeps moving and the game ends.

The weights were set by playing variants against each other; every decision depends
only on the view (the bot keeps no memory between decisions).

This Python code is the reference. Where :mod:`closingbell.native` has the compiled
planner built (``closingbell.native._card_stock_market_bot``), the bot hands ``pick`` to
it by default: it makes the same choice on every view, only faster (the ``engine``
keyword chooses).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from closingbell import native
from closingbell.bots.base import HeuristicBot
from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market import queries
from closingbell.games.card_stock_market.options import CardStockMarketOptions
from closingbell.games.card_stock_market.state import MARKET, START, TRADE
from closingbell.games.card_stock_market.views import CardStockMarketView

if TYPE_CHECKING:
    from closingbell.native._card_stock_market_bot import Planner

_BUY, _SELL, _CHANGE, _BANKRUPT = 0, 1, 2, 3
_Move = tuple[float, int, int, int]
"""A move in a plan: the value it leads to, its kind (buy, sell, change, bankrupt), suit
and rank."""
_NS = C.NUM_SUITS
_SUITS = range(_NS)
_RANKS = C.RANKS
_SHARES_OF_RANK: tuple[int, ...] = (0, *(r if r <= 10 else C.FACE_SHARES for r in range(1, 14)))
_INITIAL_DRAW_BASE = C.DECK_SIZE - _NS
"""Cards left after the four starting market cards; the hands take ``8 * players``."""


class _Node:
    """One point in a planned turn: the parts of the position the turn can change.

    Per suit: ``price``, ``face`` (a face card on top), ``hme`` (the bot's shares),
    ``hopp`` (the opponents' shares, weighted), ``hand`` and ``certs`` (ranks of the bot's
    cards and certificates) and ``sv`` (the suit's part of the value). ``ocash`` is the
    opponents' cash (for levies), ``used`` the cards played from hand so far, ``path`` the
    actions that led here and ``value`` the node's worth (see ``_Planner.evaluate``).
    """

    __slots__ = (
        "bank",
        "bought",
        "cash",
        "certs",
        "changes",
        "debt",
        "face",
        "hand",
        "hme",
        "hopp",
        "levies",
        "ocash",
        "path",
        "phase",
        "price",
        "sold",
        "sv",
        "trades",
        "used",
        "value",
    )

    price: list[int]
    face: list[bool]
    hme: list[int]
    hopp: list[float]
    hand: list[tuple[int, ...]]
    certs: list[tuple[int, ...]]
    sv: list[float]
    cash: int
    debt: int
    bank: int
    ocash: tuple[int, ...]
    levies: int
    trades: int
    changes: int
    phase: int
    bought: int
    sold: int
    used: int
    path: tuple[int, ...]
    value: float

    def copy(self) -> _Node:
        """A copy whose lists may be changed without touching this node."""
        n = _Node.__new__(_Node)
        n.price = self.price[:]
        n.face = self.face[:]
        n.hme = self.hme[:]
        n.hopp = self.hopp[:]
        n.hand = self.hand[:]
        n.certs = self.certs[:]
        n.sv = self.sv[:]
        n.cash = self.cash
        n.debt = self.debt
        n.bank = self.bank
        n.ocash = self.ocash
        n.levies = self.levies
        n.trades = self.trades
        n.changes = self.changes
        n.phase = self.phase
        n.bought = self.bought
        n.sold = self.sold
        n.used = self.used
        n.path = self.path
        n.value = self.value
        return n


def _without(ranks: tuple[int, ...], r: int) -> tuple[int, ...]:
    """``ranks`` less one ``r``."""
    i = ranks.index(r)
    return ranks[:i] + ranks[i + 1 :]


def _with(ranks: tuple[int, ...], r: int) -> tuple[int, ...]:
    """``ranks`` and one more ``r``, sorted."""
    return tuple(sorted((*ranks, r)))


class CardStockMarketHeuristic(HeuristicBot):
    """Plans each turn to raise the end value of its shares and lower its opponents'."""

    MEAN_PRICE = 6.0
    """The price a suit drifts towards when many turns are left."""
    DRIFT = 0.9
    """How much of a number card's distance from the mean price lasts an opponent turn."""
    FACE_DRIFT = 0.65
    """The same for a face card on top, which any number card may cover."""
    HAZARD = 0.06
    """Chance per opponent turn that an opponent holding a face card bankrupts its suit."""
    HAND_WEIGHT = 0.3
    """The share of a card's best later use counted while it stays in hand."""
    SPARE = 0.1
    """The share of that counted for each card of a suit beyond its most useful one."""
    LEADER_WEIGHT = 0.5
    """With three or more players, the share of the opponents' weight given to the leader."""
    DEBT_PENALTY = 0.3
    """Cost per dollar of debt beyond the dollar itself (a debtor cannot buy)."""
    PROGRESS = 0.5
    """Value of discarding a card for its own sake (the draw pile must keep moving)."""
    BEAM = 4
    """First actions of the turn completed into whole plans."""
    RATE = 2.5
    """Cards a turn is assumed to draw, before the game shows its own rate."""

    def __init__(
        self, game: Game, seed: int = 0, *, epsilon: float = 0.0, engine: str = "auto"
    ) -> None:
        super().__init__(game, seed, epsilon=epsilon, engine=engine)
        opts = game.options
        if not isinstance(opts, CardStockMarketOptions):
            raise TypeError("the Card Stock Market heuristic plays only Card Stock Market")
        self.engine = "reference" if native.bot_module(game, engine) is None else "native"
        """Who makes the decisions: ``native`` (the compiled planner) or ``reference``
        (this module's Python); both choose alike. ``engine="auto"`` takes the compiled
        one when it is built."""
        self._planner: Planner | None = None
        self.rules = _Rules(
            rise=opts.strip[0::2],
            fall=opts.strip[1::2],
            limited=opts.face_raise_limited,
            free=opts.bankrupt_buying == "free",
            same_suit=opts.same_suit_trades,
            levy=opts.levy,
            immediate=opts.debt_repayment == "immediate",
            trade_first=opts.phase_order == "trade_first",
            same_price=opts.same_price_change,
        )
        """The rules options the plans follow."""

    def __setattr__(self, name: str, value: object) -> None:
        # The compiled planner holds a copy of the weights and rules: a new value for
        # one of them (a tuning script's) makes it be built again.
        super().__setattr__(name, value)
        if name in _PLANNER_INPUTS:
            super().__setattr__("_planner", None)

    def _compiled_planner(self) -> Planner:
        """The compiled planner with this bot's rules and weights (built once)."""
        planner = self._planner
        if planner is None:
            compiled = native.bot_module(self.game, "native")
            assert compiled is not None
            rules = self.rules
            planner = compiled.Planner(
                rise=rules.rise,
                fall=rules.fall,
                limited=rules.limited,
                free=rules.free,
                same_suit=rules.same_suit,
                levy=rules.levy,
                immediate=rules.immediate,
                trade_first=rules.trade_first,
                same_price=rules.same_price,
                **{name.lower(): getattr(self, name) for name in _WEIGHTS},
            )
            self._planner = planner
        return planner

    def compiled_procedure(self) -> Planner | None:
        """The compiled planner this bot plays by, or ``None`` when it plays in Python."""
        return self._compiled_planner() if self.engine == "native" else None

    def pick(self, view: View, legal: tuple[int, ...]) -> int:
        """The next action of the best plan for the rest of the turn."""
        if not isinstance(view, CardStockMarketView) or view.seat is None:
            raise TypeError("the Card Stock Market heuristic needs a seat's Card Stock Market view")
        if self.engine == "native":
            return self._compiled_planner().pick(view, legal)
        planner = _Planner(self, view)
        if view.decision == "discarding":
            return planner.next_discard(legal)
        return planner.best(legal)[0]


_WEIGHTS = (
    "MEAN_PRICE",
    "DRIFT",
    "FACE_DRIFT",
    "HAZARD",
    "HAND_WEIGHT",
    "SPARE",
    "LEADER_WEIGHT",
    "DEBT_PENALTY",
    "PROGRESS",
    "BEAM",
    "RATE",
)
"""The heuristic's weights, which the compiled planner takes as lower-case keywords."""
_PLANNER_INPUTS = frozenset({*_WEIGHTS, "rules"})
"""The attributes the compiled planner is built from."""


class _Rules:
    """The rules options a plan must follow."""

    __slots__ = (
        "fall",
        "free",
        "immediate",
        "levy",
        "limited",
        "rise",
        "same_price",
        "same_suit",
        "trade_first",
    )

    def __init__(
        self,
        *,
        rise: tuple[int, ...],
        fall: tuple[int, ...],
        limited: bool,
        free: bool,
        same_suit: bool,
        levy: int,
        immediate: bool,
        trade_first: bool,
        same_price: bool,
    ) -> None:
        self.rise = rise
        self.fall = fall
        self.limited = limited
        self.free = free
        self.same_suit = same_suit
        self.levy = levy
        self.immediate = immediate
        self.trade_first = trade_first
        self.same_price = same_price


class _Planner:
    """Everything one decision needs: end-price estimates, weights, and the search."""

    def __init__(self, bot: CardStockMarketHeuristic, view: CardStockMarketView) -> None:
        seat = view.seat
        assert seat is not None
        self.view = view
        self.rules = bot.rules
        self.hand_weight = bot.HAND_WEIGHT
        self.spare = bot.SPARE
        self.debt_penalty = bot.DEBT_PENALTY
        self.progress = bot.PROGRESS
        self.beam = bot.BEAM
        self.memo: dict[tuple[object, ...], float] = {}
        n = view.players
        opp_turns = _opponent_turns_left(view, bot.RATE)
        self.table = _end_prices(view, opp_turns, bot)
        """Per suit, a share's expected sale price for each price now, with a number card
        on top and with a face card on top."""
        # ------------------------------------------------ the opponents' weights
        price = [mk.price for mk in view.suits]
        face = [mk.pile[-1] % _RANKS >= 10 for mk in view.suits]
        worth = []
        for q in range(n):
            w = float(view.cash[q] - view.debts[q])
            for s in _SUITS:
                w += view.shares[q][s] * self.table[s][face[s]][price[s]]
            worth.append(w)
        opponents = [q for q in range(n) if q != seat]
        leader = max(opponents, key=worth.__getitem__)
        lead = bot.LEADER_WEIGHT if n > 2 else 1.0
        weight = [0.0] * n
        for q in opponents:
            weight[q] = (1.0 - lead) / len(opponents) + (lead if q == leader else 0.0)
        self.opp_weight = sum(weight)
        # ------------------------------------------------ the root of the plan
        root = _Node.__new__(_Node)
        root.price = price
        root.face = face
        root.hme = list(view.shares[seat])
        root.hopp = [sum(weight[q] * view.shares[q][s] for q in opponents) for s in _SUITS]
        hand: list[list[int]] = [[] for _ in _SUITS]
        for c in view.hand:
            hand[c // _RANKS].append(c % _RANKS + 1)
        root.hand = [tuple(h) for h in hand]
        certs: list[list[int]] = [[] for _ in _SUITS]
        for c in view.certificates[seat]:
            certs[c // _RANKS].append(c % _RANKS + 1)
        root.certs = [tuple(h) for h in certs]
        root.cash = view.cash[seat]
        root.debt = view.debts[seat]
        root.bank = -1 if view.bank is None else view.bank
        root.ocash = tuple(view.cash[q] for q in opponents)
        root.levies = 0
        root.trades = view.trades
        root.changes = view.changes
        root.phase = {"trading": TRADE, "market": MARKET}.get(view.decision, START)
        root.bought = sum(1 << s for s in view.bought_suits)
        root.sold = sum(1 << s for s in view.sold_suits)
        root.used = 0
        root.path = ()
        root.sv = [self.suit_value(root, s) for s in _SUITS]
        self.root = root
        self.baseline = self._fresh_card_value()
        """What a card drawn to replace one used is worth on average."""
        root.value = self.evaluate(root)

    # ------------------------------------------------------------------ values

    def evaluate(self, node: _Node) -> float:
        """A plan's worth: money, shares and hand, relative to the opponents."""
        return (
            node.cash
            - node.debt * (1.0 + self.debt_penalty)
            + sum(node.sv)
            + node.levies * self.rules.levy * self.opp_weight
            + node.used * self.baseline
        )

    def suit_value(self, node: _Node, s: int) -> float:
        """The node's value of suit ``s``: net shares at their sale price, and hand cards."""
        return self._value(
            (s, node.price[s], node.face[s], node.hme[s], node.hopp[s], node.hand[s], node.cash)
        )

    def _use(self, s: int, r: int, at: tuple[int, bool, float, float]) -> tuple[float, float]:
        """What card ``r`` of suit ``s`` could do to the price.

        ``at`` is the suit's price, whether a face card is on top, the bot's shares less
        its opponents', and its expected sale price. Returns the card's value as a market
        change and the sale price it would raise the suit to (-1 when it cannot raise it).
        """
        p, f, d, ecur = at
        plain, faced = self.table[s]
        rules = self.rules
        tv = -1.0
        factor = 1.0
        if r <= 10:
            delta = r - p
            if f or -rules.fall[s] <= delta <= rules.rise[s]:
                tv = plain[r]
            elif -2 * rules.fall[s] <= delta <= 2 * rules.rise[s]:
                tv = plain[r]  # two steps away: needs another card first
                factor = 0.5
        elif queries.can_raise(r, p, rules.rise[s], rules.limited):
            tv = faced[r]
        use = d * (tv - ecur) * factor if tv >= 0 else 0.0
        if r > 10 and -d * ecur > use:
            use = -d * ecur  # as a bankruptcy
        return use, (tv if tv > ecur else -1.0)

    def _value(self, key: tuple[int, int, bool, int, float, tuple[int, ...], int]) -> float:
        """The value of a suit in a position: net shares at the sale price, and its cards in hand.

        ``key`` is the suit, its price, whether a face card is on top, the bot's shares,
        its opponents' (weighted), the ranks of the suit in hand and the bot's cash. The
        values are memoized: plans revisit the same suit states.
        """
        got = self.memo.get(key)
        if got is not None:
            return got
        s, p, f, hm, hs, ranks, cash = key
        plain, faced = self.table[s]
        ecur = faced[p] if f else plain[p]
        d = hm - hs
        total = d * ecur
        if ranks:
            at = (p, f, d, ecur)
            uses = [self._use(s, r, at) for r in ranks]
            best = second = -1.0
            best_i = -1
            for i, (_, tv) in enumerate(uses):
                if tv > best:
                    best, second, best_i = tv, best, i
                elif tv > second:
                    second = tv
            can_buy = p > 0 or self.rules.free
            top = spare = 0.0
            for i, r in enumerate(ranks):
                use = uses[i][0]
                k = _SHARES_OF_RANK[r]
                if can_buy and queries.can_buy(hm, cash, k, p):
                    reach = second if i == best_i else best
                    use = max(use, k * ((reach if reach > ecur else ecur) - p))
                if use > top:
                    top, use = use, top
                if use > 0:
                    spare += use
            # One card does most of the work; the others add a little as spares.
            total += self.hand_weight * (top + self.spare * spare)
        self.memo[key] = total
        return total

    def _fresh_card_value(self) -> float:
        """What a card drawn at random is worth on average in the root's hand."""
        view = self.view
        root = self.root
        unseen = [C.COPIES] * C.NUM_KINDS
        for group in (view.hand, view.discard_pile, *view.certificates):
            for c in group:
                unseen[c] -= 1
        for mk in view.suits:
            for c in mk.pile:
                unseen[c] -= 1
        total = 0.0
        cards = 0
        spare = self.spare
        for s in _SUITS:
            p = root.price[s]
            f = root.face[s]
            hm = root.hme[s]
            plain, faced = self.table[s]
            ecur = faced[p] if f else plain[p]
            at = (p, f, hm - root.hopp[s], ecur)
            # Each rank's use as a market change and the price it could raise to.
            uses = [self._use(s, r, at) for r in range(1, _RANKS + 1)]
            hand = root.hand[s]
            best = max((uses[r - 1][1] for r in hand), default=-1.0)
            reach = (best if best > ecur else ecur) - p
            can_buy = p > 0 or self.rules.free
            worth = []
            for r in range(1, _RANKS + 1):
                use = uses[r - 1][0]
                k = _SHARES_OF_RANK[r]
                if can_buy and queries.can_buy(hm, root.cash, k, p):
                    use = max(use, k * reach)
                worth.append(use)
            top = max((worth[r - 1] for r in hand), default=0.0)
            for r in range(1, _RANKS + 1):
                copies = unseen[s * _RANKS + r - 1]
                if copies > 0:
                    cards += copies
                    use = worth[r - 1]
                    use = use - top + spare * top if use > top else spare * use
                    if use > 0:
                        total += copies * use
        total *= self.hand_weight
        return total / cards if cards else 0.0

    # ------------------------------------------------------------------ moves

    def moves(self, node: _Node) -> list[_Move]:
        """Every legal trade or market change from ``node`` (discards apart), valued.

        A move's value is that of the node it leads to, worked out from the one suit it
        changes; :meth:`play` builds that node only for the moves the search follows.
        """
        out: list[_Move] = []
        rules = self.rules
        trades, market, _ = queries.turn_left(
            node.phase, node.trades, node.changes, 0, rules.trade_first
        )
        value = node.value
        baseline = self.baseline
        cash = node.cash
        for s in _SUITS:
            ranks = node.hand[s]
            p = node.price[s]
            f = node.face[s]
            hm = node.hme[s]
            hs = node.hopp[s]
            here = value - node.sv[s]
            bit = 1 << s
            if trades:
                if (p > 0 or rules.free) and (rules.same_suit or not node.sold & bit):
                    for r in set(ranks):
                        k = _SHARES_OF_RANK[r]
                        cost = k * p
                        if queries.can_buy(hm, cash, k, p):
                            after = self._value(
                                (s, p, f, hm + k, hs, _without(ranks, r), cash - cost)
                            )
                            out.append((here + after - cost + baseline, _BUY, s, r))
                if rules.same_suit or not node.bought & bit:
                    for r in set(node.certs[s]):
                        k = _SHARES_OF_RANK[r]
                        paid = k * p
                        if 0 <= node.bank < paid:
                            out.append((self.play(node, (0.0, _SELL, s, r)).value, _SELL, s, r))
                            continue
                        back = min(node.debt, paid) if rules.immediate else 0
                        gain = paid - back + back * (1.0 + self.debt_penalty)
                        after = self._value((s, p, f, hm - k, hs, ranks, cash + paid - back))
                        out.append((here + after + gain, _SELL, s, r))
            if market:
                for r in set(ranks):
                    rest = _without(ranks, r)
                    if r <= 10:
                        if queries.can_change(
                            r,
                            p,
                            f,
                            rules.rise[s],
                            rules.fall[s],
                            same_price_change=rules.same_price,
                        ):
                            after = self._value((s, r, False, hm, hs, rest, cash))
                            out.append((here + after + baseline, _CHANGE, s, r))
                    else:
                        if queries.can_raise(r, p, rules.rise[s], rules.limited):
                            after = self._value((s, r, True, hm, hs, rest, cash))
                            out.append((here + after + baseline, _CHANGE, s, r))
                        # At $0 a bankruptcy must wipe out shares (the opponents' are
                        # weighted here, so one of an unweighted seat's is missed).
                        if p or rules.same_price or hm or hs:
                            after = self._value((s, 0, True, 0, 0.0, rest, cash))
                            out.append((here + after + baseline, _BANKRUPT, s, r))
        return out

    def play(self, node: _Node, move: _Move) -> _Node:
        """The node ``move`` leads to."""
        _, kind, s, r = move
        child = node.copy()
        k = _SHARES_OF_RANK[r]
        if kind == _BUY:
            cost = k * node.price[s]
            child.hand[s] = _without(node.hand[s], r)
            child.certs[s] = _with(node.certs[s], r)
            child.hme[s] += k
            child.cash -= cost
            if child.bank >= 0:
                child.bank += cost
            child.bought |= 1 << s
            child.trades += 1
            child.phase = TRADE
            child.used += 1
        elif kind == _SELL:
            self._sell(child, s, k)
            child.certs[s] = _without(node.certs[s], r)
        else:
            child.hand[s] = _without(node.hand[s], r)
            child.changes += 1
            child.phase = MARKET
            child.used += 1
            child.face[s] = r > 10
            if kind == _BANKRUPT:
                child.price[s] = 0
                child.hme[s] = 0
                child.hopp[s] = 0.0
                child.certs[s] = ()
            else:
                child.price[s] = r
        child.path = (*node.path, _action(move))
        child.sv[s] = self.suit_value(child, s)
        child.value = self.evaluate(child)
        return child

    def _sell(self, child: _Node, s: int, k: int) -> None:
        """Sell ``k`` shares of suit ``s`` in ``child``, levies and debts included."""
        paid = k * child.price[s]
        child.hme[s] -= k
        child.sold |= 1 << s
        child.trades += 1
        child.phase = TRADE
        rules = self.rules
        if child.bank >= 0:
            # A short bank levies every player, the bot included, until it can pay.
            while child.bank < paid:
                if child.cash <= 0 and all(c <= 0 for c in child.ocash):
                    # Nobody has money for a levy, so the bank could never pay: in a plan
                    # (unlike the game) repaid debts leave the bank, and with little money
                    # in the game a second sale may find everyone broke.
                    break
                child.levies += 1
                pay = min(child.cash, rules.levy)
                child.cash -= pay
                child.debt += rules.levy - pay
                child.bank += pay + sum(min(c, rules.levy) for c in child.ocash)
                child.ocash = tuple(max(0, c - rules.levy) for c in child.ocash)
            child.bank -= paid
        if child.debt and rules.immediate:
            back = min(child.debt, paid)
            child.debt -= back
            paid -= back
        child.cash += paid

    # ------------------------------------------------------------------ search

    def complete(self, node: _Node) -> _Node:
        """Follow the best next move while it improves the plan."""
        while True:
            moves = self.moves(node)
            if not moves:
                return node
            move = max(moves)
            if move[0] <= node.value + 1e-9:
                return node
            node = self.play(node, move)

    def discard_order(self) -> list[tuple[float, int]]:
        """Each distinct card in hand with what discarding it gains, most first."""
        root = self.root
        out: list[tuple[float, int]] = []
        for s in _SUITS:
            ranks = root.hand[s]
            for r in sorted(set(ranks)):
                rest = self._value(
                    (
                        s,
                        root.price[s],
                        root.face[s],
                        root.hme[s],
                        root.hopp[s],
                        _without(ranks, r),
                        root.cash,
                    )
                )
                gain = rest - root.sv[s] + self.baseline + self.progress
                out.append((gain, s * _RANKS + r - 1))
        out.sort(key=lambda g: (-g[0], g[1]))
        return out

    def best(self, legal: tuple[int, ...]) -> tuple[int, ...]:
        """The best plan for the rest of the turn (at its start, never one of nothing)."""
        root = self.root
        allowed = set(legal)
        moves = sorted(self.moves(root), reverse=True)
        first = [m for m in moves if _action(m) in allowed][: self.beam]
        kids = [self.play(root, m) for m in first]
        best_node = root
        for kid in kids:
            done = self.complete(kid)
            if done.value > best_node.value + 1e-9:
                best_node = done
        if root.phase == START:
            # Discarding replaces the whole turn; it is also what the bot does when
            # nothing else helps, so that the draw pile keeps moving.
            order = [(g, c) for g, c in self.discard_order() if A.DISCARD + c in allowed]
            if order:
                gains = sum(g for g, _ in order[: C.MAX_DISCARDS] if g > 0)
                if not best_node.path or root.value + gains > best_node.value:
                    return (A.DISCARD + order[0][1],)
        if best_node.path:
            return best_node.path
        return (A.DONE,) if A.DONE in allowed else (legal[0],)

    def next_discard(self, legal: tuple[int, ...]) -> int:
        """Go on discarding while a card is worth less than a fresh draw."""
        allowed = set(legal)
        for gain, c in self.discard_order():
            if gain > 0 and A.DISCARD + c in allowed:
                return A.DISCARD + c
        return A.DONE if A.DONE in allowed else legal[0]


def _action(move: _Move) -> int:
    """The action id of a move."""
    _, kind, s, r = move
    card = s * _RANKS + r - 1
    if kind == _BUY:
        return A.BUY + card
    if kind == _SELL:
        return A.SELL + card
    if kind == _CHANGE:
        return A.MARKET + card
    return A.bankrupt_action(card)


def _opponent_turns_left(view: CardStockMarketView, rate: float) -> float:
    """How many opponent turns the game is likely to last.

    After the reshuffle the game ends with the first of the two jokers in the draw pile,
    on average a third of the way down. Before it, the pile runs out first, and the next
    one (the market piles' lower cards, the discards and what is still to be played)
    lasts a third of its size. Turns are counted at the game's own drawing rate.
    """
    n = view.players
    if view.reshuffled:
        cards = max(0.0, (view.draw_pile - C.COPIES) / 3.0)
    else:
        drawn = _INITIAL_DRAW_BASE - C.HAND_SIZE * n - view.draw_pile
        turns = max(0, view.turn_number - 1)
        prior = 2 * n  # turns' worth of the assumed rate, until the game shows its own
        rate = (drawn + rate * prior) / (turns + prior)
        lower = sum(len(mk.pile) - 1 for mk in view.suits)
        following = len(view.discard_pile) + lower + 0.7 * view.draw_pile
        cards = view.draw_pile + following / 3.0
    return cards / max(1.0, rate) * (n - 1) / n


def _end_prices(
    view: CardStockMarketView, opp_turns: float, bot: CardStockMarketHeuristic
) -> list[tuple[list[float], list[float]]]:
    """Per suit, a share's expected sale price for each price now (number card, face card).

    The distance from the mean price shrinks with every opponent turn left (faster under a
    face card), and the whole is cut by the chance that the suit survives: an opponent
    bankrupts it with probability ``HAZARD`` per face card of it they are likely to hold.
    """
    faces_seen = [0] * _NS
    seen = 0
    for group in (view.hand, view.discard_pile, *view.certificates, *(m.pile for m in view.suits)):
        seen += len(group)
        for c in group:
            if c % _RANKS >= 10:
                faces_seen[c // _RANKS] += 1
    unseen = max(1, C.DECK_SIZE - seen)
    m = bot.MEAN_PRICE
    prices = range(C.MAX_PRICE + 1)
    # Selling at the next turn and holding to the end are both possible: take the better.
    soon = min(opp_turns, view.players - 1.0)
    curves = [
        (
            h,
            [m + (p - m) * keep for p in prices],
            [m + (p - m) * keep_face for p in prices],
        )
        for h, keep, keep_face in ((h, bot.DRIFT**h, bot.FACE_DRIFT**h) for h in (soon, opp_turns))
    ]
    table = []
    for s in _SUITS:
        faces = max(0, 3 * C.COPIES - faces_seen[s])
        hazard = min(0.5, bot.HAZARD * faces * C.HAND_SIZE / unseen)
        (h1, plain1, faced1), (h2, plain2, faced2) = curves
        a = (1.0 - hazard) ** h1
        b = (1.0 - hazard) ** h2
        plain = [max(a * x, b * y) for x, y in zip(plain1, plain2, strict=True)]
        faced = [max(a * x, b * y) for x, y in zip(faced1, faced2, strict=True)]
        table.append((plain, faced))
    return table
