"""`jobc lint` and `jobc import` on scripts: profiles, configuration, suppressions, formats, bad input."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.lint.config import Config
from jobc.lint.scripts import lint_path

CORPUS = Path(__file__).with_name("corpus")

PROFILE = """\
profile: site
cluster:
  gpus_per_node: 8
  cpus_per_node: 64
  partitions:
    batch: {max_time: "24:00:00"}
storage:
  shared: [/lustre]
"""

# asks more than the profile's nodes hold: 16 GPUs, 8 tasks × 16 CPUs, 48 hours on batch
OVERSIZED = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=16
#SBATCH --gpus-per-node=16
#SBATCH --cpus-per-task=16
#SBATCH --partition=batch
#SBATCH --time=48:00:00
#SBATCH --exclusive
export HF_HOME=/home/alice/hf
srun python train.py
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def where(findings: list, code: str) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    return [(f.span.line, f.span.col) for f in findings if f.code == code]


def test_profile_gives_a_script_the_cluster_facts(tmp_path: Path) -> None:
    script = write(tmp_path, "job.sh", OVERSIZED)
    profile = write(tmp_path, "site.yaml", PROFILE)
    without = lint_path(script)
    assert not {f.code for f in without.findings} & {"JC103", "JC108", "JC109", "JC701"}
    result = lint_path(script, profile=profile)
    assert where(result.findings, "JC103") == [(4, 9)]
    assert where(result.findings, "JC108") == [(7, 9)]
    assert where(result.findings, "JC109") == [(5, 9)]
    assert where(result.findings, "JC701") == [(9, 16)]
    assert all(f.file == str(script) for f in result.findings)


def test_profile_from_tool_jobc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "clusters/site.yaml", PROFILE)
    write(tmp_path, "pyproject.toml", '[tool.jobc]\nprofile = "clusters/site.yaml"\n')
    (tmp_path / ".git").mkdir()
    write(tmp_path, "slurm/job.sbatch", OVERSIZED)
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "slurm"]) == 1
    out = capsys.readouterr().out
    assert "slurm/job.sbatch:4:9: JC103" in out
    assert "slurm/job.sbatch:7:9: JC108" in out


def test_profile_errors_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write(tmp_path, "job.sh", OVERSIZED)
    assert main(["lint", str(script), "--profile", str(tmp_path / "missing.yaml")]) == 2
    assert "--profile" in capsys.readouterr().err
    spec = write(tmp_path, "notprofile.yaml", "version: 1\nname: x\n")
    result = lint_path(script, profile=spec)
    assert [f.code for f in result.findings] == ["JC006"]


def test_suppression_and_unused_suppression(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        "job.sh",
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-node=4
        #SBATCH --time=01:00:00
        export MASTER_PORT=29500  # jobc: ignore[JC104] reserved for us
        echo "# jobc: ignore[JC106] inside a string is not a comment"
        srun python train.py  # jobc: ignore[JC805]
        """,
    )
    result = lint_path(script)
    assert [(f.code, f.span.line) for f in result.findings] == [("JC007", 8)]


def test_select_ignore_and_severity_apply(tmp_path: Path) -> None:
    script = CORPUS / "nccl_env.sh"
    result = lint_path(script, config=Config(select=["JC40"], ignore=["JC404"]))
    assert sorted({f.code for f in result.findings}) == ["JC401", "JC402", "JC406", "JC407"]


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_output_format(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(CORPUS / "late_directive.sh")
    assert main(["lint", "--format", fmt, path]) == 1
    out = capsys.readouterr().out
    if fmt == "json":
        (finding,) = json.loads(out)["findings"] if isinstance(json.loads(out), dict) else json.loads(out)
        assert finding["code"] == "JC801"
        assert finding["line"] == 6
    elif fmt == "sarif":
        result = json.loads(out)["runs"][0]["results"][0]
        assert result["ruleId"] == "JC801"
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 6
    elif fmt == "github":
        assert out.startswith(f"::error file={path},line=6,")
    else:
        assert f"{path}:6:1: JC801 [error]" in out


def test_directories_hold_specs_and_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "jobs/train.sbatch", (CORPUS / "late_directive.sh").read_text())
    write(tmp_path, "jobs/helper.sh", "#!/bin/bash\necho no directives here\n")
    write(tmp_path, "jobs/notes.txt", "#SBATCH --nodes=2\n")
    assert main(["lint", str(tmp_path / "jobs")]) == 1
    out = capsys.readouterr().out
    assert "train.sbatch:6:1: JC801" in out
    assert "helper.sh" not in out
    assert "notes.txt" not in out


