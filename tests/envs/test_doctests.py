"""The examples in the adapters' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["gymnasium", "pettingzoo", "openspiel", "vector"])
def test_docstring_examples(module: str) -> None:
    mod = importlib.import_module(f"closingbell.envs.{module}")
    result = doctest.testmod(mod)
    assert result.attempted > 0 and result.failed == 0
