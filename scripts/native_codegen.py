"""Write the compiled engines' generated includes from the games' data modules (for setup.py).

Each game's data modules (``games/*/cards.py``, ``actions.py`` and the phase constants of
``state.py``) are the only declaration of its cards, actions, phases and their ids. The
compiled engines read them at build time from the ``.pxi`` files written here, next to the
``.pyx`` sources, before Cython runs; a data module that changes changes the build, so the
two cannot drift. The modules are read by path with :mod:`ast` (closingbell need not be
installed, or importable, while it is built), and only the constant expressions that the
tables below name are evaluated.

The same goes for the compiled states' Python wrappers (each field the reference state
declares in its ``SHAPES`` is read through one getter generated from a table of
:data:`GETTERS`) and for the compiled serializers' JSON keys (:data:`KEYS`).

Run ``python scripts/native_codegen.py`` to write the files without building.
"""

from __future__ import annotations

import ast
import itertools
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path("src/closingbell/games")
CORE = Path("src/closingbell/core")
NATIVE = Path("src/closingbell/native")

# ---------------------------------------------------------------------- reading constants

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_CALLS: dict[str, Callable[..., Any]] = {
    "len": len,
    "sum": sum,
    "max": max,
    "min": min,
    "tuple": tuple,
    "frozenset": frozenset,
    "sorted": sorted,
    "range": range,
    "dict.fromkeys": dict.fromkeys,
}


class DataModules:
    """The module-level constants of one game's data modules, evaluated on demand.

    Only literals, names, arithmetic, tuples, dicts, subscripts and a few builtins
    (``len``, ``sum``, ``max``...) are understood: enough for tables of numbers, and
    nothing that could run code of the project.
    """

    def __init__(self, root: Path, game: str, folder: Path | None = None) -> None:
        self.folder = folder or root / GAMES / game
        self.game = game
        self._trees: dict[str, dict[str, ast.expr]] = {}
        self._aliases: dict[str, dict[str, tuple[str, str | None]]] = {}
        self._values: dict[tuple[str, str], Any] = {}

    def _load(self, module: str) -> None:
        if module in self._trees:
            return
        path = self.folder / f"{module}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        assigned: dict[str, ast.expr] = {}
        aliases: dict[str, tuple[str, str | None]] = {}
        package = f"closingbell.games.{self.game}"
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            elif isinstance(node, ast.ImportFrom) and node.module == package:
                for alias in node.names:  # from closingbell.games.GAME import cards as C
                    aliases[alias.asname or alias.name] = (alias.name, None)
                continue
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package):
                sibling = (node.module or "").rsplit(".", 1)[1]
                for alias in node.names:  # from closingbell.games.GAME.cards import X
                    aliases[alias.asname or alias.name] = (sibling, alias.name)
                continue
            else:
                continue
            if isinstance(target, ast.Name):
                assigned[target.id] = value
        self._trees[module] = assigned
        self._aliases[module] = aliases

    def value(self, module: str, name: str) -> Any:
        """The value of ``name`` at the top of ``module`` (``cards``, ``actions``, ``state``)."""
        key = (module, name)
        if key not in self._values:
            self._load(module)
            if name in self._trees[module]:
                self._values[key] = self._eval(module, self._trees[module][name])
            elif name in self._aliases[module] and self._aliases[module][name][1]:
                sibling, original = self._aliases[module][name]
                self._values[key] = self.value(sibling, original or name)
            else:
                raise KeyError(f"{self.folder / module}.py defines no constant {name}")
        return self._values[key]

    def expression(self, module: str, text: str) -> Any:
        """The value of the expression ``text``, read as if written at the foot of ``module``."""
        self._load(module)
        return self._eval(module, ast.parse(text, mode="eval").body)

    def _eval(self, module: str, node: ast.expr) -> Any:

        def ev(child: ast.expr) -> Any:
            return self._eval(module, child)

        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.value(module, node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in self._aliases[module]:
                return self.value(self._aliases[module][node.value.id][0], node.attr)
            if f"{node.value.id}.{node.attr}" in _CALLS:
                return _CALLS[f"{node.value.id}.{node.attr}"]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items: list[Any] = []
            for item in node.elts:
                items.extend(ev(item.value) if isinstance(item, ast.Starred) else [ev(item)])
            return {ast.Tuple: tuple, ast.List: list, ast.Set: frozenset}[type(node)](items)
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values, strict=True):
                out.update(ev(v) if k is None else {ev(k): ev(v)})
            return out
        if isinstance(node, ast.Compare) and all(isinstance(o, ast.Eq) for o in node.ops):
            values = [ev(node.left), *(ev(c) for c in node.comparators)]
            return all(a == b for a, b in itertools.pairwise(values))
        if isinstance(node, ast.Subscript):
            return ev(node.value)[ev(node.slice)]
        if isinstance(node, ast.Call) and not node.keywords:
            function = node.func
            called = ast.unparse(function)
            if called in _CALLS:
                return _CALLS[called](*(ev(a) for a in node.args))
        raise ValueError(
            f"{self.folder / module}.py line {node.lineno}: cannot read "
            f"{ast.unparse(node)!r} at build time (only constant expressions)"
        )


