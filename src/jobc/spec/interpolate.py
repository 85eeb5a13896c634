"""`{dotted.path}` interpolation of spec values into strings; `{{` and `}}` are literal braces.

`${NAME}` is shell syntax, not interpolation: it passes through literally (rule JC507 warns that
no shell expands it), so a reference never starts right after a `$`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.spec.context import Context

_TOKEN = lazy(r"\{\{|\}\}|\$\{[^{}]*\}|\{([^{}]*)\}")
_REF = lazy(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_0-9]+)*\Z")


# `jobc import` writes `{unknown.NAME}` where the script passed a value it computed only when the
# job ran ($NAME): the argument keeps its place, and the spec does not lint until it is written
UNKNOWN = "unknown"


class InterpolationError(ValueError):
    pass


class TooLong(InterpolationError):
    pass


def references(text: str) -> Iterator[str]:
    for match in _TOKEN.finditer(text):
        if match.group(1) is not None:
            yield match.group(1).strip()


# The rendered text of one value, and of all of them together. A path or an argument is a line
# of text; references that multiply into megabytes are a mistake or an attack (thirty copies of
# a value that is itself thirty copies of the first reach gigabytes in a few steps).
MAX_VALUE = 16 * 1024
MAX_TOTAL = 1 << 20


def _index(part: str) -> int | None:
    # ASCII digits of a size an index can have: "٣" and "²" are digits to str.isdigit(), and a
    # 5000-digit index is past what int() converts
    return ascii_int(part)


_SECTION = (dict, list)  # a tuple: `dict | list` here would make a union object at every call


def target(values: dict[str, Any], ref: str) -> tuple[str | int, ...]:
    """The data path a reference names, or InterpolationError saying why it names none."""
    if not _REF.match(ref):
        raise InterpolationError(f"{{{ref}}} is not a dotted path such as {{parallelism.tp}}")
    node: Any = values
    path: list[str | int] = []
    for part in ref.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
            path.append(part)
        elif isinstance(node, list) and (index := _index(part)) is not None and index < len(node):
            node = node[index]
            path.append(index)
        elif not path and part == UNKNOWN:
            raise InterpolationError(
                f"{{{ref}}} stands for a value the imported script computed only when the job ran; "
                "write the value itself"
            )
        else:
            raise InterpolationError(f"{{{ref}}} names no spec value")
    if node is None:
        raise InterpolationError(f"{{{ref}}} is not set in this spec")
    if isinstance(node, _SECTION):
        raise InterpolationError(f"{{{ref}}} is a section, not a value")
    return tuple(path)


def lookup(values: dict[str, Any], ref: str) -> str:
    """The text a reference stands for, or InterpolationError saying why there is none."""
    node: Any = values
    for part in target(values, ref):
        node = node[part]
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


Targets = dict[str, "tuple[str | int, ...] | InterpolationError"]


def _where(values: dict[str, Any], ref: str, memo: Targets) -> tuple[str | int, ...] | InterpolationError:
    """`target`, or the error it raises, worked out once per reference in `memo`: the path a
    reference names depends on which values exist, which rendering never changes."""
    found = memo.get(ref)
    if found is None:
        try:
            found = target(values, ref)
        except InterpolationError as exc:
            found = exc
        memo[ref] = found
    return found


def _text(values: dict[str, Any], ref: str, memo: Targets) -> str:
    """`lookup`, through the targets worked out in `memo`."""
    found = _where(values, ref, memo)
    if isinstance(found, InterpolationError):
        raise InterpolationError(str(found))
    node: Any = values
    for part in found:
        node = node[part]
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


def render(text: str, values: dict[str, Any], limit: int = MAX_VALUE, memo: Targets | None = None) -> str:
    """``text`` with its references replaced; InterpolationError past ``limit`` characters.
    `memo`: the targets of references worked out for these values so far (`_where`)."""
    size = 0

    def sub(match: re.Match[str]) -> str:
        nonlocal size
        token = match.group(0)
        if token == "{{":
            out = "{"
        elif token == "}}":
            out = "}"
        elif match.group(1) is None:  # ${NAME}: literal shell syntax
            out = token
        elif memo is None:
            out = lookup(values, match.group(1).strip())
        else:
            out = _text(values, match.group(1).strip(), memo)
        size += len(out)
        if size > limit:
            raise TooLong(f"interpolation makes this value longer than {limit:,} characters")
        return out

    rendered = _TOKEN.sub(sub, text)
    if len(rendered) > limit:
        raise TooLong(f"interpolation makes this value longer than {limit:,} characters")
    return rendered


_SHELL_REF = lazy(r"\$\{[^{}]*\}")


def escape(text: str) -> str:
    """``text`` written so that `render` gives it back as it is: each literal brace doubled,
    except inside a `${NAME}`, which passes through untouched already."""
    if "{" not in text and "}" not in text:
        return text
    out, at = [], 0
    for match in _SHELL_REF.finditer(text):
        out.append(text[at : match.start()].replace("{", "{{").replace("}", "}}"))
        out.append(match.group(0))
        at = match.end()
    out.append(text[at:].replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def has_stray_brace(text: str) -> bool:
    """A single brace that is neither part of a reference nor doubled."""
    rest = _TOKEN.sub("", text)
    return "{" in rest or "}" in rest


def fields(data: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every string the compiler interpolates, with its data path (from plain merged data)."""

    def section(name: str) -> dict[str, Any]:
        value = data.get(name)
        return value if isinstance(value, dict) else {}

    launch, storage, container = section("launch"), section("storage"), section("container")
    for key in ("program", "workdir", "module"):
        if isinstance(launch.get(key), str):
            yield ("launch", key), launch[key]
    for i, arg in enumerate(launch.get("args") or []):
        if isinstance(arg, str):
            yield ("launch", "args", i), arg
    for key, value in (data.get("env") or {}).items():
        if isinstance(value, str):
            yield ("env", key), value
    for key in ("logs", "checkpoints"):
        if isinstance(storage.get(key), str):
            yield ("storage", key), storage[key]
    for key, value in (storage.get("caches") or {}).items():
        if isinstance(value, str):
            yield ("storage", "caches", key), value
    for key in ("image", "workdir"):
        if isinstance(container.get(key), str):
            yield ("container", key), container[key]
    for i, mount in enumerate(container.get("mounts") or []):
        if isinstance(mount, str):
            yield ("container", "mounts", i), mount


