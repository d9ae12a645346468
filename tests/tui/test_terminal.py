"""The real program in a pseudo-terminal: whole games, quitting, resuming and wrong input."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest

import closingbell
from closingbell.core.records import GameRecord, replay
from closingbell.games.take_stock import actions as A
from closingbell.text.i18n import LANGS, translations
from closingbell.text.take_stock import TakeStockNarrator
from tests.text.positions import DECISIONS, position

CHOICE = {"en": re.escape("Your choice (1-"), "zh-Hant": re.escape("你的選擇（1-")}
ENTER = {"en": "(?i)press enter", "zh-Hant": "按 Enter"}
FINAL = {"en": "The record of this game is in", "zh-Hant": "這局遊戲的紀錄已存到"}
SAVED = {"en": "The game is saved in", "zh-Hant": "遊戲已存檔"}


def started(program: str, args: list[str], env: dict[str, str]) -> pexpect.spawn:
    """``program`` in a pseudo-terminal of 50 rows and 200 columns, in colour, UTF-8.

    What is typed is sent at once: every test waits for the prompt before it answers, so
    pexpect's pause before each line (a twentieth of a second) only slows the games down.
    """
    env = {**env, "PYTHONUTF8": "1", "TERM": "xterm-256color"}
    # Rich prefers these to the terminal's size; pytest-xdist workers may have them set.
    env.update({"COLUMNS": "200", "LINES": "50"})
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        program, args, env=env, encoding="utf-8", dimensions=(50, 200), timeout=20
    )
    child.delaybeforesend = None
    return child


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    return started(
        sys.executable, ["-m", "closingbell.cli.main", "play", "--pace", "0", *args], env
    )


def spawn_command(tmp_path: Path, program: str, *args: str) -> pexpect.spawn:
    """Run a command as a hint printed it (``program`` may be a path or a name)."""
    return started(program, list(args), {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None, child.signalstatus
    return int(child.exitstatus)


def play_to_the_end(child: pexpect.spawn, lang: str) -> str:
    """Take the first choice at every decision and go on at every pause; return the last
    screen (from the last answer to the final line)."""
    patterns = [CHOICE[lang], ENTER[lang], FINAL[lang]]
    for _ in range(3000):
        i = child.expect(patterns)
        if i == 0:
            child.sendline("1")
        elif i == 1:
            child.sendline("")
        else:
            return str(child.before)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", list(LANGS))
def test_a_whole_game_is_played_to_the_final_screen(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "game.cbrec"
    # Two rounds: a round's end and the next deal are in it, at half the rulebook's length.
    args = ("--seed", "7", "--option", "rounds=2", "--lang", lang, "--save", str(path))
    child = spawn(tmp_path, *args)
    child.expect(CHOICE[lang])
    before = child.before
    assert ("玉米" if lang == "zh-Hant" else "Corn") in before
    assert "\x1b[" in before  # in colour
    child.sendline("1")
    last = play_to_the_end(child, lang)
    assert finish(child) == 0
    assert ("最終得分" if lang == "zh-Hant" else "Final scores") in last
    assert ("各股票的得分" if lang == "zh-Hant" else "Points from each stock") in last
    record = GameRecord.read(path)
    assert record.seats == ("you", "medium", "medium")
    assert record.result is not None
    replay(record)


def test_the_default_game_needs_no_set_up(tmp_path: Path) -> None:
    child = spawn(tmp_path)
    child.expect(CHOICE["en"])
    text = child.before
    assert "Player 1 (you)" in text and "Medium 2" in text and "Medium 3" in text
    child.sendline("q")
    child.expect(SAVED["en"])
    assert finish(child) == 0
    saved = list((tmp_path / "data" / "closingbell" / "games").glob("take_stock-*.cbrec"))
    assert len(saved) == 1
    assert GameRecord.read(saved[0]).seats == ("you", "medium", "medium")


@pytest.mark.parametrize("lang", list(LANGS))
def test_quit_then_resume_goes_on_to_the_end(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "game.cbrec"
    child = spawn(
        tmp_path,
        *("--seed", "5", "--seats", "you,hard", "--option", "rounds=2"),
        *("--lang", lang, "--save", str(path)),
    )
    for _ in range(6):
        child.expect(CHOICE[lang])
        child.sendline("1")
    child.expect(CHOICE[lang])
    child.sendline("q")
    child.expect(SAVED[lang])
    child.expect(r"([^\s：]+ play --resume \S+)\r?\n")
    command = child.match.group(1)
    assert finish(child) == 0
    stopped = GameRecord.read(path)
    assert len(stopped.actions) >= 6
    assert stopped.result is None

    # The hint is a command that works as printed, whatever is on the PATH.
    program, rest = command.split(" play --resume ")
    assert Path(rest) == path
    child = spawn_command(
        tmp_path, program, "play", "--pace", "0", "--resume", rest, "--lang", lang
    )
    child.expect(CHOICE[lang])
    child.sendline("1")
    play_to_the_end(child, lang)
    assert finish(child) == 0
    done = GameRecord.read(path)
    assert done.actions[: len(stopped.actions)] == stopped.actions
    assert done.result is not None


HINT = {"en": r"Hint: (\d+)\. ", "zh-Hant": r"提示：(\d+)\. "}
WINNING = {"en": "Chance of winning: ", "zh-Hant": "獲勝機率："}
HINT_HELP = {"en": "h gives a hint", "zh-Hant": "h 給提示"}


@pytest.mark.parametrize("lang", list(LANGS))
def test_h_shows_a_hint_and_the_record_says_so(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "game.cbrec"
    child = spawn(
        tmp_path, "--seed", "1", "--seats", "you,medium", "--lang", lang, "--save", str(path)
    )
    child.expect(CHOICE[lang])
    assert HINT_HELP[lang] in child.before
    child.sendline("h")
    child.expect(HINT[lang])
    number = int(child.match.group(1))
    child.expect(WINNING[lang])
    child.expect(CHOICE[lang])  # asked again, after the hint
    assert GameRecord.read(path).hinted is True  # saved at once: quitting now keeps it
    child.sendline(str(number))  # the hinted choice is taken like any other
    child.expect(CHOICE[lang])
    child.sendline("q")
    child.expect(SAVED[lang])
    assert finish(child) == 0
    record = GameRecord.read(path)
    assert record.hinted is True and len(record.actions) >= 1
    replay(record)


def test_ctrl_c_and_end_of_input_keep_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.cbrec"
    child = spawn(tmp_path, "--seed", "3", "--seats", "you,random", "--save", str(path))
    child.expect(CHOICE["en"])
    child.sendline("1")
    child.expect(CHOICE["en"])
    # Python's input() only looks at a SIGINT once readline waits for a key: one sent
    # between the prompt and that wait is left until the next key. A person cannot type
    # that fast; the test waits until readline has turned the terminal's echo off.
    assert child.waitnoecho(timeout=10)
    child.sendintr()
    child.expect(SAVED["en"])
    assert finish(child) == 130
    n = len(GameRecord.read(path).actions)
    assert n >= 1

    child = spawn(tmp_path, "--resume", str(path))
    child.expect(CHOICE["en"])
    # Ctrl-D typed before readline has taken the terminal over would be lost with the
    # canonical mode's line: wait here too.
    assert child.waitnoecho(timeout=10)
    child.sendeof()
    child.expect(SAVED["en"])
    assert finish(child) == 0
    assert len(GameRecord.read(path).actions) == n


def test_a_closed_terminal_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "game.cbrec"
    child = spawn(tmp_path, "--seed", "3", "--seats", "you,random", "--save", str(path))
    child.expect(CHOICE["en"])
    child.sendline("1")
    child.expect(CHOICE["en"])
    # As with Ctrl-C above: a signal sent before readline waits for a key is only looked at
    # with the next key (a closed terminal ends that wait at once; this one stays open).
    assert child.waitnoecho(timeout=10)
    child.kill(signal.SIGHUP)
    child.expect(pexpect.EOF)
    child.close()
    record = GameRecord.read(path)
    assert len(record.actions) >= 1
    assert not replay(record).is_terminal()


def test_a_damaged_record_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.cbrec"
    path.write_text("closingbell record 1\ngame: take_stock\nversion: 1\n")
    child = spawn(tmp_path, "--resume", str(path))
    assert finish(child) == 2
    text = child.before.strip()
    assert text.startswith("closingbell play:")
    assert "Traceback" not in text
    assert len(text.splitlines()) == 1


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("decision", DECISIONS)
def test_wrong_input_at_every_decision_asks_again(tmp_path: Path, decision: str, lang: str) -> None:
    state = position(decision)
    seat = state.current_player
    assert seat is not None
    seats = ["you" if q == seat else "random" for q in range(state.game.players)]
    path = tmp_path / "game.cbrec"
    GameRecord.from_state(state, seats).write(path)
    before = GameRecord.read(path)

    tr = translations(lang)
    _ = tr.gettext
    view = state.view(seat)
    legal = list(view.legal_actions)
    n = len(legal)
    screen = TakeStockNarrator(state.game, ["x"] * state.game.players, lang)
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
    illegal_text = state.game.action_to_string(illegal)

    child = spawn(tmp_path, "--resume", str(path), "--lang", lang)
    child.expect_exact(screen.prompt(view))
    child.expect(CHOICE[lang])
    child.sendline(str(n + 1))
    child.expect_exact(
        _("There is no choice {number}: type a number from 1 to {n}.").format(number=n + 1, n=n)
    )
    child.sendline("0")
    child.expect_exact(
        _("There is no choice {number}: type a number from 1 to {n}.").format(number=0, n=n)
    )
    child.sendline("sell everything")
    child.expect_exact(
        _(
            "“{text}” is neither a number from the list nor an action "
            "(such as “{example}”). Type ? for the rule."
        ).format(text="sell everything", example=state.game.action_to_string(legal[0]))
    )
    child.sendline(illegal_text)
    child.expect_exact(
        _("“{text}” is not one of your choices now: pick one from the list.").format(
            text=illegal_text
        )
    )
    child.sendline("?")
    child.expect_exact(screen.help(view).split("\n")[0][:20])
    child.expect(CHOICE[lang])
    child.sendline("q")
    child.expect_exact(SAVED[lang])
    assert finish(child) == 0
    assert GameRecord.read(path).actions == before.actions


@pytest.mark.parametrize("lang", list(LANGS))
def test_wrong_input_at_a_pause_asks_again(tmp_path: Path, lang: str) -> None:
    _ = translations(lang).gettext
    child = spawn(tmp_path, "--seats", "you,you", "--seed", "2", "--lang", lang)
    first = closingbell.load_game("take_stock", players=2).new_game(2).current_player
    assert first is not None
    name = _("Player {n}").format(n=first + 1)
    child.expect_exact(_("Pass the terminal to {name}.").format(name=name))
    child.expect(ENTER[lang])
    child.sendline("1")
    child.expect_exact(_("Just press Enter to go on, or type q to save and quit."))
    child.sendline("")
    child.expect(CHOICE[lang])
    child.sendline("q")
    child.expect_exact(SAVED[lang])
    assert finish(child) == 0


def test_package_data_holds_the_catalogs() -> None:
    root = Path(closingbell.__file__).parent / "locale"
    for lang in ("en", "zh_Hant"):
        for domain in ("common", "take_stock"):
            assert (root / lang / "LC_MESSAGES" / f"{domain}.po").is_file()


@pytest.mark.parametrize("lang", list(LANGS))
def test_a_whole_card_stock_market_game_is_played_to_the_final_screen(
    tmp_path: Path, lang: str
) -> None:
    path = tmp_path / "csm.cbrec"
    child = spawn(
        tmp_path,
        *("--game", "card_stock_market", "--seats", "you,medium,random"),
        *("--seed", "3", "--lang", lang, "--save", str(path)),
    )
    child.expect(CHOICE[lang])
    before = child.before
    assert ("黑桃" if lang == "zh-Hant" else "Spades") in before
    assert "\x1b[" in before
    child.sendline("1")
    last = play_to_the_end(child, lang)
    assert finish(child) == 0
    record = GameRecord.read(path)
    assert record.game == "card_stock_market"
    assert record.seats == ("you", "medium", "random")
    assert record.result is not None
    winners = [("Player 1 (you)", "Medium 2", "Random 3")[q] for q in record.result.winners]
    if lang == "en":
        assert all(name in last for name in winners)
    replay(record)


def test_a_card_stock_market_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "csm.cbrec"
    args = ("--game", "card_stock_market", "--seats", "you,hard", "--seed", "9")
    child = spawn(tmp_path, *args, "--save", str(path))
    for _ in range(5):
        child.expect(CHOICE["en"])
        child.sendline("1")
    child.expect(CHOICE["en"])
    child.sendline("q")
    child.expect(SAVED["en"])
    assert finish(child) == 0
    stopped = GameRecord.read(path)
    assert stopped.result is None and len(stopped.actions) >= 5

    child = spawn(tmp_path, "--resume", str(path))
    child.expect(CHOICE["en"])
    child.sendline("1")
    play_to_the_end(child, "en")
    assert finish(child) == 0
    done = GameRecord.read(path)
    assert done.actions[: len(stopped.actions)] == stopped.actions
    assert done.result is not None
