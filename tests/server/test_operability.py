"""Running the server in production: health and readiness, metrics, request ids and logs."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError

from closingbell.server.app import create_app
from closingbell.server.hub import Hub
from closingbell.server.logs import (
    JsonFormatter,
    bound,
    json_handler,
    request_id,
    table_context,
)
from closingbell.server.protocol import ErrorCode
from tests.server.helpers import (
    act,
    client_for,
    create,
    expect,
    expect_error,
    hello,
    join,
    run_sql,
    sqlite_database,
)

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

LABELS = {"game", "status", "by", "write", "bot", "code", "le"}
"""Every label a metric may carry: small fixed sets only."""


def scrape(client: TestClient) -> Samples:
    """Every sample of ``GET /metrics``, by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            out[sample.name, frozenset(sample.labels.items())] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[name, frozenset(labels.items())]


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def hub_of(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def two_players(client: TestClient) -> tuple[str, list[str]]:
    table = create(client, "take_stock", ["open", "open"], seed=5)
    tokens = [join(client, table["id"], name)["token"] for name in ("Ana", "Bob")]
    return table["id"], tokens


# ---------------------------------------------------------------- health and readiness


def test_healthz_answers_and_readyz_refuses_before_start_up(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}"))  # lifespan not run
    health = client.get("/healthz")
    assert (health.status_code, health.json()) == (200, {"ok": True})
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["error"]["code"] == "not_ready"
    assert "not started" in ready.json()["error"]["message"]


def test_readyz_answers_once_started_and_refuses_after_stopping(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        ready = client.get("/readyz")
        assert (ready.status_code, ready.json()) == (200, {"ok": True})
        assert client.get("/healthz").status_code == 200
    # The lifespan has run its shutdown: the hub is stopped and gone.
    after = client.get("/readyz")
    assert after.status_code == 503
    assert after.json()["error"]["code"] == "not_ready"


def test_readyz_refuses_while_stopping(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        hub = hub_of(client)
        hub.stopping = True  # what the lifespan sets first when the server stops
        try:
            ready = client.get("/readyz")
        finally:
            hub.stopping = False
        assert ready.status_code == 503
        assert ready.json()["error"] == {"code": "not_ready", "message": "the server is stopping"}


def test_readyz_refuses_when_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        store = hub_of(client).store

        async def down() -> None:
            raise OperationalError("SELECT 1", None, ConnectionRefusedError("db.internal:5432"))

        monkeypatch.setattr(store, "ping", down)
        before = value(scrape(client), "closingbell_errors_total", code="not_ready")
        ready = client.get("/readyz")
        assert ready.status_code == 503
        # The reason goes to the log, not to whoever asks.
        assert ready.json()["error"] == {
            "code": "not_ready",
            "message": "the database did not answer",
        }
        assert "db.internal" in caplog.text
        assert value(scrape(client), "closingbell_errors_total", code="not_ready") == before + 1
        monkeypatch.undo()
        assert client.get("/readyz").status_code == 200


def test_the_hub_is_not_ready_before_start_nor_once_stopping(tmp_path: Path) -> None:
    import asyncio

    from closingbell.server.settings import Settings
    from closingbell.server.store import Store

    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'web.db'}"), Settings())
        assert not hub.started
        await hub.start()
        assert hub.started and not hub.stopping
        await hub.stop()
        assert hub.stopping

    asyncio.run(run())


# ---------------------------------------------------------------- metrics


def test_a_game_played_over_websockets_is_counted_and_timed(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        start = scrape(client)
        assert value(start, "closingbell_websocket_connections") == 0
        assert value(start, "closingbell_actions_total", game="take_stock", by="player") == 0
        table_id, tokens = two_players(client)
        played = 10
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
            client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
        ):
            states = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            assert value(scrape(client), "closingbell_websocket_connections") == 2
            for version in range(played):
                mover = states[0]["current_player"]
                act((ws0, ws1)[mover], version, states[mover]["legal"][0]["id"])
                states = [expect(ws, "state") for ws in (ws0, ws1)]
                assert states[0]["version"] == version + 1
            during = scrape(client)
        wait_for(lambda: value(scrape(client), "closingbell_websocket_connections") == 0)
        assert value(during, "closingbell_actions_total", game="take_stock", by="player") == played
        assert value(during, "closingbell_actions_total", game="take_stock", by="bot") == 0
        # Every action the clients sent had its round trip timed, once.
        assert value(during, "closingbell_action_round_trip_seconds_count") == played
        total = value(during, "closingbell_action_round_trip_seconds_sum")
        assert 0 < total < 10 * played
        commits = value(during, "closingbell_database_commit_seconds_count", write="actions")
        assert 1 <= commits <= played  # a group commit may store several at once
        assert value(during, "closingbell_database_commit_seconds_count", write="table") == 1
        assert value(during, "closingbell_database_commit_seconds_count", write="join") == 2
        assert value(during, "closingbell_tables", game="take_stock", status="playing") == 1


def test_a_game_of_bots_is_counted_with_its_thinking(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        table = create(client, "take_stock", ["random", "heuristic"], seed=2)

        def finished() -> bool:
            shown = client.get(f"/api/tables/{table['id']}").json()["table"]
            return shown["status"] == "finished"

        wait_for(finished, timeout=60)
        actions = client.get(f"/api/tables/{table['id']}").json()["table"]["version"]
        samples = scrape(client)
        assert value(samples, "closingbell_actions_total", game="take_stock", by="bot") == actions
        thought = [
            value(samples, "closingbell_bot_think_seconds_count", bot=bot)
            for bot in ("random", "heuristic")
        ]
        assert sum(thought) == actions
        assert all(t > 0 for t in thought)
        assert value(samples, "closingbell_tables", game="take_stock", status="finished") == 1
        assert value(samples, "closingbell_tables", game="take_stock", status="playing") == 0
        assert value(samples, "closingbell_action_round_trip_seconds_count") == 0


def test_errors_sent_are_counted_by_code(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), max_body=1000) as client:
        before = scrape(client)

        def more(code: ErrorCode) -> float:
            now = value(scrape(client), "closingbell_errors_total", code=code.value)
            return now - value(before, "closingbell_errors_total", code=code.value)

        # HTTP: a route's refusal, a validation error, a refusal by the request limits.
        assert client.get("/api/tables/nosuchtable").status_code == 404
        assert client.post("/api/tables", json={"seats": ["open"]}).status_code == 422
        assert client.post("/api/tables", content=b"x" * 2000).status_code == 413
        # WebSocket: an action out of turn, twice.
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws0:
            state = hello(ws0, tokens[0])
            mover = state["current_player"]
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws1:
                hello(ws1, tokens[1])
                idle = (ws0, ws1)[1 - mover]
                for _ in range(2):
                    act(idle, 0, 0)
                    expect_error(idle, "not_your_turn")
        assert more(ErrorCode.UNKNOWN_TABLE) == 1
        assert more(ErrorCode.BAD_REQUEST) == 1
        assert more(ErrorCode.TOO_LARGE) == 1
        assert more(ErrorCode.NOT_YOUR_TURN) == 2
        assert more(ErrorCode.ILLEGAL_ACTION) == 0


def test_metrics_carry_no_ids_tokens_or_names(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:
        table_id, tokens = two_players(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            state = hello(ws, tokens[0])
            text = client.get("/metrics").text
            samples = scrape(client)
        for secret in (table_id, *tokens, "Ana", "Bob", json.dumps(state["view"])[:40]):
            assert secret not in text
        for _, labels in samples:
            assert {k for k, _ in labels} <= LABELS
        assert {v for _, labels in samples for k, v in labels if k == "game"} <= {
            "take_stock",
            "card_stock_market",
        }
        assert {v for _, labels in samples for k, v in labels if k == "code"} == {
            c.value for c in ErrorCode
        }


def test_each_app_counts_in_a_registry_of_its_own(tmp_path: Path) -> None:
    with (
        client_for(sqlite_database(tmp_path / "a.db")) as one,
        client_for(sqlite_database(tmp_path / "b.db")) as other,
    ):
        assert one.get("/api/tables/nosuchtable").status_code == 404
        assert value(scrape(one), "closingbell_errors_total", code="unknown_table") == 1
        assert value(scrape(other), "closingbell_errors_total", code="unknown_table") == 0
        create(other, "take_stock", ["open", "open"])
        assert value(scrape(other), "closingbell_tables", game="take_stock", status="waiting") == 1
        assert value(scrape(one), "closingbell_tables", game="take_stock", status="waiting") == 0


# ---------------------------------------------------------------- request ids


def test_a_safe_request_id_is_kept_and_sent_back(client: TestClient) -> None:
    given = "3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b"
    response = client.get("/api/games", headers={"X-Request-ID": given})
    assert response.headers["x-request-id"] == given


@pytest.mark.parametrize("given", [None, b"", b"a b", b"x" * 65, b"<script>", "id\u00e9".encode()])
def test_an_unsafe_or_missing_request_id_is_replaced(
    client: TestClient, given: bytes | None
) -> None:
    headers = {} if given is None else {"X-Request-ID": given}
    first = client.get("/healthz", headers=headers).headers["x-request-id"]
    second = client.get("/healthz", headers=headers).headers["x-request-id"]
    assert first != second
    assert len(first) == 16 and int(first, 16) >= 0


def test_refusals_and_websockets_carry_the_request_id(tmp_path: Path) -> None:
    with client_for(sqlite_database(tmp_path / "web.db"), max_body=100) as client:
        refused = client.post("/api/tables", content=b"x" * 200, headers={"X-Request-ID": "r-1"})
        assert refused.status_code == 413
        assert refused.headers["x-request-id"] == "r-1"
        table = create(client, "take_stock", ["open", "open"])
        with client.websocket_connect(
            f"/ws/tables/{table['id']}", headers={"X-Request-ID": "ws-1"}
        ) as ws:
            assert (b"x-request-id", b"ws-1") in (ws.extra_headers or [])


# ---------------------------------------------------------------- logs


@contextmanager
def json_log() -> Iterator[io.StringIO]:
    """What the server logs meanwhile, as ``closingbell serve --log-format json`` writes it."""
    stream = io.StringIO()
    handler = json_handler(stream)
    logger = logging.getLogger("closingbell")
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


def test_a_failed_action_is_logged_with_its_table_and_request_and_no_token(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url) as client:
        table_id, tokens = two_players(client)
        with (
            client.websocket_connect(
                f"/ws/tables/{table_id}", headers={"X-Request-ID": "seat-0"}
            ) as ws0,
            client.websocket_connect(
                f"/ws/tables/{table_id}", headers={"X-Request-ID": "seat-1"}
            ) as ws1,
        ):
            states = [hello(ws0, tokens[0]), hello(ws1, tokens[1])]
            mover = states[0]["current_player"]
            # The database loses the table of actions: the next action cannot be stored.
            run_sql(url, "ALTER TABLE actions RENAME TO actions_gone")
            with json_log() as stream:
                act((ws0, ws1)[mover], 0, states[mover]["legal"][0]["id"])
                expect_error((ws0, ws1)[mover], "server_error")
            lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    failed = [line for line in lines if line["message"] == f"table {table_id}: action not stored"]
    assert len(failed) == 1, lines
    line = failed[0]
    assert line["level"] == "ERROR"
    assert line["logger"] == "closingbell.server.tables"
    assert line["table"] == table_id
    assert line["request"] == f"seat-{mover}"
    assert "actions" in line["exception"]  # the database's reason is there
    assert "[SQL parameters hidden due to hide_parameters=True]" in line["exception"]
    assert line["time"].endswith("+00:00")
    for token in tokens:
        assert token not in stream.getvalue()


def test_log_lines_carry_the_ids_of_their_context() -> None:
    stream = io.StringIO()
    handler = json_handler(stream)
    log = logging.getLogger("closingbell.test_operability")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("outside")
        token = request_id.set("req-7")
        try:
            with bound(table="T1"):
                log.warning("inside %s", "both")
            log.warning("request only")
            # A table's background work carries the table, not the request that woke it.
            table_context("T2").run(log.warning, "bot")
        finally:
            request_id.reset(token)
        try:
            raise ValueError("crash")
        except ValueError:
            log.exception("failed: 股票")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(x["message"], x.get("table"), x.get("request")) for x in lines] == [
        ("outside", None, None),
        ("inside both", "T1", "req-7"),
        ("request only", None, "req-7"),
        ("bot", "T2", None),
        ("failed: 股票", None, None),
    ]
    assert "ValueError: crash" in lines[-1]["exception"]
    assert "股票" in stream.getvalue()  # kept as it is, not escaped
    assert isinstance(JsonFormatter().format(logging.makeLogRecord({"msg": "x"})), str)


def test_a_failed_join_is_logged_with_its_request_and_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with client_for(url) as client:
        table_id = create(client, "take_stock", ["open", "open"])["id"]
        run_sql(url, "ALTER TABLE seats RENAME TO seats_gone")
        with json_log() as stream:
            response = client.post(
                f"/api/tables/{table_id}/join",
                json={"name": "Ana"},
                headers={"X-Request-ID": "joiner"},
            )
        assert response.status_code == 500
        assert response.headers["x-request-id"] == "joiner"
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    (line,) = [x for x in lines if x["message"] == f"table {table_id}: join not stored"]
    assert (line["table"], line["request"]) == (table_id, "joiner")
    assert "Ana" not in line["exception"]  # the statement's parameters are hidden


def test_a_bots_log_line_carries_its_table_and_not_the_request_that_woke_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client_for(sqlite_database(tmp_path / "web.db")) as client:

        async def broken(*_: Any) -> Any:
            raise RuntimeError("the bot broke")

        monkeypatch.setattr(hub_of(client).bots, "choose", broken)
        with json_log() as stream:
            response = client.post(
                "/api/tables",
                json={"game": "take_stock", "seats": ["random", "random"]},
                headers={"X-Request-ID": "creator"},
            )
            table_id = response.json()["table"]["id"]
            wait_for(lambda: "bot of seat" in stream.getvalue())
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    (line,) = [x for x in lines if "bot of seat" in x["message"]]
    assert line["table"] == table_id
    assert "request" not in line
    assert "the bot broke" in line["exception"]