def interpolation_values(ctx: Context) -> dict[str, Any]:
    """Spec values with defaults and derived values filled in, for `{dotted.path}`. Made once per
    context (lint, its #SBATCH checks and the compiler all ask): read it, never change it."""
    return resolve(ctx)[0]


def resolve(ctx: Context) -> tuple[dict[str, Any], list[tuple[tuple[str | int, ...], str]]]:
    """The interpolation values, and the templates whose references go round in a circle or
    expand beyond the size bounds (with why). Made once per context."""
    found: tuple[dict[str, Any], list[tuple[tuple[str | int, ...], str]]] | None = ctx.facts.get(
        "interpolation"
    )
    if found is None:
        found = ctx.facts["interpolation"] = _resolve(_values(ctx), _targets(ctx))
    return found


def _targets(ctx: Context) -> Targets:
    memo: Targets | None = ctx.facts.get("interpolation.targets")
    if memo is None:
        memo = ctx.facts["interpolation.targets"] = {}
    return memo


def reference_problem(ctx: Context, ref: str) -> str | None:
    """Why a reference in one of the spec's values renders nothing (`lookup`'s error), or None."""
    values = resolve(ctx)[0]
    found = _where(values, ref, _targets(ctx))
    return str(found) if isinstance(found, InterpolationError) else None


def _values(ctx: Context) -> dict[str, Any]:
    values = ctx.spec.dump()
    values["resources"]["gpus_per_node"] = ctx.gpus_per_node
    values["resources"]["tasks_per_node"] = ctx.tasks_per_node
    values["parallelism"]["dp"] = ctx.dp
    values["parallelism"]["etp"] = ctx.etp
    values["world"] = ctx.world
    sweep = values.get("sweep")
    if isinstance(sweep, dict):
        # known only in the running array task: the batch shell replaces the marker
        values["sweep"] = {name: sweep_marker(name) for name in sweep.get("values") or {}}
    return values


