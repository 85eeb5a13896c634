"""A real, throw-away Slurm cluster on this one machine, for tests.

`SlurmCluster` starts munged (its own key and socket), one slurmctld and several
`slurmd -N <node>` in a fresh temporary directory, with free ports chosen at start, so two
clusters — one after the other or side by side — never share state. Each node declares fake
GPUs as GRES backed by character devices of the NVIDIA major number (195): Slurm only sets
CUDA_VISIBLE_DEVICES for device files, so plain files would not do.

Everything runs as root (SlurmUser=root): slurmd must be root to start job steps, and the
node names are added to /etc/hosts so that a MASTER_ADDR taken from the node list resolves.

    with SlurmCluster() as cluster:
        job = cluster.sbatch(script, "--nodes=2")
        assert cluster.wait(job) == "COMPLETED"
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from jobc.compile.rendezvous import PORT_BASE, PORT_SPAN

#: Job states after which a job never runs again (a requeued job goes back to PENDING instead).
FINAL_STATES = frozenset(
    {
        "BOOT_FAIL",
        "CANCELLED",
        "COMPLETED",
        "DEADLINE",
        "FAILED",
        "NODE_FAIL",
        "OUT_OF_MEMORY",
        "PREEMPTED",
        "TIMEOUT",
    }
)

DAEMONS = ("munged", "munge", "unmunge", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "srun", "scontrol", "squeue", "sinfo", "scancel")
#: slurmdbd over a MariaDB server: what `sacct` needs (Debian: mariadb-server slurmdbd).
ACCOUNTING_PROGRAMS = ("mariadbd", "mariadb-install-db", "slurmdbd", "sacctmgr", "sacct")
#: Account and QOS registered in every cluster with accounting (besides Slurm's own root and normal).
TEST_ACCOUNT = "jobc-test"
TEST_QOS = "jobc-qos"

#: Major device number of /dev/nvidia*; Slurm's gpu plugin only exports CUDA_VISIBLE_DEVICES
#: for GRES backed by device files.
NVIDIA_MAJOR = 195

ROOT_PREFIX = "jobc-slurm-"
#: A compiled script derives MASTER_PORT from the job id (20000 + id % 9000), so two clusters
#: that run at once on this host (the workers of one test run, or two test runs) must not hand
#: out ids with the same remainder: each takes a block of ids of its own, held by a lock file for
#: as long as it runs, and Slurm wraps back to the block's first id after its last.
JOB_ID_BLOCK = 1000
JOB_ID_BLOCKS = PORT_SPAN // JOB_ID_BLOCK
JOB_ID_LOCK = "jobc-test-job-ids-{}.lock"
#: The daemons' ports come from the same block: a port picked as free and closed again could be
#: handed to two clusters starting at once (seen as slurmd's "Address already in use"), while a
#: range held under the block's lock is this cluster's alone. The ranges lie above the jobs'
#: MASTER_PORTs (with a gap: a test's ranks may look one port above theirs) and below Linux's
#: ephemeral ports (32768-60999), which the kernel hands out.
DAEMON_PORT_BASE = PORT_BASE + PORT_SPAN + 100
DAEMON_PORTS_PER_BLOCK = 400
#: The pid of the process that started a cluster, in its directory: a cluster whose owner is
#: gone was left by a killed test run (daemons die with it, job steps do not).
OWNER_FILE = "owner.pid"

CGROUP_ROOT = Path("/sys/fs/cgroup")
HOSTS_FILE = Path("/etc/hosts")
HOSTS_TAG = "# jobc test cluster"

#: Variables of an enclosing Slurm job (tests may themselves run inside one) would leak into
#: the test cluster's commands and confuse sbatch/srun there.
_OUTER_SLURM_PREFIXES = ("SLURM_", "SBATCH_", "SRUN_", "SALLOC_", "SQUEUE_", "SINFO_", "SCONTROL_")


class ClusterUnavailable(RuntimeError):
    """The cluster cannot be started here; the message says why."""


#: What a start can fail with because of the machine rather than a bug here.
_START_ERRORS = (ClusterUnavailable, TimeoutError, OSError, subprocess.SubprocessError)


@dataclass(frozen=True)
class Node:
    name: str
    port: int
    gpu_files: tuple[Path, ...]
    shape: Shape


@dataclass(frozen=True)
class Shape:
    """One kind of node: `count` nodes named `<prefix><index>`, with these CPUs, memory, GPUs
    (GRES `gpu[:<gpu_type>]:<gpus>`) and features."""

    count: int = 2
    cpus: int = 8
    memory_mb: int = 8192
    gpus: int = 2
    gpu_type: str | None = None
    features: tuple[str, ...] = ()
    prefix: str = "jobc-node"

    def names(self) -> tuple[str, ...]:
        return tuple(f"{self.prefix}{index}" for index in range(self.count))

    def gres(self) -> str:
        if not self.gpus:
            return ""
        kind = f"gpu:{self.gpu_type}" if self.gpu_type else "gpu"
        return f"{kind}:{self.gpus}"


@dataclass(frozen=True)
class PartitionConf:
    """A partition over the nodes of some shapes (by prefix; all shapes when empty), with the
    rest of its `PartitionName=` line as written in slurm.conf (e.g. `MaxTime=01:00:00`)."""

    name: str
    prefixes: tuple[str, ...] = ()
    options: str = "MaxTime=INFINITE"
    default: bool = False


def missing_prerequisites() -> list[str]:
    """Reasons why no cluster can start on this machine (empty when it can try)."""
    reasons = []
    if os.geteuid() != 0:
        reasons.append("must run as root (slurmd starts job steps as SlurmUser=root)")
    absent = [name for name in (*DAEMONS, *CLIENTS) if shutil.which(name) is None]
    if absent:
        reasons.append(f"missing programs {', '.join(absent)} (Debian: apt-get install slurm-wlm munge)")
    return reasons


def missing_accounting() -> list[str]:
    """Programs the accounting daemons need that this machine lacks (empty when it can try)."""
    return [name for name in ACCOUNTING_PROGRAMS if shutil.which(name) is None]


def block_ports(first_job_id: int, count: int, after: int | None = None) -> list[int]:
    """`count` ports of the daemon range of the job-id block starting at `first_job_id`, above
    `after` when given, skipping any port something else on the host holds now (or holds in
    TIME_WAIT: the bind is tried without SO_REUSEADDR)."""
    block = (first_job_id - 1) // JOB_ID_BLOCK
    low = DAEMON_PORT_BASE + block * DAEMON_PORTS_PER_BLOCK
    ports: list[int] = []
    for port in range(max(low, (after or 0) + 1), low + DAEMON_PORTS_PER_BLOCK):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("", port))
            except OSError:
                continue
        ports.append(port)
        if len(ports) == count:
            return ports
    raise ClusterUnavailable(f"fewer than {count} free ports in {low}-{low + DAEMON_PORTS_PER_BLOCK - 1}")


def reserve_job_ids(base: Path) -> tuple[IO[bytes], int]:
    """Lock a block of job ids no other running cluster on this host holds; return the open
    lock file (closing it frees the block) and the block's first id. Waits for a block when all
    are taken rather than share one."""
    blocks = list(range(JOB_ID_BLOCKS))
    # start at a place of our own so that clusters starting together do not all try block 0
    start = os.getpid() % JOB_ID_BLOCKS
    for attempt, block in enumerate(blocks[start:] + blocks[:start]):
        lock = (base / JOB_ID_LOCK.format(block)).open("ab")
        try:
            flags = fcntl.LOCK_EX if attempt == JOB_ID_BLOCKS - 1 else fcntl.LOCK_EX | fcntl.LOCK_NB
            fcntl.flock(lock, flags)
        except BlockingIOError:
            lock.close()
            continue
        return lock, 1 + block * JOB_ID_BLOCK
    raise AssertionError("unreachable: the last attempt waits for its block")


def ensure_hosts_entries(
    names: Sequence[str], address: str = "127.0.0.1", hosts_file: Path = HOSTS_FILE
) -> None:
    """Make `names` resolve, appending one tagged hosts-file line for the ones that do not.

    Idempotent, and locked because test runs on the same machine may start clusters at once.
    """
    with hosts_file.open("r+", encoding="utf-8") as hosts:
        fcntl.flock(hosts, fcntl.LOCK_EX)
        text = hosts.read()
        known = {word for line in text.splitlines() for word in line.split("#", 1)[0].split()[1:]}
        missing = [name for name in names if name not in known and not _resolves(name)]
        if missing:
            separator = "" if text.endswith("\n") or not text else "\n"
            hosts.write(f"{separator}{address} {' '.join(missing)}  {HOSTS_TAG}\n")


def _resolves(name: str) -> bool:
    try:
        socket.gethostbyname(name)
    except OSError:
        return False
    return True


def parse_scontrol_record(line: str) -> dict[str, str]:
    """`scontrol show … -o` prints one `Key=Value Key=Value` line; values may contain spaces
    (Command, Reason), so a value runs until the next ` Key=`."""
    pairs = re.findall(r"(\S+?)=(.*?)(?= \S+?=|$)", line.strip())
    return dict(pairs)


def _tail(path: Path, lines: int) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        return f"({error})"
    return "\n".join(text.splitlines()[-lines:])


class SlurmCluster:
    """One slurmctld and `nodes` slurmd on this host, in a temporary directory.

    Jobs should write under `workdir` (the default working directory of `sbatch`): every
    "node" is this host, so the directory is shared the way a parallel file system would be.
    """

    def __init__(
        self,
        *,
        nodes: int = 2,
        gpus_per_node: int = 2,
        cpus_per_node: int = 8,
        memory_mb: int = 8192,
        node_prefix: str = "jobc-node",
        base_dir: Path | None = None,
        start_timeout: float = 300.0,
        shapes: Sequence[Shape] | None = None,
        partitions: Sequence[PartitionConf] | None = None,
        accounting: bool | None = None,
        cgroups: bool = False,
        extra_conf: str = "",
    ) -> None:
        """`shapes` and `partitions` default to `nodes` identical nodes in one partition, debug.
        `accounting`: slurmdbd over MariaDB; None starts it where the programs exist, True
        requires it. `cgroups`: memory is a consumable resource and each step is held to its
        request by a memory cgroup, so a step over it ends OUT_OF_MEMORY (needs a writable cgroup
        v1 memory hierarchy; node names should then be unique on this host, because slurmd
        names its cgroup after the node). `extra_conf`: slurm.conf lines that override the
        defaults (the last of two lines wins)."""
        if shapes is None:
            shapes = [Shape(nodes, cpus_per_node, memory_mb, gpus_per_node, prefix=node_prefix)]
        if any(s.count < 1 or s.gpus < 0 or s.cpus < 1 for s in shapes):
            raise ValueError("need at least one node and one CPU per node")
        self.shapes = tuple(shapes)
        first = self.shapes[0]
        self.node_count = sum(s.count for s in self.shapes)
        self.gpus_per_node = first.gpus
        self.cpus_per_node = first.cpus
        self.memory_mb = first.memory_mb
        self.node_names = tuple(name for shape in self.shapes for name in shape.names())
        self.partitions = tuple(partitions or [PartitionConf("debug", default=True)])
        self.partition = next((p.name for p in self.partitions if p.default), self.partitions[0].name)
        self.want_accounting = accounting
        self.accounting = False  # whether slurmdbd runs (set by start)
        self.cgroups = cgroups
        self.extra_conf = extra_conf
        self.hostname = socket.gethostname().split(".", 1)[0]
        self._base_dir = base_dir
        self._start_timeout = start_timeout
        self._root: Path | None = None
        self._nodes: tuple[Node, ...] = ()
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        # slurmd of the nodes a test stopped on purpose (kill_slurmd): the supervisor leaves them
        self._stopped: set[str] = set()
        self._lock = threading.Lock()
        self._supervisor: threading.Thread | None = None
        self._munge_socket: Path | None = None
        self._id_lock: IO[bytes] | None = None
        self.first_job_id = 1
        self._last_port = 0  # the highest port of the block's range handed out so far

    # -- layout ------------------------------------------------------------------------------

    @property
    def root(self) -> Path:
        if self._root is None:
            raise RuntimeError("cluster not started")
        return self._root

    @property
    def conf(self) -> Path:
        return self.root / "etc" / "slurm.conf"

    @property
    def workdir(self) -> Path:
        return self.root / "work"

    @property
    def log_dir(self) -> Path:
        return self.root / "log"

    @property
    def nodes(self) -> tuple[Node, ...]:
        return self._nodes

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start every daemon and return once all nodes are idle.

        Raises ClusterUnavailable (after cleaning up) when that cannot be done here.
        """
        reasons = missing_prerequisites()
        if self.cgroups and not os.access(CGROUP_ROOT / "memory", os.W_OK):
            reasons.append(f"no writable cgroup v1 memory hierarchy at {CGROUP_ROOT / 'memory'}")
        if reasons:
            raise ClusterUnavailable("cannot start a Slurm test cluster: " + "; ".join(reasons))
        if self._root is not None:
            raise RuntimeError("cluster already started")
        base = Path(self._base_dir or tempfile.gettempdir())
        remove_abandoned_clusters(base)
        self._root = Path(tempfile.mkdtemp(prefix=ROOT_PREFIX, dir=base))
        (self._root / OWNER_FILE).write_text(f"{os.getpid()}\n", encoding="utf-8")
        try:
            self._start()
        except _START_ERRORS as error:
            logs = self.logs()
            self.stop()
            raise ClusterUnavailable(f"Slurm cluster did not start: {error}\n{logs}") from error
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        # munged refuses a socket in a directory that not everyone may traverse.
        self.root.chmod(0o755)
        for sub in ("etc", "state", "log", "work", "run"):
            (self.root / sub).mkdir()
        self.workdir.chmod(0o1777)
        ensure_hosts_entries(self.node_names)
        self._id_lock, self.first_job_id = reserve_job_ids(self.root.parent)
        self._munge_socket = self._start_munge()
        ctld_port, *node_ports = block_ports(self.first_job_id, 1 + self.node_count)
        shapes = [shape for shape in self.shapes for _ in range(shape.count)]
        self._nodes = tuple(
            Node(name, port, self._make_gpu_files(name, shape.gpus), shape)
            for name, port, shape in zip(self.node_names, node_ports, shapes, strict=True)
        )
        self._last_port = max(ctld_port, *node_ports)
        dbd_port = self._start_accounting()
        self._write_config(ctld_port, dbd_port)
        if dbd_port is not None:
            self._register_accounting()
        self._spawn("slurmctld", ["slurmctld", "-D", "-f", str(self.conf)])
        for node in self._nodes:
            (self.root / "spool" / node.name).mkdir(parents=True)
            self._spawn(f"slurmd-{node.name}", ["slurmd", "-D", "-N", node.name, "-f", str(self.conf)])
        self.wait_idle(self._start_timeout)
        self._supervisor = threading.Thread(target=self._supervise, args=(self.root,), daemon=True)
        self._supervisor.start()

    def _supervise(self, root: Path) -> None:
        """Start again a slurmd that died by itself, as a site's service manager does. Slurm
        22.05's slurmd has been seen to abort on a busy machine (`malloc(): unaligned tcache
        chunk detected` while launching two jobs at once); its jobs then stayed COMPLETING, and a
        test waiting for one waited until the node timed out. Each restart is written to
        log/restarts.log, which `logs()` shows. A slurmd a test killed (kill_slurmd) is left."""
        while self._root == root:
            time.sleep(1.0)
            with self._lock:
                if self._root != root:
                    return
                for node in self._nodes:
                    name = f"slurmd-{node.name}"
                    proc = self._procs.get(name)
                    if node.name in self._stopped or proc is None or proc.poll() is None:
                        continue
                    with (root / "log" / "restarts.log").open("a", encoding="utf-8") as log:
                        when = time.strftime("%H:%M:%S")
                        log.write(f"{when} {name} exited with {proc.returncode}: started again\n")
                    self._spawn(name, ["slurmd", "-D", "-N", node.name, "-f", str(self.conf)])

    def stop(self) -> None:
        """Cancel all jobs, stop every daemon and every process the cluster started, and
        delete the directory. Safe to call twice and after a failed start."""
        if self._root is None:
            return
        with self._lock:
            self._stopped.update(node.name for node in self._nodes)  # the supervisor starts none now
        try:
            if self._alive("slurmctld"):
                self._cancel_everything()
            # slurmctld first (it sends its last records to slurmdbd), then slurmdbd, its
            # database, and munged last: the others talk to it while they shut down.
            for name in sorted(self._procs, key=_stop_order):
                self._terminate(name)
            self._kill_strays()
            if self.cgroups:
                self._remove_cgroups()
        finally:
            with self._lock:
                shutil.rmtree(self._root, ignore_errors=True)
                self._root = None
                self._procs.clear()
                self._stopped.clear()
            if self._id_lock is not None:
                self._id_lock.close()  # releases the block of job ids
                self._id_lock = None

    # -- munge -------------------------------------------------------------------------------

    def _start_munge(self) -> Path | None:
        """Our own munged when possible; the system one (None: Slurm's default socket) else."""
        key = self.root / "etc" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        sock = self.root / "run" / "munge.socket"
        self._spawn(
            "munged",
            [
                "munged",
                "--foreground",
                f"--socket={sock}",
                f"--key-file={key}",
                f"--pid-file={self.root / 'run' / 'munged.pid'}",
                f"--seed-file={self.root / 'run' / 'munged.seed'}",
                f"--log-file={self.log_dir / 'munged.log'}",
            ],
        )
        own_error = self._poll(lambda: self._munge_works(sock), 10.0, "munged")
        if own_error is None:
            return sock
        self._terminate("munged")
        if self._munge_works(None):
            return None
        raise ClusterUnavailable(f"{own_error}, and no system munged answers either")

    def _munge_works(self, sock: Path | None) -> bool:
        if "munged" in self._procs and not self._alive("munged"):
            raise ClusterUnavailable("munged exited at start")
        socket_args = [f"--socket={sock}"] if sock else []
        try:
            credential = subprocess.run(
                ["munge", "--no-input", *socket_args], capture_output=True, check=True, timeout=5
            ).stdout
            subprocess.run(
                ["unmunge", *socket_args],
                input=credential,
                capture_output=True,
                check=True,
                timeout=5,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            return False
        return True

    def _remove_cgroups(self) -> None:
        """slurmd leaves its empty `slurm_<node>` cgroups behind; remove them, deepest first."""
        for hierarchy in CGROUP_ROOT.iterdir() if CGROUP_ROOT.is_dir() else ():
            for node in self.node_names:
                top = hierarchy / f"slurm_{node}"
                if top.is_dir():
                    for directory in sorted(top.rglob("*"), key=lambda p: len(p.parts), reverse=True):
                        if directory.is_dir():
                            with contextlib.suppress(OSError):
                                directory.rmdir()
                    with contextlib.suppress(OSError):
                        top.rmdir()

    # -- accounting --------------------------------------------------------------------------

    def _start_accounting(self) -> int | None:
        """MariaDB and slurmdbd in this cluster's directory; slurmdbd's port, or None without
        accounting. Everything runs as root: `--user=root` lets mariadbd do so."""
        missing = missing_accounting()
        if self.want_accounting is False or (self.want_accounting is None and missing):
            return None
        if missing:
            raise ClusterUnavailable(
                f"accounting needs {', '.join(missing)} (Debian: apt-get install mariadb-server slurmdbd)"
            )
        db = self.root / "db"
        db.mkdir()
        # A MariaDB server removes the `#sql…` temporary tables it finds in its tmpdir when it
        # starts; sharing /tmp, one cluster's starting server deleted another's tables halfway
        # through mariadb-install-db ("Unknown table 'mysql.tmp_user_sys'").
        tmp = self.root / "dbtmp"
        tmp.mkdir()
        sock = self.root / "run" / "mysqld.sock"
        sql_port, dbd_port = self.spare_ports(2)
        installed = subprocess.run(
            [
                "mariadb-install-db",
                "--no-defaults",
                f"--datadir={db}",
                f"--tmpdir={tmp}",
                "--user=root",
                "--skip-test-db",
                "--auth-root-authentication-method=normal",
            ],
            capture_output=True,
            check=False,
            timeout=self._start_timeout,
            cwd=self.root,
        )
        if installed.returncode != 0:
            output = (installed.stdout + installed.stderr).decode(errors="replace").strip()
            raise ClusterUnavailable(f"mariadb-install-db failed (exit {installed.returncode}):\n{output}")
        self._spawn(
            "mariadbd",
            [
                "mariadbd",
                "--no-defaults",
                f"--datadir={db}",
                f"--tmpdir={tmp}",
                f"--socket={sock}",
                f"--port={sql_port}",
                "--bind-address=127.0.0.1",
                "--user=root",
                f"--pid-file={self.root / 'run' / 'mysqld.pid'}",
                f"--log-error={self.log_dir / 'mariadbd.log'}",
                # only this cluster's slurmdbd talks to it, over 127.0.0.1: no users, no passwords
                "--skip-grant-tables",
                "--innodb-buffer-pool-size=32M",
                "--skip-log-bin",
            ],
        )
        error = self._poll(lambda: self._port_open(sql_port, "mariadbd"), 60.0, "mariadbd")
        if error:
            raise ClusterUnavailable(error)
        conf = self.root / "etc" / "slurmdbd.conf"
        auth_info = f"AuthInfo=socket={self._munge_socket}\n" if self._munge_socket else ""
        conf.write_text(
            f"""\
AuthType=auth/munge
{auth_info}DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort={dbd_port}
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort={sql_port}
StorageUser=root
StorageLoc=slurm_acct_db
PidFile={self.root / "run" / "slurmdbd.pid"}
LogFile={self.log_dir / "slurmdbd.log"}
DebugLevel=info
""",
            encoding="utf-8",
        )
        conf.chmod(0o600)  # slurmdbd refuses a configuration others may read (it holds StoragePass)
        # slurmdbd finds slurmdbd.conf beside the slurm.conf that SLURM_CONF names
        self._spawn("slurmdbd", ["slurmdbd", "-D"])
        error = self._poll(lambda: self._port_open(dbd_port, "slurmdbd"), 60.0, "slurmdbd")
        if error:
            raise ClusterUnavailable(error)
        return dbd_port

    def _port_open(self, port: int, daemon: str) -> bool:
        if not self._alive(daemon):
            raise ClusterUnavailable(f"{daemon} exited at start")
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    def _register_accounting(self) -> None:
        """The cluster, a test account with the root user in it, and a test QOS, as a site
        administrator would add them (before slurmctld starts, so it finds its cluster)."""
        for argv in (
            ["sacctmgr", "-i", "add", "cluster", "jobctest"],
            ["sacctmgr", "-i", "add", "qos", TEST_QOS],
            ["sacctmgr", "-i", "add", "account", TEST_ACCOUNT, "Description=jobc tests", "Organization=jobc"],
            ["sacctmgr", "-i", "add", "user", "root", f"Account={TEST_ACCOUNT}", f"QOS=normal,{TEST_QOS}"],
        ):
            done = self.run(*argv, check=False, timeout=60, cwd=self.root)
            if done.returncode != 0 and "nothing new added" not in (done.stdout + done.stderr).lower():
                why = done.stderr.strip() or done.stdout.strip()
                raise ClusterUnavailable(f"{' '.join(argv)} failed: {why}")
        self.accounting = True

    # -- configuration -----------------------------------------------------------------------

    def _make_gpu_files(self, node: str, gpus: int) -> tuple[Path, ...]:
        directory = self.root / "dev" / node
        directory.mkdir(parents=True)
        files = []
        for index in range(gpus):
            path = directory / f"nvidia{index}"
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(NVIDIA_MAJOR, index))
            files.append(path)
        return tuple(files)

    def _write_config(self, ctld_port: int, dbd_port: int | None) -> None:
        etc = self.root / "etc"
        (etc / "plugstack.conf").write_text("", encoding="utf-8")  # no system SPANK plugins
        (etc / "slurm.conf").write_text(self._slurm_conf(ctld_port, dbd_port), encoding="utf-8")
        (etc / "gres.conf").write_text(self._gres_conf(), encoding="utf-8")
        if self.cgroups:
            (etc / "cgroup.conf").write_text(
                "CgroupPlugin=cgroup/v1\nCgroupAutomount=no\nConstrainRAMSpace=yes\nConstrainSwapSpace=no\n",
                encoding="utf-8",
            )

    def _slurm_conf(self, ctld_port: int, dbd_port: int | None) -> str:
        root = self.root
        auth_info = f"AuthInfo=socket={self._munge_socket}\n" if self._munge_socket else ""
        nodes = "".join(
            f"NodeName={node.name} NodeHostname={self.hostname} NodeAddr=127.0.0.1"
            f" Port={node.port} CPUs={node.shape.cpus} RealMemory={node.shape.memory_mb}"
            + (f" Gres={node.shape.gres()}" if node.shape.gpus else "")
            + (f" Features={','.join(node.shape.features)}" if node.shape.features else "")
            + " State=UNKNOWN\n"
            for node in self._nodes
        )
        if self.cgroups:
            # memory cgroups: a step over its memory request is killed by the kernel's OOM killer
            # inside the step's cgroup, which slurmstepd reports as OUT_OF_MEMORY
            limits = (
                "ProctrackType=proctrack/cgroup\nTaskPlugin=task/cgroup\n"
                "SelectTypeParameters=CR_Core_Memory\nDefMemPerNode=512\n"
            )
        else:
            limits = (
                "# No cgroups here: track processes through /proc and bind nothing.\n"
                "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectTypeParameters=CR_Core\n"
            )
        partitions = "".join(
            f"PartitionName={part.name} Nodes={','.join(self._partition_nodes(part))}"
            f" Default={'YES' if part.name == self.partition else 'NO'} {part.options} State=UP\n"
            for part in self.partitions
        )
        if dbd_port is None:
            accounting = "AccountingStorageType=accounting_storage/none\n"
        else:
            accounting = (
                "AccountingStorageType=accounting_storage/slurmdbd\n"
                "AccountingStorageHost=127.0.0.1\n"
                f"AccountingStoragePort={dbd_port}\n"
            )
            if self._munge_socket:
                # the munge socket for talking to slurmdbd (AuthInfo covers only the cluster's own)
                accounting += f"AccountingStoragePass={self._munge_socket}\n"
        return f"""\
ClusterName=jobctest
FirstJobId={self.first_job_id}
MaxJobId={self.first_job_id + JOB_ID_BLOCK - 1}
SlurmctldHost={self.hostname}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
{auth_info}StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool/%n
SlurmctldPidFile={root}/run/slurmctld.pid
SlurmdPidFile={root}/run/slurmd-%n.pid
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig={root}/etc/plugstack.conf
MailProg=/bin/true
{limits}SelectType=select/cons_tres
# PMIx cannot serve several slurmd on one host.
MpiDefault=none
SwitchType=switch/none
GresTypes=gpu
{accounting}JobCompType=jobcomp/none
# sacct's states, exit codes and times come from slurmctld; nothing polls the tasks' memory
JobAcctGatherType=jobacct_gather/none
# The machine has fewer cores than the nodes declare.
SlurmdParameters=config_overrides
ReturnToService=2
JobRequeue=1
# Finished jobs stay visible to `scontrol show job` (for clusters without slurmdbd) for
# longer than any test waits on them.
MinJobAge=300
KillWait=5
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_interval=2,bf_interval=1
{nodes}{partitions}{self.extra_conf}"""

    def _partition_nodes(self, part: PartitionConf) -> list[str]:
        return [n.name for n in self._nodes if not part.prefixes or n.shape.prefix in part.prefixes]

    def _gres_conf(self) -> str:
        lines = []
        for node in self._nodes:
            if node.gpu_files:
                last = len(node.gpu_files) - 1
                directory = node.gpu_files[0].parent
                kind = f" Type={node.shape.gpu_type}" if node.shape.gpu_type else ""
                lines.append(f"NodeName={node.name} Name=gpu{kind} File={directory}/nvidia[0-{last}]\n")
        return "".join(lines)

    def spare_ports(self, count: int) -> list[int]:
        """Ports of this cluster's own range not handed out before and free now: safe from the
        other clusters on this host (a job's fixed MASTER_PORT, a daemon's port)."""
        ports = block_ports(self.first_job_id, count, after=self._last_port)
        self._last_port = ports[-1]
        return ports

    # -- processes ---------------------------------------------------------------------------

    def daemon_env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(_OUTER_SLURM_PREFIXES)}
        if self._root is not None:
            env["SLURM_CONF"] = str(self.conf)
        return env

    def _spawn(self, name: str, argv: list[str]) -> None:
        # A daemon dies with the test process even if that is killed before teardown.
        if shutil.which("setpriv"):
            argv = ["setpriv", "--pdeathsig", "KILL", "--", *argv]
        with (self.log_dir / f"{name}.out").open("ab") as out:  # a restarted daemon after its last words
            self._procs[name] = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.daemon_env(),
                cwd=self.root,
                start_new_session=True,  # a ^C in the terminal must not hit them before teardown
            )

    def _alive(self, name: str) -> bool:
        proc = self._procs.get(name)
        return proc is not None and proc.poll() is None

    def _terminate(self, name: str, timeout: float = 10.0) -> None:
        proc = self._procs.get(name)
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _cancel_everything(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            for part in self.partitions:
                self.run("scancel", f"--partition={part.name}", check=False, timeout=10)
            self._poll(
                lambda: not self.run("squeue", "-h", "-o", "%i", timeout=10).stdout.strip(),
                15.0,
                "jobs to end",
            )

    def _kill_strays(self) -> None:
        """SIGKILL what the daemons left: slurmstepd detaches from slurmd, and job tasks from
        both. They are found by this cluster's directory in their environment (SLURM_CONF)."""
        for _ in range(10):
            pids = cluster_processes(self.root)
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)

    def processes(self) -> list[int]:
        """Live processes that belong to this cluster (daemons, job steps, tasks)."""
        return cluster_processes(self.root)

    # -- polling -----------------------------------------------------------------------------

    @staticmethod
    def _poll(ready: Callable[[], bool], timeout: float, what: str) -> str | None:
        """Call `ready` until true; an error text on time-out, None on success."""
        deadline = time.monotonic() + timeout
        delay = 0.05
        while True:
            if ready():
                return None
            if time.monotonic() > deadline:
                return f"timed out after {timeout:.0f}s waiting for {what}"
            time.sleep(delay)
            delay = min(delay * 1.5, 0.5)

    def wait_idle(self, timeout: float = 300.0) -> None:
        """Wait until every node is idle (after start, or after other tests' jobs). Five minutes,
        not 30 s: on a busy machine the daemons may take that long to start and register, and a
        daemon that exits fails the wait at once."""

        def idle() -> bool:
            for name, proc in self._procs.items():
                if proc.poll() is not None:
                    raise ClusterUnavailable(f"{name} exited with {proc.returncode}")
            states = self.node_states()
            return len(states) == self.node_count and set(states.values()) == {"idle"}

        error = self._poll(idle, timeout, "idle nodes")
        if error:
            raise TimeoutError(f"{error}; nodes: {self._node_states_or_error()}")

    def node_states(self) -> dict[str, str]:
        result = self.run("sinfo", "-h", "-N", "-o", "%N %T", check=False)
        return dict(line.split(None, 1) for line in result.stdout.splitlines() if " " in line)

    def _node_states_or_error(self) -> str:
        try:
            return str(self.node_states())
        except subprocess.SubprocessError as error:
            return str(error)

    # -- client commands ---------------------------------------------------------------------

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """Environment for sbatch/srun/scontrol/… against this cluster: this process's
        environment without any enclosing Slurm job's variables, plus SLURM_CONF."""
        env = self.daemon_env()
        env["SLURM_CONF"] = str(self.conf)
        env.update(extra or {})
        return env

    def run(
        self,
        *argv: str,
        check: bool = True,
        timeout: float = 60.0,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run a Slurm client command against this cluster, capturing text output."""
        result = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            env=self.env(env),
            cwd=cwd or self.workdir,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if check and result.returncode != 0:
            raise subprocess.CalledProcessError(result.returncode, result.args, result.stdout, result.stderr)
        return result

    def sbatch(self, script_path: Path | str, *args: str, cwd: Path | None = None) -> int:
        """Submit a batch script (options in `args` come before it) and return the job id.

        The job runs in `cwd` (default: `workdir`) unless `args` say otherwise."""
        result = self.run("sbatch", "--parsable", *args, str(script_path), cwd=cwd)
        return int(result.stdout.strip().split(";", 1)[0])

    def job(self, job_id: int) -> dict[str, str]:
        """The job's `scontrol show job` record ({} once Slurm has forgotten it). The client gets
        run()'s minute, not 10 s: a busy slurmctld answers late, and late is not wrong."""
        result = self.run("scontrol", "-o", "show", "job", str(job_id), check=False)
        if result.returncode != 0 or not result.stdout.strip():
            return {}
        return parse_scontrol_record(result.stdout.splitlines()[0])

    def state(self, job_id: int) -> str:
        """JobState without flags (`CANCELLED by 0` → CANCELLED); "" when unknown."""
        raw = self.job(job_id).get("JobState", "")
        return raw.split()[0] if raw else ""

    def wait_for(
        self,
        job_id: int,
        ready: Callable[[dict[str, str]], bool],
        timeout: float = 60.0,
        what: str = "job",
    ) -> dict[str, str]:
        """Poll the job's record until `ready(record)`; raises TimeoutError with the record
        and the daemon logs."""
        record: dict[str, str] = {}

        def check() -> bool:
            nonlocal record
            record = self.job(job_id)
            return bool(record) and ready(record)

        error = self._poll(check, timeout, f"{what} {job_id}")
        if error:
            raise TimeoutError(f"{error}; last record: {record}\n{self.logs()}")
        return record

    def wait(self, job_id: int, timeout: float = 60.0) -> str:
        """Wait until the job ends for good and return its final state (COMPLETED, FAILED …)."""
        record = self.wait_for(
            job_id,
            lambda job: job.get("JobState", "").split(" ")[0] in FINAL_STATES,
            timeout,
            "end of job",
        )
        return record["JobState"].split(" ")[0]

    def release(self, job_id: int) -> None:
        """Let a requeued job start: Slurm holds it PENDING (reason BeginTime) for the
        credential lifetime (120 s by default) after a requeue.

        Not `StartTime=now`: slurmd refuses a job whose launch credential is not newer, in
        whole seconds, than the revocation made by the requeue ("Job credential revoked"), so a
        restart within the same second fails the job. One second later is always safe."""
        self.run("scontrol", "update", f"JobId={job_id}", "StartTime=now+1")

    def kill_slurmd(self, node: str) -> None:
        """SIGKILL one node's slurmd, as a crashed node would go silent: its job steps run on
        (slurmstepd detaches), but the controller hears nothing from the node any more."""
        with self._lock:
            self._stopped.add(node)
            proc = self._procs[f"slurmd-{node}"]
        proc.kill()
        proc.wait()

    def kill_node(self, node: str) -> list[int]:
        """The node dies: its slurmd, its slurmstepds and every process of its job steps are
        SIGKILLed (kill_slurmd alone leaves the steps running, which a dead machine would not).
        The slurmstepds are found by the sockets they hold in the node's spool directory, the
        tasks (and a batch script with its srun) by SLURMD_NODENAME in their environment. Rounds
        repeat until none is left alive, so a process one of them started meanwhile dies too.
        Returns the pids killed besides slurmd."""
        self.kill_slurmd(node)
        killed: set[int] = set()
        for _ in range(50):
            victims = self._node_processes(node) - killed
            live = {pid for pid in victims if not _zombie(pid)}
            if not live:
                break
            for pid in sorted(live):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            killed |= live
            time.sleep(0.1)
        return sorted(killed)

    def _node_processes(self, node: str) -> set[int]:
        spool = f"{self.root}/spool/{node}/".encode()
        inodes = set()
        with contextlib.suppress(OSError):
            for line in Path("/proc/net/unix").read_bytes().splitlines()[1:]:
                fields = line.split()
                if len(fields) >= 8 and fields[7].startswith(spool):
                    inodes.add(f"socket:[{fields[6].decode()}]")
        found = set(_pids_with_environ(f"SLURMD_NODENAME={node}\0".encode()))
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and inodes:
                with contextlib.suppress(OSError):
                    if any(os.readlink(fd) in inodes for fd in (entry / "fd").iterdir()):
                        found.add(int(entry.name))
        return found & set(self.processes())

    def restart_slurmd(self, node: str) -> None:
        """Start a node's slurmd again (after kill_slurmd); ReturnToService=2 brings it back."""
        with self._lock:
            if not self._alive(f"slurmd-{node}"):
                self._spawn(f"slurmd-{node}", ["slurmd", "-D", "-N", node, "-f", str(self.conf)])
            self._stopped.discard(node)

    def cancel(self, *job_ids: int) -> None:
        if job_ids:
            self.run("scancel", *map(str, job_ids), check=False)

    # -- diagnostics -------------------------------------------------------------------------

    def logs(self, lines: int = 60) -> str:
        """The last lines of every daemon log, for failure reports."""
        if self._root is None or not self.log_dir.is_dir():
            return "(no logs)"
        sections = []
        for path in sorted(self.log_dir.iterdir()):
            if path.stat().st_size:
                sections.append(f"==> {path.name} <==\n{_tail(path, lines)}")
        return "\n".join(sections) or "(logs empty)"


def _stop_order(name: str) -> int:
    return {"slurmdbd": 1, "mariadbd": 2, "munged": 3}.get(name, 0)


def remove_abandoned_clusters(base: Path) -> None:
    """Kill the processes and delete the directories of clusters whose owner has died."""
    for root in base.glob(f"{ROOT_PREFIX}*"):
        try:
            owner = int((root / OWNER_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not ours, or still being created
        if Path(f"/proc/{owner}").exists():
            continue
        for pid in cluster_processes(root):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)


def _zombie(pid: int) -> bool:
    """Whether the process has ended and waits only to be reaped (or is gone)."""
    try:
        stat_ = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat_.rpartition(")")[2].split()[:1] == ["Z"]


def cluster_processes(root: Path) -> list[int]:
    """Processes of the cluster in `root`: their environment names it (SLURM_CONF)."""
    marker = f"{root}/".encode()
    return [pid for pid in _pids_with_environ(marker) if pid != os.getpid()]


def _pids_with_environ(marker: bytes) -> Iterator[int]:
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:  # gone, or a kernel thread
            continue
        if marker in environ:
            yield int(entry.name)
