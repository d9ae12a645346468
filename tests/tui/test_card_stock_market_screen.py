"""The Card Stock Market terminal screen: what it shows, what it hides, and its catalogs.

Games are played by random bots from real states, at 2 and 4 players, in both languages.
The screen only ever gets views and the events a seat may read.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from rich.console import Console, RenderableType

import closingbell.tui.card_stock_market as screen_module
from closingbell.bots import make_bot
from closingbell.core.registry import load_game
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.game import CardStockMarket
from closingbell.games.card_stock_market.state import CardStockMarketState
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.tui.card_stock_market import CardStockMarketScreen
from closingbell.tui.i18n import LANGS, LOCALE_DIR, translations

NAMES = ("Alice", "Boris", "Chen", "Dana", "Emeka", "Farid")
LANG_IDS = list(LANGS)
PLAYER_COUNTS = (2, 4)
SEEDS = (1, 7)
PLACEHOLDER = re.compile(r"\{([A-Za-z_]*)[^{}]*\}")


# ---------------------------------------------------------------------- helpers


@dataclass
class Playthrough:
    """One game played to the end by random bots: every decision's view and the end."""

    game: CardStockMarket
    views: list[CardStockMarketView] = field(default_factory=list)
    """The deciding seat's view before each action."""
    states: list[CardStockMarketState] = field(default_factory=list)
    """A copy of the state at each of those decisions (to look at the hidden hands)."""
    final: CardStockMarketState | None = None


@cache
def playthrough(players: int, seed: int, **options: Any) -> Playthrough:
    """A whole game of random bots (cached: several tests read the same games)."""
    game = load_game("card_stock_market", players=players, **options)
    assert isinstance(game, CardStockMarket)
    bots = [make_bot("random", game, seed=seed * 10 + q) for q in range(players)]
    state = game.new_game(seed)
    assert isinstance(state, CardStockMarketState)
    out = Playthrough(game)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        out.views.append(view)
        out.states.append(state.clone())
        state.apply(bots[seat].choose(view))
    out.final = state
    return out


def make_screen(game: CardStockMarket, lang: str) -> CardStockMarketScreen:
    return CardStockMarketScreen(game, NAMES[: game.options.players], translations(lang))


def render(renderable: RenderableType) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(renderable)
    return buffer.getvalue()


def sampled(items: list[Any], every: int) -> list[Any]:
    """Every ``every``-th item and the last (rendering every decision is not needed)."""
    return items[::every] + items[-1:]


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


def assert_words(text: str | None) -> None:
    assert isinstance(text, str) and text.strip(), text
    assert "{" not in text and "}" not in text, f"unfilled placeholder in {text!r}"


CASES = [
    pytest.param(lang, players, id=f"{lang}-{players}p")
    for lang in LANG_IDS
    for players in PLAYER_COUNTS
]


# ---------------------------------------------------------------------- the board


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_board_shows_the_table_and_only_the_own_hand(lang: str, players: int) -> None:
    tr = translations(lang)
    label = tr.gettext("Your hand:")
    for seed in SEEDS:
        play = playthrough(players, seed)
        screen = make_screen(play.game, lang)
        for view, state in sampled(list(zip(play.views, play.states, strict=True)), 5):
            text = render(screen.board(view))
            lines = text.splitlines()
            # The market: each suit's row shows its price and its top card.
            for s, market in enumerate(view.suits):
                row = [ln for ln in lines if f"{C.SUIT_SYMBOLS[s]} {screen._suit(s)}" in ln]
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
    tr = translations(lang)
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


# ---------------------------------------------------------------------- decisions


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_every_legal_action_is_described(lang: str, players: int) -> None:
    for seed in SEEDS:
        play = playthrough(players, seed)
        screen = make_screen(play.game, lang)
        for view in play.views:
            assert_words(screen.prompt(view))
            assert_words(screen.help(view))
            texts = [screen.describe_action(view, a) for a in view.legal_actions]
            for action, text in zip(view.legal_actions, texts, strict=True):
                assert_words(text)
                assert_figures(view, action, text)
            assert len(set(texts)) == len(texts), "each action reads differently"


def assert_figures(view: CardStockMarketView, action: int, text: str) -> None:
    """The money and prices a description names are the rules' own figures."""
    if action < A.MARKET:
        card = action % C.NUM_KINDS
        amount = C.SHARES[card] * view.suits[C.suit_of(card)].price
        assert C.card_symbol(card) in text
        assert f"${amount}" in text
    elif action < A.BANKRUPT:
        card = action - A.MARKET
        rank = C.rank_of(card)
        price = C.FACE_PRICE[rank - 1] if C.is_face(card) else rank
        assert f"${price}" in text
        assert f"{price - view.suits[C.suit_of(card)].price:+d}" in text
    elif action < A.DISCARD:
        assert C.card_symbol(A.bankrupt_card(action)) in text
        assert "$0" in text
    elif action < A.DONE:
        assert C.card_symbol(action - A.DISCARD) in text


