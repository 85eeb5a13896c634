"""`jobc triage LOG --spec SPEC`: the spec's rank layout names the coordinates of the failed rank."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.cli import main
from jobc.commands import Exit

LOG = (
    "jobc: world 4 = tp 2 x pp 1 x cp 1 x dp 2 (ep 1), srun launch\n"
    "3: [rank3]: Traceback (most recent call last):\n"
    '3: [rank3]:   File "/t/train.py", line 9, in step\n'
    "3: [rank3]:     loss.backward()\n"
    "3: [rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    "srun: error: n1: task 3: Exited with exit code 1\n"
)
SPEC = """\
version: 1
name: t
slurm: {time: "01:00:00"}
resources: {nodes: 2, gpus_per_node: 2}
launch: {program: train.py}
parallelism: {tp: 2}
"""


def test_the_spec_gives_the_failed_rank_its_coordinates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "job.out").write_text(LOG, encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    code = main(["triage", str(tmp_path / "job.out"), "--spec", str(tmp_path / "spec.yaml")])
    out = capsys.readouterr().out
    assert code == Exit.OK, out
    assert "(tp 1, pp 0, cp 0, dp 1, ep 0)" in out, out


def test_without_a_spec_the_rank_has_no_coordinates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "job.out").write_text(LOG, encoding="utf-8")
    assert main(["triage", str(tmp_path / "job.out")]) == Exit.OK
    assert "(tp " not in capsys.readouterr().out
