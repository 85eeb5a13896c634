"""The `jobc` command (the console script and `python -m jobc`): `jobc.cli.main`, run so that a
fresh process costs as little around it as it can.

- The cyclic garbage collector rests from the first import on (`main` rests it while a command
  runs; the imports before it made the same many objects and no cyclic garbage).
- The process ends without tearing the interpreter down. Python's own exit destroys every module
  and object and collects cycles over all of them, about a fifth of a lint's time spent after the
  answer was given, and nothing jobc does needs it: every file it writes is closed before `main`
  returns, and it starts no thread and registers no exit handler. The standard streams are
  flushed first; when that fails (a closed pipe), the interpreter's usual exit takes over and
  reports it as it always did.
"""

import gc
import os
import sys


def entry() -> None:
    gc.disable()
    from jobc.cli import main

    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        raise SystemExit(code) from None
    os._exit(code)


if __name__ == "__main__":
    entry()
