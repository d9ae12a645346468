"""Every rules option of every game is offered to people in both languages."""

from __future__ import annotations

import re

import pytest

import closingbell
from closingbell.core.options import option_infos
from closingbell.core.registry import available_games
from closingbell.text.games import OPTION_WORDS, options_for_people
from closingbell.text.i18n import LANGS

CJK = re.compile("[\u3400-\u9fff]")


def _options(game: str) -> list[str]:
    return [o.name for o in option_infos(type(closingbell.load_game(game, players=2).options))]


def test_every_game_has_option_words() -> None:
    assert set(OPTION_WORDS) == set(available_games())


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("game", available_games())
def test_every_option_has_a_label_help_and_a_label_for_each_choice(game: str, lang: str) -> None:
    words = OPTION_WORDS[game](lang)
    assert set(words) == {"players", *_options(game)}  # no option missing, none left over
    english = OPTION_WORDS[game]("en")
    for info in option_infos(type(closingbell.load_game(game, players=2).options)):
        said = words[info.name]
        where = f"{game}.{info.name} ({lang})"
        assert said.label and said.help.endswith((".", "。")), where
        assert "_" not in said.label + said.help, where
        described = info.check.describe()
        # A choice's values, or a list's named presets, each have a label.
        named = described.get("values", described.get("presets", ()))
        assert set(said.choices) == set(named), where
        assert all(said.choices.values()), where
        assert len(set(said.choices.values())) == len(said.choices), where
        if lang != "en":
            assert CJK.search(said.label) and CJK.search(said.help), where
            assert said.label != english[info.name].label, where


@pytest.mark.parametrize("game", available_games())
def test_options_for_people_follow_the_checks(game: str) -> None:
    rows = options_for_people(game, "zh-Hant")
    assert [r["name"] for r in rows] == _options(game)
    for row in rows:
        assert {"name", "default", "doc", "kind", "nullable", "label", "help"} <= set(row)
        assert "values" not in row
        if row["kind"] == "choice":
            assert row["default"] in [c["value"] for c in row["choices"]]
            assert all(c["label"] != c["value"] for c in row["choices"])
        for preset in row.get("presets", ()):
            assert {"value", "label", "numbers"} == set(preset)
            assert preset["label"] != preset["value"]
            assert len(preset["numbers"]) == row["length"]
    assert next(r for r in rows if r["name"] == "first_dealer")["nullable"] is True
