"""`jobc profile` and `jobc lint --live` on a real cluster of two partitions and two kinds of node.

batch (default): MaxTime 02:00:00, DefaultTime 00:30:00, MaxNodes 2, all three nodes;
short: MaxTime 00:10:00, PreemptMode REQUEUE, the h100 node only. Nodes: two with 8 CPUs, 8 GB,
gpu:a100:2 and features a100,ib; one with 4 CPUs, 4 GB, gpu:h100:4 and feature h100. Accounting
knows the account jobc-test and the QOS normal and jobc-qos.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cluster import TEST_ACCOUNT, TEST_QOS, PartitionConf, Shape, SlurmCluster
from tests.support.cluster_fixture import started

SHAPES = [
    Shape(2, cpus=8, memory_mb=8192, gpus=2, gpu_type="a100", features=("a100", "ib"), prefix="jobc-a"),
    Shape(1, cpus=4, memory_mb=4096, gpus=4, gpu_type="h100", features=("h100",), prefix="jobc-h"),
]
PARTITIONS = [
    PartitionConf("batch", options="MaxTime=02:00:00 DefaultTime=00:30:00 MaxNodes=2", default=True),
    PartitionConf("short", prefixes=("jobc-h",), options="MaxTime=00:10:00 PreemptMode=REQUEUE"),
]

# The same facts as a person would write them from the site's documentation.
HAND_WRITTEN = """\
version: 1
profile: by-hand
cluster:
  partitions:
    batch: {max_time: "02:00:00", gpus_per_node: 4, cpus_per_node: 8}
    short: {max_time: "00:10:00", gpus_per_node: 4, cpus_per_node: 4}
"""


@pytest.fixture(scope="module")
def topology_cluster() -> Iterator[SlurmCluster]:
    yield from started(SlurmCluster(shapes=SHAPES, partitions=PARTITIONS, accounting=True))


def jobc(cluster: SlurmCluster | None, cwd: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = cluster.env() if cluster is not None else dict(os.environ)
    return subprocess.run(
        [sys.executable, "-m", "jobc", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**base, **env},
        timeout=300,
        check=False,
    )


def spec(
    partition: str | None, time: str, nodes: int, gpus: int, cpus: int | None = None, **slurm: str
) -> str:
    lines = ["version: 1", "name: t", "extends: cluster.yaml", "slurm:", f'  time: "{time}"']
    if partition is not None:
        lines.append(f"  partition: {partition}")
    lines += [f"  {key}: {value}" for key, value in slurm.items()]
    lines += ["resources:", f"  nodes: {nodes}", f"  gpus_per_node: {gpus}"]
    if cpus is not None:
        lines.append(f"  cpus_per_task: {cpus}")
    lines += ["launch: {mode: srun, program: train.py}", "storage: {shared: [/shared]}"]
    return "\n".join(lines) + "\n"


# Specs that meet the cluster's limits, and specs that break them in each way a profile knows.
SPECS = {
    "fits": spec("batch", "01:00:00", 2, 2),
    "fits-short": spec("short", "00:05:00", 1, 4),
    "time-over-short": spec("short", "00:30:00", 1, 4),
    "time-over-batch": spec("batch", "3:00:00", 2, 2),
    "gpus-over-short": spec("short", "00:05:00", 1, 8),
    "cpus-over-short": spec("short", "00:05:00", 1, 4, cpus=2),
    "cpus-over-batch": spec("batch", "00:05:00", 1, 2, cpus=8),
}
CLUSTER_CODES = ("JC103", "JC108", "JC109")


def findings(cwd: Path, cluster: SlurmCluster, name: str) -> list[tuple[str, int, int, str]]:
    run = jobc(cluster, cwd, "lint", "--format", "json", f"{name}.yaml")
    assert run.returncode in (0, 1), run.stderr
    return [
        (f["code"], f["line"], f["col"], f["message"])
        for f in json.loads(run.stdout)
        if f["code"] in CLUSTER_CODES
    ]


def test_a_written_profile_gives_the_findings_of_a_hand_written_one(
    topology_cluster: SlurmCluster, tmp_path: Path
) -> None:
    read, hand = tmp_path / "read", tmp_path / "hand"
    for directory in (read, hand):
        directory.mkdir()
        for name, text in SPECS.items():
            (directory / f"{name}.yaml").write_text(text)
    made = jobc(topology_cluster, tmp_path, "profile", "-o", str(read / "cluster.yaml"))
    assert made.returncode == 0, made.stderr
    (hand / "cluster.yaml").write_text(HAND_WRITTEN)
    fired = set()
    for name in SPECS:
        got = findings(read, topology_cluster, name)
        assert got == findings(hand, topology_cluster, name), name
        fired |= {code for code, *_ in got}
        assert bool(got) == (not name.startswith("fits")), (name, got)
    assert fired == set(CLUSTER_CODES)


def test_the_profile_says_what_slurm_says_lints_clean_and_is_deterministic(
    topology_cluster: SlurmCluster, tmp_path: Path
) -> None:
    first = jobc(topology_cluster, tmp_path, "profile", SOURCE_DATE_EPOCH="1767225600")
    second = jobc(topology_cluster, tmp_path, "profile", SOURCE_DATE_EPOCH="1767225600")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    text = first.stdout
    assert "written by `jobc profile` on 2026-01-01" in text
    assert "(Slurm 22.05" in text or "(Slurm 2" in text
    assert "profile: jobctest" in text
    lines = text.splitlines()
    for line in (
        "  default_partition: batch",
        '      max_time: "02:00:00"',
        '      default_time: "00:30:00"',
        "      nodes: 3",
        "      max_nodes: 2",
        '      max_time: "00:10:00"',
        '      preempt_mode: "REQUEUE"',
        "      gpu_type: a100",
        "      gpu_type: h100",
        "      features: [a100, ib]",
        "      features: [h100]",
        "      memory_mb: 8192",
    ):
        assert line in lines, line
    (tmp_path / "cluster.yaml").write_text(text)
    clean = jobc(None, tmp_path, "lint", "cluster.yaml")
    assert (clean.returncode, clean.stdout) == (0, "")
    # a node busy with a job does not change the profile
    submitted = topology_cluster.run("sbatch", "--parsable", "--wrap=sleep 30", "--partition=short")
    job = int(submitted.stdout.split(";")[0])
    try:
        topology_cluster.wait_for(job, lambda r: r.get("JobState") == "RUNNING", 120, "job to run")
        busy = jobc(topology_cluster, tmp_path, "profile", SOURCE_DATE_EPOCH="1767225600")
        assert busy.stdout == text
    finally:
        topology_cluster.cancel(job)


LIVE_SPEC = """\
version: 1
name: live
slurm:
  partition: {partition}
  time: "{time}"
  account: {account}
  qos: {qos}
  constraint: {constraint}
