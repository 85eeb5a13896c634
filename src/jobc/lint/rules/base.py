"""What a rule is: metadata, a docstring that documents it, and a check over a Context."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from types import ModuleType

from jobc.core.diagnostics import Applicability, Hit, Severity
from jobc.core.record import record
from jobc.spec.context import Context


@record
class Meta:
    code: str  # JC101
    name: str  # srun-tasks-per-gpu
    severity: Severity
    summary: str  # one line, no trailing period
    remediation: str  # what to do, a sentence


@record
class Repair:
    """What a rule's fix does, for its docs and `jobc rules`: a module's `FIX`."""

    applicability: Applicability  # safe: applied by --fix; unsafe: only with --unsafe-fixes
    what: str  # one sentence
    where: str = "specs and scripts"  # or "specs", "scripts": which files the rule repairs

    def describe(self) -> str:
        flag = "`--fix`" if self.applicability is Applicability.SAFE else "`--fix --unsafe-fixes`"
        return f"{self.applicability} ({flag}, in {self.where}): {self.what}"


Check = Callable[[Context], Iterable[Hit]]


@record
class Rule:
    meta: Meta
    source_doc: str  # the rule module's docstring as written
    check: Check | None  # None: reported by the loader itself (the JC0 input rules), or scripts only
    repair: Repair | None = None  # the rule offers a fix
    # what the rule checks in a batch script (read into a spec-shaped Context, with the script's
    # facts): the module's `check_script`, or its `check` when the module says `SCRIPTS = True`
    # (its findings read the same in a script); None: the rule has nothing to say about scripts
    script_check: Check | None = None

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
    repair = getattr(module, "FIX", None)
    if repair is not None and not isinstance(repair, Repair):
        raise TypeError(f"{module.__name__}.FIX is not a Repair")
    script_check = getattr(module, "check_script", None)
    if script_check is None and getattr(module, "SCRIPTS", False) is True:
        script_check = check
    return Rule(meta, module.__doc__ or "", check, repair, script_check)
