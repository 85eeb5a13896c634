"""Findings: the one shape every error source is turned into."""

from __future__ import annotations

from enum import Enum, IntEnum

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


class Applicability(Enum):
    """How freely a fix may be applied: `safe` keeps the intent and changes nothing else;
    `unsafe` changes behaviour the user may rely on, or writes a value jobc chose, and is applied
    only when asked for (`--unsafe-fixes`)."""

    SAFE = "safe"
    UNSAFE = "unsafe"

    def __str__(self) -> str:
        return self.value


@record
class Edit:
    """Replace the text at `at` with `text`.

    `at` is a span of the file (an empty span, start == end, inserts; an empty text deletes) or,
    from a rule that knows only where in the data it is, a data path the emitter turns into the
    span the locator finds: the value's, or the key's with `at_value=False`. A newline in `text`
    is written as the file's own line end.
    """

    at: Span | DataPath
    text: str
    at_value: bool = True
    # `text` is a new `key: value` entry for the mapping at the data path `at`: the emitter puts it
    # in as the mapping is written (a line at its indentation, or into its braces)
    insert: bool = False
    # the entry at the data path `at` (its key and value) is taken out of its mapping, with its
    # separator or its line; `text` is unused
    remove: bool = False


@record
class Fix:
    """Edits of the one file a finding is in, applied together or not at all."""

    edits: tuple[Edit, ...]
    applicability: Applicability
    description: str  # imperative, one line: "add B: to --signal"

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.SAFE

    @classmethod
    def make(cls, description: str, *edits: Edit, safe: bool = True) -> Fix:
        return cls(edits, Applicability.SAFE if safe else Applicability.UNSAFE, description)


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
    fix: Fix | None = field(default=None, compare=False)  # its edits hold spans, never data paths

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
    """A rule's finding before it has a position: where in the data (or, for a rule that reads a
    script's text, the span itself), and what is wrong."""

    path: DataPath
    message: str
    at_value: bool = True  # point at the value (True) or at the key (False)
    # a rule whose cases differ in weight (JC401: info on Blackwell) overrides its default here
    severity: Severity | None = None
    # other places the finding concerns (the run line of a command assembled elsewhere)
    related: tuple[Related, ...] = ()
    fix: Fix | None = None  # a repair, when the rule knows one
    # where in the file's text, for a rule that reads text rather than data (a batch script's
    # facts carry spans): the emitter uses it as it is, and `path` only names the value, if any
    span: Span | None = None
