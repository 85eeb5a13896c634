"""`jobc plan`'s content: what the job will be, as plain data and as text.

World and data-parallel sizes, where every rank sits (node, local rank, tp/cp/dp/pp and expert
coordinates in Megatron-Core's rank order) and the per-GPU memory of the most loaded rank with
the assumptions behind it. `build` gathers it from a checked spec (the JSON output is exactly
that data); `render` writes the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jobc.core.text import visible
from jobc.memory import context as mem
from jobc.memory import picture
from jobc.memory import ranks as layout
from jobc.memory.params import count

if TYPE_CHECKING:
    from jobc.memory.shape import ModelShape
    from jobc.spec.context import Context

# The JSON lists every rank of worlds up to this size (the text never lists more than a page).
_JSON_RANKS = 65536


def build(
    ctx: Context, file: str, sweep: dict[str, Any] | None, launch: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Everything the plan shows, as plain data (the JSON output). `sweep` is the array the
    compiler makes of `sweep:` (`array`, the `--array` value, and `tasks`, each task's values);
    `launch` what the compiler says of the launch (`launch`, the effective launch in one line,
    and `defaults`, each field the spec left to a default that reaches the script)."""

    p = ctx.spec.parallelism
    gpu = ctx.gpu
    sizes = mem.sizes(ctx)
    data: dict[str, Any] = {
        "spec": file,
        "world": ctx.world,
        "nodes": ctx.nodes,
        "gpus_per_node": ctx.gpus_per_node,
        "gpu": {"key": gpu.key, "title": gpu.title, "memory_bytes": gpu.memory_bytes} if gpu else None,
        "parallelism": {
            "tp": p.tp,
            "cp": p.cp,
            "pp": p.pp,
            "vpp": p.vpp,
            "dp": sizes.dp if sizes else None,
            "ep": p.ep,
            "etp": ctx.etp,
            "edp": sizes.edp if sizes else None,
            "sequence_parallel": p.sequence_parallel,
            "sharding": p.sharding,
        },
        "workload": _workload(ctx, sizes.dp if sizes else None),
        "launch": (launch or {}).get("launch"),
        "defaults": (launch or {}).get("defaults", {}),
        "sweep": sweep,
        "model": None,
        "params": None,
        "memory": None,
        "stages": [],
        "layout": {"order": layout.ORDER, "ranks": []},
        "assumptions": [],
        "notes": [],
    }
    notes: list[str] = data["notes"]
    if sizes is None:
        notes.append(
            f"no rank layout: tp·cp·pp = {p.tp * p.cp * p.pp} or etp·ep·pp = {ctx.etp * p.ep * p.pp} "
            f"does not divide the world of {ctx.world} GPUs"
        )
    else:
        if sizes.world <= _JSON_RANKS:
            data["layout"]["ranks"] = [c.as_dict() for c in layout.ranks(sizes, ctx.gpus_per_node)]
        else:
            notes.append(
                f"layout.ranks lists worlds of up to {_JSON_RANKS:,} ranks; every coordinate follows "
                f"from the order {layout.ORDER}"
            )
        if not layout.tp_within_nodes(sizes, ctx.gpus_per_node):
            notes.append(
                f"tp {p.tp} does not fit in a node of {ctx.gpus_per_node} GPUs: tp traffic crosses nodes"
            )
    found = mem.resolution(ctx)
    shape = found.shape if found is not None else None
    if ctx.spec.model is None:
        notes.append("no model: memory not estimated (add a model section: preset, hf_config or fields)")
    elif found is not None and found.problems:
        notes += [problem.message for problem in found.problems]
    elif shape is None and found is not None:
        notes.append(
            f"model incomplete: memory not estimated (missing model.{', model.'.join(found.missing)})"
        )
    if shape is not None:
        counts = count(shape)
        data["model"] = _model(shape)
        data["params"] = counts.breakdown()
    estimate = mem.estimate_for(ctx)
    if estimate is not None:
        memory: dict[str, Any] = {
            "stage": estimate.stage,
            "phase": estimate.phase,
            **estimate.as_dict(),
            "complete": estimate.complete,
            "not_estimated": list(estimate.uncounted),
            "needs": list(estimate.needs),
        }
        if not estimate.complete:
            notes.append(
                f"{' and '.join(estimate.uncounted)} not estimated: set "
                f"{' and '.join(estimate.needs)}; the total is a lower bound"
            )
        if gpu is not None:
            memory["gpu_memory_bytes"] = gpu.memory_bytes
            # "fits" needs everything counted; a lower bound can only show that it does not
            over = estimate.total > gpu.memory_bytes
            memory["fits"] = False if over else (True if estimate.complete else None)
        else:
            notes.append("no GPU type (resources.gpu or cluster.gpu): the estimate is not compared")
        data["memory"] = memory
        data["stages"] = list(estimate.stage_totals)
        first, *rest = estimate.assumptions
        data["assumptions"] = [first, *mem.spec_assumptions(ctx), *rest]
    return data


