"""The lint pipeline: read, merge profiles, apply overrides, validate, run rules, place findings."""

from __future__ import annotations

import errno
import os
import stat

from jobc.core import paths
from jobc.core.diagnostics import DataPath, Edit, Finding, Fix, Hit, Related, Severity, Span
from jobc.core.numbers import ascii_int
from jobc.core.record import field, record
from jobc.lint.config import Config, enabled, severity_for
from jobc.reader import source as _source
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.core.paths import PathArg
    from jobc.lint.suppress import Suppression
    from jobc.spec.plain import JobSpec

COMMAND_LINE = "<command line>"


@record
class Override:
    """A `--set KEY=VALUE` from the command line, applied as if written in the spec."""

    path: tuple[str | int, ...]
    value: Any
    text: str


class OverrideError(ValueError):
    pass


def parse_override(text: str) -> Override:
    if any("\udc80" <= c <= "\udcff" for c in text):
        # the command line's undecodable bytes, as Python keeps them
        raise OverrideError(f"--set {text!r}: not valid UTF-8")
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise OverrideError(f"--set {text!r}: expected KEY=VALUE, e.g. --set resources.nodes=8")
    parts: list[str | int] = []
    for part in key.split("."):
        if not part:
            raise OverrideError(f"--set {text!r}: empty part in {key!r}")
        # ASCII digits of an index's size: "٣".isdigit() is true, and int() reads it as 3
        index = ascii_int(part)
        parts.append(index if index is not None else part)
    return Override(tuple(parts), _parse_value(raw), text)


def _parse_value(raw: str) -> Any:
    """A YAML scalar or flow collection, read as the spec file would read it."""
    if not raw.strip():
        return raw
    parsed = _source.parse_text(raw, COMMAND_LINE)
    if parsed.ok and parsed.data is not None:
        return parsed.data
    return raw


@record(frozen=False)
class Result:
    """Everything lint learned about one file."""

    file: str
    findings: list[Finding] = field(default_factory=list)
    spec: JobSpec | None = None
    context: Context | None = None
    is_profile: bool = False
    sources: list[_source.Source] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity >= Severity.ERROR]


if TYPE_CHECKING:
    from typing import Protocol

    class Places(Protocol):
        """How a file that is not YAML (a batch script) places what its rules find.

        The spec rules that run on a script report data paths into the spec the script was read
        into; the script knows which of its words each value came from.
        """

        def place(self, hit: Hit, run: Run) -> tuple[str, Span]:
            """The file and span a hit without a span of its own belongs at."""
            ...

        def related(self, file: str, span: Span) -> tuple[Related, ...]:
            """Other places a finding at `span` concerns (the command that runs a value)."""
            ...

        def fix(self, code: str, hit: Hit, file: str, span: Span) -> Fix | None:
            """The repair of the finding, as edits of the file's own text; None when none is certain."""
            ...


