"""mpirun, run by the batch shell, starts one rank a task on every node of the allocation. When its
counts are the tasks the job asks for and the GPUs are not, the GPU request is what to fix (JC101
at it); when its counts differ from the tasks, the launcher is (JC804 at its count)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read

HEAD = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus={gpus}
#SBATCH --time=00:15:00
module load openmpi
"""


def _found(tmp_path: Path, gpus: int, launch: str) -> list[tuple[str, int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD.format(gpus=gpus) + textwrap.dedent(launch), encoding="utf-8")
    return [(f.code, f.span.line, f.span.col) for f in lint_path(path).findings]


def test_more_ranks_than_the_gpus_asked_is_the_requests_fault(tmp_path: Path) -> None:
    # 8 ranks, 4 a node as the tasks ask, on 2 GPUs a node (--gpus=4 over 2 nodes)
    for launch in (
        "mpirun -n 8 -npernode 4 singularity exec --nv img.sif python3 ./mnist.py\n",
        "mpirun -n 8 python3 ./mnist.py\n",
        "mpirun python3 ./mnist.py\n",
    ):
        found = _found(tmp_path, 4, launch)
        assert found == [("JC101", 4, 9)], (launch, found)


def test_fewer_ranks_than_the_gpus_asked_is_said_at_the_request_too(tmp_path: Path) -> None:
    found = _found(tmp_path, 16, "mpirun -n 8 -npernode 4 python3 ./mnist.py\n")
    assert found == [("JC101", 4, 9)]
    path = tmp_path / "job.sh"
    message = next(f.message for f in lint_path(path).findings)
    assert "gives 8 GPUs per node" in message
    assert "4 GPUs per node stay idle" in message


def test_ranks_that_match_the_gpus_are_no_finding(tmp_path: Path) -> None:
    assert _found(tmp_path, 8, "mpirun -n 8 -npernode 4 python3 ./mnist.py\n") == []


def test_a_launcher_count_other_than_the_tasks_stays_the_launchers_fault(tmp_path: Path) -> None:
    # 16 ranks where the job holds 2 × 4 tasks: mpirun's count, not the request, differs
    found = _found(tmp_path, 4, "mpirun -n 16 -npernode 4 python3 ./mnist.py\n")
    assert [c for c, *_ in found] == ["JC804", "JC804"]
    assert all(line == 7 for _, line, _ in found)
    # a count computed when the job runs: not known to agree, the request is not blamed
    found = _found(tmp_path, 4, 'mpirun -n "$NP" python3 ./mnist.py\n')
    assert "JC101" not in [c for c, *_ in found]


def test_the_import_says_the_ranks_the_script_starts(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD.format(gpus=4) + "mpirun -n 8 -npernode 4 python3 ./mnist.py\n", encoding="utf-8")
    facts = read(path)
    spec = imported(facts)
    assert spec.data["launch"]["mode"] == "srun"
    assert "tasks_per_node" not in spec.data["resources"]
    text = render(spec, facts)
    assert "mpirun starts 4 rank(s) per node, one a task, on 2 GPUs per node" in text
    assert "the batch shell runs it once" not in text


def test_horovodrun_starts_its_ranks_as_mpirun_does(tmp_path: Path) -> None:
    # Horovod's launcher: -np ranks on the hosts given; the program after its options
    path = tmp_path / "job.sh"
    launch = 'horovodrun -np 8 --gloo -H "$HOSTS" python cifar10_horovod.py --epochs 3\n'
    path.write_text(HEAD.format(gpus=8) + launch, encoding="utf-8")
    facts = read(path)
    spec = imported(facts)
    assert spec.data["launch"]["mode"] == "srun"
    assert spec.data["launch"]["program"] == "cifar10_horovod.py"
    assert spec.data["launch"]["args"] == ["--epochs", "3"]
    assert "horovodrun -np 8" in render(spec, facts)
    assert _found(tmp_path, 8, launch) == []
    # more ranks than the GPUs asked: the request, as for mpirun
    assert _found(tmp_path, 4, launch) == [("JC101", 4, 9)]
    # near miss: the name in a message is no launch
    path.write_text(HEAD.format(gpus=8) + 'echo "horovodrun -np 8 python x.py"\n', encoding="utf-8")
    assert imported(read(path)).data.get("launch", {}).get("program") != "x.py"


_ONE_A_NODE = """\
#!/bin/bash
#SBATCH --ntasks 2
#SBATCH --nodes 2
#SBATCH --gpus-per-node=V100:4
#SBATCH --time=00:05:00
module load OpenMPI
"""


def test_ranks_that_run_a_script_not_in_the_text_blame_no_request(tmp_path: Path) -> None:
    # pattern seen in: fernand0labra/rai-cluster-workshop (mpirun -np 2 apptainer exec IMG bash deploy.sh):
    # each rank may start a per-node launcher itself, so one rank a node on 4 GPUs is no finding
    path = tmp_path / "job.sh"
    for launch in (
        "mpirun -np 2 apptainer exec --nv img.sif bash job.deploy.sh\n",
        "mpirun -np 2 ./job.deploy.sh\n",
        'mpirun -np 2 "$DEPLOY" train.py\n',
    ):
        path.write_text(_ONE_A_NODE + launch, encoding="utf-8")
        assert [f.code for f in lint_path(path).findings] == [], launch
        facts = read(path)
        spec = imported(facts)
        assert spec.data["launch"]["mode"] == "torchrun", launch
        assert "program" not in spec.data["launch"]
        assert "module" not in spec.data["launch"]
        text = render(spec, facts)
        assert "launch.mode torchrun is inferred, not read: mpirun on line 7 starts one rank per node" in text
        assert "jobc's srun starts one rank a GPU" not in text
    # near miss: a Python program each rank runs is read, and the request is blamed
    launch = "mpirun -np 2 apptainer exec --nv img.sif python train.py\n"
    path.write_text(_ONE_A_NODE + launch, encoding="utf-8")
    assert [(f.code, f.span.line) for f in lint_path(path).findings] == [("JC101", 4)]
    assert imported(read(path)).data["launch"]["mode"] == "srun"


def test_ranks_that_run_a_script_one_a_gpu_are_srun_s_whatever_it_runs(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD.format(gpus=8) + "mpirun -n 8 -npernode 4 bash run.sh\n", encoding="utf-8")
    assert lint_path(path).findings == []
    spec = imported(read(path))
    assert spec.data["launch"]["mode"] == "srun"
    assert "program" not in spec.data["launch"]
    # four ranks a node on two GPUs a node is neither shape: not known, and said
    path.write_text(HEAD.format(gpus=4) + "mpirun -n 8 -npernode 4 bash run.sh\n", encoding="utf-8")
    spec = imported(read(path))
    assert "mode" not in spec.data["launch"]
    assert any(u.startswith("launch.mode: each rank mpirun starts") for u in spec.unknown)
