"""`jobc compile`: a validated spec to one sbatch script (or an attach script), as pure text."""

from jobc.compile.errors import CompileError
from jobc.compile.plan import spec_sha256
from jobc.compile.script import compile_attach, compile_batch

__all__ = ["CompileError", "compile_attach", "compile_batch", "spec_sha256"]
