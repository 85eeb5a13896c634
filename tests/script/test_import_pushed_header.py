"""A header pushed below a first command: sbatch ignores every directive (JC801), the import reads
them as the job's request and says so; a lone late directive beside a header sbatch reads stays
ignored."""

from __future__ import annotations

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

# source: the form of ImanMalik/midigpt's job script (shortened): `set -e` above the header
PUSHED = (
    "#!/bin/bash\nset -e\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH --time=2:00:00\n"
    "srun python train.py\n"
)


def _import(text: str) -> tuple[dict[str, object], list[str], list[str]]:
    derived = imported(read_bytes(text.encode(), "job.sh"))
    skipped = [f"{u.text} {u.why}" for u in derived.unmapped]
    return derived.data, derived.notes, skipped


def test_a_header_below_the_first_command_is_read_as_the_request_and_said() -> None:
    data, notes, skipped = _import(PUSHED)
    assert data["resources"] == {"nodes": 2, "gpus_per_node": 4}
    assert data["slurm"]["time"] == "2:00:00"  # type: ignore[index]
    assert any("lines 3-5" in n and "JC801" in n and "Slurm's defaults" in n for n in notes), notes
    assert not any("sbatch ignores it" in s for s in skipped), skipped


def test_a_lone_late_directive_beside_a_read_header_stays_ignored() -> None:
    text = (
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:1\nset -e\n#SBATCH --gres=gpu:4\n"
        "srun python train.py\n"
    )
    data, notes, skipped = _import(text)
    assert data["resources"]["gpus_per_node"] == 1  # type: ignore[index]
    assert not any("JC801" in n for n in notes), notes
    assert any("--gres=gpu:4" in s and "sbatch ignores it" in s for s in skipped), skipped


def test_lint_still_reports_every_pushed_directive() -> None:
    from pathlib import Path

    from jobc.lint.scripts import lint_path

    codes = [(f.code, f.span.line) for f in lint_path(Path("job.sh"), data=PUSHED.encode()).findings]
    assert [line for code, line in codes if code == "JC801"] == [3, 4, 5]
