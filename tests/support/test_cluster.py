"""The local Slurm test cluster behaves like a real GPU cluster in the ways jobc relies on."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from jobc.compile.rendezvous import PORT_BASE, PORT_SPAN
from tests.support.cluster import (
    DAEMON_PORT_BASE,
    DAEMON_PORTS_PER_BLOCK,
    JOB_ID_BLOCK,
    JOB_ID_BLOCKS,
    SlurmCluster,
    block_ports,
    cluster_processes,
    ensure_hosts_entries,
    parse_scontrol_record,
)

Submit = Callable[..., int]


@pytest.fixture
def submit(slurm_cluster: SlurmCluster, tmp_path: Path) -> Iterator[Submit]:
    """sbatch a script body from tmp_path (the job's working directory); jobs still alive at
    the end of the test are cancelled so they cannot hold nodes for the next test."""
    jobs: list[int] = []

    def _submit(body: str, *args: str) -> int:
        script = tmp_path / f"job{len(jobs)}.sh"
        script.write_text(body, encoding="utf-8")
        jobs.append(slurm_cluster.sbatch(script, *args, cwd=tmp_path))
        return jobs[-1]

    yield _submit
    slurm_cluster.cancel(*jobs)


def wait_for_file(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"{path} did not appear within {timeout}s")
        time.sleep(0.1)


def output(tmp_path: Path, job: int) -> str:
    return (tmp_path / f"slurm-{job}.out").read_text(encoding="utf-8")


def test_sinfo_shows_idle_nodes_with_two_gpus(slurm_cluster: SlurmCluster) -> None:
    slurm_cluster.wait_idle()
    result = slurm_cluster.run("sinfo", "-h", "-N", "-o", "%N|%T|%G|%c")
    rows = sorted(line.split("|") for line in result.stdout.splitlines())
    assert [row[0] for row in rows] == list(slurm_cluster.node_names)
    assert len(rows) == 2
    for _name, state, gres, cpus in rows:
        assert state == "idle"
        assert gres == "gpu:2"
        assert int(cpus) >= 4


def test_two_node_gpu_job_sets_rank_variables(
    slurm_cluster: SlurmCluster, submit: Submit, tmp_path: Path
) -> None:
    job = submit(
        """#!/bin/bash
#SBATCH --nodes=2 --ntasks-per-node=2 --gpus-per-node=2
set -euo pipefail
srun bash -c 'echo "$SLURM_PROCID $SLURM_NODEID $SLURM_LOCALID $CUDA_VISIBLE_DEVICES \
$SLURMD_NODENAME" > "rank.$SLURM_PROCID"'
scontrol show hostnames "$SLURM_JOB_NODELIST" > hosts
"""
    )
    assert slurm_cluster.wait(job) == "COMPLETED", output(tmp_path, job)
    ranks = [(tmp_path / f"rank.{rank}").read_text().split() for rank in range(4)]
    by_procid = {int(procid): rest for procid, *rest in ranks}
    assert sorted(by_procid) == [0, 1, 2, 3]
    for procid, (nodeid, localid, cuda_visible, nodename) in by_procid.items():
        # Block distribution: ranks 0-1 on the first node, 2-3 on the second.
        assert (int(nodeid), int(localid)) == divmod(procid, 2)
        assert nodename == slurm_cluster.node_names[int(nodeid)]
        assert cuda_visible == "0,1"
    hosts = (tmp_path / "hosts").read_text().split()
    assert hosts == list(slurm_cluster.node_names)
    # A MASTER_ADDR taken from the node list must resolve.
    assert socket.gethostbyname(hosts[0])


def test_test_only_checks_resources(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    fits = slurm_cluster.run(
        "sbatch",
        "--test-only",
        "--nodes=2",
        "--gpus-per-node=2",
        "--wrap=true",
        check=False,
        cwd=tmp_path,
    )
    assert fits.returncode == 0, fits.stderr
    assert "to start at" in fits.stderr
    too_big = slurm_cluster.run(
        "sbatch",
        "--test-only",
        "--nodes=2",
        "--gpus-per-node=3",
        "--wrap=true",
        check=False,
        cwd=tmp_path,
    )
    assert too_big.returncode != 0


def test_requeued_job_runs_again_with_restart_count(
    slurm_cluster: SlurmCluster, submit: Submit, tmp_path: Path
) -> None:
    job = submit(
        """#!/bin/bash
#SBATCH --requeue --open-mode=append
echo "restart=${SLURM_RESTART_COUNT-unset}"
if [ "${SLURM_RESTART_COUNT:-0}" -eq 0 ]; then
  scontrol requeue "$SLURM_JOB_ID"
  sleep 60  # the requeue kills the job before this ends
fi
"""
    )
    held = slurm_cluster.wait_for(
        job,
        lambda r: r["JobState"] == "PENDING" and r.get("Reason") == "BeginTime",
        what="requeued job held",
    )
    assert held["Restarts"] == "1"
    slurm_cluster.release(job)
    assert slurm_cluster.wait(job) == "COMPLETED", output(tmp_path, job)
    runs = [line for line in output(tmp_path, job).splitlines() if line.startswith("restart=")]
    assert runs == ["restart=unset", "restart=1"]


def test_scancel_batch_signal_reaches_trap(
    slurm_cluster: SlurmCluster, submit: Submit, tmp_path: Path
) -> None:
    job = submit(
        """#!/bin/bash
trap 'echo "trapped TERM"; exit 0' TERM
touch ready
# bash runs a trap only between commands, so wait on a background child, not a foreground one.
sleep 120 &
wait
echo "wait returned without a signal"
"""
    )
    wait_for_file(tmp_path / "ready")
    slurm_cluster.run("scancel", "--signal=TERM", "--batch", str(job))
    assert slurm_cluster.wait(job) == "COMPLETED", output(tmp_path, job)
    assert "trapped TERM" in output(tmp_path, job)


def test_second_cluster_side_by_side_cleans_up(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    # Same node names as the session's cluster: only directories and ports must differ.
    with SlurmCluster(nodes=1, gpus_per_node=1) as other:
        root = other.root
        assert {node.port for node in other.nodes}.isdisjoint(node.port for node in slurm_cluster.nodes)
        script = tmp_path / "hello.sh"
        script.write_text("#!/bin/bash\nsrun hostname\n", encoding="utf-8")
        job = other.sbatch(script, cwd=tmp_path)
        assert other.wait(job) == "COMPLETED"
        assert other.processes()
        # the ids each may hand out give MASTER_PORTs (20000 + id % 9000) the other never does
        ours = {
            i % PORT_SPAN
            for i in range(slurm_cluster.first_job_id, slurm_cluster.first_job_id + JOB_ID_BLOCK)
        }
        assert job % PORT_SPAN not in ours
        assert other.first_job_id % PORT_SPAN not in ours
    assert not root.exists()
    assert not cluster_processes(root)


def test_clusters_with_accounting_start_side_by_side(slurm_cluster: SlurmCluster) -> None:
    # The workers of `pytest -n 4` start their clusters at once. Their MariaDB servers once
    # shared /tmp as tmpdir and deleted each other's temporary tables while installing.
    clusters = [SlurmCluster(nodes=1, gpus_per_node=0, accounting=True) for _ in range(3)]
    try:
        with ThreadPoolExecutor(len(clusters)) as pool:
            list(pool.map(lambda cluster: cluster.start(), clusters))
        assert all(cluster.accounting for cluster in clusters)
        # slurmd's ports, like all daemon ports, come from each cluster's own locked range
        node_ports = [node.port for cluster in clusters for node in cluster.nodes]
        assert len(set(node_ports)) == len(node_ports)
    finally:
        for cluster in clusters:
            cluster.stop()


def test_daemon_port_ranges_are_disjoint_and_clear_of_job_and_ephemeral_ports() -> None:
    firsts = [1 + block * JOB_ID_BLOCK for block in range(JOB_ID_BLOCKS)]
    ranges = [set(block_ports(first, 3)) for first in firsts]
    assert all(len(ports) == 3 for ports in ranges)
    assert all(a.isdisjoint(b) for i, a in enumerate(ranges) for b in ranges[i + 1 :])
    everything = set().union(*ranges)
    assert min(everything) > PORT_BASE + PORT_SPAN  # no job's MASTER_PORT, nor one above it
    last_block_top = DAEMON_PORT_BASE + JOB_ID_BLOCKS * DAEMON_PORTS_PER_BLOCK
    assert last_block_top <= 32768  # the kernel's ephemeral ports start there


def test_daemon_ports_skip_a_port_in_use_and_follow_after() -> None:
    first = block_ports(1, 1)[0]
    with socket.socket() as held:
        held.bind(("", first))
        held.listen()
        ports = block_ports(1, 2)
        assert first not in ports
        assert ports == sorted(ports)
    later = block_ports(1, 2, after=ports[-1])
    assert min(later) > ports[-1]


def test_hosts_entries_are_added_once(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n10.0.0.1 jobc-known")  # no final newline
    ensure_hosts_entries(["jobc-known", "jobc-new0", "jobc-new1"], hosts_file=hosts)
    ensure_hosts_entries(["jobc-new0", "jobc-new1"], hosts_file=hosts)
    assert hosts.read_text().splitlines() == [
        "127.0.0.1 localhost",
        "10.0.0.1 jobc-known",
        "127.0.0.1 jobc-new0 jobc-new1  # jobc test cluster",
    ]


def test_scontrol_records_keep_values_with_spaces() -> None:
    record = parse_scontrol_record(
        "JobId=7 JobName=a b JobState=CANCELLED by 0 Reason=BeginTime NtasksPerN:B:S:C=2:0:*:*"
    )
    assert record == {
        "JobId": "7",
        "JobName": "a b",
        "JobState": "CANCELLED by 0",
        "Reason": "BeginTime",
        "NtasksPerN:B:S:C": "2:0:*:*",
    }


def test_a_slurmd_that_dies_by_itself_is_started_again_and_one_a_test_stops_is_not(
    slurm_cluster: SlurmCluster, submit: Submit, tmp_path: Path
) -> None:
    # Slurm 22.05's slurmd has aborted on a busy machine (`malloc(): unaligned tcache chunk
    # detected`), leaving its jobs COMPLETING until the node timed out; the cluster starts it
    # again, as a service manager would, and says so in its logs
    node = slurm_cluster.node_names[-1]
    proc = slurm_cluster._procs[f"slurmd-{node}"]
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 600  # a loaded machine may take long; a lost slurmd never comes
    while slurm_cluster._procs[f"slurmd-{node}"] is proc and time.monotonic() < deadline:
        time.sleep(0.2)
    assert slurm_cluster._procs[f"slurmd-{node}"] is not proc
    slurm_cluster.wait_idle()
    restarts = (slurm_cluster.log_dir / "restarts.log").read_text(encoding="utf-8")
    assert f"slurmd-{node} exited with -9: started again" in restarts
    job = submit("#!/bin/bash\nhostname\n", f"--nodelist={node}")
    assert slurm_cluster.wait(job) == "COMPLETED"
    # near miss: a slurmd a test stops stays stopped until the test starts it again
    slurm_cluster.kill_slurmd(node)
    stopped = slurm_cluster._procs[f"slurmd-{node}"]
    time.sleep(3)  # three rounds of the supervisor: not a bound on a wait, a span it must not act in
    try:
        assert slurm_cluster._procs[f"slurmd-{node}"] is stopped
        assert restarts == (slurm_cluster.log_dir / "restarts.log").read_text(encoding="utf-8")
    finally:
        slurm_cluster.restart_slurmd(node)
        slurm_cluster.wait_idle()
