"""The files derived from the pydantic spec models (written by `tools/regen.py`, target `model`):

- `schema/jobc.schema.json` and its packaged copy `src/jobc/data/jobc.schema.json`;
- `src/jobc/spec/plain.py`: plain frozen classes with the same classes, fields and defaults
  as the pydantic models;
- `src/jobc/data/literals.py`: the schema's definitions, the GPU catalogue (`gpus.json`) and the
  model presets (`models.json`) as Python literals, which every lint reads: loading them from
  bytecode is a fraction of what importing `json` and parsing the files cost a fresh process.

Why the plain classes: building pydantic's validators for two dozen models costs more at start-up
than the whole lint of a spec. Lint validates with the small schema walker in
`jobc.spec.fastcheck` and hands rules these classes; pydantic stays the source of truth and the
explainer of errors. Tests check that the generated files are fresh and that both validators
agree.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from jobc.spec import model as _model

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_PATHS = (
    ROOT / "schema" / "jobc.schema.json",
    ROOT / "src" / "jobc" / "data" / "jobc.schema.json",
)
TYPES_PATH = ROOT / "src" / "jobc" / "spec" / "plain.py"
LITERALS_PATH = ROOT / "src" / "jobc" / "data" / "literals.py"
GPUS_PATH = ROOT / "src" / "jobc" / "data" / "gpus.json"
MODELS_PATH = ROOT / "src" / "jobc" / "data" / "models.json"


def schema_text() -> str:
    return json.dumps(_model.json_schema(), indent=2, ensure_ascii=False) + "\n"


def _models() -> list[type[BaseModel]]:
    """Every model reachable from JobSpec and Profile, dependencies first."""
    order: list[type[BaseModel]] = []

    def visit(cls: type[BaseModel]) -> None:
        if cls in order:
            return
        for info in cls.model_fields.values():
            for dep in _model_deps(info.annotation):
                visit(dep)
        order.append(cls)

    visit(_model.JobSpec)
    visit(_model.Profile)
    return order


def _model_deps(tp: Any) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(tp):
        out.extend(_model_deps(arg))
    return out


def _render(tp: Any) -> str:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _render(args[0])
    if origin is typing.Literal:
        return "Literal[" + ", ".join(repr(a) for a in args) + "]"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_render(a) for a in args)
    if origin is list:
        return f"list[{_render(args[0])}]"
    if origin is dict:
        return f"dict[{_render(args[0])}, {_render(args[1])}]"
    if tp is type(None):
        return "None"
    if isinstance(tp, type):
        return tp.__name__
    raise TypeError(f"cannot render {tp!r}")


def _builder(tp: Any, expr: str) -> str:
    """Python source that turns validated plain data ``expr`` into the dataclass value."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _builder(args[0], expr)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return f"{tp.__name__}.build({expr})"
    if origin in (typing.Union, types.UnionType):
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if models:
            return f"(None if {expr} is None else {models[0].__name__}.build({expr}))"
        return expr
    if origin is list:
        inner = _builder(args[0], "v")
        return f"list({expr})" if inner == "v" else f"[{inner} for v in {expr}]"
    if origin is dict:
        inner = _builder(args[1], "v")
        return f"dict({expr})" if inner == "v" else f"{{k: {inner} for k, v in {expr}.items()}}"
    return expr


