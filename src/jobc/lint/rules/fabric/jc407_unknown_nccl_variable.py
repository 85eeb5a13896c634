"""An NCCL variable name that NCCL and PyTorch do not read: a typo, usually.

NCCL reads its settings from the environment once, when a communicator is created, and ignores
every name it does not know without a word: `NCCL_SOCKET_IFACE=ib0` leaves NCCL choosing its own
interface, and the job runs with defaults while looking tuned. jobc checks every `NCCL_*` and
`TORCH_NCCL_*` name in `fabric.env` and `env` against the names NCCL (2.2x–2.3x, plus older
names still read) and PyTorch's ProcessGroupNCCL read (with the flight recorder's `TORCH_FR_*`,
which jobc's compiled scripts set), suggests the closest known name, and
catches near misses of the prefix itself (`NCLL_DEBUG`). Names PyTorch has renamed
(`NCCL_ASYNC_ERROR_HANDLING` → `TORCH_NCCL_ASYNC_ERROR_HANDLING`) still work but warn at run
time and will stop working. Variables of network plugins that use their own `NCCL_<PLUGIN>_`
prefix (GCP TCPX/TCPXO, UCX, OFI) are accepted.

Warning: a name added by a newer NCCL than this list knows is reported too; suppress it with
`# jobc: ignore[JC407]` on its line.

Bad:

```yaml
fabric:
  env: {NCCL_SOCKET_IFACE: ib0, NCCL_ASYNC_ERROR_HANDLING: "1"}
```

Good:

```yaml
fabric:
  env: {NCCL_SOCKET_IFNAME: ib0, TORCH_NCCL_ASYNC_ERROR_HANDLING: "1"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules._env import settings
from jobc.lint.rules.base import Meta
from jobc.lint.rules.fabric._nccl_names import names
from jobc.spec.context import Context

META = Meta(
    code="JC407",
    name="unknown-nccl-variable",
    severity=Severity.WARNING,
    summary="An NCCL_* / TORCH_NCCL_* name that NCCL and PyTorch do not read (a typo)",
    remediation="Use the name suggested in the message; NCCL ignores unknown names silently.",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True

_PREFIXES = ("NCCL_", "TORCH_NCCL_", "TORCH_FR_")
# how close a name outside the NCCL prefixes must be to a known one to count as its typo
_TYPO_CUTOFF = 0.85
_SUGGEST_CUTOFF = 0.6


def check(ctx: Context) -> Iterator[Hit]:
    found = list(settings(ctx))
    if not found:
        return
    known = names()
    for setting in found:
        name = setting.name
        if name in known.renamed:
            yield Hit(
                setting.path,
                f"PyTorch renamed {name} to {known.renamed[name]}; the old name still works but "
                "warns at start-up and is going away; use the new name",
                at_value=False,
            )
            continue
        if known.known(name):
            continue
        if name.startswith(_PREFIXES):
            close = known.suggest(name, _SUGGEST_CUTOFF)
            hint = f"; did you mean {close}?" if close else ""
            yield Hit(
                setting.path,
                f"{setting.where} is not a variable NCCL or PyTorch reads, and NCCL ignores unknown "
                f"names without a word{hint}",
                at_value=False,
            )
            continue
        close = known.suggest(name, _TYPO_CUTOFF)
        if close is not None:
            yield Hit(
                setting.path,
                f"{setting.where} looks like a misspelling of {close}, which NCCL would read; as "
                f"written nothing reads it; did you mean {close}?",
                at_value=False,
            )
