"""torchrun's option parser, as the simulator's torchrun and the round trip's judge hold it.

torchrun (`torchrun`, `python -m torch.distributed.run`, and `python -m torch.distributed.launch`,
which adds --use-env) reads its command line with argparse (torch/distributed/run.py,
`get_args_parser`): its options, then the program (the first word that is no option or option
value), then the program's arguments, untouched. Like every argparse parser with its defaults, it
reads a long option's unique prefix as that option (`--standa`: --standalone), and refuses, before
starting anything (`error: …`, exit 2), a word before the program that is no option of its own
(`unrecognized arguments`), the prefix of several (`ambiguous option`), an option without its
value, or a line with no program.

The table is every version's (torch 1.9 to 2.9), both spellings (`--nproc-per-node`,
`--nproc_per_node`) and torch.distributed.launch's own options (--use-env, and --logdir before
torch 1.9) with them. Standard library only (the stub runs it), and no `re` (a stub imports
little).
"""

from __future__ import annotations

_RUN_VALUED = (
    "nnodes nproc_per_node rdzv_backend rdzv_endpoint rdzv_id rdzv_conf max_restarts monitor_interval "
    "start_method event_log_handler role log_dir redirects tee local_ranks_filter node_rank master_addr "
    "master_port local_addr logs_specs numa_binding signals_to_handle logdir"
)
_RUN_FLAGS = "standalone module no_python run_path use_env help"


def _spellings(names: str) -> set[str]:
    return {f"--{n}" for n in names.split()} | {f"--{n.replace('_', '-')}" for n in names.split()}


TORCHRUN_VALUED = frozenset(_spellings(_RUN_VALUED) | {"-r", "-t"})
TORCHRUN_FLAGS = frozenset(_spellings(_RUN_FLAGS) | {"-m", "-h"})
TORCHRUN_OPTIONS = TORCHRUN_VALUED | TORCHRUN_FLAGS


def _number(word: str) -> bool:
    """`-1`, `-2.5`: argparse reads them as positional words (no option of torchrun looks like one)."""
    whole, dot, part = word[1:].partition(".")
    if not dot:
        return whole.isdecimal()  # argparse's `^-\d+$`
    return (whole.isdecimal() or not whole) and part.isdecimal()  # `^-\d*\.\d+$`


def option(word: str) -> tuple[str | None, str]:
    """What torchrun reads a word that starts with `-` as: the option it names and how (`ok`:
    a whole option, or one letter with its value or more letters in the word; `value`: the
    option's value is in the word after `=`), or None with why it refuses the word
    (`unrecognized`, `ambiguous`), or (None, `positional`): no option at all (a number, a
    word with a blank, `-`)."""
    if word in TORCHRUN_OPTIONS:
        return word, "ok"
    if len(word) < 2 or _number(word):
        return None, "positional"
    name, eq, _ = word.partition("=")
    if eq and name in TORCHRUN_OPTIONS:
        return name, "value"
    if word.startswith("--"):
        matches = sorted(o for o in TORCHRUN_OPTIONS if o.startswith(name) and o.startswith("--"))
    else:
        # one dash: the letter's option, the rest of the word its value or more letters
        matches = [word[:2]] if word[:2] in TORCHRUN_OPTIONS else []
    if len(matches) == 1:
        return matches[0], "value" if eq and word.startswith("--") else "ok"
    if len(matches) > 1:
        return None, "ambiguous"
    if " " in word:
        return None, "positional"
    return None, "unrecognized"


def parse(argv: list[str]) -> tuple[int | None, str | None]:
    """Where torchrun's program is in its command line (None: it starts nothing) and, when it
    starts nothing, its error as argparse words it (`unrecognized arguments: --rdd -n`)."""
    # argparse reads every word before a `--` as an option or not before it parses any: an
    # ambiguous prefix refuses the line even among the program's arguments (pytorch/pytorch
    # issue #120601: `train.py --log x` and torchrun's --log-dir, --logs-specs)
    for word in argv[: argv.index("--") if "--" in argv else len(argv)]:
        if word.startswith("--") and option(word)[1] == "ambiguous":
            return None, f"ambiguous option: {word.partition('=')[0]}"
    unknown: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-"):
            break
        name, how = option(word)
        if how == "positional":
            break
        if name is None:
            if how == "ambiguous":
                return None, f"ambiguous option: {word.partition('=')[0]}"
            unknown.append(word)
            i += 1
            continue
        if name in TORCHRUN_VALUED and how == "ok" and (word == name or word.startswith("--")):
            # the value is the next word; one that looks like an option is none
            after = argv[i + 1] if i + 1 < len(argv) else None
            if after is None or (after.startswith("-") and option(after)[1] != "positional"):
                return None, f"argument {name}: expected one argument"
            i += 2
            continue
        if name in TORCHRUN_FLAGS and len(word) > 2 and not word.startswith("--"):
            # `-mX`: more one-letter flags, or one letter with its value
            rest = word[2:]
            while rest:
                letter = "-" + rest[0]
                if letter not in TORCHRUN_OPTIONS:
                    return None, f"argument {name}: ignored explicit argument {rest!r}"
                rest = rest[1:]
                if letter in TORCHRUN_VALUED:
                    if not rest:
                        return None, f"argument {letter}: expected one argument"
                    break
        elif name in TORCHRUN_FLAGS and how == "value":
            return None, f"argument {name}: ignored explicit argument {word.partition('=')[2]!r}"
        i += 1
    if i >= len(argv):
        return None, "the following arguments are required: training_script, training_script_args"
    if unknown:
        return None, "unrecognized arguments: " + " ".join(unknown)
    return i, None


