"""`jobc.core.paths` reads a path's text as `pathlib.PurePosixPath` does.

The lint of a file named on the command line works on its path's text without importing
`pathlib`; the file name it shows and the directory a script's `source` and a spec's
`workdir` are read from must stay what `pathlib` made of them. Every text of up to five pieces
below (slashes, dots, names with and without a suffix) is compared, and a few longer ones.
"""

from __future__ import annotations

import itertools
from pathlib import Path, PurePosixPath

import pytest

from jobc.core import paths

PIECES = ("/", ".", "..", "a", "b.sh", ".x", "y.", "..yaml", "")
LONGER = ("//a/b", "///a//b/", "./job.sbatch", "a/./b/../c.yaml", "/", "//", ".", "", "x/.tar.gz")


def _texts() -> list[str]:
    texts = {"".join(parts) for n in range(6) for parts in itertools.product(PIECES, repeat=n)}
    return sorted(texts | set(LONGER))


def test_every_text_reads_as_pathlib_reads_it() -> None:
    for text in _texts():
        pure = PurePosixPath(text)
        assert paths.plain(text) == str(pure), text
        assert paths.parent(text) == str(pure.parent), text
        assert paths.name(text) == pure.name, text
        assert paths.suffix(text) == pure.suffix, text


@pytest.mark.parametrize("text", LONGER)
def test_a_path_object_reads_as_its_text(text: str) -> None:
    assert paths.plain(Path(text)) == paths.plain(text)
    assert paths.parent(Path(text)) == paths.parent(text)


def test_the_near_miss_os_path_differs() -> None:
    # what the module is for: os.path alone answers otherwise for these
    import os.path

    assert os.path.dirname("job.sh") == ""
    assert paths.parent("job.sh") == "."
    assert os.path.splitext("..yaml")[1] == ""
    assert paths.suffix("..yaml") == ".yaml"
    assert os.path.normpath("a/../b") == "b"
    assert paths.plain("a/../b") == "a/../b"
