"""Slurm's own lines: srun's task reports, slurmstepd's cancellations and OOM events, the batch
shell's job control. Formats from Slurm's sources (src/srun/, src/slurmd/slurmstepd/)."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

# A host name starts with a letter or digit; a name elided in a paste ("ON ...", "<node>") still
# matches the line but names no node.
_NODE = r"(?:(?P<node>[A-Za-z0-9][^\s:*]{0,199})|[^\s:*A-Za-z0-9][^\s:*]{0,199})"
_TASKS = r"tasks? (?P<tasks>[0-9][0-9,\-]{0,200})"
# slurmstepd's cancel line; older Slurm left out ` ON NODE` (and wrote `*** on NODE` after a
# cancel without a reason: read by the identity stage)
_STEPD = (
    r"\*\*\* (?:JOB|STEP) (?P<job>[0-9][0-9A-Za-z_.+]{0,40})(?: ON "
    + _NODE
    + r")? CANCELLED AT (?P<at>\S{1,40})"
)
_HOST = r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,199}"
# slurmctld's name for a job in its own log: `JobId=123`, `JobID=123`, older `job_id 123`
_CTLD_JOB = r"(?:JobI[dD]=|job_id )(?P<job>[0-9][0-9_+]{0,40})"

# bash's `%s: command not found` in its message catalogue (po/*.po), as it prints it under
# LANG=de_DE, es_ES, fr_FR, it_IT, ja_JP, ko_KR, nl_NL, pl_PL, pt_BR, ru_RU, uk_UA, cs_CZ,
# zh_CN and zh_TW (zh_CN's newer catalogue has a full-width colon: `srun：未找到命令`). The German,
# Spanish, French, Japanese, Russian and Chinese ones checked against real job output; the line
# number before them is bash's `line %d: ` in the same language (`Zeile 40: `, `línea 243: `, `行 18: `).
BASH_NOT_FOUND_WORDS = (
    "Kommando nicht gefunden",
    "orden no encontrada",
    "commande introuvable",
    "comando non trovato",
    "comando não encontrado",
    "コマンドが見つかりません",
    "명령어를 찾을 수 없음",
    "opdracht niet gevonden",
    "nie znaleziono polecenia",
    "команда не найдена",
    "команду не знайдено",
    "příkaz nenalezen",
    "未找到命令",
    "找不到命令",
    "命令找不到",
)

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "S501",
        "srun-task-exit-code",
        "exit_code",
        "cause",
        ("Exited",),
        re.compile(
            r"srun: error: " + _NODE + ": " + _TASKS + r": Exited with exit code (?P<exit_code>[0-9]{1,18})"
        ),
        "srun reporting that tasks ended with a non-zero exit code; the node is the one srun names",
        "srun: error: gpu-node07: task 3: Exited with exit code 1",
        "srun: error: gpu-node07: task 3: exited normally",
        "Slurm srun (src/srun/step_launch.c)",
        ("node", "tasks", "exit_code"),
        report=True,
    ),
    Signature(
        "S502",
        "srun-task-killed",
        "signal",
        "cause",
        ("Killed",),
        re.compile(r"srun: error: " + _NODE + ": " + _TASKS + r": (?P<signal>Killed)"),
        "srun reporting tasks ended by SIGKILL (the OOM killer, scancel, or a kill after a grace period)",
        "srun: error: gpu-node02: tasks 0-3: Killed",
        "srun: error: gpu-node02: Killed by the user",
        "Slurm srun (src/srun/step_launch.c)",
        ("node", "tasks", "signal"),
        report=True,
    ),
    Signature(
        "S503",
        "srun-task-crash",
        "signal",
        "cause",
        ("Segmentation", "Aborted", "Bus error", "Floating point", "Illegal instruction"),
        re.compile(
            r"srun: error: " + _NODE + ": " + _TASKS + r": (?P<signal>Segmentation fault|Aborted|Bus error|"
            r"Floating point exception|Illegal instruction)"
        ),
        "srun reporting tasks that crashed: SIGSEGV, SIGABRT, SIGBUS, SIGFPE or SIGILL",
        "srun: error: node1: task 5: Segmentation fault (core dumped)",
        "srun: error: node1: task 5: Exited with exit code 0",
        "Slurm srun (src/srun/step_launch.c)",
        ("node", "tasks", "signal"),
        report=True,
    ),
    Signature(
        "S504",
        "srun-task-oom",
        "host_oom",
        "cause",
        ("Out Of Memory",),
        re.compile(r"srun: error: " + _NODE + ": " + _TASKS + r": Out Of Memory"),
        "srun reporting tasks killed for exceeding their memory (cgroup OOM)",
        "srun: error: cn042: task 0: Out Of Memory",
        "srun: error: cn042: task 0: Out of range",
        "Slurm srun (src/srun/step_launch.c)",
        ("node", "tasks"),
    ),
    Signature(
        "S505",
        "srun-task-terminated",
        "signal",
        "symptom",
        ("Terminated",),
        re.compile(r"srun: error: " + _NODE + ": " + _TASKS + r": (?P<signal>Terminated)"),
        "srun reporting tasks stopped by SIGTERM: the step was torn down after a failure, or signalled",
        "srun: error: node2: tasks 4-7: Terminated",
        "srun: error: node2: tasks 4-7: Exited with exit code 2",
        "Slurm srun (src/srun/step_launch.c)",
        ("node", "tasks", "signal"),
        report=True,
    ),
    Signature(
        "S506",
        "srun-node-failure",
        "node_fail",
        "cause",
        ("Node failure",),
        re.compile(r"Node failure on (?P<node>[^\s,]{1,200})"),
        "srun losing a node of the step",
        "srun: error: Node failure on gpu-node12",
        "srun: error: Node configuration differs",
        "Slurm srun (src/srun/srun_job.c)",
        ("node",),
    ),
    Signature(
        "S533",
        "prolog-failure",
        "node_fail",
        "cause",
        ("Prolog failure on node",),
        re.compile(r"Prolog failure on node (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62})"),
        "a node's prolog (the site's setup script slurmd runs before a job) failing: slurmd tells the "
        "job (srun and salloc print it), and slurmctld drains or downs the node; the job's allocation "
        "is revoked or it is requeued. The node is at fault, not the job",
        "salloc: Prolog failure on node k003-006\nsalloc: Job allocation 235454 has been revoked.",
        "salloc: Prolog on node k003-006 took 12 s",
        "Slurm slurmd (src/slurmd/slurmd/req.c: slurm_notify_job `Prolog failure on node %s`)",
        ("node",),
    ),
    Signature(
        "S507",
        "stepd-time-limit",
        "time_limit",
        "cause",
        ("DUE TO TIME",),
        re.compile(_STEPD + r" DUE TO TIME LIMIT"),
        "slurmstepd cancelling the job or step at its time limit; the node is the one named there",
        "slurmstepd: error: *** JOB 4512 ON node3 CANCELLED AT 2024-03-01T10:00:07 DUE TO TIME LIMIT ***",
        "slurmstepd: error: *** JOB 4512 ON node3 CANCELLED AT 2024-03-01T10:00:07 ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c)",
        ("job", "node"),
    ),
    Signature(
        "S508",
        "stepd-preempted",
        "preempted",
        "cause",
        ("DUE TO PREEMPTION",),
        re.compile(_STEPD + r" DUE TO PREEMPTION"),
        "slurmstepd cancelling the job for a preemption",
        "slurmstepd: error: *** STEP 88.0 ON cn7 CANCELLED AT 2024-01-02T03:04:05 DUE TO PREEMPTION ***",
        "slurmstepd: error: *** STEP 88.0 ON cn7 CANCELLED AT 2024-01-02T03:04:05 DUE TO TIME LIMIT ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c)",
        ("job", "node"),
    ),
    Signature(
        "S509",
        "stepd-node-failure",
        "node_fail",
        "cause",
        ("DUE TO NODE",),
        # the node after ON is the one whose slurmstepd printed the line: a node that survived,
        # never the one lost (read as `reporter`, not as the finding's node)
        re.compile((_STEPD + r" DUE TO NODE FAILURE").replace("(?P<node>", "(?P<reporter>")),
        "slurmstepd cancelling the job because a node failed; the node it names is its own, which "
        "survived: the lost node is named only where the log says which (srun's `Node failure on`, "
        "slurmctld's log), else not at all",
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE FAILURE ***",
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO PREEMPTION ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c)",
        ("job", "reporter"),
    ),
    Signature(
        "S519",
        "stepd-requeued",
        "preempted",
        "context",
        ("DUE TO JOB REQUEUE",),
        re.compile(_STEPD + r" DUE TO JOB REQUEUE"),
        "slurmstepd cancelling the job because it is requeued: context, for whatever asked for the "
        "requeue (a preemption, a checkpoint signal, scontrol requeue) is the cause",
        "slurmstepd: error: *** JOB 608 ON gpu3 CANCELLED AT 2022-08-12T02:06:12 DUE TO JOB REQUEUE ***",
        "slurmstepd: error: *** JOB 608 ON gpu3 CANCELLED AT 2022-08-12T02:06:12 ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c)",
        ("job", "node"),
    ),
    Signature(
        "S520",
        "kernel-oom-killer",
        "host_oom",
        "cause",
        (
            "Out of memory: Kill",
            "invoked oom-killer",
            "Memory cgroup out of memory",
            "Killed process",
        ),
        re.compile(
            # older kernels (before 4.19): `Out of memory: Kill process 89746 (python) score 1031 or
            # sacrifice child`, then `Killed process 89879 (python) total-vm:…` on its own
            r"(?:(?:(?:Memory cgroup )?[Oo]ut of memory: Kill(?:ed)? process|"
            r"Killed process(?= [0-9]{1,10} \([^)\n]{1,80}\),? total-vm:)) (?P<pid>[0-9]{1,10}) "
            r"\((?P<what>[^)\n]{1,80})\)|"
            r"(?P<proc>[^\s]{1,80}) invoked oom-killer)"
        ),
        "the kernel's OOM killer (dmesg): the node ran out of host memory and a process was killed",
        "[2059991.491542] Out of memory: Killed process 25315 (python3) total-vm:53312244kB, "
        "anon-rss:31451456kB",
        "[2059991.491542] Out of memory handling is set to kill the largest process",
        "Linux (mm/oom_kill.c)",
        ("what", "pid"),
    ),
    Signature(
        "S510",
        "stepd-cancelled",
        "cancelled",
        "cause",
        ("CANCELLED",),
        re.compile(_STEPD + r" \*\*\*"),
        "slurmstepd cancelling the job or step without a reason: scancel",
        "slurmstepd: error: *** STEP 123.0 ON node1 CANCELLED AT 2024-05-01T12:00:00 ***",
        "slurmstepd: error: *** STEP 123.0 ON node1 CANCELLED AT 2024-05-01T12:00:00 DUE TO TIME LIMIT ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c)",
        ("job", "node"),
    ),
    Signature(
        "S521",
        "stepd-task-failed",
        "exit_code",
        "cause",
        ("FAILED (non-zero exit code", "DUE TO TASK FAILURE"),
        re.compile(
            r"\*\*\* (?:JOB|STEP) (?P<job>[0-9][0-9A-Za-z_.+]{0,40})(?: ON " + _NODE + r")? (?:FAILED "
            r"\(non-zero exit code or other failure mode\)(?: on (?P<node2>" + _HOST + r"))?|"
            r"CANCELLED AT [^\s]{1,40} DUE TO TASK FAILURE)"
        ),
        "slurmstepd ending a job or step because a task failed (its non-zero exit code, or srun's "
        "--kill-on-bad-exit): a report of the end, whose cause is in that task's output",
        "slurmstepd: error: *** STEP 52222788.0 ON nid002888 CANCELLED AT 2026-04-29T23:36:37 DUE TO TASK "
        "FAILURE ***",
        "slurmstepd: error: *** STEP 52222788.0 ON nid002888 CANCELLED AT 2026-04-29T23:36:37 ***",
        "Slurm slurmstepd (src/slurmd/slurmstepd/req.c; older versions name the node after the reason)",
        ("job", "node", "node2"),
        report=True,
    ),
    Signature(
        "S522",
        "slurmctld-job-signal",
        "signal",
        "cause",
        ("WTERMSIG",),
        re.compile(
            r"job_complete: " + _CTLD_JOB + r"[^\n]{0,200}? WTERMSIG (?P<signum>[1-9]|[1-5][0-9]|6[0-4])\b"
        ),
        "slurmctld's own log: a job's batch script ended by a signal (`_job_complete: JobId=N WTERMSIG 9`); "
        "the node is the one the controller allocated to the job",
        "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 WTERMSIG 9",
        "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 done",
        "Slurm slurmctld (src/slurmctld/job_mgr.c, job_complete)",
        ("job", "signum"),
        report=True,
    ),
    Signature(
        "S523",
        "slurmctld-job-exit",
        "exit_code",
        "cause",
        ("WEXITSTATUS",),
        re.compile(
            r"job_complete: " + _CTLD_JOB + r"[^\n]{0,200}? WEXITSTATUS (?P<exit_code>[1-9][0-9]{0,2})\b"
        ),
        "slurmctld's own log: a job's batch script exited with a non-zero code",
        "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 WEXITSTATUS 1",
        "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 WEXITSTATUS 0",
        "Slurm slurmctld (src/slurmctld/job_mgr.c, job_complete)",
        ("job", "exit_code"),
        report=True,
    ),
    Signature(
        "S524",
        "slurmctld-time-limit",
        "time_limit",
        "cause",
        ("Time limit exhausted for",),
        re.compile(r"Time limit exhausted for " + _CTLD_JOB),
        "slurmctld's own log: a job reached its time limit",
        "[2026-08-17T10:03:10.000] Time limit exhausted for JobId=2",
        "[2026-08-17T10:03:10.000] Time limit for JobId=2 set to 60",
        "Slurm slurmctld (src/slurmctld/job_mgr.c, job_time_limit)",
        ("job",),
    ),
    Signature(
        "S525",
        "slurmctld-kill-request",
        "cancelled",
        "cause",
        ("REQUEST_KILL_JOB",),
        re.compile(r"REQUEST_KILL_JOB (?:JobId=|job )(?P<job>[0-9][0-9_+]{0,40}) uid (?P<uid>[0-9]{1,10})"),
        "slurmctld's own log: a user asked to cancel the job (scancel)",
        "[2024-01-02T03:04:05.000] _slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=88 uid 1000",
        "[2024-01-02T03:04:05.000] _slurm_rpc_kill_job: JobId=88 already completed",
        "Slurm slurmctld (src/slurmctld/proc_req.c, _slurm_rpc_kill_job)",
        ("job",),
    ),
    Signature(
        "S511",
        "oom-kill-event",
        "host_oom",
        "cause",
        ("Detected",),
        re.compile(
            r"Detected (?P<count>[0-9]{1,9}) oom[-_]kill event(?:\(s\)|s)? in "
            r"(?:StepId=|step )?(?P<job>[0-9][0-9A-Za-z_.+]{0,40})"
        ),
        "slurmstepd counting the kernel's OOM kills in the job's cgroup: host memory ran out",
        "slurmstepd: error: Detected 1 oom_kill event in StepId=31337.0. Some of the step tasks have "
        "been OOM Killed.",
        "slurmstepd: error: Detected 0 errors in StepId=31337.0",
        "Slurm slurmstepd (src/plugins/cgroup)",
        ("job",),
    ),
    Signature(
        "S512",
        "memory-limit-exceeded",
        "host_oom",
        "cause",
        ("Exceeded", "exceeded memory limit", "exceeded virtual memory limit"),
        re.compile(
            r"Exceeded (?:job|step) memory limit|"
            # older slurmstepd's jobacct_gather, as it kills: `Job 5019 exceeded memory limit
            # (1292 > 1024), being killed`
            r"(?:Job|Step) (?P<job>[0-9]{1,12}(?:\.[0-9]{1,12})?) exceeded (?:virtual )?memory limit "
            r"\([0-9]{1,20} > [0-9]{1,20}\), being killed"
        ),
        "slurmstepd saying the job or step went over its memory limit (older ones say it as they kill "
        "it, with the job's number)",
        "slurmstepd: error: Exceeded step memory limit at some point.",
        "slurmstepd: error: Exceeded the number of retries",
        "Slurm slurmstepd (src/plugins/jobacct_gather)",
        ("job",),
    ),
    Signature(
        "S513",
        "shell-job-killed",
        "signal",
        "cause",
        ("Killed", "Segmentation", "Aborted", "Bus error"),
        re.compile(
            r": line (?P<line>[0-9]{1,9}): {0,3}(?P<pid>[0-9]{1,10}) (?P<signal>Killed|Segmentation fault|"
            r"Aborted|Bus error)"
        ),
        "the batch shell reporting that a command it ran was killed or crashed",
        "/var/spool/slurmd/job991/slurm_script: line 14: 52133 Killed                  python train.py",
        "/var/spool/slurmd/job991/slurm_script: line 14: cd: /x: No such directory",
        "bash job control, as it reports in the batch script",
        ("signal",),
        report=True,
    ),
    Signature(
        "S516",
        "shell-killed-bare",
        "signal",
        "cause",
        ("Killed", "Segmentation", "Aborted", "Bus error"),
        re.compile(r"^(?P<signal>Killed|Segmentation fault|Aborted|Bus error)(?: \(core dumped\))?$"),
        "an interactive shell's one-word report that its command was killed or crashed",
        "Killed",
        "Killed 3 stale processes before the start",
        "bash job control",
        ("signal",),
        report=True,
    ),
    Signature(
        "S514",
        "command-not-found",
        "missing_program",
        "cause",
        ("command not found",),
        # (zsh puts the name after: `zsh: command not found: NAME`, read by S527)
        re.compile(r"(?<![^\s:])(?P<command>[^\s:]{1,200}): command not found(?!: )"),
        "the shell not finding a command (torchrun, deepspeed, python) on PATH",
        "/var/spool/slurm/job5/slurm_script: line 9: torchrun: command not found",
        "echo 'the word command not found here'",
        "bash",
        ("command",),
    ),
    Signature(
        "S526",
        "command-not-found-localized",
        "missing_program",
        "cause",
        BASH_NOT_FOUND_WORDS,
        re.compile(
            r"(?<![^\s:])(?P<command>[^\s:：]{1,200}) ?[:：] ?(?:" + "|".join(BASH_NOT_FOUND_WORDS) + r")"
        ),
        "the shell not finding a command, in the words of its message catalogue under a non-English "
        "locale (bash's `%s: command not found` as the language of LANG says it)",
        "./scripts/run_split.sh: 行 18: srun: 未找到命令",
        "./scripts/run_split.sh: 行 18: srun 命令已完成",
        "bash (po/*.po: the translations of `%s: command not found` and of `line %d: `)",
        ("command",),
    ),
    Signature(
        "S527",
        "shell-not-found",
        "missing_program",
        "cause",
        ("not found", "command not found:", "Command not found.", "Unknown command:"),
        re.compile(
            # dash: `ARG0: LINE: NAME: not found` (ARG0 the shell or the script it runs);
            # busybox ash: `sh: NAME: not found`
            r"(?:^|\s)(?:[^\s:]{1,200}: [0-9]{1,9}|(?:[^\s:]{0,200}/)?(?:sh|dash|ash)): "
            r"(?P<command>[^\s:]{1,200}): not found\s*$|"
            # zsh: `zsh: command not found: NAME` (`script:12: command not found: NAME`)
            r"(?:^|\s)[^\s:]{0,200}(?::[0-9]{1,9})?: command not found: (?P<command2>[^\s:]{1,200})|"
            # tcsh and csh: `NAME: Command not found.`
            r"^(?P<command3>[^\s:]{1,200}): Command not found\.|"
            # fish: `fish: Unknown command: NAME`
            r"^fish: Unknown command:? (?P<command4>[^\s:]{1,200})"
        ),
        "a shell other than bash not finding a command: dash (Debian's and Ubuntu's /bin/sh, which "
        "Snakemake, make and subprocess calls with shell=True run), busybox ash, zsh, tcsh, fish",
        "/bin/sh: 1: srun: not found",
        "Checking for srun: not found, using mpirun",
        "dash (src/error.c: `%s: %d: ` then src/exec.c's `not found`), busybox ash (shell/ash.c), zsh "
        "(Src/exec.c: `command not found: %s`), tcsh (sh.err.c: `Command not found.`), fish",
        ("command", "command2", "command3", "command4"),
    ),
    Signature(
        "S537",
        "shell-path-not-found",
        "missing_program",
        "cause",
        ("No such file or directory",),
        re.compile(
            # bash's file_error for a command named by a path (`bash: /opt/env/bin/python3: No such
            # file or directory`; in a script, `SCRIPT: line 9: PATH: …`): the program is not there.
            # A redirection to a missing directory prints the same, so this is a strength-2 report,
            # said with medium confidence.
            r"^(?:[^\s:]{0,200}/)?(?:-?bash|sh)(?:: line [0-9]{1,9})?: "
            r"(?P<command>[^\s:]{0,200}/[^\s:/]{1,200}): No such file or directory\s*$"
        ),
        "the shell not finding a program named by its path (an interpreter in an environment that "
        "is not on this host, a script not copied there); a redirection into a missing directory "
        "reads alike, so the finding is said with medium confidence",
        "Launching horovodrun task function was not successful:\n"
        "bash: /home/me/.pyenv/versions/3.7.2/bin/python3.7: No such file or directory",
        "cat: /home/me/data/train.txt: No such file or directory",
        "bash (execute_cmd.c: shell_execve's file_error, `%s: %s` with strerror)",
        ("command",),
        strength=2,
    ),
    Signature(
        "S515",
        "execve-failed",
        "missing_program",
        "cause",
        ("No such file", "Permission denied"),
        re.compile(
            r"execve\(\): (?P<command>[^:]{1,200}): (?P<why>No such file or directory|Permission denied)"
        ),
        "slurmstepd unable to start the program of a task",
        "slurmstepd: error: execve(): train.py: No such file or directory",
        "slurmstepd: error: open(): log.txt: No such file or directory",
        "Slurm slurmstepd (src/slurmd/slurmstepd/exec_wait.c)",
        ("command", "why"),
    ),
    Signature(
        "S528",
        "slurm-auth-failed",
        "slurm_refused",
        "cause",
        ("Munge encode failed", "Munge decode failed", "has authentication error", "authentication error"),
        re.compile(
            r"(?P<what>Munge (?:encode|decode) failed: [^\n]{1,300}|"
            r"auth_g_(?:create|verify|unpack|pack): [A-Z_]{1,60} has authentication error|"
            r"Protocol authentication error)"
        ),
        "a Slurm command or daemon that could not sign or verify its message (munge's socket is missing, "
        "its key differs, the credential expired or the clocks disagree): Slurm refused the request "
        "before the program ran",
        'srun: error: Munge encode failed: Failed to access "/var/run/munge/munge.socket.2": No such file '
        "or directory",
        "srun: error: If munged is up, restart with --num-threads=10",
        "Slurm (src/plugins/auth/munge/auth_munge.c: `Munge encode failed: %s`; "
        "src/common/slurm_protocol_api.c: `%s: auth_g_create: %s has authentication error`; "
        "slurm_errno.c: SLURM_PROTOCOL_AUTHENTICATION_ERROR)",
        ("what",),
    ),
    Signature(
        "S529",
        "srun-launch-credential",
        "slurm_refused",
        "cause",
        ("Task launch for",),
        re.compile(
            r"Task launch for (?P<job>[^\s]{1,60}) failed on node " + _NODE + r": "
            r"(?P<what>Job credential (?:expired|revoked|replayed)|Invalid job credential|"
            r"Protocol authentication error|Invalid user id|User not found on host)"
        ),
        "srun's step launch refused by the node's slurmd for its credential or user (the job "
        "credential expired, for instance after a node's reboot or a clock skew): the tasks never ran",
        "srun: error: Task launch for StepId=36.0 failed on node cn131: Job credential expired",
        "srun: error: Task launch for StepId=36.0 failed on node cn131: No such file or directory",
        "Slurm srun (src/srun/step_launch.c: `Task launch for %ps failed on node %s: %s`; the reason "
        "is Slurm's error string, slurm_errno.c: ESLURMD_CREDENTIAL_EXPIRED and its neighbours)",
        ("job", "node", "what"),
    ),
    Signature(
        "S530",
        "srun-launch-layout",
        "slurm_refused",
        "cause",
        ("Task launch for",),
        re.compile(
            r"Task launch for (?P<job>[^\s]{1,60}) failed on node " + _NODE + r": "
            r"(?P<what>Unable to layout tasks on given cpus|Unable to satisfy cpu bind request|"
            r"Requested cpu_bind option requires entire node to be allocated|"
            r"Invalid generic resource \(gres\) specification|Invalid node name specified)"
        ),
        "srun's step launch refused by the node's slurmd because the step's tasks cannot be laid "
        "out on what the node gave it (CPUs, a CPU binding, GPUs): the tasks there never ran, and "
        "srun kills the step's other tasks",
        "srun: error: Task launch for StepId=21249880.0 failed on node orion-24-42: Unable to layout "
        "tasks on given cpus\nsrun: error: Application launch failed: Unable to layout tasks on given "
        "cpus\nsrun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        "srun: error: orion-24-43: task 7: Killed",
        "srun: error: Task launch for StepId=36.0 failed on node cn131: Communication connection failure",
        "Slurm srun (src/srun/step_launch.c: `Task launch for %ps failed on node %s: %s`; the reasons "
        "are slurmd's task layout and binding errors, src/slurmd/common/task_plugin.c, "
        "src/plugins/task/affinity/dist_tasks.c)",
        ("job", "node", "what"),
    ),
    Signature(
        "S534",
        "srun-launch-incomplete",
        "slurm_refused",
        "cause",
        ("timeout waiting for task launch", "aborted before step completely launched", "launch failed: "),
        re.compile(
            # srun gave up on a step whose tasks did not all start: the nodes' slurmd (or the MPI
            # plugin, PMIx, that sets each task up) never reported them started, so no program
            # ran and no rank can have timed out in a collective
            r"timeout waiting for task launch, started (?P<started>[0-9]{1,9}) of (?P<of>[0-9]{1,9}) tasks|"
            r"(?:StepId=|[Jj]ob step )(?P<job>[0-9][0-9_.+a-z]{0,40}) "
            r"aborted before step completely launched|"
            r"\btask [0-9]{1,9} launch failed: (?P<what>[^\n]{1,200})"
        ),
        "srun giving up on a step it could not launch (`timeout waiting for task launch, started 0 of "
        "N tasks`, `StepId=… aborted before step completely launched`, `task N launch failed: …`): "
        "Slurm did not start the program (a node's slurmd, the MPI plugin such as PMIx, the "
        "node's prolog); said at medium confidence, as why is not written",
        "srun: error: timeout waiting for task launch, started 0 of 1 tasks\n"
        "srun: StepId=2166087.0 aborted before step completely launched.",
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "Slurm srun (src/api/step_launch.c: `timeout waiting for task launch, started %d of %d tasks`, "
        "`%ps aborted before step completely launched.`, `task %d launch failed: %s`)",
        ("job", "what"),
        strength=2,  # the step never started, why is not said
    ),
    Signature(
        "S535",
        "srun-force-terminated",
        "cancelled",
        "cause",
        ("Force Terminated",),
        re.compile(
            # srun told that its job or step was ended while it ran (src/srun/allocate.c: "This
            # typically signifies the job was cancelled by scancel"; src/api/step_launch.c: a task
            # ended by SIGTERM or SIGKILL): Slurm ended it from outside, a cancel, a preemption or
            # the time limit, which this line does not tell apart; a report, the cause only when no
            # line says more
            r"\bsrun: (?P<what>Force Terminated (?:job step |job |JobId=|StepId=|step )?"
            r"(?P<job>[0-9][0-9_.+a-z]{0,40}))"
        ),
        "srun saying its job or step was ended from outside while it ran (`srun: Force Terminated job "
        "N`): a cancel, a preemption or the time limit, which the line does not tell apart; the cause "
        "only when no other line says which",
        "srun: Force Terminated job 1460318\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
        "Slurm srun (src/srun/allocate.c, src/api/step_launch.c: `Force Terminated %ps`)",
        ("job", "what"),
        report=True,
        # which of the three ended it is not said: a failure written before it, even in words
        # triage does not know, says more
        strength=1,
    ),
    Signature(
        "S536",
        "slurmctld-prolog-failed",
        "slurm_refused",
        "cause",
        ("PrologSlurmctld failed",),
        re.compile(
            # the controller's own prolog (PrologSlurmctld: on a cloud cluster, the script that
            # creates the nodes) failed, and Slurm killed the job before any of it ran
            r"(?P<what>PrologSlurmctld failed, job killed|PrologSlurmctld failed[^\n]{0,100})"
        ),
        "Slurm killing a job whose controller prolog (PrologSlurmctld) failed before it started: on a "
        "cloud cluster the nodes could not be created (quota, placement), elsewhere the site's "
        "prolog refused the job",
        "srun: PrologSlurmctld failed, job killed",
        "srun: Force Terminated job 2",
        "Slurm slurmctld (src/slurmctld/prep_slurmctld.c: `PrologSlurmctld failed, job killed`), "
        "which srun prints",
        ("what",),
        strength=3,
    ),
    Signature(
        "S517",
        "srun-step-refused",
        "slurm_refused",
        "cause",
        ("Unable to create step",),
        # a step refused because the job is already ending is an echo of that end, not a cause
        re.compile(
            r"Unable to create step for job (?P<job>[0-9]{1,18}): "
            r"(?!Job/step already completing|Job has been cancelled|Job/step already completed)"
            r"(?P<what>[^\n]{1,300})"
        ),
        "srun refused a step inside the job: it asked for nodes, tasks, CPUs, GPUs or memory the "
        "job's allocation does not have (or named nodes outside it)",
        "srun: error: Unable to create step for job 17627941: Requested node configuration is not available",
        "srun: error: Unable to create step for job 874: Job/step already completing or completed",
        "Slurm srun (src/srun/libsrun/launch.c; the reason is Slurm's error string)",
        ("job", "what"),
    ),
    Signature(
        "S518",
        "allocation-refused",
        "slurm_refused",
        "cause",
        ("Unable to allocate resources", "Batch job submission failed", "Job submit/allocate failed"),
        re.compile(
            r"(?P<tool>srun|salloc|sbatch): error: "
            r"(?:Unable to allocate resources|Batch job submission failed|Job submit/allocate failed): "
            r"(?P<what>[^\n]{1,300})"
        ),
        "srun, salloc or sbatch refused a job: the partition has no such nodes, a limit forbids it, "
        "or an option is invalid (the controller's reason follows the colon)",
        "sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "srun: job 4512 queued and waiting for resources",
        "Slurm srun, salloc, sbatch (src/srun/libsrun/allocate.c, src/salloc/salloc.c, src/sbatch/sbatch.c)",
        ("tool", "what"),
    ),
    Signature(
        "S531",
        "allocation-unconfirmed",
        "slurm_refused",
        "cause",
        ("Unable to confirm allocation", "has expired"),
        re.compile(
            # the same check words a job that has ended (ESLURM_ALREADY_DONE) as `Slurm job N has
            # expired` (`SLURM job` in older releases): an srun run with a finished job's SLURM_JOB_ID
            r"(?P<tool>srun|salloc): error: (?:Unable to confirm allocation for job (?P<job>[0-9]{1,12}): "
            r"(?P<what>[^\n]{1,300})|(?P<expired>[Ss](?:lurm|LURM) job (?P<ended>[0-9]{1,12}) has expired))"
        ),
        "srun inside a job unable to have the controller confirm the job's allocation (the controller "
        "unreachable, or the job in SLURM_JOB_ID expired or unknown): no step is launched",
        "srun: error: Unable to confirm allocation for job 60564: Unable to contact slurm controller "
        "(connect failure)\nsrun: Check SLURM_JOB_ID environment variable. Expired or invalid job 60564",
        "srun: job 60564 has been allocated resources",
        "Slurm srun (src/srun/libsrun/allocate.c, existing_allocation())",
        ("tool", "job", "what", "expired", "ended"),
    ),
    Signature(
        "S532",
        "slurm-controller-unreachable",
        "slurm_refused",
        "cause",
        (
            "Could not establish a configuration source",
            "Unable to contact slurm controller",
            "unable to status file",
        ),
        re.compile(
            r"(?P<tool>sbatch|srun|salloc|sinfo|squeue|scontrol|sacct|scancel|sacctmgr|sattach|sstat|"
            r"sshare|sprio|sreport|sbcast|strigger)(?:-[A-Za-z0-9_.\-]{1,60})?: (?:fatal|error): "
            r"(?:[A-Za-z_]{1,40}(?: error)?: )?"
            r"(?P<what>Could not establish a configuration source|"
            r"Unable to contact slurm controller(?: \([a-z ]{1,40}\))?|"
            # its configuration file missing or unreadable (s_p_parse_file, which retries for 60 s)
            r"unable to status file [^\n:]{1,300}: [^\n,]{1,100})"
        ),
        "a Slurm command that cannot reach the controller, or find its configuration at all "
        "(configless Slurm's DNS SRV lookup failed on a host that is no Slurm client; slurm.conf "
        "missing where the command looks for it): nothing is submitted, listed or launched; the "
        "lines before it say why",
        "sinfo: error: fetch_config: DNS SRV lookup failed\n"
        "sinfo: error: _establish_config_source: failed to fetch config\n"
        "sinfo: fatal: Could not establish a configuration source",
        "sinfo: error: fetch_config: DNS SRV lookup failed, falling back to /etc/slurm/slurm.conf",
        "Slurm (src/common/read_config.c, _establish_config_source(); src/common/slurm_protocol_api.c, "
        "SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV and the controller's connect failure)",
        ("tool", "what"),
    ),
)
