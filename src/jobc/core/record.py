"""Value classes for the lint path, without `@dataclass`'s import-time cost.

`dataclasses` imports `inspect` (about 15 ms) and writes every class's `__init__`, `__eq__`,
`__repr__`, `__hash__` and setters as source run through `exec` (about half a millisecond a
class). A lint of one spec is a fresh process that creates a few dozen such classes (for the
memory model's, that cost more than the estimate itself), so that was a tenth of its time.
`record` gives the classes the same behaviour from shared methods: fields from the class's
annotations in order, construction by position or keyword with defaults and default factories,
equality (and for frozen classes hashing) over the compared fields, ordering on request, a
dataclass-style repr, and no assignment to a frozen record. Type checkers see a dataclass through
`dataclass_transform`. `replace` and `as_dict` stand for `dataclasses.replace` and (one level
of) `dataclasses.asdict`.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:
    # what type checkers read from typing, and nothing at run time: every lint imports this
    # module, and typing is not worth importing for it
    def dataclass_transform(**_: object) -> object:
        return lambda decorated: decorated

    def overload(decorated: object) -> object:
        return decorated


_set = object.__setattr__
_MISSING: Any = object()


class _Field:
    __slots__ = ("compare", "default", "factory")

    def __init__(self, default: Any, factory: Callable[[], Any] | None, compare: bool) -> None:
        self.default, self.factory, self.compare = default, factory, compare


def field(
    *, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None, compare: bool = True
) -> Any:
    """A field's default (or a factory for one) and whether it takes part in equality."""
    return _Field(default, default_factory, compare)


def _compared(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self.__record_compared__)


def _eq(self: Any, other: object) -> Any:  # bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _compared(self) == _compared(other)


def _hash(self: Any) -> int:
    return hash(_compared(self))


def _repr(self: Any) -> str:
    inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
    return f"{type(self).__name__}({inner})"


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _order(op: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]) -> Callable[[Any, object], Any]:
    def compare(self: Any, other: object) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return op(_compared(self), _compared(other))

    return compare


_ORDER = {
    "__lt__": _order(lambda a, b: a < b),
    "__le__": _order(lambda a, b: a <= b),
    "__gt__": _order(lambda a, b: a > b),
    "__ge__": _order(lambda a, b: a >= b),
}


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = True, order: bool = False) -> Callable[[type[T]], type[T]]: ...  # noqa: F811


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T] | None = None, /, *, frozen: bool = True, order: bool = False) -> Any:  # noqa: F811
    """Make ``cls`` a value class from its annotated fields; frozen unless ``frozen=False``."""

    def make(cls: type[T]) -> type[T]:
        return _make(cls, frozen=frozen, order=order)

    return make if cls is None else make(cls)


def _make(cls: type[T], *, frozen: bool, order: bool) -> type[T]:
    # the class's own annotations, as inspect.get_annotations reads them, without importing inspect
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    compared = []
    for name in names:
        spec = cls.__dict__.get(name, _MISSING)
        if isinstance(spec, _Field):
            if spec.factory is not None:
                factories[name] = spec.factory
                delattr(cls, name)
            elif spec.default is not _MISSING:
                defaults[name] = spec.default
                setattr(cls, name, spec.default)
            else:
                delattr(cls, name)
            if spec.compare:
                compared.append(name)
            continue
        if spec is not _MISSING:
            defaults[name] = spec
        elif defaults or factories:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
        compared.append(name)
    title = cls.__name__
    count = len(names)
    # all fields by position is how the readers build most records: one C call stores them
    by_dict = "__slots__" not in cls.__dict__
    # the first fields by position and plain defaults for the rest (Hit(path, message)), stored
    # in the fields' order as the general path below stores them
    filled = {
        given: {name: defaults[name] for name in names[given:]}
        for given in range(count)
        if all(name in defaults for name in names[given:])
    }

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if by_dict and not kwargs:
            given = len(args)
            if given == count:
                self.__dict__.update(zip(names, args, strict=True))
                return
            rest = filled.get(given)
            if rest is not None:
                own = self.__dict__
                own.update(zip(names, args, strict=False))
                own.update(rest)
                return
        elif by_dict and not args and len(kwargs) == count:
            # every field by keyword (the memory model's records): stored in the fields' order
            own = self.__dict__
            try:
                for name in names:
                    own[name] = kwargs[name]
            except KeyError:
                own.clear()  # a keyword that is no field: the general path says which
            else:
                return
        if len(args) > count:
            raise TypeError(f"{title}() takes {count} arguments, {len(args)} given")
        for i, name in enumerate(names):
            if i < len(args):
                if name in kwargs:
                    raise TypeError(f"{title}() got {name!r} twice")
                value = args[i]
            elif name in kwargs:
                value = kwargs.pop(name)
            elif name in defaults:
                value = defaults[name]
            elif name in factories:
                value = factories[name]()
            else:
                raise TypeError(f"{title}() needs {name!r}")
            _set(self, name, value)
        if kwargs:
            raise TypeError(f"{title}() has no field {next(iter(kwargs))!r}")

    attributes: dict[str, Any] = {
        "__init__": __init__,
        "__match_args__": names,
        "__record_compared__": tuple(compared),
        "__eq__": _eq,
        "__hash__": _hash if frozen else None,
        "__repr__": _repr,
    }
    if frozen:
        attributes["__setattr__"] = _frozen
        attributes["__delattr__"] = _frozen
    if order:
        attributes.update(_ORDER)
    for key, value in attributes.items():
        setattr(cls, key, value)
    return cls


def replace(obj: T, **changes: Any) -> T:
    """A copy of the record ``obj`` with some fields changed (`dataclasses.replace`)."""
    values = {name: getattr(obj, name) for name in type(obj).__match_args__}  # type: ignore[attr-defined]
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(obj)(**values)


def as_dict(obj: Any) -> dict[str, Any]:
    """The record's fields and values, in order (one level: `dataclasses.asdict` recurses)."""
    return {name: getattr(obj, name) for name in type(obj).__match_args__}
