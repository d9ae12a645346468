"""``closingbell play``: the terminal game, driven through its text input and output."""

from __future__ import annotations

import io

import pytest

from closingbell.cli.main import main
from closingbell.cli.play import play


def test_bots_alone_play_a_whole_game_to_the_final_scores() -> None:
    out = io.StringIO()
    assert play(["random", "easy", "hard"], 5, out, io.StringIO()) == 0
    text = out.getvalue()
    assert "Final scores:" in text
    assert "Game over." in text
    assert text.count("Round 4 scores") == 1


def test_a_person_choosing_the_first_option_every_time_finishes_the_game() -> None:
    out = io.StringIO()
    assert play(["you", "random"], 11, out, io.StringIO("1\n" * 2000)) == 0
    text = out.getvalue()
    assert "Final scores:" in text
    assert "Your hand:" in text


def test_wrong_input_is_explained_and_asked_again() -> None:
    out = io.StringIO()
    play(["you", "random"], 3, out, io.StringIO("0\n999\nbuy everything\n?\nsave Oil 99\nq\n"))
    text = out.getvalue()
    assert "Please choose a number from 1 to" in text
    assert "is not a Take Stock action" in text
    assert "Raise a price" in text  # the help for the turn action
    assert "Game abandoned." in text
    assert "Final scores:" not in text


def test_text_notation_is_accepted_when_legal() -> None:
    out = io.StringIO()
    play(["you", "random"], 3, out, io.StringIO("market B\ndiscard Corn 99\nq\n"))
    text = out.getvalue()
    assert "Choose a card to discard." in text  # market B was taken: its discard is asked


def test_hot_seat_hides_the_previous_hand_behind_a_pass_screen() -> None:
    out = io.StringIO()
    play(["you", "you"], 8, out, io.StringIO("1\n" * 6 + "q\n"))
    assert "your decision (others, look away)" in out.getvalue()


def test_bad_seats_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seats", "you,wizard"]) == 2
    assert "unknown seat 'wizard'" in capsys.readouterr().err
    assert main(["play", "--seats", "you"]) == 2
