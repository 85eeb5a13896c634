"""`CUDA_DEVICE_MAX_CONNECTIONS` set in `env` to a value that contradicts the parallel layout.

The variable is the number of hardware work queues a process uses on the GPU. jobc exports the
value the job needs (`jobc.spec.cudaenv.device_max_connections`, the same function the compiler
calls), so this rule only fires when the spec overrides it:

- before Blackwell, with `tp > 1` or `cp > 1` and no FSDP: Megatron overlaps tensor- and
  context-parallel communication with the GEMMs only when kernels run in the order they were
  issued, which one queue (`1`) guarantees, and it checks the variable when it starts: any
  other value stops a Megatron job with an assertion error before the first step. An error
  when the training code is Megatron (`workload.framework`, stated or inferred) and the GPU is
  known to be older than Blackwell; a warning for other code (whose overlap is lost without
  the assertion) and for an unknown GPU.
- `sharding: fsdp2` or `megatron-fsdp`: FSDP prefetches parameters on their own streams; with one
  queue those all-gathers wait behind compute, so `1` serialises the overlap FSDP is built on.
- `workload.overlap_moe_ep_comm`: the expert all-to-all overlap wants 32 queues.
- Blackwell orders kernels without the variable; a `1` copied from a Hopper recipe only limits
  concurrent streams. Reported as info.

The other cases are warnings: the job runs and computes the right thing, only slower.

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 8, gpu: h100-80gb}
parallelism: {tp: 4}
env: {CUDA_DEVICE_MAX_CONNECTIONS: "8"}
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8, gpu: h100-80gb}
parallelism: {tp: 4}            # jobc exports CUDA_DEVICE_MAX_CONNECTIONS=1
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules._env import lookup
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.spec.cudaenv import FSDP_SHARDING, device_max_connections

META = Meta(
    code="JC401",
    name="cuda-device-max-connections",
    severity=Severity.ERROR,
    summary="CUDA_DEVICE_MAX_CONNECTIONS overridden with a value the parallel layout contradicts",
    remediation="Remove CUDA_DEVICE_MAX_CONNECTIONS from env; jobc exports the value the layout needs.",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True

NAME = "CUDA_DEVICE_MAX_CONNECTIONS"


def check(ctx: Context) -> Iterator[Hit]:
    setting = lookup(ctx, NAME)
    if setting is None:
        return
    try:
        value = int(setting.text.strip())
    except ValueError:
        yield Hit(
            setting.path,
            f"{setting.where} is not a number; CUDA reads a count of hardware queues (1 to 32) and "
            "ignores anything else; remove it, jobc exports the value the layout needs",
            severity=Severity.WARNING,
        )
        return
    spec, gpu = ctx.spec, ctx.gpu
    p = spec.parallelism
    on = f"{gpu.key} ({gpu.generation})" if gpu is not None else "a GPU before Blackwell"
    if spec.workload.overlap_moe_ep_comm:
        if value != 32:
            yield Hit(
                setting.path,
                f"workload.overlap_moe_ep_comm overlaps the expert all-to-all with compute on "
                f"separate streams, which needs 32 hardware queues, but {setting.where} sets "
                f"{value}; remove it (jobc exports 32)",
                severity=Severity.WARNING,
            )
        return
    if p.sharding in FSDP_SHARDING:
        if value == 1:
            yield Hit(
                setting.path,
                f"sharding {p.sharding} prefetches parameters on their own streams; with "
                f"{setting.where} = 1 those all-gathers queue behind compute and the overlap is "
                "lost; remove it (CUDA's default of 8 queues is right for FSDP)",
                severity=Severity.WARNING,
            )
        return
    if gpu is not None and gpu.generation == "blackwell":
        if value == 1:
            yield Hit(
                setting.path,
                f"on {on} kernels are ordered without CUDA_DEVICE_MAX_CONNECTIONS, so the 1 that "
                "tensor/context-parallel overlap needs before Blackwell has no use here and only "
                "limits concurrent streams; remove it (jobc leaves it unset)",
                severity=Severity.INFO,
            )
        return
    if device_max_connections(spec, gpu) == 1 and value != 1:
        layout = f"tp={p.tp}" + (f", cp={p.cp}" if p.cp > 1 else "")
        code = ctx.framework
        if code.name == "megatron":
            # Megatron checks the variable at start-up when tp or cp exceeds 1 before Blackwell
            why = "workload.framework" if not code.inferred else f"inferred: {code.reason}"
            if gpu is not None:
                yield Hit(
                    setting.path,
                    f"with {layout} on {on} Megatron ({why}) needs kernels in issue order to overlap "
                    f"communication with the GEMMs and asserts that CUDA_DEVICE_MAX_CONNECTIONS is "
                    f"1; {setting.where} sets {value}, so the job stops with an assertion error "
                    "before the first step; remove it (jobc exports 1)",
                    severity=Severity.ERROR,
                )
            else:
                yield Hit(
                    setting.path,
                    f"with {layout} Megatron ({why}) asserts that CUDA_DEVICE_MAX_CONNECTIONS is 1 "
                    f"on GPUs before Blackwell; {setting.where} sets {value}, so on such a GPU the "
                    "job stops with an assertion error; remove it (jobc exports 1), and name the "
                    "GPU (resources.gpu) so jobc can tell",
                    severity=Severity.WARNING,
                )
            return
        yield Hit(
            setting.path,
            f"with {layout} on {on} tensor- and context-parallel communication overlaps the "
            f"GEMMs only when kernels run in issue order, which needs 1 hardware queue; "
            f"{setting.where} sets {value}, so the overlap is silently lost; remove it (jobc "
            "exports 1)",
            severity=Severity.WARNING,
        )
