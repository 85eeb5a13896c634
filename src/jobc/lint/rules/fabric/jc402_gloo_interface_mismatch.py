"""Gloo and NCCL set to different network interfaces.

NCCL carries the training collectives; Gloo carries the CPU-side ones: the process-group
bootstrap, object collectives, and the group that asynchronous checkpointing (torch DCP,
Megatron's async save) uses to agree that a save finished. Gloo picks the interface its
hostname resolves to unless `GLOO_SOCKET_IFNAME` says otherwise, which on most clusters is the
slow, often firewalled management Ethernet; a save that hangs at the end, or a timeout in the
checkpoint group while training itself runs fine, is the symptom.

jobc exports the same interface to both (the one named in `fabric.interface`, or the one it
detects at run time with `auto`). This rule fires when the spec breaks that: a
`GLOO_SOCKET_IFNAME` that the NCCL setting does not match (`NCCL_SOCKET_IFNAME` takes prefixes,
`^` exclusions and `=` exact names; Gloo takes exact names), an `NCCL_SOCKET_IFNAME` that
differs from `fabric.interface` (jobc then still gives Gloo `fabric.interface`), or, with
asynchronous checkpoints on a multi-node job, an `NCCL_SOCKET_IFNAME` with no Gloo setting
at all.

Warning: the job may still work when both networks route between the nodes.

Bad:

```yaml
fabric:
  interface: ib0
  env: {GLOO_SOCKET_IFNAME: eth0}
resilience: {checkpoint: {async: true}}
```

Good:

```yaml
fabric: {interface: ib0}       # NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME both ib0
resilience: {checkpoint: {async: true}}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules._env import Setting, lookup
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC402",
    name="gloo-interface-mismatch",
    severity=Severity.WARNING,
    summary="Gloo (used by async checkpointing) and NCCL use different network interfaces",
    remediation=(
        "Name the interface once in fabric.interface (or leave it auto) and remove "
        "GLOO_SOCKET_IFNAME / NCCL_SOCKET_IFNAME from env and fabric.env."
    ),
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def nccl_matches(spec: str, name: str) -> bool:
    """Whether NCCL_SOCKET_IFNAME ``spec`` selects interface ``name`` (NCCL's own rules)."""
    text = spec.strip()
    exclude = text.startswith("^")
    if exclude:
        text = text[1:]
    prefixes = [raw.strip() for raw in text.split(",") if raw.strip()]
    hit = any(name == p[1:] if p.startswith("=") else name.startswith(p) for p in prefixes)
    return not hit if exclude else hit


def check(ctx: Context) -> Iterator[Hit]:
    fabric = ctx.spec.fabric
    named = fabric.interface not in (None, "auto")
    gloo = lookup(ctx, "GLOO_SOCKET_IFNAME")
    nccl = lookup(ctx, "NCCL_SOCKET_IFNAME")
    if gloo is not None:
        yield from _fixed_gloo(ctx, gloo, nccl)
        return
    if nccl is None:
        return
    if named and nccl.text.strip() != fabric.interface:
        yield Hit(
            nccl.path,
            f"{nccl.where} is {nccl.text!r} but fabric.interface is {fabric.interface!r}, which "
            "jobc still gives to Gloo: NCCL and Gloo end up on different interfaces; name the "
            "interface once, in fabric.interface",
        )
    elif not named and ctx.multinode and ctx.spec.resilience.checkpoint.async_:
        yield Hit(
            nccl.path,
            f"{nccl.where} is {nccl.text!r} but nothing sets GLOO_SOCKET_IFNAME, so Gloo, which "
            "asynchronous checkpointing uses, takes the interface the host name resolves to; "
            "set fabric.interface instead (jobc gives it to both)",
        )


def _fixed_gloo(ctx: Context, gloo: Setting, nccl: Setting | None) -> Iterator[Hit]:
    fabric = ctx.spec.fabric
    names = [n.strip() for n in gloo.text.split(",") if n.strip()]
    if nccl is not None:
        spec, source = nccl.text, nccl.where
    elif fabric.interface not in (None, "auto"):
        spec, source = f"={fabric.interface}", "fabric.interface"
    elif fabric.interface == "auto":
        yield Hit(
            gloo.path,
            f"{gloo.where} fixes Gloo to {gloo.text!r} while fabric.interface is auto, which picks "
            "NCCL's interface on each node at run time; the two can differ; remove it (jobc "
            "exports the detected interface to Gloo too)",
        )
        return
    else:
        return
    wrong = [n for n in names if not nccl_matches(spec, n)]
    if wrong or not names:
        fix = (
            "set both to the same interface"
            if words.in_script(ctx)
            else "remove it and name the interface once in fabric.interface"
        )
        yield Hit(
            gloo.path,
            f"{gloo.where} is {gloo.text!r} but NCCL uses {spec.lstrip('=')!r} ({source}): Gloo, "
            f"which asynchronous checkpointing and the process-group bootstrap use, runs on "
            f"another network; {fix}",
        )
