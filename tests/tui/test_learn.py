"""The guided first game at the terminal, run in-process: lessons where their moments come,
the summary of those that did not, the hint on what next, saving and resuming."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from closingbell.core.records import GameRecord, replay
from closingbell.core.view import View
from closingbell.learn import Fired, Guide, play_through, scripted, tutorial
from closingbell.text.games import narrator_for
from closingbell.text.i18n import LANGS
from closingbell.text.lessons import lesson_words
from closingbell.text.names import player_names
from closingbell.tui.app import play
from closingbell.tui.learn import learn

GAMES = ("take_stock", "card_stock_market")


def _reader(
    console: Console, answers: Iterator[str], *, then: Callable[[Text], str] | None = None
) -> Callable[[Text], str]:
    """Enter at every pause, the next answer at every decision; then ``then`` (or EOF)."""

    def read(prompt: Text) -> str:
        console.print(prompt, end="")
        if "Enter" in prompt.plain:
            line = ""
        else:
            answer = next(answers, None)
            if answer is None:
                if then is None:
                    raise EOFError
                answer = then(prompt)
            line = answer
        console.print(line, markup=False, highlight=False)
        return line

    return read


def _run(answers: list[str], **kwargs: object) -> tuple[int, str]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    read = _reader(console, iter(answers))
    rc = learn(console=console, read_line=read, **kwargs)  # type: ignore[arg-type]
    return rc, out.getvalue()


def _titles(game_name: str, lang: str) -> dict[str, str]:
    t = tutorial(game_name)
    narrator = narrator_for(t.load(), player_names(t.seats, lang), lang)
    assert narrator is not None
    words = lesson_words(narrator, t.seat)
    return {lesson: words.summary(lesson).title for lesson in t.lesson_ids}


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("game_name", GAMES)
def test_the_scripted_game_shows_every_lesson_once_and_ends_with_what_next(
    tmp_path: Path, game_name: str, lang: str
) -> None:
    t = tutorial(game_name)
    path = tmp_path / "g.cbrec"
    rc, text = _run(list(t.script), game_name=game_name, lang=lang, save=str(path))
    assert rc == 0
    lesson = "Lesson: {title}" if lang == "en" else "教學：{title}"
    titles = _titles(game_name, lang)
    where = []
    for lesson_id in t.lesson_ids:
        heading = lesson.format(title=titles[lesson_id])
        assert text.count(heading) == 1, heading
        where.append(text.index(heading))
    fired = [f.lesson for step in play_through(t, scripted(t)) for f in step.fired]
    assert [i for _, i in sorted(zip(where, t.lesson_ids, strict=True))] == fired
    # Nothing left for the summary: every moment came.
    assert "What this game did not show" not in text and "本局沒機會出現的教學" not in text
    last = text.rstrip().splitlines()[-1]
    if lang == "en":
        assert last == (
            "What to try next: a whole game against the bots, with "
            f"closingbell play --game {game_name}"
        )
    else:
        assert last.endswith(f"closingbell play --game {game_name} --lang zh-Hant")
    final = {"en": ("Final scores", "Final result"), "zh-Hant": ("最終得分", "最終結果")}[lang]
    assert final[GAMES.index(game_name)] in text
    # The record is the game play_through plays: the bots chose as the tutorial says.
    record = GameRecord.read(path)
    assert t.deals(record)
    assert record.result is not None
    expected = [s.action for s in play_through(t, scripted(t)) if s.action is not None]
    assert [a.text for a in record.actions] == expected
    assert replay(record).is_terminal()


def test_lessons_whose_moment_never_came_are_summed_up_at_the_end(tmp_path: Path) -> None:
    """Taking the first choice every time, a learner raises and never keeps a certificate."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    read = _reader(console, iter(()), then=lambda prompt: "1")
    rc = learn(console=console, read_line=read, save=str(tmp_path / "g.cbrec"))
    assert rc == 0
    text = out.getvalue()
    summary = text[text.index("What this game did not show") :]
    titles = _titles("take_stock", "en")
    assert titles["certificate"] in summary and titles["limit"] in summary
    assert titles["first_raise"] not in summary
    assert "Lesson: Raising a price" in text[: text.index("What this game did not show")]
    assert summary.rstrip().endswith("closingbell play --game take_stock")


def test_a_guided_game_is_quit_and_resumed_with_its_lessons(tmp_path: Path) -> None:
    t = tutorial("take_stock")
    path = tmp_path / "g.cbrec"
    rc, first = _run([*t.script[:5], "q"], save=str(path))
    assert rc == 0
    assert f"closingbell learn --resume {path}" in first
    assert "Lesson: Raising a price" in first
    stopped = GameRecord.read(path)
    assert stopped.result is None and t.deals(stopped)

    rc, second = _run(list(t.script[5:]), resume=str(path))
    assert rc == 0
    assert "Resumed from" in second
    # Lessons shown before the pause are not shown again; the others come in their turn.
    assert "Lesson: Raising a price" not in second
    assert "Lesson: The end of a round" in second and "Lesson: Scoring" in second
    assert "What this game did not show" not in second
    finished = GameRecord.read(path)
    assert finished.result is not None
    assert [a.text for a in finished.actions] == [
        s.action for s in play_through(t, scripted(t)) if s.action is not None
    ]


def test_a_game_that_is_not_a_guided_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.cbrec"
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    lines = iter(["1", "q"])
    play(console=console, read_line=lambda p: next(lines), seats="you,medium,medium",
         seed=6, save=str(path))  # fmt: skip
    before = path.read_text()
    rc, text = _run([], resume=str(path))
    assert rc == 2 and text == ""
    err = capsys.readouterr().err
    assert err.startswith("closingbell learn: ") and "is not a guided game" in err
    assert "play --resume" in err
    assert path.read_text() == before  # nothing changed


@pytest.mark.parametrize("game_name", GAMES)
def test_the_guide_is_given_only_what_the_learner_may_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_name: str
) -> None:
    t = tutorial(game_name)
    seen: list[tuple[object, list[dict[str, object]]]] = []
    observe = Guide.observe

    def spy(self: Guide, view: View, events: Iterable[dict[str, object]]) -> list[Fired]:
        listed = list(events)
        seen.append((view, listed))
        return observe(self, view, listed)

    monkeypatch.setattr(Guide, "observe", spy)
    rc, _text = _run(list(t.script), game_name=game_name, save=str(tmp_path / "g.cbrec"))
    assert rc == 0
    record = GameRecord.read(tmp_path / "g.cbrec")
    assert len(seen) == len(record.actions) + 1  # the deal, then every action
    state = t.new_game()
    for i, (view, events) in enumerate(seen):
        if i:
            start = len(state.log)
            state.apply(state.game.string_to_action(record.actions[i - 1].text))
        else:
            start = 0
        assert view == state.view(t.seat)
        assert events == state.visible_events(t.seat, start)
        # Another seat's draw reaches the learner without its cards.
        for event in events:
            if event["type"] in ("draw", "deal") and event["seat"] != t.seat:
                assert event.get("card", event.get("cards")) is None
