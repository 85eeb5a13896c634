"""Python code given with `python -c` that starts torchrun itself: a command it builds as a list
(`subprocess.call([py, "-m", "torch.distributed.run", f"--nnodes={n}", …, "train.py"])`) or a
string (`os.system("torchrun … train.py")`), or torch.distributed.run's own entry point called
with the command line's arguments (`python -c "from torch.distributed.run import main; main()"
--nproc_per_node=4 train.py`). The code is parsed, never run: what it computes is not known, and
each such element is said so (None) rather than guessed."""

from __future__ import annotations

import ast
import shlex

# the words that start torchrun, after which its options and program follow
_MODULES = ("torch.distributed.run", "torch.distributed.launch")
# a value the code computes, inside a command written as one string
_HOLE = "\x00"
# how such a value is shown in a word: computed when the job runs, as a shell's `$(…)` is
COMPUTED = "$(…)"
# a command word: its text, and whether it is written out (False: the code computes some of it)
CodeWord = tuple[str, bool]
# the code calls torch.distributed.run's entry point on the interpreter's own arguments
ARGV = "argv"


def torchrun_command(code: str) -> list[CodeWord] | str | None:
    """The words after torchrun (its options, the program, the program's arguments) of the command
    the code builds, each with whether the code writes it out; ARGV when it calls
    torch.distributed.run's entry point on its command line; None when it starts no torchrun (or
    is no Python jobc can parse)."""
    if len(code) > 1 << 16:
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    entry = False
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple):
            found = _after_launcher([_element(e) for e in node.elts])
            if found is not None:
                return found
        elif isinstance(node, ast.Constant | ast.JoinedStr):
            text = _string(node)
            if text is not None:
                found = _in_string(text)
                if found is not None:
                    return found
        elif isinstance(node, ast.ImportFrom) and node.module in _MODULES:
            entry = entry or any(a.name in ("main", "run") for a in node.names)
    return ARGV if entry else None


def _element(node: ast.expr) -> CodeWord:
    """A list element as the command word it is: a string written out, an f-string with what it
    computes shown as COMPUTED (`--nnodes=$(…)`: the option is still named), or computed whole."""
    if isinstance(node, ast.Constant | ast.JoinedStr):
        text = _string(node)
        if text is not None:
            return text.replace(_HOLE, COMPUTED), _HOLE not in text
    return COMPUTED, False


def _string(node: ast.expr) -> str | None:
    """A string written out, with _HOLE where an f-string computes a value."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    assert isinstance(node, ast.JoinedStr)
    parts: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value)
        else:
            parts.append(_HOLE)
    return "".join(parts)


def _after_launcher(words: list[CodeWord]) -> list[CodeWord] | None:
    """The words after `torchrun` (or `-m torch.distributed.run`) when ``words`` hold it."""
    for k, (w, literal) in enumerate(words):
        if not literal:
            continue
        if w.rsplit("/", 1)[-1] == "torchrun":
            return words[k + 1 :]
        if w == "-m" and k + 1 < len(words) and words[k + 1] in ((m, True) for m in _MODULES):
            return words[k + 2 :]
    return None


def _in_string(text: str) -> list[CodeWord] | None:
    """A command written as one string (`"torchrun --nproc_per_node=4 train.py"`)."""
    if "torchrun" not in text and not any(m in text for m in _MODULES):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    return _after_launcher([(w.replace(_HOLE, COMPUTED), _HOLE not in w) for w in words])


def imported(code: str) -> list[str]:
    """The modules the code imports, as written (`from src.train import main` gives `src.train`,
    `from .train import x` gives `train`); none for code jobc cannot parse."""
    if len(code) > 1 << 16:
        return []
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
    return out
