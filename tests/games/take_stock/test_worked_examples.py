"""The figures the rulebook works through, reproduced by the engine from crafted states."""

from __future__ import annotations

from closingbell.games.take_stock import cards as C

from .craft import card, craft, event, legal_names, make_game, play

CORN, GEM, OIL, TECH, MOVIE = range(5)


def test_split_example_corn_14_then_15_then_12() -> None:
    st = craft(
        make_game(3),
        current=0,
        rows={"Corn": [1, 2, 3, 5, 7]},
        splits={"Corn": 1},
        hands={0: ["Gem 2", "Gem 3"], 1: ["Gem 4", "Gem 5"]},
        saved={0: ["Split Corn"], 1: ["Split Corn"]},
    )
    assert st.prices()[CORN] == 14  # 7 x 2

    play(st, "play Split Corn", "discard Gem 2")
    assert st.rows[CORN] == [1, 2, 3, 5]
    assert st.splits[CORN] == 2
    assert st.prices()[CORN] == 15  # 5 x 3: the 7 went to the discard pile
    assert card("Corn 7") in st.discard

    assert st.current_player == 1
    play(st, "play Split Corn", "discard Gem 4")
    assert st.rows[CORN] == [1, 2, 3]
    assert st.splits[CORN] == 3
    assert st.prices()[CORN] == 12  # 3 x 4: the 5 went too
    assert card("Corn 5") in st.discard


def test_crash_example_gem_16_to_4() -> None:
    st = craft(
        make_game(3),
        current=0,
        rows={"Gem": [1, 3, 4, 7, 8]},
        splits={"Gem": 1},
        hands={0: ["Oil 2", "Oil 3"], 1: ["Gem 5", "Gem 6", "Tech 9"]},
        saved={0: ["Crash Gem"]},
    )
    assert st.prices()[GEM] == 16
    play(st, "play Crash Gem", "discard Oil 2")
    assert st.rows[GEM] == [1, 3, 4]
    assert st.splits[GEM] == 0
    assert st.prices()[GEM] == 4
    assert {card("Gem 7"), card("Gem 8")} <= set(st.discard)
    assert st.ev_discard.count(event("Split Gem")) == 1
    # The 5 and the 6, too low before the crash, may now raise Gem.
    assert st.current_player == 1
    assert {"raise Gem 5", "raise Gem 6"} <= set(legal_names(st))


def _limit_example(certificates: int) -> list[str]:
    saved_already = ["Corn 2", "Corn 3", "Corn 4", "Corn 5", "Corn 6"][:certificates]
    st = craft(
        make_game(3),
        current=0,
        rows={"Oil": [1, 3, 7], "Gem": [1, 2, 3], "Tech": [1, 4]},
        splits={"Oil": 2, "Gem": 1},
        hands={0: ["Movie 5", "Movie 9"]},
        certs={0: saved_already},
    )
    return legal_names(st)


def test_limit_example_four_certificates_may_save() -> None:
    assert {"save Movie 5", "save Movie 9"} <= set(_limit_example(4))


def test_limit_example_five_certificates_may_not() -> None:
    assert not [a for a in _limit_example(5) if a.startswith("save")]


def test_round_end_example_shoana_scores_197() -> None:
    """Shoana (seat 0), Kris (1) and Dave (2); Dave draws Market Closed."""
    st = craft(
        make_game(3),
        current=2,
        rows={
            "Corn": [1, 4, 7],
            "Gem": [1, 4, 8],
            "Oil": [1, 4, 8, 10],
            "Tech": [1, 4],
            "Movie": [1, 2],
        },
        splits={"Corn": 2, "Oil": 1, "Tech": 3},
        # Two Corn certificates of 5 shares together (3 + 2).
        certs={0: ["Corn 10", "Corn 8"], 1: ["Gem 12"], 2: ["Movie 6"]},
        hands={0: ["Oil 12", "Tech 9", "Gem 2"], 1: ["Gem 5", "Tech 6"], 2: ["Corn 3", "Movie 3"]},
        events_above=0,
    )
    assert st.prices() == [21, 8, 20, 16, 2]

    play(st, "market B", "discard Corn 3")
    assert st.end_reason == "market_closed"
    # Dave, then Shoana and Kris, in turn order from the player whose turn it was.
    assert (st.current_player, st.decision) == (2, "exercise")
    play(st, "exercise done")
    assert st.current_player == 0
    play(st, "exercise Oil 12", "exercise Tech 9", "exercise done")
    assert st.current_player == 1
    play(st, "exercise done")

    shoana = 3 * 20 + 2 * 16 + 5 * 21
    assert shoana == 197
    assert st.round_results() == [[197, 3 * 8, 2 * 2]]
    assert st.round_end_reasons() == ["market_closed"]
    assert st.scores() == [197, 24, 4]
    assert st.tokens == [2, 4, 4]
    assert C.TOTAL_TOKENS - sum(st.tokens) == st.supply == 20
    assert st.round == 2 and st.decision == "action"
