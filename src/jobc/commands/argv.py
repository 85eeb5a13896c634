"""`jobc lint FILE…` read from the command line without argparse.

A lint is the command run on every commit and every save, and argparse costs it more than
anything else outside the lint itself: importing it brings gettext and locale, and building the
parser looks up translations on disk for every option. The common forms (`jobc lint` and its
own options, then the files) are read here instead; anything else, and anything unusual (an
abbreviated option, `--`, a value that starts with `-`, `--help`, options before the command,
files given on both sides of an option), is left to the full parser, which answers as it always
did. What is read here must mean exactly what argparse reads from the same words: a test holds
the two to each other on many command lines.
"""

from __future__ import annotations


class UsageError(Exception):
    """A problem with how jobc was called; one line, exit 2."""


# the lint options that take a value, and where they go (argparse's `dest`)
_VALUED = {
    "--format": "format",
    "--select": "select",
    "--ignore": "ignore",
    "--config": "config",
    "--set": "overrides",
    "--profile": "profile",
    "--color": "color",
}
_REPEATED = frozenset({"select", "ignore", "overrides"})
_CHOICES = {"format": ("text", "json", "sarif", "github"), "color": ("auto", "always", "never")}
_FLAGS = {
    "--strict": "strict",
    "--fix": "fix",
    "--unsafe-fixes": "unsafe_fixes",
    "--fix-only": "fix_only",
    "--show-fixes": "show_fixes",
    "--diff": "diff",
    "--live": "live",
}


class LintArgs:
    """What argparse's namespace holds for `jobc lint` (the same names, the same defaults)."""

    def __init__(self) -> None:
        self.command = "lint"
        self.debug = False
        self.color = "auto"
        self.paths: list[str] = []
        self.format = "text"
        self.select: list[str] | None = None
        self.ignore: list[str] | None = None
        self.strict = False
        self.config: str | None = None
        self.overrides: list[str] | None = None
        self.profile: str | None = None
        self.fix = False
        self.unsafe_fixes = False
        self.fix_only = False
        self.show_fixes = False
        self.diff = False
        self.live = False


def lint_args(argv: list[str]) -> LintArgs | None:
    """`jobc lint`'s arguments read from `argv`, or None when the full parser must read them."""
    if len(argv) < 2 or argv[0] != "lint":
        return None
    args = LintArgs()
    paths_done = False
    i = 1
    while i < len(argv):
        word = argv[i]
        i += 1
        if not word.startswith("-"):
            # argparse gives the files all at once: more after an option are an error it words
            if paths_done:
                return None
            start = i - 1
            while i < len(argv) and not argv[i].startswith("-"):
                i += 1
            args.paths = argv[start:i]
            paths_done = True
            continue
        if word in _FLAGS:
            setattr(args, _FLAGS[word], True)
            continue
        name, eq, value = word.partition("=")
        dest = _VALUED.get(name)
        if dest is None:
            return None  # unknown, abbreviated, `-`, `--`, `-h`: argparse's to answer
        if not eq:
            # a next word that looks like an option is argparse's "expected one argument"
            if i == len(argv) or argv[i].startswith("-"):
                return None
            value = argv[i]
            i += 1
        if dest in _CHOICES and value not in _CHOICES[dest]:
            return None
        if dest in _REPEATED:
            held = getattr(args, dest)
            setattr(args, dest, [*(held or []), value])
        else:
            setattr(args, dest, value)
    return args if paths_done else None
