"""JC1 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.lint import codes, lint_text, only, where


def test_jc101_fires_on_tasks_per_node_below_gpus(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources:
          nodes: 1
          gpus_per_node: 8
          tasks_per_node: 1
        launch: {mode: srun, program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC101") == [(6, 19)]
    assert "tasks_per_node is 1 and gpus_per_node is 8" in only(result, "JC101").message


def test_jc101_near_miss_tasks_equal_gpus(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8, tasks_per_node: 8}
        launch: {mode: srun, program: train.py}
        """,
        tmp_path,
    )
    assert "JC101" not in codes(result)


def test_jc102_fires_on_several_torchrun_tasks_per_node(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources:
          nodes: 1
          gpus_per_node: 8
          tasks_per_node: 8
        launch: {mode: torchrun, program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC102") == [(6, 19)]
    message = only(result, "JC102").message
    assert "tasks_per_node 8" in message
    assert "64 ranks per node instead of 8" in message


def test_jc102_near_miss_one_task(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8, tasks_per_node: 1}
        launch: {mode: torchrun, program: train.py}
        """,
        tmp_path,
    )
    assert "JC102" not in codes(result)


def test_jc103_fires_above_the_profiles_node(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {gpus_per_node: 8}
        resources:
          nodes: 1
          gpus_per_node: 16
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC103") == [(6, 18)]
    message = only(result, "JC103").message
    assert "gpus_per_node 16 but a node of this cluster" in message
    assert "has 8 GPUs" in message
    assert "gpus_per_node 8 on 2 nodes for the same 16 GPUs" in message


def test_jc103_on_a_cluster_of_nodes_without_gpus(tmp_path: Path) -> None:
    # no same-total hint to give (and nothing to divide by)
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {gpus_per_node: 0}
        resources:
          nodes: 1
          gpus_per_node: 4
        launch: {program: train.py}
        """,
        tmp_path,
    )
    message = only(result, "JC103").message
    assert "has 0 GPUs" in message
    assert "for the same" not in message


def test_jc103_fires_above_the_catalogue_server(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpu: gb200, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC103") == [(3, 50)]
    assert "usual gb200 server" in only(result, "JC103").message
    assert "has 4 GPUs" in only(result, "JC103").message


def test_jc103_points_at_the_partition_when_the_count_is_the_clusters(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster:
          gpus_per_node: 8
          partitions: {small: {gpus_per_node: 4}}
        slurm:
          partition: small
        resources: {nodes: 1}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC103") == [(7, 14)]
    assert "partition 'small' has 4 GPUs" in only(result, "JC103").message


def test_jc103_near_miss_profile_overrides_catalogue(tmp_path: Path) -> None:
    # the site's profile says its nodes hold 16, so the catalogue's usual 8 does not apply
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {gpu: h100-80gb, gpus_per_node: 16}
        resources: {nodes: 1, gpus_per_node: 16}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert "JC103" not in codes(result)


def test_jc104_fires_on_fixed_ports_on_shared_nodes(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 2}
        launch:
          program: train.py
          master_port: 29500
        env:
          MASTER_PORT: "29501"
        """,
        tmp_path,
    )
    assert where(result, "JC104") == [(6, 16), (8, 16)]
    messages = [f.message for f in result.findings if f.code == "JC104"]
    assert "fixes the port at 29500" in messages[0]
    assert "at 29501" in messages[1]


def test_jc104_near_miss_exclusive_nodes(tmp_path: Path) -> None:
    for exclusive in ("slurm: {exclusive: true}", "cluster: {exclusive_nodes: true}"):
        result = lint_text(
            f"""\
            version: 1
            name: t
            {exclusive}
            resources: {{nodes: 1, gpus_per_node: 2}}
            launch: {{program: train.py, master_port: 29500}}
            """,
            tmp_path,
        )
        assert "JC104" not in codes(result), exclusive


def test_jc105_fires_on_torchrun_in_setup_with_uv(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch:
          python: uv
          program: train.py
          setup:
            - module load cuda
            - torchrun --nproc-per-node 8 train.py
        """,
        tmp_path,
    )
    assert where(result, "JC105") == [(9, 7)]
    assert "setup line 2 calls torchrun" in only(result, "JC105").message


def test_jc105_near_miss_uv_run_torchrun_and_a_path(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch:
          python: uv
          program: train.py
          setup:
            - uv run --no-sync torchrun --version
            - /opt/venv/bin/torchrun --version
            - echo torchrun_done
            - echo "starting torchrun now"
            - logger -t job torchrun is next
        """,
        tmp_path,
    )
    assert "JC105" not in codes(result)


def test_jc105_near_miss_interpreter_path(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch:
          python: /opt/venv/bin/python
          program: train.py
          setup: [torchrun --version]
        """,
        tmp_path,
    )
    assert "JC105" not in codes(result)


def test_jc106_fires_in_args_env_and_setup(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch:
          program: train.py
          args:
            - --node_rank
            - $SLURM_NODEID
          setup:
            - export MY_RANK="$SLURM_PROCID"
            - export RANK=$((SLURM_NODEID * 8 + SLURM_LOCALID))
        env:
          LOCAL: "rank-$LOCAL_RANK"
        """,
        tmp_path,
    )
    assert where(result, "JC106") == [(8, 7), (10, 7), (11, 7), (13, 10)]
    args, setup, arithmetic, env = (f.message for f in result.findings if f.code == "JC106")
    assert "launch.args[1] holds $SLURM_NODEID" in args
    assert "setup line 1 expands $SLURM_PROCID" in setup
    assert "setup line 2 expands $SLURM_NODEID, $SLURM_LOCALID" in arithmetic
    assert "env LOCAL holds $LOCAL_RANK" in env


def test_jc106_near_miss_quoted_escaped_and_longer_names(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch:
          program: train.py
          args: [--ranks, $RANKS, "{parallelism.tp}"]
          setup:
            - srun bash -c 'echo $SLURM_PROCID'
            - echo \\$SLURM_NODEID
            - echo $SLURM_JOB_ID
        """,
        tmp_path,
    )
    assert "JC106" not in codes(result)


def test_jc107_fires_on_shell_syntax_in_sbatch_values(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        slurm:
          account: $USER
          extra: {chdir: ~/runs}
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        storage:
          logs: /scratch/${USER}/logs
        """,
        tmp_path,
    )
    assert where(result, "JC107") == [(4, 12), (5, 18), (9, 9)]
    account, chdir, logs = (f.message for f in result.findings if f.code == "JC107")
    assert "never expands $USER; write the value itself" in account
    assert "never expands ~" in chdir
    assert "use Slurm's %u instead" in logs


def test_jc107_near_miss_slurm_placeholders(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        slurm: {account: proj-1, extra: {output: "/scratch/%u/%x-%j.out"}}
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        storage: {logs: /scratch/%u/logs}
        """,
        tmp_path,
    )
    assert "JC107" not in codes(result)


def test_jc108_fires_when_missing_on_multinode(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        slurm:
          partition: batch
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC108") == [(3, 1)]
    assert "a 2-node job needs a time limit" in only(result, "JC108").message


def test_jc108_fires_at_the_top_when_there_is_no_slurm_section(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC108") == [(1, 1)]


def test_jc108_fires_on_unlimited_and_malformed(tmp_path: Path) -> None:
    for value, expected in (("UNLIMITED", "asks for no time limit"), ('"1d"', "'1d' is not a Slurm time")):
        result = lint_text(
            f"""\
            version: 1
            name: t
            slurm:
              time: {value}
            resources: {{nodes: 1, gpus_per_node: 8}}
            launch: {{program: train.py}}
            """,
            tmp_path,
        )
        assert where(result, "JC108") == [(4, 9)], value
        assert expected in only(result, "JC108").message


def test_jc108_fires_over_the_partition_limit(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {partitions: {batch: {max_time: "48:00:00"}}}
        slurm:
          partition: batch
          time: "3-00:00:00"
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC108") == [(6, 9)]
    message = only(result, "JC108").message
    assert "'3-00:00:00' (72 h) is over the limit of partition 'batch', '48:00:00' (48 h)" in message


def test_jc108_near_miss_within_the_limit_in_another_form(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {partitions: {batch: {max_time: "2-00:00:00"}}}
        slurm: {partition: batch, time: "1-23:59"}
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert "JC108" not in codes(result)


def test_jc108_near_miss_single_node_without_time(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert "JC108" not in codes(result)


def test_jc109_fires_when_tasks_need_more_cpus_than_a_node_has(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {cpus_per_node: 112}
        resources:
          nodes: 1
          gpus_per_node: 8
          cpus_per_task: 16
        launch: {mode: srun, program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC109") == [(7, 18)]
    message = only(result, "JC109").message
    assert "cpus_per_task 16 × 8 tasks per node (one task per GPU with launch.mode srun)" in message
    assert "= 128 CPUs" in message
    assert "has 112; use cpus_per_task 14 or fewer" in message


def test_jc109_near_miss_torchrun_one_task(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        cluster: {cpus_per_node: 112}
        resources: {nodes: 1, gpus_per_node: 8, cpus_per_task: 112}
        launch: {mode: torchrun, program: train.py}
        """,
        tmp_path,
    )
    assert "JC109" not in codes(result)


def test_jc108_missing_time_points_at_the_spec_not_its_profile(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        extends: cluster.yaml
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
        files={"cluster.yaml": "version: 1\nprofile: c\nslurm:\n  partition: batch\n"},
    )
    finding = only(result, "JC108")
    assert (finding.file, finding.span.line, finding.span.col) == ("spec.yaml", 1, 1)


def test_jc110_fires_on_array_and_dependency_grammar(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        slurm:
          array: "0-15%"
          dependency: "afterok 123"
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC110") == [(4, 10), (5, 15)]


@pytest.mark.parametrize(
    ("array", "problem"),
    [
        ("0-15%", "after '%'"),
        ("0-15%0", "'%0'"),
        ("5-1", "runs backwards"),
        ("0-20:0", "step"),
        ("1;3", "not an index"),
        ("", "no indexes"),
    ],
)
def test_jc110_array_problems(array: str, problem: str) -> None:
    from jobc.lint.rules.topology.jc110_array_dependency_grammar import array_problem

    found = array_problem(array)
    assert found is not None
    assert problem in found


@pytest.mark.parametrize(
    ("dependency", "problem"),
    [
        ("afterok:1,afterany:2?afterok:3", "mixes"),
        ("afterok", "names no job id"),
        ("afterok:x1", "not a job id"),
        ("after_ok:1", "not a dependency"),
        ("afterok:1+5", "not a job id"),
    ],
)
def test_jc110_dependency_problems(dependency: str, problem: str) -> None:
    from jobc.lint.rules.topology.jc110_array_dependency_grammar import dependency_problem

    found = dependency_problem(dependency)
    assert found is not None
    assert problem in found


def test_jc110_near_miss_every_form_sbatch_reads(tmp_path: Path) -> None:
    from jobc.lint.rules.topology.jc110_array_dependency_grammar import array_problem, dependency_problem

    for array in ("0-15%4", "1,3,5", "0-20:4", "7", "0-3,10-20:5%2"):
        assert array_problem(array) is None, array
    for dep in ("afterok:123", "afterok:123:124,singleton", "afterany:1_2?afternotok:3", "after:5+10"):
        assert dependency_problem(dep) is None, dep
    result = lint_text(
        """\
        version: 1
        name: t
        slurm: {array: "0-15%4", dependency: "afterok:123:124"}
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert "JC110" not in codes(result)


def test_a_profiles_default_partition_holds_a_spec_that_names_none(tmp_path: Path) -> None:
    profile = """\
    version: 1
    profile: site
    cluster:
      default_partition: batch
      partitions:
        batch: {max_time: "04:00:00", cpus_per_node: 32}
    """
    spec = """\
    version: 1
    name: t
    extends: site.yaml
    slurm:
      time: "08:00:00"
    resources:
      nodes: 2
      gpus_per_node: 8
      cpus_per_task: 8
    launch: {mode: srun, program: train.py}
    storage: {shared: [/shared]}
    """
    result = lint_text(spec, tmp_path, files={"site.yaml": profile})
    assert where(result, "JC108") == [(5, 9)]
    assert "over the limit of partition 'batch'" in only(result, "JC108").message
    assert where(result, "JC109") == [(9, 18)]
    assert "a node of partition 'batch' has 32" in only(result, "JC109").message
    # a partition the spec names is the one held to its limits
    named = spec.replace('  time: "08:00:00"', '  time: "08:00:00"\n      partition: long')
    result = lint_text(named, tmp_path, files={"site.yaml": profile})
    assert not where(result, "JC108")


def test_jc106_lets_a_batch_shell_count_of_the_node_s_gpus_go_when_gpus_are_asked_per_node(
    tmp_path: Path,
) -> None:
    # `GPUS_PER_NODE=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\n' | wc -l)` counts the first node's
    # GPUs: with `--gres=gpu:2` every node has two, whichever they are
    from jobc.lint.scripts import lint_path

    body = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:2\n"
        "#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
        "export GPUS_PER_NODE=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)\n"
        "srun accelerate launch --num_processes $GPUS_PER_NODE train.py\n"
    )
    path = tmp_path / "job.sh"
    path.write_text(body, encoding="utf-8")
    assert "JC106" not in [f.code for f in lint_path(path).findings]
    # near misses: the list itself handed on (each node's GPUs are its own), and a count of a total
    # that Slurm may spread unevenly over the nodes
    for changed in (
        body.replace("$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)", "$CUDA_VISIBLE_DEVICES"),
        body.replace("--gres=gpu:2", "--gpus=4"),
    ):
        path.write_text(changed, encoding="utf-8")
        assert "JC106" in [f.code for f in lint_path(path).findings], changed
