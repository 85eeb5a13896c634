"""``python -m jobc.runtime check`` — see ``jobc.runtime.check``."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jobc.runtime")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "check",
        help="smoke-test the job: every rank reports host, device, interface and one all-reduce",
    )
    parser.parse_args(argv)
    from jobc.runtime.check import main as check

    return check()


if __name__ == "__main__":
    sys.exit(main())