# ---------------------------------------------------------------------- the constants


def _same(prefix: str, names: Iterable[str]) -> list[tuple[str, str]]:
    return [(prefix + name, name) for name in names]


@dataclass(frozen=True)
class Constants:
    """The compile-time constants of one compiled module, read from one game's data."""

    game: str
    """The game package (``take_stock``)."""
    target: str
    """The generated file, in the native package (``_take_stock_ids.pxi``)."""
    groups: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    """(data module, ((C name, expression), ...)) in the order written."""
    reasons: tuple[str, str, str] | None = None
    """(data module, tuple of names, C prefix): one index constant per name of the tuple."""
    assumes: tuple[tuple[str, str], ...] = ()
    """(data module, expression): what the compiled code takes for granted of the data; the
    build stops if one is false."""


TAKE_STOCK_ACTIONS = (
    "RAISE", "SAVE", "DISCARD", "MARKET_A", "MARKET_B", "PLAY", "CHOOSE", "AUDIT_STOCK",
    "AUDIT_CARD", "AUDIT_SPLIT", "FREEZE_STOCK", "RETRIEVE", "RETRIEVE_DONE", "EXERCISE",
    "EXERCISE_DONE",
)  # fmt: skip
TAKE_STOCK_KINDS = (
    "SPLIT", "CRASH", "INSIDER", "AUDIT", "FREEZE", "NO_CHANGE", "UPTURN", "DOWNTURN",
    "OPTION_GAINED", "OPTION_LOST", "MARKET_CRASH", "MARKET_CLOSED",
)  # fmt: skip
TAKE_STOCK_PHASES = (
    "ACTION", "DISCARD", "CHOOSE", "AUDIT_STOCK", "AUDIT_WHAT", "FREEZE", "RETRIEVE",
    "INSIDER_DISCARD", "DOWNTURN", "EXERCISE", "OVER",
)  # fmt: skip

