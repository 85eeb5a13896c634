"""Fixtures for the runtime tests: a fork server with torch preloaded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.runtime.procs import ForkServer, ForkServerUnavailable


@pytest.fixture(scope="session")
def forkserver() -> Iterator[ForkServer]:
    """Started once per run; the multi-process tests fork their ranks from it."""
    try:
        server = ForkServer()
    except ForkServerUnavailable as error:
        if "No module named 'torch'" in str(error):
            pytest.skip(reason="torch is not importable (install jobc[runtime]); the runtime needs it")
        raise
    try:
        yield server
    finally:
        server.close()
