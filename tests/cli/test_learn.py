"""``closingbell learn``: the real program in a pseudo-terminal plays a guided game to its end."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from closingbell.cli.main import main
from closingbell.core.records import GameRecord
from closingbell.learn import tutorial
from tests.tui.test_terminal import started

CHOICE = {"en": re.escape("Your choice (1-"), "zh-Hant": re.escape("你的選擇（1-")}
ENTER = {"en": "(?i)press enter", "zh-Hant": "按 Enter"}
LESSON = {"en": "Lesson: ", "zh-Hant": "教學："}
NEXT = {
    # The whole line, up to its end (and the colour's end): a part would match as well.
    "en": r"What to try next: a whole game against the bots, with ([^\x1b\r\n]+)(\x1b\[0m)?\r?\n",
    "zh-Hant": r"接下來可以試試和電腦玩家打一整局：([^\x1b\r\n]+)(\x1b\[0m)?\r?\n",
}


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    return started(
        sys.executable, ["-m", "closingbell.cli.main", "learn", "--pace", "0", *args], env
    )


@pytest.mark.parametrize(
    ("game", "lang", "spelled"),
    [("take_stock", "en", "en"), ("card_stock_market", "zh-Hant", "zh_Hant")],
)
def test_learn_plays_the_guided_game_to_its_end(
    tmp_path: Path, game: str, lang: str, spelled: str
) -> None:
    t = tutorial(game)
    child = spawn(tmp_path, "--game", game.replace("_", "-"), "--lang", spelled)
    answers = iter(t.script)
    lessons = 0
    for _ in range(3000):
        i = child.expect([CHOICE[lang], ENTER[lang], LESSON[lang], NEXT[lang]])
        if i == 0:
            child.sendline(next(answers))
        elif i == 1:
            child.sendline("")
        elif i == 2:
            lessons += 1
        else:
            break
    else:
        raise AssertionError("the guided game did not end")
    command = child.match.group(1)
    assert command.endswith(f" play --game {game}" + (" --lang zh-Hant" if lang != "en" else ""))
    assert next(answers, None) is None  # every scripted choice was asked for
    assert lessons == len(t.lesson_ids)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = list((tmp_path / "data" / "closingbell" / "games").glob(f"learn-{game}-*.cbrec"))
    assert len(saved) == 1
    record = GameRecord.read(saved[0])
    assert t.deals(record) and record.result is not None


def test_the_help_names_the_games_and_the_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["learn", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "take-stock or card-stock-market" in text
    assert "zh-Hant" in text and "the Limit rule" in text and "--resume" in text


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["learn", "--game", "chess"])
    assert "no guided game of 'chess'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["learn", "--lang", "fr"])
    assert "unknown language 'fr'" in capsys.readouterr().err
    assert main(["learn", "--resume", "missing.cbrec"]) == 2
    assert "cannot read" in capsys.readouterr().err
