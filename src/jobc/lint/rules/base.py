"""What a rule is: metadata, a docstring that documents it, and a check over a Context."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from types import ModuleType

from jobc.core.diagnostics import Hit, Severity
from jobc.core.record import record
from jobc.spec.context import Context


@record
class Meta:
    code: str  # JC101
    name: str  # srun-tasks-per-gpu
    severity: Severity
    summary: str  # one line, no trailing period
    remediation: str  # what to do, a sentence


Check = Callable[[Context], Iterable[Hit]]


@record
class Rule:
    meta: Meta
    source_doc: str  # the rule module's docstring as written
    check: Check | None  # None: reported by the loader itself (the JC0 input rules)

    @property
    def code(self) -> str:
        return self.meta.code

    @property
    def doc(self) -> str:
        """Explanation with a bad and a good example (markdown)."""
        import inspect  # only `jobc rule(s)`, SARIF and the docs read it; lint need not import it

        return inspect.cleandoc(self.source_doc)


def _no_check(ctx: Context) -> Iterator[Hit]:
    return iter(())


def from_module(module: ModuleType) -> Rule:
    meta = module.META
    if not isinstance(meta, Meta):
        raise TypeError(f"{module.__name__}.META is not a Meta")
    check = getattr(module, "check", None)
    return Rule(meta, module.__doc__ or "", check)
