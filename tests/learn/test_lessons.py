"""The guided first games: each lesson fires at its moment in the fixed deal, once, with
words in both languages; the same deal and choices give the same game."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from closingbell.core.game import State
from closingbell.core.view import View
from closingbell.learn import (
    Fired,
    Guide,
    Lesson,
    Step,
    Tutorial,
    available_tutorials,
    play_through,
    scripted,
    tutorial,
)
from closingbell.learn import take_stock as ts_lessons
from closingbell.text.games import narrator_for
from closingbell.text.i18n import LANGS
from closingbell.text.lessons import lesson_words
from closingbell.text.names import player_names

GAMES = ("take_stock", "card_stock_market")
CJK = re.compile("[\u3400-\u9fff]")


def scripted_game(t: Tutorial) -> list[Step]:
    return list(play_through(t, scripted(t)))


def fired_at(steps: list[Step]) -> dict[str, tuple[Step, Fired]]:
    """Each lesson with the step that fired it."""
    out: dict[str, tuple[Step, Fired]] = {}
    for step in steps:
        for fired in step.fired:
            assert fired.lesson not in out, f"{fired.lesson} fired twice"
            out[fired.lesson] = (step, fired)
    return out


@pytest.fixture(scope="module", params=GAMES)
def game_steps(request: pytest.FixtureRequest) -> tuple[Tutorial, list[Step]]:
    t = tutorial(request.param)
    return t, scripted_game(t)


def test_both_games_have_a_guided_game() -> None:
    assert available_tutorials() == list(GAMES)
    with pytest.raises(KeyError, match="no guided game"):
        tutorial("chess")


def test_the_script_plays_the_deal_to_its_end(game_steps: tuple[Tutorial, list[Step]]) -> None:
    t, steps = game_steps
    learner_steps = [s for s in steps if s.seat == t.seat]
    assert [s.action for s in learner_steps] == list(t.script)  # every choice was used
    state = t.new_game()
    for step in steps[1:]:
        assert step.action is not None
        state.apply(state.game.string_to_action(step.action))
    assert state.is_terminal()


def test_every_lesson_fires_once_in_the_scripted_game(
    game_steps: tuple[Tutorial, list[Step]],
) -> None:
    t, steps = game_steps
    fired = fired_at(steps)
    assert set(fired) == set(t.lesson_ids)
    # After one action: the lessons fired by events, by event and then in the tutorial's
    # order, then those the view fired, in the tutorial's order.
    for step in steps:
        keys = [
            (len(step.fired) if f.event is None else f.event, t.lesson_ids.index(f.lesson))
            for f in step.fired
        ]
        assert keys == sorted(keys)


def test_the_same_deal_and_choices_give_the_same_game(
    game_steps: tuple[Tutorial, list[Step]],
) -> None:
    t, steps = game_steps
    assert scripted_game(t) == steps


def test_the_first_lesson_comes_at_the_learners_first_decision(
    game_steps: tuple[Tutorial, list[Step]],
) -> None:
    _t, steps = game_steps
    step, fired = fired_at(steps)["welcome"]
    # The learner plays first: the welcome comes with the deal.
    assert step.ply == 0 and fired.event is None


# ------------------------------------------------------------------ Take Stock's moments


@pytest.fixture(scope="module")
def take_stock() -> tuple[Tutorial, dict[str, tuple[Step, Fired]]]:
    t = tutorial("take_stock")
    return t, fired_at(scripted_game(t))


def test_take_stock_first_raise_fires_on_the_learners_raise(
    take_stock: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    t, fired = take_stock
    step, f = fired["first_raise"]
    assert step.seat == t.seat and step.action == "raise Corn 5"
    # Corn stood at 1: nobody had raised it before.
    assert dict(f.fields) == {"stock": 0, "value": 5, "before": 1}
    assert f.event is not None


def test_take_stock_certificate_fires_on_the_learners_first_save(
    take_stock: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    t, fired = take_stock
    step, f = fired["certificate"]
    assert step.seat == t.seat and step.action == "save Corn 11"
    assert dict(f.fields) == {"card": 10}


def test_take_stock_limit_fires_when_saving_is_refused(
    take_stock: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    t, fired = take_stock
    step, f = fired["limit"]
    # At the learner's next turn after their first certificate, no row has grown yet.
    assert dict(f.fields) == {"count": 1, "limit": 1}
    assert f.event is None
    state = replay_to(t, step.ply)
    assert state.current_player == t.seat and state.decision == "action"
    assert not [a for a in state.legal_actions() if 60 <= a < 120]  # no save is legal


def test_take_stock_event_fires_when_the_first_event_takes_effect(
    take_stock: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    _t, fired = take_stock
    step, f = fired["event"]
    # Seat 3 played the market and chose a Stock Split of Movie, before the learner did.
    assert step.seat == 2 and step.action == "choose Split Movie"
    assert dict(f.fields) == {"how": "chose", "who": 2, "event": 4}
    assert f.event is not None


def test_take_stock_event_fires_when_the_learner_draws_two_first() -> None:
    """With a deal in which the learner plays the market first, the view fires the lesson."""
    t = dataclasses.replace(
        tutorial("take_stock"), script=("market A", "discard Gem 11", "choose Split Oil")
    )
    learner = scripted(t)
    for step in play_through(t, learner):
        if step.fired and step.fired[0].lesson == "event":
            break
    else:
        raise AssertionError("the event lesson did not fire")
    f = step.fired[0]
    assert step.seat == t.seat and step.action == "discard Gem 11"
    assert f.fields["how"] == "drew" and len(f.fields["events"]) == 2 and f.event is None


def test_take_stock_round_end_and_scoring_fire_on_the_first_round(
    take_stock: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    _t, fired = take_stock
    end_step, end = fired["round_end"]
    score_step, score = fired["scoring"]
    assert end.fields["round"] == 1 and score.fields["round"] == 1
    assert end.fields["reason"] in {"market_closed", "high_card", "empty_hand", "no_cards"}
    assert score_step.ply > end_step.ply  # options were exercised in between
    assert score.fields["last"] is False
    assert score.fields["total"] == score.fields["points"]


def test_take_stock_event_fires_on_a_bots_event_too() -> None:
    """A moment that comes from another seat fires the lesson as well."""
    t = tutorial("take_stock")
    guide = Guide(t)
    state = t.new_game()
    view = state.view(t.seat)
    fired = guide.observe(view, [{"type": "choose", "seat": 1, "event": 3}])
    assert [(f.lesson, dict(f.fields), f.event) for f in fired] == [
        ("event", {"how": "chose", "who": 1, "event": 3}, 0),
        ("welcome", {"rounds": 2, "players": 3}, None),
    ]
    assert guide.shown == ["event", "welcome"]
    assert guide.observe(view, [{"type": "choose", "seat": 2, "event": 4}]) == []


def replay_to(t: Tutorial, ply: int) -> State:
    """The scripted game's state after ``ply`` actions."""
    steps = scripted_game(t)
    state = t.new_game()
    for step in steps[1 : ply + 1]:
        assert step.action is not None
        state.apply(state.game.string_to_action(step.action))
    return state