def _workload(ctx: Context, dp: int | None) -> dict[str, Any]:
    w = ctx.spec.workload
    out: dict[str, Any] = {
        "kind": w.kind,
        "seq_length": w.seq_length,
        "micro_batch": w.micro_batch,
        "global_batch": w.global_batch,
        "recompute": w.recompute,
        "microbatches": None,
        "framework": ctx.framework.name,
        "framework_inferred": ctx.framework.inferred,
    }
    if w.global_batch is not None and dp:
        out["microbatches"] = w.global_batch // (w.micro_batch * dp)
    return out


def _model(shape: ModelShape) -> dict[str, Any]:
    out: dict[str, Any] = {
        "source": shape.source,
        "family": shape.family,
        "layers": shape.layers,
        "hidden": shape.hidden,
        "heads": shape.heads,
        "kv_heads": shape.kv_heads,
        "head_dim": shape.head_dim,
        "ffn_hidden": shape.ffn_hidden,
        "vocab": shape.vocab,
        "tied_embeddings": shape.tied_embeddings,
        "dtype": shape.dtype,
        "checkpoint_dtype": shape.checkpoint_dtype,
        "moe": None,
    }
    if shape.moe is not None:
        m = shape.moe
        out["moe"] = {
            "experts": m.experts,
            "top_k": m.top_k,
            "expert_ffn_hidden": m.ffn_hidden,
            "shared_experts": m.shared_experts,
            "shared_ffn_hidden": m.shared_ffn_hidden,
            "moe_layers": shape.moe_layer_count,
        }
    return out


# ---------------------------------------------------------------------------------------------
# Text


def _gb(n: int) -> str:
    return f"{n / 1e9:8.1f} GB {n / (1 << 30):8.1f} GiB"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def render(data: dict[str, Any], colour: bool = False) -> str:
    """The plan as text; `colour` paints the layout's groups and the memory bar."""
    lines: list[str] = [f"plan for {data['spec']}", ""]
    par, gpu = data["parallelism"], data["gpu"]
    gpu_text = f", {gpu['key']} ({gpu['memory_bytes'] / 1e9:.1f} GB)" if gpu else ""
    lines.append(
        f"world      {data['world']} = {_count(data['nodes'], 'node')} × "
        f"{_count(data['gpus_per_node'], 'GPU')}{gpu_text}"
    )
    lines.append(
        f"dense      tp {par['tp']} × cp {par['cp']} × dp {par['dp'] or '?'} × pp {par['pp']}"
        + (f" (vpp {par['vpp']})" if par["vpp"] else "")
        + (", sequence parallel" if par["sequence_parallel"] else "")
        + f", sharding {par['sharding']}"
    )
    if data["model"] and data["model"]["moe"]:
        lines.append(
            f"experts    etp {par['etp']} × ep {par['ep']} × edp {par['edp'] or '?'} × pp {par['pp']}"
        )
    w = data["workload"]
    work = f"workload   {w['kind']}"
    if w["seq_length"]:
        work += f", seq_length {w['seq_length']}"
    work += f", micro_batch {w['micro_batch']}"
    if w["global_batch"]:
        work += f", global_batch {w['global_batch']}"
        if w["microbatches"]:
            work += f" ({w['microbatches']} micro-batches per step)"
    if w["kind"] in ("pretrain", "finetune"):
        work += f", recompute {w['recompute']}"
        work += f", {w['framework']} code" + (" (inferred)" if w["framework_inferred"] else "")
    lines.append(work)
    if data.get("launch"):
        lines.append(f"launch     {visible(data['launch'])}")
    defaults = data.get("defaults") or {}
    for i, (field, value) in enumerate(defaults.items()):
        # the choices jobc made for what the spec left out, one a line
        lines.append(("defaults   " if i == 0 else " " * 11) + visible(f"{field}: {value}"))
    lines += _sweep_lines(data["sweep"])
    model, params = data["model"], data["params"]
    if model and params:
        text = (
            f"model      {model['source']}: {params['total']:,} parameters"
            f" ({params['active']:,} active), {model['layers']} layers, hidden {model['hidden']}"
        )
        if model["moe"]:
            m = model["moe"]
            text += f", {m['experts']} experts (top {m['top_k']}) in {m['moe_layers']} layers"
        lines.append(text)
    lines += [f"note       {note}" for note in data["notes"]]
    if data["parallelism"]["dp"] is not None:
        lines += ["", *picture.grid_lines(data, colour)]
    memory = data["memory"]
    if memory:
        lines += ["", *_memory_lines(data, colour)]
    if data["assumptions"]:
        lines += ["", "assumptions"]
        lines += [f"  - {a}" for a in data["assumptions"]]
    return "\n".join(lines) + "\n"


