"""Frozen value classes for the memory model, without `@dataclass`'s import-time cost.

`@dataclass` writes each class's `__init__`, `__eq__`, `__repr__`, `__hash__` and frozen setters
as source and runs it through `exec` when the module is imported: for the memory model's classes
that cost more than the estimate itself, on every lint of a spec with a model. `record` gives the
same behaviour (positional or keyword construction in field order, defaults, equality, hashing,
repr, no assignment after construction) from shared methods, and type checkers see the class as
a frozen dataclass through `dataclass_transform`.
"""

from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_set = object.__setattr__


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self.__match_args__)


def _eq(self: Any, other: object) -> Any:  # bool, or NotImplemented for other classes
    if other.__class__ is not self.__class__:
        return NotImplemented
    same: bool = _values(self) == _values(other)
    return same


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
    return f"{type(self).__name__}({inner})"


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise AttributeError(f"cannot assign to field {name!r}")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen value class from its annotated fields (in order, with defaults)."""
    # what inspect.get_annotations(cls) returns, without importing inspect (~15 ms) on every lint
    names: tuple[str, ...] = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    seen_default = False
    for name in names:
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
    title = cls.__name__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{title}() takes {len(names)} arguments, {len(args)} given")
        given = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{title}() has no field {key!r}")
            if key in given:
                raise TypeError(f"{title}() got {key!r} twice")
            given[key] = value
        for name in names:
            if name in given:
                _set(self, name, given[name])
            elif name in defaults:
                _set(self, name, defaults[name])
            else:
                raise TypeError(f"{title}() needs {name!r}")

    attributes: dict[str, Any] = {
        "__init__": __init__,
        "__match_args__": names,
        "__eq__": _eq,
        "__hash__": _hash,
        "__repr__": _repr,
        "__setattr__": _frozen,
        "__delattr__": _frozen,
    }
    for key, value in attributes.items():
        setattr(cls, key, value)
    return cls


def replace(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with some fields changed."""
    values = {name: getattr(obj, name) for name in type(obj).__match_args__}  # type: ignore[attr-defined]
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(obj)(**values)


def as_dict(obj: Any) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in type(obj).__match_args__}
