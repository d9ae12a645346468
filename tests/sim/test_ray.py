"""The Ray backend on a local two-CPU cluster gives exactly the single-process results.

One test, so that only one cluster starts (pytest-xdist may spread a module's tests over
its workers, and each Ray start costs seconds).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import ray

from closingbell import sim
from tests.sim.helpers import QUICK_ARGS, run_json


def _without_timings(doc: dict[str, Any]) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))
    doc["length"].pop("mean_seconds")
    doc["length"].pop("total_seconds")
    doc.pop("out")
    return doc


def test_ray_tournament_equals_single_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[dict[str, Any]] = []
    real_init = ray.init

    def init(**kwargs: Any) -> Any:
        started.append(kwargs)
        return real_init(**kwargs, configure_logging=False)

    monkeypatch.setattr(ray, "init", init)
    args = [
        *QUICK_ARGS,
        "--tournament",
        "--bots",
        "random,heuristic,heuristic:epsilon=0.3,ismcts:iterations=2:c=0",
    ]
    args += ["--players", "2", "--games", "2", "--seed", "3"]
    assert not ray.is_initialized()
    on_ray = run_json(
        capsys, *args, "--backend", "ray", "--workers", "2", "--out", str(tmp_path / "ray.csv")
    )
    assert started == [{"num_cpus": 2, "include_dashboard": False, "log_to_driver": False}]
    assert not ray.is_initialized(), "the cluster the run started is shut down"

    in_process = run_json(capsys, *args, "--workers", "1", "--out", str(tmp_path / "local.csv"))
    assert on_ray["games"] == 6 * 2
    assert _without_timings(on_ray) == _without_timings(in_process)
    assert sim.read_results(tmp_path / "ray.csv") == sim.read_results(tmp_path / "local.csv")
