"""What an import or a lint makes of a script: spec data, where each value came from, and what
was not carried (with why). Filled by `jobc.script.spec` and `jobc.script.carry`."""

from __future__ import annotations

from jobc.core.diagnostics import DataPath, Span
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any


@record
class Unmapped:
    line: int
    text: str
    why: str


@record(frozen=False)
class Derived:
    data: dict[str, Any]
    spans: dict[DataPath, Span] = field(default_factory=dict)
    # where a rule about a per-rank variable should point inside a setup line
    expansions: dict[DataPath, Span] = field(default_factory=dict)
    labels: dict[DataPath, str] = field(default_factory=dict)  # the script's words for a path
    unmapped: list[Unmapped] = field(default_factory=list)
    mode: str = "srun"
    # whether the script shows what its main step runs (a launcher, a python program or module);
    # a step that runs `bash -c "$VAR"` or a wrapper script hides it, and with it the launch mode
    mode_known: bool = True
    # what the import mapped from a launcher and what it could not carry over, said in the spec
    notes: list[str] = field(default_factory=list)
    # what the compiled job asks Slurm for that the script did not (GPUs a node's processes use
    # on nodes whose GPUs come without a request), said in the spec and in the report
    added: list[str] = field(default_factory=list)
    # what the spec needs and import left out (a value Slurm refuses), said at the top of the spec
    unknown: list[str] = field(default_factory=list)
    # values written as templates already (an `{unknown.NAME}` kept in place): not escaped again
    templated: set[DataPath] = field(default_factory=set)
    # where a value came from when no line of the script wrote it (GPUs the script never asked for)
    sources: dict[DataPath, str] = field(default_factory=dict)
    # which step the import took as the training step, and why (said in the spec and the summary)
    choice: str = ""
    # the batch shell's commands the import carried into the spec (setup lines): not listed again
    carried: list[Span] = field(default_factory=list)
    # the directives the import read as the job's request where sbatch reads none (a header below
    # the first command, or written `# SBATCH`): what sbatch would refuse of them is looked for too
    header_read: list[Any] = field(default_factory=list)

    def put(self, path: DataPath, value: Any, span: Span | None, label: str | None = None) -> None:
        node: Any = self.data
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
        if span is not None:
            self.spans[path] = span
        if label is not None:
            self.labels[path] = label

    def skip(self, span: Span, text: str, why: str) -> None:
        """List a line as not carried, with why; a line with the same text is listed once. A text
        over several lines is shown by its first: a newline is bash's only line break (`\r`, `\x1e`
        or U+2028, which `splitlines` breaks at too, are characters of a word, shown escaped)."""
        first = _first_line(text)
        for i, u in enumerate(self.unmapped):
            if u.line == span.line and u.text == first:
                if why not in u.why:
                    # one line, every reason it was not carried
                    self.unmapped[i] = Unmapped(u.line, u.text, f"{u.why}; and {why}")
                return
        self.unmapped.append(Unmapped(span.line, first, why))

    def said(self, line: int, text: str) -> bool:
        """Whether ``text`` at ``line`` is listed as not carried already."""
        first = _first_line(text)
        return any(u.line == line and u.text == first for u in self.unmapped)


def _first_line(text: str) -> str:
    # bash's blanks only: `str.strip` also takes `\x1c`–`\x1f` and `\x85`, characters of a word
    stripped = text.strip(" \t\n")
    return stripped.split("\n")[0].strip(" \t") if stripped else text
