"""Reading a dealt state replays its history on the compiled engine, with the same results."""

from __future__ import annotations

import json
import random

import pytest

import closingbell
from closingbell import native
from closingbell.core import replay
from closingbell.core.errors import StateFormatError

# The game's own doors stand for the reference the compiled engine is held to (tests/conftest.py).
pytestmark = pytest.mark.reference


def _dealt_states(name: str, players: int, count: int) -> list[str]:
    game = closingbell.load_game(name, players=players)
    rng = random.Random(f"replay/{name}/{players}")
    texts = []
    for seed in range(count):
        state = game.new_game(seed)
        stop = rng.randrange(1, 400)
        while not state.is_terminal() and len(state.history) < stop:
            state.apply(rng.choice(state.legal_actions()))
        texts.append(state.to_json())
    return texts


def _read(game: closingbell.Game, text: str) -> str:
    try:
        return game.state_from_json(text).to_json()
    except StateFormatError as exc:
        return f"StateFormatError: {exc}"


@pytest.mark.parametrize("name", sorted(native.GAME_MODULES))
def test_the_compiled_replay_is_registered_and_reads_alike(name: str) -> None:
    assert replay.registered(name) is not None
    game = closingbell.load_game(name, players=3)
    rng = random.Random(5)
    for text in _dealt_states(name, 3, 12):
        data = json.loads(text)
        history = data["history"]
        tampered = []
        if history:
            changed = dict(data, history=[*history[:-1], (history[-1] + 1) % 300])
            tampered.append(json.dumps(changed))
            others = [i for i, a in enumerate(history) if a != history[-1]]
            if others:
                i = rng.choice(others)
                swapped = list(history)
                swapped[i], swapped[-1] = swapped[-1], swapped[i]
                tampered.append(json.dumps(dict(data, history=swapped)))
        tampered.append(json.dumps(dict(data, history=[*history, 0, 1, 2])))
        compiled = [_read(game, t) for t in (text, *tampered)]
        hook = replay.registered(name)
        assert hook is not None
        replay.unregister(name)
        try:
            reference = [_read(game, t) for t in (text, *tampered)]
        finally:
            replay.register(name, hook)
        assert compiled == reference
        assert compiled[0] == text
        assert all(r.startswith("StateFormatError") for r in compiled[1:])
