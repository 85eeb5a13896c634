"""Collectives and rendezvous: NCCL, Gloo, the c10d store and torchrun's rendezvous.

Formats from PyTorch's ProcessGroupNCCL.cpp (the watchdog), NCCLUtils (`NCCL error in: …`),
Gloo's tcp transport (pair.cc, unbound_buffer.cc), c10d's TCPStore and socket.cpp, and
torch.distributed.elastic.rendezvous; NCCL's own `host:pid:tid [dev] NCCL WARN` lines; UCX's
`[host:pid:tid]` error lines (the InfiniBand transport under MPI, UCC and NCCL plugins)."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

_HOSTPORT = r"(?P<endpoint>[^\s\[\](),]{1,200}\]?:[0-9]{1,5})"

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "N414",
        "nccl-net-call-failed",
        "nccl_error",
        "cause",
        ("Net : Call to",),
        re.compile(
            r"(?P<what>Net : Call to (?:recv|send|connect|accept|bind|listen)[^\n]{0,200}? failed"
            r"[^\n]{0,120})"
        ),
        "NCCL's socket transport saying a call to the peer failed (its `Last error:` detail: a refused or "
        "reset connection, a peer gone)",
        "node2: Net : Call to recv from 10.0.0.2<56843> failed : Connection refused",
        "node2: Net : Call to recv from 10.0.0.2<56843> succeeded",
        "NCCL (src/misc/socket.cc, as `Last error:` prints it)",
        ("what",),
    ),
    Signature(
        "N401",
        "nccl-watchdog-timeout",
        "collective_timeout",
        "symptom",
        ("Watchdog caught",),
        re.compile(
            r"(?:Rank (?P<rank>[0-9]{1,9})\] )?Watchdog caught collective operation timeout: "
            r"WorkNCCL\(SeqNum=(?P<seq>[0-9]{1,18}), OpType=(?P<op>[A-Za-z_]{1,40})"
        ),
        "ProcessGroupNCCL's watchdog: a collective (SeqNum, OpType) waited past its timeout on this rank; "
        "the rank that never joined it is the suspect",
        "[rank2]:[E ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=2201, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
        "600041 milliseconds before timing out.",
        "[I ProcessGroupNCCL.cpp:835] [Rank 2] ProcessGroupNCCL watchdog thread started",
        "PyTorch (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp)",
        ("rank", "seq", "op"),
    ),
    Signature(
        "N411",
        "monitored-barrier-missed",
        "collective_timeout",
        "cause",
        ("failed to pass monitoredBarrier",),
        re.compile(
            r"Ranks? (?P<culprits>[0-9]{1,9}(?:, [0-9]{1,9}){0,4095}) failed to pass monitoredBarrier "
            r"in (?P<ms>[0-9]{1,12}) ms"
        ),
        "rank 0's monitored barrier (torch.distributed.monitored_barrier) naming the ranks that did not "
        "reach it in time: the finding is theirs, not rank 0's, and gives way to their own failure "
        "when the log has it",
        "RuntimeError: [Rank 0]: Rank 1 failed to pass monitoredBarrier in 2000 ms\n"
        " Original exception: \n"
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.0.0.7]:8594",
        "[Rank 0]: monitoredBarrier passed by all ranks in 2000 ms",
        "PyTorch (torch/csrc/distributed/c10d/ProcessGroupGloo.cpp, monitoredBarrier; "
        "`Ranks 1, 2 failed …` with wait_all_ranks=True)",
        ("culprits",),
    ),
    Signature(
        "N412",
        "rendezvous-host-unresolved",
        "rendezvous",
        "cause",
        ("host not found", "cannot be retrieved"),
        re.compile(
            r"(?P<what>host not found: [A-Za-z][^\n]{0,80}|"
            r"The IPv[46] network addresses of \(?P<host>[^,()\s]{1,200}, ?[0-9]{1,5}\) cannot be "
            r"retrieved[^\n]{0,80})"
        ),
        "the rendezvous store's host name not resolving on this node (MASTER_ADDR or the rendezvous "
        "endpoint names a host the node's resolver does not know)",
        "ValueError: host not found: Temporary failure in name resolution",
        "[I socket.cpp:566] [c10d] The IPv4 network addresses of (node01, 29500) were retrieved",
        "PyTorch (TCPStore's `host not found` before 1.11; torch/csrc/distributed/c10d/socket.cpp)",
        ("what",),
    ),
    Signature(
        "N424",
        "gni-error",
        "nccl_error",
        "cause",
        ("Error detected by libibgni", "GNI_RC_"),
        re.compile(
            # Cray's GNI/uGNI network library (Aries, Gemini): its own error report, or a call's
            # failing return code as MPI or a library prints it
            r"(?P<what>Error detected by libibgni\.so[^\n]{0,200}|"
            r"GNI_RC_(?:ERROR_RESOURCE|ERROR_NOMEM|TIMEOUT|TRANSACTION_ERROR|INVALID_PARAM|"
            r"INVALID_STATE|PERMISSION_ERROR|ILLEGAL_OP|SIZE_ERROR|NO_MATCH|NOT_DONE)[^\n]{0,200})"
        ),
        "the Cray GNI/uGNI network library (libibgni, a `GNI_RC_` return code) failing under MPI: the "
        "network layer, not the program",
        "Unidentified node: Error detected by libibgni.so.  Subsequent operation may be unreliable.  "
        "IAA did not recognize this as an MPI process",
        "GNI_RC_SUCCESS returned by GNI_CdmAttach",
        "Cray's libibgni (uGNI; the gni_return_t names of gni_pub.h)",
        ("what",),
    ),
    Signature(
        "N425",
        "dapl-error",
        "nccl_error",
        "cause",
        (":SCM:", ":CMA:", ":UCM:", ":UD:"),
        re.compile(
            # DAPL's providers under Intel MPI: dapl_log's lines begin `host:provider:pid:tid:
            # N us(N us[!!!]):` and name the node they ran on
            r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):(?:SCM|CMA|UCM|UD):[0-9a-fA-F]{1,16}:"
            r"[0-9a-fA-F]{1,16}: {1,3}[0-9]{1,15} us\([0-9]{1,15} us(?:!!!)?\): {1,3}"
            r"(?P<what>[A-Za-z_][A-Za-z0-9_ ]{0,60}: {0,2}[^\n]{0,200}?(?:failed|[Ee]rror|ERR|"
            r"timed out|refused|unreachable)[^\n]{0,200})"
        ),
        "a DAPL provider under Intel MPI failing to open the adapter or connect (`open_hca: failed to "
        "init cr pipe`, `dapl_cma_active: ... ERR`): the network layer, not the program; DAPL's prefix "
        "names the node",
        "nid06489:SCM:22fc4:aab49500: 127246108 us(127246108 us!!!):  open_hca: failed to init cr "
        "pipe - Connection timed out",
        "nid06489:SCM:22fc4:aab49500: 1024 us(1024 us):  open_hca: devname mlx4_0, port 1",
        "DAPL (dapl/openib_common, dapl_log's `%s:%s:%x:%x: %d us(%d us%s):`)",
        ("node", "what"),
    ),
    Signature(
        "N423",
        "store-wrong-reply",
        "rendezvous",
        "cause",
        ("Stop_waiting response", "Ping failed, invalid value"),
        re.compile(
            r"(?P<what>Stop_waiting response is expected|"
            r"Ping failed, invalid value returned from server[^\n]{0,120})"
        ),
        "the c10d store's client getting a reply that is no store's (an empty or wrong MASTER_ADDR or "
        "port reaching another server, a store of another job): the ranks cannot meet",
        "RuntimeError: Stop_waiting response is expected",
        "[I TCPStore.cpp:231] Stop_waiting response received",
        "PyTorch (torch/csrc/distributed/c10d/TCPStore.cpp, doWait and validate)",
        ("what",),
    ),
    Signature(
        "N402",
        "collective-timeout",
        "collective_timeout",
        "symptom",
        ("NCCL", "Timed out", "timed out", "Timeout"),
        re.compile(
            r"(?P<what>Some NCCL operations have failed or timed out|NCCL communicator was aborted|"
            r"Timed out waiting (?P<ms>[0-9]{1,12})ms for (?:send|recv) operation to complete|"
            r"Application timeout caused pair closure|Timeout waiting for key: )"
        ),
        "a collective or a peer wait timing out on this rank (NCCL, Gloo): a symptom of a failure elsewhere",
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting "
        "1800000ms for recv operation to complete",
        "NCCL timeout set to 1800000 ms",
        "Gloo (gloo/transport/tcp/unbound_buffer.cc); ProcessGroupNCCL.cpp",
        ("what",),
    ),
    Signature(
        "N403",
        "nccl-error",
        "nccl_error",
        "cause",
        ("NCCL", "nccl", "Error"),
        re.compile(
            r"(?P<what>ncclSystemError|ncclInternalError|ncclUnhandledCudaError|ncclRemoteError|"
            r"ncclInvalidUsage|ncclInvalidArgument|"
            r"NCCL_ERROR_(?:SYSTEM|INTERNAL|UNHANDLED_CUDA|REMOTE|INVALID_USAGE|INVALID_ARGUMENT)_?[A-Z_]{0,20}|"
            # NCCL's error strings (ncclGetErrorString) after any wording of a failed NCCL call:
            # torch's `NCCL error in: …`, XGBoost's `NCCL failure :…`, XLA's `NCCL operation
            # ncclCommInitRank(…) failed: …`
            r"NCCL\b[^\n]{0,200}?(?:error|failure|failed)[^\n]{0,400}?(?:unhandled system error|"
            r"internal error|unhandled cuda error|remote process exited|network error|invalid usage|"
            r"invalid argument|Net : Call to .{1,80} failed)|"
            # an NCCL call's name and NCCL's error string, as Horovod throws it (`ncclCommInitRank
            # failed: unhandled system error`)
            r"\bnccl[A-Z][A-Za-z]{1,40} failed: (?:unhandled system error|internal error|"
            r"unhandled cuda error|remote process exited|network error|invalid usage|invalid argument))"
        ),
        "NCCL failing: a system, internal, CUDA or remote error, in any wording that carries NCCL's own "
        "error string (a cause when it comes first)",
        "torch.distributed.DistBackendError: NCCL error in: "
        "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3",
        "NCCL INFO NET/Socket : Using [0]ib0:10.0.0.5<0>",
        "PyTorch (torch/csrc/distributed/c10d/NCCLUtils.hpp); NCCL's ncclResult_t names",
        ("what",),
    ),
    Signature(
        "N429",
        "ompi-tcp-transfer-failed",
        "nccl_error",
        "cause",
        ("mca_btl_tcp_frag_recv", "mca_btl_tcp_frag_send"),
        re.compile(
            # Open MPI's TCP transport (its BTL_ERROR header, `[host][[family,job],rank][file:line:
            # function]`, names the node and the rank) failing to move a message's bytes; the
            # system's reason follows, on the same line (`readv failed: … (104)`) or the next
            # (`\tBad address(1)`)
            r"mca_btl_tcp_frag_(?:recv|send): (?P<what>(?:readv|writev) (?:error|failed)[^\n]{0,200})"
        ),
        "Open MPI's TCP transport failing to receive or send a message between two ranks (the "
        "connection reset by a peer that died, or the buffer's address refused): the MPI call fails "
        "and the job aborts",
        "[cn-c-1][[12712,1],0][btl_tcp_frag.c:227:mca_btl_tcp_frag_recv] mca_btl_tcp_frag_recv: readv "
        "error (0x7ffeb5268de8, 8162144)\n\tBad address(1)",
        "[cn-c-1][[12712,1],0][btl_tcp_frag.c:227:mca_btl_tcp_frag_recv] mca_btl_tcp_frag_recv: peer "
        "closed connection",
        "Open MPI (opal/mca/btl/tcp/btl_tcp_frag.c: `mca_btl_tcp_frag_recv: readv failed: %s (%d)`, "
        "older `readv error (%p, %lu)\\n\\t%s(%lu)`)",
        ("what",),
        strength=2,
    ),
    Signature(
        "N428",
        "nccl-duplicate-gpu",
        "nccl_error",
        "cause",
        ("Duplicate GPU detected",),
        re.compile(
            # NCCL's init check (init.cc: "Duplicate GPU detected : rank %d and rank %d both on CUDA
            # device %lx"): the first rank is the process that writes the line, the second the one
            # it found on its GPU. Two ranks of one communicator on one GPU: a placement mistake of
            # the job (CUDA_VISIBLE_DEVICES, the device each rank selects), not the network
            r"^(?:(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):[0-9]{1,10}:[0-9]{1,10} "
            r"\[(?P<device>[0-9]{1,4})\] )?.{0,200}?"
            r"(?P<what>Duplicate GPU detected : rank (?P<rank>[0-9]{1,9}) and rank [0-9]{1,9} both on "
            r"CUDA device [0-9a-fA-F]{1,16})"
        ),
        "NCCL refusing a communicator in which two ranks use one GPU: the ranks of a node did not "
        "each select their own device (torch.cuda.set_device(LOCAL_RANK), CUDA_VISIBLE_DEVICES, "
        "the GPUs Slurm bound to each task)",
        "myhost:2292596:2292596 [0] init.cc:943 NCCL WARN Duplicate GPU detected : rank 0 and rank 1 "
        "both on CUDA device 53000",
        "myhost:2292596:2292596 [0] NCCL INFO comm 0x5581 rank 0 nranks 2 cudaDev 0 busId 53000 - "
        "Init COMPLETE",
        "NCCL (src/init.cc: `Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx`)",
        ("node", "device", "rank", "what"),
        strength=3,
    ),
    Signature(
        "N404",
        "nccl-warn",
        "nccl_error",
        "cause",
        ("NCCL WARN", " WARN "),
        re.compile(
            r"^(?:(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):[0-9]{1,10}:[0-9]{1,10} "
            r"\[(?P<device>[0-9]{1,4})\] )?"
            # NCCL 2.0 to 2.2 wrote no `NCCL` before the level: its source file and line stand there
            # (`include/socket.h:194 WARN Call to recv failed : Connection reset by peer`)
            r"(?:.{0,200}?NCCL|[A-Za-z0-9_/.\-]{1,120}\.(?:h|cc|cu):[0-9]{1,6}) WARN (?P<what>.{1,300})"
        ),
        "NCCL's own warning lines (older NCCL's without the `NCCL` word, after its source file and "
        "line); NCCL's `host:pid:tid [device]` prefix names the node; a CUDA "
        "failure NCCL reports (`Cuda failure 700 '...'`) is classified by its CUDA error",
        "gpu-a07:412:790 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer "
        "10.3.1.8<36721> with error 12, opcode 0, len 0, vendor err 129 (Recv)",
        "gpu-a07:412:790 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0",
        "NCCL (src/include/debug.h: `%s:%d:%d [%d] %s:%d NCCL WARN ...`)",
        ("node", "device", "what"),
    ),
    Signature(
        "N405",
        "port-in-use",
        "port_in_use",
        "cause",
        (
            "errno: 98",
            "Errno 98",
            "EADDRINUSE",
            "Address already in use",
            "ddress already in use",
            "system error: 10048",
        ),
        re.compile(
            r"(?P<what>errno: 98 - Address already in use|\[Errno 98\] Address already in use|EADDRINUSE|"
            # Windows: c10d's socket.cpp prints the WinSock code (WSAEADDRINUSE), in the system's language
            r"[Aa]ddress already in use|system error: 10048)"
        ),
        "the rendezvous (or another) port already taken on the node: another job or a leftover process",
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
        "address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).",
        "socket bound to [::]:29500",
        "PyTorch (torch/csrc/distributed/c10d/socket.cpp); Python's OSError",
        ("what",),
    ),
    Signature(
        "N426",
        "store-cannot-listen",
        "rendezvous",
        "cause",
        ("failed to listen on any local network address",),
        re.compile(
            # only with the reason on the same line (the exception's message holds both): on a line of
            # its own the reason is on a line before it, errno 98 among them (N405's)
            r"(?P<what>The server socket has failed to listen on any local network address)"
            r"[^\n]{0,400}?\(errno: (?P<errno>[0-9]{1,5}) - (?P<why>[^()\n]{1,120})\)"
        ),
        "the c10d store's server (rank 0, or torchrun's agent on the first node) unable to listen on "
        "its port for a reason other than the port being taken: a port below 1024 without the right "
        "to it (errno 13), an address not on this node (errno 99); a taken port is N405",
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
        "address. The server socket has failed to bind to [::]:98 (errno: 13 - Permission denied).",
        "[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.",
        "PyTorch (torch/csrc/distributed/c10d/socket.cpp, SocketListenOp)",
        ("what", "errno", "why"),
    ),
    Signature(
        "N406",
        "rendezvous-timeout",
        "rendezvous",
        "cause",
        (
            "Rendezvous",
            "DistStoreError",
            "The client socket has timed out",
            "The client socket has failed to connect to any",
            "Timed out after",
            "store based barrier",
        ),
        re.compile(
            r"(?P<what>RendezvousTimeoutError|RendezvousConnectionError|RendezvousClosedError|"
            r"RendezvousStateError|DistStoreError|"
            r"The client socket has timed out after [0-9]{1,12}(?:ms|s) while trying to connect to|"
            # socket.cpp's last word once every address failed for a reason it does not retry
            # (errno 113 No route to host, a refused name): the store's client gives up, whatever
            # the time left; the per-address `failed to connect to host:port` before it is a retry
            r"The client socket has failed to connect to any network address of|"
            r"Timed out after [0-9]{1,12} seconds waiting for clients|"
            # init_process_group's barrier over the store: not every rank ever joined
            r"Timed out initializing process group in store based barrier)"
        ),
        "the ranks not meeting at the rendezvous: a store or torchrun rendezvous timing out (or "
        "init_process_group's store-based barrier, which not every rank joined), or the store's "
        "client giving up on every address of its endpoint, with the endpoint they tried",
        "torch.distributed.DistNetworkError: The client socket has timed out after 900000ms while trying "
        "to connect to (node0, 29500).",
        "rendezvous backend: c10d, endpoint node0:29500",
        "PyTorch (torch/csrc/distributed/c10d/TCPStore.cpp, socket.cpp; elastic/rendezvous)",
        ("what",),
    ),
    Signature(
        "N407",
        "rendezvous-connect-retry",
        "rendezvous",
        "symptom",
        ("The client socket has failed to connect", "Connection refused"),
        re.compile(
            r"(?P<what>The client socket has failed to connect to |connect\(\) failed|Connection refused)"
        ),
        "a rank retrying to reach the rendezvous store: harmless while it retries, a cause only "
        "with a timeout",
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node0]:29500 "
        "(errno: 111 - Connection refused).",
        "[W socket.cpp:663] [c10d] The client socket has connected to [node0]:29500",
        "PyTorch (torch/csrc/distributed/c10d/socket.cpp)",
        ("what",),
    ),
    Signature(
        "N419",
        "nccl-id-never-published",
        "rendezvous",
        "cause",
        ("ncclUniqueId",),
        re.compile(
            # ProcessGroupNCCL::broadcastUniqueNCCLID: the first collective on a group creates its
            # NCCL communicator; rank 0 writes a fresh ncclUniqueId into the c10d store and every
            # other rank waits for it with store->get(), bounded by the store's timeout. A timeout
            # there (torch 1.x's `Socket Timeout`, 2.x's `wait timeout after Nms`) means the store
            # was reachable and alive but rank 0 never reached that first collective: the ranks
            # did not meet before any communicator existed, so no collective ever ran and no
            # watchdog timed one out. That is a failed meeting (rendezvous), not a collective
            # timeout. The same wait ending in a lost connection (reset, closed, 0 bytes) is the
            # store's host gone, a lost peer (N408).
            r"\[(?P<rank>[0-9]{1,9})\] is setting up NCCL communicators? and retr(?:ie|ei)ving ncclUniqueId "
            r"from \[[0-9]{1,9}\] via c10d key-value store by key '[^'\n]{0,200}', but "
            r"(?:store->get\('[^'\n]{0,200}'\) )?got error: (?P<what>Socket Timeout|[Ww]ait timeout after "
            r"[0-9]{1,12} ?m?s|Timeout waiting for key|[^\n.]{0,80}?\b[Tt]imed out)"
        ),
        "a rank waiting in the c10d store for rank 0's ncclUniqueId until the store's timeout: rank 0 "
        "never reached the first collective of the group, so the ranks did not meet before its NCCL "
        "communicator existed (a failed meeting, not a collective's timeout; the same wait ending in "
        "a lost connection is rank 0's store gone, a lost peer)",
        "RuntimeError: [2] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via "
        "c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
        "RuntimeError: [14] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
        "c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer",
        "PyTorch (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, broadcastUniqueNCCLID; the "
        "store's timeout from TCPStore.cpp)",
        ("rank", "what"),
    ),
    Signature(
        "N408",
        "lost-peer",
        "collective_timeout",
        "symptom",
        (
            "Connection",
            "ECONNRESET",
            "Broken pipe",
            "DistBackendError",
            "remote process exited",
            "ncclUniqueId",
            "TCPStore",
            "got 0 bytes",
            "unexpectedly disconnected",
        ),
        re.compile(
            r"(?P<what>Connection closed by peer|Connection reset by peer|ECONNRESET|Broken pipe|"
            r"remote process exited|DistBackendError|"
            # Open MPI's TCP transport when a peer's socket closed before MPI_Finalize (the block
            # names the local and the peer host on lines of their own)
            r"An MPI communication peer process has unexpectedly disconnected|"
            # the store's server (torchrun's agent or rank 0) gone: c10d's recvBytes
            r"[Ff]ailed to recv, got 0 bytes|"
            # ProcessGroupNCCL waiting for rank 0's NCCL id in the store, its wait ended by any
            # error but a timeout (N419): the store's host gone; older torch spells it "retreiving"
            r"(?:\[(?P<rank>[0-9]{1,9})\] is setting up NCCL communicators? and )?"
            r"retr(?:ie|ei)ving ncclUniqueId from \[[0-9]{1,9}\] via c10d key-value store)"
        ),
        "a rank losing its peer or the store (Gloo's pair.cc, a reset socket, the store lost while "
        "waiting for rank 0's NCCL id, Open MPI's peer that disconnected): a symptom of a peer's death",
        "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by "
        "peer [10.0.0.2]:14052",
        "Connection established with peer 10.0.0.2",
        "Gloo (gloo/transport/tcp/pair.cc); Open MPI (help-mpi-btl-tcp.txt)",
        ("what", "rank"),
    ),
    Signature(
        "N413",
        "oneccl-error",
        "nccl_error",
        "cause",
        ("|CCL_ERROR|", "oneCCL: "),
        re.compile(r"(?P<what>\|CCL_ERROR\| [^\n]{1,300}|oneCCL: [^\n]{0,200}?EXCEPTION: [^\n]{0,300})"),
        "Intel's oneCCL (the collectives library under torch-ccl, IPEX and vLLM on XPU) failing: its "
        "`|CCL_ERROR|` log lines, or the exception it raises",
        "2023:11:28-16:35:45:(35980) |CCL_ERROR| base_thread.cpp:36 start: error while creating worker "
        "thread #0 pthread_create returns 22",
        "2023:11:28-16:35:45:(35980) |CCL_WARN| did not find MPI-launcher specific variables",
        "oneCCL (src/common/log/log.hpp: `|CCL_ERROR|`; ccl::exception's "
        "`oneCCL: file:line func: EXCEPTION:`)",
        ("what",),
    ),
    Signature(
        "N415",
        "collective-mismatch",
        "collective_timeout",
        "cause",
        ("Detected mismatch between collectives",),
        re.compile(
            r"Detected mismatch between collectives on ranks\. Rank (?P<rank>[0-9]{1,9}) is running "
            r"(?:collective|inconsistent collective): (?P<what>[^\n]{0,300})"
        ),
        "torch's debug check (TORCH_DISTRIBUTED_DEBUG=DETAIL) finding ranks that called different "
        "collectives, or the same with different shapes: the ranks' programs diverged",
        "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running collective: "
        "CollectiveFingerPrint(OpType=ALLREDUCE, TensorShape=[10]), but Rank 1 is running collective: "
        "CollectiveFingerPrint(OpType=BROADCAST, TensorShape=[10]).",
        "Checking for mismatch between collectives on ranks (debug mode DETAIL)",
        "PyTorch (torch/csrc/distributed/c10d/ProcessGroupWrapper.cpp)",
        ("rank", "what"),
    ),
    Signature(
        "N416",
        "fabric-provider-assertion",
        "nccl_error",
        "cause",
        ("Assertion failure at psm", "Assertion failure at ofi", "Assertion failure at prov"),
        re.compile(r"(?P<what>Assertion failure at (?:psm[0-9]?|ofi|prov)[^\n]{0,300})"),
        "the fabric provider under MPI or oneCCL (PSM3, libfabric) asserting: the network layer of the "
        "process failed",
        "machine:rank1.python: Assertion failure at psm3/ptl_am/ptl.c:196: "
        "nbytes == req->req_data.recv_msglen",
        "machine:rank1.python: PSM3 initialised with 2 endpoints",
        "Intel PSM3 (psm3/psm_assert.h), libfabric providers",
        ("what",),
    ),
    Signature(
        "N409",
        "ucx-caught-signal",
        "signal",
        "cause",
        ("Caught signal",),
        re.compile(r"Caught signal (?P<signum>[0-9]{1,3}) \((?P<what>[A-Za-z ]{1,60})"),
        "UCX (the transport under MPI, UCC or NCCL plugins) reporting the signal that crashed its process",
        "[gpu-node09:332629:0:332629] Caught signal 11 (Segmentation fault: address not mapped to object "
        "at address 0x10)",
        "Caught signals are forwarded to the default handler",
        "UCX (src/ucs/debug/debug.c)",
        ("signum",),
    ),
    Signature(
        "N410",
        "ucx-transport-error",
        "nccl_error",
        "cause",
        ("Transport retry count exceeded", "UCX  ERROR", "UCX ERROR", "UCX  FATAL"),
        re.compile(
            r"(?P<what>Transport retry count exceeded[^\n]{0,200}|UCX {1,2}(?:ERROR|FATAL) [^\n]{1,300})"
        ),
        "UCX failing in its network transport (an InfiniBand queue pair's retries exhausted: a link or "
        "a peer gone); UCX's `[host:pid:tid]` prefix names the node",
        "[gpu-node09:19546:0:19546] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_0:1/IB "
        "(synd 0x15 vend 0x81 hw_synd 0/0)",
        "[gpu-node09:19546:0:19546] ucp_context.c:1082 UCX  WARN  transport 'rc' is not available",
        "UCX (src/uct/ib/mlx5/ib_mlx5_log.c, src/ucs/debug/log.c)",
        ("what",),
    ),
    Signature(
        "N417",
        "mpi-errhandler-internal",
        "nccl_error",
        "cause",
        ("MPI_ERR_",),
        re.compile(
            # the errors of the library or the network under it; an MPI call's own wrong argument
            # (MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_TRUNCATE, ...) is the program's, not read here
            r"\*\*\* (?P<what>MPI_ERR_(?:INTERN|OTHER|UNKNOWN|PROC_FAILED|PROC_ABORTED|REVOKED|SPAWN|NO_MEM)"
            r"(?::[^\n]{0,200})?)"
        ),
        "MPI's fatal error handler (Open MPI's `*** An error occurred in MPI_Allreduce` block) naming "
        "an error of the library or the network under it: an internal error, a failed or aborted "
        "peer; the block's `*** reported by process [JOB,RANK]` gives the rank",
        "[cn-247:28492] *** MPI_ERR_INTERN: internal error",
        "[cn-247:28492] *** MPI_ERR_TRUNCATE: message truncated",
        "Open MPI (ompi/errhandler/errhandler_predefined.c, ompi_mpi_errors_are_fatal_comm_handler; "
        "ompi/errhandler/errcode.c for the error strings)",
        ("what",),
    ),
    Signature(
        "N418",
        "mpich-fatal-error",
        "nccl_error",
        "cause",
        ("Fatal error in ",),
        re.compile(
            # MPICH's and Intel MPI's abort: `Abort(1091471) on node 185 (rank 185 in comm 0): Fatal
            # error in PMPI_Init: Other MPI error, error stack:`; the library's own error classes
            # only (a call's wrong argument, `Invalid rank`, is the program's, not read here)
            r"(?:\(rank (?P<rank>[0-9]{1,9}) in comm [0-9]{1,12}\): )?"
            r"Fatal error in (?P<call>P?MPI_?[A-Za-z_]{1,40}): "
            r"(?P<what>Other MPI error|Internal MPI error!?|Unknown error class|Communication failure|"
            r"Process failed|Message truncated in a collective|Out of memory)"
        ),
        "MPICH's (and Intel MPI's, MVAPICH's) fatal error naming an error of the library or the "
        "fabric under it (its `error stack` lines follow, the network provider's failure at their "
        "end), with the rank that aborted; when a line of the stack says the process manager "
        "interface failed (`PMI_Init returned 1`), the processes never met: a rendezvous",
        "Abort(1091471) on node 185 (rank 185 in comm 0): Fatal error in PMPI_Init: Other MPI error, "
        "error stack:\nMPIR_Init_thread(703)........:\nMPIDI_OFI_mpi_init_hook(1382): OFI get address "
        "vector map failed",
        "Abort(201977862) on node 3 (rank 3 in comm 0): Fatal error in PMPI_Send: Invalid rank, error stack:",
        "MPICH (src/mpi/errhan/errutil.c, MPIR_Handle_fatal_error; src/mpi/errhan/baseerrnames.txt)",
        ("rank", "call", "what"),
    ),
    Signature(
        "N421",
        "coordination-task-lost",
        "collective_timeout",
        "symptom",
        ("heartbeat timeout", "stopped sending heartbeats"),
        re.compile(
            # the distributed runtime's coordination service (JAX's jax.distributed, TensorFlow's
            # multi-worker) losing a task: `Task /job:jax_worker/replica:0/task:37 heartbeat
            # timeout`, newer `The following tasks are unhealthy (stopped sending heartbeats):
            # /job:jax_worker/replica:0/task:1`. The task is the process index: the rank lost.
            # Its message says the task "has failed, got preempted, or crashed": which is unknown
            r"(?:Task |\(stopped sending heartbeats\):\s{0,4})/job:[A-Za-z0-9_]{1,40}/replica:[0-9]{1,6}/"
            r"task:(?P<lost_task>[0-9]{1,9})(?P<what> heartbeat timeout|)"
        ),
        "the coordination service of JAX's or TensorFlow's distributed runtime marking a task (a "
        "process, by its index) lost after its heartbeats stopped: a peer that died, was preempted "
        "or crashed, with why left to that task's own log",
        "2022-11-15 16:03:15.140058: E external/org_tensorflow/tensorflow/core/distributed_runtime/"
        "coordination/coordination_service.cc:954] /job:jax_worker/replica:0/task:37 has been set to "
        "ERROR in coordination service: UNAVAILABLE: Task /job:jax_worker/replica:0/task:37 heartbeat "
        "timeout. This indicates that the remote task has failed, got preempted, or crashed "
        "unexpectedly.",
        "I0101 coordination_service.cc:578] /job:jax_worker/replica:0/task:3 has connected to "
        "coordination service; heartbeat timeout is 100 seconds",
        "XLA/TSL (tsl/distributed_runtime/coordination/coordination_service.cc)",
        ("lost_task", "what"),
    ),
    Signature(
        "N427",
        "coordination-task-restarted",
        "rendezvous",
        "cause",
        ("with a different incarnation",),
        re.compile(
            # a task (a process, by its index) connecting again as a new process: it restarted, or
            # a child it forked (a data loader's worker) called jax.distributed.initialize again; the
            # service then aborts every task
            r"/job:[A-Za-z0-9_]{1,40}/replica:[0-9]{1,6}/task:(?P<task_index>[0-9]{1,9}) "
            r"(?P<what>unexpectedly tried to connect with a different incarnation)"
        ),
        "the coordination service of JAX's or TensorFlow's distributed runtime refusing a task that "
        "connected again as another process (it restarted, or a process it forked initialised the "
        "distributed runtime again): the service aborts the whole job",
        "2025-04-05 18:39:10.837611: E external/xla/xla/tsl/distributed_runtime/coordination/"
        "coordination_service.cc:962] /job:jax_worker/replica:0/task:1 unexpectedly tried to connect "
        "with a different incarnation. It has likely restarted.",
        "I0101 coordination_service.cc:578] /job:jax_worker/replica:0/task:1 has connected to "
        "coordination service. Incarnation: 12345",
        "XLA/TSL (tsl/distributed_runtime/coordination/coordination_service.cc)",
        ("task_index", "what"),
        strength=3,
    ),
    Signature(
        "N422",
        "coordination-register-failed",
        "rendezvous",
        "cause",
        ("CoordinationService/RegisterTask", "Coordination service agent in error status: DEADLINE"),
        re.compile(
            # a task that cannot register with the coordination service (jax.distributed.initialize:
            # the coordinator's address unreachable, or other tasks missing past the deadline):
            # the processes never formed their cluster
            r"(?P<what>while calling /tensorflow\.CoordinationService/RegisterTask|"
            # newer XLA's status names the call on a line of its own, below its code's
            # (`DEADLINE_EXCEEDED: Deadline Exceeded` / `RPC: /tensorflow.CoordinationService/…`)
            r"^RPC: /tensorflow\.CoordinationService/RegisterTask|"
            r"Coordination service agent in error status: DEADLINE_EXCEEDED[^\n]{0,200})"
        ),
        "a process of a JAX (or TensorFlow multi-worker) job failing to register with the "
        "coordination service before its deadline: the ranks never met (the coordinator's address "
        "or port unreachable, or tasks that never started)",
        "Additional GRPC error information from remote target unknown_target_for_coordination_leader "
        "while calling /tensorflow.CoordinationService/RegisterTask:\n"
        "2024-04-12 23:39:41.656900: E external/xla/xla/pjrt/distributed/client.cc:96] Coordination "
        "service agent in error status: DEADLINE_EXCEEDED: Deadline Exceeded",
        "I external/xla/xla/pjrt/distributed/client.cc:132] Connected to distributed JAX controller",
        "XLA/TSL (tsl/distributed_runtime/coordination/coordination_service_agent.cc; "
        "xla/pjrt/distributed/client.cc)",
        ("what",),
    ),
    Signature(
        "N430",
        "tf-collective-abort",
        "collective_timeout",
        "symptom",
        ("BaseCollectiveExecutor::StartAbort",),
        re.compile(
            # TensorFlow's collective executor aborting every pending collective on a status from a
            # peer (MultiWorkerMirroredStrategy): its deadline passed or the peer is gone. Its other
            # statuses are not this: `Out of range: End of sequence` is a dataset's normal end, and
            # `Cancelled` follows an abort already reported
            r"BaseCollectiveExecutor::StartAbort (?P<what>(?:DEADLINE_EXCEEDED|Deadline [Ee]xceeded|"
            r"UNAVAILABLE|Unavailable):[^\n]{0,200})"
        ),
        "TensorFlow's collective executor aborting its collectives because a peer's call timed out or "
        "the peer is unreachable: a symptom of a worker that is slow, gone or never started",
        "2023-05-25 11:10:57.934361: E tensorflow/core/common_runtime/base_collective_executor.cc:249] "
        "BaseCollectiveExecutor::StartAbort DEADLINE_EXCEEDED: Deadline Exceeded",
        "2021-03-02 10:01:12.123456: W tensorflow/core/common_runtime/base_collective_executor.cc:217] "
        "BaseCollectiveExecutor::StartAbort Out of range: End of sequence",
        "TensorFlow (tensorflow/core/common_runtime/base_collective_executor.cc)",
        ("what",),
    ),
    Signature(
        "N431",
        "horovod-gloo-http-store-failed",
        "rendezvous",
        "cause",
        ("request failed too many times", "Wait timeout after"),
        re.compile(
            # Horovod's Gloo ranks meet through an HTTP key-value store the driver serves (horovodrun's,
            # or Spark's, or Ray's): a rank that cannot reach it retries, then aborts (`what(): HTTP
            # request failed.` follows, the abort's); its log prefix (`… http_store.cc:96]`) is read
            # apart. A rank that reached it but waited in vain for the others' keys aborts with
            # gloo::IoException's `… http_store.cc:57] Wait timeout after 30 seconds for key(s): 0`
            r"(?P<what>HTTP (?:[A-Z]{2,6} )?request failed too many times, aborting[^\n]{0,200}|"
            r"(?<=http_store\.cc:)[0-9]{1,6}\] Wait timeout after [0-9]{1,9} seconds for key\(s\)"
            r"[^\n]{0,200})"
        ),
        "a Horovod rank unable to reach the rendezvous store its driver serves over HTTP (the driver's "
        "address or port unreachable from the rank, or the driver gone): the ranks never met",
        "[2021-06-07 11:51:57.963853: E horovod/common/gloo/http_store.cc:96] HTTP GET request failed too "
        "many times, aborting. See exception message above.",
        "[2021-06-07 11:51:57.963853: I horovod/common/gloo/http_store.cc:41] HTTP GET request: key=rank_0",
        "Horovod (horovod/common/gloo/http_store.cc)",
        ("what",),
    ),
    Signature(
        "N432",
        "xla-rendezvous-stuck",
        "collective_timeout",
        "symptom",
        ("and may be stuck", "Termination timeout "),
        re.compile(
            # XLA's rendezvous (the meeting of a collective's participants, `initialize clique` of
            # NCCL's communicator on GPUs): a participant waited past the warning's timeout for the
            # others; after the termination timeout the process exits (code 42). `Thread is unstuck!`
            # after it says the warning was early
            r"(?P<what>This thread has been waiting for (?:`(?P<op>[^`\n]{1,300})` for )?[0-9]{1,9} "
            r"seconds? and may be stuck[^\n]{0,200}|Termination timeout (?:for `[^`\n]{1,300}` )?of "
            r"[0-9]{1,9} seconds? exceeded\. Exiting to ensure a consistent program state\.)"
        ),
        "XLA's rendezvous (JAX, TensorFlow's XLA, torch_xla) waiting past its timeout for the other "
        "participants of a collective: a symptom of a participant that is slow, gone or never started",
        "2024-07-29 17:14:59.920189: E external/xla/xla/service/rendezvous.cc:38] This thread has been "
        "waiting for `initialize clique for rank 6; clique=devices=[0,1,2,3,4,5,6,7]; stream=0; "
        "run_id=724296073` for 10 seconds and may be stuck. Expected 8 threads to join the rendezvous, "
        "but not all of them arrived on time.",
        "2024-07-29 17:15:03.120189: E external/xla/xla/service/rendezvous.cc:42] Thread is unstuck! "
        "Warning above was a false-positive. Perhaps the timeout is too short.",
        "XLA (xla/service/rendezvous.cc)",
        ("what", "op"),
    ),
)

#: The lines of MPICH's error stack under its fatal error (N418): `MPID_Init(2049)......: text`.
MPI_STACK_LINE = re.compile(
    r"\s{0,8}[A-Za-z_][A-Za-z0-9_]{0,60}\([0-9]{1,6}\)\.{0,80}:\s{0,4}(?P<what>.{0,300})"
)
MPI_STACK_LINES = 12
#: ... one of which says the process manager interface failed (`PMI_Init returned 1`,
#: `PMI2_Job_GetId returned 14`, `PMIx_Init returned -25`, `MPIR_pmi_init(…)`): the processes
#: could not get their ranks and each other's addresses from the launcher, so they never met.
MPI_PMI_FAILED = re.compile(r"\bPMI(?:x|2)?_[A-Za-z_]{1,40}(?:\(\))? (?:returned|failed)|^MPIR_pmi_init\(")

#: An endpoint in a rendezvous or socket message: `(host, port)` or `[host]:port`, tried first ...
ENDPOINT = re.compile(
    r"\((?P<h1>[^\s,()]{1,200}), (?P<p1>[0-9]{1,5})\)|\[(?P<h2>[^\s\[\]]{1,200})\]:(?P<p2>[0-9]{1,5})"
)
#: ... then `host:port` (not a source file's `name.cpp:123`).
HOST_PORT = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?P<h3>[A-Za-z][A-Za-z0-9_.\-]{0,200}+):(?P<p3>[0-9]{2,5})(?![0-9])"
)
SOURCE_FILES = (".cpp", ".cc", ".py", ".h", ".hpp", ".c")
#: NCCL's report of a failed CUDA call (src/include/checks.h): `Cuda failure 700 'an illegal …'`
NCCL_CUDA_FAILURE = re.compile(r"Cuda failure (?:[0-9]{1,4} )?'(?P<cuda>[^']{1,200})'")
