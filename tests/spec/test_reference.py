"""The spec reference: every field of the schema in docs/spec.md with its type, default, what it
compiles to and the rules that read it."""

from __future__ import annotations

import ast
import textwrap

from jobc.cli import main
from jobc.lint import reference as lint_reference
from jobc.spec import reference
from tests.support import ROOT


def test_every_field_says_what_it_compiles_to() -> None:
    # a new field of the models needs its line in COMPILES_TO; an entry for a field that is gone fails too
    assert reference.missing_entries() == []
    assert all(f.compiles_to for f in reference.fields())


def test_the_reference_has_a_row_for_every_field() -> None:
    text = (ROOT / "docs" / "spec.md").read_text("utf-8")
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines() if line.startswith("| `")}
    assert rows == {f.path for f in reference.fields()}


def test_types_and_defaults_come_from_the_schema() -> None:
    by_path = {f.path: f for f in reference.fields()}
    assert by_path["launch.mode"].type == '"srun" \\| "torchrun"'
    assert by_path["launch.mode"].default == '"srun"'
    assert by_path["name"].default == "required"
    assert by_path["launch.setup"].default == "[]"
    assert by_path["env"].default == "{}"
    assert by_path["fabric.nccl_timeout_s"].type == "integer (≥ 1)"
    assert by_path["cluster.partitions.*.max_time"].type == "string or null"


def test_the_rules_that_read_a_field_come_from_their_code() -> None:
    found = lint_reference.rules_by_field()
    # JC601 reads resilience.requeue and .signal through `res = ctx.spec.resilience`
    assert "JC601" in found["resilience.requeue"]
    assert "JC601" in found["resilience.signal"]
    # JC108 reads the partition's max_time through a mapping lookup
    assert "JC108" in found["cluster.partitions.*.max_time"]
    # a rule that asks Context for the world reads the nodes
    assert "JC201" in found["resources.nodes"]
    assert "JC601" not in found.get("launch.program", ())


def test_the_reader_follows_aliases_subscripts_and_data_paths() -> None:
    source = textwrap.dedent(
        """
        def check(ctx):
            launch = ctx.spec.launch
            if launch.program and ctx.spec.cluster.partitions[name].max_nodes:
                for key, value in ctx.spec.fabric.env.items():
                    yield Hit(("storage", "logs"), "x")
            ctx.world
        """
    )
    reads = lint_reference._Reads()
    reads.visit(ast.parse(source))
    leaves = [f.path for f in reference.fields()]
    got = lint_reference._leaves_read(reads, leaves)
    assert {"launch.program", "cluster.partitions.*.max_nodes", "fabric.env", "storage.logs"} <= got
    assert "resources.nodes" in got  # ctx.world
    assert "launch.module" not in got  # the alias alone reads nothing


def test_jobc_schema_prints_the_reference(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["schema", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out == (ROOT / "docs" / "spec.md").read_text("utf-8")
    assert main(["schema"]) == 0
    assert capsys.readouterr().out.lstrip().startswith("{")
