"""jobc's Fraction answers as the standard library's does, for every operation it has: exact with
ints and fractions, a float with a float, the same text, rounding and hash."""

from __future__ import annotations

import fractions
import math
import operator
import random

import pytest

from jobc.core.rational import Fraction


def _pairs(seed: int, count: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    out = [(0, 1), (1, 1), (-1, 1), (3, 2), (-3, 2), (1, 3), (7, -4), (10**30 + 7, 3), (5, 10**20)]
    for _ in range(count):
        d = rng.choice([1, 2, 3, 4, 8, 10, 12, 1 << rng.randint(1, 40), rng.randint(1, 10**9)])
        out.append((rng.randint(-(10**12), 10**12), d if rng.random() < 0.8 else -d))
    return out


PAIRS = _pairs(7, 120)
FLOATS = [0.0, -0.0, 0.1, 1.5, -2.25, 1e9, 3.3e-7, 2.0**60, math.inf, -math.inf, math.nan]
OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv]
COMPARE = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


def same(ours: object, theirs: object) -> bool:
    """The same value and kind: a Fraction for a Fraction, the same float (nan as nan), the same int."""
    if isinstance(theirs, fractions.Fraction):
        return isinstance(ours, Fraction) and (ours.numerator, ours.denominator) == (
            theirs.numerator,
            theirs.denominator,
        )
    if isinstance(theirs, float):
        return isinstance(ours, float) and (ours == theirs or (math.isnan(ours) and math.isnan(theirs)))
    return type(ours) is type(theirs) and ours == theirs


def both(op: object, *args: object) -> tuple[object, object]:
    """op over jobc's fractions and over the standard ones (other arguments as they are)."""
    ours_args = [Fraction(*a) if isinstance(a, tuple) else a for a in args]
    theirs_args = [fractions.Fraction(*a) if isinstance(a, tuple) else a for a in args]
    results = []
    for values in (ours_args, theirs_args):
        try:
            results.append(op(*values))  # type: ignore[operator]
        except (ZeroDivisionError, OverflowError, ValueError) as exc:
            results.append(type(exc))
    return results[0], results[1]


@pytest.mark.parametrize("op", OPS + COMPARE, ids=lambda o: o.__name__)
def test_binary_operations_with_fractions_ints_and_floats(op: object) -> None:
    rng = random.Random(op.__name__)  # type: ignore[attr-defined]
    for a in PAIRS:
        others: list[object] = [rng.choice(PAIRS), rng.choice(PAIRS), a, 0, 1, -3, 7, 10**15]
        others += FLOATS
        for b in others:
            for left, right in ((a, b), (b, a)):
                ours, theirs = both(op, left, right)
                assert same(ours, theirs) or ours == theirs, (op, left, right, ours, theirs)


def test_unary_operations_and_conversions() -> None:
    for pair in PAIRS:
        ours, theirs = Fraction(*pair), fractions.Fraction(*pair)
        assert same(-ours, -theirs)
        assert same(+ours, +theirs)
        assert same(abs(ours), abs(theirs))
        assert float(ours) == float(theirs)
        for convert in (int, math.ceil, math.floor, math.trunc, round, bool, str, repr, hash):
            assert convert(ours) == convert(theirs), (convert, pair)  # type: ignore[operator]
        for digits in (-2, 0, 1, 3):
            assert same(round(ours, digits), round(theirs, digits))
        assert ours == theirs
        assert theirs == ours
        assert hash(ours) == hash(theirs)
        assert same(Fraction(ours), fractions.Fraction(theirs))
        assert same(Fraction(ours, Fraction(3, 7)), fractions.Fraction(theirs, fractions.Fraction(3, 7)))
        assert same(ours + theirs, theirs + theirs)  # with the standard class, either side
        assert same(theirs * ours, theirs * theirs)
        assert f"{ours}" == f"{theirs}"


def test_construction() -> None:
    for value in (0, 7, -12, 10**40, True):
        assert same(Fraction(value), fractions.Fraction(value))
    for value in FLOATS[:8]:
        assert same(Fraction(value), fractions.Fraction(value))
    for n, d in ((6, 4), (-6, 4), (6, -4), (0, -5)):
        assert same(Fraction(n, d), fractions.Fraction(n, d))
    with pytest.raises(ZeroDivisionError):
        Fraction(1, 0)
    with pytest.raises(ZeroDivisionError):
        Fraction(1, 2) / 0
    with pytest.raises(TypeError):
        Fraction("1/2")
    with pytest.raises(TypeError):
        Fraction(1, 2) + "x"  # type: ignore[operator]


def test_sorting_and_max_mix_ints_and_fractions() -> None:
    values = [Fraction(*p) for p in PAIRS[:40]] + [3, -2, 0]
    standard = [fractions.Fraction(*p) for p in PAIRS[:40]] + [3, -2, 0]
    assert [str(v) for v in sorted(values)] == [str(v) for v in sorted(standard)]
    assert str(max(values)) == str(max(standard))


def test_the_estimate_no_longer_imports_fractions() -> None:
    import subprocess
    import sys

    code = "import sys, jobc.memory.estimate; print('fractions' in sys.modules, 'decimal' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
