"""The behaviour simulator does what Slurm and bash do, and its comparison says what differs."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.support.cluster import SlurmCluster
from tests.support.simulator import Ignore, compare_runs, differences, simulate, slurmlib
from tests.support.simulator.run import Process, Run, directives, system_python

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:00:00\n"


def _env(run_output: str, prefix: str) -> list[dict[str, str]]:
    """Lines `PREFIX k=v k=v …` printed by the tasks, one dict per line, by rank."""
    rows = []
    for line in run_output.splitlines():
        if line.startswith(prefix + " "):
            rows.append(dict(item.split("=", 1) for item in line.split()[1:]))
    return sorted(rows, key=lambda r: int(r.get("SLURM_PROCID", "0")))


# --- Slurm's arithmetic ---------------------------------------------------------------------------


def test_host_lists_and_task_counts_read_and_write_as_slurm_does() -> None:
    assert slurmlib.expand("node[0-2,5],gpu07,x[08-10]") == [
        "node0",
        "node1",
        "node2",
        "node5",
        "gpu07",
        "x08",
        "x09",
        "x10",
    ]
    assert slurmlib.compress(["node0", "node1", "node2", "node5"]) == "node[0-2,5]"
    assert slurmlib.counts_text([2, 2, 1]) == "2(x2),1"
    assert slurmlib.parse_counts("2(x2),1") == [2, 2, 1]
    # seen on the test cluster (8 CPUs a node): --ntasks=4 --nodes=2 gave 3,1 and --ntasks=3 2,1
    assert slurmlib.distribute(4, 2, None, 8) == [3, 1]
    assert slurmlib.distribute(3, 2, None, 2) == [2, 1]
    assert slurmlib.distribute(16, 2, 8, 64) == [8, 8]


def test_only_the_directive_block_is_read_and_what_sbatch_refuses_is_said() -> None:
    text = (
        "#!/bin/bash\n#SBATCH --nodes=2\n# SBATCH --exclusive\n  #SBATCH --requeue\n"
        "#SBATCH--gpus-per-node=8 # a comment\n\n#SBATCH -t 10\necho hi\n#SBATCH --ntasks=4\n"
    )
    read, refused = directives(text)
    assert refused is None
    assert read == [("nodes", "2"), ("gpus-per-node", "8"), ("time", "10")]
    assert directives("#SBATCH --nodes=2\necho hi\n")[1] == "the first line is not a #! line"
    assert directives("#!/bin/bash\r\necho hi\r\n")[1] == "DOS line breaks"
    assert directives("#!/bin/bash\n#SBATCH \u2013-time=10\n")[1] is not None
    run = simulate("#SBATCH --nodes=2\nsrun python t.py\n", scenarios=("complete",))["complete"]
    assert run.refused is not None
    assert run.processes == []


# --- the allocation and srun -----------------------------------------------------------------------

PROBE = (
    "echo {tag} SLURM_PROCID=$SLURM_PROCID SLURM_LOCALID=$SLURM_LOCALID SLURM_NODEID=$SLURM_NODEID "
    "SLURM_NTASKS=$SLURM_NTASKS SLURM_NNODES=$SLURM_NNODES SLURM_GTIDS=$SLURM_GTIDS "
    "SLURM_TASKS_PER_NODE=$SLURM_TASKS_PER_NODE SLURM_STEP_NUM_TASKS=$SLURM_STEP_NUM_TASKS "
    "SLURM_STEP_TASKS_PER_NODE=$SLURM_STEP_TASKS_PER_NODE CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
)
FIDELITY = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=2\n#SBATCH --gpus-per-node=2\n"
    "#SBATCH --time=00:05:00\n"
    f"echo {PROBE.format(tag='batch').removeprefix('echo ')}\n"
    f"srun bash -c '{PROBE.format(tag='all')}'\n"
    f"srun -N1 -n1 bash -c '{PROBE.format(tag='one')}'\n"
    f"srun -n3 bash -c '{PROBE.format(tag='three')}'\n"
)


def test_srun_fans_out_tasks_as_slurm_numbers_them() -> None:
    run = simulate(FIDELITY, scenarios=("complete",))["complete"]
    assert run.status == 0, run.output
    batch = _env(run.output, "batch")
    assert batch == [
        {
            "SLURM_PROCID": "0",
            "SLURM_LOCALID": "0",
            "SLURM_NODEID": "0",
            "SLURM_NTASKS": "4",
            "SLURM_NNODES": "2",
            "SLURM_GTIDS": "0",
            "SLURM_TASKS_PER_NODE": "2(x2)",
            "SLURM_STEP_NUM_TASKS": "",
            "SLURM_STEP_TASKS_PER_NODE": "",
            "CUDA_VISIBLE_DEVICES": "0,1",
        }
    ]
    tasks = _env(run.output, "all")
    assert [(t["SLURM_PROCID"], t["SLURM_LOCALID"], t["SLURM_NODEID"], t["SLURM_GTIDS"]) for t in tasks] == [
        ("0", "0", "0", "0,1"),
        ("1", "1", "0", "0,1"),
        ("2", "0", "1", "2,3"),
        ("3", "1", "1", "2,3"),
    ]
    three = _env(run.output, "three")
    assert {t["SLURM_STEP_TASKS_PER_NODE"] for t in three} == {"2,1"}
    one = _env(run.output, "one")
    assert [(t["SLURM_NNODES"], t["SLURM_NTASKS"]) for t in one] == [("1", "1")]


@pytest.mark.slurm
def test_the_simulated_allocation_numbers_tasks_as_the_test_cluster_does(
    slurm_cluster: SlurmCluster, tmp_path: Path
) -> None:
    """The same script on the local Slurm cluster and in the simulator: every task prints the same
    Slurm variables (node names aside)."""
    script = tmp_path / "probe.sh"
    script.write_text(FIDELITY, encoding="utf-8")
    job = slurm_cluster.sbatch(script, cwd=tmp_path)
    assert slurm_cluster.wait(job, 120) == "COMPLETED"
    real = (tmp_path / f"slurm-{job}.out").read_text(encoding="utf-8")
    simulated = simulate(FIDELITY, scenarios=("complete",))["complete"].output
    for tag in ("batch", "all", "one", "three"):
        assert _env(simulated, tag) == _env(real, tag), tag


def test_each_node_has_its_own_host_name_and_the_batch_shell_runs_on_the_first() -> None:
    run = simulate(
        HEAD
        + 'echo "batch on $(hostname) $HOSTNAME"\nsrun bash -c \'echo "task on $(hostname) $HOSTNAME"\'\n',
        scenarios=("complete",),
    )["complete"]
    lines = sorted(run.output.splitlines())
    assert lines == ["batch on node0 node0", "task on node0 node0", "task on node1 node1"]


def test_srun_exports_what_export_says() -> None:
    run = simulate(
        HEAD + "export FOO=1\nsrun --export=ALL,BAR=2 python a.py\nsrun --export=NONE python b.py\n",
        scenarios=("complete",),
    )["complete"]
    a = run.named("python")
    all_env = [p.env for p in a if p.argv == ("a.py",)]
    assert all_env
    assert all(e.get("FOO") == "1" and e.get("BAR") == "2" for e in all_env)
    # --export=NONE: only Slurm's variables, so PATH is gone and srun cannot find python at all
    assert [p for p in a if p.argv == ("b.py",)] == []
    assert "execve(): python: No such file or directory" in run.output


def test_the_scenarios_run_programs_that_succeed_fail_or_wait_for_a_signal() -> None:
    text = HEAD + 'srun python train.py || echo "training failed"\n'
    sim = simulate(text)
    assert "training failed" not in sim["complete"].output
    assert "training failed" in sim["fail"].output
    waited = sim["signal"]
    assert waited.events == ["time-limit"]
    assert {p.signals for p in waited.named("python")} == {("SIGTERM",)}


@pytest.mark.parametrize(
    ("body", "events", "signals"),
    [
        # without B: the warning goes to the steps' tasks
        (
            "#SBATCH --signal=USR2@60\ntrap 'echo got' USR2\nsrun python t.py\n",
            ["warning signal=SIGUSR2 to=steps"],
            "SIGUSR2",
        ),
        # with B: to the batch shell only: a trap that only logs leaves the program to the time limit
        (
            "#SBATCH --signal=B:USR2@60\ntrap 'echo got' USR2\nsrun python t.py &\nwait\n",
            ["warning signal=SIGUSR2 to=batch", "job-end"],
            "SIGTERM",
        ),
        # a trap that forwards it to the step
        (
            "#SBATCH --signal=B:USR2@60\ntrap 'kill -USR2 $step' USR2\n"
            "srun python t.py &\nstep=$!\nwait $step\n",
            ["warning signal=SIGUSR2 to=batch"],
            "SIGUSR2",
        ),
        # exec: srun is the batch shell and forwards the signal to its tasks
        (
            "#SBATCH --signal=B:USR2@60\nexec srun python t.py\n",
            ["warning signal=SIGUSR2 to=batch"],
            "SIGUSR2",
        ),
        # a foreground step holds the trap back until the time limit ends everything
        (
            "#SBATCH --signal=B:USR2@60\ntrap 'echo got' USR2\nsrun python t.py\n",
            ["warning signal=SIGUSR2 to=batch", "time-limit"],
            "SIGTERM",
        ),
    ],
    ids=["steps", "batch-trap-logs", "batch-trap-forwards", "exec", "foreground"],
)
def test_signals_reach_the_processes_slurm_and_the_script_send_them_to(
    body: str, events: list[str], signals: str
) -> None:
    run = simulate(HEAD + body, scenarios=("signal",))["signal"]
    assert run.events == events
    programs = run.named("python")
    assert programs
    assert {p.signals for p in programs} == {(signals,)}, run.output


def test_a_polling_loop_ends_at_the_time_limit() -> None:
    run = simulate(HEAD + "while ! [ -f ready ]; do sleep 10; done\necho never\n", scenarios=("complete",))[
        "complete"
    ]
    assert run.events == ["time-limit"]
    assert "never" not in run.output


# a program whose first thread waits for another that works (joins it): /proc's lines for the
# process are that first thread's alone, so the job looked as if it waited and got its time limit
THREADED = (
    "import threading, time\n"
    "t = threading.Thread(target=lambda: [time.sleep(0.001) for _ in range(400)])\n"
    "t.start(); t.join()\n"
)


def test_a_program_whose_other_thread_works_is_not_taken_for_one_that_waits() -> None:
    run = simulate(HEAD + f"{system_python()} -c '{THREADED}'\necho after\n", scenarios=("complete",))[
        "complete"
    ]
    assert run.events == []
    assert "after" in run.output
    assert run.status == 0
    # near miss: when that thread waits too, the program waits, and the clock moves
    waits = THREADED.replace("[time.sleep(0.001) for _ in range(400)]", "threading.Event().wait()")
    run = simulate(HEAD + f"{system_python()} -c '{waits}'\necho after\n", scenarios=("complete",))[
        "complete"
    ]
    assert run.events == ["time-limit"]
    assert "after" not in run.output


# a loop that never ends (its increment names another variable) and starts a step on each turn:
# the job never waits, so the clock never moves; it is cut when it has started its budget of
# processes, as the fix-script fuzz target found (seed 962, a loop that kept the simulator running)
ENDLESS = HEAD + (
    "echo start\nfor (( i=1; i<2; j++ )); do\n  echo turn $i\n"
    "  srun -N1 -n1 python step.py --rank $i &\ndone\n"
)


def test_a_loop_that_never_ends_is_cut_at_its_process_budget_and_said_unfinished() -> None:
    for scenario in ("complete", "signal"):
        run = simulate(ENDLESS, scenarios=(scenario,), budget=40)[scenario]
        assert run.unfinished
        assert run.events == ["unfinished why=process budget spent"]
        assert run.status == 128 + 9  # killed where it stood
        assert 0 < len(run.processes) <= 40
        assert "turn 1" in run.output
    # near miss: the same loop with its increment right ends, and is not cut
    run = simulate(ENDLESS.replace("j++", "i++"), scenarios=("complete",), budget=40)["complete"]
    assert not run.unfinished
    assert run.events == []
    assert run.status == 0


def test_a_loop_whose_processes_wait_is_cut_before_a_fork_fails() -> None:
    # the fix-script fuzz target's endless loop in the `signal` scenario: every turn's program
    # waits for a signal, so processes pile up, and the sandbox's process limit came before the
    # budget: bash retried its forks and srun's failed, at a point that depends on the machine
    endless = HEAD + "echo start\nwhile :; do tail -f /dev/null & done\n"
    run = simulate(endless, scenarios=("complete",))["complete"]
    assert run.unfinished
    assert run.status == 128 + 9
    assert "fork" not in run.output
    # near miss: as many as the loop starts, but each ends before the next starts
    run = simulate(HEAD + "for i in $(seq 600); do tail -n1 /dev/null; done\n", scenarios=("complete",))[
        "complete"
    ]
    assert not run.unfinished
    assert run.status == 0


def test_two_runs_cut_alike_compare_equal_only_when_they_did_the_same_up_to_the_cut() -> None:
    # where each is cut depends on the machine; what the loop did without end in both is the same
    assert differences(ENDLESS, ENDLESS, scenarios=("complete", "signal"), budget=40) == []
    # another argument for the loop's step, another line printed on each turn, another line
    # printed once before the loop: each is a difference, though both loops never end
    for other, what in (
        (ENDLESS.replace("--rank $i", "--rank 2"), "argv"),
        (ENDLESS.replace("echo turn $i", "echo turn $i; echo again"), "output only after: 'again'"),
        (ENDLESS.replace("echo start", "echo begin"), "output only before: 'start'"),
    ):
        found = differences(ENDLESS, other, scenarios=("complete",), budget=40)
        assert any(what in d for d in found), (what, found)
    # a loop that counts without end (its test names another variable) prints and starts other
    # words on each turn: how far each run counted before the cut is no behaviour (fix-script fuzz
    # seed 8101, input 1,294: `NODE*RANK<${NNODES}` with NODE_RANK++, a step per turn)
    counting = ENDLESS.replace("i<2; j++", "j<2; i++")
    assert differences(counting, counting, scenarios=("complete",), budget=40) == []
    # near miss: the counting loop's step with another option is still a difference
    found = differences(
        counting, counting.replace("--rank $i", "--ranks $i"), scenarios=("complete",), budget=40
    )
    assert any("argv" in d or "only" in d for d in found), found
    # a loop cut against one that ends: the events differ
    found = differences(ENDLESS, ENDLESS.replace("j++", "i++"), scenarios=("complete",), budget=40)
    assert any(d.startswith("[complete] events: ['unfinished") for d in found), found


# --- the sandbox ---------------------------------------------------------------------------------


def test_a_script_changes_nothing_outside_its_sandbox(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("kept")
    os.chmod(tmp_path, 0o777)  # even a directory anyone may write to is out of reach
    text = HEAD + (
        f"echo gone > {victim}\nrm -f {victim}\ntouch /etc/jobc-simulated\nkill -9 -1\n"
        "echo private > /tmp/left-behind\n"
    )
    simulate(text, scenarios=("complete",))
    assert victim.read_text() == "kept"
    assert not Path("/etc/jobc-simulated").exists()
    # /tmp is the run's own: the next run starts without the file
    again = simulate(HEAD + "cat /tmp/left-behind || echo absent\n", scenarios=("complete",))["complete"]
    assert "absent" in again.output


def test_the_stubs_every_run_shares_are_out_of_a_scripts_reach() -> None:
    # one directory of stubs serves every run of a process: a script that overwrites or removes a
    # stub must change nothing for the next run (the tests run as root: root owns the stubs; a
    # run as another user finds the change and makes the stubs again)
    hostile = HEAD + (
        "printf '#!/bin/bash\\necho hijacked\\n' > /run/jobc-sim/bin/python\n"
        "rm -f /run/jobc-sim/bin/torchrun /run/jobc-sim/bin/stub.py\n"
        "chmod 777 /run/jobc-sim/bin/srun\nln -s /bin/true /run/jobc-sim/bin/hostname.new\n"
    )
    simulate(hostile, scenarios=("complete",))
    after = simulate(HEAD + "srun -n1 python t.py\ntorchrun t.py\n", scenarios=("complete",))["complete"]
    assert "hijacked" not in after.output
    assert [p.argv for p in after.named("python")] == [("t.py",)]
    assert [p.argv for p in after.named("torchrun")] == [("t.py",)]
    # a change made as the stubs' owner (as a run not as root could) is found, and they are made again
    from tests.support.simulator.run import _Stubs

    stubs = _Stubs.get()
    (stubs / "python").unlink()
    (stubs / "python").write_text("#!/bin/bash\necho hijacked\n")
    (stubs / "python").chmod(0o755)
    after = simulate(HEAD + "srun -n1 python t.py\n", scenarios=("complete",))["complete"]
    assert "hijacked" not in after.output
    assert [p.argv for p in after.named("python")] == [("t.py",)]
    assert _Stubs.get() != stubs


def test_the_script_runs_where_slurmd_keeps_it_with_the_submit_directory_as_cwd() -> None:
    run = simulate(HEAD + 'echo "$0 $PWD $SLURM_SUBMIT_DIR"\n', scenarios=("complete",))["complete"]
    assert run.output.strip() == "/var/spool/slurmd/job04242/slurm_script /home/user/job /home/user/job"


# --- the comparison --------------------------------------------------------------------------------


def test_a_script_compared_with_itself_differs_in_nothing() -> None:
    text = HEAD + (
        "#SBATCH --signal=B:USR1@90\ntrap 'kill -USR1 $step' USR1\n"
        'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)\n'
        "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py &\nstep=$!\nwait $step\n"
    )
    assert differences(text, text) == []


def test_the_comparison_names_what_changed_and_ignores_what_it_is_told() -> None:
    before = HEAD + "export MASTER_PORT=29500\nsrun torchrun --nproc-per-node=8 --master-port=29500 t.py\n"
    after = before.replace("29500", "29501")
    found = differences(before, after, scenarios=("complete",))
    assert any("env MASTER_PORT: '29500' -> '29501'" in d for d in found), found
    assert any(re.search(r"argv: .*29500.*-> .*29501", d) for d in found), found
    assert differences(before, after, Ignore(replace=((r"2950[01]", "PORT"),)), scenarios=("complete",)) == []


def test_a_variable_never_compared_is_not_compared_where_the_script_prints_it_either() -> None:
    # found by the fix-script fuzz target (seed 1101, input 4,114): JC802 put `srun env …` in
    # the background, where bash execs srun in the job's subshell with SHLVL one less; `env`
    # printed SHLVL=0 for SHLVL=1, bash's bookkeeping the comparison never compares in an
    # environment, taken for a difference of the output
    before = HEAD + "srun -N1 -n1 env\nexport -p\n"
    after = HEAD + "srun -N1 -n1 env &\nwait\nexport -p\n"
    runs = [simulate(t, scenarios=("complete",))["complete"] for t in (before, after)]
    assert "SHLVL=1" in runs[0].output.splitlines()
    assert "SHLVL=0" in runs[1].output.splitlines()
    assert compare_runs(*runs) == []
    # near miss: a variable of the script's own printed otherwise is still a difference
    other = after.replace("srun -N1", "FOO=2 srun -N1")
    found = differences(before.replace("srun -N1", "FOO=1 srun -N1"), other, scenarios=("complete",))
    assert "[complete] output only before: 'FOO=1'" in found, found


def test_per_node_compares_what_each_node_runs_not_how_many_tasks_run_it() -> None:
    eight = (
        HEAD.replace("--time", "--ntasks-per-node=8\n#SBATCH --time")
        + "srun torchrun --nproc-per-node=8 t.py\n"
    )
    one = eight.replace("--ntasks-per-node=8", "--ntasks-per-node=1")
    assert differences(eight, one, scenarios=("complete",)) != []
    assert (
        differences(
            eight, one, Ignore(per_node=True, allocation={"ntasks-per-node"}), scenarios=("complete",)
        )
        == []
    )
    # a launcher that read its worker count from the task count does change
    reads = eight.replace("--nproc-per-node=8", "--nproc-per-node=$SLURM_NTASKS_PER_NODE")
    found = differences(
        reads,
        reads.replace("--ntasks-per-node=8", "--ntasks-per-node=1"),
        Ignore(per_node=True, allocation={"ntasks-per-node"}),
        scenarios=("complete",),
    )
    assert any("--nproc-per-node=8" in d and "--nproc-per-node=1" in d for d in found), found


def test_a_log_the_steps_output_is_piped_into_is_compared_as_the_output_is() -> None:
    # found by the fix-script fuzz target: with `srun … | tee -a main_log.txt`, one task per node
    # instead of eight left a shorter log, and the file's hash differed where the output did not
    eight = (
        HEAD.replace("--time", "--ntasks-per-node=8\n#SBATCH --time")
        + "echo port 29500\nsrun torchrun --nproc-per-node=8 t.py 2>&1 | tee -a main_log.txt\n"
    )
    one = eight.replace("--ntasks-per-node=8", "--ntasks-per-node=1")
    ignore = Ignore(per_node=True, allocation={"ntasks-per-node"})
    assert differences(eight, one, ignore, scenarios=("complete",)) == []
    # what the log says still counts: another line in it is a difference
    other = one.replace("| tee -a main_log.txt", "| tee -a main_log.txt; echo extra >> main_log.txt")
    found = differences(eight, other, ignore, scenarios=("complete",))
    assert any(d.endswith("main_log.txt: only after: 'extra'") for d in found), found
    # a file that is no text is compared whole
    binary = eight.replace("echo port 29500", "printf 'a\\0b' > blob")
    changed = binary.replace("a\\0b", "a\\0c")
    found = differences(binary, changed, scenarios=("complete",))
    assert any(d.endswith("blob: its content differs") for d in found), found


def test_where_bash_stops_on_a_syntax_error_counts_not_the_text_it_quotes() -> None:
    # found by the fix-script fuzz target: JC801 moved #SBATCH lines out of a string bash never
    # closes; bash stops at the same place, and only the token it quotes had changed
    before = HEAD + "echo start\nf() $'x\n#SBATCH --qos=q\ny'\n"
    after = before.replace("#SBATCH --qos=q\n", "")
    quoted = simulate(before, scenarios=("complete",))["complete"].output
    assert "syntax error near unexpected token `$'\\'x\\n#SBATCH --qos=q" in quoted, quoted
    assert differences(before, after, Ignore(allocation={"qos"}), scenarios=("complete",)) == []
    # a syntax error on one side only is a difference, and so is one at another place
    fine = HEAD + "echo start\nf() { :; }\n"
    assert differences(fine, before, Ignore(allocation={"qos"}), scenarios=("complete",)) != []
    later = before.replace("echo start\n", "echo start\necho more\n")
    assert differences(before, later, Ignore(allocation={"qos"}), scenarios=("complete",)) != []


def test_command_line_options_stand_for_a_line_sbatch_would_have_read() -> None:
    late = "#!/bin/bash\n#SBATCH --nodes=2\nmodule load cuda\n#SBATCH --gpus-per-node=4\nsrun python t.py\n"
    moved = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\nmodule load cuda\nsrun python t.py\n"
    assert differences(late, moved, scenarios=("complete",)) != []
    assert differences(late, moved, options_before=["--gpus-per-node=4"], scenarios=("complete",)) == []


def test_scancel_signals_the_steps_or_the_batch_shell_as_asked() -> None:
    steps = HEAD + (
        "#SBATCH --signal=B:USR1@60\ntrap 'scancel --signal=USR2 $SLURM_JOB_ID' USR1\n"
        "srun python t.py &\nwait\nwait\n"
    )
    run = simulate(steps, scenarios=("signal",))["signal"]
    assert {p.signals for p in run.named("python")} == {("SIGUSR2",)}
    batch = HEAD + "trap 'echo got it' USR1\nscancel --batch --signal=USR1 $SLURM_JOB_ID\necho after\n"
    run = simulate(batch, scenarios=("complete",))["complete"]
    assert run.output.splitlines() == ["got it", "after"]


def test_a_directive_with_a_word_that_is_no_option_makes_sbatch_refuse_the_script() -> None:
    assert directives("#!/bin/bash\n#SBATCH --nodes=2 please\necho hi\n")[1] == "invalid directive: please"
    assert directives("#!/bin/bash\n#SBATCH -J 'my job' --nodes=2 # two\necho hi\n")[1] is None
    assert directives("#!/bin/bash\n#SBATCH -J 'my job\necho hi\n")[1] is not None  # unmatched quote


def test_a_relative_chdir_is_relative_to_the_submit_directory() -> None:
    # sbatch reads `#SBATCH -D .` (and every path it is given) from where it was run
    run = simulate("#!/bin/bash\n#SBATCH -D .\npython t.py\n", scenarios=("complete",))["complete"]
    assert [p.cwd for p in run.named("python")] == ["/home/user/job"]


def test_ntasks_and_ntasks_per_node_together_still_give_every_node_a_task() -> None:
    # --ntasks takes precedence and --ntasks-per-node is a maximum: 2 tasks on 2 nodes, 1 each
    run = simulate(
        HEAD + "#SBATCH --ntasks=2\n#SBATCH --ntasks-per-node=8\nsrun python t.py\n", scenarios=("complete",)
    )["complete"]
    assert sorted(p.host for p in run.named("python")) == ["node0", "node1"]


def test_a_node_has_the_gpus_asked_for_or_the_job_is_too_large_to_simulate() -> None:
    # a node once had at most 64 GPUs whatever the job asked: a compiled job asking for 88 saw 64
    # and its own check stopped it before the program, which no cluster does (it runs the job on
    # nodes that have them, or sbatch refuses it)
    probe = "srun -n1 bash -c 'echo \"gpus=$SLURM_GPUS_ON_NODE $CUDA_VISIBLE_DEVICES\"'\n"
    run = simulate(HEAD + "#SBATCH --gpus-per-node=88\n" + probe, scenarios=("complete",))["complete"]
    assert run.refused is None
    assert "gpus=88 " + ",".join(str(i) for i in range(88)) in run.output
    # near miss: past what the simulator runs, no node has them: nothing runs, and it says why
    run = simulate(HEAD + "#SBATCH --gres=gpu:a100:200\n" + probe, scenarios=("complete",))["complete"]
    assert run.refused == "too large to simulate: 200 GPUs per node (the simulator's nodes have at most 128)"
    assert run.processes == []


def test_sbatch_refuses_an_option_it_does_not_know_and_blanks_are_c_blanks() -> None:
    # tried on the test cluster: `sbatch: unrecognized option '--frobnicate'`, exit 255, no job
    assert directives("#!/bin/bash\n#SBATCH --frobnicate=3 --nodes=2\necho hi\n")[1] == (
        "unrecognized option: --frobnicate"
    )
    assert directives("#!/bin/bash\n#SBATCH --container-image=x --nodes=2\necho hi\n")[1] is None  # pyxis
    # a unit separator is no blank to C's isspace(), which sbatch's reader uses
    assert directives("#!/bin/bash\n#SBATCH\x1f--nodes=2\necho hi\n")[1] is not None
    assert directives("#!/bin/bash\n#SBATCH\t--nodes=2\necho hi\n") == ([("nodes", "2")], None)


def test_sbatch_gives_no_kill_the_rest_of_its_word_and_refuses_a_value_it_does_not_take() -> None:
    # tried with sbatch 22.05: `-k=40`, `-kx` and `--no-kill=40` give "Invalid --no-kill
    # specification" and no job; `-k` takes no next word (getopt's optional value, `k::`)
    for line in ("-k=40", "-kx", "--no-kill=40"):
        assert directives(f"#!/bin/bash\n#SBATCH {line}\necho hi\n")[1] is not None, line
    assert directives("#!/bin/bash\n#SBATCH -k -N 2\necho hi\n") == (
        [("no-kill", None), ("nodes", "2")],
        None,
    )
    assert directives("#!/bin/bash\n#SBATCH -kOff\necho hi\n") == ([("no-kill", "Off")], None)


def test_srun_passes_each_tasks_output_on_line_by_line() -> None:
    # found by the fix-script fuzz target: sixteen tasks writing bash's `bash: -0: invalid option`
    # at once (bash writes its messages in pieces) interleaved in the output, as Slurm's srun,
    # which forwards each task's output a line at a time, never does. A line a task leaves
    # unfinished still comes (ended, so that it does not run into another task's), and what goes
    # to stderr stays there
    pieces = 'for i in 1 2 3 4 5 6 7 8; do printf part-; printf "one-%s\\n" $SLURM_PROCID; done'
    script = (
        HEAD.replace("--time", "--ntasks-per-node=8\n#SBATCH --time")
        + f"srun bash -c '{pieces}; printf unfinished-$SLURM_PROCID'\n"
        + "srun bash -c0 x\n"
        + "srun bash -c 'echo to-stderr >&2' 2>/dev/null\n"
        + "srun bash -c 'printf \"a\\nb\"' | tee log.txt\n"
        + "srun -n1 printf alone > one.txt\n"
    )
    run = simulate(script, scenarios=("complete",))["complete"]
    lines = run.output.splitlines()
    for rank in range(16):
        assert lines.count(f"part-one-{rank}") == 8, run.output
        assert f"unfinished-{rank}" in lines, run.output
    assert lines.count("bash: -0: invalid option") == 16, run.output
    assert "to-stderr" not in run.output
    assert lines.count("a") == lines.count("b") == 16, run.output
    assert run.texts["log.txt"].splitlines().count("b") == 16
    # one task's output comes as it wrote it
    assert run.texts["one.txt"] == "alone"


def test_a_script_that_runs_no_program_runs_alike_in_every_scenario_and_is_run_once() -> None:
    # the scenario reaches a stub only through a program (it fails in `fail`, waits for a signal in
    # `signal`): without one, every scenario's run is the `complete` run, not run again
    calls = (
        HEAD + "#SBATCH --signal=B:USR1@60\ntrap 'echo warned' USR1\necho start\nhostname\nsrun hostname\n"
    )
    both = simulate(calls, scenarios=("complete", "signal", "fail"))
    for scenario in ("signal", "fail"):
        alone = simulate(calls, scenarios=(scenario,))[scenario]
        assert compare_runs(both[scenario], alone) == []
        assert both[scenario].scenario == scenario
        assert both[scenario].processes == both["complete"].processes
    # near miss: with a program the scenarios differ, and each is run
    program = calls + "srun python t.py\n"
    runs = simulate(program, scenarios=("complete", "signal"))
    assert {p.signals for p in runs["signal"].named("python")} == {("SIGTERM",)}
    assert {p.signals for p in runs["complete"].named("python")} == {()}


def test_a_trace_of_a_quoted_word_over_lines_is_trace_and_what_follows_it_output() -> None:
    from tests.support.simulator.compare import _untraced

    text = "+ srun bash -c 'torchrun \\\n  train.py'\nout 1\n+ echo 'it'\\''s'\nout 2\n"
    assert _untraced(text) == ["out 1", "out 2"]
    # near miss: a line of output that holds a quote after a trace line is output
    assert _untraced("+ echo x\nit's\n+ true\n") == ["it's"]


def test_a_helper_command_whose_reader_went_away_writes_no_traceback() -> None:
    # found by the fix-script fuzz target: `scontrol show hostnames | head -n 1` in a shell a signal
    # ended left the stub's BrokenPipeError traceback in one run's output and not the other's
    text = "#!/bin/bash\n#SBATCH --nodes=8\nscontrol show hostnames | true\necho done\n"
    run = simulate(text, scenarios=("complete",))["complete"]
    assert run.output.splitlines() == ["done"], run.output
    assert [p.exit for p in run.named("scontrol")] == [0]
    # near miss: a reader that reads gets every line
    run = simulate(text.replace("| true", "| tail -n 1"), scenarios=("complete",))["complete"]
    assert run.output.splitlines() == ["node7", "done"], run.output


# --- launchers ------------------------------------------------------------------------------------


def test_torchrun_reads_its_line_as_its_argparse_parser_does() -> None:
    # the simulator's torchrun (and the round trip's judge) against argparse itself, given
    # torchrun's options as torch/distributed/run.py declares them (-m, -r, -t short; the rest long,
    # most under both spellings): where the program starts, or that the line is refused
    import argparse
    import contextlib
    import io
    import random

    from jobc.tables import launchers as jobc_launchers
    from tests.support.simulator import launchers

    parser = argparse.ArgumentParser(prog="torchrun", add_help=False)
    short = {"module": "-m", "redirects": "-r", "tee": "-t", "help": "-h"}
    for name in sorted({o.lstrip("-").replace("-", "_") for o in launchers.TORCHRUN_OPTIONS if o[1] == "-"}):
        names = sorted(
            {f"--{name}", f"--{name.replace('_', '-')}"} | ({short[name]} if name in short else set())
        )
        flag = f"--{name}" in launchers.TORCHRUN_FLAGS
        parser.add_argument(*names, dest=name, action="store_true" if flag else "store")
    parser.add_argument("training_script")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    words = "--nnodes --nn --nproc --nproc_per_node=2 --standa -m -mt3 -t3 -t -r --rdd -n 2 x.py -1 --log"
    words += " --logd --rdzv --rdzv_e=a --no --no-p -m=1 --use_env --max-restarts -"
    rng = random.Random(7)
    for _ in range(3000):
        argv = [rng.choice(words.split()) for _ in range(rng.randint(0, 6))]
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parsed = parser.parse_args(argv)
            real: int | None = len(argv) - len(parsed.training_script_args) - 1
        except SystemExit:
            real = None
        assert launchers.parse(argv)[0] == real, argv
    # jobc's own table holds torchrun to the same options
    assert jobc_launchers.TORCHRUN.names == launchers.TORCHRUN_OPTIONS


def test_torchrun_refuses_a_line_its_parser_refuses_and_starts_nothing() -> None:
    script = HEAD + "srun -N1 -n1 torchrun --nproc_per_node=2 --rdd -n zv=1 train.py --lr 1\n"
    run = simulate(script, scenarios=("complete",))["complete"]
    [torchrun] = run.named("torchrun")
    assert torchrun.kind == "call"
    assert torchrun.exit == 2
    assert "torchrun: error: unrecognized arguments: --rdd -n" in run.output
    # near miss: a unique prefix of its option (--standalone) is read, and the program runs
    fine = simulate(script.replace("--rdd -n zv=1", "--standa"), scenarios=("complete",))["complete"]
    [torchrun] = fine.named("torchrun")
    assert torchrun.kind == "run"
    assert torchrun.exit == 0
    assert "error" not in fine.output


def test_python_refuses_a_long_option_it_does_not_have() -> None:
    # CPython reads its own options before the program and refuses a long one it does not have
    # (`python --nproc_per_node=8 train.py`, torchrun's option given to python): exit 2, no program
    script = "#!/bin/bash\n#SBATCH --nodes=1\npython --nproc_per_node=8 -u train.py\necho rc=$?\n"
    run = simulate(script, scenarios=("complete",))["complete"]
    assert [(p.kind, p.exit) for p in run.processes] == [("call", 2)]
    assert "unknown option --nproc_per_node=8" in run.output
    assert "rc=2" in run.output
    # near miss: options CPython has, and an option after the program (the program's own)
    near = (
        "#!/bin/bash\n#SBATCH --nodes=1\npython -u -W error --check-hash-based-pycs never train.py --lr 1\n"
    )
    run = simulate(near, scenarios=("complete",))["complete"]
    assert [p.kind for p in run.processes] == ["run"]
    assert "unknown option" not in run.output


def test_sbatch_sets_the_nodes_to_the_tasks_when_fewer_tasks_than_nodes_are_asked() -> None:
    # sbatch: "can't run 1 processes on 4 nodes, setting nnodes to 1" (slurm's opt verification)
    script = "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks=1\nsrun python t.py\n"
    run = simulate(script, scenarios=("complete",))["complete"]
    assert [(p.host, p.env.get("SLURM_JOB_NUM_NODES")) for p in run.named("python")] == [("node0", "1")]
    # near miss: as many tasks as nodes
    run = simulate(script.replace("--ntasks=1", "--ntasks=4"), scenarios=("complete",))["complete"]
    assert sorted(p.host for p in run.named("python")) == ["node0", "node1", "node2", "node3"]


def test_output_two_processes_of_a_task_interleave_otherwise_is_the_same_output() -> None:
    # found by the fix-script fuzz target (seed 4401, input 6,153): `sh -c 'cd /x & cmd'` runs the
    # failing `cd` beside the next command; dash writes each failure in two writes, so one run
    # printed `and: 1: and: 1: cd: …` and `…: not found`, the other each line whole
    from collections import Counter

    from tests.support.simulator.compare import _interleaved

    one = Counter(["and: 1: and: 1: cd: can't cd to /x", "y: not found"])
    two = Counter(["and: 1: cd: can't cd to /x", "and: 1: y: not found"])
    assert _interleaved(one, two)
    # near miss: a line the other run does not print at all is a difference
    assert not _interleaved(one, Counter(["and: 1: cd: can't cd to /x"]))
    assert not _interleaved(Counter(["cd: can't cd to /x"]), Counter(["cd: can't cd to /y"]))


def test_a_pid_in_bash_s_refusal_of_wait_is_the_system_s_number() -> None:
    # found by the fix-script fuzz target (seed 5301, input 290): `wait "$step"srun` after JC802
    # started one more process in the background: `12srun` became `13srun` in bash's refusal
    from tests.support.simulator.compare import _PID_WORD

    def said(line: str) -> str:
        return _PID_WORD.sub(r"\1<pid>", line)

    refusal = "slurm_script: line N: wait: `{}srun': not a pid or valid job spec"
    assert said(refusal.format(12)) == said(refusal.format(13))
    # near miss: a number in another message is the message's own
    assert said("wait: `12': no such job") != said("wait: `13': no such job")


def test_a_builtin_s_failed_write_into_a_pipe_is_the_script_s_own_race() -> None:
    # found by the fix-script fuzz target (seed 5101, input 5,319): `echo $S|URM_PROCID`, whose
    # reader does not exist, made sh say `echo: I/O error` in one run of the same script and not
    # in the other: the reader had gone or had not when echo wrote
    from tests.support.simulator.compare import Ignore, _text_lines

    racy = "/var/spool/slurmd/job04242/slurm_script: 31: echo: echo: I/O error\nok\n"
    assert _text_lines(racy, Ignore()) == _text_lines("ok\n", Ignore())
    bash = "slurm_script: line 4: echo: write error: Broken pipe\nok\n"
    assert _text_lines(bash, Ignore()) == _text_lines("ok\n", Ignore())
    # (seed 5701, input 711: `export|H… HF_HOME=…`, bash's export listing into the same race)
    export = "/var/spool/slurmd/job04242/slurm_script: line 9: export: write error: Broken pipe\nok\n"
    assert _text_lines(export, Ignore()) == _text_lines("ok\n", Ignore())
    # near miss: the program's own words about an I/O error are its output
    said = "train.py: I/O error\nok\n"
    assert _text_lines(said, Ignore()) != _text_lines("ok\n", Ignore())


def test_a_first_run_too_large_to_simulate_is_compared_with_nothing() -> None:
    # found by the fix-script fuzz target (seed 6901, input 6,219): the script asked for 800 tasks,
    # more than the simulator runs, and JC102's fix for one per node made it small enough: the
    # proof compared a run that never happened with one that did
    from tests.support.simulator import simulate
    from tests.support.simulator.compare import compare_runs

    big = "#!/bin/bash\n#SBATCH --nodes=100\n#SBATCH --ntasks-per-node=8\nsrun true\n"
    small = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nsrun true\n"
    a = simulate(big, scenarios=("complete",))["complete"]
    b = simulate(small, scenarios=("complete",))["complete"]
    assert a.refused is not None
    assert a.refused.startswith("too large to simulate")
    assert compare_runs(a, b) == []
    # near miss: a change that makes a job too large to run is a difference
    assert compare_runs(b, a) != []


def test_a_step_s_program_bash_quotes_is_the_one_slurmstepd_names() -> None:
    # found by the fix-script fuzz target (seed 5301, input 4,486): a program name with bytes that
    # are not UTF-8, which bash quotes (`$'torchrun\247'`) and the stub's slurmstepd escapes
    import re

    from tests.support.simulator.fixes import _STEP_UNSTARTED

    def said(line: str) -> str:
        for pattern, to in _STEP_UNSTARTED:
            line = re.sub(pattern, to, line)
        return line

    name = b"torchrun\xa7".decode("utf-8", "surrogateescape")
    stepd = f"slurmstepd: error: execve(): {name}: No such file or directory"
    stepd = stepd.encode("utf-8", "backslashreplace").decode("utf-8")
    assert said(stepd) == said("bash: line 1: $'torchrun\\247': command not found")
    # near miss: another byte is another name
    assert said(stepd) != said("bash: line 1: $'torchrun\\250': command not found")


def _cut_run(ranks: range, programs: list[int], option: str = "--rank") -> Run:
    """A run cut at its budget that started a loop's step per rank, and the programs of some."""
    steps = [
        Process("step", "srun", ("-N1", "-n1", "python", "step.py", option, str(r)), {}, "/j", "n0")
        for r in ranks
    ]
    runs = [
        Process("run", "python", ("step.py", option, str(r)), {}, "/j", "node0", exit=0) for r in programs
    ]
    return Run("complete", status=137, events=["unfinished why=process budget spent"], processes=steps + runs)


def test_a_cut_loop_whose_steps_had_not_yet_started_their_programs_is_the_same_work() -> None:
    # bash forks the loop's next `srun … &` sooner than a step starts its program: at the cut one
    # run had started 13 of its steps' programs and the other 2, or none on a loaded machine (CI)
    many = _cut_run(range(1, 30), [2, 4, 6, 16, 18, 19, 23, 24, 25, 27, 30, 31, 1])
    for few in ([12, 47], []):
        assert compare_runs(many, _cut_run(range(1, 40), few)) == [], few
    # near miss: programs whose steps the other run never started (another option) still differ
    found = compare_runs(many, _cut_run(range(1, 40), [], option="--ranks"))
    assert any("only before: run `python step.py --rank" in d for d in found), found
    # near miss: a run that ended is compared program for program
    ended = Run("complete", status=0, processes=_cut_run(range(1, 30), [12, 47]).processes)
    found = compare_runs(_cut_run(range(1, 30), [1, 2]), ended)
    assert found, found