# ------------------------------------------------------------------ Card Stock Market's moments


@pytest.fixture(scope="module")
def market() -> tuple[Tutorial, dict[str, tuple[Step, Fired]]]:
    t = tutorial("card_stock_market")
    return t, fired_at(scripted_game(t))


def test_market_purchase_fires_on_the_learners_first_buy(
    market: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    t, fired = market
    step, f = fired["purchase"]
    assert step.seat == t.seat and step.action == "buy 9H"
    assert f.fields["shares"] == 9
    assert f.fields["cost"] == 9 * f.fields["price"]


def test_market_change_face_card_and_sale_fire_on_anyones_play(
    market: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    _t, fired = market
    _step, change = fired["market_change"]
    assert change.fields["price"] != change.fields["before"]
    assert abs(change.fields["price"] - change.fields["before"]) <= 3 or change.fields[
        "before"
    ] in (0, 11, 12, 13)
    _step, face = fired["face_card"]
    assert face.fields["how"] in {"raise", "bankrupt"}
    assert face.fields["card"] % 13 >= 10
    _step, sold = fired["sale"]
    assert sold.fields["paid"] >= 0


def test_market_bank_short_fires_on_a_levy_during_play(
    market: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    t, fired = market
    short_step, short = fired["bank_short"]
    end_step, _end = fired["game_end"]
    assert short_step.ply < end_step.ply  # during the game, not at its final sale
    assert short.fields["levy"] == 100
    assert short_step.action is not None and short_step.action.startswith("sell")
    assert t.options["bank_money"] < 1240


def test_market_reshuffle_comes_before_the_joker(
    market: tuple[Tutorial, dict[str, tuple[Step, Fired]]],
) -> None:
    _t, fired = market
    reshuffle_step, _r = fired["reshuffle"]
    end_step, end = fired["game_end"]
    assert reshuffle_step.ply <= end_step.ply
    assert end.fields["who"] in (0, 1, 2)


# ------------------------------------------------------------------ free play and summaries


def first_choice(state: State, view: View) -> int:
    legal: tuple[int, ...] = getattr(view, "legal_actions", ())
    return legal[0]


def test_lessons_whose_moment_never_comes_are_missed() -> None:
    """A learner who always takes the first choice raises and never keeps a certificate."""
    t = tutorial("take_stock")
    guide_ids = [f.lesson for step in play_through(t, first_choice) for f in step.fired]
    missed = [i for i in t.lesson_ids if i not in guide_ids]
    assert "certificate" in missed and "limit" in missed
    assert "first_raise" in guide_ids and "scoring" in guide_ids


def test_guide_missed_lists_lessons_not_yet_fired_in_order() -> None:
    t = tutorial("card_stock_market")
    guide = Guide(t)
    assert guide.missed() == list(t.lesson_ids)
    state = t.new_game()
    fired = guide.observe(state.view(t.seat), state.visible_events(t.seat))
    assert [f.lesson for f in fired] == ["welcome"]
    assert guide.missed() == list(t.lesson_ids[1:])


def test_a_tutorial_is_checked() -> None:
    t = tutorial("take_stock")
    with pytest.raises(ValueError, match="one learner"):
        dataclasses.replace(t, seats=("medium", "medium", "medium"))
    with pytest.raises(ValueError, match="players"):
        dataclasses.replace(t, seats=("you", "medium"))
    with pytest.raises(ValueError, match="differ"):
        dataclasses.replace(t, lessons=(Lesson("a"), Lesson("a")))
    assert t.lesson("limit").on_view is ts_lessons.limit_rule
    with pytest.raises(KeyError):
        t.lesson("nothing")


# ------------------------------------------------------------------ words


def every_fired(t: Tutorial) -> Iterator[Fired]:
    for step in scripted_game(t):
        yield from step.fired


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("game_name", GAMES)
def test_every_lesson_has_words_in_both_languages(game_name: str, lang: str) -> None:
    t = tutorial(game_name)
    game = t.load()
    narrator = narrator_for(game, player_names(t.seats, lang), lang)
    assert narrator is not None
    words = lesson_words(narrator, t.seat)
    assert set(words.ids()) == set(t.lesson_ids)
    english = lesson_words(narrator_for(game, player_names(t.seats, "en"), "en"), t.seat)  # type: ignore[arg-type]
    for fired in every_fired(t):
        told = words.tell(fired.lesson, fired.fields)
        assert told.title and told.explanation and told.happened
        assert "{" not in told.happened + told.explanation
        summary = words.summary(fired.lesson)
        assert summary.happened is None and summary.explanation == told.explanation
        if lang == "zh-Hant":
            for text in (told.title, told.happened, told.explanation):
                assert CJK.search(text), text
            assert told.title != english.summary(fired.lesson).title


def test_lesson_words_name_things_as_the_narrator_does() -> None:
    t = tutorial("take_stock")
    game = t.load()
    for lang, corn in (("en", "Corn"), ("zh-Hant", "玉米")):
        narrator = narrator_for(game, player_names(t.seats, lang), lang)
        assert narrator is not None
        told = lesson_words(narrator, t.seat).tell(
            "first_raise", {"stock": 0, "value": 5, "before": 1}
        )
        assert told.happened is not None and corn in told.happened and "5" in told.happened


def test_every_kind_of_moment_has_words() -> None:
    """Fields the scripted games do not reach (a bot's event, a loss to a bankruptcy, a
    debt) still have their sentence."""
    checks: dict[str, list[tuple[str, dict[str, Any]]]] = {
        "take_stock": [
            ("event", {"how": "chose", "who": 1, "event": 3}),
            ("event", {"how": "played", "who": 2, "event": 16}),
            ("event", {"how": "chose", "who": 0, "event": 3}),
            ("event", {"how": "played", "who": 0, "event": 16}),
            ("scoring", {"round": 2, "points": 10, "total": 30, "last": True}),
        ],
        "card_stock_market": [
            ("face_card", {"how": "bankrupt", "who": 1, "card": 11, "suit": 0, "count": 4}),
            ("face_card", {"how": "bankrupt", "who": 1, "card": 11, "suit": 0, "count": 0}),
            ("face_card", {"how": "raise", "who": 2, "card": 12, "suit": 0, "price": 13}),
            ("face_card", {"how": "bankrupt", "who": 0, "card": 11, "suit": 0, "count": 4}),
            ("face_card", {"how": "bankrupt", "who": 0, "card": 11, "suit": 0, "count": 0}),
            ("face_card", {"how": "raise", "who": 0, "card": 12, "suit": 0, "price": 13}),
            ("market_change", {"who": 1, "card": 3, "suit": 0, "before": 2, "price": 4}),
            ("market_change", {"who": 0, "card": 3, "suit": 0, "before": 2, "price": 4}),
            ("sale", {"who": 1, "card": 3, "paid": 8}),
            ("sale", {"who": 0, "card": 3, "paid": 8}),
            ("game_end", {"who": 1}),
            ("game_end", {"who": 0}),
            ("bank_short", {"levy": 100, "owed": 40}),
            ("bank_short", {"levy": 100, "owed": 0}),
        ],
    }
    for game_name, cases in checks.items():
        t = tutorial(game_name)
        for lang in LANGS:
            narrator = narrator_for(t.load(), player_names(t.seats, lang), lang)
            assert narrator is not None
            words = lesson_words(narrator, t.seat)
            texts = {words.tell(lesson, fields).happened for lesson, fields in cases}
            assert len(texts) == len(cases)  # each case says something of its own
            assert all(text and "{" not in text for text in texts)
            if lang == "en":
                mine = [words.tell(lesson, f).happened for lesson, f in cases if f.get("who") == 0]
                assert all(text and text.startswith("You ") for text in mine)


def test_the_practice_bank_is_explained_only_when_it_is_small() -> None:
    t = tutorial("card_stock_market")
    for bank, said in ((t.options["bank_money"], True), (1240, False)):
        game = dataclasses.replace(t, options={**t.options, "bank_money": bank}).load()
        narrator = narrator_for(game, player_names(t.seats, "en"), "en")
        assert narrator is not None
        text = lesson_words(narrator, t.seat).summary("bank_short").explanation
        assert ("practice game" in text) is said
        assert "$100" in text
        assert ("$1,240" in text) is said
