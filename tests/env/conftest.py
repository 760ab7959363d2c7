"""Fixtures of the env tests."""

from __future__ import annotations

import pytest

import ambush_env  # noqa: F401  (registers the ids)
from ambush_env.env.ambush_env import AmbushEnv


@pytest.fixture
def env():
    e = AmbushEnv()
    yield e
    e.close()
