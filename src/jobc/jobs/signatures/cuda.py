"""CUDA and the GPU: out of memory, illegal accesses and hardware errors, C++ aborts, crashes.
Formats from PyTorch's c10/cuda (CUDA error messages), the caching allocator's OutOfMemoryError,
the NVIDIA driver's Xid reports, libstdc++'s terminate handler and CPython's faulthandler."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "G301",
        "cuda-out-of-memory",
        "cuda_oom",
        "cause",
        ("CUDA", "OutOfMemory", "CUBLAS_STATUS_ALLOC", "out of memory"),
        re.compile(
            # (torch's `OutOfMemoryError`, bare or as torch's and torch.cuda's; not the JVM's
            # `java.lang.OutOfMemoryError: Java heap space`, the host's memory)
            r"(?P<what>CUDA out of memory|(?:(?<![\w.])|(?<=torch\.)|(?<=cuda\.))OutOfMemoryError|"
            r"CUDA error: out of memory|"
            r"CUBLAS_STATUS_ALLOC_FAILED|"
            # HIP's error code (AMD GPUs), as a program's own check prints it: `GPUassert:
            # hipErrorOutOfMemory src/neighbor_lists_gpu.cu 336`
            r"HIP out of memory|\bhipErrorOutOfMemory\b|cuda runtime error \(2\) : out of memory)"
        ),
        "the GPU running out of memory (the caching allocator, cuBLAS, or a CUDA call; on an AMD GPU "
        "torch's ROCm build and HIP's error code `hipErrorOutOfMemory`)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 79.15 GiB of which 1.12 GiB is free.",
        "max_split_size_mb tuning avoids CUDA memory fragmentation",
        "PyTorch (c10/cuda/CUDACachingAllocator.cpp); HIP (hipError_t: hipErrorOutOfMemory, error 2)",
        ("what",),
    ),
    Signature(
        "G309",
        "xla-out-of-memory",
        "cuda_oom",
        "cause",
        ("RESOURCE_EXHAUSTED", "Resource exhausted: Out"),
        # (older XLA spelled the status `Resource exhausted: Out of memory`)
        re.compile(r"(?:RESOURCE_EXHAUSTED|Resource exhausted): (?P<what>Out of memory[^\n]{0,300})"),
        "XLA (JAX, TensorFlow, torch_xla) running out of device memory",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
        "2147483648 bytes.",
        "RESOURCE_EXHAUSTED: Quota exceeded for requests",
        "XLA (xla/pjrt, the BFC allocator's status)",
        ("what",),
    ),
    Signature(
        "G313",
        "tensorflow-out-of-memory",
        "cuda_oom",
        "cause",
        ("OOM when allocating",),
        # TensorFlow's BFC allocator on a GPU; the same words on the CPU's allocator are host memory
        re.compile(
            r"(?:ResourceExhaustedError|Resource exhausted): (?P<what>OOM when allocating tensor"
            r"(?![^\n]{0,300}(?:device:CPU|by allocator cpu))[^\n]{0,300})"
        ),
        "TensorFlow's allocator running out of a GPU's memory for a tensor (`ResourceExhaustedError: "
        "OOM when allocating tensor`, its op kernel's `Resource exhausted: OOM …` warning before it)",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[2,64,400,112,112] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
        "allocator GPU_0_bfc",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
        "shape[8,1024] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu",
        "TensorFlow (core/common_runtime/bfc_allocator.cc, core/framework/op_kernel.cc)",
        ("what",),
    ),
    Signature(
        "G317",
        "paddle-out-of-memory",
        "cuda_oom",
        "cause",
        ("Out of memory error on",),
        # Paddle's allocator on a GPU (and its other devices: XPU, NPU); its `ResourceExhaustedError:`
        # header stands lines above, on a line of its own
        re.compile(
            r"(?P<what>Out of memory error on (?P<kind>GPU|XPU|NPU|MLU) (?P<device>[0-9]{1,4})\. "
            r"Cannot allocate[^\n]{0,300})"
        ),
        "PaddlePaddle's allocator running out of a device's memory (`ResourceExhaustedError:` then "
        "`Out of memory error on GPU 0. Cannot allocate …`)",
        "Out of memory error on GPU 0. Cannot allocate 413.281250MB memory on GPU 0, 23.532227GB memory "
        "has been allocated and available memory is only 123.312500MB.",
        "Please check whether there is any other process using GPU 0.",
        "PaddlePaddle (paddle/fluid/memory/allocation/cuda_allocator.cc)",
        ("what", "device"),
    ),
    Signature(
        "G318",
        "gpu-container-setup-failed",
        "gpu_error",
        "cause",
        ("nvidia-container-cli: ", "Failed to initialize NVML: Driver/library"),
        re.compile(
            # the NVIDIA container toolkit's hook, run as the container starts (docker's `--gpus`,
            # enroot's and pyxis's hook, Apptainer's --nvccli): the GPUs never reach the container;
            # nvidia-smi's own words for the driver's kernel module and libraries disagreeing
            # — but not its work on the image's own files (a file it creates in the container's
            # root, the image's ldconfig): that is the container's start failing (L247)
            r"(?:nvidia-container-cli: |Failed to initialize NVML: (?=Driver/library version mismatch))"
            r"(?P<what>(?:(?:initialization|requirement|detection) error: |"
            r"mount error: (?!file creation failed: )|Driver/library version mismatch)[^\n]{0,300})"
        ),
        "the NVIDIA container toolkit unable to give a container the node's GPUs (the driver not "
        "loaded, its kernel module and libraries at different versions after an upgrade without a "
        "reboot, or an image asking for a newer CUDA than the driver has): the program never started",
        "docker: Error response from daemon: failed to create task for container: … error running "
        "prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
        "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.",
        "nvidia-container-cli: version 1.14.3 (build 2023-10-19)",
        "NVIDIA container toolkit (libnvidia-container: `nvidia-container-cli: %s error: %s`), "
        "nvidia-smi (NVML_ERROR_LIB_RM_VERSION_MISMATCH)",
        ("what",),
        strength=3,
    ),
    Signature(
        "G319",
        "hip-runtime-guarantee",
        "gpu_error",
        "cause",
        ("guarantee(false",),
        re.compile(
            # ROCm's HIP runtime (rocclr) checking a condition it cannot go on without, then abort():
            # `hip_code_object.cpp:120: guarantee(false && "hipErrorNoBinaryForGpu: …")`
            r"guarantee\(false && \"(?P<what>(?:hipError[A-Za-z]{2,60}: )?[^\"\n]{1,300})\"\)"
        ),
        "ROCm's HIP runtime stopping the process on a condition it cannot go on without (most often "
        "hipErrorNoBinaryForGpu: the program's build has no code for this GPU's gfx target); the "
        "process then aborts",
        "/build/hip-rocclr/src/HIP-rocm-4.0.0/rocclr/hip_code_object.cpp:120: guarantee(false && "
        '"hipErrorNoBinaryForGpu: Coudn\'t find binary for current devices!")',
        "hip_code_object.cpp:120: guarantee(true) holds",
        "ROCm (ROCclr's `guarantee(cond, msg)`, hip_code_object.cpp)",
        ("what",),
        strength=3,
    ),
    Signature(
        "G320",
        "ascend-runtime-error",
        "gpu_error",
        "cause",
        ("[FUNC:",),
        re.compile(
            # Huawei CANN's runtime and driver (torch_npu, MindSpore) end each error line with where
            # it was raised, `[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:290]`; the first such
            # line of a block is the device's error, the lines after it its callers'
            r"^\s{0,16}(?P<what>[^\n\[]{0,300}?(?i:fail|error)[^\n]{0,300}?)"
            r"\[FUNC:(?P<func>[A-Za-z0-9_]{1,80})\]\[FILE:[A-Za-z0-9_.]{1,80}\]\[LINE:[0-9]{1,6}\]"
        ),
        "an Ascend NPU's runtime or driver error (CANN, under torch_npu or MindSpore): the device's "
        "own failure, as a CUDA error is a GPU's",
        "        tsd client wait response fail, device response code[1]. unknown device error."
        "[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:290]",
        "        Set device 0 success.[FUNC:SetDevice][FILE:api_impl.cc][LINE:100]",
        "Huawei CANN (its runtime's error lines: `… [FUNC:name][FILE:file.cc][LINE:n]`)",
        ("what", "func"),
    ),
    Signature(
        "G302",
        "cuda-device-assert",
        "gpu_error",
        "cause",
        ("device-side assert", ": block: ["),
        re.compile(
            r"(?P<what>device-side assert triggered|"
            r"\.cu:[0-9]{1,6}: [A-Za-z_][A-Za-z0-9_<>:, ]{0,200}: block: \[[0-9,]{1,40}\], thread: "
            r"\[[0-9,]{1,40}\](?:[^\n]{0,400}Assertion)?|"
            r"\.cu:[0-9]{1,6}: [A-Za-z_][A-Za-z0-9_<>:, ]{0,200}: block: \[[0-9,]{1,40}\], thread:$)"
        ),
        "a device-side assertion in a kernel: a GPU error whose usual cause is the program's (an index "
        "out of range), so its action is to fix the program, not to exclude the node",
        "RuntimeError: CUDA error: device-side assert triggered",
        "compile with TORCH_USE_CUDA_DSA to enable device-side assertions.",
        "PyTorch (c10/cuda/CUDAException.cpp)",
        ("what",),
    ),
    Signature(
        "G303",
        "cuda-error",
        "gpu_error",
        "cause",
        ("CUDA error", "CUDA Error", "cudaError", "HIP error", "CUDA_ERROR_"),
        re.compile(
            # torch built for ROCm says HIP where CUDA builds say CUDA, with the same strings; the
            # driver API's names for the same errors (XLA's StreamExecutor, CuPy, numba: `Failed
            # call to cuDeviceGet: CUDA_ERROR_INVALID_DEVICE: invalid device ordinal`)
            r"(?:(?:CUDA|HIP) [Ee]rror: |(?=CUDA_ERROR_))"
            r"(?P<what>CUDA_ERROR_(?:ILLEGAL_ADDRESS|UNKNOWN|ECC_UNCORRECTABLE|LAUNCH_FAILED|"
            r"MISALIGNED_ADDRESS|ILLEGAL_INSTRUCTION|LAUNCH_TIMEOUT|DEVICE_UNAVAILABLE|NOT_INITIALIZED|"
            r"SYSTEM_NOT_READY|INVALID_PTX|INVALID_DEVICE|NO_DEVICE|SYSTEM_DRIVER_MISMATCH|"
            r"HARDWARE_STACK_ERROR)\b(?:: [a-z][^\n]{0,120})?|"
            r"an illegal memory access was encountered|unknown error|"
            r"uncorrectable ECC error encountered|unspecified launch failure|misaligned address|"
            r"an illegal instruction was encountered|the launch timed out and was terminated|"
            r"(?:all )?CUDA-capable device\(s\) (?:is|are) busy or unavailable|"
            r"system not yet initialized|initialization error|(?:a )?PTX JIT compilation failed|"
            r"invalid device ordinal|no CUDA-capable device is detected|"
            r"CUDA driver version is insufficient for CUDA runtime version)"
        ),
        "a CUDA error from the device or its driver (illegal memory access, ECC, unknown error); "
        "torch on ROCm says `HIP error` with the same words, the driver API its `CUDA_ERROR_` names",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "RuntimeError: CUDA error: device-side assert triggered",
        "PyTorch (c10/cuda/CUDAException.cpp), CUDA runtime error strings; the CUDA driver API's "
        "CUresult names (XLA's StreamExecutor)",
        ("what",),
    ),
    Signature(
        "G310",
        "cuda-init-failed",
        "gpu_error",
        "cause",
        ("CUDA initialization: ",),
        # (Python's UserWarning, or c10's TORCH_WARN from C++: `[W CUDAFunctions.cpp:108] Warning: …`)
        re.compile(r"(?:UserWarning|^Warning|\] Warning): CUDA initialization: (?P<what>[^\n]{1,300})"),
        "torch's warning that CUDA could not be initialised (a broken or missing driver, a GPU the "
        "node cannot reach): only a warning, since a program may run without the GPU, so it is the "
        "weakest of causes; whatever the program raised next is stated and comes first",
        "/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:182: UserWarning: CUDA "
        "initialization: CUDA unknown error - this may be due to an incorrectly set up environment",
        "INFO: CUDA initialization took 2.1 s",
        "PyTorch (torch/cuda/__init__.py, is_available: `CUDA initialization: {e}`; "
        "c10/cuda/CUDAFunctions.cpp's TORCH_WARN)",
        ("what",),
        strength=1,
    ),
    Signature(
        "G314",
        "rocm-queue-abort",
        "gpu_error",
        "cause",
        ("aborting with error",),
        re.compile(
            r"Queue 0x[0-9a-fA-F]{1,16} aborting with error : (?P<what>HSA_STATUS_ERROR_[A-Z_]{1,60})"
        ),
        "the ROCm runtime aborting a GPU queue on an error the device raised (HSA_STATUS_ERROR_EXCEPTION: "
        "a hardware exception; MEMORY_APERTURE_VIOLATION: an illegal address): the process aborts "
        "(SIGABRT) after it",
        ":0:rocdevice.cpp            :2984: 13356666806077 us: [pid:1843  tid:0x7fb7da5c8700] Callback: "
        "Queue 0x7fb7f5800000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation "
        "resulted in a hardware exception. code: 0x1016",
        ":0:rocdevice.cpp            :2984: Callback: Queue 0x7fb7f5800000 created",
        "ROCm (clr/rocclr/device/rocm/rocdevice.cpp, the queue's error callback)",
        ("what",),
    ),
    Signature(
        "G316",
        "rocm-memory-access-fault",
        "gpu_error",
        "cause",
        ("Memory access fault by GPU",),
        re.compile(
            # the HSA runtime's report of a page fault on the GPU; `node-2` is the GPU's agent
            # number in the HSA topology (what rocminfo lists), never a host's name
            r"Memory access fault by GPU node-(?P<agent>[0-9]{1,4}) \(Agent handle: 0x[0-9a-fA-F]{1,16}\) "
            r"on address (?:0x[0-9a-fA-F]{1,16}|\(nil\))\.(?: Reason: (?P<what>[^\n]{1,200}))?"
        ),
        "the ROCm runtime's report that a GPU faulted on an address (a page not present, a write to a "
        "read-only page): the process aborts after it. `node-N` names the GPU agent, not a host",
        "Memory access fault by GPU node-2 (Agent handle: 0x55fea5592860) on address 0x7fc133800000. "
        "Reason: Page not present or supervisor privilege.",
        "Memory access by GPU node-2 (Agent handle: 0x55fea5592860) granted",
        "ROCm (ROCR-Runtime, the HSA runtime's memory fault handler)",
        ("agent", "what"),
    ),
    Signature(
        "G304",
        "gpu-xid",
        "gpu_error",
        "cause",
        ("Xid",),
        re.compile(
            # (a kernel log's record quoted inside another line, as a monitor's alert quotes it:
            # `Xid errors on instance: h, Error: May 29 01:37:38 h kernel: [257087.81] NVRM: Xid …`;
            # its host is the node)
            r"(?:\b[A-Z][a-z]{2} {1,2}[0-9]{1,2} [0-9]{2}:[0-9]{2}:[0-9]{2} "
            r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}) kernel: (?:\[ {0,12}[0-9]{1,10}\.[0-9]{1,9}\] )?"
            r"NVRM: )?Xid \((?P<pci>[^)]{1,40})\): (?P<xid>[0-9]{1,4})"
        ),
        "the NVIDIA driver's Xid report of a GPU fault (79: fallen off the bus, 48/63/64: ECC)",
        "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module",
        "NVIDIA driver (kernel log)",
        ("xid", "node"),
    ),
    Signature(
        "G308",
        "gpu-fallen-off-bus",
        "gpu_error",
        "cause",
        ("NVRM",),
        re.compile(r"NVRM: [^\n]{0,200}?(?P<what>fallen off the bus)"),
        "the NVIDIA driver saying a GPU fell off the bus without an Xid (the message spans lines)",
        "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
        "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
        "               NVRM: fallen off the bus and is not responding to commands.",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module",
        "NVIDIA driver (kernel log)",
        ("what",),
    ),
    Signature(
        "G305",
        "gpu-ecc",
        "gpu_error",
        "cause",
        ("ECC",),
        re.compile(r"(?P<what>uncorrectable ECC error|ECC error|double bit ECC|Uncorrectable ECC)"),
        "an ECC memory error on the GPU",
        "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorECCUncorrectable: uncorrectable ECC "
        "error encountered",
        "ECC mode: Enabled",
        "CUDA runtime error strings (as CuPy and other CUDA libraries print them)",
        ("what",),
    ),
    Signature(
        "G306",
        "cpp-abort",
        "signal",
        "cause",
        ("():", "terminate called"),
        re.compile(
            r"(?:terminate called after throwing an instance of '(?P<type>[^']{1,200})'|"
            r"what\(\): {1,4}(?P<what>.{1,500}))"
        ),
        "a C++ exception that ended the process (SIGABRT); classified by what its message says",
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
        "whatever happens, keep going",
        "libstdc++'s terminate handler",
        ("type", "what"),
    ),
    Signature(
        "G315",
        "allocation-failed-abort",
        "host_oom",
        "cause",
        ("memory allocation of", "<jemalloc>"),
        re.compile(
            # Rust's standard library (a tokenizer, a data loader written in Rust) aborts with
            # `memory allocation of 2097152 bytes failed` when the allocator returns nothing;
            # processes that abort at once write into each other's line (`memory allocation of
            # memory allocation of 20971522097152 bytes failed`), so the size is not read
            r"memory allocation of (?:memory allocation of )?[0-9]{1,40} bytes failed|"
            # jemalloc's own abort: `<jemalloc>: Error in malloc(): out of memory. Requested: 64`
            r"<jemalloc>: Error in [a-z_]{1,20}\(\): out of memory"
        ),
        "a native allocator aborting the process because an allocation failed (Rust's standard "
        "library, jemalloc): the node's host memory ran out, or a limit on the process's memory "
        "(`ulimit -v`) refused it; said at medium confidence, as which of the two is not written",
        "memory allocation of 2097152 bytes failed",
        "memory allocation of 2097152 bytes succeeded after 3 retries",
        "Rust (library/std/src/alloc.rs, default_alloc_error_hook), jemalloc (src/jemalloc.c)",
        strength=2,  # the allocation failed, and the process aborted: host memory, or a limit
    ),
    Signature(
        "G307",
        "fatal-python-error",
        "signal",
        "cause",
        ("Fatal Python error",),
        re.compile(
            r"Fatal Python error: (?P<signal>Segmentation fault|Aborted|Bus error|Floating point exception)"
        ),
        "CPython's faulthandler reporting a crash of the interpreter",
        "Fatal Python error: Segmentation fault",
        "Fatal Python error handling is enabled",
        "CPython (Modules/faulthandler.c)",
        ("signal",),
    ),
    Signature(
        "G312",
        "gpu-lost",
        "gpu_error",
        "cause",
        ("Unable to determine the device handle", "NVIDIA-SMI has failed", "GPU is lost"),
        re.compile(
            r"(?:Unable to determine the device handle for GPU ?[0-9A-Fa-f]{0,8}:?[0-9A-Fa-f]{2}:"
            r"[0-9A-Fa-f]{2}\.[0-9A-Fa-f]: |(?=NVIDIA-SMI has failed))"
            r"(?P<what>NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|"
            r"Unknown Error|GPU is lost[^\n]{0,120}|[A-Z][^\n]{0,120})"
        ),
        "nvidia-smi unable to reach a GPU (`Unable to determine the device handle for GPU…: "
        "Unknown Error`, `GPU is lost`) or the driver at all: the node's GPU or driver is broken",
        "zeyer@cn-234 ~ % nvidia-smi\n"
        "Unable to determine the device handle for GPU0000:03:00.0: Unknown Error",
        "Found 8 GPUs; the device handle for GPU 0000:03:00.0 was determined",
        "nvidia-smi (NVML's error strings: NVML_ERROR_UNKNOWN, NVML_ERROR_GPU_IS_LOST)",
        ("what",),
    ),
    Signature(
        "G311",
        "failure-signal-handler",
        "signal",
        "cause",
        ("*** SIG",),
        re.compile(
            r"\*\*\* (?P<signal>SIG(?:SEGV|ABRT|BUS|FPE|ILL|TRAP|SYS)) (?:\(@0x[0-9a-fA-F]{1,16}\) )?"
            r"received (?:by PID (?P<pid>[0-9]{1,10})|at time=[0-9]{1,20})"
        ),
        "glog's and Abseil's failure signal handler naming the crash signal a process received (the "
        "statement under glog's `*** Aborted at … (unix time)` header, which names no signal); "
        "C++ programs and their Python bindings (Ray's workers, TensorFlow, JAX) install it",
        '*** Aborted at 1573079353 (unix time) try "date -d @1573079353" if you are using GNU date ***\n'
        "PC: @                0x0 (unknown)\n"
        "*** SIGSEGV (@0x88) received by PID 2417663 (TID 0x7f73221f3700) from PID 136; stack trace: ***",
        "traceback : Signal 11 (SIGSEGV) received by PID 2414397",
        "glog (src/signalhandler.cc), Abseil (absl/debugging/failure_signal_handler.cc)",
        ("signal", "pid"),
    ),
)
