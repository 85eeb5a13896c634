"""Node-local paths, compared by components: the one table the rules and the script reader share."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobc.tables.paths import NODE_LOCAL_DIRS, node_local, normalise, place, under


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


_PARTS = st.lists(st.sampled_from(["", ".", "..", "a", "ab", "a b", "tmp", "x.y", "é"]), max_size=5)


@settings(max_examples=500, deadline=None)
@given(_PARTS, _PARTS, st.booleans(), st.booleans())
def test_under_is_a_prefix_of_components(left: list[str], right: list[str], la: bool, ra: bool) -> None:
    """`under` answers as comparing the normalised paths' components (PurePosixPath parts) does."""
    path, prefix = ("/" if la else "") + "/".join(left), ("/" if ra else "") + "/".join(right)
    p, q = normalise(path), normalise(prefix)
    expected = (
        p.startswith("/")
        and q.startswith("/")
        and (PurePosixPath(p).parts[: len(PurePosixPath(q).parts)] == PurePosixPath(q).parts)
    )
    assert under(path, prefix) == expected
