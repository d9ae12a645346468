"""Guided first games at the web server: ``POST /api/learn``, the lessons over the WebSocket.

A tutorial table deals the tutorial's fixed game, seats its learner and plays its bots as
the tutorial says; the lessons reach the learner's connections and nobody else's, in each
connection's language; a restarted server goes on with the same lessons, on SQLite and
on PostgreSQL. The game played here by the tutorial's script is the one
:func:`closingbell.learn.play_through` plays (the terminal's), action for action.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from closingbell.learn import Step, Tutorial, play_through, scripted, tutorial
from closingbell.server.store import SeatRow, TableRow
from closingbell.server.tutorials import tutorial_of, tutorial_row
from closingbell.text.games import narrator_for
from closingbell.text.lessons import lesson_words
from closingbell.text.names import seat_name
from tests.server.helpers import act, client_for, create, expect, receive, sqlite_database

GAMES = ["take_stock", "card_stock_market"]


def learn(client: TestClient, game: str, name: str = "Ana") -> dict[str, Any]:
    """Open a guided first game; the answer (table, seat, token)."""
    answer = client.post("/api/learn", json={"game": game, "name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()  # type: ignore[no-any-return]


def steps_of(t: Tutorial) -> list[Step]:
    """The tutorial's scripted game as the terminal plays it: the deal, then each action."""
    return list(play_through(t, scripted(t)))


def fired_by_version(steps: list[Step]) -> list[tuple[int, str]]:
    """Each lesson of the scripted game with the version that brought it, in order."""
    return [(s.ply, f.lesson) for s in steps for f in s.fired]


@dataclass
class Learner:
    """A connection of the learner's (or a spectator's), and what it was sent."""

    ws: WebSocketTestSession
    states: list[dict[str, Any]] = field(default_factory=list)
    lessons: list[dict[str, Any]] = field(default_factory=list)
    """The ``lessons`` messages, in order."""
    other: list[dict[str, Any]] = field(default_factory=list)

    def hello(self, token: str | None, lang: str) -> dict[str, Any]:
        self.ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
        expect(self.ws, "welcome")
        return self.read()

    def read(self, timeout: float = 10.0) -> dict[str, Any]:
        message = receive(self.ws, timeout)
        assert message is not None, "no message came"
        self.keep(message)
        return message

    def keep(self, message: dict[str, Any]) -> None:
        assert message["type"] not in ("error", "closed"), message
        if message["type"] == "state":
            self.states.append(message)
        elif message["type"] == "lessons":
            self.lessons.append(message)
        else:
            self.other.append(message)

    def drain(self) -> None:
        """Read what is waiting (the server sends within moments of an action)."""
        while (message := receive(self.ws, 0.5)) is not None:
            self.keep(message)

    def play(self, script: Iterator[str], moves: int | None = None) -> None:
        """Play the script's choices at the learner's decisions: ``moves`` of them, or all to
        the end of the game (then until the lessons of the end have come)."""
        acted = -1
        played = 0
        message = self.states[-1]  # the state after hello, maybe the learner's to decide
        while True:
            if message["type"] == "lessons" and message["missed"] is not None:
                return
            if (
                message["type"] != "state"
                or message["status"] != "playing"
                or not message["legal"]
                or message["version"] <= acted
            ):
                message = self.read()
                continue
            if moves is not None and played == moves:
                self.drain()
                return
            act(self.ws, message["version"], text=next(script))
            acted = message["version"]
            played += 1
            message = self.read()


def words_of(t: Tutorial, lang: str, name: str = "Ana") -> Any:
    """The lessons' words of ``t`` in ``lang``, with the seats named as the server names them."""
    game = t.load()
    names = [
        seat_name(
            p, lang, name=name if kind == "you" else None, bot=None if kind == "you" else kind
        )
        for p, kind in enumerate(t.seats)
    ]
    narrator = narrator_for(game, names, lang)
    assert narrator is not None
    return lesson_words(narrator, t.seat)


