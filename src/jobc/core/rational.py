"""Exact rational numbers for the memory estimate, without importing `fractions`.

The estimate divides byte counts by parallel sizes and keeps them exact until it rounds up once
(a third of a byte per parameter, summed over billions of them, is not lost to floating point).
`fractions.Fraction` did that, but importing it brings `decimal` (and `numbers`, and a pattern
compiled at import): about a millisecond and a half of every cold lint of a spec with a model.
`Fraction` here is the same value type for what jobc does with it: built from ints (or
fractions, or a float exactly), the four operations, comparisons, `ceil`/`floor`/`int`/`round`,
`float`, `str`, and a hash equal to the standard one. Mixed with an int the answer is exact, with
a float it is a float, as with the standard class; a test holds the two to each other.
"""

from __future__ import annotations

import math
import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Exact = Callable[[int, int, int, int], tuple[int, int]]  # (a's n, d, b's n, d) → the result's
    Inexact = Callable[[float, float], float]


_MODULUS = sys.hash_info.modulus
_INF = sys.hash_info.inf


class Fraction:
    """numerator / denominator in lowest terms, the denominator positive."""

    __slots__ = ("_denominator", "_numerator")
    _numerator: int
    _denominator: int

    def __new__(cls, numerator: Any = 0, denominator: Any = None) -> Fraction:
        self = object.__new__(cls)
        if denominator is None:
            if isinstance(numerator, int):
                self._numerator, self._denominator = int(numerator), 1
                return self
            if isinstance(numerator, float):
                n, d = numerator.as_integer_ratio()  # exact, as Fraction(float) is
                self._numerator, self._denominator = n, d
                return self
            if _rational(numerator):
                self._numerator, self._denominator = numerator.numerator, numerator.denominator
                return self
            raise TypeError("argument should be an int, a float or a rational number")
        if isinstance(numerator, int) and isinstance(denominator, int):
            n, d = int(numerator), int(denominator)
        elif _rational(numerator) and _rational(denominator):
            n = numerator.numerator * denominator.denominator
            d = denominator.numerator * numerator.denominator
        else:
            raise TypeError("both arguments should be rational numbers")
        if d == 0:
            raise ZeroDivisionError(f"Fraction({n}, 0)")
        g = math.gcd(n, d)
        if d < 0:
            g = -g
        self._numerator, self._denominator = n // g, d // g
        return self

    @classmethod
    def _raw(cls, n: int, d: int) -> Fraction:
        """n/d, reduced (d is not zero)."""
        g = math.gcd(n, d)
        if d < 0:
            g = -g
        self = object.__new__(cls)
        self._numerator, self._denominator = n // g, d // g
        return self

    @property
    def numerator(self) -> int:
        return self._numerator

    @property
    def denominator(self) -> int:
        return self._denominator

    def __repr__(self) -> str:
        return f"Fraction({self._numerator}, {self._denominator})"

    def __str__(self) -> str:
        if self._denominator == 1:
            return str(self._numerator)
        return f"{self._numerator}/{self._denominator}"

    # arithmetic: exact with ints and rationals, a float with a float
    def __add__(self, other: int | Fraction) -> Fraction:
        return _forward(self, other, lambda an, ad, bn, bd: (an * bd + bn * ad, ad * bd), float.__add__)

    def __radd__(self, other: int | Fraction) -> Fraction:
        return _reverse(self, other, lambda an, ad, bn, bd: (bn * ad + an * bd, bd * ad), float.__add__)

    def __sub__(self, other: int | Fraction) -> Fraction:
        return _forward(self, other, lambda an, ad, bn, bd: (an * bd - bn * ad, ad * bd), float.__sub__)

    def __rsub__(self, other: int | Fraction) -> Fraction:
        return _reverse(self, other, lambda an, ad, bn, bd: (bn * ad - an * bd, bd * ad), float.__sub__)

    def __mul__(self, other: int | Fraction) -> Fraction:
        return _forward(self, other, lambda an, ad, bn, bd: (an * bn, ad * bd), float.__mul__)

    def __rmul__(self, other: int | Fraction) -> Fraction:
        return _reverse(self, other, lambda an, ad, bn, bd: (bn * an, bd * ad), float.__mul__)

    def __truediv__(self, other: int | Fraction) -> Fraction:
        return _forward(self, other, _div, float.__truediv__)

    def __rtruediv__(self, other: int | Fraction) -> Fraction:
        return _reverse(self, other, lambda an, ad, bn, bd: _div(bn, bd, an, ad), float.__truediv__)

    def __floordiv__(self, other: int | Fraction) -> int:
        if isinstance(other, int) or _rational(other):
            return (self._numerator * other.denominator) // (self._denominator * other.numerator)
        if isinstance(other, float):
            return float(self) // other  # a float, as the standard class gives
        return NotImplemented

    def __rfloordiv__(self, other: int | Fraction) -> int:
        if isinstance(other, int) or _rational(other):
            return (other.numerator * self._denominator) // (other.denominator * self._numerator)
        if isinstance(other, float):
            return other // float(self)  # a float, as the standard class gives
        return NotImplemented

    def __neg__(self) -> Fraction:
        return Fraction._raw(-self._numerator, self._denominator)

    def __pos__(self) -> Fraction:
        return Fraction._raw(self._numerator, self._denominator)

    def __abs__(self) -> Fraction:
        return Fraction._raw(abs(self._numerator), self._denominator)

    # conversions
    def __float__(self) -> float:
        return self._numerator / self._denominator  # int / int: correctly rounded

    def __int__(self) -> int:
        n, d = self._numerator, self._denominator
        return -(-n // d) if n < 0 else n // d

    __trunc__ = __int__

    def __floor__(self) -> int:
        return self._numerator // self._denominator

    def __ceil__(self) -> int:
        return -(-self._numerator // self._denominator)

    def __round__(self, ndigits: int | None = None) -> Any:
        if ndigits is None:
            floor, remainder = divmod(self._numerator, self._denominator)
            if remainder * 2 < self._denominator:
                return floor
            if remainder * 2 > self._denominator:
                return floor + 1
            return floor if floor % 2 == 0 else floor + 1  # half to even
        shift = 10 ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        return Fraction(round(self / shift) * shift)

    def __bool__(self) -> bool:
        return self._numerator != 0

    def __hash__(self) -> int:
        # what fractions.Fraction's hash is, so that equal numbers hash alike
        try:
            inverse = pow(self._denominator, -1, _MODULUS)
        except ValueError:
            value = _INF
        else:
            value = hash(hash(abs(self._numerator)) * inverse)
        result = value if self._numerator >= 0 else -value
        return -2 if result == -1 else result

    # comparisons: exact, with floats too
    def __eq__(self, other: object) -> bool:
        if isinstance(other, int):
            return self._numerator == other and self._denominator == 1
        if _rational(other):
            same: bool = self._numerator == other.numerator and self._denominator == other.denominator  # type: ignore[attr-defined]
            return same
        if isinstance(other, float):
            if math.isnan(other) or math.isinf(other):
                return False
            return self == Fraction(other)
        return NotImplemented

    def _compare(self, other: Any, op: Callable[[Any, Any], bool]) -> bool:
        if isinstance(other, int) or _rational(other):
            return op(self._numerator * other.denominator, self._denominator * other.numerator)
        if isinstance(other, float):
            if math.isnan(other) or math.isinf(other):
                return op(0.0, other)
            return self._compare(Fraction(other), op)
        return NotImplemented  # type: ignore[no-any-return]

    def __lt__(self, other: int | float | Fraction) -> bool:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other: int | float | Fraction) -> bool:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other: int | float | Fraction) -> bool:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other: int | float | Fraction) -> bool:
        return self._compare(other, lambda a, b: a >= b)