def refused(argv: list[str]) -> str | None:
    """The first word of a torchrun command line torchrun refuses, if it refuses any of them;
    the whole error when no one word is to blame (no program, an option without its value)."""
    at, error = parse(argv)
    if at is not None or error is None:
        return None
    if error.startswith("unrecognized arguments: "):
        return error.removeprefix("unrecognized arguments: ").split(" ")[0]
    if error.startswith("ambiguous option: "):
        return error.removeprefix("ambiguous option: ")
    return None


#: CPython's long options (Python/getopt.c); any other `--name` it refuses: `unknown option`, exit 2
PYTHON_LONG = frozenset({"--help", "--version", "--help-env", "--help-xoptions", "--help-all"})


#: `uv run`'s options (uv 0.13's `uv run --help`) that take a value, and those that do not; uv
#: refuses any other before it runs anything: `error: unexpected argument '--x' found`, exit 2
UV_RUN_VALUED = frozenset(
    [
        "--extra",
        "--no-extra",
        "--group",
        "--no-group",
        "--only-group",
        "--no-editable-package",
        "--env-file",
        "-w",
        "--with",
        "--with-editable",
        "--with-requirements",
        "--package",
        "--python-platform",
        "--index",
        "--default-index",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--index-strategy",
        "--keyring-provider",
        "-P",
        "--upgrade-package",
        "--upgrade-group",
        "--resolution",
        "--prerelease",
        "--prerelease-package",
        "--fork-strategy",
        "--exclude-newer",
        "--exclude-newer-package",
        "--no-sources-package",
        "--reinstall-package",
        "--link-mode",
        "-C",
        "--config-setting",
        "--config-settings-package",
        "--no-build-isolation-package",
        "--no-build-package",
        "--no-binary-package",
        "--cache-dir",
        "--refresh-package",
        "-p",
        "--python",
        "--color",
        "--allow-insecure-host",
        "--directory",
        "--project",
        "--config-file",
    ]
)
UV_RUN_FLAGS = frozenset(
    [
        "--all-extras",
        "--no-dev",
        "--only-dev",
        "--no-default-groups",
        "--all-groups",
        "--no-editable",
        "--exact",
        "--no-env-file",
        "--isolated",
        "--active",
        "--no-sync",
        "--locked",
        "--frozen",
        "-s",
        "--script",
        "--gui-script",
        "--all-packages",
        "--no-project",
        "--no-index",
        "-U",
        "--upgrade",
        "--no-sources",
        "--reinstall",
        "--compile-bytecode",
        "--no-build-isolation",
        "--no-build",
        "--no-binary",
        "--require-build-hashes",
        "--no-require-build-hashes",
        "-n",
        "--no-cache",
        "--refresh",
        "--managed-python",
        "--no-managed-python",
        "--no-python-downloads",
        "-q",
        "--quiet",
        "-v",
        "--verbose",
        "--system-certs",
        "--offline",
        "--no-progress",
        "--no-config",
        "-m",
        "--module",
        "-h",
        "--help",
    ]
)


def uv_run_refuses(argv: list[str]) -> str | None:
    """The first option of `uv run …` (``argv`` after `uv`), before its command, that uv does not have."""
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        name = argv[i].split("=", 1)[0]
        if name in UV_RUN_VALUED:
            i += 1 if "=" in argv[i] else 2
            continue
        if name not in UV_RUN_FLAGS and not (
            len(name) > 1 and set(name[1:]) <= {"q", "v"} and name[1] != "-"
        ):
            return argv[i]
        i += 1
    return None


def python_refuses(argv: list[str]) -> str | None:
    """The first of the interpreter's own options (before its program) that CPython does not have."""
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        word = argv[i]
        if word == "--" or word[1:2] in ("c", "m"):
            return None
        if word == "--check-hash-based-pycs" or word in ("-W", "-X"):
            i += 2
            continue
        if (
            word.startswith("--")
            and word not in PYTHON_LONG
            and not word.startswith("--check-hash-based-pycs=")
        ):
            return word
        i += 1
    return None