def test_english_descriptions_read_as_intended() -> None:
    play = playthrough(4, 7)
    screen = make_screen(play.game, "en")
    seen = set()
    for view in play.views:
        for a in view.legal_actions:
            text = screen.describe_action(view, a)
            if a < A.SELL:
                s = C.suit_of(a)
                shares = C.SHARES[a]
                word = "share" if shares == 1 else "shares"
                cost = shares * view.suits[s].price
                assert text.startswith(
                    f"Buy {C.card_symbol(a)}: {shares} {word} of {C.SUITS[s]} for ${cost}"
                )
                seen.add("buy")
            elif a < A.MARKET:
                assert text.startswith(f"Sell {C.card_symbol(a - A.SELL)} (")
                seen.add("sell")
            elif A.BANKRUPT <= a < A.DISCARD:
                suit = C.SUITS[C.suit_of(A.bankrupt_card(a))]
                assert text.startswith(f"Declare {suit} bankrupt")
                seen.add("bankrupt")
            elif A.DISCARD <= a < A.DONE:
                assert text.startswith(f"Discard {C.card_symbol(a - A.DISCARD)}")
                seen.add("discard")
            elif a == A.DONE:
                assert text.startswith("End your turn")
                seen.add("done")
        if view.decision == "turn":
            assert screen.prompt(view).startswith("Your turn")
            assert "12" in screen.help(view)
    assert seen == {"buy", "sell", "bankrupt", "discard", "done"}


def test_prompt_for_a_seat_that_waits() -> None:
    play = playthrough(2, 1)
    screen = make_screen(play.game, "en")
    view = play.views[0]
    assert view.seat is not None
    other = play.states[0].view(1 - view.seat)
    assert screen.prompt(other) == f"Waiting for {NAMES[view.seat]} to play."
    assert screen.prompt(play.states[0].view(None)).startswith("Waiting for")


# ---------------------------------------------------------------------- the log


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_every_visible_event_reads_as_a_line_or_nothing(lang: str, players: int) -> None:
    for seed in SEEDS:
        play = playthrough(players, seed)
        assert play.final is not None
        described: set[str] = set()
        for seat in [*range(players), None]:
            screen = make_screen(play.game, lang)
            for event in play.final.visible_events(seat):
                text = screen.describe_event(event)
                if text is not None:
                    assert_words(text)
                    described.add(event["type"])
        assert {"setup", "buy", "market", "draw", "reshuffle", "joker", "game_over"} <= described


def test_event_lines_name_the_player_and_the_money() -> None:
    play = playthrough(4, 1)
    assert play.final is not None
    screen = make_screen(play.game, "en")
    events = play.final.visible_events(0)
    for event in events:
        text = screen.describe_event(event)
        kind = event["type"]
        if kind == "buy":
            name = NAMES[event["seat"]]
            card = C.card_symbol(event["card"])
            assert text == f"{name} buys {card} at ${event['price']}: pays ${event['cost']}"
        elif kind == "deal":
            own = event["seat"] == 0
            assert (text is not None) == own
            if own:
                assert text == f"{NAMES[0]} is dealt " + " ".join(
                    C.card_symbol(c) for c in event["cards"]
                )
        elif kind == "draw" and event["seat"] != 0:
            assert text is not None and text.startswith(f"{NAMES[event['seat']]} draws ")
            assert text.endswith("card" if event["cards"] == 1 else "cards")
        elif kind == "joker":
            assert text is not None and text.startswith(f"{NAMES[event['seat']]} draws a joker")
        elif kind == "end_turn":
            assert text is None


def test_levies_and_debts_are_described() -> None:
    """A bank with no money of its own must levy on the first sale it cannot pay."""
    options = {"bank_money": 0, "starting_money": 100}
    for seed in range(40):
        play = playthrough(2, seed, **options)
        assert play.final is not None
        events = play.final.visible_events(None)
        kinds = {e["type"] for e in events}
        if {"levy", "repay"} <= kinds:
            break
    else:
        pytest.fail("no random game with a levy and a repayment")
    for lang in LANG_IDS:
        screen = make_screen(play.game, lang)
        for event in events:
            if event["type"] in ("levy", "repay"):
                text = screen.describe_event(event)
                assert_words(text)
                assert "$" in str(text)
    screen = make_screen(play.game, "en")
    levy = next(e for e in events if e["type"] == "levy")
    text = screen.describe_event(levy)
    assert text is not None and text.startswith(
        "The bank cannot pay: every player pays a levy of $100"
    )
    for q, owed in enumerate(levy["owed"]):
        if owed:
            assert f"{NAMES[q]} owes ${owed}" in text
    # The board and the help show the debts and the levy rule.
    with_debt = [v for v in play.views if any(v.debts)]
    if with_debt:
        board = render(screen.board(with_debt[0]))
        for q, debt in enumerate(with_debt[0].debts):
            if debt:
                row = next(ln for ln in board.splitlines() if NAMES[q] in ln and "$" in ln)
                assert re.search(rf"\${debt}\b", row), row
    trading = [v for v in play.views if v.decision == "trading"]
    assert trading and "$100" in screen.help(trading[0])