TAKE_STOCK = Constants(
    game="take_stock",
    target="_take_stock_ids.pxi",
    groups=(
        (
            "cards",
            (
                ("TS_STOCKS", "NUM_STOCKS"),
                ("TS_VALUES", "VALUES"),
                ("TS_CARDS", "NUM_SHARE_CARDS"),
                ("TS_SEATS", "max(HAND_SIZES)"),
                ("TS_KINDS", "NUM_EVENT_KINDS"),
                ("TS_EVENT_CARDS", "NUM_EVENT_CARDS"),
                ("TS_ROUNDS", "MAX_ROUNDS"),
                ("TS_MAX_RAISE", "MAX_RAISE"),
                ("TS_MAX_RETRIEVE", "MAX_RETRIEVE"),
                ("TS_MAX_SPLITS", "MAX_SPLITS"),
                ("TS_TOTAL_TOKENS", "TOTAL_TOKENS"),
                ("TS_BELOW_CLOSED", "CARDS_BELOW_CLOSED"),
                ("TS_CLOSING_VALUE", "min(CLOSING_VALUES)"),
                *_same("TS_K_", TAKE_STOCK_KINDS),
            ),
        ),
        ("actions", (*_same("TS_A_", TAKE_STOCK_ACTIONS), ("TS_ACTIONS", "NUM_ACTIONS"))),
        (
            "state",
            (
                *_same("TS_PH_", TAKE_STOCK_PHASES),
                ("TS_PHASES", "len(PHASE_NAMES)"),
                ("TS_F_NONE", "FOLLOW_NONE"),
                ("TS_F_SAVE", "FOLLOW_SAVE"),
                ("TS_F_MARKET_A", "FOLLOW_MARKET_A"),
                ("TS_F_MARKET_B", "FOLLOW_MARKET_B"),
                ("TS_F_PLAY", "FOLLOW_PLAY"),
            ),
        ),
    ),
    reasons=("state", "ROUND_END_REASONS", "TS_R_"),
    assumes=(
        # A row closes the market from TS_CLOSING_VALUE up; one Market Closed card.
        ("cards", "CLOSING_VALUES == frozenset(range(min(CLOSING_VALUES), VALUES + 1))"),
        ("cards", "len(EVENT_DECK) == NUM_EVENT_KINDS"),
        ("cards", "EVENT_DECK[MARKET_CLOSED] == 1"),
    ),
)
"""Take Stock's numbers, for ``_take_stock.pxd`` and the compiled bot."""

CARD_STOCK_MARKET = Constants(
    game="card_stock_market",
    target="_card_stock_market_ids.pxi",
    groups=(
        (
            "cards",
            (
                ("CSM_SUITS", "NUM_SUITS"),
                *_same("CSM_", ("RANKS", "COPIES", "FACE_SHARES", "MAX_SHARES", "DEAL_BATCH")),
                ("CSM_KINDS", "NUM_KINDS"),
                ("CSM_JOKER", "JOKER"),
                ("CSM_DECK", "DECK_SIZE"),
                ("CSM_HAND", "HAND_SIZE"),
                *_same("CSM_", ("MAX_TRADES", "MAX_CHANGES", "MAX_DISCARDS", "MAX_PRICE")),
            ),
        ),
        (
            "actions",
            (
                *_same("CSM_A_", ("BUY", "SELL", "MARKET", "BANKRUPT", "DISCARD", "DONE")),
                ("CSM_NUM_ACTIONS", "NUM_ACTIONS"),
            ),
        ),
        (
            "state",
            (
                *_same("CSM_PH_", ("START", "TRADE", "MARKET", "DISCARD", "OVER")),
                ("CSM_PHASES", "len(PHASE_NAMES)"),
            ),
        ),
    ),
)
"""Card Stock Market's numbers, for ``_card_stock_market.pxd`` and the compiled bot."""

CONSTANTS = (TAKE_STOCK, CARD_STOCK_MARKET)
"""Every generated include of constants."""