def sweep_marker(name: str) -> str:
    """What `{sweep.NAME}` compiles to; the batch shell of each array task replaces it."""
    return f"@@jobc-sweep-{name}@@"


def _resolve(
    values: dict[str, Any], memo: Targets
) -> tuple[dict[str, Any], list[tuple[tuple[str | int, ...], str]]]:
    """Render the interpolated strings themselves, so a reference to one gets its final text.

    `checkpoints: /ckpt/{name}` referenced as `{storage.checkpoints}` must give `/ckpt/job`,
    not `/ckpt/{name}`. Each template is rendered once from its original text (so `{{` is
    unescaped exactly once), after the templates it refers to: a topological order, in time
    linear in the number of references. Templates on a cycle never become ready, and are
    reported with the cycle; a template that does not render stays as written (JC008 reports it).
    """
    templates = {path: text for path, text in fields(values) if "{" in text or "}" in text}
    needs: dict[tuple[str | int, ...], set[tuple[str | int, ...]]] = {}
    deps_of: dict[tuple[str | int, ...], frozenset[tuple[str | int, ...]]] = {}
    users: dict[tuple[str | int, ...], list[tuple[str | int, ...]]] = {}
    for path, text in templates.items():
        deps = set()
        for ref in references(text):
            dep = _where(values, ref, memo)
            if isinstance(dep, InterpolationError):
                continue  # reported by lint at the value; it renders as written
            if dep in templates:
                deps.add(dep)
        needs[path] = deps
        deps_of[path] = frozenset(deps)
        for dep in deps:
            users.setdefault(dep, []).append(path)
    ready = [path for path, deps in needs.items() if not deps]
    problems: list[tuple[tuple[str | int, ...], str]] = []
    total = 0
    failed: set[tuple[str | int, ...]] = set()
    while ready:
        path = ready.pop()
        text = templates[path]
        budget = MAX_TOTAL - total
        if any(dep in failed for dep in deps_of[path]):
            failed.add(path)  # the value it refers to is reported; this one stays as written
            rendered = text
        else:
            try:
                rendered = render(text, values, min(MAX_VALUE, max(budget, 0)), memo)
            except TooLong as exc:
                message = str(exc)
                if budget < MAX_VALUE:
                    message = (
                        f"interpolation makes the spec's values longer than {MAX_TOTAL:,} characters in all"
                    )
                problems.append((path, message))
                failed.add(path)
                rendered = text
            except InterpolationError:
                rendered = text
        total += len(rendered)
        _put(values, path, rendered)
        for user in users.get(path, ()):
            needs[user].discard(path)
            if not needs[user]:
                ready.append(user)
    stuck = {path for path, deps in needs.items() if deps}
    for path in sorted(stuck, key=_dotted):
        cycle = _cycle(path, needs, stuck)
        if cycle is not None:
            shown = " -> ".join("{" + _dotted(p) + "}" for p in cycle)
            problems.append((path, f"interpolation refers back to itself: {shown}"))
        else:
            problems.append((path, "interpolation refers to a value whose references go round in a circle"))
    return values, problems


def _cycle(
    start: tuple[str | int, ...],
    needs: dict[tuple[str | int, ...], set[tuple[str | int, ...]]],
    stuck: set[tuple[str | int, ...]],
) -> list[tuple[str | int, ...]] | None:
    """The cycle through ``start``, if it lies on one (every stuck template leads into a cycle)."""
    seen: dict[tuple[str | int, ...], tuple[str | int, ...] | None] = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for dep in sorted(needs[node] & stuck, key=_dotted):
                if dep == start:
                    chain = [node]
                    while (back := seen[chain[-1]]) is not None:
                        chain.append(back)
                    return [*reversed(chain), start]
                if dep not in seen:
                    seen[dep] = node
                    nxt.append(dep)
        frontier = nxt
    return None


def _dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(map(str, path))


def _put(values: dict[str, Any], path: tuple[str | int, ...], text: str) -> None:
    node: Any = values
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = text
