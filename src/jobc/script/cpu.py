"""What in a script that asks Slurm for no GPUs shows that its job runs on CPUs.

A launcher's processes per node stand for GPUs only on nodes whose GPUs the job uses; a script
that says, in its own words, that it runs on CPUs keeps 0 GPUs per node whatever its process
count: a gloo backend, `--device cpu` (or Lightning's accelerator), CUDA_VISIBLE_DEVICES set
empty, a partition, constraint, job name or interpreter environment named for CPUs
(`--partition=cpu`, `./pt_cpu/bin/torchrun`), or a constraint that names only CPU architectures
(`-C haswell`)."""

from __future__ import annotations

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.script.facts import ScriptFacts, Step

# `cpu` as a word of a name: cpu, cpu-ddp, pt_cpu, cpus; not `gpu`, not `cpuset`
_CPU_WORD = lazy(r"(?<![a-z0-9])cpus?(?![a-z0-9])")
# the option a program or launcher is told its backend or device by, and the CPU answers
_BACKEND = lazy(r"-{1,2}(?:dist[-_])?backend$|^(?:dist[-_])?backend$")
_DEVICE = lazy(r"-{1,2}(?:device|accelerator)$|^(?:trainer\.)?(?:device|accelerator)$")
_NAMED = ("partition", "constraint", "job-name")
# a constraint that asks for nodes by their CPU's architecture alone: CPU nodes (NERSC's Cori
# `-C haswell` and `-C knl`, the Xeon and EPYC generations sites name their CPU partitions for).
# One that also names a GPU (`-C "skylake&v100"`) is a GPU node's and says nothing.
_CPU_ARCH = lazy(
    r"haswell|broadwell|knl|skylake|cascadelake|icelake|sapphirerapids|rome|milan|genoa|zen[234]"
)
_CONSTRAINT_WORDS = lazy(r"[A-Za-z0-9_-]+")
# the word that runs a launcher or interpreter by path: its directories may name the environment
_RUNNER = lazy(r"(?:.*/)(?:torchrun|accelerate|deepspeed|python[\d.]*)$")


def cpu_sign(facts: ScriptFacts, step: Step) -> tuple[Span, str] | None:
    """Where the script shows that its training step runs on CPUs, and what it says; None when
    nothing does."""
    for word, value in _pairs(step):
        key, answer = word.lower(), value.lower()
        if _BACKEND.search(key) and answer == "gloo":
            return step.span, f"{word} {value}"
        if _DEVICE.search(key) and answer == "cpu":
            return step.span, f"{word} {value}"
    for assign in step.env:
        if assign.name == "CUDA_VISIBLE_DEVICES" and assign.value == "":
            return assign.span, "CUDA_VISIBLE_DEVICES set empty"
    for export in facts.exports:
        # exported before the step: the program inherits it
        if (
            export.name == "CUDA_VISIBLE_DEVICES"
            and export.value == ""
            and export.exported
            and export.span.line < step.line
        ):
            return export.span, "CUDA_VISIBLE_DEVICES set empty"
    honoured = facts.honoured()
    for name in _NAMED:
        d = honoured.get(name)
        if d is not None and d.value and _CPU_WORD.search(d.value.lower()):
            return d.span, f"#SBATCH {d.text}"
    constraint = honoured.get("constraint")
    if constraint is not None and constraint.value:
        names = _CONSTRAINT_WORDS.findall(constraint.value.lower())
        if names and all(_CPU_ARCH.fullmatch(name) for name in names):
            return constraint.span, f"#SBATCH {constraint.text} (nodes named for their CPUs)"
    for token in step.text.split():
        runner = _RUNNER.fullmatch(token)
        if runner is not None and _CPU_WORD.search(token.rsplit("/", 1)[0].lower()):
            return step.span, f"{token} (an environment named for CPUs)"
    return None


def _pairs(step: Step) -> list[tuple[str, str]]:
    """The step's arguments as (option, value): `--backend gloo`, `--backend=gloo`, `device=cpu`."""
    words = [w.text for w in step.args if w.literal]
    out: list[tuple[str, str]] = []
    for i, word in enumerate(words):
        if "=" in word:
            key, _, value = word.partition("=")
            out.append((key, value))
        elif word.startswith("-") and i + 1 < len(words):
            out.append((word, words[i + 1]))
    return out
