"""Node-local paths, compared by components: the one table the rules and the script reader share."""

from __future__ import annotations

import pytest

from jobc.tables.paths import NODE_LOCAL_DIRS, node_local, place, under


@pytest.mark.parametrize(
    ("path", "local"),
    [
        ("/tmp/x", "/tmp"),
        ("/dev/shm", "/dev/shm"),
        ("/lscratch/123/hf", "/lscratch"),
        ("/scratch/local/me", "/scratch/local"),
        ("/scratch_local/me", "/scratch_local"),
        ("/localscratch/job", "/localscratch"),
        ("/local/data", "/local"),
        ("/raid/cache", "/raid"),
        ("/var/tmp/x", "/var/tmp"),
        ("/lustre/../tmp/x", "/tmp"),
        ("//tmp//x", "/tmp"),
        ("$TMPDIR/hf", "$TMPDIR"),
        ("${SLURM_TMPDIR}", "$SLURM_TMPDIR"),
        # whole components only: none of these is node-local
        ("/scratch_localx/me", None),
        ("/scratch/localx", None),
        ("/tmpfs/x", None),
        ("/rawdata/x", None),
        ("/scratch/me", None),
        ("$TMPDIRX/x", None),
        ("relative/tmp", None),
    ],
)
def test_node_local_by_components(path: str, local: str | None) -> None:
    assert node_local(path) == local


def test_under_compares_components() -> None:
    assert under("/lustre/x", "/lustre")
    assert under("/lustre", "/lustre/")
    assert not under("/lustre2/x", "/lustre")
    assert under("/anything", "/")
    assert not under("x/y", "x")


def test_place_prefers_declared_shared_storage() -> None:
    # a site that declares its /raid shared (a parallel file system mounted there) is believed
    assert place("/raid/ckpt", ["/raid"]).kind == "shared"
    assert place("/raid/ckpt", ["/lustre"]).kind == "local"
    assert place("/home/me/x", ["/lustre"]).kind == "outside"
    assert place("/home/me/x", []).kind == "unknown"


def test_every_entry_is_an_absolute_normal_path() -> None:
    for entry in NODE_LOCAL_DIRS:
        assert entry.startswith("/")
        assert not entry.endswith("/")
        assert "//" not in entry
