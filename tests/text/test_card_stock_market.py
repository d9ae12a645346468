"""Card Stock Market in words: every decision, action and event, and the result.

Games are played by random bots from real states, at 2 and 4 players, in both languages.
The narrator only ever gets views and the events a seat may read.
"""

from __future__ import annotations

import pytest

from closingbell.core.registry import load_game
from closingbell.games.card_stock_market import actions as A
from closingbell.games.card_stock_market import cards as C
from closingbell.games.card_stock_market.views import CardStockMarketView
from closingbell.text.card_stock_market import CardStockMarketNarrator
from closingbell.text.i18n import translations
from tests.text.csm_games import (
    CASES,
    LANG_IDS,
    NAMES,
    SEEDS,
    assert_words,
    levy_game,
    make_narrator,
    playthrough,
)


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_every_legal_action_is_described(lang: str, players: int) -> None:
    for seed in SEEDS:
        play = playthrough(players, seed)
        words = make_narrator(play.game, lang)
        for view in play.views:
            assert_words(words.prompt(view))
            assert_words(words.help(view))
            texts = [words.describe_action(view, a) for a in view.legal_actions]
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
    words = make_narrator(play.game, "en")
    seen = set()
    for view in play.views:
        for a in view.legal_actions:
            text = words.describe_action(view, a)
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
            assert words.prompt(view).startswith("Your turn")
            assert "12" in words.help(view)
    assert seen == {"buy", "sell", "bankrupt", "discard", "done"}


def test_prompt_for_a_seat_that_waits() -> None:
    play = playthrough(2, 1)
    words = make_narrator(play.game, "en")
    view = play.views[0]
    assert view.seat is not None
    other = play.states[0].view(1 - view.seat)
    assert words.prompt(other) == f"Waiting for {NAMES[view.seat]} to play."
    assert words.prompt(play.states[0].view(None)).startswith("Waiting for")


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_every_visible_event_reads_as_a_line_or_nothing(lang: str, players: int) -> None:
    for seed in SEEDS:
        play = playthrough(players, seed)
        assert play.final is not None
        described: set[str] = set()
        for seat in [*range(players), None]:
            words = make_narrator(play.game, lang)
            for event in play.final.visible_events(seat):
                text = words.describe_event(event)
                if text is not None:
                    assert_words(text)
                    described.add(event["type"])
        assert {"setup", "buy", "market", "draw", "reshuffle", "joker", "game_over"} <= described


def test_event_lines_name_the_player_and_the_money() -> None:
    play = playthrough(4, 1)
    assert play.final is not None
    words = make_narrator(play.game, "en")
    events = play.final.visible_events(0)
    for event in events:
        text = words.describe_event(event)
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
            assert event["cards"] is None
            assert text.endswith(
                f"draws {event['count']} card" + ("" if event["count"] == 1 else "s")
            )
        elif kind == "joker":
            assert text is not None and text.startswith(f"{NAMES[event['seat']]} draws a joker")
        elif kind == "end_turn":
            assert text is None


def test_levies_and_debts_are_described() -> None:
    """A bank with no money of its own must levy on the first sale it cannot pay."""
    play = levy_game()
    assert play.final is not None
    events = play.final.visible_events(None)
    for lang in LANG_IDS:
        words = make_narrator(play.game, lang)
        for event in events:
            if event["type"] in ("levy", "repay"):
                text = words.describe_event(event)
                assert_words(text)
                assert "$" in str(text)
    words = make_narrator(play.game, "en")
    levy = next(e for e in events if e["type"] == "levy")
    text = words.describe_event(levy)
    assert text is not None and text.startswith(
        "The bank cannot pay: every player pays a levy of $100"
    )
    for q, owed in enumerate(levy["owed"]):
        if owed:
            assert f"{NAMES[q]} owes ${owed}" in text
    trading = [v for v in play.views if v.decision == "trading"]
    assert trading and "$100" in words.help(trading[0])


@pytest.mark.parametrize(("lang", "players"), CASES)
def test_the_final_result_names_the_winner_and_counts_the_final_sale(
    lang: str, players: int
) -> None:
    tr = translations(lang, "card_stock_market")
    for seed in SEEDS:
        play = playthrough(players, seed)
        final = play.final
        assert final is not None
        words = make_narrator(play.game, lang)
        events = final.visible_events(0)
        for event in events:
            words.describe_event(event)
        view = final.view(0)
        result = words.final_result(view)
        assert list(result.scores) == final.scores()
        assert list(result.winners) == final.winners()
        proceeds = [0] * players
        for event in events:
            if event["type"] == "final_sale":
                proceeds[event["seat"]] += event["paid"]
        assert result.final_sales == tuple(proceeds)
        assert [c - d for c, d in zip(result.cash, result.debts, strict=True)] == final.scores()
        names = words.join([NAMES[q] for q in result.winners])
        if len(result.winners) == 1:
            verdict = tr.gettext("{names} wins with ${score}.")
        else:
            verdict = tr.gettext("{names} share the win with ${score}.")
        assert result.verdict == verdict.format(names=names, score=max(final.scores()))
        assert result.closing is not None and NAMES[final.view(None).joker_drawn_by] in (
            result.closing
        )
        # Events read twice (a second seat's log) do not count the final sale twice.
        for event in events:
            words.describe_event(event)
        assert words.final_result(view) == result


def test_the_final_result_without_the_log_has_no_final_sale() -> None:
    play = playthrough(4, 7)
    assert play.final is not None
    result = make_narrator(play.game, "en").final_result(play.final.view(None))
    assert result.final_sales is None
    assert all(NAMES[q] in result.verdict for q in result.winners)
    assert f"${max(play.final.scores())}" in result.verdict


def test_the_vocabulary_names_every_card_and_suit() -> None:
    game = playthrough(2, 1).game
    en = make_narrator(game, "en").vocabulary()
    zh = make_narrator(game, "zh-Hant").vocabulary()
    assert en["suits"] == ["Clubs", "Diamonds", "Hearts", "Spades"]
    assert zh["suits"] == ["梅花", "方塊", "紅心", "黑桃"]
    assert len(en["cards"]) == C.JOKER + 1
    assert en["cards"][C.JOKER] == "Joker" and zh["cards"][C.JOKER] == "鬼牌"


def test_narrator_refuses_another_game_or_view() -> None:
    take_stock = load_game("take_stock", players=2)
    with pytest.raises(TypeError):
        CardStockMarketNarrator(take_stock, NAMES[:2], "en")
    game = load_game("card_stock_market", players=2)
    with pytest.raises(ValueError, match="names"):
        CardStockMarketNarrator(game, NAMES[:3], "en")
    words = CardStockMarketNarrator(game, NAMES[:2], "en")
    with pytest.raises(TypeError):
        words.prompt(take_stock.new_game(1).view(0))