def constants_text(spec: Constants, data: DataModules) -> str:
    """The text of ``spec``'s include: one ``cdef enum`` of every constant, with its source."""
    lines = [
        f"# Generated by setup.py (scripts/native_codegen.py) from closingbell/games/{spec.game}/:",
        "# do not edit; edit the data modules named beside each value, then rebuild.",
        "",
        "cdef enum:",
    ]
    for module, expression in spec.assumes:
        if data.expression(module, expression) is not True:
            raise ValueError(f"{spec.target}: the compiled code assumes {module}.py: {expression}")
    for module, names in spec.groups:
        for c_name, expression in names:
            value = data.expression(module, expression)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{module}.{expression} is not an int: {value!r}")
            lines.append(f"    {c_name} = {value}  # {module}.py: {expression}")
    if spec.reasons:
        module, name, prefix = spec.reasons
        lines.append(f"    {prefix}NONE = -1")
        for i, reason in enumerate(data.value(module, name)):
            lines.append(f"    {prefix}{reason.upper()} = {i}  # {module}.py: {name}[{i}]")
        lines.append(
            f"    {prefix}COUNT = {len(data.value(module, name))}  # {module}.py: len({name})"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the getters


@dataclass(frozen=True)
class Field:
    """One field of a compiled state as Python reads it."""

    name: str
    """The attribute, as the reference state names it."""
    value: str
    """A Cython expression of its fresh Python value; ``st`` is the compiled state."""
    doc: str
    """Its docstring."""
    locals: str = ""
    """Declarations the expression needs (``cdef ...`` lines, ``;``-separated)."""


def per_seat(member: str, length: str) -> str:
    """Each seat's list ``member[q][:length[q]]``."""
    return f"[_list8(st.c.{member}[q], st.c.{length}[q]) for q in range(st.c.r.n)]"


def pile(member: str) -> str:
    """The list ``member[:member_len]``."""
    return f"_list8(st.c.{member}, st.c.{member}_len)"


@dataclass(frozen=True)
class Getters:
    """The generated base class of a compiled state: one property per field."""

    game: str
    """The game package, whose ``state.py`` declares the fields (``SHAPES``)."""
    target: str
    """The generated file, in the native package."""
    base: str
    """The generated class, the compiled state's base (declared in the ``.pxd``)."""
    state: str
    """The compiled state's class."""
    doc: str
    """The generated class's docstring."""
    fields: tuple[Field, ...]
    """Every field: those of ``SHAPES`` and the others the compiled state shows."""


TAKE_STOCK_FIELDS = Getters(
    game="take_stock",
    target="_take_stock_fields.pxi",
    base="_StateFields",
    state="State",
    doc="The fields of a compiled Take Stock state, each read as a fresh Python value.",
    fields=(
        Field("n", "st.c.r.n", "The number of seats."),
        Field(
            "shares",
            "st.game.shares",
            "Shares per card, indexed by the card's value (the game's table).",
        ),
        Field("seed", "st.c.seed", "The seed every shuffle of this game is derived from."),
        Field(
            "from_deal",
            "st.c.from_deal != 0",
            "Whether ``history`` and ``log`` run from the deal of ``new_game(seed)``.",
        ),
        Field(
            "cur",
            "None if st.c.cur < 0 else st.c.cur",
            "The seat that must decide; ``None`` once the game is over.",
        ),
        Field(
            "phase",
            "st.c.phase",
            "The kind of the pending decision, an index into ``PHASE_NAMES``.",
        ),
        Field("round", "st.c.round", "The round being played (1-based)."),
        Field("dealer", "st.c.dealer", "This round's dealer."),
        Field("turn", "st.c.turn", "Whose turn it is."),
        Field("supply", "st.c.supply", "Option tokens left in the box."),
        Field(
            "ev_active",
            "st.c.ev_active",
            "The event being played while it waits for a discard or a freeze, else -1.",
        ),
        Field("follow", "st.c.follow", "What the pending discard pays for (``FOLLOW_*``)."),
        Field(
            "ev_stock",
            "st.c.ev_stock",
            "The stock of the audit or Insider Trading being resolved, else -1.",
        ),
        Field("owed", "st.c.owed", "Discards owed for cards retrieved by Insider Trading."),
        Field("reshuffles", "st.c.reshuffles", "Reshuffles of the share discard pile this round."),
        Field(
            "end_reason",
            "_REASONS[st.c.end_reason] if st.c.end_reason >= 0 else None",
            "Why the current round ended, or ``None`` while it runs.",
        ),
        Field(
            "rows",
            "[_list8(st.c.rows[s], st.c.row_len[s]) for s in range(TS_STOCKS)]",
            "The market rows' values, bottom first.",
        ),
        Field("splits", "_list8(st.c.splits, TS_STOCKS)", "Split cards on each stock."),
        Field(
            "frozen",
            "[st.c.frozen[s] != 0 for s in range(TS_STOCKS)]",
            "Whether each stock is frozen.",
        ),
        Field("hands", per_seat("hands", "hand_len"), "Each seat's hand, sorted."),
        Field(
            "certs", per_seat("certs", "cert_len"), "Each seat's certificates, in the order saved."
        ),
        Field("tokens", "_list32(st.c.tokens, st.c.r.n)", "Each seat's option tokens."),
        Field("draw", pile("draw"), "The share draw pile (the top card last)."),
        Field("discard", pile("discard"), "The share discard pile, in the order discarded."),
        Field(
            "ev_above", pile("ev_above"), "The event cards above Market Closed (the top card last)."
        ),
        Field("ev_below", pile("ev_below"), "The event cards under Market Closed."),
        Field(
            "ev_below_mask",
            "[st.c.ev_below_mask[i] for i in range(st.c.ev_below_len)]",
            "Who knows each card of ``ev_below`` (bit p for seat p, bit n for everyone).",
        ),
        Field("ev_discard", pile("ev_discard"), "The face-down event discard pile."),
        Field(
            "ev_discard_mask",
            "[st.c.ev_discard_mask[i] for i in range(st.c.ev_discard_len)]",
            "Who knows each card of ``ev_discard``.",
        ),
        Field(
            "saved",
            per_seat("saved", "saved_len"),
            "Each seat's saved event cards, in the order drawn.",
        ),
        Field(
            "totals",
            "_list32(st.c.totals, st.c.r.n)",
            "Each seat's total over the rounds scored so far.",
        ),
        Field("round_scores", "st.round_results()", "Each scored round's points per seat."),
        Field("round_reasons", "st.round_end_reasons()", "Why each scored round ended."),
        Field(
            "pool_of",
            "[st.c.pool_of[card] for card in range(TS_CARDS)]",
            "The pool of each hidden share card, -1 for a face-up one.",
        ),
        Field(
            "hand_pool",
            "[[_pool_count(c, q, k) for k in range(c.npools)] for q in range(c.r.n)]",
            "How many cards of each pool each seat holds (derived from ``pool_of``).",
            "cdef ts_core *c = &st.c",
        ),
        Field(
            "known",
            per_seat("known", "known_len"),
            "Cards everyone knows each seat holds, in the order they were shown.",
        ),
        Field("pair", pile("pair"), "The two events of option A while one is chosen."),
        Field(
            "retrieved", pile("retrieved"), "Cards retrieved by the Insider Trading being resolved."
        ),
        Field("queue", pile("queue"), "Seats yet to answer a decision that all seats take."),
        Field(
            "hidden",
            per_seat("hidden", "hidden_len"),
            "Cards each seat has set aside face down in such a decision.",
        ),
        Field("history", "_history(st)", "The actions applied since the game was dealt, in order."),
        Field(
            "log",
            "list(st._entries())",
            "What happened, with who may read each entry (the reference's entries).",
        ),
    ),
)
"""The compiled Take Stock state's fields (``_take_stock.pyx`` includes the class)."""


def csm_per_seat(member: str, length: str, count: str = "st.rules.n") -> str:
    """Each of ``count`` seats' list ``member[q][:length[q]]``."""
    return f"[_list_of(st.f.{member}[q], st.f.{length}[q]) for q in range({count})]"


def csm_pile(member: str) -> str:
    """The list ``member[:member_len]``."""
    return f"_list_of(st.f.{member}, st.f.{member}_len)"


CARD_STOCK_MARKET_FIELDS = Getters(
    game="card_stock_market",
    target="_card_stock_market_fields.pxi",
    base="_StateFields",
    state="State",
    doc="The fields of a compiled Card Stock Market state, each read as a fresh Python value.",
    fields=(
        Field("n", "st.rules.n", "The number of seats."),
        Field("seed", "st.f.seed", "The seed every shuffle of this game is derived from."),
        Field(
            "from_deal",
            "st.deal",
            "Whether ``history`` and ``log`` run from the deal of ``new_game(seed)``.",
        ),
        Field(
            "cur",
            "None if st.f.cur < 0 else st.f.cur",
            "The seat that must decide; ``None`` once the game is over.",
        ),
        Field(
            "phase",
            "st.f.phase",
            "The kind of the pending decision, an index into ``PHASE_NAMES``.",
        ),
        Field(
            "history",
            "_list_of(st.hist_tape.data, st.hist_len)",
            "The actions applied since the game was dealt, in order (a copy).",
        ),
        Field("log", "_log_copy(st)", "What happened, with who may read each entry (a copy)."),
        Field("dealer", "st.f.dealer", "The dealer and banker."),
        Field("turn", "st.f.turn", "Whose turn it is."),
        Field("turns", "st.f.turns", "Turns begun so far."),
        Field("bank", "st.f.bank", "The bank's money."),
        Field("levies", "st.f.levies", "Levies made so far."),
        Field(
            "jokers_out", "st.f.jokers_out", "Jokers waiting outside the game for the reshuffle."
        ),
        Field(
            "joker_by", "st.f.joker_by", "The seat that drew a joker, -1 while the game goes on."
        ),
        Field("trades", "st.f.trades", "Transactions made this turn."),
        Field("sales", "st.f.sales", "How many of them were sales."),
        Field("changes", "st.f.changes", "Market changes made this turn."),
        Field("discards", "st.f.discards", "Cards discarded this turn."),
        Field("bought", "st.f.bought", "The suits bought this turn, a bit each."),
        Field("sold", "st.f.sold", "The suits sold this turn, a bit each."),
        Field("reshuffled", "st.f.reshuffled != 0", "Whether the draw pile has been made anew."),
        Field(
            "prices",
            "[st.f.prices[0], st.f.prices[1], st.f.prices[2], st.f.prices[3]]",
            "Each suit's price (a copy).",
        ),
        Field(
            "busted",
            "[st.f.busted[s] != 0 for s in range(CSM_SUITS)]",
            "Whether each suit is bankrupt (a copy).",
        ),
        Field("cash", "_list_of(st.f.cash, st.rules.n)", "Each seat's money (a copy)."),
        Field("debt", "_list_of(st.f.debt, st.rules.n)", "What each seat owes the bank (a copy)."),
        Field("draw", csm_pile("draw"), "The draw pile, its top card last (a copy)."),
        Field("discard", csm_pile("discard"), "The discard pile, in the order discarded (a copy)."),
        Field(
            "re_pile", csm_pile("re_pile"), "The new draw pile at the reshuffle, sorted (a copy)."
        ),
        Field(
            "piles",
            "[_list_of(st.f.piles[s], st.f.pile_len[s]) for s in range(CSM_SUITS)]",
            "The four market piles, bottom first (a copy).",
        ),
        Field("hands", csm_per_seat("hands", "hand_len"), "Each seat's sorted hand (a copy)."),
        Field(
            "certs", csm_per_seat("certs", "cert_len"), "Each seat's sorted certificates (a copy)."
        ),
        Field(
            "held",
            "[[st.f.held[q][0], st.f.held[q][1], st.f.held[q][2], st.f.held[q][3]]"
            " for q in range(st.rules.n)]",
            "Each seat's shares per suit (a copy).",
        ),
        Field(
            "re_hands",
            csm_per_seat("re_hands", "re_hand_len", "st.f.re_hands_n"),
            "Each seat's hand at the reshuffle (a copy; empty before it).",
        ),
        Field(
            "re_drawn",
            csm_per_seat("re_drawn", "re_drawn_len", "st.f.re_drawn_n"),
            "The cards each seat drew since the reshuffle (a copy; empty before it).",
        ),
        Field(
            "re_events",
            csm_per_seat("re_events", "re_events_len", "st.f.re_events_n"),
            "Each seat's public record since the reshuffle (a copy; empty before it).",
        ),
    ),
)
"""The compiled Card Stock Market state's fields (``_card_stock_market.pyx`` includes the class)."""

GETTERS = (TAKE_STOCK_FIELDS, CARD_STOCK_MARKET_FIELDS)
"""Every generated wrapper class."""


def getters_text(spec: Getters, data: DataModules) -> str:
    """The text of ``spec``'s include: a class of properties, one per field.

    Every field the reference state declares in ``SHAPES`` must have a getter.
    """
    missing = set(data.value("state", "SHAPES")) - {f.name for f in spec.fields}
    if missing:
        raise ValueError(f"{spec.target}: no getter for {', '.join(sorted(missing))}")
    lines = [
        "# Generated by setup.py from the table of the compiled state's fields in",
        "# scripts/native_codegen.py: do not edit; edit the table, then rebuild.",
        "",
        "",
        f"cdef class {spec.base}:",
        f'    """{spec.doc}"""',
    ]
    for field in spec.fields:
        lines += [
            "",
            "    @property",
            f"    def {field.name}(self):",
            f'        """{field.doc}"""',
            f"        cdef {spec.state} st = <{spec.state}?>self",
            *(f"        {line.strip()}" for line in field.locals.split(";") if line.strip()),
            f"        return {field.value}",
        ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the JSON keys


@dataclass(frozen=True)
class Keys:
    """The keys of a state's JSON for a compiled serializer: an index each, and the names."""

    game: str
    """The game package, whose ``state.py`` declares the fields (``SHAPES``)."""
    target: str
    """The generated file, in the native package (``_take_stock_keys.pxi``)."""


KEYS = (
    Keys("take_stock", "_take_stock_keys.pxi"),
    Keys("card_stock_market", "_card_stock_market_keys.pxi"),
)
"""The serializers' generated keys."""


def keys_text(spec: Keys, root: Path) -> str:
    """The text of ``spec``'s include: the keys' indices and names.

    ``K_NAME`` for each key in sorted order, ``K_COUNT``, and ``_KEYS``, the names in that
    order: the state's ``SHAPES`` and the header's keys.
    """
    shapes = DataModules(root, spec.game).value("state", "SHAPES")
    header = DataModules(root, "core", root / CORE).value("serial", "HEADER_KEYS")
    keys = sorted({*shapes, *header})
    lines = [
        f"# Generated by setup.py (scripts/native_codegen.py) from closingbell/games/{spec.game}/",
        "# state.py (SHAPES) and closingbell/core/serial.py (HEADER_KEYS): do not edit.",
        "",
        "# Every key of a state's JSON, in the sorted order to_json writes them.",
        "cdef enum:",
        *(f"    K_{key.upper()} = {i}" for i, key in enumerate(keys)),
        f"    K_COUNT = {len(keys)}",
        "",
        "cdef tuple _KEYS = (",
        *(f'    "{key}",' for key in keys),
        ")",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- writing


def _write(path: Path, text: str) -> bool:
    """Write ``text`` unless the file holds it already (so that nothing is rebuilt)."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def generate(root: Path = ROOT) -> list[Path]:
    """Write every generated include under ``root``; the files that changed."""
    changed = []
    for spec in CONSTANTS:
        path = root / NATIVE / spec.target
        if _write(path, constants_text(spec, DataModules(root, spec.game))):
            changed.append(path)
    for keys in KEYS:
        path = root / NATIVE / keys.target
        if _write(path, keys_text(keys, root)):
            changed.append(path)
    for getters in GETTERS:
        path = root / NATIVE / getters.target
        if _write(path, getters_text(getters, DataModules(root, getters.game))):
            changed.append(path)
    return changed


if __name__ == "__main__":
    for written in generate():
        print(f"wrote {written.relative_to(ROOT)}")