class Run:
    """One lint of one file: the layers (spec, then profiles) and where findings go."""

    def __init__(self, main: _source.Source, overrides: list[Override]) -> None:
        self.layers: list[_source.Source] = [main]
        self.overrides = overrides
        self.findings: list[Finding] = []
        self.rules_ran = False
        # Of a spec's findings, the first `gate` come from the checks that decide whether there is
        # a spec to compile at all (reading, schema, extends, interpolation, #SBATCH values). Their
        # errors stop `jobc compile` whatever the comments or the configuration say, so lint
        # reports them whatever those say too. None for a batch script: nothing is compiled.
        self.gate: int | None = None
        self.shell_files: set[str] = set()  # batch scripts: comments follow bash's rules
        # a file that is not YAML (a batch script) places data paths, and repairs, itself
        self.places: Places | None = None

    def emit(self, code: str, hit: Hit, *, layer: _source.Source | None = None) -> None:
        """Turn a rule's hit into a finding: the one way every finding of a spec, a profile or a
        script is made. A hit with a span is where it says; one with a data path is placed by the
        script's own places (`places`) or, in YAML, by the locator."""
        # `from jobc.lint import rules` would run importlib's Python code at every call
        import jobc.lint.rules as lint_rules

        meta = lint_rules.meta(code)
        over: Override | None = None
        if hit.span is not None:
            file, span = (layer or self.layers[0]).file, hit.span
        elif self.places is not None and layer is None:
            file, span = self.places.place(hit, self)
        else:
            file, span, over = self.place(hit.path, hit.at_value, layer)
        message = hit.message
        if over is not None:
            message = f"{message} (from --set {over.text})"
        severity = hit.severity if hit.severity is not None else meta.severity
        if self.places is not None:
            if hit.span is None and any(
                f.code == code and f.file == file and f.span == span and f.path != hit.path
                for f in self.findings
            ):
                # two spec values a script wrote in one place (`export MASTER_PORT=29500` is both
                # the rendezvous port and env MASTER_PORT): one finding there, not two
                return
            related = hit.related or self.places.related(file, span)
            fix = self.places.fix(code, hit, file, span)
        else:
            related = hit.related
            fix = None if hit.fix is None or over is not None else self.place_fix(hit.fix, file, layer)
        self.findings.append(Finding(code, meta.name, severity, message, file, span, hit.path, related, fix))

    def find(self, path: DataPath, at_value: bool, *, first: int = 0) -> tuple[str, Span] | None:
        """Where a layer from the `first` on says the value at `path`, when one says it exactly."""
        for src in self.layers[first:]:
            if src.tree is not None:
                from jobc.reader.locate import locate  # a YAML layer's: a script has no tree

                found = locate(src.tree, src.lines, path, at_value=at_value)
                if found.exact:
                    return src.file, found.span
        return None

    def place_fix(self, fix: Fix, file: str, layer: _source.Source | None = None) -> Fix | None:
        """The fix with every edit at a span of `file`; None when an edit lands anywhere else."""
        from jobc.reader.locate import entry_insertion, entry_removal

        edits = []
        for edit in fix.edits:
            if isinstance(edit.at, Span):
                edits.append(edit)
                continue
            if edit.remove:
                src = next((s for s in self.layers if s.file == file), None) if layer is None else layer
                gone = None if src is None else entry_removal(src.tree, src.text, edit.at)
                if gone is None:
                    return None
                edits.append(Edit(gone, ""))
                continue
            if edit.insert:
                # a new entry goes into the file the finding is in, as that file writes mappings
                src = next((s for s in self.layers if s.file == file), None) if layer is None else layer
                placed = None if src is None else entry_insertion(src.tree, src.text, edit.at, edit.text)
                if placed is None:
                    return None
                edits.append(Edit(*placed))
                continue
            where, span, over = self.place(edit.at, edit.at_value, layer)
            if where != file or over is not None:
                return None
            edits.append(Edit(span, edit.text))
        return Fix(tuple(edits), fix.applicability, fix.description)

    def _override_for(self, path: DataPath, *, created: bool = False) -> Override | None:
        """The --set that wrote this path (or, with `created`, a --set below it that made it exist)."""
        # keys compare as text: `--set env.0=x` parses 0 as a list index, the data has the key "0"
        want = tuple(map(str, path))
        for over in reversed(self.overrides):
            have = tuple(map(str, over.path))
            if want[: len(have)] == have or (created and want and have[: len(want)] == want):
                return over
        return None

    def place(
        self, path: DataPath, at_value: bool, layer: _source.Source | None = None
    ) -> tuple[str, Span, Override | None]:
        if layer is None and (over := self._override_for(path)) is not None:
            return COMMAND_LINE, self._command_line_span(over), over
        candidates = [layer] if layer is not None else self.layers
        first: tuple[str, Span] | None = None
        for src in candidates:
            if src.tree is None:
                continue
            from jobc.reader.locate import locate  # a YAML layer's: a script has no tree

            found = locate(src.tree, src.lines, path, at_value=at_value)
            if found.exact:
                return src.file, found.span, None
            if first is None:
                first = (src.file, found.span)
        if layer is None and (over := self._override_for(path, created=True)) is not None:
            return COMMAND_LINE, self._command_line_span(over), over
        file, span = first if first is not None else (candidates[0].file, Span.point(1, 1))
        return file, span, None

    @staticmethod
    def _command_line_span(over: Override) -> Span:
        return Span(1, 1, 1, len(f"--set {over.text}") + 1)

    @staticmethod
    def _requote(src: _source.Source, path: DataPath, message: str) -> Fix | None:
        """JC004's repair, from the value as written: the reader keeps only what it means."""
        from jobc.lint.rules.input.jc004_ambiguous_scalar import repair

        if src.tree is None:
            return None
        from jobc.reader.locate import locate

        found = locate(src.tree, src.lines, path, at_value=True)
        span = found.span
        if not found.exact or span.line != span.end_line or span.line > len(src.lines):
            return None
        return repair(src.lines[span.line - 1][span.col - 1 : span.end_col - 1], span, message)

    def source_problems(self, src: _source.Source) -> None:
        for problem in src.problems:
            if problem.span is None:
                fix = self._requote(src, problem.path, problem.message) if problem.code == "JC004" else None
                self.emit(problem.code, Hit(problem.path, problem.message, fix=fix), layer=src)
            else:
                from jobc.lint.rules import meta as rule_meta

                meta = rule_meta(problem.code)
                self.findings.append(
                    Finding(
                        problem.code,
                        meta.name,
                        meta.severity,
                        problem.message,
                        src.file,
                        problem.span,
                        problem.path,
                    )
                )


