"""`jobc schema` prints the JSON Schema of spec files."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from jobc.commands import Exit


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="print the JSON Schema",
        description=(
            "Print the JSON Schema of spec files and cluster profiles, or (--format markdown) the "
            "spec reference: every field, its type, default, what it compiles to and the rules that read it."
        ),
    )
    p.add_argument("--format", choices=("json", "markdown"), default="json")
    p.set_defaults(run=run)


def text() -> str:
    from jobc.spec.model import json_schema

    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace) -> int:
    if args.format == "markdown":
        from jobc.lint.reference import markdown

        sys.stdout.write(markdown())
    else:
        sys.stdout.write(text())
    return Exit.OK
