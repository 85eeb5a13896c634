"""Linting an sbatch script: its facts become a Context the spec rules read, plus the JC8 rules.

The script is read into facts (`jobc.script`), the facts into spec-shaped data (the lint view of
`jobc.script.spec`, merged over a cluster profile when one is given), and that data into the same
`Context` a spec gives. Every rule whose pitfall a script can have says so in its own module (a
`check_script`, or `SCRIPTS = True` when its spec check reads the same on a script) and runs on
it with its code. The pipeline's one emitter makes the findings: a hit with a span is where it
says, and one with a data path is placed by `ScriptPlaces` at the script words the value came
from.
"""

from __future__ import annotations

from jobc.core import paths
from jobc.core.diagnostics import Finding, Fix, Hit, Related, Severity, Span
from jobc.lint.config import Config
from jobc.lint.pipeline import (
    Override,
    Result,
    Run,
    finish,
    lint_file,
    lint_source,
    merge,
    read_profile,
    validate_profile,
)
from jobc.reader import source as _source
from jobc.spec.context import Context
from jobc.tables.slurm_options import SPEC_PATH

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path

    from jobc.core.paths import PathArg
    from jobc.script.facts import ScriptFacts
    from jobc.script.spec import Derived


def lint_path(
    path: PathArg,
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
    config = config or Config()
    if paths.suffix(path).lower() not in _source.SPEC_SUFFIXES:
        # (a spec's lint does not load the script package to learn that YAML is not a script)
        from jobc.script.detect import HEAD, looks_like_script

        if data is None:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                data = None  # lint_file reports why the file cannot be read
        # a script is read once: the bytes that show it is one are the bytes that are parsed
        if data is not None and looks_like_script(data[:HEAD]):
            return lint_script(path, config=config, display=display, profile=profile, data=data)
    if data is not None:
        main = _source.parse_bytes(data, display if display is not None else paths.plain(path))
        return lint_source(main, path, config=config, overrides=overrides or [])
    return lint_file(path, config=config, overrides=overrides, display=display)


def lint_script(
    path: PathArg,
    *,
    config: Config,
    display: str | None = None,
    profile: Path | None = None,
    data: bytes | None = None,
) -> Result:
    from jobc.script import bashcheck

    if data is None:
        with open(path, "rb") as handle:
            data = handle.read()
    # bash's check of the script starts now, so that it runs while the reader is imported
    bashcheck.ahead_of_script(data)
    from jobc.script.parse import read_bytes

    try:
        facts = read_bytes(data, display or paths.plain(path), paths.parent(path))
    finally:
        bashcheck.drop_ahead()
    main = _source.Source(facts.file, "\n".join(facts.lines))
    main.lines = facts.lines  # the lines the script was read into; not split a second time
    run = Run(main, [])
    run.shell_files.add(facts.file)
    result = Result(facts.file, sources=run.layers)
    _check(run, result, facts, path, config=config, profile=profile)
    result.findings = finish(run, config)
    return result


def _check(
    run: Run, result: Result, facts: ScriptFacts, path: PathArg, *, config: Config, profile: Path | None
) -> None:
    from jobc.script.spec import derive

    for problem in facts.problems:
        severity = {"error": Severity.ERROR, "info": Severity.INFO}.get(problem.severity, Severity.WARNING)
        run.emit("JC800", Hit((), problem.message, severity=severity, span=problem.span))
    if not facts.readable and not facts.directives:
        return
    chosen = profile
    if chosen is None and config.profile:
        from pathlib import Path

        chosen = Path(config.profile)
    layer = _profile(run, chosen) if chosen is not None else None
    if chosen is not None and layer is None:
        return
    derived = derive(facts, for_lint=True, has_profile=layer is not None)
    ctx = _context(derived, layer, path)
    if ctx is None:
        return
    ctx.facts["script"] = facts
    ctx.facts["derived"] = derived
    result.context = ctx
    run.rules_ran = True
    run.places = ScriptPlaces(facts, derived, ctx)
    from jobc.lint.live import current
    from jobc.lint.rules import checks

    for code, check in checks(ctx, "script", live=current() is not None):
        for hit in check(ctx):
            run.emit(code, hit)


def _profile(run: Run, path: Path) -> _source.Source | None:
    meta_file = str(path)
    if not path.is_file():
        run.findings.append(_problem(meta_file, f"--profile {path}: no such file or directory"))
        return None
    layer = read_profile(path.resolve(), str(path))
    run.layers.append(layer)
    run.source_problems(layer)
    if not layer.ok or not isinstance(layer.data, dict) or "profile" not in layer.data:
        if layer.ok:
            run.findings.append(
                _problem(layer.file, f"{path} is not a cluster profile (it has no `profile:` key)")
            )
        return None
    if not validate_profile(run, layer):
        return None
    return layer


def _problem(file: str, message: str) -> Finding:
    from jobc.lint.rules import meta as rule_meta

    meta = rule_meta("JC006")
    return Finding("JC006", meta.name, meta.severity, message, file, Span.point(1, 1))


def _context(derived: Derived, layer: _source.Source | None, path: PathArg) -> Context | None:
    from jobc.spec import fastcheck
    from jobc.spec.plain import JobSpec

    layers = [layer.data] if layer is not None else []
    merged = merge([*layers, derived.data])
    merged.pop("profile", None)
    merged.pop("extends", None)
    if not fastcheck.valid(merged, "JobSpec"):
        # a value the script wrote that no spec could hold (a port out of range, a signal jobc
        # does not send): the spec rules are skipped, the script rules still run
        merged = merge([*layers, _minimal(derived)])
        merged.pop("profile", None)
        if not fastcheck.valid(merged, "JobSpec"):
            return None
    spec = JobSpec.build(merged)
    return Context(spec=spec, data=merged, spec_dir=paths.parent(path), own=derived.data)


def _minimal(derived: Derived) -> dict[str, object]:
    data = derived.data
    kept: dict[str, object] = {}
    keep = {"version": 1, "name": data["name"], "resources": kept, "launch": {"program": "train.py"}}
    resources = data.get("resources", {})
    for key in ("nodes", "gpus_per_node"):
        if isinstance(resources.get(key), int) and resources[key] >= (1 if key == "nodes" else 0):
            kept[key] = resources[key]
    return keep


class ScriptPlaces:
    """Where a spec rule's finding lands in the script, and the script's own repair of it.

    A hit with a data path points at the script words the value came from (`Derived.spans`), at
    the cluster profile that said it, or, for what the script does not say at all (no --time),
    at its block of directives.
    """

    def __init__(self, facts: ScriptFacts, derived: Derived, ctx: Context) -> None:
        self.facts, self.derived, self.ctx = facts, derived, ctx

    def place(self, hit: Hit, run: Run) -> tuple[str, Span]:
        path = hit.path
        for n in range(len(path), 0, -1):
            span = self.derived.spans.get(path[:n])
            if span is not None:
                return self.facts.file, span
        # a value from the cluster profile (its partitions' limits, its GPUs): point there
        found = run.find(path, hit.at_value, first=1)
        if found is not None:
            return found
        # written, but after the first command, where sbatch no longer reads it: the user's edit
        # is to move that line (JC801 says so at the same place)
        late = [d for d in self.facts.directives if not d.honoured and SPEC_PATH.get(d.name) == path]
        if late:
            line = late[-1].span.line
            return self.facts.file, Span(line, 1, line, len(self.facts.lines[line - 1]) + 1)
        # of a heterogeneous job, the first component's lines: the job's request the rules read
        directives = [d for d in self.facts.directives if d.honoured and self.facts.component(d) == 0]
        if directives:
            last = directives[-1].span.line
            return self.facts.file, Span(last, 1, last, len(self.facts.lines[last - 1]) + 1)
        return self.facts.file, Span.point(1, 1)

    def related(self, file: str, span: Span) -> tuple[Related, ...]:
        """For a value written in one place and run in another (a variable, an array element, a
        function's argument): the command that runs it."""
        if file != self.facts.file:
            return ()
        for origin, ran in self.facts.origins:
            if _inside(span, origin) and not _inside(span, ran):
                return (Related(ran, "the command that runs this value"),)
        return ()

    def fix(self, code: str, hit: Hit, file: str, span: Span) -> Fix | None:
        if file != self.facts.file:
            return None
        if hit.fix is not None and all(isinstance(edit.at, Span) for edit in hit.fix.edits):
            fix: Fix | None = hit.fix
        else:
            # a spec rule's repair is written in the spec's terms; the script's is made here
            from jobc.lint.rules.script._fixes import script_fix

            fix = script_fix(code, span, self.facts, self.ctx)
        return None if fix is not None and self._unrun(fix) else fix

    def _unrun(self, fix: Fix) -> bool:
        """Whether the repair edits a command bash never runs: where bash refuses to parse the
        script, the job stops there whatever follows, so a repair at or below that point changes
        nothing the job does but the text bash quotes in its complaint (and cannot be shown to keep
        anything). `#SBATCH` and other comment lines are sbatch's, not bash's: they stay open."""
        first = self.facts.unrun_from
        if first is None:
            return False
        lines = self.facts.lines
        for edit in fix.edits:
            at = edit.at
            if not isinstance(at, Span):
                return True  # not placed in the script's text: nothing to show it is above
            if at.line >= first and _code(edit.text):
                return True  # new commands written where bash no longer runs anything
            if (at.line, at.col) == (at.end_line, at.end_col) and at.col == 1:
                continue  # new lines put in above a line leave that line as it is
            # a span that ends at the start of a line (a whole line taken out) leaves that line be
            last = at.end_line - 1 if at.end_col == 1 and at.end_line > at.line else at.end_line
            if any(_code(lines[n - 1]) for n in range(max(at.line, first), min(last, len(lines)) + 1)):
                return True
        return False


def _code(text: str) -> bool:
    """Whether the text holds a line bash would run (not blank, not a comment)."""
    return any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines())


def _inside(inner: Span, outer: Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )
