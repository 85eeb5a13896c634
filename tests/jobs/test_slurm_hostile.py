"""What Slurm prints, taken as untrusted: control characters in names, words of 300 KB, a
million nodes, a command that never answers, a ledger too large for one argument, and a site's
sbatch wrapper that says more than the job id.

Slurm's commands are stand-ins on PATH (small shell scripts that print what the case needs and
log how they were called), so what is tested is jobc's own reading of real processes' output;
nothing of jobc is replaced.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from jobc.jobs import ledger
from jobc.jobs.slurm import CHUNK_CHARS
from jobc.spec.slurmfacts import parse_record, parse_records

RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
ESC = "\x1b]0;owned\x07\x1b[2J"


def shim(bin_dir: Path, name: str, body: str) -> None:
    """A stand-in for a Slurm command: a shell script that logs its argv, then runs ``body``."""
    bin_dir.mkdir(exist_ok=True)
    path = bin_dir / name
    path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{bin_dir}/calls.log"\n{body}\n')
    path.chmod(0o755)


def printing(bin_dir: Path, name: str, text: str) -> None:
    """A stand-in that prints ``text`` (from a file beside it, so any byte can be in it)."""
    (bin_dir.mkdir(exist_ok=True), (bin_dir / f"{name}.out").write_text(text))
    shim(bin_dir, name, f'cat "{bin_dir}/{name}.out"')


def jobc(
    cwd: Path, bin_dir: Path, *argv: str, limit: int | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    def limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "jobc", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", **env},
        preexec_fn=limited,
        timeout=900,
        check=False,
    )


def write_ledger(directory: Path, ids: list[str]) -> None:
    """Entries as `jobc submit` writes them (without its fsync: thousands are written here)."""
    directory.mkdir(parents=True)
    for job_id in ids:
        entry = ledger.Entry(
            job_id=job_id,
            spec="spec.yaml",
            spec_sha256="0" * 64,
            script="#!/bin/bash\n",
            submitted="2026-01-01T00:00:00Z",
            name="t",
        )
        (directory / f"{job_id}.json").write_text(json.dumps(entry.as_json()))


def cpu(run: Callable[[], object]) -> float:
    """This process's CPU time for ``run``, the best of three (never wall-clock seconds)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return max(best, 1e-6)


# --- control characters


CONFIG = (
    f"Configuration data as of 2026-01-01T00:00:00\nClusterName = evil{ESC}\nSLURM_VERSION = 22.05{ESC}\n"
)
PARTITION = "PartitionName=batch Default=YES MaxTime=01:00:00 State=UP TotalNodes=2\n"
NODES = (
    f"NodeName=n0 CPUTot=8 RealMemory=8192 Gres=gpu:a100{ESC}:2,gpu:h100:2 Partitions=batch State=IDLE\n"
    f"NodeName=n1 CPUTot=8 RealMemory=8192 Gres=gpu:a100{ESC}:4 Partitions=batch State=IDLE\n"
)


def scontrol_cluster(bin_dir: Path, config: str, partition: str, nodes: str) -> None:
    for what, text in (("config", config), ("partition", partition), ("node", nodes)):
        (bin_dir / f"{what}.out").write_text(text)
    shim(bin_dir, "scontrol", f'cat "{bin_dir}/$2.out"')