def check_entries(t: Tutorial, steps: list[Step], entries: list[dict[str, Any]], lang: str) -> None:
    """Each entry is the lesson the scripted game fired at its version, in ``lang``'s words."""
    words = words_of(t, lang)
    fired = {(s.ply, f.lesson): f for s in steps for f in s.fired}
    for entry in entries:
        f = fired[(entry["version"], entry["lesson"])]
        told = words.tell(f.lesson, f.fields)
        assert (entry["title"], entry["happened"], entry["explanation"]) == (
            told.title,
            told.happened,
            told.explanation,
        )


@pytest.mark.parametrize("game", GAMES)
def test_learn_opens_the_tutorials_deal_with_the_learner_seated(
    database_url: str, game: str
) -> None:
    t = tutorial(game)
    with client_for(database_url, allow_seed=False) as client:
        answer = learn(client, game)
        table = answer["table"]
        assert answer["seat"] == t.seat
        assert table["tutorial"] is True and table["rated"] is False
        assert table["status"] == "playing"
        assert table["options"] == t.load().options_dict()
        assert [(s["kind"], s["name"]) for s in table["seats"]] == [
            ("human", "Ana") if kind == "you" else ("bot", kind) for kind in t.seats
        ]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            first = Learner(ws).hello(answer["token"], "en")
            # The fixed deal: the learner's view is the tutorial's, and it plays first.
            assert first["view"] == t.new_game().view(t.seat).to_dict()
            assert first["current_player"] == t.seat
        listed = client.get("/api/tables").json()["tables"]
        assert [(x["id"], x["tutorial"]) for x in listed] == [(table["id"], True)]
        # An ordinary table of the same game is not a tutorial.
        other = create(client, game, ["open", "medium"])
        assert other["tutorial"] is False


