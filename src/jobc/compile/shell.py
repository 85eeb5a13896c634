"""Quoting: the one way a spec value becomes shell text.

Every spec-derived word is single-quoted, even when `shlex.quote` would leave it bare, so that a
script's command structure is the same whatever the values are (the tests compare skeletons in
which each quoted word is replaced by a placeholder).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from jobc.core.lazyre import lazy

# The shape of a word written by `sq`: quoted runs joined by escaped quotes.
QUOTED_WORD = lazy(r"'[^']*'(?:\\''[^']*')*")


def sq(text: str) -> str:
    """`text` as one single-quoted shell word; nothing inside is expanded."""
    return "'" + text.replace("'", "'\\''") + "'"


def words(items: Iterable[str]) -> str:
    return " ".join(sq(item) for item in items)


def array(name: str, items: Iterable[str]) -> str:
    return f"{name}=({words(items)})"


def export(name: str, value: str) -> str:
    return f"export {name}={sq(value)}"


def scalar(value: str | int | float | bool) -> str:
    """How a YAML scalar reads as an environment value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def trap_handler_note() -> Iterator[str]:
    """The lines before a function that only a trap calls.

    shellcheck does not follow calls made by `trap`, so it reports such a function's body as
    unreachable (SC2317, at its default severity) and a plain `shellcheck job.sh` fails.
    """
    yield "# Only a trap calls this function, which shellcheck cannot see."
    yield "# shellcheck disable=SC2317"