def _memory_lines(data: dict[str, Any], colour: bool) -> list[str]:
    memory = data["memory"]
    training = data["workload"]["kind"] in ("pretrain", "finetune")
    where = f"pipeline stage {memory['stage']}, " if data["parallelism"]["pp"] > 1 else ""
    out = [f"memory per GPU, most loaded rank ({where}peak during the {memory['phase']})"]
    out += picture.bar_lines(memory, colour)
    rows: list[tuple[str, int | None]] = [("weights", memory["weights_bytes"])]
    if memory["expert_weights_bytes"]:
        rows.append(("  of which experts", memory["expert_weights_bytes"]))
    if training:
        rows += [("gradients", memory["gradients_bytes"]), ("optimizer state", memory["optimizer_bytes"])]
    missing: list[str] = memory.get("not_estimated", [])
    needs = " and ".join(memory.get("needs", []))
    if data["workload"]["kind"] != "convert":
        rows.append(("activations", None if "activations" in missing else memory["activations_bytes"]))
    if "KV cache" in missing or memory["kv_cache_bytes"]:
        rows.append(("KV cache", None if "KV cache" in missing else memory["kv_cache_bytes"]))
    rows += [("overhead", memory["overhead_bytes"])]
    out += [
        f"  {name:<20}{_gb(value)}" if value is not None else f"  {name:<20}not estimated: set {needs}"
        for name, value in rows
    ]
    total = f"  {'total':<20}{_gb(memory['total_bytes'])}"
    out.append(total + (f"   at least: {' and '.join(missing)} not counted" if missing else ""))
    if "gpu_memory_bytes" in memory:
        capacity = memory["gpu_memory_bytes"]
        share = memory["total_bytes"] / capacity
        if share > 1:
            verdict = "does not fit" + (f", even without {' and '.join(missing)}" if missing else "")
        elif missing:
            verdict = f"not known to fit: {' and '.join(missing)} not estimated (set {needs})"
        else:
            verdict = "fits" if share <= 0.9 else "tight (above 90 %)"
        used = f"at least {share:.0%}" if missing else f"{share:.0%}"
        out.append(f"  {'GPU memory':<20}{_gb(capacity)}   {used} used: {verdict}")
    stages = data["stages"]
    if len(stages) > 1:
        out.append("  per stage: " + ", ".join(f"{i}: {t / 1e9:.1f} GB" for i, t in enumerate(stages)))
    return out


# sweeps up to this many tasks list every combination in the text (the JSON always does)
_SWEEP_ROWS = 64


def _sweep_lines(sweep: dict[str, Any] | None) -> list[str]:
    if not sweep:
        return []
    tasks = sweep["tasks"]
    lines = [f"sweep      {len(tasks)} array tasks (--array={sweep['array']})"]
    for index, combo in enumerate(tasks[:_SWEEP_ROWS]):
        lines.append(f"  task {index:<4} " + " ".join(f"{k}={v}" for k, v in combo.items()))
    if len(tasks) > _SWEEP_ROWS:
        lines.append(f"  … {len(tasks) - _SWEEP_ROWS} more (see --format json)")
    return lines
