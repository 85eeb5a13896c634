"""Values a script writes that sbatch, srun, bash or the launcher refuse: counts, names, and an
`#SBATCH` option sbatch does not know (it refuses the whole script for one).

A count is ASCII digits (`²` and `٣` are digits to Python, not to Slurm), at least 1 where a job
cannot have none, and within a C int (Slurm's option parsers); an exported name is one bash
accepts. (A time limit Slurm cannot read is JC108's, in scripts as in specs.) Lint reports
each as JC809; import leaves the value out and reports the same finding, so an imported spec
never carries `nodes: 0` or a 4000-digit count. Only literal text is judged: `$NODES` is
JC107's, and a launcher's own words (`--nproc_per_node=gpu`) are its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.core.numbers import SLURM_MAX, ascii_int, is_digits, shown
from jobc.core.record import record
from jobc.core.spelling import one_edit
from jobc.script.directives import ambiguous
from jobc.script.facts import Directive, ScriptFacts, Word
from jobc.tables.slurm_options import (
    ALIASES,
    COUNT_OPTIONS,
    FLAG_VALUES,
    SBATCH_22_05,
    SBATCH_OPTIONS,
    is_pyxis,
)

#: launcher options (normalised names) that take a number, with the least and the most each may be
LAUNCHER_NUMBERS = {
    "nnodes": (1, SLURM_MAX),
    "num_machines": (1, SLURM_MAX),
    "num_nodes": (1, SLURM_MAX),
    "nproc_per_node": (1, SLURM_MAX),
    "num_processes": (1, SLURM_MAX),
    "num_gpus": (1, SLURM_MAX),
    "node_rank": (0, SLURM_MAX),
    "machine_rank": (0, SLURM_MAX),
    "max_restarts": (0, SLURM_MAX),
    "master_port": (1, 65535),
    "main_process_port": (1, 65535),
}
# a GRES count: digits, with a k, m or g multiplier
_GRES_COUNT = lazy(r"[0-9]+[kKmMgG]?")
_ENV_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_SHELL = lazy(r"[$`]")
# what a SPANK plugin's option may be called: letters, digits, `-` and `_`
_PLUGIN_NAME = lazy(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_NODE_COUNTS = lazy(r"[-,]")  # --nodes=2-4 and --nodes=2,4


@record
class Refused:
    span: Span
    what: str  # the option or word as written, for messages
    message: str  # why it is refused, in the script's terms


def _unicode_digits(text: str) -> bool:
    return any(ch.isdigit() and not ch.isascii() for ch in text)


def count_problem(text: str, least: int, most: int = SLURM_MAX) -> str | None:
    """Why a count is refused (None: it is read): not ASCII digits, below ``least``, above ``most``."""
    if _unicode_digits(text):
        return "not written in ASCII digits, the only digits Slurm and the launchers read"
    if not is_digits(text):
        return "not a whole number"
    value = ascii_int(text)
    if value is None or value > most:
        return f"larger than {most}, the most it may be"
    if value < least:
        return f"less than {least}, the least it may be"
    return None


def problems(facts: ScriptFacts) -> Iterator[Refused]:
    """Every refused value of the script, in the order the script writes them."""
    found: list[Refused] = []
    for d in facts.directives:
        if d.honoured and (several := ambiguous(d)):
            found.append(_ambiguous(d, several))
        elif d.honoured and d.value is None:
            found.extend(_unknown_option(d))
        elif d.honoured and d.value is not None and not _SHELL.search(d.value):
            found.extend(_directive(d))
    for step in facts.steps:
        for name, word in (step.srun or {}).items():
            if name in COUNT_OPTIONS and word.literal:
                found.extend(_count_word(f"srun {word.raw}", word, COUNT_OPTIONS[name]))
        if step.launcher is not None:
            for name, word in step.launcher.options.items():
                if name in LAUNCHER_NUMBERS and word.literal:
                    found.extend(_launcher_word(f"{step.launcher.name} {word.raw}", name, word))
    for e in facts.exports:
        if e.exported and not _ENV_NAME.fullmatch(e.name):
            found.append(
                Refused(
                    e.span,
                    f"export {e.name}",
                    f"export {shown(e.name)}: bash refuses the name (a name is letters, digits and _, "
                    "not starting with a digit), so the export fails and the program never sees it",
                )
            )
    found.sort(key=lambda r: (r.span.line, r.span.col))
    yield from found


def _directive(d: Directive) -> Iterator[Refused]:
    value = d.value or ""
    where = f"#SBATCH {shown(d.text, keep=30)}"
    if list(_unknown_option(d)):
        yield from _unknown_option(d)
        return
    if d.name in COUNT_OPTIONS:
        # --nodes=2-4 and --nodes=2,4 are ranges and lists; --gpus-per-node=h100:8 names a type
        parts = value.rpartition(":")[2] if d.name.startswith("gpus") else value
        for part in _NODE_COUNTS.split(parts) if d.name == "nodes" else [parts]:
            problem = count_problem(part, COUNT_OPTIONS[d.name])
            if problem is not None:
                yield Refused(d.span, d.text, f"{where}: the count is {problem}; sbatch refuses the job")
                return
    elif d.name == "gres":
        for entry in value.split(","):
            bits = entry.split(":")
            last = bits[-1]
            if len(bits) > 1 and (_unicode_digits(last) or (is_digits(last) and ascii_int(last) is None)):
                problem = count_problem(last, 0)
                yield Refused(d.span, d.text, f"{where}: the GPU count is {problem}; sbatch refuses the job")
                return
            if len(bits) == 3 and last and not _GRES_COUNT.fullmatch(last):
                # name:type:count with a count that is no number (`gpu:v100:x`, a placeholder):
                # `sbatch: error: Invalid generic resource (gres) specification` (tried on the
                # test cluster); with one colon, `gpu:x` names a type instead
                yield Refused(
                    d.span,
                    d.text,
                    f"{where}: the GPU count {shown(last, keep=12)} is not a whole number; sbatch refuses "
                    "the job (invalid generic resource specification)",
                )
                return
    elif d.name in FLAG_VALUES and value.lower() not in FLAG_VALUES[d.name]:
        # `-k=40`: getopt gives `-k` its optional value `=40` (tried with sbatch 22.05: "Invalid
        # --no-kill specification", no job)
        taken = " or ".join(f"`--{d.name}={v}`" for v in sorted(FLAG_VALUES[d.name]))
        yield Refused(
            d.span,
            d.text,
            f"{where}: --{d.name} takes no value but {taken} ({shown(value, keep=12)} given); sbatch "
            "refuses the job",
        )
    elif d.name == "signal":
        grace = value.partition("@")[2]
        if grace and (problem := count_problem(grace, 0, 65535)) is not None:
            yield Refused(d.span, d.text, f"{where}: the seconds before the limit are {problem}")


def _unknown_option(d: Directive) -> Iterator[Refused]:
    """An `#SBATCH --option` no sbatch can know: it stops there and refuses the whole script
    (tried on the test cluster: `sbatch: unrecognized option '--frobnicate'`, exit 255, no job).
    Only a name no plugin could add is judged: sites add options through SPANK plugins (pyxis's
    --container-image, Shifter's --image and --module), so a plain unknown name may be one."""
    where = f"#SBATCH {shown(d.text, keep=30)}"
    if d.text.startswith("--") and d.name not in SBATCH_OPTIONS and not is_pyxis(d.name):
        if not _PLUGIN_NAME.fullmatch(d.name):
            yield Refused(
                d.span, d.text, f"{where}: sbatch knows no such option and refuses the whole script"
            )
        elif (
            d.name not in SBATCH_22_05 and d.name not in ALIASES and len(near := _one_edit_from(d.name)) == 1
        ):
            # one letter off an option of sbatch's own (`--gress`, `--nodess`): a slip, far likelier
            # than a plugin's option named so
            yield Refused(
                d.span,
                d.text,
                f"{where}: sbatch knows no such option (did you mean --{near[0]}?) and refuses the whole "
                "script (`unrecognized option`), unless a plugin of the site adds it",
            )
    elif d.text.startswith("-") and not d.text.startswith("--") and d.name not in SBATCH_OPTIONS:
        # a letter sbatch has no short option for (plugins add long options only): getopt says
        # `invalid option -- 'g'` and sbatch refuses the whole script
        long = d.text[1:].partition("=")[0]
        hint = (
            f"; a long option takes two dashes: `-{shown(d.text, keep=30)}`" if long in SBATCH_OPTIONS else ""
        )
        yield Refused(
            d.span,
            d.text,
            f"{where}: sbatch has no option -{d.text[1]} and refuses the whole script "
            f"(`invalid option`){hint}",
        )


def _one_edit_from(name: str) -> list[str]:
    """sbatch's long options of four letters or more that one edit turns `name` into."""
    return sorted(o for o in SBATCH_OPTIONS if len(o) >= 4 and o != name and one_edit(name, o))


def _ambiguous(d: Directive, several: list[str]) -> Refused:
    """An `#SBATCH --g`: a prefix of several options, which sbatch's getopt_long refuses, and sbatch
    the whole script (tried with sbatch 22.05.8: "option '--g' is ambiguous; possibilities: …",
    exit 255, no job); a prefix of one option is that option."""
    where = f"#SBATCH {shown(d.text, keep=30)}"
    names = ", ".join(f"--{o}" for o in several[:6]) + (", …" if len(several) > 6 else "")
    return Refused(
        d.span,
        d.text,
        f"{where}: a prefix of several sbatch options ({names}); sbatch refuses the whole script",
    )


def _count_word(where: str, word: Word, least: int) -> Iterator[Refused]:
    problem = count_problem(word.text, least)
    if problem is not None:
        message = f"{shown(where, keep=30)}: the count is {problem}; srun refuses it"
        yield Refused(word.span, word.raw, message)


def _launcher_word(where: str, name: str, word: Word) -> Iterator[Refused]:
    text = word.text
    parts = text.split(":", 1) if name == "nnodes" else [text]  # elastic: MIN:MAX
    least, most = LAUNCHER_NUMBERS[name]
    for part in parts:
        # words such as `gpu` or `auto` (nproc_per_node) are the launcher's own: only numbers count
        if not (_unicode_digits(part) or is_digits(part)):
            continue
        problem = count_problem(part, least, most)
        if problem is not None:
            message = f"{shown(where, keep=30)}: the value is {problem}; the launcher refuses it"
            yield Refused(word.span, word.raw, message)
            return
