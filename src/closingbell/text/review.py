"""A seat's review of a game: each decision with a choice analysed from its view, in words.

The review behind ``closingbell analyze`` and the web page's *Review* (issue 23). For
every decision of one seat that had more than one legal action, the
:class:`~closingbell.bots.analysis.Analyst` values each legal action from that seat's view
(never the hidden cards of the game), and the game's narrator names the actions and says,
for each mistake, why the preferred action is better (``explain``). The JSON-ready form
is documented in docs/records.md ("Reviews").

The work splits in two, so that a server can run it piece by piece in its helper processes
and show progress: :func:`analyze_decision` analyses one decision (the costly part, the
same in every language), and :func:`review_data` turns the analyses into the review in one
language (cheap). :func:`review` does both for a record, as the command line does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from closingbell.bots.analysis import ActionValue, Analyst, DecisionAnalysis
from closingbell.core.game import State
from closingbell.core.records import GameRecord
from closingbell.text.games import narrator_for

Progress = Callable[[int, int, float], object]
"""Told ``(done, total, seconds_left)`` after each decision analysed."""


def decisions_of(start: State, history: Sequence[int], seat: int) -> list[int]:
    """The places in ``history`` (from 0) where ``seat`` chose among several legal actions."""
    state = start.clone()
    found = []
    for index, action in enumerate(history):
        if state.current_player == seat and len(state.legal_actions()) > 1:
            found.append(index)
        state.apply(action)
    return found


def analyze_decision(
    start: State, history: Sequence[int], index: int, analyst: Analyst
) -> DecisionAnalysis:
    """The analysis of the decision before ``history[index]``, from its seat's view."""
    state = start.clone()
    for action in history[:index]:
        state.apply(action)
    seat = state.current_player
    if seat is None:
        raise ValueError(f"nobody decides before action {index}")
    return analyst.analyze(state.view(seat), history[index])


def _checked(found: DecisionAnalysis) -> dict[str, Any] | None:
    """The taken action's lead over the best, measured again over fresh worlds, or ``None``."""
    if found.checked is None:
        return None
    lead = found.checked[1]
    return {
        "behind": round(lead.mean, 3),
        "behind_interval": [round(lead.low, 3), round(lead.high, 3)],
    }


def _value(value: ActionValue, label: str) -> dict[str, Any]:
    return {
        "action": value.action,
        "label": label,
        "margin": round(value.margin.mean, 3),
        "margin_interval": [round(value.margin.low, 3), round(value.margin.high, 3)],
        "win": round(value.win.mean, 4),
        "win_interval": [round(max(0.0, value.win.low), 4), round(min(1.0, value.win.high), 4)],
        "behind": round(value.behind.mean, 3),
        "behind_interval": [round(value.behind.low, 3), round(value.behind.high, 3)],
    }


def review_data(
    start: State,
    history: Sequence[int],
    seat: int,
    analyses: Mapping[int, DecisionAnalysis],
    *,
    names: Sequence[str],
    budget: int,
    seed: int,
    lang: str = "en",
) -> dict[str, Any]:
    """The review of ``seat`` (from 0) as JSON-ready data (docs/records.md), words in ``lang``.

    ``analyses`` holds the analysis of each decision reviewed, by its place in ``history``;
    ``names`` names every seat, as the narrator calls them. Each decision marked as a mistake
    has a ``reason``: the narrator's sentence on why the preferred action is better, from the
    seat's view, with the cost the analysis measured.
    """
    state = start.clone()
    game = state.game
    narrator = narrator_for(game, list(names), lang)
    decisions: list[dict[str, Any]] = []
    for index, action in enumerate(history):
        found = analyses.get(index)
        if found is not None:
            if state.current_player != seat:
                raise ValueError(f"action {index} is not seat {seat + 1}'s decision")
            view = state.view(seat)

            def label(a: int, view: Any = view) -> str:
                if narrator is not None:
                    return narrator.describe_action(view, a)
                return game.action_to_string(a)

            best = found.actions[0]
            decision: dict[str, Any] = {
                "index": index,
                "taken": _value(found.value_of(action), label(action)),
                "best": _value(best, label(best.action)),
                "mistake": found.is_mistake(action),
                "checked": _checked(found),
                "actions": [_value(v, label(v.action)) for v in found.actions],
            }
            if decision["mistake"] and narrator is not None:
                decision["reason"] = narrator.explain(view, action, best.action, found)
            decisions.append(decision)
        state.apply(action)
    return {
        "game": game.info.name,
        "seat": seat + 1,
        "name": names[seat],
        "budget": budget,
        "seed": seed,
        "scores": list(state.scores()) if state.is_terminal() else None,
        "decisions": decisions,
        "mistakes": sum(d["mistake"] for d in decisions),
    }


def review(
    record: GameRecord,
    seat: int,
    budget: int,
    seed: int,
    progress: Progress | None = None,
    *,
    lang: str = "en",
) -> dict[str, Any]:
    """The review of ``seat`` (from 0) in ``record`` as JSON-ready data, words in ``lang``.

    ``budget`` worlds per decision, dealt from ``seed``; ``progress`` is told how far the
    analysis is and about how long it has left. The record's seat names name the seats.
    """
    start = record.start()
    game = start.game
    history = []
    state = start.clone()
    for recorded in record.actions:  # the notation is read in the state it was written in
        history.append(state.string_to_action(recorded.text))
        state.apply(history[-1])
    analyst = Analyst(game, worlds=budget, seed=seed)
    wanted = set(decisions_of(start, history, seat))
    analyses: dict[int, DecisionAnalysis] = {}
    started = time.monotonic()
    state = start.clone()
    for index, action in enumerate(history):
        if index in wanted:
            analyses[index] = analyst.analyze(state.view(seat), action)
            if progress is not None:
                done = len(analyses)
                elapsed = time.monotonic() - started
                progress(done, len(wanted), elapsed / done * (len(wanted) - done))
        state.apply(action)
    return review_data(
        start,
        history,
        seat,
        analyses,
        names=list(record.seats),
        budget=budget,
        seed=seed,
        lang=lang,
    )
