"""Data shipped inside the package: the JSON Schema, the GPU and model catalogues, NCCL names.

Takes a file name and gives its text, read through the package loader; the files are facts that
the spec, memory and rule stages interpret, and this module interprets none of them.
`literals` holds the JSON files a lint reads (the schema's definitions, the GPU and model
catalogues) as Python literals, generated from them, so a lint imports no JSON parser.
"""

from __future__ import annotations


def read_text(name: str) -> str:
    """A packaged data file's text.

    Read through this package's own loader, as `pkgutil.get_data` does, so it works from a zip as
    well as from a directory; `importlib.resources` would do the same at the price of importing
    its machinery on every run.
    """
    import os

    loader = __spec__.loader
    data: bytes = loader.get_data(os.path.join(os.path.dirname(__file__), name))  # type: ignore[union-attr]
    return data.decode("utf-8")