def lint_file(
    path: PathArg,
    *,
    config: Config | None = None,
    overrides: list[Override] | None = None,
    display: str | None = None,
) -> Result:
    """Lint one spec or profile file. Never raises for anything in the file's content.

    (`jobc.lint.scripts.lint_path` takes sbatch scripts too.)
    """
    config = config or Config()
    main = _source.read(path, display)
    return lint_source(main, path, config=config, overrides=overrides or [])


def lint_source(main: _source.Source, path: PathArg, *, config: Config, overrides: list[Override]) -> Result:
    run = Run(main, overrides)
    result = Result(main.file, sources=run.layers)
    _check(run, result, path)
    if run.gate is None:
        run.gate = len(run.findings)
    result.findings = finish(run, config)
    return result


def _check(run: Run, result: Result, path: PathArg) -> None:
    main = run.layers[0]
    run.source_problems(main)
    if not main.ok or any(p.code == "JC001" for p in main.problems):
        return
    data = main.data
    if not isinstance(data, dict):
        what = "nothing" if data is None else ("a list" if isinstance(data, list) else "a single value")
        run.emit(
            "JC003",
            Hit(
                (),
                f"a spec is a mapping of sections (version, name, resources, "
                f"launch, …); this file holds {what}",
            ),
            layer=main,
        )
        return
    version = data.get("version")
    if isinstance(version, int | float) and not isinstance(version, bool) and version != 1:
        run.emit(
            "JC005",
            Hit(("version",), f"version {version!r} is not supported; this jobc reads version 1"),
            layer=main,
        )
        return
    if "version" in data and (type(version) is not int or version != 1):
        # `version: "1"`, `version: 1.0`, `version: true`: the right version, written wrongly
        run.emit("JC003", Hit(("version",), f"version is {version!r}; write `version: 1`"), layer=main)
        return
    result.is_profile = "profile" in data and "name" not in data
    if "profile" in data and "name" in data:
        run.emit(
            "JC003",
            Hit(
                ("profile",),
                "a file is a job spec (name:) or a cluster profile (profile:), not both; "
                "a spec uses a profile with extends:",
                at_value=False,
            ),
            layer=main,
        )
        return
    chain = _load_chain(run, path)
    if chain is None:
        return
    merged = merge([src.data for src in reversed(run.layers)])
    merged.pop("extends", None)
    if not result.is_profile:
        merged.pop("profile", None)
    if run.overrides:
        import copy

        # the merge shares nested dicts and lists with the layers' own data; --set must not
        # write through into what the files said
        merged = copy.deepcopy(merged)
    for over in run.overrides:
        problem = _apply(merged, over)
        if problem:
            run.emit("JC003", Hit(over.path, problem))
            return
    _validate(run, result, merged, path)


