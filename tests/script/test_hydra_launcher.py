"""A Hydra program's launcher plugin, read from its overrides: in a multirun, the torchrun
plugin (`hydra/launcher=torchrun`) is torchrun, one agent per node that forks the node's workers,
with its sizes and rendezvous from `hydra.launcher.*`; a plugin the script does not name (its
config chooses it) or jobc does not know leaves the mode unknown; without a multirun the program
runs in its own one process whatever launcher is named (a plugin runs only in a multirun)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes
from tests.script.test_launch_forms_more import HEAD, _launch

_SRUN = "srun --ntasks-per-node=1 "


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # the plugin by name in a multirun: torchrun, one per node
        (
            _SRUN + "python main.py -m hydra/launcher=torchrun hydra.launcher.nproc_per_node=8 lr=1\n",
            "torchrun",
            "main.py",
        ),
        (
            _SRUN + "python3 train.py --multirun hydra/launcher=torchrun +hydra.launcher.nnodes=2 a=b\n",
            "torchrun",
            "train.py",
        ),
        (
            _SRUN + "python -m pkg.train hydra.mode=MULTIRUN ++hydra/launcher=torchrun x=1\n",
            "torchrun",
            "pkg.train",
        ),
        (
            _SRUN + "uv run train.py -m hydra/launcher=torchrun hydra.launcher.nproc_per_node=8\n",
            "torchrun",
            "train.py",
        ),
        # a multirun whose plugin the config chooses, or one jobc does not know: not known
        (_SRUN + "python main.py -m hydra.launcher.nproc_per_node=8 lr=1\n", None, "main.py"),
        (_SRUN + "python main.py -m hydra/launcher=submitit_slurm hydra.launcher.nodes=2\n", None, "main.py"),
        (_SRUN + "python main.py -m hydra/launcher=joblib\n", None, "main.py"),
        # near misses: no multirun (the plugin does not run), the basic plugin (in process), a
        # multirun without any launcher override, a `-m` of a program that is no Hydra's
        (
            _SRUN + "python main.py hydra/launcher=torchrun hydra.launcher.nproc_per_node=8\n",
            "srun",
            "main.py",
        ),
        (_SRUN + "python main.py -m hydra/launcher=basic lr=1,2\n", "srun", "main.py"),
        (_SRUN + "python main.py -m lr=1,2\n", "srun", "main.py"),
        (_SRUN + "python main.py -m resnet50 --nproc_per_node 8\n", "srun", "main.py"),
        # the plugin's own name for something else: rehydra's group is no Hydra launcher
        (_SRUN + "python main.py -m rehydra/launcher=torchrun\n", "srun", "main.py"),
    ],
)
def test_hydra_launcher_sets_the_mode(body: str, mode: str | None, program: str) -> None:
    assert _launch(body)[:2] == (mode, program)


def test_the_overrides_that_choose_and_size_torchrun_are_listed_not_passed_on() -> None:
    body = (
        _SRUN + "python main.py -m hydra/launcher=torchrun hydra.launcher.nproc_per_node=8 "
        "hydra.launcher.rdzv_endpoint=$HEAD:29400 lr=1\n"
    )
    facts = read_bytes((HEAD + body).encode(), "job.sh")
    launch = imported(facts).data["launch"]
    assert (launch["mode"], launch["args"]) == ("torchrun", ["-m", "lr=1"])
    listed = _launch(body)[2].split("# Not mapped from the script:", 1)[1]
    assert "line 6: hydra/launcher=torchrun — Hydra's torchrun launcher" in listed
    assert "line 6: hydra.launcher.nproc_per_node=8 —" in listed


def test_an_unknown_plugin_says_the_mode_is_not_known() -> None:
    mode, _, spec = _launch(_SRUN + "python main.py -m hydra/launcher=submitit_slurm\n")
    assert mode is None
    assert "# Not known: launch.mode: line 6 runs main.py in a Hydra multirun" in spec


def _lint(tmp_path: Path, body: str) -> list[tuple[str, int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + textwrap.dedent(body))
    return [(f.code, f.span.line, f.span.col) for f in lint_path(path, display="job.sh").findings]


def test_a_fixed_port_in_the_plugin_s_endpoint_is_jc104(tmp_path: Path) -> None:
    line = (
        "srun --ntasks-per-node=1 python main.py -m hydra/launcher=torchrun "
        "hydra.launcher.rdzv_endpoint=$H:29501 lr=1\n"
    )
    got = _lint(tmp_path, line)
    assert ("JC104", 6, line.index("29501") + 1) in got
    # near miss: the same override in a single run starts no torchrun, and reads no port
    assert not [c for c, _, _ in _lint(tmp_path, line.replace(" -m ", " ")) if c == "JC104"]


def test_the_plugin_started_by_the_batch_shell_on_two_nodes_is_jc805(tmp_path: Path) -> None:
    line = "python main.py -m hydra/launcher=torchrun hydra.launcher.nproc_per_node=8\n"
    assert ("JC805", 6) in [(c, n) for c, n, _ in _lint(tmp_path, line)]


def test_a_word_computed_when_the_job_runs_is_no_override() -> None:
    # `$OVERRIDES` may hold anything: the literal words alone are read
    facts = read_bytes((HEAD + _SRUN + 'python main.py -m "$OVERRIDES"\n').encode(), "job.sh")
    assert facts.steps[0].own_launcher is None
    assert facts.steps[0].launcher is None
