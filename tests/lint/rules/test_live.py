"""JC120-JC123, the rules of `jobc lint --live`: each fires at its line and column against a
real cluster's self-description, a near miss does not, and without a live cluster none says
anything."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.live import using
from jobc.lint.pipeline import Result
from jobc.lint.scripts import lint_path
from jobc.spec.slurmfacts import ClusterFacts
from tests.script.test_script_language import SPEC_WORDS
from tests.support.lint import codes, lint_text, only, where
from tests.support.slurm_facts import example_facts as facts
from tests.support.slurm_facts import replaced

SPEC = """\
version: 1
name: t
slurm:
  partition: {partition}
  time: "{time}"
  account: {account}
  qos: {qos}
  constraint: {constraint}
resources:
  nodes: {nodes}
  gpus_per_node: {gpus}
  gpu: {gpu}
launch: {{mode: srun, program: train.py}}
storage: {{shared: [/shared]}}
"""
GOOD = {
    "partition": "batch",
    "time": "01:00:00",
    "account": "jobc-test",
    "qos": "normal",
    "constraint": "a100",
    "nodes": 2,
    "gpus": 2,
    "gpu": "a100-80gb",
}


def live_lint(tmp_path: Path, cluster: ClusterFacts | None = None, **changes: object) -> Result:
    with using(cluster or facts()):
        return lint_text(SPEC.format(**{**GOOD, **changes}), tmp_path)


def test_a_spec_that_fits_the_live_cluster_is_clean(tmp_path: Path) -> None:
    result = live_lint(tmp_path)
    assert [c for c in codes(result) if c.startswith("JC12")] == []


def test_without_live_facts_the_rules_say_nothing(tmp_path: Path) -> None:
    result = lint_text(SPEC.format(**{**GOOD, "partition": "nope", "account": "nobody"}), tmp_path)
    assert not [c for c in codes(result) if c.startswith("JC12")]


def test_jc120_unknown_partition_with_suggestion(tmp_path: Path) -> None:
    result = live_lint(tmp_path, partition="bacth")
    assert where(result, "JC120") == [(4, 14)]
    message = only(result, "JC120").message
    assert "partitions are batch, short" in message
    assert "did you mean 'batch'" in message


def test_jc120_partition_down(tmp_path: Path) -> None:
    parts = tuple(replaced(p, state="DOWN") if p.name == "short" else p for p in facts().partitions)
    cluster = facts(partitions=parts)
    result = live_lint(tmp_path, cluster, partition="short", gpus=4, nodes=1, constraint="h100")
    assert where(result, "JC120") == [(4, 14)]
    assert "DOWN" in only(result, "JC120").message


def test_the_live_partitions_time_and_a_nodes_gpus_are_jc108s_and_jc103s(tmp_path: Path) -> None:
    # one rule a fact, whichever source says it: the limits a profile would give, from the cluster
    result = live_lint(tmp_path, partition="short", time="01:00:00", nodes=1, gpus=4, constraint="h100")
    assert (where(result, "JC108"), where(result, "JC121")) == ([(5, 9)], [])
    assert "over the limit of partition 'short', '00:10:00'" in only(result, "JC108").message
    result = live_lint(tmp_path, gpus=8, constraint="a100")
    assert (where(result, "JC103"), where(result, "JC121")) == ([(11, 18)], [])
    assert "a node of partition 'batch' has 4 GPUs" in only(result, "JC103").message


def test_jc121_nodes(tmp_path: Path) -> None:
    result = live_lint(tmp_path, nodes=3)  # batch: MaxNodes=2, and only 2 a100 nodes
    assert where(result, "JC121") == [(10, 10), (10, 10)]
    # 4 GPUs per node: only the one h100 node of batch has them
    result = live_lint(tmp_path, gpus=4, nodes=2, constraint="h100", gpu="h100-80gb")
    assert "has 1 such node(s) of 3" in only(result, "JC121").message


def test_jc122_feature_and_gpu_type(tmp_path: Path) -> None:
    result = live_lint(tmp_path, partition="short", nodes=1, gpus=4, constraint="a100", gpu="h100-80gb")
    assert where(result, "JC122") == [(8, 15)]
    assert "nodes of batch have it" in only(result, "JC122").message
    result = live_lint(tmp_path, partition="short", nodes=1, gpus=4, constraint="h100", gpu="a100-80gb")
    assert where(result, "JC122") == [(12, 8)]
    assert "type h100" in only(result, "JC122").message


def test_jc123_account_and_qos(tmp_path: Path) -> None:
    result = live_lint(tmp_path, account="jobc-tset", qos="urgent")
    assert where(result, "JC123") == [(6, 12), (7, 8)]
    assert "did you mean 'jobc-test'" in codes_messages(result)
    # no accounting: nothing to say about names
    result = live_lint(tmp_path, facts(accounts=None, qos=None), account="whoever", qos="whatever")
    assert not where(result, "JC123")


def codes_messages(result: Result) -> str:
    return "\n".join(f.message for f in result.findings)


def test_a_script_meets_the_live_rules_at_its_directives(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n"
        "#SBATCH --partition=short\n"
        "#SBATCH --nodes=2\n"
        "#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=00:30:00\n"
        "#SBATCH --account=nobody\n"
        "srun python train.py\n"
    )
    with using(facts()):
        result = lint_path(script)
    found = {(f.code, f.span.line) for f in result.findings if f.code.startswith(("JC12", "JC108"))}
    assert found == {("JC121", 3), ("JC108", 5), ("JC123", 6)}, result.findings
    # in the script's words, never the spec's
    for f in result.findings:
        if f.code.startswith(("JC12", "JC108")):
            assert not SPEC_WORDS.search(f.message), f.message
    assert "#SBATCH --time=00:30:00" in "".join(f.message for f in result.findings)


def test_several_partitions_each_must_exist_and_no_limits_are_guessed(tmp_path: Path) -> None:
    result = live_lint(tmp_path, partition='"batch,short"', nodes=3, gpus=4)
    assert not [c for c in codes(result) if c.startswith("JC12")]
    result = live_lint(tmp_path, partition='"batch,shrot"')
    assert where(result, "JC120") == [(4, 14)]
    assert "partition 'shrot' does not exist" in only(result, "JC120").message


def test_jc121_claims_nothing_about_gpus_slurm_printed_unreadably(tmp_path: Path) -> None:
    # 8 GPUs a node is more than batch's nodes have (JC121 above); with one node's Gres count
    # unreadable, that node may have any number, so "no node has more than 4" is not said.
    cluster = facts()
    nodes = tuple(replaced(n, gpus=None) if n.name == "jobc-a1" else n for n in cluster.nodes)
    result = live_lint(tmp_path, replaced(cluster, nodes=nodes), nodes=1, gpus=8, constraint="a100")
    assert "JC121" not in codes(result)
    # the nodes whose count is known still count: two such nodes cannot be had, only jobc-a1 might
    result = live_lint(tmp_path, replaced(cluster, nodes=nodes), nodes=2, gpus=8, constraint="a100")
    assert "has 1 such node(s) of 3" in only(result, "JC121").message