def _load_chain(run: Run, spec_path: PathArg) -> bool | None:
    current = run.layers[0]
    if not isinstance(current.data, dict) or current.data.get("extends") is None:
        return True  # no profile to follow (a profile itself, a spec that names none)
    # paths as text, read as `pathlib` reads them (`jobc.core.paths`): importing pathlib was
    # about 2 ms of a cold spec lint, and making its objects a tenth of this function's time
    path = paths.plain(spec_path)
    seen = {_resolve(path)}
    current_path = path
    while isinstance(current.data, dict) and current.data.get("extends") is not None:
        target = current.data["extends"]
        if not isinstance(target, str) or not target.strip():
            run.emit("JC003", Hit(("extends",), "extends is a path to a cluster profile file"), layer=current)
            return None
        problem = _source.path_problem(target)
        status = None
        if problem is None:
            try:
                next_path = _resolve(paths.plain(os.path.join(paths.parent(current_path), target)))
                status = _status(next_path)
            except RuntimeError:  # a symlink loop (as Path.resolve() raises it)
                problem = "a symlink loop"
            except OSError as exc:
                problem = exc.strerror or str(exc)
        is_file = status is not None and stat.S_ISREG(status.st_mode)
        if problem is not None:
            run.emit("JC006", Hit(("extends",), f"extends {target!r}: {problem}"), layer=current)
            return None
        if next_path in seen:
            run.emit(
                "JC006",
                Hit(
                    ("extends",),
                    f"extends {target!r} makes a cycle: {paths.name(next_path)} is already in the chain",
                ),
                layer=current,
            )
            return None
        if not is_file:
            run.emit(
                "JC006",
                Hit(
                    ("extends",),
                    f"extends {target!r}: no such file (paths are relative to {paths.name(current_path)})",
                ),
                layer=current,
            )
            return None
        seen.add(next_path)
        display = _display_path(current, current_path, target)
        try:
            profile = read_profile(next_path, display, status)
        except OSError as exc:
            run.emit(
                "JC006", Hit(("extends",), f"extends {target!r}: cannot read: {exc.strerror}"), layer=current
            )
            return None
        run.layers.append(profile)
        run.source_problems(profile)
        if not profile.ok or any(p.code == "JC001" for p in profile.problems):
            return None
        pdata = profile.data
        if not isinstance(pdata, dict) or "profile" not in pdata:
            run.emit(
                "JC006",
                Hit(
                    ("extends",),
                    f"extends {target!r}: that file is not a cluster profile (it has no `profile:` key)",
                ),
                layer=current,
            )
            return None
        if not validate_profile(run, profile):
            return None
        current, current_path = profile, next_path
    return True


# The real directories of the files a run has resolved: the specs of a repository stand in a few
# directories and extend the same few profiles, and resolving each path anew (a stat of every
# component) was a tenth of a spec's lint in `jobc lint DIR`. Keyed with the working directory
# for a relative path; a run takes its directories' symbolic links as they were when first read.
_REAL_DIRS: dict[tuple[str, str], str] = {}


def _resolve(path: str) -> str:
    """`str(Path(path).resolve())`, with the directory's part remembered for the process.

    `realpath` resolves a path's components in order, so the real path of `dir/name` is the real
    directory joined with `name` whenever `name` is not a symbolic link (a missing name is
    joined as it is, as `realpath` does) and not `.` or `..`; anything else is resolved whole."""
    name = paths.name(path)
    if not name or name in (".", "..") or os.path.islink(path):
        return _real(path)
    parent = paths.parent(path)
    key = (parent, "" if os.path.isabs(parent) else os.getcwd())
    real = _REAL_DIRS.get(key)
    if real is None:
        real = _real(parent)
        if len(_REAL_DIRS) >= 256:
            _REAL_DIRS.clear()
        _REAL_DIRS[key] = real
    return os.path.join(real, name)


