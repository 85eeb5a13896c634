"""Linting an sbatch script: its facts become a Context the spec rules read, plus the JC8 rules.

The script is read into facts (`jobc.script`), the facts into spec-shaped data (the lint view of
`jobc.script.spec`, merged over a cluster profile when one is given), and that data into the same
`Context` a spec gives. Every rule whose pitfall a script can have runs on it and keeps its code;
a finding's data path is mapped back to the script line and column the value came from.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from jobc.core.diagnostics import DataPath, Edit, Finding, Fix, Hit, Related, Severity, Span
from jobc.lint.config import Config
from jobc.lint.pipeline import (
    Override,
    Result,
    _finish,
    _merge,
    _read_profile,
    _Run,
    _validate_profile,
    lint_file,
    lint_source,
)
from jobc.reader import source as _source
from jobc.spec.context import Context

if TYPE_CHECKING:
    from jobc.lint.rules.base import Check
    from jobc.script.facts import ScriptFacts
    from jobc.script.spec import Derived

# Spec rules whose pitfall a batch script can have in the same form.
SPEC_RULES = (
    "JC101",
    "JC102",
    "JC103",
    "JC104",
    "JC106",
    "JC107",
    "JC108",
    "JC109",
    "JC401",
    "JC402",
    "JC404",
    "JC406",
    "JC407",
    "JC501",
    "JC504",
    "JC601",
    "JC604",
    "JC701",
    "JC702",
)
# Spec rules that reason from the launch mode: silent when the script hides what its step runs
# (`srun bash -c "$step"`, `srun ./run.sh`), where guessing a mode would only guess a finding.
MODE_RULES = frozenset({"JC101", "JC102"})
_SETUP_LINE = re.compile(r"\bsetup line \d+\b")
_CHECKS: list[tuple[str, Check]] = []  # filled on the first script


def lint_path(
    path: Path,
    *,
    config: Config | None = None,
    overrides: list[Override] | None = None,
    display: str | None = None,
    profile: Path | None = None,
    data: bytes | None = None,
) -> Result:
    """Lint a spec, a cluster profile or an sbatch script, whichever the file is.

    `data` is the file's content when it is not (or not yet) what is on disk: fixes are linted
    again before anything is written.
    """
    from jobc.script.detect import HEAD, SPEC_SUFFIXES, looks_like_script

    config = config or Config()
    if path.suffix.lower() not in SPEC_SUFFIXES:
        if data is None:
            try:
                data = path.read_bytes()
            except OSError:
                data = None  # lint_file reports why the file cannot be read
        # a script is read once: the bytes that show it is one are the bytes that are parsed
        if data is not None and looks_like_script(data[:HEAD]):
            return lint_script(path, config=config, display=display, profile=profile, data=data)
    if data is not None:
        main = _source.parse_bytes(data, display if display is not None else str(path))
        return lint_source(main, path, config=config, overrides=overrides or [])
    return lint_file(path, config=config, overrides=overrides, display=display)


def lint_script(
    path: Path,
    *,
    config: Config,
    display: str | None = None,
    profile: Path | None = None,
    data: bytes | None = None,
) -> Result:
    from jobc.script.parse import read_bytes

    facts = read_bytes(path.read_bytes() if data is None else data, display or str(path), path.parent)
    main = _source.Source(facts.file, "\n".join(facts.lines))
    main.lines = facts.lines  # the lines the script was read into; not split a second time
    run = _Run(main, [])
    run.shell_files.add(facts.file)
    result = Result(facts.file, sources=run.layers)
    _check(run, result, facts, path, config=config, profile=profile)
    result.findings = _finish(run, config)
    return result


def _check(
    run: _Run, result: Result, facts: ScriptFacts, path: Path, *, config: Config, profile: Path | None
) -> None:
    from jobc.lint.rules import RULES
    from jobc.script.spec import derive

    for problem in facts.problems:
        severity = {"error": Severity.ERROR, "info": Severity.INFO}.get(problem.severity, Severity.WARNING)
        meta = RULES["JC800"].meta
        run.findings.append(Finding("JC800", meta.name, severity, problem.message, facts.file, problem.span))
    if not facts.readable and not facts.directives:
        return
    chosen = profile if profile is not None else (Path(config.profile) if config.profile else None)
    layer = _profile(run, chosen) if chosen is not None else None
    if chosen is not None and layer is None:
        return
    derived = derive(facts, for_lint=True, has_profile=layer is not None)
    ctx = _context(derived, layer, path)
    if ctx is None:
        return
    ctx.facts["script"] = facts
    result.context = ctx
    run.rules_ran = True
    for code, check in _script_checks():
        if code in MODE_RULES and not derived.mode_known:
            continue
        for hit in check(ctx):
            _emit(run, code, hit, derived, facts, ctx=ctx)


def _script_checks() -> list[tuple[str, Check]]:
    """The checks a script meets, in the registry's order: the script rules and SPEC_RULES."""
    if not _CHECKS:
        from jobc.lint.rules import RULES

        _CHECKS.extend(
            (code, rule.check)
            for code, rule in RULES.items()
            if rule.check is not None and (code.startswith("JC8") or code in SPEC_RULES)
        )
    return _CHECKS


