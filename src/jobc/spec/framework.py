"""Which training code a job runs: Megatron (Megatron-LM, Megatron-Bridge, NeMo) or PyTorch-style
code (DDP, FSDP, transformers, plain loops).

The two store different activations for the same model and only Megatron asserts on some
environment settings, so the memory estimate and a few rules need to know. `workload.framework`
says it; without it the spec usually gives it away, in this order:

1. `parallelism.sharding`: `distributed-optimizer` and `megatron-fsdp` exist only in Megatron,
   `fsdp2` is PyTorch's `fully_shard`;
2. a Megatron or NeMo name in `launch.program`, `launch.module` or `launch.workdir`
   (`pretrain_gpt.py`, `megatron.bridge…`, `/…/Megatron-LM`);
3. the name of a PyTorch training library there (torchtitan, transformers, accelerate, …);
4. tensor, pipeline, context or expert parallelism, sequence parallelism or virtual pipeline
   stages with none of the above: the layouts plain PyTorch loops do not build, Megatron's;
5. otherwise a plain PyTorch loop (DDP or a single process).
"""

from __future__ import annotations

import re

from jobc.core.lazyre import lazy
from jobc.core.record import record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Literal

    from jobc.spec.plain import JobSpec

    Name = Literal["megatron", "pytorch"]

TITLES: dict[str, str] = {
    "megatron": "Megatron (Megatron-LM, Megatron-Bridge, NeMo)",
    "pytorch": "PyTorch-style code (DDP, FSDP, transformers, plain loops)",
}

# a whole word, so "nemotron" (a model family trained anywhere) is no hint
_MEGATRON = lazy(
    r"(?<![a-z0-9])(megatron|nemo|pretrain_(gpt|bert|t5|mamba|vlm|retro|ict|vision))(?![a-z0-9])", re.I
)
_PYTORCH = lazy(
    r"(?<![a-z0-9])(torchtitan|transformers|accelerate|trl|litgpt|lightning|axolotl|torchtune|"
    r"llama[-_]?recipes|kempnerforge|train_(ddp|fsdp2?))(?![a-z0-9])",
    re.I,
)


@record
class Framework:
    name: Name
    reason: str  # why: "workload.framework", or what in the spec gave it away
    inferred: bool

    @property
    def title(self) -> str:
        return TITLES[self.name]


def framework(spec: JobSpec) -> Framework:
    """The training code the spec runs, stated or inferred (see the module docstring)."""
    stated = spec.workload.framework
    if stated is not None:
        return Framework(stated, "workload.framework", False)
    p = spec.parallelism
    if p.sharding in ("distributed-optimizer", "megatron-fsdp"):
        return Framework("megatron", f"parallelism.sharding {p.sharding} is Megatron's", True)
    if p.sharding == "fsdp2":
        return Framework("pytorch", "parallelism.sharding fsdp2 is PyTorch's fully_shard", True)
    launch = spec.launch
    names = [
        (f"launch.{key}", value)
        for key, value in (
            ("program", launch.program),
            ("module", launch.module),
            ("workdir", launch.workdir),
        )
        if value
    ]
    for where, value in names:
        if _MEGATRON.search(value):
            return Framework("megatron", f"{where} {value!r} names Megatron or NeMo", True)
    for where, value in names:
        if _PYTORCH.search(value):
            return Framework("pytorch", f"{where} {value!r} names a PyTorch training library", True)
    model_parallel = [
        f"{key} {size}" for key, size in (("tp", p.tp), ("pp", p.pp), ("cp", p.cp), ("ep", p.ep)) if size > 1
    ]
    if p.sequence_parallel:
        model_parallel.append("sequence_parallel")
    if p.vpp:
        model_parallel.append(f"vpp {p.vpp}")
    if model_parallel:
        return Framework(
            "megatron",
            f"parallelism {', '.join(model_parallel)} with sharding {p.sharding} is a Megatron layout",
            True,
        )
    return Framework("pytorch", f"sharding {p.sharding} without model parallelism: a DDP or plain loop", True)
