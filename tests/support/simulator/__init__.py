"""A behaviour simulator for batch scripts: run one under a simulated Slurm allocation, with stubs
of srun, torchrun, python and the rest on PATH recording what each task was given, and say what
differs between two scripts.

    from tests.support.simulator import Ignore, differences, simulate

    assert differences(script, fixed) == []                       # the same in every scenario
    assert differences(script, fixed, Ignore(env={"MASTER_PORT"})) == []  # but for what is named
    run = simulate(script)["complete"]                           # or look at the records
    [p.argv for p in run.named("torchrun")]

`run.py` runs a script (sandbox, scenarios, the job's environment), `stub.py` is every stub,
`init.py` the simulated controller, `compare.py` the comparison; docs/testing.md says more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tests.support.simulator.compare import Ignore, compare, compare_runs, merged
from tests.support.simulator.run import (
    SCENARIOS,
    Process,
    Run,
    Simulation,
    SimulatorUnavailable,
    simulate,
)

__all__ = [
    "SCENARIOS",
    "Ignore",
    "Process",
    "Run",
    "Simulation",
    "SimulatorUnavailable",
    "compare",
    "compare_runs",
    "differences",
    "merged",
    "simulate",
]


def differences(
    before: str | bytes,
    after: str | bytes,
    ignore: Ignore | None = None,
    *,
    scenarios: Iterable[str] = SCENARIOS,
    options_before: Iterable[str] = (),
    options_after: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    name: str = "job.sh",
    budget: int | None = None,
) -> list[str]:
    """Run both scripts in each scenario and list what differs (one line each; [] when nothing
    does beyond what ``ignore`` lets differ). ``options_before`` are sbatch command-line options
    for the first script only: how a test says "as if sbatch had read that line"."""
    wanted = tuple(s for s in scenarios if ignore is None or s not in ignore.scenarios)
    a = simulate(before, name=name, scenarios=wanted, options=options_before, env=env, budget=budget)
    b = simulate(after, name=name, scenarios=wanted, options=options_after, env=env, budget=budget)
    return compare(a, b, ignore)
