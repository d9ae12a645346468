"""No message and no answer of the web server leaks what its recipient may not see.

Complete games of both games are played through the server by WebSocket clients that
choose random legal actions, beside bots and spectators, in both languages. Every message
each connection receives, and the answers of the HTTP routes a spectator may call during
the game, are kept; then every field of every one of them is rebuilt from what its
recipient may read and compared (``tests/server/leakcheck.py``). Practice tables started
from a position (which holds every hidden card) are played the same way, their player
asking for hints, and no message or answer holds the position; each hint is rebuilt from
the player's view alone. Guided first games are played too: their lessons go to the
learner alone and hold only what the learner's views and events show. A tournament's table
is played by a person and a bot account signed in by its API token, and every answer about
the tournament is checked too. The checker itself is tested: a secret planted in any field
of any kind of message is caught.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import closingbell
from closingbell.learn import HUMAN, tutorial
from closingbell.server.accounts import SESSION_COOKIE
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    hello,
    join,
    receive,
    sqlite_database,
    wait_state,
)
from tests.server.leakcheck import (
    TOURNAMENT_ENTRY_KEYS,
    Game,
    Leak,
    Stream,
    check_message,
    check_raw,
    check_spectator_answer,
    check_stream,
    check_table_info,
    check_tournament,
    check_tournament_summary,
)
from tests.server.test_accounts import ORIGIN, sign_up, use


@dataclass
class Played:
    """A finished table: what the test knows, every connection's messages, HTTP answers."""

    game: Game
    streams: list[Stream]
    views: list[dict[str, Any]]
    """``GET /api/tables/{id}/view`` answers taken during the game."""
    infos: list[dict[str, Any]]
    """``GET /api/tables/{id}`` and the table's entry in ``GET /api/tables``, during the game."""
    refusals: list[str]
    """The raw answers of the routes refused during the game (record, replay: 409)."""


REFUSALS_EVERY = 5
"""The routes refused until a game ends (its record, replays, reviews) are called at the
first decision a person meets and at every fifth after it: their answers differ only in what
the table is at, and those decisions spread them over every part of the game."""


@dataclass
class Session:
    """What the connections to one table received while it was played to its end."""

    streams: list[Stream]
    views: list[dict[str, Any]]
    infos: list[dict[str, Any]]
    refusals: list[str]
    said: list[tuple[int | None, str]]
    """Every chat message written: the writer's seat (``None``: a spectator), the text."""
    votes: list[int]
    rematch: str | None
    asked: int
    """How many hints the players asked for."""


def play_table(
    client: TestClient,
    table_id: str,
    connections: list[tuple[int | None, dict[str, Any], dict[str, str]]],
    langs: list[str],
    rng: random.Random,
    *,
    spectator_chat: bool,
    hints: int = 0,
    rematch: bool = True,
    between: Callable[[], None] | None = None,
) -> Session:
    """Play a table to its end with ``connections``: for each, its seat (``None``: a
    spectator), the fields of its ``hello`` and the headers of its handshake; the people
    choose random legal actions. Keep every message, and the answers of the routes a
    spectator may call at each decision a person meets.

    Everyone who may write in the chat writes markup in it at the start; with ``hints``, the
    player asks for a hint at that many decisions before choosing; with ``rematch``, every
    person votes for a rematch at the end; ``between`` is called at each of those decisions.
    """
    who = [seat for seat, _, _ in connections]
    humans = [seat for seat in who if seat is not None]
    path = f"/ws/tables/{table_id}"
    sockets = [client.websocket_connect(path, headers=h).__enter__() for _, _, h in connections]
    streams = [Stream(seat, langs[i % len(langs)], [], []) for i, seat in enumerate(who)]
    session = Session(streams, [], [], [], [], [], None, 0)

    def read(i: int) -> dict[str, Any]:
        message = receive(sockets[i])
        assert message is not None, f"connection {i}: no message came"
        assert message["type"] not in ("closed", "error"), message
        streams[i].raw.append(json.dumps(message))
        streams[i].messages.append(message)
        return message

    def settled_after(version: int, message: dict[str, Any]) -> bool:
        # Bots stop when a person must decide: every connection reaches that state.
        return (
            message["type"] == "state"
            and message["version"] > version
            and (message["status"] == "finished" or message["current_player"] in humans)
        )

    try:
        for i, ws in enumerate(sockets):
            fields = connections[i][1]
            ws.send_text(json.dumps({"type": "hello", **fields, "lang": streams[i].lang}))
        for i, ws in enumerate(sockets):
            if who[i] is not None or spectator_chat:
                text = f" <img src=x onerror=alert({i})><b>hi</b> from {i} "
                session.said.append((who[i], text))
                ws.send_text(json.dumps({"type": "chat", "text": text}))
        version = -1
        while True:
            reached = []
            for i in range(len(sockets)):
                while not settled_after(version, message := read(i)):
                    pass
                reached.append(message)
            assert len({m["version"] for m in reached}) == 1
            version = reached[0]["version"]
            session.views.append(client.get(f"/api/tables/{table_id}/view").json())
            session.infos.append(client.get(f"/api/tables/{table_id}").json()["table"])
            session.infos += [
                t for t in client.get("/api/tables").json()["tables"] if t["id"] == table_id
            ]
            if between is not None:
                between()
            if reached[0]["status"] == "finished":
                break
            if len(session.views) % REFUSALS_EVERY == 1:
                for route in ("record", "record.cbrec", "replay", "replay?seat=0", "review?seat=0"):
                    refused = client.get(f"/api/tables/{table_id}/{route}")
                    assert refused.status_code == 409
                    session.refusals.append(refused.text)
                refused = client.post(f"/api/tables/{table_id}/review?seat=0")
                assert refused.status_code == 409
                session.refusals.append(refused.text)
            mover = reached[0]["current_player"]
            i = who.index(mover)
            if session.asked < hints and version % 7 == 0:
                session.asked += 1
                sockets[i].send_text(json.dumps({"type": "hint", "version": version}))
                while read(i)["type"] != "hint":
                    pass
            choice = rng.choice(reached[i]["legal"])
            sockets[i].send_text(
                json.dumps({"type": "action", "version": version, "action": choice["id"]})
            )
        for seat in humans if rematch else []:
            session.votes.append(seat)
            sockets[who.index(seat)].send_text(json.dumps({"type": "rematch"}))
            for i in range(len(sockets)):
                while not (
                    (message := read(i))["type"] == "rematch" and message["votes"] == session.votes
                ):
                    pass
            session.rematch = message["table"]
        if rematch:
            assert isinstance(session.rematch, str)
        for stream in streams:
            chats = [e for m in stream.messages if m["type"] == "chat" for e in m["messages"]]
            assert len(chats) == len(session.said), (stream.seat, chats)
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    return session


