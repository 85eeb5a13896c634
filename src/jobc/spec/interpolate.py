"""`{dotted.path}` interpolation of spec values into strings; `{{` and `}}` are literal braces.

`${NAME}` is shell syntax, not interpolation: it passes through literally (rule JC507 warns that
no shell expands it), so a reference never starts right after a `$`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobc.spec.context import Context

_TOKEN = re.compile(r"\{\{|\}\}|\$\{[^{}]*\}|\{([^{}]*)\}")
_REF = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_0-9]+)*$")


class InterpolationError(ValueError):
    pass


def references(text: str) -> Iterator[str]:
    for match in _TOKEN.finditer(text):
        if match.group(1) is not None:
            yield match.group(1).strip()


def lookup(values: dict[str, Any], ref: str) -> str:
    """The text a reference stands for, or InterpolationError saying why there is none."""
    if not _REF.match(ref):
        raise InterpolationError(f"{{{ref}}} is not a dotted path such as {{parallelism.tp}}")
    node: Any = values
    for part in ref.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise InterpolationError(f"{{{ref}}} names no spec value")
    if node is None:
        raise InterpolationError(f"{{{ref}}} is not set in this spec")
    if isinstance(node, dict | list):
        raise InterpolationError(f"{{{ref}}} is a section, not a value")
    if isinstance(node, bool):
        return "true" if node else "false"
    return str(node)


def render(text: str, values: dict[str, Any]) -> str:
    def sub(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        if match.group(1) is None:  # ${NAME}: literal shell syntax
            return token
        return lookup(values, match.group(1).strip())

    return _TOKEN.sub(sub, text)


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
    if isinstance(container.get("workdir"), str):
        yield ("container", "workdir"), container["workdir"]
    for i, mount in enumerate(container.get("mounts") or []):
        if isinstance(mount, str):
            yield ("container", "mounts", i), mount


def interpolation_values(ctx: Context) -> dict[str, Any]:
    """Spec values with defaults and derived values filled in, for `{dotted.path}`."""
    values = ctx.spec.dump()
    values["resources"]["gpus_per_node"] = ctx.gpus_per_node
    values["resources"]["tasks_per_node"] = ctx.tasks_per_node
    values["parallelism"]["dp"] = ctx.dp
    values["parallelism"]["etp"] = ctx.etp
    values["world"] = ctx.world
    return _resolve_templates(values)


def _resolve_templates(values: dict[str, Any], passes: int = 4) -> dict[str, Any]:
    """Render the interpolated strings themselves, so a reference to one gets its final text.

    `checkpoints: /ckpt/{name}` referenced as `{storage.checkpoints}` must give `/ckpt/job`,
    not `/ckpt/{name}`. Each pass renders every template from its original text (so `{{` is
    unescaped exactly once) against the previous pass; chains resolve within a few passes.
    A template that does not render stays as written: JC008 reports it.
    """
    templates = [(path, text) for path, text in fields(values) if "{" in text or "}" in text]
    for _ in range(passes):
        rendered = []
        for path, text in templates:
            try:
                rendered.append((path, render(text, values)))
            except InterpolationError:
                rendered.append((path, text))
        changed = False
        for path, text in rendered:
            node: Any = values
            for part in path[:-1]:
                node = node[part]
            if node[path[-1]] != text:
                node[path[-1]] = text
                changed = True
        if not changed:
            break
    return values