def _real(path: str) -> str:
    """`str(Path(path).resolve())` (not strict): `os.path.realpath`, and RuntimeError for a
    symbolic link loop, which `realpath` leaves in the path and `stat` then meets, as pathlib
    does."""
    try:
        real = os.path.realpath(path)
    except OSError as exc:
        _loop(exc)
        raise
    try:
        os.stat(real)
    except OSError as exc:
        _loop(exc)
    return paths.plain(real)


def _loop(exc: OSError) -> None:
    if exc.errno == errno.ELOOP:
        raise RuntimeError(f"Symlink loop from {exc.filename!r}")


# The specs of a repository extend the same few profiles, and a process that lints many of them
# (`jobc lint DIR`, the pre-commit hook) need not read each profile again for every spec. Keyed by
# the file's identity and modification, so an edited profile is read again. Lint only reads a
# layer's data (overrides are applied to a deep copy of the merged data), so sharing is safe.
_PROFILES: dict[tuple[str, str, int, int, int], _source.Source] = {}
_VALID_PROFILES: set[int] = set()  # ids of cached profiles that passed the schema check


def _status(path: str) -> os.stat_result | None:
    """`path.stat()`, or None where `Path.is_file()` says False without an error (no such file,
    a component that is not a directory, a symlink loop): the one stat a profile needs."""
    try:
        return os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return None
        raise
    except ValueError:
        return None


def read_profile(path: PathArg, display: str, st: os.stat_result | None = None) -> _source.Source:
    if st is None:
        st = os.stat(path)
    key = (os.fspath(path), display, st.st_ino, st.st_mtime_ns, st.st_size)
    src = _PROFILES.get(key)
    if src is None:
        if len(_PROFILES) >= 256:
            _PROFILES.clear()
            _VALID_PROFILES.clear()
        src = _PROFILES[key] = _source.read(path, display)
    return src


def _display_path(current: _source.Source, current_path: str, target: str) -> str:
    """Show a profile's path the way the user would type it, relative to the spec's directory."""
    if os.path.isabs(target):  # Path(target).is_absolute(), without making the path
        return target
    # normalised, so `clusters/../shared/p.yaml` reads as the file it is, and findings in one
    # profile reached through different specs carry the same name; the specs of one directory
    # name their profiles alike, so each name is worked out once
    key = (os.path.dirname(current.file), target)
    shown = _DISPLAYED.get(key)
    if shown is None:
        shown = os.path.normpath(os.path.join(paths.parent(current.file), target))
        if len(_DISPLAYED) >= 256:
            _DISPLAYED.clear()
        _DISPLAYED[key] = shown
    return shown


_DISPLAYED: dict[tuple[str, str], str] = {}


def validate_profile(run: Run, profile: _source.Source) -> bool:
    if id(profile) in _VALID_PROFILES:
        return True
    import jobc.spec.fastcheck as fast

    if fast.valid(profile.data, "Profile"):
        if any(src is profile for src in _PROFILES.values()):
            _VALID_PROFILES.add(id(profile))
        return True
    for hit in _explain(profile.data, profile=True):
        run.emit("JC003", hit, layer=profile)
    return False


def _explain(data: Any, *, profile: bool) -> list[Hit]:
    """Why the data fails the schema. Loads jsonschema and pydantic: only for invalid specs."""
    from jobc.spec.explain import explain

    hits = explain(data, profile=profile)
    if hits:
        return hits
    # the schema walker and the models disagree: let the models say it precisely
    from pydantic import ValidationError

    from jobc.spec.model import JobSpec, Profile

    try:
        (Profile if profile else JobSpec).model_validate(data)
    except ValidationError as exc:
        return [
            Hit(tuple(e["loc"]), f"{'.'.join(map(str, e['loc']))}: {e['msg']}")
            for e in exc.errors(include_url=False)
        ]
    return [Hit((), "the spec does not match the spec format")]


def merge(layers: list[Any]) -> dict[str, Any]:
    """Deep-merge mappings; a later layer wins. Lists and scalars are replaced whole."""
    out: dict[str, Any] = {}
    for layer in layers:
        if isinstance(layer, dict):
            out = _merge2(out, layer)
    return out