resources:
  nodes: {nodes}
  gpus_per_node: {gpus}
launch: {{mode: srun, program: train.py}}
storage: {{shared: [/shared]}}
"""
LIVE_GOOD = {
    "partition": "batch",
    "time": "01:00:00",
    "account": TEST_ACCOUNT,
    "qos": TEST_QOS,
    "constraint": "a100",
    "nodes": 2,
    "gpus": 2,
}


# the findings about the cluster: its partitions (JC103, JC108, JC109, JC120-JC122) and accounting (JC123)
LIVE_CODES = ("JC103", "JC108", "JC109", "JC12")


def live(
    cluster: SlurmCluster, tmp_path: Path, **changes: object
) -> tuple[int, list[tuple[str, int, int]], str]:
    (tmp_path / "live.yaml").write_text(LIVE_SPEC.format(**{**LIVE_GOOD, **changes}))
    run = jobc(cluster, tmp_path, "lint", "--live", "--format", "json", "live.yaml")
    found = [
        (f["code"], f["line"], f["col"]) for f in json.loads(run.stdout) if f["code"].startswith(LIVE_CODES)
    ]
    return run.returncode, found, run.stderr


def test_live_lint_of_a_spec_that_fits_is_clean(topology_cluster: SlurmCluster, tmp_path: Path) -> None:
    code, found, stderr = live(topology_cluster, tmp_path)
    assert (code, found, stderr) == (0, [], "")


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"partition": "bacth"}, [("JC120", 4, 14)]),
        (
            {"partition": "short", "nodes": 1, "gpus": 4, "constraint": "h100", "time": "00:30:00"},
            [("JC108", 5, 9)],
        ),
        ({"nodes": 3}, [("JC121", 10, 10), ("JC121", 10, 10)]),
        ({"gpus": 8}, [("JC103", 11, 18)]),
        ({"partition": "short", "nodes": 1, "gpus": 4, "time": "00:05:00"}, [("JC122", 8, 15)]),
        ({"account": "nobody", "qos": "urgent"}, [("JC123", 6, 12), ("JC123", 7, 8)]),
    ],
)
def test_live_lint_findings_at_the_spec_positions(
    topology_cluster: SlurmCluster,
    tmp_path: Path,
    changes: dict[str, object],
    expected: list[tuple[str, int, int]],
) -> None:
    code, found, stderr = live(topology_cluster, tmp_path, **changes)
    assert (code, found) == (1, expected), stderr


# what --live finds on the cluster, and what its profile finds without it (JC123: accounting)
PARTITION_CASES = [
    {},
    {"partition": "bacth"},
    {"partition": "short", "nodes": 1, "gpus": 4, "constraint": "h100", "time": "00:30:00"},
    {"nodes": 3},
    {"gpus": 8},
    {"partition": "short", "nodes": 2, "gpus": 4, "constraint": "h100", "time": "00:05:00"},
    {"partition": "short", "nodes": 1, "gpus": 4, "time": "00:05:00"},
    {"gpus": 4, "constraint": "h100"},
]


def test_the_profile_jobc_profile_writes_gives_offline_the_findings_live_gives(
    topology_cluster: SlurmCluster, tmp_path: Path
) -> None:
    made = jobc(topology_cluster, tmp_path, "profile", "-o", str(tmp_path / "cluster.yaml"))
    assert made.returncode == 0, made.stderr
    seen = set()
    for changes in PARTITION_CASES:
        code, on_cluster, stderr = live(topology_cluster, tmp_path, **changes)
        assert code in (0, 1), stderr
        # the same spec extending the written profile (its last line: no position moves), no --live
        text = LIVE_SPEC.format(**{**LIVE_GOOD, **changes}) + "extends: cluster.yaml\n"
        (tmp_path / "offline.yaml").write_text(text)
        run = jobc(None, tmp_path, "lint", "--format", "json", "offline.yaml")
        assert run.returncode in (0, 1), run.stderr
        offline = [
            (f["code"], f["line"], f["col"])
            for f in json.loads(run.stdout)
            if f["code"].startswith(LIVE_CODES)
        ]
        assert offline == [f for f in on_cluster if f[0] != "JC123"], changes
        seen |= {f[0] for f in offline}
    assert seen == {"JC103", "JC108", "JC120", "JC121", "JC122"}


def test_live_lint_of_a_script_points_at_its_directives(
    topology_cluster: SlurmCluster, tmp_path: Path
) -> None:
    (tmp_path / "job.sh").write_text(
        "#!/bin/bash\n"
        "#SBATCH --partition=short\n"
        "#SBATCH --nodes=2\n"
        "#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=00:30:00\n"
        f"#SBATCH --account={TEST_ACCOUNT}\n"
        "#SBATCH --constraint=ib\n"
        "srun python train.py\n"
    )
    run = jobc(topology_cluster, tmp_path, "lint", "--live", "--format", "json", "job.sh")
    found = sorted((f["code"], f["line"]) for f in json.loads(run.stdout) if f["code"].startswith(LIVE_CODES))
    assert found == [("JC108", 5), ("JC121", 3), ("JC122", 7)], run.stdout


def shim(directory: Path, name: str, script: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


CLEAN = "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 2}\nlaunch: {program: train.py}\n"


def test_live_lint_says_in_one_line_when_the_cluster_cannot_be_asked(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(CLEAN)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    run = jobc(None, tmp_path, "lint", "--live", "spec.yaml", PATH=str(bin_dir))
    assert (run.returncode, run.stdout) == (0, "")
    assert run.stderr == (
        "jobc lint: --live: cannot ask the cluster (scontrol not found on PATH: this is not a Slurm "
        "installation); linted without it\n"
    )
    shim(
        bin_dir,
        "scontrol",
        'echo "scontrol: error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n',
    )
    run = jobc(None, tmp_path, "lint", "--live", "spec.yaml", PATH=str(bin_dir))
    assert (run.returncode, run.stdout) == (0, "")
    assert run.stderr == (
        "jobc lint: --live: cannot ask the cluster (scontrol show config failed: scontrol: error: Unable to "
        "contact slurm controller (connect failure)); linted without it\n"
    )
