"""Card Stock Market on the terminal: the table and the result, laid out.

:class:`CardStockMarketScreen` is the game's :class:`~closingbell.tui.screen.GameScreen`.
Every sentence comes from the game's narrator (:class:`CardStockMarketNarrator`); this
module adds the layout (tables, colours) and its headings, from the same
``card_stock_market`` catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from closingbell.core.view import View
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.text.card_stock_market import CardStockMarketNarrator

SUIT_STYLES: tuple[str, ...] = ("green", "bright_blue", "red", "bold")
"""The colour of each suit, clubs, diamonds, hearts, spades (spades keep the default colour)."""


class CardStockMarketScreen:
    """Card Stock Market's layout for the terminal, in the language of its narrator."""

    def __init__(self, narrator: CardStockMarketNarrator) -> None:
        self.words = narrator
        """The game's words."""
        self.tr = narrator.tr

    @property
    def narrator(self) -> CardStockMarketNarrator:
        """The game's words: prompts, help, actions and events."""
        return self.words

    def _view(self, view: View) -> CardStockMarketView:
        if not isinstance(view, CardStockMarketView):
            raise TypeError("CardStockMarketScreen shows Card Stock Market views only")
        return view

    def _card_text(self, card: int) -> Text:
        if card == C.JOKER:
            return Text(self.words.card(card), style="bold magenta")
        return Text(self.words.card(card), style=SUIT_STYLES[C.suit_of(card)])

    def _cards_text(self, cards: Sequence[int]) -> Text:
        return Text(" ").join(self._card_text(c) for c in cards)

    # ------------------------------------------------------------------ the board

    def board(self, view: View) -> RenderableType:
        """The table as ``view``'s seat sees it: everything public plus its own hand."""
        v = self._view(view)
        _ = self.tr.gettext
        parts: list[RenderableType] = [self._status(v), self._market(v), self._players(v)]
        if v.seat is not None:
            line = Text(_("Your hand:"), style="bold")
            line.append(" ")
            line.append_text(self._cards_text(v.hand))
            parts.append(line)
        parts.append(self._table_info(v))
        return Group(*parts)

    def _status(self, v: CardStockMarketView) -> Text:
        _ = self.tr.gettext
        ngettext = self.tr.ngettext
        if v.current_player is None:
            return Text(_("The game is over."), style="bold")
        text = Text(
            _("Turn {number}: {name} to play").format(
                number=v.turn_number, name=self.words.name(v.turn_player)
            ),
            style="bold",
        )
        trades, changes, discards = self.words.left(v)
        if v.decision == "discarding":
            rest = ngettext(
                "{count} more discard allowed", "{count} more discards allowed", discards
            ).format(count=discards)
        else:
            rest = _("transactions left: {trades}, market changes left: {changes}").format(
                trades=trades, changes=changes
            )
            if discards:
                rest = _("{rest}, or discard up to {count} cards instead").format(
                    rest=rest, count=discards
                )
        text.append("\n")
        text.append(rest, style="cyan")
        return text

    def _market(self, v: CardStockMarketView) -> Table:
        _ = self.tr.gettext
        table = Table(title=_("Market"), box=box.SIMPLE_HEAD, title_justify="left")
        table.add_column(_("Suit"))
        table.add_column(_("Price"), justify="right")
        table.add_column(_("Top card"), justify="center")
        table.add_column(_("Pile"), justify="right")
        table.add_column(_("Strip"), justify="center")
        table.add_column(_("Number cards"), justify="center")
        table.add_column(_("Raises"), justify="center")
        for s, m in enumerate(v.suits):
            style = SUIT_STYLES[s]
            price = Text(f"${m.price}", style="bold")
            if m.bankrupt:
                price.append(" ")
                price.append(_("bankrupt"), style="bold red")
            spans = self.words.number_spans(v, s)
            if C.rank_of(m.pile[-1]) > 10:
                numbers = _("any")
            else:
                numbers = ", ".join(f"{a}-{b}" if a < b else str(a) for a, b in spans) or "-"
            raises = self.words.raises(v, s)
            table.add_row(
                Text(f"{C.SUIT_SYMBOLS[s]} {self.words.suit(s)}", style=style),
                price,
                self._card_text(m.pile[-1]),
                Text(str(len(m.pile))),
                Text(_("up ${rise} / down ${fall}").format(rise=m.max_rise, fall=m.max_fall)),
                Text(numbers),
                Text(" ".join(raises) if raises else "-"),
            )
        return table

    def _players(self, v: CardStockMarketView) -> Table:
        _ = self.tr.gettext
        table = Table(title=_("Players"), box=box.SIMPLE_HEAD, title_justify="left")
        table.add_column("")
        table.add_column(_("Player"))
        table.add_column(_("Cash"), justify="right")
        table.add_column(_("Debt"), justify="right")
        table.add_column(_("Cards"), justify="right")
        for s in range(C.NUM_SUITS):
            table.add_column(Text(C.SUIT_SYMBOLS[s], style=SUIT_STYLES[s]), justify="right")
        table.add_column(_("Worth"), justify="right")
        table.add_column(_("Certificates"))
        prices = [m.price for m in v.suits]
        for q in range(v.players):
            marker = Text(">" if q == v.turn_player and v.current_player is not None else "")
            name = Text(self.words.name(q), style="bold" if q == v.seat else "")
            if q == v.dealer:
                name.append(_(" (dealer)"), style="dim")
            debt = v.debts[q]
            worth = v.cash[q] - debt + sum(h * p for h, p in zip(v.shares[q], prices, strict=True))
            table.add_row(
                marker,
                name,
                Text(f"${v.cash[q]}", style="green"),
                Text(f"${debt}", style="bold red") if debt else Text("-"),
                Text(str(v.hand_sizes[q])),
                *(Text(str(h) if h else "-") for h in v.shares[q]),
                Text(f"${worth}"),
                self._cards_text(v.certificates[q]),
            )
        return table

    def _table_info(self, v: CardStockMarketView) -> Text:
        _ = self.tr.gettext
        ngettext = self.tr.ngettext
        items: list[str] = []
        if v.bank is None:
            items.append(_("Bank: unlimited"))
        else:
            items.append(_("Bank: ${amount}").format(amount=v.bank))
        if v.levies:
            items.append(
                ngettext("{count} levy so far", "{count} levies so far", v.levies).format(
                    count=v.levies
                )
            )
        items.append(_("Draw pile: {count}").format(count=v.draw_pile))
        items.append(_("Discard pile: {count}").format(count=len(v.discard_pile)))
        closing = self.words.closing(v)
        if closing is not None:
            jokers = closing
        elif v.jokers_held_out:
            jokers = ngettext(
                "{count} joker waits for the reshuffle",
                "{count} jokers wait for the reshuffle",
                v.jokers_held_out,
            ).format(count=v.jokers_held_out)
        else:
            jokers = _("The jokers are in the draw pile: drawing one ends the game")
        text = Text("  ".join(items), style="dim")
        text.append("\n")
        text.append(jokers, style="magenta")
        return text

    # ------------------------------------------------------------------ the end

    def round_summary(self, view: View, event: dict[str, Any]) -> RenderableType | None:
        """Card Stock Market has no rounds: always ``None``."""
        return None

    def final_summary(self, view: View) -> RenderableType:
        """The end of the game: each player's cash, final sale, debt and total, and the winner."""
        result = self.words.final_result(view)
        _ = self.tr.gettext
        sales = result.final_sales
        table = Table(title=_("Final results"), box=box.SIMPLE_HEAD, title_justify="left")
        table.add_column(_("Player"))
        if sales is not None:
            table.add_column(_("Final sale"), justify="right")
        table.add_column(_("Cash"), justify="right")
        table.add_column(_("Debt"), justify="right")
        table.add_column(_("Total"), justify="right")
        scores = result.scores
        for q in sorted(range(len(scores)), key=lambda q: (-scores[q], q)):
            won = q in result.winners
            name = Text(self.words.name(q), style="bold yellow" if won else "")
            if won:
                name.append(" *", style="bold yellow")
            row: list[RenderableType] = [name]
            if sales is not None:
                row.append(Text(f"${sales[q]}"))
            row.append(Text(f"${result.cash[q]}"))
            debt = result.debts[q]
            row.append(Text(f"${debt}", style="red") if debt else Text("-"))
            row.append(Text(f"${scores[q]}", style="bold"))
            table.add_row(*row)
        parts: list[RenderableType] = []
        if result.closing is not None:
            parts.append(Text(result.closing, style="magenta"))
        parts.append(table)
        if sales is not None:
            parts.append(
                Text(_("Cash includes the final sale; the total is cash less debt."), style="dim")
            )
        parts.append(Text(result.verdict, style="bold yellow"))
        return Group(*parts)