def _dumper(tp: Any, expr: str) -> str:
    """Python source that turns the value ``expr`` of type ``tp`` into plain data, as `_dump` would."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _dumper(args[0], expr)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return f"{expr}.dump()"
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and isinstance(rest[0], type) and issubclass(rest[0], BaseModel):
            return f"(None if {expr} is None else {expr}.dump())"
        return expr if all(_dumper(a, "v") == "v" for a in args) else f"_dump({expr})"
    if origin is list:
        inner = _dumper(args[0], "v")
        return f"list({expr})" if inner == "v" else f"[{inner} for v in {expr}]"
    if origin is dict:
        inner = _dumper(args[1], "v")
        return f"dict({expr})" if inner == "v" else f"{{k: {inner} for k, v in {expr}.items()}}"
    if origin is typing.Literal or tp in (str, int, float, bool, type(None)):
        return expr
    return f"_dump({expr})"


def _default(info: Any) -> str | None:
    """The parameter default; a factory default is None here and built in `__init__`."""
    if info.default_factory is not None:
        return "None"
    if info.default is PydanticUndefined:
        return None
    return repr(info.default)


def _factory(info: Any) -> str | None:
    factory = info.default_factory
    if factory is None:
        return None
    if factory.__name__ == "<lambda>":
        # a literal default (`lambda: ["gpus", "paths"]`): written out, built afresh per call
        return repr(factory())
    return "{}" if factory is dict else "[]" if factory is list else f"{factory.__name__}()"


# The module's head: its docstring, imports and the base class every generated class extends.
_HEADER = [
    '"""Plain classes mirroring `jobc.spec.model`: frozen value objects, like frozen dataclasses.',
    "",
    "Written out in full rather than made by `@dataclass`, which generates each class's methods",
    "with `exec` at import time: for two dozen classes that cost more than linting a spec.",
    "",
    'Generated from jobc.spec.model by `tools/regen.py`; do not edit."""',
    "",
    "from __future__ import annotations",
    "",
    "from collections.abc import Mapping",
    "",
    "TYPE_CHECKING = False  # as typing.TYPE_CHECKING: a lint has no use for typing at run time",
    "if TYPE_CHECKING:",
    "    from typing import Any, Literal",
    "",
    "_set = object.__setattr__",
    "",
    "",
    "class _Frozen:",
    '    """Immutable after `__init__`; equal, hashed and shown by its fields in order."""',
    "",
    "    __slots__ = ()",
    "    __match_args__: tuple[str, ...] = ()",
    "",
    "    def _values(self) -> tuple[Any, ...]:",
    "        return tuple(getattr(self, name) for name in self.__match_args__)",
    "",
    "    def __eq__(self, other: object) -> bool:",
    "        if not isinstance(other, _Frozen) or other.__class__ is not self.__class__:",
    "            return NotImplemented",
    "        return self._values() == other._values()",
    "",
    "    def __hash__(self) -> int:",
    "        return hash(self._values())",
    "",
    "    def __repr__(self) -> str:",
    "        inner = ', '.join(f'{n}={getattr(self, n)!r}' for n in self.__match_args__)",
    "        return f'{type(self).__name__}({inner})'",
    "",
    "    def __setattr__(self, name: str, value: Any) -> None:",
    "        raise AttributeError(f'cannot assign to field {name!r}')",
    "",
    "    def __delattr__(self, name: str) -> None:",
    "        raise AttributeError(f'cannot delete field {name!r}')",
    "",
]

# Written after the classes when a `dump` needs it.
_DUMP_HELPER = [
    "",
    "def _dump(value: Any) -> Any:",
    "    if hasattr(value, 'dump'):",
    "        return value.dump()",
    "    if isinstance(value, tuple | list):",
    "        return [_dump(v) for v in value]",
    "    if isinstance(value, Mapping):",
    "        return {k: _dump(v) for k, v in value.items()}",
    "    return value",
    "",
]


def types_text() -> str:
    lines = list(_HEADER)
    for cls in _models():
        lines += _class_lines(cls)
    if any("_dump(" in line for line in lines):
        lines += _DUMP_HELPER
    return "\n".join(lines)