def _profile(run: _Run, path: Path) -> _source.Source | None:
    meta_file = str(path)
    if not path.is_file():
        run.findings.append(_problem(meta_file, f"--profile {path}: no such file"))
        return None
    layer = _read_profile(path.resolve(), str(path))
    run.layers.append(layer)
    run.source_problems(layer)
    if not layer.ok or not isinstance(layer.data, dict) or "profile" not in layer.data:
        if layer.ok:
            run.findings.append(
                _problem(layer.file, f"{path} is not a cluster profile (it has no `profile:` key)")
            )
        return None
    if not _validate_profile(run, layer):
        return None
    return layer


def _problem(file: str, message: str) -> Finding:
    from jobc.lint.rules import RULES

    meta = RULES["JC006"].meta
    return Finding("JC006", meta.name, meta.severity, message, file, Span.point(1, 1))


def _context(derived: Derived, layer: _source.Source | None, path: Path) -> Context | None:
    from jobc.spec import fastcheck
    from jobc.spec.plain import JobSpec

    layers = [layer.data] if layer is not None else []
    merged = _merge([*layers, derived.data])
    merged.pop("profile", None)
    merged.pop("extends", None)
    if not fastcheck.valid(merged, "JobSpec"):
        # a value the script wrote that no spec could hold (a port out of range, a signal jobc
        # does not send): the spec rules are skipped, the script rules still run
        merged = _merge([*layers, _minimal(derived)])
        merged.pop("profile", None)
        if not fastcheck.valid(merged, "JobSpec"):
            return None
    spec = JobSpec.build(merged)
    return Context(spec=spec, data=merged, spec_dir=str(path.parent), own=derived.data)


def _minimal(derived: Derived) -> dict[str, object]:
    data = derived.data
    kept: dict[str, object] = {}
    keep = {"version": 1, "name": data["name"], "resources": kept, "launch": {"program": "train.py"}}
    resources = data.get("resources", {})
    for key in ("nodes", "gpus_per_node"):
        if isinstance(resources.get(key), int) and resources[key] >= (1 if key == "nodes" else 0):
            kept[key] = resources[key]
    return keep


def _emit(run: _Run, code: str, hit: Hit, derived: Derived, facts: ScriptFacts, *, ctx: Context) -> None:
    from jobc.lint.rules import RULES
    from jobc.lint.rules.script._facts import span_of
    from jobc.lint.rules.script._fixes import script_fix

    rule = RULES[code]
    severity = hit.severity if hit.severity is not None else rule.meta.severity
    message = hit.message
    span = span_of(hit.path)
    file = facts.file
    if span is None:
        span, file = _place(run, code, hit, derived, facts)
        if hit.path[:2] == ("launch", "setup"):
            message = _SETUP_LINE.sub(f"line {span.line}", message)
    related = hit.related or (_run_line(facts, span) if file == facts.file else ())
    fix = None
    if file == facts.file:
        # a spec rule's repair is written in the spec's terms; the script's is made here
        fix = _script_edits(hit.fix) if hit.fix is not None else None
        fix = fix or script_fix(code, span, facts, ctx)
    run.findings.append(Finding(code, rule.meta.name, severity, message, file, span, hit.path, related, fix))


def _run_line(facts: ScriptFacts, span: Span) -> tuple[Related, ...]:
    """For a value written in one place and run in another (a variable, an array element, a
    function's argument): the command that runs it, as a related location."""
    for origin, run in facts.origins:
        if _inside(span, origin) and not _inside(span, run):
            return (Related(run, "the command that runs this value"),)
    return ()


def _inside(inner: Span, outer: Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )


def _script_edits(fix: Fix) -> Fix | None:
    """A script rule's fix with every edit at a span of the script (None when one is a spec path)."""
    from jobc.lint.rules.script._facts import span_of

    edits = []
    for edit in fix.edits:
        span = edit.at if isinstance(edit.at, Span) else span_of(edit.at)
        if span is None:
            return None
        edits.append(Edit(span, edit.text))
    return Fix(tuple(edits), fix.applicability, fix.description)


def _place(run: _Run, code: str, hit: Hit, derived: Derived, facts: ScriptFacts) -> tuple[Span, str]:
    path: DataPath = hit.path
    if code == "JC106" and path in derived.expansions:
        return derived.expansions[path], facts.file
    for n in range(len(path), 0, -1):
        span = derived.spans.get(path[:n])
        if span is not None:
            return span, facts.file
    # a value from the cluster profile (its partitions' limits, its GPUs): point there
    for layer in run.layers[1:]:
        if layer.tree is not None:
            from jobc.reader.locate import locate

            found = locate(layer.tree, layer.lines, path, at_value=hit.at_value)
            if found.exact:
                return found.span, layer.file
    # the script does not say it at all (no --time on a multi-node job): its directives' block
    directives = [d for d in facts.directives if d.honoured]
    if directives:
        last = directives[-1].span.line
        return Span(last, 1, last, len(facts.lines[last - 1]) + 1), facts.file
    return Span.point(1, 1), facts.file
