"""`jobc plan SPEC [--format text|json] [--set KEY=VALUE]…`: what the job will be.

World and data-parallel sizes, where every rank sits (node, local rank, tp/cp/dp/pp and expert
coordinates in Megatron-Core's rank order) and the per-GPU memory of the most loaded rank with
the assumptions behind it. Lint findings go to stderr; exit 1 when lint finds errors (the plan
is still printed when the spec could be read, since it shows why), 2 on usage problems.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from jobc.commands import Exit
from jobc.commands.common import CommandError, add_spec_arguments, lint_spec, print_findings
from jobc.core.diagnostics import Severity

if TYPE_CHECKING:
    from jobc.spec.context import Context


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="show the job's rank layout and per-GPU memory",
        description=(
            "Show world and data-parallel sizes, the rank layout (node, local rank and tp/cp/dp/pp "
            "and expert coordinates) and the per-GPU memory estimate with its assumptions."
        ),
    )
    add_spec_arguments(p, "parallelism.ep=16")
    p.add_argument(
        "--format",
        choices=("text", "json", "svg"),
        default="text",
        help="text (default), json (the plan as data) or svg (the layout and memory as a picture)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = lint_spec(args)
    except CommandError as exc:
        print(f"jobc plan: {exc}", file=sys.stderr)
        return Exit.ERROR
    sources = {src.file: src.lines for src in result.sources} if sys.stderr.isatty() else {}
    if result.findings:
        print_findings(result.findings, sources, "text", stream="stderr")
    failed = any(f.severity >= Severity.ERROR for f in result.findings)
    if result.context is None or result.is_profile:
        print(f"jobc plan: {result.file}: no plan: the spec could not be read", file=sys.stderr)
        return Exit.FINDINGS
    from jobc.compile.describe import for_plan
    from jobc.memory import plan

    data = plan.build(result.context, result.file, _sweep(result.context), for_plan(result.context))
    if args.format == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    elif args.format == "svg":
        from jobc.memory.picture import svg

        sys.stdout.write(svg(data))
    else:
        from jobc.core.colour import wanted

        sys.stdout.write(plan.render(data, wanted(sys.stdout)))
    return Exit.FINDINGS if failed else Exit.OK


def _sweep(ctx: Context) -> dict[str, Any] | None:
    """The job array the compiler makes of the spec's sweep, if it has one."""
    from jobc.compile.sweep import array_value, combinations

    sweep = ctx.spec.sweep
    if sweep is None or not sweep.values or not all(sweep.values.values()):
        return None
    return {"array": array_value(sweep), "tasks": combinations(sweep)}