def _merge2(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge2(out[key], value)
        else:
            out[key] = value
    return out


def _apply(data: dict[str, Any], over: Override) -> str | None:
    """Set one override in the merged data; a message when its path cannot exist."""
    node: Any = data
    for i, part in enumerate(over.path):
        last = i == len(over.path) - 1
        where = ".".join(str(p) for p in over.path[:i])
        if isinstance(node, dict):
            if last:
                node[str(part)] = over.value
            else:
                if node.get(str(part)) is None:
                    node[str(part)] = {}
                node = node[str(part)]
        elif isinstance(node, list):
            if not isinstance(part, int) or part >= len(node):
                return f"cannot set {'.'.join(map(str, over.path))}: {where} has no item {part}"
            if last:
                node[part] = over.value
            else:
                node = node[part]
        else:
            return f"cannot set {'.'.join(map(str, over.path))}: {where} is a value, not a section"
    return None


def _validate(run: Run, result: Result, merged: dict[str, Any], path: PathArg) -> None:
    import jobc.spec.fastcheck as fast
    from jobc.spec.plain import JobSpec

    if not fast.valid(merged, "Profile" if result.is_profile else "JobSpec"):
        for hit in _explain(merged, profile=result.is_profile):
            run.emit("JC003", hit)
        return
    if result.is_profile:
        return
    spec = JobSpec.build(merged)
    own = run.layers[0].data if isinstance(run.layers[0].data, dict) else {}
    ctx = Context(spec=spec, data=merged, spec_dir=paths.parent(path), own=own)
    result.spec, result.context = spec, ctx
    if not _requirements(run, ctx):
        return
    import jobc.lint.rules as lint_rules
    from jobc.lint.live import current

    run.gate = len(run.findings)
    run.rules_ran = True
    for code, check in lint_rules.checks(ctx, "spec", live=current() is not None):
        for hit in check(ctx):
            run.emit(code, hit)


def _requirements(run: Run, ctx: Context) -> bool:
    """Checks the schema cannot express; without them the rules would reason about nonsense."""
    ok = True
    spec = ctx.spec
    if spec.resources.gpus_per_node is None and spec.cluster.gpus_per_node is None:
        run.emit(
            "JC003",
            Hit(
                ("resources",),
                "resources needs 'gpus_per_node' (or a cluster profile with cluster.gpus_per_node)",
                at_value=False,
            ),
        )
        ok = False
    launch = spec.launch
    if (launch.program is None) == (launch.module is None):
        message = (
            "launch needs 'program' (a script) or 'module' (python -m), not both"
            if launch.program is not None
            else "launch needs 'program' (a script) or 'module' (python -m)"
        )
        run.emit("JC003", Hit(("launch",), message, at_value=False))
        ok = False
    from jobc.spec.catalog import gpus

    for where in (("resources", "gpu"), ("cluster", "gpu")):
        key = getattr(spec, where[0]).gpu
        if key is not None and key not in gpus():
            import difflib

            # `h100` means one of the h100-* entries more often than the closest spelling
            close = [k for k in gpus() if k.startswith(key.lower())] or difflib.get_close_matches(
                key, list(gpus()), n=1, cutoff=0.5
            )
            hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
            run.emit(
                "JC003",
                Hit(where, f"{where[0]}.gpu {key!r} is not in the GPU catalogue ({', '.join(gpus())}){hint}"),
            )
            ok = False
    from jobc.spec.interpolate import fields, has_stray_brace, reference_problem, references, resolve

    _, unrendered = resolve(ctx)
    for data_path, message in unrendered:
        run.emit("JC008", Hit(data_path, message))
    for data_path, text in fields(ctx.data):
        if "{" not in text and "}" not in text:
            continue  # no reference and no stray brace: most of a spec's strings
        for ref in references(text):
            problem = reference_problem(ctx, ref)
            if problem is not None:
                run.emit("JC008", Hit(data_path, problem))
        if has_stray_brace(text):
            run.emit(
                "JC008",
                Hit(
                    data_path,
                    "a single '{' or '}' that is not an interpolation; write {{ or }} for a literal brace",
                ),
            )
    # Values that become #SBATCH lines: sbatch option names in slurm.extra, no line breaks.
    from jobc.compile.sbatch import problems as sbatch_problems

    for hit in sbatch_problems(ctx):
        run.emit("JC003", hit)
    # A model preset or config.json jobc cannot read; loaded only when the spec names one.
    model = spec.model
    if model is not None and (model.preset is not None or model.hf_config is not None):
        from jobc.memory.context import model_problems

        for hit in model_problems(ctx):
            run.emit("JC003", hit)
    return ok


def _suppressed(covering: dict[int, list[Suppression]], finding: Finding) -> bool:
    from jobc.lint import suppress

    return suppress.apply(covering, finding.code, finding.span)


def finish(run: Run, config: Config) -> list[Finding]:
    import jobc.lint.rules as lint_rules

    by_file = {src.file: src for src in run.layers}
    sups: dict[str, list[Suppression]] = {name: [] for name in by_file}
    covering: dict[str, dict[int, list[Suppression]]] = {}
    if any("jobc:" in src.text for src in by_file.values()):
        # a file without the marker has no suppression (`suppress.parse` finds none): most files,
        # which then do not import the suppressions' reader
        from jobc.lint import suppress

        sups = {
            name: suppress.parse(src.text, shell=name in run.shell_files) for name, src in by_file.items()
        }
        covering = {name: suppress.by_line(file_sups) for name, file_sups in sups.items()}
    kept: list[Finding] = []
    seen: set[tuple[Any, ...]] = set()
    for index, finding in enumerate(run.findings):
        blocking = run.gate is not None and index < run.gate and finding.severity >= Severity.ERROR
        if not blocking and not enabled(finding.code, config.select, config.ignore):
            continue
        if not blocking and covering.get(finding.file) and _suppressed(covering[finding.file], finding):
            continue
        key = (finding.file, finding.span, finding.code, finding.message)
        if key in seen:
            continue
        seen.add(key)
        severity = finding.severity if blocking else severity_for(config, finding.code, finding.severity)
        if severity != finding.severity:
            finding = Finding(  # noqa: PLW2901 - the re-levelled copy replaces the original
                finding.code,
                finding.name,
                severity,
                finding.message,
                finding.file,
                finding.span,
                finding.path,
                finding.related,
                finding.fix,
            )
        kept.append(finding)
    # an unused suppression is only known once every rule has had its say
    if run.rules_ran and enabled("JC007", config.select, config.ignore):
        meta = lint_rules.meta("JC007")
        for name, file_sups in sups.items():
            for sup in file_sups:
                unused = [c for c in sup.codes if c not in sup.used and _counts(c, config)]
                if not sup.codes:
                    kept.append(
                        Finding(
                            "JC007",
                            meta.name,
                            severity_for(config, "JC007", meta.severity),
                            "jobc: ignore[] names no rule; write the codes to ignore, "
                            "e.g. # jobc: ignore[JC201]",
                            name,
                            Span.point(sup.line, sup.col, sup.width),
                            fix=suppress.removal(
                                by_file[name].lines, sup, list(sup.codes), shell=name in run.shell_files
                            ),
                        )
                    )
                elif unused:
                    kept.append(
                        Finding(
                            "JC007",
                            meta.name,
                            severity_for(config, "JC007", meta.severity),
                            f"unused suppression: nothing here is reported as {', '.join(unused)}",
                            name,
                            Span.point(sup.line, sup.col, sup.width),
                            fix=suppress.removal(
                                by_file[name].lines, sup, unused, shell=name in run.shell_files
                            ),
                        )
                    )
    kept.sort(key=Finding.sort_key)
    return kept


def _counts(selector: str, config: Config) -> bool:
    """Whether an unused selector is worth reporting: it names a rule that ran, or none at all."""
    from jobc.lint.rules import RULES

    matching = [code for code in RULES if code.startswith(selector)]
    if not matching:
        return True
    return any(enabled(code, config.select, config.ignore) for code in matching)
