"""The play loop, run in-process with scripted input: games, quitting, resuming, errors."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from closingbell import bots, load_game
from closingbell.core.records import GameRecord, replay
from closingbell.tui import saving
from closingbell.tui.app import play
from closingbell.tui.reading import scripted_reader

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.fixture
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert level searching for a twentieth of a second a decision instead of a second:
    what the terminal shows of it, and that it plays, do not depend on how long it thinks."""
    kind, settings = bots.LEVELS["expert"]
    monkeypatch.setitem(bots.LEVELS, "expert", (kind, {**settings, "seconds": 0.05}))


def _run(lines: list[str], *, then_first: bool = False, **kwargs: object) -> tuple[int, str]:
    """Play with ``lines`` as input; then, if asked, the first choice to the end."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    scripted = scripted_reader(lines, console)

    def read(prompt: Text) -> str:
        try:
            return scripted(prompt)
        except EOFError:
            if not then_first:
                raise
        console.print(prompt)
        return "" if "Enter" in prompt.plain else "1"

    rc = play(console=console, read_line=read, **kwargs)  # type: ignore[arg-type]
    return rc, out.getvalue()


def test_bots_alone_play_a_whole_game_to_the_final_scores(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run([], seats="random,easy,hard", seed=5, save=str(path))
    assert rc == 0
    assert "Final scores" in text
    assert text.count("Scores of round") == 4
    record = GameRecord.read(path)
    assert record.result is not None
    assert record.seats == ("random", "easy", "hard")
    assert replay(record).is_terminal()


def test_a_person_choosing_the_first_choice_every_time_finishes(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run([], then_first=True, seats="you,random", seed=11, save=str(path))
    assert rc == 0
    assert "Your hand:" in text
    assert "Final scores" in text
    assert "The record of this game is in" in text
    record = GameRecord.read(path)
    assert record.seats == ("you", "random")
    assert record.result is not None
    assert not [p for p in tmp_path.iterdir() if p.name != "g.cbrec"]  # no temporary files


def test_quitting_twice_and_resuming_keeps_every_action(tmp_path: Path) -> None:
    whole = tmp_path / "whole.cbrec"
    _run([], then_first=True, seats="you,medium,medium", seed=21, save=str(whole))
    part = tmp_path / "part.cbrec"
    rc, text = _run(["1"] * 15 + ["q"], seats="you,medium,medium", seed=21, save=str(part))
    assert rc == 0
    assert f"The game is saved in {part}" in text
    assert f"closingbell play --resume {part}" in text
    stopped = GameRecord.read(part)
    assert stopped.result is None
    rc, text = _run(["2", "q"], resume=str(part))  # a detour, quit again
    rc, text = _run([], then_first=True, resume=str(part))
    assert rc == 0
    assert "Resumed from" in text
    assert "Final scores" in text
    finished = GameRecord.read(part)
    assert finished.result is not None
    # The detour ("2") changed one choice; replaying without it matches the whole game
    # up to that point, and bots chose the same after each resume as without it.
    assert finished.actions[: len(stopped.actions)] == stopped.actions
    assert GameRecord.read(whole).actions[: len(stopped.actions)] == stopped.actions


def test_a_game_from_a_position_is_saved_and_resumed_from_it(tmp_path: Path) -> None:
    dealt = load_game("card_stock_market", players=2).new_game(13)
    rng = random.Random(13)
    for _ in range(20):
        dealt.apply(rng.choice(dealt.legal_actions()))
    position = dealt.to_position()
    path = tmp_path / "g.cbrec"
    kwargs = {"game_name": "card_stock_market", "seats": "you,random", "save": str(path)}
    rc, text = _run(["1"] * 6 + ["q"], position=position, **kwargs)  # type: ignore[arg-type]
    assert rc == 0
    assert "from a position (seed 13)" in text
    stopped = GameRecord.read(path)
    assert stopped.position == position and stopped.seed == 13
    assert stopped.actions
    rc, text = _run([], then_first=True, resume=str(path))
    assert rc == 0 and "Resumed from" in text and "The record of this game is in" in text
    finished = GameRecord.read(path)
    assert finished.position == position and finished.result is not None
    assert finished.actions[: len(stopped.actions)] == stopped.actions
    assert replay(finished).is_terminal()


@pytest.mark.usefixtures("quick_expert")
def test_an_expert_bot_takes_its_turns(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run(["1"] * 4 + ["q"], seats="you,expert", seed=3, save=str(path), pace=0)
    assert rc == 0
    assert "Expert 2" in text
    record = GameRecord.read(path)
    assert record.seats == ("you", "expert")
    assert {action.seat for action in record.actions} == {0, 1}
    assert not replay(record).is_terminal()


def _play_in_a_terminal(tmp_path: Path, seats: str, lang: str = "en") -> str:
    """Four first choices and quit, on a console that is a terminal; what it printed."""
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, highlight=False)
    lines = iter(["1"] * 4 + ["q"])
    rc = play(
        console=console,
        read_line=lambda prompt: next(lines),
        seats=seats,
        seed=3,
        save=str(tmp_path / "g.cbrec"),
        pace=0,
        lang=lang,
    )
    assert rc == 0
    return out.getvalue()


@pytest.mark.usefixtures("quick_expert")
@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Expert 2 is thinking…"), ("zh-Hant", "專家電腦 2 正在思考……")]
)
def test_a_terminal_shows_that_a_search_bot_is_thinking(
    tmp_path: Path, lang: str, words: str
) -> None:
    assert words in _play_in_a_terminal(tmp_path, "you,expert", lang)


def test_rule_based_bots_answer_without_a_thinking_sign(tmp_path: Path) -> None:
    assert "thinking" not in _play_in_a_terminal(tmp_path, "you,hard")


def test_resume_continues_exactly_as_an_uninterrupted_game(tmp_path: Path) -> None:
    whole = tmp_path / "whole.cbrec"
    _run([], then_first=True, seats="you,medium,hard", seed=8, save=str(whole))
    part = tmp_path / "part.cbrec"
    _run(["1"] * 30 + ["q"], seats="you,medium,hard", seed=8, save=str(part))
    _run([], then_first=True, resume=str(part))
    assert GameRecord.read(part) == GameRecord.read(whole)


def test_wrong_input_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run(
        ["", "0", "999", "buy everything", "exercise done", "?", "b", "q"],
        seats="you,random",
        seed=3,
        save=str(path),
    )
    assert rc == 0
    assert "Type the number of your choice, from 1 to" in text
    assert "There is no choice 0: type a number from 1 to" in text
    assert "There is no choice 999" in text
    assert "“buy everything” is neither a number from the list nor an action" in text
    assert "“exercise done” is not one of your choices now" in text
    assert "On your turn you do one of four things." in text
    assert text.count("Your hand:") == 2  # b drew the table again
    assert GameRecord.read(path).actions == ()


def test_text_notation_is_accepted_when_legal(tmp_path: Path) -> None:
    rc, text = _run(["market B", "q"], seats="you,random", seed=3, save=str(tmp_path / "g"))
    assert rc == 0
    assert "Choose a card to discard to play the market (option B)." in text
    record = GameRecord.read(tmp_path / "g")
    assert [a.text for a in record.actions] == ["market B"]


def test_hot_seat_hides_the_hand_until_the_next_player_presses_enter(tmp_path: Path) -> None:
    rc, text = _run(
        ["", "1", "1", "x", "", "1", "q"], seats="you,you", seed=8, save=str(tmp_path / "g")
    )
    assert rc == 0
    assert text.count("Pass the terminal to Player 1.") == 1
    assert "Pass the terminal to Player 2." in text
    assert "Just press Enter to go on, or type q to save and quit." in text
    assert "Player 1 (you)" not in text  # hot-seat players are not "you"


def test_end_of_input_and_interrupts_keep_the_game(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run(["1", "1"], seats="you,random", seed=4, save=str(path))
    assert rc == 0
    assert "The game is saved in" in text
    assert len(GameRecord.read(path).actions) >= 2

    def interrupt(prompt: object) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    assert (
        play(seats="you,random", seed=4, save=str(path), console=console, read_line=interrupt)
        == 130
    )
    assert "closingbell play --resume" in out.getvalue()


def test_the_default_record_goes_under_xdg_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rc, text = _run(["q"], seats="you,random", seed=4)
    assert rc == 0
    saved = list((tmp_path / "data" / "closingbell" / "games").glob("take_stock-*-4.cbrec"))
    assert len(saved) == 1
    assert str(saved[0]) in text
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert saving.data_dir() == tmp_path / "home" / ".local" / "share" / "closingbell" / "games"


def test_a_finished_game_resumed_shows_its_final_scores(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    _run([], seats="random,random", seed=2, save=str(path))
    rc, text = _run([], resume=str(path))
    assert rc == 0
    assert "Final scores" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("hello\n", "is not a game that can be resumed"),
        ("closingbell record 1\ngame: take_stock\n", "is not a game that can be resumed"),
        (b"\xff\xfe\x00", "is not a game that can be resumed"),
        ("golden", "was not saved by closingbell play"),
    ],
)
def test_a_bad_resume_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, message: str
) -> None:
    path = tmp_path / "bad.cbrec"
    if content == "golden":
        golden = (GOLDEN / "take_stock_3p.cbrec").read_text()
        path.write_text(golden.replace('["random", "random", "random"]', '["ana", "bo", "cy"]'))
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content)
    rc, _text = _run([], resume=str(path))
    err = capsys.readouterr().err
    assert rc == 2
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_a_record_with_a_wrong_action_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.cbrec"
    _run(["1", "1", "q"], seats="you,random", seed=4, save=str(path))
    lines = path.read_text().splitlines()
    first = lines.index("actions:") + 1
    lines[first] = lines[first].split(":")[0] + ": raise Oil 12"
    path.write_text("\n".join(lines) + "\n")
    assert _run([], resume=str(path))[0] == 2
    err = capsys.readouterr().err
    assert "is not a game that can be resumed" in err
    assert "illegal action 'raise Oil 12'" in err


def test_bad_setups_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert _run([], seats="you,wizard", save=str(tmp_path / "g"))[0] == 2
    assert "unknown seat “wizard”" in capsys.readouterr().err
    assert _run([], seats="you", save=str(tmp_path / "g"))[0] == 2
    assert "Take Stock needs 2 to 6 seats, not 1" in capsys.readouterr().err
    assert _run([], resume=str(tmp_path / "g"), seats="you,you")[0] == 2
    assert "leave out --game, --seats, --seed, --option and --position" in capsys.readouterr().err
    assert (
        _run([], seats="you,you", lang="zh-Hant", save=str(tmp_path / "g2"), game_name="nope")[0]
        == 2
    )
    assert "無法辨識的遊戲" in capsys.readouterr().err


def test_the_resume_hint_names_the_program_as_given_and_quotes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "my game.cbrec"
    rc, text = _run(
        ["q"], seats="you,random", seed=1, save=str(path), program=".venv/bin/closingbell"
    )
    assert rc == 0
    assert f".venv/bin/closingbell play --resume '{path}'" in text


# ---------------------------------------------------------------------- hints


def test_h_shows_the_hint_of_the_web_server_and_the_record_keeps_it(tmp_path: Path) -> None:
    from closingbell.bots.hints import hint
    from closingbell.text.take_stock import TakeStockNarrator

    path = tmp_path / "g.cbrec"
    rc, text = _run(["h", "q"], seats="you,medium", seed=1, save=str(path))
    assert rc == 0
    record = GameRecord.read(path)
    assert record.hinted is True and "hinted: true" in path.read_text()
    # The analysis a hint at a table of the same deal gives, from seat 0's view.
    state = replay(record)
    found = hint(state.game, state.view(0), 1, len(state.history))
    legal = state.legal_actions()
    narrator = TakeStockNarrator(state.game, ["Player 1 (you)", "Medium 2"], "en")
    label = narrator.describe_action(state.view(0), found.best)
    assert f"Hint: {legal.index(found.best) + 1}. {label}" in text
    assert f"[{state.action_to_string(found.best)}]" in text
    assert "Chance of winning: " in text and "32 deals of the cards you cannot see" in text
    # Resumed, the game stays hinted whether or not another hint is asked for.
    rc, _ = _run(["1", "q"], resume=str(path))
    assert rc == 0 and GameRecord.read(path).hinted is True


def test_a_game_without_hints_has_no_hinted_line(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run(["1", "q"], seats="you,medium", seed=1, save=str(path))
    assert rc == 0 and "h hints" in text
    assert GameRecord.read(path).hinted is False and "hinted" not in path.read_text()


def test_no_hint_in_a_game_of_several_people(tmp_path: Path) -> None:
    path = tmp_path / "g.cbrec"
    rc, text = _run(["", "h", "q"], seats="you,you", seed=1, save=str(path))
    assert rc == 0
    assert "Hints are for games with one person at the terminal" in text
    assert "h hints" not in text and "Hint:" not in text
    assert GameRecord.read(path).hinted is False
