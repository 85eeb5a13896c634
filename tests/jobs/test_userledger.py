"""The user's ledger: every job of the user under $XDG_STATE_HOME/jobc/ledger/<cluster>/, found
from any directory."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from jobc.jobs import ledger, userledger


def _entry(job_id: str, cluster: str | None = None) -> ledger.Entry:
    return ledger.Entry(
        job_id=job_id,
        spec="/p/spec.yaml",
        spec_sha256="0" * 64,
        script="#!/bin/bash\necho hi\n",
        submitted="2026-11-27T12:00:00Z",
        name="t",
        cluster=cluster,
    )


def test_the_root_follows_xdg_state_home(tmp_path: Path) -> None:
    assert userledger.root({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "jobc" / "ledger"
    # unset or relative: the XDG default under the home directory
    assert userledger.root({}) == Path.home() / ".local" / "state" / "jobc" / "ledger"
    assert (
        userledger.root({"XDG_STATE_HOME": "rel/dir"}) == Path.home() / ".local" / "state" / "jobc" / "ledger"
    )


def test_entries_are_kept_per_cluster(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    userledger.record(_entry("42", "alpha"), env)
    userledger.record(_entry("42", "beta"), env)
    userledger.record(_entry("43"), env)
    assert (tmp_path / "jobc/ledger/alpha/42.json").is_file()
    assert (tmp_path / "jobc/ledger/default/43.json").is_file()
    # the same id on two clusters: both, or the one asked for
    assert [e.cluster for e in userledger.find("42", env=env)] == ["alpha", "beta"]
    assert [e.cluster for e in userledger.find("42", "beta", env)] == ["beta"]
    assert userledger.find("44", env=env) == []
    assert sorted(e.job_id for e in userledger.entries(env) if isinstance(e, ledger.Entry)) == [
        "42",
        "42",
        "43",
    ]


def test_a_cluster_name_never_leaves_the_ledger(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    for hostile in ("../../etc", "..", "a/b", "x" * 300, "a\nb"):
        path = userledger.record(replace(_entry("7"), cluster=hostile), env)
        assert path.parent == tmp_path / "jobc" / "ledger" / "default"