def test_round_summary_is_none() -> None:
    play = playthrough(2, 1)
    screen = make_screen(play.game, "en")
    assert play.final is not None
    for event in play.final.visible_events(0):
        assert screen.round_summary(play.views[-1], event) is None


# ---------------------------------------------------------------------- the end


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_final_summary_names_the_winner(lang: str, players: int) -> None:
    tr = translations(lang)
    for seed in SEEDS:
        play = playthrough(players, seed)
        final = play.final
        assert final is not None
        screen = make_screen(play.game, lang)
        events = final.visible_events(0)
        for event in events:
            screen.describe_event(event)
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
        names = screen._join([NAMES[q] for q in winners])
        if len(winners) == 1:
            verdict = tr.gettext("{names} wins with ${score}.")
        else:
            verdict = tr.gettext("{names} share the win with ${score}.")
        assert verdict.format(names=names, score=max(scores)) in text
        # Events read twice (a second seat's log) do not count the final sale twice.
        for event in events:
            screen.describe_event(event)
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


# ---------------------------------------------------------------------- construction


def test_screen_refuses_another_game_or_view() -> None:
    take_stock = load_game("take_stock", players=2)
    with pytest.raises(TypeError):
        CardStockMarketScreen(take_stock, NAMES[:2], translations("en"))
    game = load_game("card_stock_market", players=2)
    with pytest.raises(ValueError, match="names"):
        CardStockMarketScreen(game, NAMES[:3], translations("en"))
    screen = CardStockMarketScreen(game, NAMES[:2], translations("en"))
    with pytest.raises(TypeError):
        screen.board(take_stock.new_game(1).view(0))


# ---------------------------------------------------------------------- the catalogs


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _extracted() -> dict[str | tuple[str, ...], int]:
    path = Path(screen_module.__file__)
    out: dict[str | tuple[str, ...], int] = {}
    for lineno, message, _comments, _context in extract_from_file("python", str(path)):
        out[message] = lineno
    return out


def test_the_module_has_messages_to_translate() -> None:
    messages = _extracted()
    assert len(messages) > 80
    assert "Clubs" in messages
    assert any(isinstance(m, tuple) for m in messages)


@pytest.mark.parametrize("lang", LANG_IDS)
def test_catalog_translates_every_message(lang: str) -> None:
    path = LOCALE_DIR / LANGS[lang] / "LC_MESSAGES" / "card_stock_market.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGS[lang], domain="card_stock_market")
    assert catalog.charset.lower() == "utf-8"
    assert catalog.num_plurals == (2 if lang == "en" else 1)
    for message, lineno in _extracted().items():
        entry = catalog.get(message)
        where = f"{message!r} (line {lineno})"
        assert entry is not None, f"{lang}: missing {where}"
        assert not entry.fuzzy, f"{lang}: fuzzy {where}"
        if isinstance(message, tuple):
            assert isinstance(entry.string, tuple), where
            forms = list(entry.string)
            assert len(forms) == catalog.num_plurals, where
            wanted = _placeholders(message[0]) | _placeholders(message[1])
        else:
            assert isinstance(entry.string, str), where
            forms = [entry.string]
            wanted = _placeholders(message)
        for form in forms:
            assert isinstance(form, str) and form.strip(), f"{lang}: untranslated {where}"
            assert _placeholders(form) == wanted, f"{lang}: placeholders of {where}: {form!r}"


def test_catalogs_load_and_translate() -> None:
    tr = translations("zh-Hant")
    assert tr.gettext("Clubs") == "梅花"
    assert tr.gettext("Spades") == "黑桃"
    assert "{count}" in tr.ngettext("{count} levy so far", "{count} levies so far", 2)
    play = playthrough(2, 1)
    screen = make_screen(play.game, "zh-Hant")
    text = render(screen.board(play.views[0]))
    assert "梅花" in text and "Clubs" not in text
    assert "Your hand" not in text and "你的手牌" in text
