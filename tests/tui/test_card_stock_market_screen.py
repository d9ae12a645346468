"""The Card Stock Market terminal screen: what it shows, what it hides, in both languages.

Games are played by random bots from real states, at 2 and 4 players. The screen only
ever gets views and the events a seat may read.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest
from rich.console import Console, RenderableType

from closingbell.core.registry import load_game
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.text.i18n import translations
from closingbell.tui.card_stock_market import CardStockMarketScreen
from tests.text.csm_games import (
    CASES,
    LANG_IDS,
    NAMES,
    SEEDS,
    levy_game,
    make_narrator,
    playthrough,
    sampled,
)


def make_screen(game: CardStockMarket, lang: str) -> CardStockMarketScreen:
    return CardStockMarketScreen(make_narrator(game, lang))


def render(renderable: RenderableType) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(renderable)
    return buffer.getvalue()


def hand_line_cards(text: str, label: str) -> list[list[int]]:
    """The cards listed on each line that starts with the hand label."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(label):
            tokens = line[len(label) :].split()
            cards = [C.parse_card(t) for t in tokens]
            assert None not in cards, f"not a card on the hand line: {line!r}"
            found.append([c for c in cards if c is not None])
    return found


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_board_shows_the_table_and_only_the_own_hand(lang: str, players: int) -> None:
    tr = translations(lang, "card_stock_market")
    label = tr.gettext("Your hand:")
    for seed in SEEDS:
        play = playthrough(players, seed)
        screen = make_screen(play.game, lang)
        for view, state in sampled(list(zip(play.views, play.states, strict=True)), 5):
            text = render(screen.board(view))
            lines = text.splitlines()
            # The market: each suit's row shows its price and its top card.
            for s, market in enumerate(view.suits):
                row = [ln for ln in lines if f"{C.SUIT_SYMBOLS[s]} {screen.narrator.suit(s)}" in ln]
                assert len(row) == 1, (s, text)
                assert re.search(rf"\${market.price}\b", row[0]), row[0]
                assert C.card_symbol(market.pile[-1]) in row[0]
            # Every player's cash, on the line of their name.
            for q in range(players):
                row = [ln for ln in lines if NAMES[q] in ln and "$" in ln]
                assert row, text
                assert re.search(rf"\${view.cash[q]}\b", row[0]), row[0]
            # The hand line lists exactly this seat's hand: no card from another hand.
            listed = hand_line_cards(text, label)
            assert len(listed) == 1, text
            assert Counter(listed[0]) == Counter(view.hand)
            others: Counter[int] = Counter()
            for q in range(players):
                if q != view.seat:
                    others.update(state.hands[q])
            only_elsewhere = set(others) - set(view.hand)
            assert not only_elsewhere & set(listed[0])
            assert tr.gettext("Bank: ${amount}").format(amount=view.bank) in text


@pytest.mark.parametrize("lang", LANG_IDS)
def test_board_is_the_same_whatever_the_hidden_cards(lang: str) -> None:
    """Dealing the unseen cards anew (a state sampled from the view) changes nothing shown."""
    play = playthrough(4, 3)
    screen = make_screen(play.game, lang)
    rng = random.Random(5)
    for view in sampled(play.views, 17):
        other = play.game.sample_state(view, rng)
        assert render(screen.board(other.view(view.seat))) == render(screen.board(view))


@pytest.mark.parametrize("lang", LANG_IDS)
def test_spectator_board_lists_no_hand(lang: str) -> None:
    tr = translations(lang, "card_stock_market")
    play = playthrough(2, 1)
    screen = make_screen(play.game, lang)
    for state in sampled(play.states, 10):
        text = render(screen.board(state.view(None)))
        assert hand_line_cards(text, tr.gettext("Your hand:")) == []
        assert NAMES[0] in text and NAMES[1] in text


