"""`--fix` on generated sbatch scripts with the pitfalls mixed in, in any order.

Whatever the mix, the fixed script still parses (`bash -n`) when it did, has no error jobc did
not find before,
offers no fix that was left unapplied, and a second `--fix` changes nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.core.diagnostics import Severity
from jobc.lint.config import Config
from jobc.lint.fix import diff, fix_path

# A directive in the header; the signal directive with and without B:
HEADER = st.lists(
    st.sampled_from(
        [
            "#SBATCH --ntasks-per-node=1",
            "#SBATCH --time=01:00:00",
            "#SBATCH --signal=USR2@90",
            "#SBATCH --signal=B:USR2@90",
            "#SBATCH -p debug   # the partition",
            "#SBATCH --job-name=gen",
        ]
    ),
    max_size=5,
)
# Lines of the body: commands, late directives (harmless ones: sbatch ignores them all the same),
# exports, traps, steps in every form the fixes meet
BODY = st.lists(
    st.sampled_from(
        [
            "module load cuda",
            "mkdir -p out",
            "#SBATCH --output=out/%x-%j.out",
            "#SBATCH --mail-type=END",
            "export NCCL_DEBUG=INFO",
            "export MASTER_PORT=29500",
            "trap 'touch stop' USR2",
            "trap 'kill -USR2 \"$step\"' USR2",
            'srun bash -c "python train.py --rank=$SLURM_PROCID"',
            'srun bash -lc "cd /work && python train.py --node=$SLURM_NODEID --local=${SLURM_LOCALID}"',
            "srun python train.py  # the run",
            "  srun python train.py",
            "exec srun python train.py",
            "srun torchrun --nnodes=2 --nproc-per-node=8 --node_rank=$SLURM_NODEID train.py",
            "srun python train.py || echo failed",
            "if srun python eval.py; then echo ok; fi",
            "rm -f stop",
            "# a comment",
            "",
        ]
    ),
    min_size=1,
    max_size=8,
)


def _bash_n(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)


def _errors(result: object) -> set[str]:
    findings = getattr(result, "findings", [])
    return {f.code for f in findings if f.severity >= Severity.ERROR}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=HEADER, body=BODY, unsafe=st.booleans(), crlf=st.booleans())
def test_fix_keeps_a_generated_script_valid_and_is_idempotent(
    tmp_path: Path, header: list[str], body: list[str], unsafe: bool, crlf: bool
) -> None:
    end = "\r\n" if crlf else "\n"
    # two nodes, as the torchrun line says: a fix that makes sbatch read a late directive must
    # not be what exposes a mismatch the script had all along
    text = end.join(["#!/bin/bash", "#SBATCH --nodes=2", *header, *body]) + end
    script = tmp_path / "gen.sh"
    script.write_bytes(text.encode())
    config = Config()
    outcome = fix_path(script, config=config, unsafe=unsafe)
    if crlf:
        # sbatch refuses a CRLF script and bash misreads it: the line breaks are converted first
        assert "\r" not in outcome.after
        text = text.replace("\r\n", "\n")
        script.write_bytes(text.encode())
    assert outcome.stopped is None, outcome.stopped
    assert outcome.result is not None
    was = _bash_n(script)
    script.write_bytes(outcome.after.encode("utf-8", "surrogateescape"))
    parsed = _bash_n(script)
    assert parsed.returncode == 0 or was.returncode != 0, (parsed.stderr, outcome.after)

    before = fix_path(tmp_path / "gen.sh", config=config, unsafe=unsafe)  # the fixed file, again
    assert not before.changed, diff(before)
    original = tmp_path / "original.sh"
    original.write_bytes(text.encode())  # (LF: the errors a CRLF script had are JC810's)
    from jobc.lint.scripts import lint_path

    assert _errors(outcome.result) <= _errors(lint_path(original)), outcome.after
    left = [f for f in outcome.result.findings if f.fix is not None and (unsafe or f.fix.safe)]
    assert left == [], [(f.code, f.fix) for f in left]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=HEADER, body=BODY, unsafe=st.booleans())
def test_fix_of_a_generated_script_changes_only_what_its_findings_name(
    header: list[str], body: list[str], unsafe: bool
) -> None:
    """Run before and after under the behaviour simulator, the fixed script does what the original
    did in every scenario (programs succeeding, failing, or waiting for the warning signal), but
    for what the findings it fixed name."""
    from tests.support.simulator.fixes import prove

    text = "\n".join(["#!/bin/bash", "#SBATCH --nodes=2", *header, *body]) + "\n"
    proof = prove(text, unsafe=unsafe)
    assert proof.differences == [], (proof.fixed, proof.differences, text, proof.after)