def recorded_states(
    client: TestClient, table_id: str, game_name: str
) -> tuple[closingbell.Game, list[Any], dict[str, Any]]:
    """A finished table's rules, every state from its start to its end, and its record."""
    body = client.get(f"/api/tables/{table_id}/record").json()
    rules = closingbell.load_game(game_name, **body["options"])
    position = body["position"]
    state = (
        rules.new_game(body["seed"]) if position is None else rules.state_from_position(position)
    )
    states = [state.clone()]
    for action in body["actions"]:
        state.apply(action["id"])
        states.append(state.clone())
    assert state.is_terminal()
    return rules, states, body


def play_through(
    client: TestClient,
    game_name: str,
    seats: list[str],
    seed: int,
    langs: list[str],
    *,
    position: str | None = None,
    move_time: float | None = None,
    hints: int = 0,
    guided: bool = False,
    accounts: frozenset[int] = frozenset(),
    options: dict[str, Any] | None = None,
) -> Played:
    """Play a whole game with random clients in the open seats and two spectators.

    With ``position``, the table starts from it (and ``seed`` only drives the clients);
    with ``move_time``, it is a game over days; with ``hints``, the player asks for a hint
    at that many decisions (spread over the game) before choosing; ``guided``, the game's
    guided first game (``POST /api/learn``; ``seats`` and ``seed`` are then the tutorial's,
    and ``seed`` also drives the learner); the open seats in ``accounts`` are taken by
    signed-in accounts (``player2``), the others by guests; ``options``, the game's rules
    options. Everyone who may write in the
    chat writes markup in it at the start (spectators may at the tables of an even seed),
    and at the end every person votes for a rematch.
    """
    spectator_chat = seed % 2 == 0 and not guided
    extra: dict[str, Any] = {"spectator_chat": spectator_chat}
    if move_time is not None:
        extra["move_time"] = move_time
    if options is not None:
        extra["options"] = options
    tokens: dict[int, str] = {}
    if guided:
        answer = client.post(
            "/api/learn", json={"game": game_name, "name": f"player {seats.index('open')}"}
        )
        assert answer.status_code == 201, answer.text
        table = answer.json()["table"]
        tokens[answer.json()["seat"]] = answer.json()["token"]
    elif position is None:
        table = create(client, game_name, seats, seed=seed, **extra)
    else:
        table = create(client, game_name, seats, position=position, **extra)
    table_id = table["id"]
    humans = [p for p, kind in enumerate(seats) if kind == "open"]
    for p in humans:
        if p not in tokens and p not in accounts:
            tokens[p] = join(client, table_id, f"player {p}", seat=p)["token"]
    for p in sorted(accounts):
        sign_up(client, f"player{p}")
        answer = client.post(f"/api/tables/{table_id}/join", json={"seat": p}, headers=ORIGIN)
        assert answer.status_code == 200, answer.text
        tokens[p] = answer.json()["token"]
        use(client, None)  # the routes are called as a guest's page calls them
    who: list[int | None] = [None, None, *humans]
    session = play_table(
        client,
        table_id,
        [(seat, {"token": tokens.get(seat) if seat is not None else None}, {}) for seat in who],
        langs,
        random.Random(seed),
        spectator_chat=spectator_chat,
        hints=hints,
    )
    rules, states, body = recorded_states(client, table_id, game_name)
    assert body["position"] == position
    assert position is not None or body["seed"] == seed
    state = states[-1]
    kinds = ["bot" if kind != "open" else "human" for kind in seats]
    names: list[str | None] = [
        kind if kind != "open" else f"player{p}" if p in accounts else f"player {p}"
        for p, kind in enumerate(seats)
    ]
    known = Game(
        rules,
        table_id,
        states,
        kinds,
        names,
        state.seed,
        tokens,
        position,
        move_time,
        said=session.said,
        spectator_chat=spectator_chat,
        accounts=accounts,
        votes=session.votes,
        rematch=session.rematch,
        hinted=session.asked > 0,
        tutorial=tutorial(game_name) if guided else None,
    )
    assert session.asked == hints, f"{session.asked} hints asked of {hints}"
    return Played(known, session.streams, session.views, session.infos, session.refusals)