def test_board_shows_what_remains_of_the_turn_and_the_jokers() -> None:
    play = playthrough(4, 1)
    screen = make_screen(play.game, "en")
    first = render(screen.board(play.views[0]))
    assert "transactions left: 2, market changes left: 2" in first
    assert "or discard up to 4 cards instead" in first
    assert "2 jokers wait for the reshuffle" in first
    assert "up $3 / down $3" in first
    after = [v for v in play.views if v.reshuffled]
    assert after, "random games reach the reshuffle"
    assert "The jokers are in the draw pile" in render(screen.board(after[0]))
    discarding = [v for v in play.views if v.decision == "discarding"]
    assert discarding
    v = discarding[0]
    count = C.MAX_DISCARDS - v.discards
    assert f"{count} more discard" in render(screen.board(v))
    assert play.final is not None
    end = render(screen.board(play.final.view(0)))
    assert "The game is over." in end
    assert "drew a joker" in end


def test_round_summary_is_none() -> None:
    play = playthrough(2, 1)
    screen = make_screen(play.game, "en")
    assert play.final is not None
    for event in play.final.visible_events(0):
        assert screen.round_summary(play.views[-1], event) is None


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_final_summary_names_the_winner(lang: str, players: int) -> None:
    tr = translations(lang, "card_stock_market")
    for seed in SEEDS:
        play = playthrough(players, seed)
        final = play.final
        assert final is not None
        screen = make_screen(play.game, lang)
        events = final.visible_events(0)
        for event in events:
            screen.narrator.describe_event(event)
        view = final.view(0)
        text = render(screen.final_summary(view))
        scores = final.scores()
        winners = final.winners()
        for q in range(players):
            row = next(ln for ln in text.splitlines() if NAMES[q] in ln and "$" in ln)
            assert f"${scores[q]}" in row
        proceeds = [0] * players
        for event in events:
            if event["type"] == "final_sale":
                proceeds[event["seat"]] += event["paid"]
        assert tr.gettext("Final sale") in text
        for q in range(players):
            row = next(ln for ln in text.splitlines() if NAMES[q] in ln and "$" in ln)
            assert f"${proceeds[q]}" in row
        names = screen.narrator.join([NAMES[q] for q in winners])
        if len(winners) == 1:
            verdict = tr.gettext("{names} wins with ${score}.")
        else:
            verdict = tr.gettext("{names} share the win with ${score}.")
        assert verdict.format(names=names, score=max(scores)) in text
        # Events read twice (a second seat's log) do not count the final sale twice.
        for event in events:
            screen.narrator.describe_event(event)
        assert render(screen.final_summary(view)) == text


def test_final_summary_without_the_log_still_names_the_winner() -> None:
    play = playthrough(4, 7)
    assert play.final is not None
    screen = make_screen(play.game, "en")
    text = render(screen.final_summary(play.final.view(None)))
    assert "Final sale" not in text
    winners = play.final.winners()
    verdict = [ln for ln in text.splitlines() if ln.strip()][-1]
    assert all(NAMES[q] in verdict for q in winners)
    assert f"${max(play.final.scores())}" in verdict


def test_board_shows_the_debts() -> None:
    play = levy_game()
    screen = make_screen(play.game, "en")
    with_debt = [v for v in play.views if any(v.debts)]
    assert with_debt
    board = render(screen.board(with_debt[0]))
    for q, debt in enumerate(with_debt[0].debts):
        if debt:
            row = next(ln for ln in board.splitlines() if NAMES[q] in ln and "$" in ln)
            assert re.search(rf"\${debt}\b", row), row


def test_screen_refuses_another_games_view() -> None:
    game = load_game("card_stock_market", players=2)
    screen = make_screen(game, "en")
    with pytest.raises(TypeError):
        screen.board(load_game("take_stock", players=2).new_game(1).view(0))


def test_chinese_board_and_results_use_this_games_words() -> None:
    """Each game's words come from its own catalog: "Total" is money here (總計), points in
    Take Stock (總分), though both catalogs hold the same English word."""
    play = playthrough(2, 1)
    screen = make_screen(play.game, "zh-Hant")
    text = render(screen.board(play.views[0]))
    assert "梅花" in text and "Clubs" not in text
    assert "Your hand" not in text and "你的手牌" in text
    assert "股價" in text and "價值" not in text
    assert "（莊家）" in text
    assert play.final is not None
    final = render(screen.final_summary(play.final.view(None)))
    assert "總計" in final and "總分" not in final
