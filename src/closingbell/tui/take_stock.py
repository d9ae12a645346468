"""Take Stock on the terminal: the table as one seat sees it, and the scores, laid out.

Every sentence comes from the game's narrator (:class:`TakeStockNarrator`); this module
adds the layout (tables, colours) and its headings, from the same ``take_stock`` catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from closingbell.core.view import View
from closingbell.games.take_stock import cards as C
from closingbell.games.take_stock.views import TakeStockView
from closingbell.text.take_stock import TakeStockNarrator

STOCK_STYLES: tuple[str, ...] = ("yellow", "magenta", "bright_blue", "green", "red")
"""The colour of each stock, in market order (Corn, Gem, Oil, Tech, Movie)."""


class TakeStockScreen:
    """Take Stock's layout for the terminal, in the language of its narrator."""

    def __init__(self, narrator: TakeStockNarrator) -> None:
        self.words = narrator
        """The game's words."""
        self._ = narrator.tr.gettext

    @property
    def narrator(self) -> TakeStockNarrator:
        """The game's words: prompts, help, actions and events."""
        return self.words

    # ------------------------------------------------------------------ pieces

    def stock(self, s: int) -> Text:
        """A stock's name in its colour."""
        return Text(self.words.stock_names[s], style=STOCK_STYLES[s])

    def card(self, card: int, shares: bool = False) -> Text:
        """A share card in its stock's colour, with its shares if asked."""
        name = self.words.card_name(card)
        if shares:
            n = self.words.shares[C.card_value(card)]
            name = self._("{card} ({n} sh)").format(card=name, n=n)
        return Text(name, style=STOCK_STYLES[C.card_stock(card)])

    def certificates(self, cards: Sequence[int]) -> Text:
        """Certificates grouped by stock, one stock a line: "Oil 3 8 (3 sh)"."""
        lines = []
        shares = self.words.shares
        for s in range(C.NUM_STOCKS):
            mine = sorted(C.card_value(c) for c in cards if C.card_stock(c) == s)
            if mine:
                text = self._("{stock} {values} ({n} sh)").format(
                    stock=self.words.stock_names[s],
                    values=" ".join(map(str, mine)),
                    n=sum(shares[v] for v in mine),
                )
                lines.append(Text(text, style=STOCK_STYLES[s]))
        return Text("\n").join(lines) if lines else Text("–", style="dim")

    def _cards(self, cards: Sequence[int], shares: bool = False) -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append("  ")
            out.append_text(self.card(c, shares))
        return out if cards else Text("–", style="dim")

    # ------------------------------------------------------------------ the table

    def board(self, view: View) -> RenderableType:
        """The table as ``view``'s seat sees it: everything public plus its own hand."""
        v = _ts(view)
        _ = self._
        names = self.words.names
        parts: list[RenderableType] = []
        title = _("Take Stock · round {round} of {rounds} · dealer: {dealer}").format(
            round=v.round, rounds=v.rounds, dealer=names[v.dealer]
        )
        parts.append(self._market(v))
        parts.append(self._players(v))
        parts.append(self._piles(v))
        if v.seat is not None:
            hand = Text(_("Your hand: "), style="bold")
            hand.append_text(self._cards(v.hand, shares=True))
            parts.append(hand)
            saved = Text(_("Your saved events: "), style="bold")
            saved.append(self.words.event_list(v.saved_events) if v.saved_events else "–")
            parts.append(saved)
        situation = self.words.situation(v)
        if situation:
            parts.append(Text("\n".join(situation), style="bold yellow"))
        return Panel(Group(*parts), title=Text(title, style="bold"), border_style="cyan")

    def _market(self, v: TakeStockView) -> Table:
        _ = self._
        table = Table(title=_("Market"), title_justify="left", expand=False, box=None)
        table.add_column(_("Stock"))
        table.add_column(_("Cards in the row"))
        table.add_column(_("Splits"), justify="center")
        table.add_column(_("Frozen"), justify="center")
        table.add_column(_("Price"), justify="right")
        for s, row in enumerate(v.stocks):
            cards = Text(" ".join(str(c) for c in row.cards), style=STOCK_STYLES[s])
            splits = _("×{m}").format(m=row.splits + 1) if row.splits else ""
            frozen = Text(_("frozen"), style="bold cyan") if row.frozen else Text("")
            table.add_row(
                self.stock(s),
                cards,
                splits,
                frozen,
                Text(str(row.price), style="bold"),
            )
        return table

    def _players(self, v: TakeStockView) -> Table:
        _ = self._
        table = Table(title=_("Players"), title_justify="left", box=None, expand=False)
        table.add_column("")
        table.add_column(_("Player"))
        table.add_column(_("Score"), justify="right")
        table.add_column(_("Cards in hand"), justify="right")
        table.add_column(_("Option tokens"), justify="right")
        table.add_column(_("Saved events"))
        table.add_column(_("Certificates (shares)"), no_wrap=True)
        table.add_column(_("Worth now"), justify="right")
        for q, name in enumerate(self.words.names):
            worth = v.worth[q]
            if q == v.seat:
                saved = self.words.event_list(v.saved_events) or "–"
            else:
                saved = str(v.saved_counts[q])
            mark = "▶" if q == v.current_player else ""
            table.add_row(
                Text(mark, style="bold green"),
                Text(name, style="bold" if q == v.seat else ""),
                str(v.scores[q]),
                str(v.hand_sizes[q]),
                str(v.tokens[q]),
                saved,
                self.certificates(v.certificates[q]),
                Text(str(worth), style="bold"),
            )
        return table

    def _piles(self, v: TakeStockView) -> Text:
        text = self._(
            "Share cards: {draw} to draw, {discard} discarded · Events: {events} before "
            "Market Closed · Option tokens in the box: {supply}"
        ).format(
            draw=v.draw_pile,
            discard=len(v.discard_pile),
            events=v.event_pile,
            supply=v.option_supply,
        )
        return Text(text, style="dim")

    # ------------------------------------------------------------------ summaries

    def round_summary(self, view: View, event: dict[str, Any]) -> RenderableType | None:
        """The points of one round by player and stock (``None`` for other events)."""
        result = self.words.round_result(view, event)
        if result is None:
            return None
        _ = self._
        table = Table(box=None, expand=False)
        table.add_column(_("Player"), no_wrap=True)
        if result.prices is not None:
            for s in range(C.NUM_STOCKS):
                header = self.stock(s)
                header.append("\n" + _("price {price}").format(price=result.prices[s]), style="dim")
                table.add_column(header, justify="right")
        table.add_column(_("Round"), justify="right")
        table.add_column(_("Total"), justify="right")
        for q, name in enumerate(self.words.names):
            row: list[RenderableType] = [name]
            if result.prices is not None and result.shares is not None:
                for s in range(C.NUM_STOCKS):
                    n = result.shares[q][s]
                    price = result.prices[s]
                    cell = (
                        _("{shares}×{price}={points}").format(
                            shares=n, price=price, points=n * price
                        )
                        if n
                        else ""
                    )
                    row.append(cell)
            row.append(Text(str(result.points[q]), style="bold"))
            row.append(Text(str(result.totals[q]), style="bold green"))
            table.add_row(*row)
        parts: list[RenderableType] = []
        if result.reason is not None:
            parts.append(
                Text(
                    _("Round {round} ended: {reason}.").format(
                        round=result.round, reason=result.reason
                    )
                )
            )
        parts.append(table)
        title = _("Scores of round {round}").format(round=result.round)
        return Panel(Group(*parts), title=Text(title, style="bold"), border_style="green")

    def final_summary(self, view: View) -> RenderableType:
        """The final scores by player: points from each stock over the game, and by round."""
        result = self.words.final_result(view)
        _ = self._
        names = self.words.names
        parts: list[RenderableType] = []

        def name_cell(q: int) -> Text:
            won = q in result.winners
            return Text(("★ " if won else "  ") + names[q], style="bold" if won else "")

        if result.by_stock is not None:
            by_stock = Table(title=_("Points from each stock"), title_justify="left", box=None)
            by_stock.add_column(_("Player"), no_wrap=True)
            for s in range(C.NUM_STOCKS):
                by_stock.add_column(self.stock(s), justify="right")
            by_stock.add_column(_("Total"), justify="right")
            for q, points in enumerate(result.by_stock):
                by_stock.add_row(
                    name_cell(q),
                    *map(str, points),
                    Text(str(result.scores[q]), style="bold green"),
                )
            parts.append(by_stock)
        by_round = Table(title=_("Points by round"), title_justify="left", box=None)
        by_round.add_column(_("Player"), no_wrap=True)
        for r in range(1, len(result.by_round) + 1):
            by_round.add_column(_("Round {round}").format(round=r), justify="right")
        by_round.add_column(_("Total"), justify="right")
        for q in range(len(names)):
            by_round.add_row(
                name_cell(q),
                *(str(rs[q]) for rs in result.by_round),
                Text(str(result.scores[q]), style="bold green"),
            )
        parts.append(by_round)
        parts.append(Text(result.verdict, style="bold"))
        return Panel(
            Group(*parts), title=Text(_("Final scores"), style="bold"), border_style="green"
        )


def _ts(view: View) -> TakeStockView:
    if not isinstance(view, TakeStockView):
        raise TypeError("the Take Stock screen needs a Take Stock view")
    return view
