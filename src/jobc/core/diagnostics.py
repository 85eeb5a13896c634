"""Findings: the one shape every error source is turned into."""

from __future__ import annotations

from enum import IntEnum

from jobc.core.record import field, record

DataPath = tuple[str | int, ...]


class Severity(IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}: use error, warning or info") from None


@record(order=True)
class Span:
    """1-based, inclusive start; end_col is the column after the last character."""

    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def point(cls, line: int, col: int, width: int = 1) -> Span:
        return cls(line, col, line, col + max(width, 1))


@record
class Related:
    """Another place a finding concerns: for a command assembled in a variable, the finding is where
    the value was written and this is the line that runs it."""

    span: Span
    message: str
    file: str | None = None  # None: the finding's own file


@record
class Finding:
    """One problem in one file. Rules create these with a data path; the engine adds the span."""

    code: str
    name: str
    severity: Severity
    message: str
    file: str
    span: Span
    path: DataPath = field(default=(), compare=False)
    related: tuple[Related, ...] = field(default=(), compare=False)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.span.line, self.span.col, self.code, self.message)


@record
class Raw:
    """What a rule reports: a code, a data path and a message. Positions come later."""

    code: str
    path: DataPath
    message: str


@record
class Hit:
    """A rule's finding before it has a position: where in the data, and what is wrong."""

    path: DataPath
    message: str
    at_value: bool = True  # point at the value (True) or at the key (False)
    # a rule whose cases differ in weight (JC401: info on Blackwell) overrides its default here
    severity: Severity | None = None
    # other places the finding concerns (the run line of a command assembled elsewhere)
    related: tuple[Related, ...] = ()
