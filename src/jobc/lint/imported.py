"""The spec `jobc import` makes of a script: the script stage's reading of it, with every value
the spec rules object to, or that Slurm, bash or the launcher would refuse (JC809), taken out and
listed with the reason, so the spec it writes lints as cleanly as the script allows.

Here, not in `jobc.script`, because it runs the rules: each spec rule that declares a script
check (`script_check`) has its say on the imported values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts
    from jobc.script.spec import Derived


def imported(facts: ScriptFacts) -> Derived:
    """The import view, with every value the spec rules object to taken out (and said why)."""
    from jobc.script.spec import derive

    derived = derive(facts, for_lint=False)
    _leave_out_refused(facts, derived)
    for _ in range(3):
        problems = _pitfalls(derived)
        if not problems:
            break
        problems = [p for p in problems if p[0] not in _KEPT or _kept(derived, *p)]
        # a value kept as {unknown.NAME} stays in its place: JC008 names it until it is written;
        # but not one that holds a secret, which a spec never holds, computed around it or not
        problems = [p for p in problems if p[0] not in derived.templated or p[1] == "JC702"]
        # the last element of a list first: taking one out moves those after it down
        for path, code, message in sorted(problems, key=lambda p: _order(p[0]), reverse=True):
            span = derived.spans.get(path)
            if path in derived.templated:
                _forget_unknown(derived, path, span)
            if _remove(derived, path):
                line = derived.labels.get(path) or ".".join(map(str, path))
                derived.skip(span or _first(facts), line, f"left out, {code}: {message.split(';')[0]}")
    container = derived.data.get("container")
    if isinstance(container, dict) and container and "image" not in container:
        # pyxis options without an image (or with one left out above) describe no container
        derived.data.pop("container")
        # what was said of a container option's value goes with it: nothing of it is kept
        derived.unknown[:] = [u for u in derived.unknown if not u.startswith("container.")]
        spans = [span for path, span in derived.spans.items() if path[:1] == ("container",)]
        left_out = any(u.text == "container.image" for u in derived.unmapped)
        why = (
            "the image is left out (above), and the other container options go with it: write "
            "container.image to use them"
            if left_out
            else "container options without an image to run in: write container.image to use them"
        )
        derived.skip(
            min(spans, key=lambda s: (s.line, s.col)) if spans else _first(facts),
            "--container-* options",
            why,
        )
    resilience = derived.data.get("resilience", {})
    if "signal" not in resilience:
        resilience.pop("grace_s", None)  # a grace window without its signal means nothing
    derived.unmapped.sort(key=lambda u: u.line)
    return derived


# What the job runs is never dropped for a pitfall a rule reads in it (a path that looks like a
# token to JC702): the script runs it, so the spec does, and lint of the spec says the same. The
# signal the program is warned with is part of what it runs too: its handler waits for that one
# (SIGUSR1, which JC604 would rather not see), and without it the preemption intent is lost.
_KEPT = frozenset({("launch", "program"), ("launch", "module"), ("resilience", "signal")})


def _kept(derived: Derived, path: tuple[str | int, ...], code: str, message: str) -> bool:
    note = f"{'.'.join(map(str, path))} kept as the script runs it, although {code} says: {message}"
    if note not in derived.notes:
        derived.notes.append(note)
    return False


def refused(facts: ScriptFacts) -> list[str]:
    """The JC809 findings of the script, as lint prints them: import left their values out."""
    from jobc.lint.rules import meta as rule_meta
    from jobc.script.refused import problems
    from jobc.tables.secrets import mask

    meta = rule_meta("JC809")
    return [
        f"{facts.file}:{p.span.line}:{p.span.col}: JC809 [{meta.severity}] {mask(p.message)}"
        for p in problems(facts)
    ]


def _leave_out_refused(facts: ScriptFacts, derived: Derived) -> None:
    """Values sbatch, srun, bash or the launcher refuse (JC809): out of the spec, said why."""
    from jobc.core.record import replace
    from jobc.script.refused import problems

    found = list(problems(facts))
    if derived.header_read:
        # a header sbatch reads none of, read as the request: what sbatch would refuse in it had it
        # read it (`-ks-per-node=8` below the first command) is no value to carry either
        said = {(p.span, p.message) for p in found}
        read = replace(facts, directives=derived.header_read)
        found += [p for p in problems(read) if (p.span, p.message) not in said]
    for problem in found:
        paths = [p for p, span in derived.spans.items() if span == problem.span]
        for path in sorted(paths, key=_order, reverse=True):
            if _remove(derived, path):
                name = ".".join(map(str, path))
                derived.unknown.append(f"{name}: line {problem.span.line} is refused (JC809); write it")
            derived.spans.pop(path, None)
        derived.skip(problem.span, problem.what, f"left out, JC809: {problem.message}")


def _first(facts: ScriptFacts) -> Any:
    from jobc.core.diagnostics import Span

    return Span.point(1, 1)


def _pitfalls(derived: Derived) -> list[tuple[tuple[str | int, ...], str, str]]:
    from jobc.lint.rules import RULES
    from jobc.spec import fastcheck
    from jobc.spec.context import Context
    from jobc.spec.plain import JobSpec

    if not fastcheck.valid(derived.data, "JobSpec"):
        return []
    ctx = Context(spec=JobSpec.build(derived.data), data=derived.data, own=derived.data)
    out = []
    for code, rule in RULES.items():
        # the pitfalls linting the script reports, and any error the spec itself would have (a
        # pyxis image with two '#', JC502); the spec-only advice stays for the user to read
        if rule.check is None:
            continue
        for hit in rule.check(ctx):
            severity = hit.severity if hit.severity is not None else rule.meta.severity
            if severity.name == "INFO" or (rule.script_check is None and severity.name != "ERROR"):
                continue
            if _exists(derived.data, hit.path) and hit.path[:1] not in (("name",), ("version",)):
                out.append((hit.path, code, hit.message))
    # values the compiler cannot write into the script (a control character in an #SBATCH value,
    # a NUL in an argument): lint reports them as JC003, so the import leaves them out too
    from jobc.compile.sbatch import problems as sbatch_problems

    for hit in sbatch_problems(ctx):
        if _exists(derived.data, hit.path):
            out.append((hit.path, "JC003", hit.message))
    return out


def _order(path: tuple[str | int, ...]) -> tuple[tuple[int, str, int], ...]:
    """A data path as a sort key: names and list indices never compared with each other."""
    return tuple((1, "", part) if isinstance(part, int) else (0, part, 0) for part in path)


def _forget_unknown(derived: Derived, path: tuple[str | int, ...], span: Any) -> None:
    """A value kept as {unknown.NAME} that is now left out: what said it was kept goes too."""
    node: Any = derived.data
    for part in path:
        if not _exists_in(node, part):
            return
        node = node[part]
    if isinstance(node, str) and span is not None:
        kept = f"kept as {node}"
        derived.unknown[:] = [u for u in derived.unknown if not (f"line {span.line} " in u and kept in u)]


def _exists(data: Any, path: tuple[str | int, ...]) -> bool:
    node = data
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return False
    return not isinstance(node, dict)


def _remove(derived: Derived, path: tuple[str | int, ...]) -> bool:
    node: Any = derived.data
    for part in path[:-1]:
        if not _exists_in(node, part):
            return False
        node = node[part]
    last = path[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        del node[last]
        _renumber(derived, path)
        return True
    return False


def _renumber(derived: Derived, gone: tuple[str | int, ...]) -> None:
    """The elements after one taken out of a list moved down one place: so does what is known
    of each (where it was written, its words, whether it is a template kept as written)."""
    parent, index, depth = gone[:-1], gone[-1], len(gone) - 1
    assert isinstance(index, int)

    def moved(path: tuple[str | int, ...]) -> tuple[str | int, ...] | None:
        if len(path) <= depth or path[:depth] != parent or not isinstance(path[depth], int):
            return path
        at = path[depth]
        assert isinstance(at, int)
        if at == index:
            return None
        return path if at < index else (*parent, at - 1, *path[depth + 1 :])

    for table in (derived.spans, derived.expansions, derived.labels, derived.sources):
        entries: list[tuple[tuple[str | int, ...] | None, Any]] = [(moved(p), v) for p, v in table.items()]
        table.clear()
        for path, value in entries:
            if path is not None:
                table[path] = value
    templated = {moved(path) for path in derived.templated}
    derived.templated = {path for path in templated if path is not None}


def _exists_in(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