TWO_ROUNDS = {"rounds": 2}
"""Take Stock in two rounds: a round's end, the next deal and the final scoring, in half the
messages of the rulebook's four."""

GAMES = [
    ("take_stock", ["open", "open", "open"], 1_000, ["en", "zh-Hant"], None),
    (
        "take_stock",
        ["open", "medium", "open"],
        7_318_220_468_111_907,
        ["zh-Hant", "en"],
        TWO_ROUNDS,
    ),
    ("take_stock", ["medium", "open", "open", "easy"], 5_944_102_377_520_063, ["en"], TWO_ROUNDS),
    (
        "card_stock_market",
        ["open", "open", "medium"],
        6_402_918_833_174_211,
        ["en", "zh-Hant"],
        None,
    ),
    (
        "card_stock_market",
        ["hard", "open", "open", "open"],
        8_813_006_245_719_442,
        ["zh-Hant"],
        None,
    ),
]
"""Whole games played for the check of every field: the game, its seats, its seed, the
connections' languages, its rules options."""


def midgame_position(game: str, players: int, seed: int, steps: int) -> str:
    """The canonical position of a dealt game after ``steps`` random actions (a big seed,
    so that the checks can tell it apart from any other number in a message)."""
    state = closingbell.load_game(game, players=players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state.to_position()


POSITION_GAMES = [
    ("take_stock", ["medium", "open", "easy"], 4_402_771_093_516_128, ["en", "zh-Hant"], 40),
    ("card_stock_market", ["open", "hard", "medium"], 3_918_224_605_771_349, ["zh-Hant"], 30),
]
"""Practice tables: a game's position after some random actions, one person against bots."""


def check_played(played: Played) -> None:
    """Check every message and answer a finished table's clients received."""
    known = played.game
    states = sum(check_stream(known, stream) for stream in played.streams)
    assert states > 20 * len(played.streams)
    for body in played.views:
        check_spectator_answer(known, body)
        check_raw(known, json.dumps(body))
    for info in played.infos:
        check_table_info(known, info)
        check_raw(known, json.dumps(info))
    for text in played.refusals:
        check_raw(known, text)


@pytest.mark.parametrize("case", POSITION_GAMES, ids=[g[0] for g in POSITION_GAMES])
def test_a_table_from_a_position_never_sends_it_while_it_is_played(
    client: TestClient, case: tuple[str, list[str], int, list[str], int]
) -> None:
    game, seats, seed, langs, steps = case
    position = midgame_position(game, len(seats), seed, steps)
    played = play_through(client, game, seats, seed, langs, position=position, hints=2)
    assert played.game.position == position and played.game.seed == seed
    assert all(info["from_position"] is True for info in played.infos)
    assert played.infos[-1]["hints_used"] is True
    check_played(played)
    hints = [m for s in played.streams for m in s.messages if m["type"] == "hint"]
    assert len(hints) == 2


def test_a_game_over_days_sends_its_deadlines_and_nothing_more(client: TestClient) -> None:
    # Such games are played by accounts ("My games"): one here, beside a guest.
    seats = ["open", "easy", "open"]
    played = play_through(
        client,
        "take_stock",
        seats,
        6_120_554_892_301_774_331,
        ["en"],
        move_time=86400.0,
        accounts=frozenset({2}),
        options=TWO_ROUNDS,
    )
    check_played(played)
    said = [
        e for s in played.streams for m in s.messages if m["type"] == "chat" for e in m["messages"]
    ]
    assert {(e["seat"], e["account"]) for e in said} == {(0, False), (2, True)}
    playing = [m for s in played.streams for m in s.messages if m.get("status") == "playing"]
    assert playing and all(m["time_left"] > 86000 for m in playing)
    assert {i["move_time"] for i in played.infos} == {86400.0}


def test_a_tournament_table_and_every_answer_of_its_tournament_keep_its_secrets(
    tmp_path: Path,
) -> None:
    """A person and a bot account (its program signed in by its API token) meet a built-in bot
    at a rated tournament table. Every message of the table, to each seat and to spectators,
    is checked field by field, with the bot account marked as a bot; every answer about the
    tournament, asked by a guest, the person and the bot account before, during and after
    the game, holds only names, points and table ids: no seed, token, cookie or account id."""
    with client_for(sqlite_database(tmp_path / "web.db"), tournament_tick=0.05) as client:
        maker = sign_up(client, "maker")
        made = client.post(
            "/api/tournaments",
            json={
                "kind": "swiss",
                "name": "Leak Cup",
                "game": "take_stock",
                "table_size": 3,
                "rounds": 1,
                "starts_in": 3600,
                "clock": 600,
                "rated": True,
                "bots": ["medium"],
                "options": TWO_ROUNDS,
            },
            headers=ORIGIN,
        )
        assert made.status_code == 201, made.text
        tid = made.json()["tournament"]["id"]
        assert client.post(f"/api/tournaments/{tid}/join", headers=ORIGIN).status_code == 200
        robo_cookie = sign_up(client, "robo")
        assert client.post("/api/account/bot", headers=ORIGIN).status_code == 200
        answer = client.post("/api/account/tokens", json={"name": "agent"}, headers=ORIGIN)
        token = answer.json()["token"]
        use(client, None)
        bearer = {"Authorization": f"Bearer {token}"}
        joined = client.post(f"/api/tournaments/{tid}/join", headers=bearer)
        assert joined.status_code == 200, joined.text
        viewers: list[tuple[str | None, dict[str, str]]] = [
            (None, {}),
            (maker, {}),
            (None, bearer),
        ]
        answers: list[str] = []

        def look() -> None:
            for cookie, headers in viewers:
                use(client, cookie)
                for path in (f"/api/tournaments/{tid}", "/api/tournaments"):
                    got = client.get(path, headers=headers)
                    assert got.status_code == 200, got.text
                    answers.append(got.text)
            use(client, None)

        look()
        use(client, maker)
        assert client.post(f"/api/tournaments/{tid}/start", headers=ORIGIN).status_code == 200
        deadline = time.monotonic() + 30
        while (table_id := client.get(f"/api/tournaments/{tid}").json()["you"]["table"]) is None:
            assert time.monotonic() < deadline, "the round was not seated"
            time.sleep(0.05)
        use(client, None)
        seats = client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
        names = [s["name"] for s in seats]
        at = {name: p for p, name in enumerate(names)}
        session = play_table(
            client,
            table_id,
            [
                (None, {}, {}),
                (None, {}, {}),
                (at["maker"], {"account": True}, {**ORIGIN, "cookie": f"{SESSION_COOKIE}={maker}"}),
                (at["robo"], {"account": True}, bearer),
            ],
            ["en", "zh-Hant"],
            random.Random(11),
            spectator_chat=False,
            rematch=False,
            between=look,
        )
        deadline = time.monotonic() + 30
        while client.get(f"/api/tournaments/{tid}").json()["tournament"]["status"] != "finished":
            assert time.monotonic() < deadline, "the tournament did not finish"
            time.sleep(0.05)
        look()
        profiles = [client.get(f"/api/players/{n}").text for n in ("maker", "robo")]
        rules, states, body = recorded_states(client, table_id, "take_stock")
    known = Game(
        rules,
        table_id,
        states,
        ["bot" if name == "medium" else "human" for name in names],
        names,
        body["seed"],
        {},
        said=session.said,
        accounts=frozenset({at["maker"], at["robo"]}),
        bot_accounts=frozenset({at["robo"]}),
        rated=True,
        clock=600,
        secrets=(token, maker, robo_cookie, "user:"),
    )
    check_played(Played(known, session.streams, session.views, session.infos, session.refusals))
    entrants = {"maker": (None, False), "robo": (None, True), "bot:medium:1": ("medium", False)}
    statuses = set()
    for raw in answers + profiles:
        check_raw(known, raw)
        shown = json.loads(raw)
        if "tournaments" in shown and "now" in shown:  # the list
            for summary in shown["tournaments"]:
                check_tournament_summary(summary)
        elif "standings" in shown:
            check_tournament(known, shown, entrants)
            statuses.update(t["status"] for r in shown["rounds"] for t in r["tables"])
    assert statuses == {"playing", "finished"}
    for raw in profiles:
        [entry] = json.loads(raw)["tournaments"]
        assert set(entry) == TOURNAMENT_ENTRY_KEYS and entry["name"] == "Leak Cup", entry
    robo_lines = [
        e for m in session.streams[0].messages if m["type"] == "chat" for e in m["messages"]
    ]
    assert any(e["bot_account"] for e in robo_lines)


@pytest.mark.parametrize("case", GAMES, ids=[f"{g[0]}-{g[2]}" for g in GAMES])
def test_every_field_of_every_message_is_what_its_recipient_may_know(
    request: pytest.FixtureRequest, case: tuple[Any, ...]
) -> None:
    game, seats, seed, langs, options = case
    if case == GAMES[0]:
        played = request.getfixturevalue("played")  # the planted leaks' game, played once
    else:
        client = request.getfixturevalue("client")
        played = play_through(client, game, seats, seed, langs, options=options)
    check_played(played)
    if game == "take_stock":
        # The games reach secret choices, and their recipients were told no more than the
        # seat that chose (checked above): count them so that the test cannot pass empty.
        hidden = [
            m
            for s in played.streams
            for m in s.messages
            if m["type"] == "state" and (m["last_action"] or {}).get("id", 0) is None
        ]
        assert hidden, "no secret choice of another seat was played"


# ---------------------------------------------------------------- the checker catches leaks


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """One whole Take Stock game of people only, with secret choices in it: the first of
    ``GAMES``, played once for the check of every field and for the planted leaks."""
    path = Path(tmp_path_factory.mktemp("leaks")) / "web.db"
    game, seats, seed, langs, _ = GAMES[0]
    with client_for(sqlite_database(path)) as client:
        yield play_through(client, game, seats, seed, langs)


def first(played: Played, want: Callable[[Stream, dict[str, Any]], bool]) -> tuple[Stream, int]:
    """The first message (its stream and index) that ``want`` picks."""
    for stream in played.streams:
        for i, message in enumerate(stream.messages):
            if want(stream, message):
                return stream, i
    raise AssertionError("no such message in the game")


def state_of(played: Played, message: dict[str, Any]) -> Any:
    return played.game.states[message["version"]]


def other_hand(played: Played, stream: Stream, message: dict[str, Any]) -> list[int]:
    """Another seat's hand at the message's version: a secret of the recipient."""
    state = state_of(played, message)
    other = next(q for q in range(state.n) if q != stream.seat and state.hands[q])
    return list(state.hands[other])


def is_secret_of_another(stream: Stream, message: dict[str, Any]) -> bool:
    last = message.get("last_action") or {}
    return message["type"] == "state" and last.get("secret") and last.get("id") is None


def must_be_caught(played: Played, stream: Stream, index: int, message: dict[str, Any]) -> None:
    """Checking ``message`` in place of ``stream.messages[index]`` raises :class:`Leak`."""
    original = stream.messages[index]
    sent = original.get("first_event", 0)
    states = [m["version"] for m in stream.messages[:index] if m["type"] == "state"]
    version = states[-1] if states else 0
    # The real one passes.
    check_message(played.game, stream, stream.raw[index], original, sent, version=version)
    with pytest.raises(Leak):
        check_message(played.game, stream, json.dumps(message), message, sent, version=version)


def tell_the_secret_choice(played: Played) -> tuple[Stream, int, dict[str, Any]]:
    def untellable(stream: Stream, message: dict[str, Any]) -> bool:
        # (The last choice before a reveal may be told: the reveal shows it anyway.)
        return is_secret_of_another(stream, message) and not played.game.may_tell(
            message["version"], stream.seat
        )

    stream, i = first(played, untellable)
    message = copy.deepcopy(stream.messages[i])
    state = state_of(played, message)
    action = state.history[-1]
    message["last_action"].update(id=action, text=state.action_to_string(action))
    return stream, i, message


def unredact_an_event(played: Played) -> tuple[Stream, int, dict[str, Any]]:
    def redacted(stream: Stream, message: dict[str, Any]) -> bool:
        return message["type"] == "state" and any(
            e.get("card", 0) is None for e in message["events"]
        )

    stream, i = first(played, redacted)
    message = copy.deepcopy(stream.messages[i])
    event = next(e for e in message["events"] if e.get("card", 0) is None)
    event["card"] = other_hand(played, stream, message)[0]
    return stream, i, message


def unredact_drawn_events(played: Played) -> tuple[Stream, int, dict[str, Any]]:
    def redacted(stream: Stream, message: dict[str, Any]) -> bool:
        return message["type"] == "state" and any(
            e["type"] == "drew_events" and e["events"] is None for e in message["events"]
        )

    stream, i = first(played, redacted)
    message = copy.deepcopy(stream.messages[i])
    state = state_of(played, message)
    at, event = next(
        (j, e)
        for j, e in enumerate(message["events"])
        if e["type"] == "drew_events" and e["events"] is None
    )
    # The same entry as its owner reads it: the owner's how-many-th draw of event cards.
    seen = state.visible_events(stream.seat)[: message["first_event"] + at]
    nth = sum(e["type"] == "drew_events" and e["seat"] == event["seat"] for e in seen)
    owners = [
        e
        for e in state.visible_events(event["seat"])
        if e["type"] == "drew_events" and e["seat"] == event["seat"]
    ]
    assert owners[nth]["count"] == event["count"]
    event["events"] = owners[nth]["events"]
    return stream, i, message


def legal_of_another(played: Played) -> tuple[Stream, int, dict[str, Any]]:
    def waiting_seat(stream: Stream, message: dict[str, Any]) -> bool:
        return (
            message["type"] == "state"
            and message["status"] == "playing"
            and stream.seat is not None
            and message["current_player"] != stream.seat
        )

    stream, i = first(played, waiting_seat)
    message = copy.deepcopy(stream.messages[i])
    state = state_of(played, message)
    message["legal"] = [
        {"id": a, "text": state.action_to_string(a), "label": None} for a in state.legal_actions()
    ]
    return stream, i, message


def with_change(
    want: Callable[[Stream, dict[str, Any]], bool], change: Callable[[Played, Stream, Any], None]
) -> Callable[[Played], tuple[Stream, int, dict[str, Any]]]:
    def plant(played: Played) -> tuple[Stream, int, dict[str, Any]]:
        stream, i = first(played, want)
        message = copy.deepcopy(stream.messages[i])
        change(played, stream, message)
        return stream, i, message

    return plant


def a_state(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message["status"] == "playing" and bool(message["events"])


def a_welcome(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "welcome"


def a_seats(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "seats"


def a_chat(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "chat"


def a_spectators_chat(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "chat" and message["messages"][0]["seat"] is None


def a_rematch(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "rematch" and message["table"] is not None


def a_first_vote(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "rematch" and message["table"] is None and stream.seat is not None


def another_token(played: Played, stream: Stream) -> str:
    """A seat token that is not ``stream``'s own."""
    return next(t for p, t in played.game.tokens.items() if p != stream.seat)


SEMANTIC_PLANTS = {
    "last_action tells another seat's secret choice": tell_the_secret_choice,
    "an event shows another seat's hidden card": unredact_an_event,
    "an event names the event cards another seat drew": unredact_drawn_events,
    "legal actions go to a seat that does not decide": legal_of_another,
    "the view shows another seat's hand": with_change(
        a_state, lambda p, s, m: m["view"].update(hand=other_hand(p, s, m))
    ),
    "the view gains every hand": with_change(
        a_state, lambda p, s, m: m["view"].update(hands=state_of(p, m).hands)
    ),
    "a line names another seat's card": with_change(
        a_state,
        lambda p, s, m: m["lines"].append(f"seat holds {other_hand(p, s, m)[0]}"),
    ),
    "the result before the end": with_change(
        a_state,
        lambda p, s, m: m.update(result={"scores": [0, 0, 0], "winners": [0]}),
    ),
    "a new field with the seed": with_change(a_state, lambda p, s, m: m.update(seed=p.game.seed)),
    "a seat info with a token": with_change(
        a_state, lambda p, s, m: m["seats"][0].update(token=next(iter(p.game.tokens.values())))
    ),
    "the welcome's table with the seed": with_change(
        a_welcome, lambda p, s, m: m["table"].update(seed=p.game.seed)
    ),
    "a seats message with the hands": with_change(
        a_seats, lambda p, s, m: m.update(hands=state_of(p, {"version": m["version"]}).hands)
    ),
    "a chat message that nobody typed": with_change(
        a_chat,
        lambda p, s, m: m["messages"][0].update(text=f"hand {other_hand(p, s, {'version': 5})}"),
    ),
    "a chat message under another seat's name": with_change(
        a_chat, lambda p, s, m: m["messages"][0].update(name="someone else")
    ),
    "a guest's chat message marked as an account's": with_change(
        a_chat, lambda p, s, m: m["messages"][0].update(account=True)
    ),
    "a chat message with a seat token": with_change(
        a_chat, lambda p, s, m: m["messages"][0].update(token=another_token(p, s))
    ),
    "a rematch message with another seat's token": with_change(
        a_rematch, lambda p, s, m: m.update(token=another_token(p, s))
    ),
    "a rematch opened before everyone agreed": with_change(
        a_first_vote, lambda p, s, m: m.update(table=p.game.rematch)
    ),
    "the view of a later version": with_change(
        a_state,
        lambda p, s, m: m.update(view=p.game.states[m["version"] + 1].view(s.seat).to_dict()),
    ),
}


@pytest.mark.parametrize("plant", list(SEMANTIC_PLANTS))
def test_a_planted_leak_is_caught(played: Played, plant: str) -> None:
    stream, i, message = SEMANTIC_PLANTS[plant](played)
    must_be_caught(played, stream, i, message)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key and index inside ``value``, outermost first (lists: their first item)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list) and value:
        yield (*prefix, 0)
        yield from paths(value[0], (*prefix, 0))


def sample_messages(played: Played) -> list[tuple[Stream, int]]:
    """One message of each kind and situation: every field of the protocol appears."""

    def deciding(stream: Stream, message: dict[str, Any]) -> bool:
        return a_state(stream, message) and bool(message["legal"]) and bool(message["last_action"])

    def finished(stream: Stream, message: dict[str, Any]) -> bool:
        return message["type"] == "state" and message["status"] == "finished"

    return [
        first(played, want)
        for want in (
            deciding,
            is_secret_of_another,
            finished,
            a_welcome,
            a_seats,
            a_chat,
            a_spectators_chat,
            a_rematch,
        )
    ]


def test_a_secret_planted_in_any_field_is_caught(played: Played) -> None:
    stream, i = first(played, a_state)
    secret = other_hand(played, stream, stream.messages[i])
    planted = 0
    for stream, i in sample_messages(played):
        original = stream.messages[i]
        for path in paths(original):
            if path == ("type",):
                continue  # another type is another message, checked by its own rules
            message = copy.deepcopy(original)
            holder = message
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = {"leak": secret}
            must_be_caught(played, stream, i, message)
            planted += 1
        for path in [(), *paths(original)]:
            message = copy.deepcopy(original)
            holder = message
            for key in path:
                holder = holder[key]
            if isinstance(holder, dict):
                holder["leak"] = secret
                must_be_caught(played, stream, i, message)
                planted += 1
    assert planted > 150


def test_a_restarted_server_still_hides_the_last_secret_choice(tmp_path: Path) -> None:
    # After a restart the last action is rebuilt from the stored actions: a secret choice
    # must come back as secret, told in full to its own seat only.
    url = f"sqlite:///{tmp_path / 'web.db'}"
    seed = 1_000
    real = closingbell.load_game("take_stock", players=3).new_game(seed)
    rng = random.Random(seed)
    while not (real.choice_is_secret() and real.current_player == 0):
        real.apply(rng.choice(real.legal_actions()))
    moves = list(real.history)
    secret = real.legal_actions()[0]
    with client_for(url) as client:
        table_id = create(client, "take_stock", ["open"] * 3, seed=seed)["id"]
        tokens = [join(client, table_id, f"p{p}", seat=p)["token"] for p in range(3)]
        sockets = [client.websocket_connect(f"/ws/tables/{table_id}") for _ in range(3)]
        with sockets[0] as ws0, sockets[1] as ws1, sockets[2] as ws2:
            mine = (ws0, ws1, ws2)
            for ws, token in zip(mine, tokens, strict=True):
                hello(ws, token)
            state = real.game.new_game(seed)
            for action in [*moves, secret]:
                ws = mine[state.current_player]
                act(ws, len(state.history), action)
                state.apply(action)
                version = len(state.history)
                for other in mine:
                    wait_state(other, lambda m, v=version: m["version"] == v)
    with client_for(url) as client, client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
        expect(ws, "welcome")
        own = expect(ws, "state")["last_action"]
        assert own["id"] == secret and own["secret"] is True
        seen = client.get(f"/api/tables/{table_id}/view").json()["last_action"]
        assert seen == {"seat": 0, "id": None, "text": None, "by": "player", "secret": True}


def test_a_position_planted_in_a_message_is_caught(played: Played) -> None:
    position = midgame_position("take_stock", 3, POSITION_GAMES[0][2], 40)
    known = dataclasses.replace(played.game, position=position)
    stream, i = first(played, a_state)
    check_raw(known, stream.raw[i])  # the real message passes
    hands = next(f for f in position.split("; ") if f.startswith("hands: "))[len("hands: ") :]
    for piece in (position, hands, hands.split(" / ")[1]):
        message = copy.deepcopy(stream.messages[i])
        message["lines"].append(piece)
        with pytest.raises(Leak, match="position"):
            check_raw(known, json.dumps(message, ensure_ascii=False))


def test_a_spectators_message_where_spectators_only_read_is_caught(played: Played) -> None:
    stream, i = first(played, a_spectators_chat)
    check_message(played.game, stream, stream.raw[i], stream.messages[i], 0)
    closed = dataclasses.replace(played.game, spectator_chat=False)
    with pytest.raises(Leak, match="spectator"):
        check_message(closed, stream, stream.raw[i], stream.messages[i], 0)


# ---------------------------------------------------------------- hints


@pytest.fixture(scope="module")
def hinted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A whole Take Stock game at a practice table, its player asking for three hints."""
    path = Path(tmp_path_factory.mktemp("hints")) / "web.db"
    with client_for(sqlite_database(path)) as client:
        yield play_through(
            client, "take_stock", ["random", "open", "easy"], 4_407_113_902, ["zh-Hant"], hints=3
        )


def a_hint(stream: Stream, message: dict[str, Any]) -> bool:
    return message["type"] == "hint"


def _swap_best(played: Played, stream: Stream, message: dict[str, Any]) -> None:
    message["best"], message["actions"][1] = message["actions"][1], message["best"]


HINT_PLANTS = {
    "a hint's label names another seat's card": lambda p, s, m: m["best"].update(
        label=f"{m['best']['label']} {other_hand(p, s, m)[0]}"
    ),
    "a hint's reason names another seat's hand": lambda p, s, m: m.update(
        reason=f"they hold {other_hand(p, s, m)}"
    ),
    "a hint with every hand": lambda p, s, m: m.update(hands=state_of(p, m).hands),
    "a hint of another action than the analysis's": _swap_best,
    "a hint's chance of winning from elsewhere": lambda p, s, m: m["best"].update(win=1.0),
    "a hint for a later decision": lambda p, s, m: m.update(version=m["version"] + 1),
    "a hint of fewer worlds": lambda p, s, m: m.update(worlds=m["worlds"] - 1),
}


@pytest.mark.parametrize("plant", list(HINT_PLANTS))
def test_a_leak_planted_in_a_hint_is_caught(hinted: Played, plant: str) -> None:
    stream, i = first(hinted, a_hint)
    message = copy.deepcopy(stream.messages[i])
    HINT_PLANTS[plant](hinted, stream, message)
    must_be_caught(hinted, stream, i, message)


def test_a_hint_checked_at_a_table_with_another_person_is_caught(hinted: Played) -> None:
    stream, i = first(hinted, a_hint)
    kinds = ["human" if p != stream.seat else k for p, k in enumerate(hinted.game.kinds)]
    crowded = dataclasses.replace(hinted.game, kinds=kinds)
    with pytest.raises(Leak, match="another person"):
        check_message(crowded, stream, stream.raw[i], stream.messages[i], 0)


def test_a_secret_planted_in_any_field_of_a_hint_is_caught(hinted: Played) -> None:
    check_played(hinted)
    stream, i = first(hinted, a_hint)
    original = stream.messages[i]
    secret = other_hand(hinted, stream, original)
    planted = 0
    for path in paths(original):
        if path == ("type",):
            continue
        message = copy.deepcopy(original)
        holder = message
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = {"leak": secret}
        must_be_caught(hinted, stream, i, message)
        planted += 1
    assert planted > 25


# ---------------------------------------------------------------- guided first games


def guided_seats(game: str) -> list[str]:
    """The seats of ``game``'s guided first game, as ``play_through`` takes them."""
    return ["open" if kind == HUMAN else kind for kind in tutorial(game).seats]


GUIDED = [("take_stock", ["en", "zh-Hant"]), ("card_stock_market", ["zh-Hant", "en"])]
"""Guided first games and their connections' languages (the learner's first)."""


@pytest.mark.parametrize(("game", "langs"), GUIDED, ids=[g[0] for g in GUIDED])
def test_a_guided_games_lessons_go_to_its_learner_alone_and_hold_what_it_may_know(
    client: TestClient, game: str, langs: list[str]
) -> None:
    t = tutorial(game)
    played = play_through(client, game, guided_seats(game), t.seed, langs, guided=True)
    check_played(played)
    assert all(info["tutorial"] is True for info in played.infos)
    for stream in played.streams:
        lessons = [m for m in stream.messages if m["type"] == "lessons"]
        if stream.seat != t.seat:
            assert lessons == []
            continue
        assert stream.lang == langs[0]
        assert lessons[0]["history"] is True
        assert lessons[-1]["missed"] is not None
        fired = [e["lesson"] for m in lessons[1:] for e in m["lessons"]]
        assert len(fired) >= 3, fired


@pytest.fixture(scope="module")
def guided(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """One guided first game of Take Stock, its learner choosing at random."""
    path = Path(tmp_path_factory.mktemp("guided")) / "web.db"
    t = tutorial("take_stock")
    with client_for(sqlite_database(path)) as client:
        yield play_through(
            client, "take_stock", guided_seats("take_stock"), t.seed, ["en"], guided=True
        )


def learner_lessons(played: Played) -> tuple[Stream, int]:
    """The first ``lessons`` message of the game's learner with a lesson an action brought."""

    def brought(stream: Stream, message: dict[str, Any]) -> bool:
        return (
            message["type"] == "lessons"
            and not message["history"]
            and any(e["happened"] and e["version"] > 0 for e in message["lessons"])
        )

    return first(played, brought)


def test_a_secret_planted_in_any_field_of_a_lessons_message_is_caught(guided: Played) -> None:
    stream, i = learner_lessons(guided)
    state = next(m for m in stream.messages[i::-1] if m["type"] == "state")
    secret = other_hand(guided, stream, state)
    original = stream.messages[i]
    planted = 0
    for path in paths(original):
        if path == ("type",):
            continue
        message = copy.deepcopy(original)
        holder = message
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = {"leak": secret}
        must_be_caught(guided, stream, i, message)
        planted += 1
    for path in [(), ("lessons", 0)]:
        message = copy.deepcopy(original)
        holder = message
        for key in path:
            holder = holder[key]
        holder["leak"] = secret
        must_be_caught(guided, stream, i, message)
        planted += 1
    assert planted >= 10


def test_a_lesson_that_says_more_or_goes_elsewhere_is_caught(guided: Played) -> None:
    stream, i = learner_lessons(guided)
    original = stream.messages[i]
    state = next(m for m in stream.messages[i::-1] if m["type"] == "state")
    card = other_hand(guided, stream, state)[0]
    words = guided.game.narrator("en").card_name(card)  # type: ignore[attr-defined]
    for change in (
        lambda m: m["lessons"][0].update(happened=f"{m['lessons'][0]['happened']} ({words})"),
        lambda m: m["lessons"][0].update(version=m["lessons"][0]["version"] + 1),
        lambda m: m["lessons"][0].update(event=(m["lessons"][0]["event"] or 0) + 1),
        lambda m: m["lessons"][0].update(lesson="welcome"),  # the deal's, not this action's
        lambda m: m.update(missed=[]),
        lambda m: m.update(history=True),
    ):
        message = copy.deepcopy(original)
        change(message)
        must_be_caught(guided, stream, i, message)
    # To a spectator, or at an ordinary table, any lessons message is a leak.
    spectator = next(s for s in guided.streams if s.seat is None)
    check_message(guided.game, spectator, spectator.raw[0], spectator.messages[0], 0)
    with pytest.raises(Leak, match="lessons sent to seat None"):
        check_message(guided.game, spectator, json.dumps(original), original, 0, version=5)
    ordinary = dataclasses.replace(guided.game, tutorial=None)
    with pytest.raises(Leak, match="not a guided game"):
        check_message(ordinary, stream, stream.raw[i], original, 0, version=5)