_BUILTIN = (int, float)  # a tuple: a union here would be made at every call


def _rational(value: object) -> bool:
    """A rational number that is not an int: this class, or the standard library's."""
    return not isinstance(value, _BUILTIN) and hasattr(value, "numerator") and hasattr(value, "denominator")


def _div(an: int, ad: int, bn: int, bd: int) -> tuple[int, int]:
    if bn == 0:
        raise ZeroDivisionError(f"Fraction({an * bd}, 0)")
    return an * bd, ad * bn


def _forward(a: Fraction, b: Any, exact: Exact, inexact: Inexact) -> Fraction:
    if isinstance(b, int) or _rational(b):
        return Fraction._raw(*exact(a._numerator, a._denominator, b.numerator, b.denominator))
    if isinstance(b, float):
        return inexact(float(a), b)  # type: ignore[return-value]  # a float, as the standard class gives
    return NotImplemented  # type: ignore[no-any-return]


def _reverse(a: Fraction, b: Any, exact: Exact, inexact: Inexact) -> Fraction:
    if isinstance(b, int) or _rational(b):
        return Fraction._raw(*exact(a._numerator, a._denominator, b.numerator, b.denominator))
    if isinstance(b, float):
        return inexact(b, float(a))  # type: ignore[return-value]  # a float, as the standard class gives
    return NotImplemented  # type: ignore[no-any-return]