def test_a_profile_of_names_with_escape_sequences_escapes_them_and_lints_clean(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scontrol_cluster(bin_dir, CONFIG, PARTITION, NODES)
    run = jobc(tmp_path, bin_dir, "profile")
    assert run.returncode == 0, run.stderr
    # the cluster's name, its version and the GPU types were written raw into the comments
    assert RAW_CONTROL.search(run.stdout) is None, run.stdout
    assert "# Cluster profile of evil\\e]0;owned\\x07\\e[2J" in run.stdout
    (tmp_path / "cluster.yaml").write_text(run.stdout)
    lint = jobc(tmp_path, bin_dir, "lint", "cluster.yaml")
    assert (lint.returncode, lint.stdout) == (0, ""), lint.stdout


def test_status_escapes_a_job_name_reason_and_node_list(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    write_ledger(tmp_path / ".jobc", ["7", "8"])
    printing(bin_dir, "squeue", f"7|PENDING|Resources{ESC}\n")
    printing(
        bin_dir,
        "sacct",
        f"7|train{ESC}|PENDING|0:0|00:00:00|1|None assigned|batch|Unknown|Unknown\n"
        f"8|t|FAILED|1:0|00:00:05|1|n{ESC}0|batch|2026-01-01T00:00:00|2026-01-01T00:00:05\n",
    )
    printing(bin_dir, "scontrol", "")
    run = jobc(tmp_path, bin_dir, "status")
    assert run.returncode == 0, run.stderr
    assert RAW_CONTROL.search(run.stdout) is None, run.stdout
    assert "train\\e]0;owned\\x07\\e[2J" in run.stdout
    assert "Resources\\e]0;owned" in run.stdout
    # the JSON holds Slurm's text as it is, escaped by JSON itself
    as_json = jobc(tmp_path, bin_dir, "status", "--format", "json")
    assert RAW_CONTROL.search(as_json.stdout) is None
    assert json.loads(as_json.stdout)[0]["name"] == f"train{ESC}"


# --- words and lines of any length


def test_a_long_first_word_is_read_in_linear_time() -> None:
    # a pattern that tried `\S+?=` at every place of a word without `=` took its length squared
    word = "x" * 20_000
    hostile = f"{word} PartitionName=batch State=UP"
    ordinary = " ".join(f"K{i}=v" for i in range(len(hostile) // 6))
    assert parse_record(hostile) == {"PartitionName": "batch", "State": "UP"}
    assert cpu(lambda: parse_record(hostile)) < 20 * cpu(lambda: parse_record(ordinary))


def test_a_partition_of_300_kb_words_is_profiled(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    word = "x" * 300_000
    scontrol_cluster(bin_dir, "ClusterName = c\n", f"{word} {word}=1 " + PARTITION, NODES.replace(ESC, ""))
    run = jobc(tmp_path, bin_dir, "profile")
    assert run.returncode == 0, run.stderr
    assert "  default_partition: batch" in run.stdout.splitlines()
    assert '      max_time: "01:00:00"' in run.stdout.splitlines()


def test_continuation_lines_are_joined_in_linear_time() -> None:
    # each line was added to the record by copying it whole: 1.5 million lines never ended
    def record(n: int) -> str:
        return "NodeName=n0 CPUTot=8\n" + "   Gres=gpu:2\n" * n

    small, large = record(10_000), record(100_000)
    assert next(parse_records(large))["Gres"] == "gpu:2"
    assert cpu(lambda: list(parse_records(large))) < 30 * cpu(lambda: list(parse_records(small)))


@pytest.mark.slow
def test_a_million_nodes_are_profiled_within_a_memory_limit(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scontrol_cluster(
        bin_dir, "ClusterName = big\n", PARTITION.replace("TotalNodes=2", "TotalNodes=1000000"), ""
    )
    # the node lines are made as scontrol prints them, not held in a file of 90 MB
    (bin_dir / "nodes.py").write_text(
        "import sys\n"
        "for i in range(1_000_000):\n"
        "    sys.stdout.write(f'NodeName=n{i:07d} CPUTot=8 RealMemory=8192 Gres=gpu:2 '\n"
        "                     'Partitions=batch State=IDLE\\n')\n"
    )
    shim(
        bin_dir,
        "scontrol",
        f'if [ "$2" = node ]; then exec {sys.executable} "{bin_dir}/nodes.py"; fi\ncat "{bin_dir}/$2.out"',
    )
    # they took 1.4 GB and, under a limit, ended in MemoryError; read as they come, 350 MB
    run = jobc(tmp_path, bin_dir, "profile", limit=900 << 20)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "      count: 1000000" in run.stdout.splitlines()


# --- a command that never answers, and a ledger too large for one argument


def test_a_slurm_command_that_never_answers_is_given_up_after_the_configured_time(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    shim(bin_dir, "squeue", "exec sleep 600")
    shim(bin_dir, "scontrol", "exit 0")
    run = jobc(tmp_path, bin_dir, "status", "5", JOBC_SLURM_TIMEOUT="1")
    assert run.returncode == 2
    assert run.stderr == (
        "jobc status: squeue did not answer within 1 s (JOBC_SLURM_TIMEOUT sets how long jobc waits)\n"
    )


@pytest.mark.parametrize("value", ["soon", "0", "-5", "nan", "1e9"])
def test_a_timeout_that_is_no_number_of_seconds_is_one_line(tmp_path: Path, value: str) -> None:
    bin_dir = tmp_path / "bin"
    shim(bin_dir, "squeue", "exit 0")
    shim(bin_dir, "scontrol", "exit 0")
    run = jobc(tmp_path, bin_dir, "status", "5", JOBC_SLURM_TIMEOUT=value)
    assert run.returncode == 2
    assert run.stderr.startswith("jobc status: JOBC_SLURM_TIMEOUT must be a number of seconds"), run.stderr
    assert len(run.stderr.splitlines()) == 1


def test_a_ledger_of_17000_jobs_is_asked_about_in_chunks(tmp_path: Path) -> None:
    ids = [str(10_000_000 + i) for i in range(17_000)]  # 153 KB of ids: one argument of it failed
    write_ledger(tmp_path / ".jobc", ids)
    bin_dir = tmp_path / "bin"
    # every job is in the queue: squeue prints a line for each id it was asked about
    shim(bin_dir, "squeue", 'echo "$3" | tr , "\\n" | sed "s/$/|RUNNING|None/"')
    shim(
        bin_dir,
        "sacct",
        'echo "$2" | tr , "\\n" | sed "s/$/|t|RUNNING|0:0|00:01:00|1|n0|batch|2026|Unknown/"',
    )
    shim(bin_dir, "scontrol", "exit 0")
    run = jobc(tmp_path, bin_dir, "status", "--format", "json")
    assert run.returncode == 0, run.stderr[-500:]
    rows = json.loads(run.stdout)
    assert [r["job_id"] for r in rows] == ids
    assert {r["state"] for r in rows} == {"RUNNING"}
    calls = (bin_dir / "calls.log").read_text().splitlines()
    squeues = [line.split()[3] for line in calls if line.startswith("squeue")]
    assert len(squeues) == len(ids) * 9 // CHUNK_CHARS + 1
    assert all(len(chunk) <= CHUNK_CHARS for chunk in squeues)
    assert ",".join(squeues).split(",") == ids


# --- sbatch's output and the ledger

SPEC = "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 2}\nlaunch: {program: train.py}\n"


def submit(tmp_path: Path, bin_dir: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "spec.yaml").write_text(SPEC)
    return jobc(tmp_path, bin_dir, "submit", "spec.yaml")


@pytest.mark.parametrize(
    "printed",
    [
        "4242\nNOTICE: 12 hours of your allocation left this month\n",  # a site wrapper's line after
        "Loading site policy ...\n4242;prod\n",
        "Submitted batch job 4242\n",
    ],
)
def test_a_job_id_anywhere_in_sbatchs_output_is_recorded(tmp_path: Path, printed: str) -> None:
    bin_dir = tmp_path / "bin"
    (bin_dir.mkdir(), (bin_dir / "said").write_text(printed))
    shim(bin_dir, "sbatch", f'cat > /dev/null\ncat "{bin_dir}/said"')
    run = submit(tmp_path, bin_dir)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "4242\n"
    (entry,) = [e for e in ledger.entries(tmp_path / ".jobc") if isinstance(e, ledger.Entry)]
    assert entry.job_id == "4242"
    assert entry.cluster == ("prod" if ";prod" in printed else None)


def test_an_sbatch_that_fails_after_printing_the_id_is_recorded_with_a_warning(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    shim(
        bin_dir, "sbatch", 'cat > /dev/null\necho 77\necho "wrapper: cannot write the audit log" >&2\nexit 3'
    )
    run = submit(tmp_path, bin_dir)
    assert run.returncode == 0, run.stderr
    assert (
        "jobc submit: warning: sbatch exited with code 3 after it printed job id 77: wrapper: cannot"
        in run.stderr
    )
    assert [p.name for p in (tmp_path / ".jobc").iterdir()] == ["77.json"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'echo "sbatch: error: invalid partition" >&2\nexit 1',
            "sbatch refused the job: sbatch: error: invalid",
        ),
        ("echo maintenance tonight", "sbatch printed 'maintenance tonight', not a job id"),
        ("echo 5\necho 6", "sbatch printed several job ids (5, 6)"),
    ],
)
def test_sbatch_output_without_one_job_id_records_nothing(tmp_path: Path, body: str, message: str) -> None:
    bin_dir = tmp_path / "bin"
    shim(bin_dir, "sbatch", f"cat > /dev/null\n{body}")
    run = submit(tmp_path, bin_dir)
    assert run.returncode == 2
    assert message in run.stderr, run.stderr
    assert not (tmp_path / ".jobc").exists() or not list((tmp_path / ".jobc").iterdir())


def test_a_job_id_handed_out_again_keeps_both_entries_and_warns(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    shim(bin_dir, "sbatch", "cat > /dev/null\necho '4242;prod'")
    first = submit(tmp_path, bin_dir)
    assert (first.returncode, first.stdout) == (0, "4242\n")
    assert "warning" not in first.stderr
    second = submit(tmp_path, bin_dir)
    assert (second.returncode, second.stdout) == (0, "4242\n")
    assert "jobc submit: warning: job id 4242 is in the ledger already (submitted " in second.stderr
    names = sorted(p.name for p in (tmp_path / ".jobc").iterdir())
    assert names[0] == "4242.json"
    assert re.fullmatch(r"4242@prod-\d{8}T\d{6}Z(-2)?\.json", names[1]), names
    entries = [e for e in ledger.entries(tmp_path / ".jobc") if isinstance(e, ledger.Entry)]
    assert [e.job_id for e in entries] == ["4242", "4242"]
    assert ledger.find(tmp_path / ".jobc", "4242") == max(entries, key=lambda e: e.submitted)