# Bad input: a finding that says where reading stopped (or a partial result), never a traceback.


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_bytes(b"#!/bin/bash\n#SBATCH -N 2\n\x00\x01\x02\xff\xfe")
    result = lint_path(path)
    assert [(f.code, f.span.line, str(f.severity)) for f in result.findings] == [("JC800", 3, "error")]


def test_zsh_only_syntax_reads_the_directives(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "job.zsh",
        "#!/bin/zsh\n#SBATCH --nodes=2\n#SBATCH --requeue\nfor f in **/*.py(.N); do print $f; done\n",
    )
    result = lint_path(path)
    assert [(f.code, f.span.line) for f in result.findings] == [("JC800", 1), ("JC108", 3), ("JC601", 3)]


def test_a_python_file_with_sbatch_lines(tmp_path: Path) -> None:
    result = lint_path(CORPUS / "train_with_directives.py")
    assert [f.code for f in result.findings] == ["JC800"]
    assert "python" in result.findings[0].message


def test_ten_thousand_lines(tmp_path: Path) -> None:
    body = "".join(f'echo "step {i}" "$HOME/{i}"\n' for i in range(10_000))
    path = write(
        tmp_path,
        "long.sh",
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:00:00\n" + body + "torchrun train.py\n",
    )
    result = lint_path(path)
    assert [(f.code, f.span.line) for f in result.findings] == [("JC805", 10_004)]


def test_broken_syntax_keeps_what_was_read(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "job.sh",
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:00:00\nif [ -d x ]; then\n  echo x\n"
        "export MASTER_ADDR=localhost\nsrun torchrun --nnodes=2 train.py\n",
    )
    result = lint_path(path)
    codes = [(f.code, f.span.line) for f in result.findings]
    assert ("JC806", 6) in codes  # read despite the missing `fi`
    assert any(code == "JC800" for code, _ in codes)


# jobc import


