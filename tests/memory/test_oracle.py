"""An independent check of the estimate: PyTorch's own memory tracker on a real training step.

A small Llama-shaped model (RMSNorm with the fp32 upcast, grouped-query attention through SDPA,
RoPE, SwiGLU, an fp32 cross-entropy) trains for two steps under FSDP2 with a bf16
mixed-precision policy and AdamW, on a fake process group of W ranks, inside FakeTensorMode on
the CPU: no memory is allocated, yet FSDPMemTracker sees every tensor the step creates. Its peak
is compared with jobc's estimate for the same job (fsdp2 sharding, Hugging Face-style
activations) minus the overhead term, which covers what the tracker cannot see (CUDA context,
NCCL buffers, allocator fragmentation).

AdamW runs with foreach=False: under FakeTensorMode the foreach path with FSDP2 reports far more
optimizer memory than a real run does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from jobc.memory.estimate import Job, estimate
from jobc.memory.placement import Sizes
from jobc.memory.shape import ModelShape

torch = pytest.importorskip("torch", reason="the memory oracle needs torch (the dev group installs it)")

pytestmark = pytest.mark.runtime

TOLERANCE = 0.15


@dataclass(frozen=True)
class Case:
    vocab: int
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    ffn: int
    seq: int
    batch: int
    world: int  # ranks FSDP2 shards over
    full_recompute: bool = False


def _model(case: Case) -> Any:
    from torch import nn
    from torch.nn import functional as F
    from torch.utils.checkpoint import checkpoint as recompute

    vocab, hidden, heads, kv_heads, ffn = case.vocab, case.hidden, case.heads, case.kv_heads, case.ffn
    head_dim = hidden // heads

    class RMSNorm(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.ones(hidden))

        def forward(self, x: Any) -> Any:
            dtype = x.dtype
            x = x.to(torch.float32)
            x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)
            return self.weight * x.to(dtype)

    def rotate(x: Any) -> Any:
        a, b = x.chunk(2, dim=-1)
        return torch.cat((-b, a), dim=-1)

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm1, self.norm2 = RMSNorm(), RMSNorm()
            self.q = nn.Linear(hidden, heads * head_dim, bias=False)
            self.k = nn.Linear(hidden, kv_heads * head_dim, bias=False)
            self.v = nn.Linear(hidden, kv_heads * head_dim, bias=False)
            self.o = nn.Linear(heads * head_dim, hidden, bias=False)
            self.gate = nn.Linear(hidden, ffn, bias=False)
            self.up = nn.Linear(hidden, ffn, bias=False)
            self.down = nn.Linear(ffn, hidden, bias=False)

        def forward(self, x: Any, cos: Any, sin: Any) -> Any:
            b, t, _ = x.shape
            y = self.norm1(x)
            q = self.q(y).view(b, t, heads, head_dim).transpose(1, 2)
            k = self.k(y).view(b, t, kv_heads, head_dim).transpose(1, 2)
            v = self.v(y).view(b, t, kv_heads, head_dim).transpose(1, 2)
            q, k = q * cos + rotate(q) * sin, k * cos + rotate(k) * sin
            att = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            x = x + self.o(att.transpose(1, 2).reshape(b, t, -1))
            y = self.norm2(x)
            return x + self.down(F.silu(self.gate(y)) * self.up(y))

    class Llama(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, hidden)
            self.layers = nn.ModuleList(Block() for _ in range(case.layers))
            self.norm = RMSNorm()
            self.head = nn.Linear(hidden, vocab, bias=False)

        def forward(self, ids: Any) -> Any:
            t = ids.shape[1]
            inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
            freqs = torch.outer(torch.arange(t, dtype=torch.float32), inv)
            angles = torch.cat((freqs, freqs), -1)
            dtype = self.embed.weight.dtype
            cos, sin = angles.cos().to(dtype), angles.sin().to(dtype)
            x = self.embed(ids)
            for layer in self.layers:
                if case.full_recompute:
                    x = recompute(layer, x, cos, sin, use_reentrant=False)
                else:
                    x = layer(x, cos, sin)
            logits = self.head(self.norm(x))
            return F.cross_entropy(logits.float().view(-1, vocab), ids.view(-1))

    return Llama()


def _tracked_peak(case: Case) -> int:
    import torch.distributed as dist
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.distributed._tools.fsdp2_mem_tracker import FSDPMemTracker
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=case.world)
    try:
        mesh = init_device_mesh("cpu", (case.world,))  # outside fake mode: the mesh reads real tensors
        with FakeTensorMode():
            model = _model(case)
            policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
            for layer in model.layers:
                fully_shard(layer, mesh=mesh, mp_policy=policy)
            fully_shard(model, mesh=mesh, mp_policy=policy)
            optimizer = torch.optim.AdamW(model.parameters(), foreach=False)
            ids = torch.randint(0, case.vocab, (case.batch, case.seq))
            tracker = FSDPMemTracker(model, optimizer)
            tracker.track_inputs((ids,))
            with tracker:
                for step in range(2):  # the second step has optimizer state at its peak
                    model(ids).backward()
                    optimizer.step()
                    optimizer.zero_grad()
                    if step == 0:
                        tracker.reset_mod_stats()
            peak = tracker.get_tracker_snapshot("peak")
    finally:
        dist.destroy_process_group()
    (device,) = peak
    return int(peak[device]["Total"])


CASES = [
    pytest.param(Case(32000, 1024, 2, 16, 4, 2816, seq=1024, batch=2, world=4), id="activations-dominate"),
    pytest.param(
        Case(32000, 1024, 2, 16, 4, 2816, seq=1024, batch=2, world=4, full_recompute=True),
        id="full-recompute",
    ),
    pytest.param(Case(32000, 2048, 2, 16, 16, 5632, seq=512, batch=1, world=2), id="weights-dominate"),
    pytest.param(Case(50000, 3072, 2, 24, 4, 8192, seq=2048, batch=2, world=8), id="large-vocab"),
]


@pytest.mark.parametrize("case", CASES)
def test_estimate_within_tolerance_of_memtracker(case: Case) -> None:
    measured = _tracked_peak(case)
    shape = ModelShape(
        "oracle",
        "llama",
        case.layers,
        case.hidden,
        case.heads,
        case.kv_heads,
        case.hidden // case.heads,
        case.ffn,
        case.vocab,
    )
    sizes = Sizes.checked(case.world)
    assert sizes is not None
    job = Job(
        kind="training",
        sharding="fsdp2",
        seq_length=case.seq,
        micro_batch=case.batch,
        recompute="full" if case.full_recompute else "none",
        flavour="hf",
    )
    found = estimate(shape, sizes, job)
    tensors = found.total - found.overhead  # what a tensor tracker can see
    ratio = tensors / measured
    assert 1 - TOLERANCE <= ratio <= 1 + TOLERANCE, (
        f"estimate {tensors / 2**20:.1f} MiB vs MemTracker {measured / 2**20:.1f} MiB ({ratio:.3f}); "
        f"estimate peaks at the {found.phase}"
    )