def _class_lines(cls: type[BaseModel]) -> list[str]:
    """One model as a plain class: fields, `__init__`, `build` from plain data and `dump`."""
    lines = ["", f"class {cls.__name__}(_Frozen):"]
    doc = (cls.__doc__ or "").strip().splitlines()
    if doc and cls.__doc__ is not BaseModel.__doc__:
        lines.append(f'    """{doc[0]}"""')
        lines.append("")
    fields = list(cls.model_fields.items())
    required = [(n, i) for n, i in fields if _default(i) is None]
    optional = [(n, i) for n, i in fields if _default(i) is not None]
    ordered = required + optional
    comma = "," if len(ordered) == 1 else ""
    lines.append(f"    __slots__ = ({', '.join(sorted(repr(n) for n, _ in ordered))}{comma})")
    lines.append(f"    __match_args__ = ({', '.join(repr(n) for n, _ in ordered)}{comma})")
    lines.append("")
    for name, info in ordered:
        lines.append(f"    {name}: {_render(info.annotation)}")
    params = []
    for name, info in ordered:
        default = _default(info)
        annotation = _render(info.annotation)
        if _factory(info) is not None:
            annotation += " | None"
        params.append(f"{name}: {annotation}" + ("" if default is None else f" = {default}"))
    lines += ["", f"    def __init__(self, *, {', '.join(params)}) -> None:"]
    for name, info in ordered:
        factory = _factory(info)
        value = name if factory is None else f"{factory} if {name} is None else {name}"
        lines.append(f"        _set(self, {name!r}, {value})")
    lines += ["", "    @classmethod"]
    lines.append(f"    def build(cls, data: Mapping[str, Any]) -> {cls.__name__}:")
    lines.append('        """From plain data that has passed the schema check."""')
    lines.append("        kwargs: dict[str, Any] = {}")
    for name, info in fields:
        key = info.alias or name
        value = _builder(info.annotation, f"data[{key!r}]")
        lines.append(f"        if {key!r} in data:")
        lines.append(f"            kwargs[{name!r}] = {value}")
    lines.append("        return cls(**kwargs)")
    lines += ["", "    def dump(self) -> dict[str, Any]:"]
    lines.append('        """Plain data, by alias, defaults included."""')
    lines.append("        return {")
    for name, info in fields:
        key = info.alias or name
        lines.append(f"            {key!r}: {_dumper(info.annotation, f'self.{name}')},")
    lines.append("        }")
    lines.append("")
    return lines


def wanted() -> dict[Path, str]:
    """Every file derived from the models, with what it should hold now."""
    schema = schema_text()
    return {
        **dict.fromkeys(SCHEMA_PATHS, schema),
        TYPES_PATH: _format(types_text()),
        LITERALS_PATH: _format(literals_text(schema), LITERALS_PATH),
    }


def literals_text(schema: str) -> str:
    """`jobc.data.literals`: the packaged JSON a lint reads, as Python literals (JSON's values are
    Python's: strings, numbers, booleans, null as None, objects and arrays)."""
    import pprint

    defs = json.loads(schema)["$defs"]
    gpus = json.loads(GPUS_PATH.read_text(encoding="utf-8"))
    models = json.loads(MODELS_PATH.read_text(encoding="utf-8"))
    return (
        '"""The packaged JSON that every lint reads, as Python literals: the JSON Schema\'s definitions\n'
        "(`jobc.schema.json`), the GPU catalogue (`gpus.json`) and the model presets (`models.json`).\n\n"
        "Loaded from bytecode, these cost a fresh process a fraction of importing `json` and parsing\n"
        "the files. The JSON files stay the packaged facts; a test holds these to them.\n\n"
        'Generated from them by `tools/regen.py`; do not edit."""\n\n'
        "from __future__ import annotations\n\n"
        "TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing\n"
        "if TYPE_CHECKING:\n    from typing import Any\n\n"
        f"SCHEMA_DEFS: dict[str, Any] = {pprint.pformat(defs, width=100, sort_dicts=False)}\n\n"
        f"GPUS: dict[str, Any] = {pprint.pformat(gpus, width=100, sort_dicts=False)}\n\n"
        f"MODELS: dict[str, Any] = {pprint.pformat(models, width=100, sort_dicts=False)}\n"
    )


def _format(text: str, path: Path = TYPES_PATH) -> str:
    """Run the project's formatter over generated code, so a fresh file is also a formatted one."""
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(path), "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    except (OSError, subprocess.CalledProcessError):
        return text
    return done.stdout