def test_import_writes_the_spec_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "spec.yaml"
    assert main(["import", str(CORPUS / "torchrun_srun.sh"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert 'mode: "torchrun"' in text
    assert 'program: "train.py"  # line 18' in text
    assert "# Not mapped from the script:" in text
    assert "line 10: head_node=$(scontrol" not in text  # a plain shell variable, not an export
    assert err.startswith(f"jobc import: {CORPUS / 'torchrun_srun.sh'} → {out}")
    assert "line(s) not mapped" in err
    assert main(["compile", str(out), "-o", str(tmp_path / "job.sh")]) == 0


def test_import_lists_a_long_line_whole_in_the_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a line not carried is listed whole in the spec, where a cut once hid the word the user needed
    # (the option a launcher refuses, past the first 70 characters); the terminal's summary cuts it
    script = tmp_path / "job.sh"
    check = (
        "srun --ntasks=2 --ntasks-per-node=1 torchrun --nnodes=2 "
        "--rdzv_endpoint=h:1 --nproc_pre_node 8 check.py"
    )
    train = "srun torchrun --nnodes=2 --nproc_per_node=8 train.py"
    script.write_text(f"#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n{check}\n{train}\n")
    out = tmp_path / "spec.yaml"
    assert main(["import", str(script), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    listed = [line for line in out.read_text(encoding="utf-8").splitlines() if "--nproc_pre_node" in line]
    assert listed, out.read_text(encoding="utf-8")
    assert all("…" not in line for line in listed), listed
    assert any("--rdzv_endpoint=h:1 --nproc_pre_node 8" in line for line in listed), listed
    # near miss: the summary on the terminal shows the first characters and says where the rest is
    assert f"not mapped (each up to 500 characters in {out})" in err
    assert "--rdzv_endpoint=h:1 --nproc_pre_node 8" not in err


def test_import_to_stdout_and_of_unreadable_scripts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(CORPUS / "srun_native.sh")]) == 0
    assert "version: 1" in capsys.readouterr().out
    assert main(["import", str(CORPUS / "job.csh")]) == 1
    assert "cannot be read" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.sh")]) == 2


def test_srun_sizes_and_standalone_rendezvous(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "job.sh",
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-node=4
        #SBATCH --time=01:00:00
        #SBATCH --exclusive
        srun -N 1 -n 6 python train.py
        srun --ntasks-per-node=1 torchrun --standalone --nproc_per_node=4 eval.py
        """,
    )
    result = lint_path(path)
    got = [(f.code, f.span.line, f.span.col) for f in result.findings]
    # the sizes are checked on the step that trains (the last one with a launcher)
    assert ("JC806", 8, 26) in got  # the launcher started with --standalone
    path.write_text(path.read_text().replace("srun --ntasks-per-node=1 torchrun", "echo"), encoding="utf-8")
    got = [(f.code, f.span.line, f.span.col) for f in lint_path(path).findings]
    # six tasks on two nodes of four GPUs: also more ranks than GPUs on the one node used
    assert got == [("JC804", 7, 6), ("JC101", 7, 11), ("JC804", 7, 11)]


def test_import_of_pyxis_flags() -> None:
    from jobc.lint.imported import imported
    from jobc.script.parse import read

    derived = imported(read(CORPUS / "pyxis.sh"))
    assert derived.data["container"] == {
        "image": "/lustre/images/pytorch-24.05.sqsh",
        "mounts": ["/lustre:/lustre"],
        "workdir": "/lustre/code",
        "mount_home": False,
    }
    assert derived.spans[("container", "mount_home")].line == 11


def test_set_says_it_does_not_apply_to_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(CORPUS / "srun_native.sh")
    assert main(["lint", path, "--set", "resources.nodes=4"]) == 0
    assert f"--set applies to specs, not to sbatch scripts: {path}" in capsys.readouterr().err


def test_a_time_limit_written_after_the_first_command_is_where_jc108_points(tmp_path: Path) -> None:
    # the limit is in the script, but sbatch no longer reads it there: that line is the one to edit
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nmodule load cuda\n"
        "#SBATCH --time=04:00:00\nsrun python train.py\n",
        encoding="utf-8",
    )
    found = {(f.code, f.span.line) for f in lint_path(script, config=Config()).findings}
    assert ("JC108", 5) in found
    assert ("JC801", 5) in found
    # without a late one, the finding stays at the block of directives
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nmodule load cuda\n"
        "srun python train.py\n",
        encoding="utf-8",
    )
    assert [f.span.line for f in lint_path(script, config=Config()).findings if f.code == "JC108"] == [3]


_HEAD_106 = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --time=01:00:00\n"


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # shown once in the batch shell: no rank reads it
        ('X=$SLURM_NODEID\necho "node $X"\nsrun python train.py\n', False),
        ("X=$SLURM_NODEID\nsrun python train.py\n", False),
        # handed on: to a step, by export, by declare -x, through a file, through another variable
        ("X=$SLURM_NODEID\nsrun python train.py --node $X\n", True),
        ("X=$SLURM_NODEID\nexport X\nsrun python train.py\n", True),
        ("declare -x X=$SLURM_NODEID\nsrun python train.py\n", True),
        ("X=$SLURM_NODEID\ncat > run.sh <<EOF\npython train.py --node $X\nEOF\nsrun bash run.sh\n", True),
        ('X=$SLURM_NODEID\nARGS="--node $X"\nsrun python train.py $ARGS\n', True),
        ("X=$SLURM_NODEID srun python train.py\n", True),
    ],
    ids=["echoed", "unread", "step", "export", "declare-x", "heredoc", "variable", "prefix"],
)
def test_jc106_lets_go_a_per_rank_value_only_the_batch_shell_shows(
    tmp_path: Path, body: str, fires: bool
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_HEAD_106 + body, encoding="utf-8")
    codes = {f.code for f in lint_path(script, config=Config()).findings}
    assert ("JC106" in codes) == fires, codes


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # a log line naming the variable sets nothing: the launcher string still expands it once
        # source: voidful/open-s1-zh train_slurm.sh (the form; shortened)
        (
            'echo "SLURM_NODEID=${SLURM_NODEID}"\n'
            'L="accelerate launch --num_machines=2 --machine_rank=$SLURM_NODEID"\nsrun bash -c "$L t.py"\n',
            True,
        ),
        ("echo SLURM_NODEID=$SLURM_NODEID\nsrun torchrun --node_rank=$SLURM_NODEID t.py\n", True),
        # near misses: the script gives the name a value of its own, as a command, after export,
        # after another assignment, in arithmetic or a loop
        ("SLURM_NODEID=1\nsrun torchrun --node_rank=$SLURM_NODEID t.py\n", False),
        ("export SLURM_NODEID=1\nsrun torchrun --node_rank=$SLURM_NODEID t.py\n", False),
        ("A=1 SLURM_NODEID=1\nsrun torchrun --node_rank=$SLURM_NODEID t.py\n", False),
        ("(( SLURM_NODEID=1 ))\nsrun torchrun --node_rank=$SLURM_NODEID t.py\n", False),
        (
            "for SLURM_NODEID in 0 1; do srun -N1 torchrun --node_rank=$SLURM_NODEID t.py & done\nwait\n",
            False,
        ),
    ],
    ids=["echo-quoted", "echo-bare", "own", "export", "after-assign", "arith", "loop"],
)
def test_jc106_an_assignment_is_one_bash_reads_as_such(tmp_path: Path, body: str, fires: bool) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_HEAD_106 + body, encoding="utf-8")
    codes = {f.code for f in lint_path(script, config=Config()).findings}
    assert ("JC106" in codes) == fires, codes


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # verl's SFT launcher: the batch shell's NODE_RANK is set again in the step's own shell
        (
            'export NODE_RANK=$SLURM_PROCID\nsrun bash -c "\n  export NODE_RANK=\\$SLURM_PROCID\n'
            '  torchrun --node_rank=\\$NODE_RANK t.py"\n',
            False,
        ),
        ('export NODE_RANK=$SLURM_PROCID\nsrun bash -c "NODE_RANK=\\$SLURM_PROCID torchrun t.py"\n', False),
        # near misses: a step that does not set it again, a batch line that reads it, no step
        ('export NODE_RANK=$SLURM_PROCID\nsrun bash -c "torchrun --node_rank=\\$NODE_RANK t.py"\n', True),
        (
            "export NODE_RANK=$SLURM_PROCID\nsrun python t.py\n"
            'srun bash -c "export NODE_RANK=\\$SLURM_PROCID; torchrun t.py"\n',
            True,
        ),
        (
            'export NODE_RANK=$SLURM_PROCID\nARGS="--rank $NODE_RANK"\n'
            'srun bash -c "export NODE_RANK=\\$SLURM_PROCID; torchrun t.py $ARGS"\n',
            True,
        ),
    ],
    ids=["set-again", "prefix-again", "not-again", "one-step-not", "read-in-batch"],
)
def test_jc106_lets_go_an_export_every_step_sets_again(tmp_path: Path, body: str, fires: bool) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_HEAD_106 + body, encoding="utf-8")
    codes = {f.code for f in lint_path(script, config=Config()).findings}
    assert ("JC106" in codes) == fires, codes


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # the first node's name, read once, as the host every node must reach (nanoVLM)
        (
            "ARGS=(\n  --nnodes=2\n  --rdzv_endpoint=$SLURMD_NODENAME:29500\n)\n"
            "srun torchrun ${ARGS[@]} t.py\n",
            False,
        ),
        ('srun torchrun --nnodes=2 --master_addr "${SLURMD_NODENAME}" --master_port=29500 t.py\n', False),
        ("export MASTER_ADDR=$SLURMD_NODENAME\nsrun python t.py\n", False),
        # near misses: the name as a value of each node's own (GritLM's role), or a host and a role
        ('srun bash -c "accelerate launch --machine_rank 0 --role $SLURMD_NODENAME: t.py"\n', True),
        (
            "srun torchrun --nnodes=2 --rdzv_endpoint=$SLURMD_NODENAME:29500 --role=$SLURMD_NODENAME t.py\n",
            True,
        ),
    ],
    ids=["array-endpoint", "master-addr", "export", "role", "host-and-role"],
)
def test_jc106_lets_go_the_first_node_name_as_the_rendezvous_host(
    tmp_path: Path, body: str, fires: bool
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_HEAD_106 + body, encoding="utf-8")
    codes = {f.code for f in lint_path(script, config=Config()).findings}
    assert ("JC106" in codes) == fires, codes


@pytest.mark.parametrize(
    ("head", "fires"),
    [
        # no node count written, and the launch reads the one it is given: sized at submission
        ("#!/bin/bash\n#SBATCH --time=01:00:00\n", True),
        # one node asked for: the batch shell's node values are every rank's
        ("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=01:00:00\n", False),
        ("#!/bin/bash\n#SBATCH --ntasks=1\n#SBATCH --time=01:00:00\n", False),
    ],
    ids=["sized-at-submission", "nodes-1", "ntasks-1"],
)
def test_jc106_on_one_node_only_when_the_script_asks_for_one(tmp_path: Path, head: str, fires: bool) -> None:
    # the Lambda guide: `sbatch -N 4 job.slurm`, torchrun told `--nnodes ${SLURM_NNODES}`
    script = tmp_path / "job.sh"
    script.write_text(
        head + "export TORCHELASTIC_ERROR_FILE=./error-${SLURM_JOBID}-${SLURM_NODEID}.json\n"
        "srun torchrun --nnodes ${SLURM_NNODES} --nproc-per-node 8 train.py\n",
        encoding="utf-8",
    )
    codes = {f.code for f in lint_path(script, config=Config()).findings}
    assert ("JC106" in codes) == fires, codes


def test_one_line_that_writes_two_values_gets_one_finding_of_a_rule(tmp_path: Path) -> None:
    # export MASTER_PORT=29500 is both the rendezvous port the launch reads and env MASTER_PORT
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=8\n"
        "#SBATCH --time=01:00:00\nexport MASTER_PORT=29500\n"
        'head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n1)\n'
        "srun torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d "
        '--rdzv_endpoint "$head:$MASTER_PORT" train.py\n'
    )
    from jobc.lint.scripts import lint_path

    found = [f for f in lint_path(script).findings if f.code == "JC104"]
    assert [(f.span.line, f.span.col) for f in found] == [(6, 20)]


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # a Ray cluster started through helper scripts: the batch shell's python is its driver
        (
            'ray disable-usage-stats\n./raymaster.sh "$head" 6379\n./rayworkers.sh "$node" "$head:6379"\n'
            "python -u train.py\n",
            False,
        ),
        # the near miss: helper scripts with no Ray, and the program alone on the first node
        ("./prepare.sh\npython -u train.py\n", True),
    ],
)
def test_jc805_leaves_a_ray_clusters_driver_alone(tmp_path: Path, body: str, fires: bool) -> None:
    path = tmp_path / "job.sh"
    path.write_text("#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=1:00:00\n" + body, encoding="utf-8")
    assert ("JC805" in {f.code for f in lint_path(path).findings}) is fires


def _many_setup_lines(n: int) -> str:
    lines = ["#!/bin/bash", "#SBATCH --nodes=1", "#SBATCH --gpus-per-node=8", "#SBATCH --ntasks-per-node=8"]
    lines += [f'eval "X{i}=$Y"' for i in range(n // 2)]
    lines += ["srun --chdir=/scratch/run python prep.py"]  # a step that is not the training step
    lines += [f'eval "Z{i}=$Y"' for i in range(n - n // 2)]
    lines += ["srun python train.py"]
    return "\n".join(lines) + "\n"


def test_import_summary_counts_plain_lines_past_a_few_and_shows_every_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_many_setup_lines(30), encoding="utf-8")
    out = tmp_path / "spec.yaml"
    assert main(["import", str(script), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("not a launch; put it in launch.setup") == 10
    assert "… and 20 more helper commands or lines that are not a launch, each listed in the spec" in err
    assert "prep.py" in err  # a line of another kind is shown wherever it stands
    # the spec lists every one
    assert out.read_text(encoding="utf-8").count("not a launch; put it in launch.setup") == 30


def test_import_summary_shows_every_plain_line_when_there_are_few(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(_many_setup_lines(10), encoding="utf-8")
    assert main(["import", str(script), "-o", str(tmp_path / "spec.yaml")]) == 0
    err = capsys.readouterr().err
    assert err.count("not a launch; put it in launch.setup") == 10
    assert "more helper commands" not in err


_TWO_NODES = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=2\n"
    "#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
    'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)\n'
)


@pytest.mark.parametrize(
    ("step", "said"),
    [
        ("srun torchrun --nproc_per_node=2 train.py", "torchrun is given no --nnodes"),
        (
            'srun accelerate launch --num_processes "$GPUS" train.py',
            "accelerate launch is given no --num_machines",
        ),
    ],
)
def test_a_launcher_given_no_node_count_under_srun_on_several_nodes_runs_one_job_per_node(
    tmp_path: Path, step: str, said: str
) -> None:
    path = tmp_path / "job.sh"
    path.write_text(_TWO_NODES + step + "\n", encoding="utf-8")
    [finding] = [f for f in lint_path(path).findings if f.code == "JC806"]
    assert (finding.span.line, finding.span.col) == (8, 6)
    assert said in finding.message
    assert "under srun on 2 nodes each node runs a job of its own" in finding.message


@pytest.mark.parametrize(
    "step",
    [
        # the node count and the rendezvous given
        "srun torchrun --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d "
        '--rdzv_endpoint="$MASTER_ADDR:29500" t.py',
        "srun accelerate launch --num_machines 2 --num_processes 4 t.py",  # (JC106's and others' to say more)
        "srun accelerate launch --config_file node.yaml t.py",  # the config file says what it says
        "PET_NNODES=2 srun torchrun --nproc_per_node=2 t.py",  # torchrun reads its options from PET_*
        "srun -N1 --ntasks=1 torchrun --nproc_per_node=2 t.py",  # a one-node step
        "torchrun --nproc_per_node=2 t.py",  # not under srun: JC805's
    ],
)
def test_a_launcher_given_its_node_count_or_on_one_node_is_no_one_node_job(tmp_path: Path, step: str) -> None:
    path = tmp_path / "job.sh"
    path.write_text(_TWO_NODES + step + "\n", encoding="utf-8")
    assert [f for f in lint_path(path).findings if f.code == "JC806"] == []


_CUT = "#!/bin/bash\n#SBATCH --time=01:00:00\n#SBATCH --gpus-per-node=4\n{}srun python train.py\n"


def test_a_task_total_that_cuts_a_task_per_gpu_to_one_is_jc101(tmp_path: Path) -> None:
    # `--ntasks` wins over `--ntasks-per-node`, which is then a cap: one task drives 4 GPUs
    path = tmp_path / "job.sh"
    path.write_text(_CUT.format("#SBATCH --ntasks 1\n#SBATCH --ntasks-per-node 4\n"), encoding="utf-8")
    [finding] = [f for f in lint_path(path).findings if f.code == "JC101"]
    assert (finding.span.line, finding.span.col) == (4, 9)
    assert "it wins over --ntasks-per-node" in finding.message


@pytest.mark.parametrize(
    "directives",
    [
        "#SBATCH --ntasks 4\n#SBATCH --ntasks-per-node 4\n",  # the two agree
        "#SBATCH --ntasks 1\n",  # one task on one node: it may drive every GPU itself
        "#SBATCH --ntasks 1\n#SBATCH --ntasks-per-node 2\n",  # no task per GPU asked for either
    ],
)
def test_a_task_total_that_cuts_nothing_asked_for_is_no_jc101(tmp_path: Path, directives: str) -> None:
    path = tmp_path / "job.sh"
    path.write_text(_CUT.format(directives), encoding="utf-8")
    assert [f for f in lint_path(path).findings if f.code == "JC101"] == []
