"""`jobc.core.record` behaves as the dataclasses it replaces on the lint path."""

from __future__ import annotations

import dataclasses

import pytest

from jobc.core.record import as_dict, field, record, replace


@record(order=True)
class Span:
    line: int
    col: int = 1


@dataclasses.dataclass(frozen=True, order=True)
class DSpan:
    line: int
    col: int = 1


@record
class Finding:
    code: str
    path: tuple[int, ...] = field(default=(), compare=False)


@record(frozen=False)
class Bag:
    name: str
    items: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)


def test_construction_defaults_and_repr() -> None:
    assert Span(3) == Span(3, 1) == Span(line=3) == Span(col=1, line=3)
    assert repr(Span(3, 4)) == repr(DSpan(3, 4)).replace("DSpan", "Span")
    assert Span.__match_args__ == ("line", "col")
    assert Span.col == 1  # the default stays a class attribute, as with dataclasses


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((1, 2, 3), {}), ((1,), {"line": 2}), ((1,), {"width": 2})],
)
def test_bad_calls_raise_type_error_like_dataclasses(args: tuple[int, ...], kwargs: dict[str, int]) -> None:
    with pytest.raises(TypeError):
        DSpan(*args, **kwargs)
    with pytest.raises(TypeError):
        Span(*args, **kwargs)


def test_frozen_equality_hash_and_order() -> None:
    a, b = Span(1, 2), Span(1, 3)
    assert sorted([b, a]) == [a, b]
    assert (a < b, a <= b, a > b, a >= b) == (DSpan(1, 2) < DSpan(1, 3), True, False, False)
    assert hash(a) == hash(Span(1, 2))
    assert len({a, Span(1, 2), b}) == 2
    assert a != DSpan(1, 2)  # type: ignore[comparison-overlap]
    with pytest.raises(AttributeError):
        a.line = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del a.line


def test_fields_left_out_of_comparison() -> None:
    assert Finding("JC1", (1,)) == Finding("JC1", (2,))
    assert hash(Finding("JC1", (1,))) == hash(Finding("JC1"))
    assert repr(Finding("JC1", (1,))) == "Finding(code='JC1', path=(1,))"


def test_mutable_records_get_fresh_factory_values_and_no_hash() -> None:
    one, two = Bag("a"), Bag("a")
    one.items.append("x")
    assert two.items == []
    assert one != two
    one.name = "b"
    assert one.name == "b"
    with pytest.raises(TypeError):
        hash(one)
    assert not hasattr(Bag, "items")  # a factory field has no class attribute


def test_a_field_without_default_after_one_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="follows"):

        @record
        class Wrong:
            a: int = 1
            b: str  # type: ignore[misc]


def test_every_field_by_position_is_the_same_record_as_by_keyword() -> None:
    # the all-positional call stores the fields in one step; it must give what the general path gives
    by_position, by_keyword = Span(3, 4), Span(line=3, col=4)
    assert by_position == by_keyword
    assert vars(by_position) == vars(by_keyword) == {"line": 3, "col": 4}
    with pytest.raises(AttributeError):
        by_position.line = 5  # type: ignore[misc]


def test_replace_and_as_dict_are_dataclasses_own() -> None:
    bag = Bag("b", ["x"])
    assert as_dict(bag) == dataclasses.asdict(DBag("b", ["x"]))
    assert replace(Span(3, 4), col=5) == Span(3, 5)
    assert replace(Finding("JC101", (1,)), code="JC102").path == (1,)
    with pytest.raises(TypeError, match="Span has no field 'row'"):
        replace(Span(3), row=1)


@dataclasses.dataclass
class DBag:
    name: str
    items: list[str] = dataclasses.field(default_factory=list)
    seen: set[str] = dataclasses.field(default_factory=set)


def test_fields_given_by_position_and_defaulted_keep_their_order() -> None:
    @record
    class Three:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    assert list(vars(Three(1)).items()) == [("a", 1), ("b", "b"), ("c", ())]
    assert list(vars(Three(1, "x")).items()) == [("a", 1), ("b", "x"), ("c", ())]
    assert list(vars(Three(1, c=(2,))).items()) == [("a", 1), ("b", "b"), ("c", (2,))]
    assert Three(1) == Three(1, "b", ())


def test_every_field_by_keyword_in_any_order_keeps_the_fields_order() -> None:
    # the all-keyword call stores the fields in one step too; in the fields' order, as the general
    # path does, whatever order the keywords came in
    @record
    class Three:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    made = Three(c=(2,), a=1, b="x")
    assert list(vars(made).items()) == [("a", 1), ("b", "x"), ("c", (2,))]
    assert made == Three(1, "x", (2,))
    with pytest.raises(AttributeError):
        made.a = 5  # type: ignore[misc]
    with pytest.raises(TypeError, match="has no field 'd'"):
        Three(a=1, b="x", d=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="got 'a' twice"):
        Three(1, a=1, b="x", c=())  # type: ignore[misc]