def test_learn_refuses_a_game_without_a_tutorial_and_a_guest_without_a_name(
    client: TestClient,
) -> None:
    answer = client.post("/api/learn", json={"game": "chess", "name": "Ana"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "unknown_game"
    answer = client.post("/api/learn", json={"game": "take_stock"})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_name"
    answer = client.post("/api/learn", json={"game": "take_stock", "name": "  "})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_name"
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made
    games = {g["name"]: g["learn"] for g in client.get("/api/games").json()["games"]}
    assert games == {"take_stock": True, "card_stock_market": True}


@pytest.mark.parametrize("game", GAMES)
def test_lessons_reach_the_learner_only_and_a_restart_goes_on_with_them(
    database_url: str, game: str
) -> None:
    t = tutorial(game)
    steps = steps_of(t)
    expected = fired_by_version(steps)
    script = iter(t.script)
    half = len(t.script) // 2
    with client_for(database_url) as client:
        answer = learn(client, game)
        table_id, token = answer["table"]["id"], answer["token"]
        path = f"/ws/tables/{table_id}"
        with client.websocket_connect(path) as ws, client.websocket_connect(path) as watch:
            learner, spectator = Learner(ws), Learner(watch)
            learner.hello(token, "en")
            spectator.hello(None, "en")
            learner.play(script, half)
            spectator.drain()
        version = learner.states[-1]["version"]
        before = list(learner.lessons)
        # After hello, every lesson so far: here the welcome alone.
        assert before[0]["history"] is True
        assert [e["lesson"] for e in before[0]["lessons"]] == ["welcome"]
        assert all(not m["history"] and m["missed"] is None for m in before[1:])
        got = [(e["version"], e["lesson"]) for m in before for e in m["lessons"]]
        assert got == [(v, lesson) for v, lesson in expected if v <= version]
        assert len(got) >= 3
        check_entries(t, steps, [e for m in before for e in m["lessons"]], "en")
        # Each lesson came after the state of the action that brought it.
        for m in before[1:]:
            assert all(e["version"] <= version for e in m["lessons"])
        assert spectator.lessons == [] and len(spectator.states) > 10
    # A restarted server: the same table, marked as a tutorial, with the same lessons.
    with client_for(database_url) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(x["id"], x["tutorial"], x["version"]) for x in listed] == [
            (table_id, True, version)
        ]
        with client.websocket_connect(path) as ws, client.websocket_connect(path) as watch:
            learner, spectator = Learner(ws), Learner(watch)
            learner.hello(token, "zh-Hant")
            spectator.hello(None, "zh-Hant")
            history = learner.read()
            assert history["type"] == "lessons" and history["history"] is True
            assert [(e["version"], e["lesson"]) for e in history["lessons"]] == got
            check_entries(t, steps, history["lessons"], "zh-Hant")
            learner.play(script)
            spectator.drain()
        after = learner.lessons[1:]
        end = after[-1]
        assert end["missed"] == []  # the script brings every lesson's moment
        later = [(e["version"], e["lesson"]) for m in after for e in m["lessons"]]
        assert got + later == expected
        check_entries(t, steps, [e for m in after for e in m["lessons"]], "zh-Hant")
        assert spectator.lessons == []
        final = learner.states[-1]
        assert final["status"] == "finished"
        # The game is the terminal's for the same choices: the bots chose alike.
        state = t.new_game()
        for step in steps[1:]:
            assert step.action is not None
            state.apply(state.game.string_to_action(step.action))
        assert final["version"] == len(state.history)
        assert final["result"]["scores"] == state.scores()
    # Once over, a new connection of the learner's is sent the lessons and the end again.
    with client_for(database_url) as client:
        listed = client.get("/api/tables").json()["tables"]
        assert [(x["status"], x["tutorial"]) for x in listed] == [("finished", True)]
        with client.websocket_connect(path) as ws:
            again = Learner(ws)
            again.hello(token, "en")
            history = again.read()
            assert history["history"] is True and history["missed"] == []
            assert [(e["version"], e["lesson"]) for e in history["lessons"]] == expected


def test_the_end_sums_up_the_lessons_whose_moment_never_came(client: TestClient) -> None:
    # A learner who only ever raises prices and plays the market keeps no certificate.
    t = tutorial("take_stock")
    answer = learn(client, "take_stock")
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        learner = Learner(ws)
        message = learner.hello(answer["token"], "en")
        while True:
            if message["type"] == "lessons" and message["missed"] is not None:
                break
            if message["type"] == "state" and message["legal"] and message["status"] == "playing":
                texts = [a["text"] for a in message["legal"]]
                keep = [x for x in texts if not x.startswith(("save", "exercise"))] or texts
                if "exercise done" in texts:
                    keep = ["exercise done"]
                act(ws, message["version"], text=keep[0])
            message = learner.read()
    missed = [m["lesson"] for m in message["missed"]]
    assert "certificate" in missed
    assert missed == [x for x in t.lesson_ids if x in missed]
    summary = words_of(t, "en").summary("certificate")
    entry = next(m for m in message["missed"] if m["lesson"] == "certificate")
    assert entry == {
        "lesson": "certificate",
        "title": summary.title,
        "explanation": summary.explanation,
    }
    fired = [e["lesson"] for m in learner.lessons for e in m["lessons"]]
    assert set(fired) | set(missed) == set(t.lesson_ids) and not set(fired) & set(missed)


def _row(**changes: Any) -> TableRow:
    row, _t = tutorial_row("take_stock")
    for key, value in changes.items():
        setattr(row, key, value)
    return row


def test_a_table_is_a_tutorials_when_it_deals_it_and_only_then() -> None:
    t = tutorial("take_stock")
    options = t.load().options_dict()
    assert tutorial_of(_row(), options) is t
    human = [SeatRow(seat=0, kind="human", name="Ana"), *_row().seats[1:]]
    assert tutorial_of(_row(seats=human), options) is t
    assert tutorial_of(_row(seed=t.seed + 1), options) is None
    assert tutorial_of(_row(rated=True), options) is None
    assert tutorial_of(_row(position="seed: 6"), options) is None
    assert tutorial_of(_row(), {**options, "rounds": 3}) is None
    hard = [*_row().seats[:2], SeatRow(seat=2, kind="bot", bot="hard")]
    assert tutorial_of(_row(seats=hard), options) is None
    people = [SeatRow(seat=p, kind="open") for p in range(3)]
    assert tutorial_of(_row(seats=people), options) is None
    assert tutorial_of(_row(game="card_stock_market"), options) is None


def test_guided_games_count_with_new_tables_against_an_address(tmp_path: Any) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), tables_per_minute=1, tables_burst=2) as c:
        assert c.post("/api/tables", json={"game": "take_stock", "seats": ["open"] * 2}).is_success
        learn(c, "take_stock")
        refused = c.post("/api/learn", json={"game": "take_stock", "name": "Ana"})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
