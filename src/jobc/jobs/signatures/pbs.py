"""Other schedulers' own lines. PBS's and Torque's: the MOM's kill for a resource over its limit,
written into the job's output (`=>> PBS: job killed: walltime 86415 exceeded limit 86400`), and
the server's log of a job deleted by a user (Torque's and OpenPBS's src/resmom/mom_main.c,
src/server/req_delete.c); Moab's reasons; Grid Engine's accounting (`qacct -j`'s `failed` field);
Kubernetes' kubelet evicting a pod when its node runs short of memory or local disk
(pkg/kubelet/eviction/helpers.go), as `kubectl describe`/`get events` show it; NCI Gadi's PBS
killing a job over its memory; and LSF's words for a job ended by a signal (`bhist -l`, the job's
report)."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

# the MOM's kill line: `job killed: RESOURCE USED exceeded limit LIMIT` (Torque's and OpenPBS's
# job_over_limit; OpenPBS writes `mem job total 4200000 kb exceeded limit 4194304 kb`)
_KILLED = r"PBS: job killed: "

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "B601",
        "pbs-walltime-exceeded",
        "time_limit",
        "cause",
        ("PBS: job killed: ",),
        re.compile(
            # OpenPBS: `cput job total 7300 secs exceeded limit 7200`
            _KILLED
            + r"(?P<what>walltime|cput)(?: job total)? (?P<used>[0-9]{1,12})(?: secs)? exceeded limit "
            r"(?P<limit>[0-9]{1,12})"
        ),
        "PBS's or Torque's MOM killing the job for running past its wall time (or CPU time) limit",
        "=>> PBS: job killed: walltime 86415 exceeded limit 86400",
        "=>> PBS: job started: walltime limit 86400",
        "Torque and OpenPBS (src/resmom/mom_main.c, job_over_limit: `job killed: walltime %ld "
        "exceeded limit %ld`, written to the job's stderr after `=>> PBS: `)",
        ("what", "used", "limit"),
    ),
    Signature(
        "B602",
        "pbs-memory-exceeded",
        "host_oom",
        "cause",
        ("PBS: job killed: ",),
        re.compile(
            _KILLED + r"(?P<what>p?v?mem(?:ory)?)(?: job total)? (?P<used>[0-9]{1,20} ?[kKmMgG]?[bB]?) "
            r"exceeded limit"
        ),
        "PBS's or Torque's MOM killing the job for using more memory (mem, vmem, pmem) than it asked for",
        "=>> PBS: job killed: mem 4217164kb exceeded limit 4194304kb",
        "=>> PBS: job killed: walltime 3616 exceeded limit 3600",
        "Torque and OpenPBS (src/resmom/mom_main.c, job_over_limit: `job killed: mem %llukb exceeded "
        "limit %llukb`, vmem and pmem alike)",
        ("what", "used"),
    ),
    Signature(
        "B603",
        "pbs-sister-node-lost",
        "node_fail",
        "cause",
        ("PBS: job killed: node",),
        re.compile(
            _KILLED + r"node (?P<index>[0-9]{1,6}) \((?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\) "
            r"requested job (?:terminate|die)"
        ),
        "PBS's or Torque's mother superior ending the job because a sister MOM (another node of the "
        "job) stopped answering (`'EOF'`, `SISTER_EOF`) or asked it to end (`requested job die`)",
        "=>> PBS: job killed: node 1 (n12) requested job terminate, 'EOF' (code 1099) - received "
        "SISTER_EOF attempting to communicate with sister MOM's",
        "=>> PBS: job killed: walltime 602 exceeded limit 600",
        "Torque and OpenPBS (src/resmom/mom_comm.c: `job killed: node %d (%s) requested job terminate, "
        "'%s' (code %d) - %s`, and `requested job die, code %d`)",
        ("node",),
    ),
    Signature(
        "B605",
        "moab-limit-exceeded",
        "time_limit",
        "cause",
        ("MOAB_INFO:", "exceeded wallclock", "exceeded walltime"),
        re.compile(
            r"(?:MOAB_INFO|MAUI_INFO):\s{1,8}job (?:has )?exceeded (?P<what>wallclock|walltime|wall ?time|"
            r"cpu ?time) limit"
        ),
        "Moab's (or Maui's) reason for a job the PBS server deleted: it ran past its wall clock (or "
        "CPU time) limit, as its mail to the owner says below `Job deleted at request of root`",
        "MOAB_INFO:  job exceeded wallclock limit",
        "MOAB_INFO:  job was rejected - job violates class configuration 'wclimit too high'",
        "Moab Workload Manager (the `MOAB_INFO:` line of the job's mail when the scheduler cancels it "
        "for its wall clock limit)",
        ("what",),
    ),
    Signature(
        "B606",
        "moab-job-preempted",
        "preempted",
        "cause",
        ("job preempted", "job was preempted"),
        re.compile(r"job (?:was )?preempted(?: \((?P<reason>[^()]{1,80})\))?"),
        "Moab's reason for a job it had the PBS server delete: it preempted the job (with its reason "
        "in brackets, `node failure` when the node was lost), as its mail, `checkjob` and its log say",
        "Job deleted at request of root@mskcc-fe1.local\njob preempted (node failure)",
        "Flags:          PREEMPTEE,RESTARTABLE",
        "Moab Workload Manager (the reason of its mail and of `checkjob`'s `Message[N] job cancelled - "
        "job preempted (REASON)` when the scheduler preempts a job)",
        ("reason",),
    ),
    Signature(
        "B604",
        "pbs-job-deleted",
        "cancelled",
        "cause",
        ("Job deleted at request of", "job deleted at request of"),
        re.compile(r"[Jj]ob deleted at request of (?P<who>[A-Za-z0-9_.\-]{1,64})(?:@|\b)"),
        "PBS's or Torque's server deleting the job because a user (or an administrator, root) asked: "
        "qdel, as its log and its mail to the owner say (a deletion at root's request is the "
        "scheduler's or an administrator's, whose reason is elsewhere: it is no more than a report)",
        "04/18/2016 22:55:25;0008;PBS_Server.12149;Job;7082041.hal-sched1.local;Job deleted at request "
        "of root@hal-sched1",
        "04/18/2016 22:55:25;0008;PBS_Server.12149;Job;7082041.hal-sched1.local;Job modified at request "
        "of root@hal-sched1",
        "Torque and OpenPBS (src/server/req_delete.c: `Job deleted at request of %s@%s`)",
        ("who",),
    ),
    Signature(
        "B607",
        "sge-limit-enforced",
        "time_limit",
        "cause",
        ("qmaster enforced h_rt",),
        re.compile(
            r"(?:failed:?\s{1,12}(?P<code>37)\s{0,4}:\s{0,4})?(?P<what>qmaster enforced h_rt, h_cpu, or "
            r"h_vmem limit)"
        ),
        "Grid Engine's accounting (`qacct -j`, the job's mail) saying the master killed the job for a "
        "limit: its wall clock (h_rt) or CPU time (h_cpu), or its memory (h_vmem), which the same "
        "words cover; `ru_wallclock` beside it against the job's h_rt tells which",
        "failed       37  : qmaster enforced h_rt, h_cpu, or h_vmem limit",
        "failed       0",
        "Grid Engine (the `failed` codes of qacct(1): 37 `qmaster enforced h_rt, h_cpu, or h_vmem limit`)",
        ("what",),
    ),
    Signature(
        "B608",
        "kubelet-evicted-memory",
        "host_oom",
        "cause",
        ("low on resource: memory",),
        re.compile(r"(?P<what>The node was low on resource: memory)\b"),
        "Kubernetes' kubelet evicting a pod because its node ran short of memory (the container that "
        "used most beyond its request is named after it): the pod's processes are killed",
        "Warning   Evicted   pod/trainer-0   The node was low on resource: memory. Container trainer was "
        "using 5053216Ki, which exceeds its request of 0.",
        "Warning   FailedScheduling   pod/trainer-0   0/4 nodes are available: 4 Insufficient memory.",
        "Kubernetes (pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt `The node was low on resource: "
        "%v. `)",
        ("what",),
    ),
    Signature(
        "B609",
        "kubelet-evicted-storage",
        "disk_full",
        "cause",
        (
            "low on resource: ephemeral-storage",
            "ephemeral local storage usage exceeds",
            "exceeded its local ephemeral storage limit",
        ),
        re.compile(
            r"(?P<what>The node was low on resource: ephemeral-storage|Pod ephemeral local storage usage "
            r"exceeds the total limit of containers|Container [^\s]{1,253} exceeded its local ephemeral "
            r"storage limit)"
        ),
        "Kubernetes' kubelet evicting a pod because its node's local disk (ephemeral storage: the "
        "container's writable layer, logs, emptyDir) ran short, or the pod wrote past its own limit",
        "The node was low on resource: ephemeral-storage. Threshold quantity: 10120387530, available: "
        "9702960Ki. Container main was using 26498512Ki, request is 0, has larger consumption of "
        "ephemeral-storage.",
        "Limits: ephemeral-storage: 20Gi",
        "Kubernetes (pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt, podEphemeralStorageMessageFmt, "
        "containerEphemeralStorageMessageFmt)",
        ("what",),
    ),
    Signature(
        "B610",
        "nci-memory-allocation-exceeded",
        "host_oom",
        "cause",
        ("has exceeded memory allocation on node",),
        re.compile(
            r"Job (?P<job>[0-9]{1,12}(?:\.[A-Za-z0-9_\-]{1,64})?) has exceeded memory allocation on node "
            r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})"
        ),
        "NCI Gadi's PBS killing the job because its processes used more memory on a node than the job "
        "asked for (-l mem): the node, then each process with its resident size, then the kill of the "
        "program by the batch shell (`Killed`)",
        "Job 16186372 has exceeded memory allocation on node gadi-cpu-clx-1393.gadi.nci.org.au\n"
        'Process "julia", pid 3004038, rss 4387364864, vmem 6481285120',
        "Job 16186372 memory allocation on node gadi-cpu-clx-1393.gadi.nci.org.au: 4.00 GB",
        "NCI Gadi's PBS Pro (its job's stderr: `Job %s has exceeded memory allocation on node %s`, then "
        '`Process "%s", pid %d, rss %d, vmem %d` for each process, and a link to NCI\'s pages)',
        ("job", "node"),
    ),
    Signature(
        "B611",
        "lsf-external-signal",
        "signal",
        "cause",
        ("TERM_EXTERNAL_SIGNAL",),
        re.compile(r"(?P<what>(?:Exited by LSF signal |\b)(?P<reason>TERM_EXTERNAL_SIGNAL))\b"),
        "LSF's exit reason for a job ended by a signal that did not come from LSF (not bkill, not a "
        "limit): as `bhist -l` (`Exited by LSF signal TERM_EXTERNAL_SIGNAL`) and the job's mail say it",
        "Tue Jul 30 21:43:41: Exited by LSF signal TERM_EXTERNAL_SIGNAL. The CPU time us\n"
        "                     ed is 0.0 seconds;",
        "Tue Jul 30 21:43:41: Exited with exit code 1. The CPU time used is 0.0 seconds;",
        "IBM Spectrum LSF (its termination reasons: TERM_EXTERNAL_SIGNAL, `Job killed by a signal "
        "external to LSF`; bhist -l writes `Exited by LSF signal %s`)",
        ("what", "reason"),
    ),
    Signature(
        "B612",
        "lsf-signal-termination",
        "signal",
        "cause",
        ("Exited with signal termination: ",),
        re.compile(r"(?P<what>Exited with signal termination: (?P<signal>[A-Z][A-Za-z0-9 ]{1,60}?))[.,]"),
        "LSF's job report (its mail, or the output file of `bsub -o`) saying the job's program was "
        "ended by a signal, named in the C library's words (`Alarm clock`, `Killed`, `Segmentation "
        "fault`)",
        "Subject: Job 553065: <J1744346edb1387> in cluster <cluster5> Exited\n"
        "Exited with signal termination: Alarm clock.",
        "Exited with exit code 1.",
        "IBM Spectrum LSF (the job report: `Exited with signal termination: %s.`, the signal's "
        "strsignal() text; `, and core dumped` when it dumped core)",
        ("what", "signal"),
    ),
    Signature(
        "B613",
        "lsf-exit-code",
        "exit_code",
        "cause",
        ("Exited with exit code ",),
        re.compile(r"(?P<what>Exited with exit code (?P<exit_code>[0-9]{1,9}))\."),
        "LSF's job report (its mail, the output file of `bsub -o`, `bhist -l`) saying the job's "
        "program exited with a non-zero code (a shell's 128 + N when a signal ended it: 143 is "
        "SIGTERM); a cause only when nothing else in the log explains the end",
        "Subject: Job 553066: <train> in cluster <cluster5> Exited\nExited with exit code 143.",
        "Successfully completed.",
        "IBM Spectrum LSF (the job report: `Exited with exit code %d.`; `bhist -l`: `Exited with exit "
        "code %d. The CPU time used is …`)",
        ("what", "exit_code"),
        report=True,
    ),
    Signature(
        "B614",
        "flux-shell-oom",
        "host_oom",
        "cause",
        ("oom: Memory cgroup out of memory: killed",),
        re.compile(
            # the job shell's oom plugin, one shell per node (`flux-shell[N]` numbers the shell,
            # not a task): how many tasks the job's memory cgroup killed, and on which node
            r"oom: (?P<what>Memory cgroup out of memory: killed [0-9]{1,6} tasks? on "
            r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}?))\.?(?:\s|$)"
        ),
        "Flux's job shell reporting that the job's memory cgroup ran out and the kernel's OOM killer "
        "ended its tasks on that node",
        "29.475s: flux-shell[0]: ERROR: oom: Memory cgroup out of memory: killed 1 task on picl7.\n"
        "29.563s: flux-shell[0]: ERROR: oom: memory.peak = 1.4428558G",
        "29.563s: flux-shell[0]: ERROR: oom: memory.peak = 1.4428558G",
        "Flux (flux-core's job shell oom plugin: `Memory cgroup out of memory: killed %d task%s on %s.`)",
        ("what", "node"),
        strength=3,
    ),
    Signature(
        "B615",
        "cloud-termination-notice",
        "preempted",
        "cause",
        ("says termination is imminent",),
        re.compile(
            # a cloud worker's agent (Taskcluster's worker-runner and docker-worker) polling the
            # instance's metadata: a spot or preemptible VM told it will be reclaimed
            r"(?P<what>(?P<cloud>GCP|EC2) Metadata Service says termination is imminent)"
        ),
        "a cloud worker's agent reading from the instance's metadata that the spot or preemptible VM "
        "is about to be reclaimed: the job's node was preempted",
        "Dec 17 16:03:58Z worker-1 start-worker 2024/12/17 16:03:58 GCP Metadata Service says "
        "termination is imminent",
        "2024/12/17 16:03:58 WARNING: error when calling AWS EC2 spot termination endpoint: timeout",
        "Taskcluster (worker-runner's google and aws providers; docker-worker)",
        ("what", "cloud"),
    ),
)
