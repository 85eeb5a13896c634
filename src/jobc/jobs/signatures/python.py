"""Python's own failures: tracebacks (read by triage's traceback reader), import errors and
exception lines that arrive without their traceback. Formats from CPython's traceback module."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "P101",
        "import-error",
        "import_error",
        "cause",
        ("ModuleNotFoundError", "ImportError", "No module named"),
        re.compile(
            r"(?P<what>(?:ModuleNotFoundError|ImportError): .{0,300}|No module named (?P<module>\S{1,200}))"
        ),
        "a module that cannot be imported: a missing package or a wrong environment",
        "ModuleNotFoundError: No module named 'flash_attn'",
        "Imported flash_attn successfully",
        "CPython (Python/import.c)",
        ("what", "module"),
    ),
    Signature(
        "P102",
        "missing-script",
        "missing_program",
        "cause",
        ("can't open file", "Errno 2"),
        re.compile(r"can't open file '(?P<command>[^']{1,500})': \[Errno 2\]"),
        "the Python interpreter not finding the program file",
        "/usr/bin/python3: can't open file '/home/me/trian.py': [Errno 2] No such file or directory",
        "/usr/bin/python3: opened file '/home/me/train.py'",
        "CPython (Modules/main.c)",
        ("command",),
    ),
    Signature(
        "P108",
        "dynamic-linker-error",
        "import_error",
        "cause",
        ("symbol lookup error", "error while loading shared libraries", "' not found (required by"),
        re.compile(
            r"(?P<what>symbol lookup error: [^\n]{1,300}?: undefined symbol: (?P<symbol>[^\s]{1,200})|"
            r"error while loading shared libraries: (?P<library>[^\s:]{1,200}): [^\n]{1,200}|"
            r"version `[^'\n]{1,80}' not found \(required by [^)\n]{1,300}\))"
        ),
        "the dynamic linker unable to load a program or a library it opens (a shared library missing, "
        "built for another version, or missing a symbol): the process ends with 127 before or while "
        "loading it",
        "/usr/bin/python: symbol lookup error: /opt/slurm/lib64/slurm/auth_munge.so: undefined symbol: "
        "slurm_debug",
        "ldconfig: /usr/lib/libfoo.so.1 is not a symbolic link",
        "glibc's ld.so (elf/dl-error-skeleton.c: `%s: %s: %s`, elf/dl-lookup.c: `undefined symbol: %s`, "
        "elf/rtld.c: `error while loading shared libraries`)",
        ("what", "symbol", "library"),
    ),
    Signature(
        "P105",
        "dataloader-worker-killed",
        "host_oom",
        "cause",
        ("DataLoader worker",),
        re.compile(
            r"DataLoader worker \(pid(?:\(s\))? (?P<pid>[0-9, ]{1,200})\) "
            r"(?:is killed by signal: (?P<signal>[A-Za-z ]{1,40})|exited unexpectedly)"
        ),
        "a data-loader worker killed by a signal: SIGKILL is host memory's OOM killer; another signal is a "
        "signal finding (SIGBUS: shared memory, /dev/shm, ran out; SIGTERM: the teardown's)",
        "RuntimeError: DataLoader worker (pid 31337) is killed by signal: Killed.",
        "DataLoader worker (pid 31337) started",
        "PyTorch (torch/utils/data/_utils/signal_handling.py)",
        ("signal",),
    ),
    Signature(
        "P110",
        "dataloader-worker-crashed",
        "signal",
        "cause",
        ("encountered in worker",),
        re.compile(
            # torch's handler in each data-loader worker, before the worker dies of the signal; the
            # main process then says `DataLoader worker (pid N) is killed by signal: Bus error` (P105)
            r"(?:ERROR: )?Unexpected (?P<signal>bus error|segmentation fault|floating-point exception) "
            r"encountered in worker"
        ),
        "a data-loader worker's own report of the signal that kills it: a bus error is shared memory "
        "(/dev/shm) running out as the worker writes a batch there",
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
        "shared memory (shm).",
        "WARNING: no bus error encountered in worker 3 after 1000 batches",
        "PyTorch (torch/csrc/DataLoader.cpp, the workers' SIGBUS/SIGSEGV/SIGFPE handlers)",
        ("signal",),
    ),
    Signature(
        "P103",
        "interrupted",
        "signal",
        "symptom",
        ("KeyboardInterrupt", "SystemExit"),
        re.compile(r"^(?P<what>KeyboardInterrupt|SystemExit)\b"),
        "a rank stopped by SIGINT or sys.exit during a teardown: a symptom",
        "KeyboardInterrupt",
        "Press Ctrl-C (KeyboardInterrupt) to stop",
        "CPython",
        ("what",),
    ),
    Signature(
        "P106",
        "cause-is-elsewhere",
        "exception",
        "symptom",
        (
            "See root cause above",
            "See stack trace",
            "initialization failed due to an exception",
            "check the stack trace above for the root cause",
            "Horovod has been shut down",
        ),
        re.compile(
            r"(?P<what>See root cause above|See stack trace above for root cause|"
            r"See stack trace for root cause|"
            # vLLM's executor, of a worker's error it got back: `Worker failed with error '…',
            # please check the stack trace above for the root cause`
            r"[Pp]lease check the stack trace above for the root cause|"
            r"initialization failed due to an exception in a background process|"
            # Horovod's background loop, ended by another rank: its exception, or a collective
            # asked after that rank had finished (a program's error either way, not a wait)
            r"Horovod has been shut down\. This was caused by an exception on one of the ranks)"
        ),
        "a process saying it failed because another one did (vLLM's engine and its workers, Horovod "
        "shut down by another rank): the cause is in that other process's output",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
        "RuntimeError: Engine core initialization failed: out of disk",
        "vLLM (vllm/v1/engine/utils.py, vllm/v1/executor/multiproc_executor.py); Horovod "
        "(common/operations.cc)",
        ("what",),
    ),
    Signature(
        "P107",
        "disk-full",
        "disk_full",
        "cause",
        (
            "No space left on device",
            "Disk quota exceeded",
            "PytorchStreamWriter failed writing",
            # Go's errno strings are lower case (Apptainer's, Singularity's, Docker's, containerd's)
            ": no space left on device",
            ": disk quota exceeded",
        ),
        re.compile(
            r"(?P<what>(?:\[Errno (?P<errno>28|122)\] )?(?:No space left on device|Disk quota exceeded)|"
            r"(?<=: )(?:no space left on device|disk quota exceeded)\b|"
            r"PytorchStreamWriter failed writing file (?P<file>[^:\s]{1,300}): file write failed)"
        ),
        "a write failing because the file system is full or the quota is used up (ENOSPC, EDQUOT), "
        "or torch.save failing to write a checkpoint's record (what a full disk looks like there)",
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 88, in <module>\n'
        "    torch.save(state, path)\n"
        "RuntimeError: [enforce fail at inline_container.cc:778] . PytorchStreamWriter failed writing "
        "file data.pkl: file write failed",
        "Checking free space on device /scratch before saving",
        "CPython (errno strings of the C library: ENOSPC, EDQUOT); Go's syscall errno strings, lower case "
        "after the failed call (`write /tmp/rootfs-1/archive-2: no space left on device`, as Apptainer and "
        "Singularity print them after `FATAL:`); PyTorch (caffe2/serialize/inline_container.cc)",
        ("what", "errno", "file"),
    ),
    Signature(
        "P109",
        "argparse-refused",
        # (the program's own Python refusing: argparse raises SystemExit(2) after saying why)
        "exception",
        "cause",
        (": error: ",),
        re.compile(
            # argparse's `%(prog)s: error: %(message)s` (after its usage lines), for the messages its
            # parser itself writes: the program (torchrun, a training script, conda) refused its
            # command line and exited with 2 before doing anything
            r"^\s{0,8}(?P<command>[^\s:][^:\n]{0,200}?): error: (?P<what>"
            r"(?:argument [^\n]{1,200}?: )?(?:invalid choice: |unrecognized arguments: |"
            r"the following arguments are required: |ambiguous option: |not allowed with argument |"
            r"invalid [a-z_]{1,40} value: |expected (?:one|at most one|at least one|[0-9]{1,3}) arguments?)"
            r"[^\n]{0,500}|one of the arguments [^\n]{1,300} is required)"
        ),
        "a program refusing its command line, in argparse's words (an option it does not have, a "
        "choice it does not offer, an argument missing): it exits with 2 and runs nothing",
        "usage: conda [-h] [-v] [--no-plugins] [-V] COMMAND ...\n"
        "conda: error: argument COMMAND: invalid choice: 'ativate' (choose from activate, clean, create)",
        "train.py: error counts per epoch: 0 invalid choices seen",
        "CPython (Lib/argparse.py: `%(prog)s: error: %(message)s`, with its parser's messages: "
        "`unrecognized arguments: %s`, `argument %s: invalid choice: %r`, `the following arguments are "
        "required: %s`, `ambiguous option: %s could match %s`, `expected one argument`, `invalid %s value`)",
        ("command", "what"),
        strength=3,
    ),
    Signature(
        "P111",
        "xla-device-exception",
        "exception",
        "cause",
        ("Exception in device=",),
        re.compile(
            # torch_xla's multiprocessing (xmp.spawn) printing the exception one device's process
            # raised, before the process exits; TensorFlow's `N root error(s) found.` may follow,
            # with the errors on the lines after it
            r"^Exception in device=(?P<device>[A-Za-z]{2,8}:[0-9]{1,6}): (?P<message>[^\n]{1,2000})"
        ),
        "an exception one device's process raised under torch_xla's multiprocessing, as its spawn "
        "wrapper prints it (the device's ordinal is local to its host, not a global rank)",
        "Exception in device=TPU:3: Invalid argument: Computation requires more parameters (546) than "
        "supported (limit 236).",
        "Exception in device list: none found, falling back to CPU",
        "torch_xla (torch_xla/distributed/xla_multiprocessing.py, _mp_start_fn)",
        ("device", "message"),
        strength=3,
    ),
    Signature(
        "P112",
        "hydra-error",
        "exception",
        "cause",
        ("HYDRA_FULL_ERROR=1 for a complete stack trace",),
        re.compile(
            # Hydra's run_and_report: the program raised, and Hydra printed the error without its own
            # frames, then this line. After a traceback the exception line above says it; alone
            # (a compact error: an override it cannot parse, a config it cannot find or compose) the
            # message is the block of lines just above, which the reader finds
            r"(?P<what>Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace\.)"
        ),
        "a program run by Hydra (NeMo, verl, Lightning templates) stopped on an error Hydra reported: "
        "an override it cannot parse, a config it cannot find or compose, or the program's exception "
        "above (its traceback without Hydra's frames)",
        "Ambiguous value for argument 'model.data.splits_string=980,10,10'\n"
        "1. To use it as a list, use key=[value1,value2]\n\n"
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.",
        "export HYDRA_FULL_ERROR=1",
        "Hydra (hydra/_internal/utils.py, run_and_report)",
        ("what",),
        strength=3,
    ),
    Signature(
        "P113",
        "vllm-worker-method-error",
        "exception",
        "cause",
        ("This might cause deadlock in distributed execution",),
        re.compile(
            # vLLM's worker wrapper (`execute_method`) logs this with the exception's traceback after
            # it, then raises it: the traceback's exception line says what; a paste cut before it
            # still says that a worker's method raised
            r"(?P<what>Error executing method '?(?P<method>[A-Za-z_][A-Za-z0-9_]{0,80})'?\. "
            r"This might cause deadlock in distributed execution\.)"
        ),
        "a vLLM worker's method raising (its engine's call to every worker, such as init_device or "
        "load_model): the exception in the traceback after it is the cause",
        "ERROR 04-17 09:00:33 ray_utils.py:44] Error executing method init_device. This might cause "
        "deadlock in distributed execution.",
        "INFO 04-17 09:00:30 ray_utils.py:40] Executing method init_device on all workers.",
        "vLLM (vllm/executor/ray_utils.py and vllm/worker/worker_base.py, execute_method: "
        "`Error executing method %r. This might cause deadlock in distributed execution.`)",
        ("what", "method"),
        strength=2,  # (which exception is the traceback's to say)
    ),
    Signature(
        "P114",
        "paddle-reader-failed",
        "exception",
        "cause",
        ("reader thread failed(",),
        re.compile(
            # Paddle's DataLoader logs its reader thread's error before re-raising it in the
            # trainer: `DataLoader reader thread failed({error}) to read data from workers' result
            # queue.`, the error in Paddle's own form, `(Type) message` (`(Unavailable) Memory map
            # failed when rebuild shared memory.`: /dev/shm ran out)
            r"DataLoader reader thread failed\((?P<what>\([A-Z][A-Za-z]{2,40}\) [^\n]{1,300})"
        ),
        "PaddlePaddle's DataLoader reader thread failing on an error of its workers (shared memory "
        "that ran out, a sample that cannot be read): the trainer raises it",
        "ERROR:root:DataLoader reader thread failed((Unavailable) Memory map failed when rebuild shared "
        "memory.",
        "ERROR:root:DataLoader reader thread raised an exception!",
        "PaddlePaddle (python/paddle/io/dataloader/dataloader_iter.py: `DataLoader reader thread "
        "failed({}) to read data from workers' result queue.`; its errors' `(Type) message` form)",
        ("what",),
    ),
    Signature(
        "P104",
        "exception-line",
        "exception",
        "cause",
        ("Error", "Exception", "Failure"),
        re.compile(
            r"^(?P<type>(?:[A-Za-z_][A-Za-z0-9_]{0,100}+\.){0,20}+[A-Za-z_][A-Za-z0-9_]{0,100}+)"
            r"(?::(?P<message>.{0,2000})|$)"
        ),
        "an exception line (`Type: message`), with or without its traceback; inside a traceback it "
        "closes it and the raising frame and the program's own last frame are shown",
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 42, in <module>\n'
        "    main()\n"
        '  File "/home/me/train.py", line 30, in main\n'
        "    batch = next(it)\n"
        "ValueError: bad sample in shard 17",
        "Error rate: 0.1% of samples skipped",
        "CPython (Lib/traceback.py)",
        ("type", "message"),
    ),
)

#: TensorFlow's (and XLA's) several errors in one status, `2 root error(s) found.`, with each on a
#: line of its own below it (`  (0) Internal: Invalid system configuration: …`): the first is what
#: failed, where the exception's own line says only how many there were
ROOT_ERRORS = "root error(s) found."
ROOT_ERROR = re.compile(r"\s{0,8}\(0\) (?P<what>[A-Z][A-Za-z ]{1,40}: [^\n]{1,400})")
ROOT_ERROR_LINES = 3

#: The last word of a name that makes it an exception class.
EXCEPTION_SUFFIXES = ("Error", "Exception", "Failure", "Interrupt", "Exit", "Timeout")
#: Python's own base classes, raised as they are (`raise Exception("...")`): exceptions although
#: their names are bare suffixes, which alone ("Error: ...") are a log's wording, not a class.
BUILTIN_BASES = frozenset({"Exception", "BaseException"})
