"""What scontrol prints, read into cluster facts, and the profile written from them. The scontrol
text is real (tests/support/slurm_facts.py says which cluster it describes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.pipeline import lint_file
from jobc.spec.profilegen import render
from jobc.spec.slurmfacts import gpus_in, parse_config, parse_nodes, parse_partitions, split_gres
from tests.support.slurm_facts import example_facts as facts
from tests.support.slurm_facts import replaced


def test_partitions_nodes_and_config_of_slurm_22_05() -> None:
    cluster = facts()
    assert cluster.name == "jobctest"
    assert cluster.version == "22.05.8"
    batch, short = cluster.partitions
    assert (batch.name, batch.default) == ("batch", True)
    assert (batch.max_time, batch.default_time) == ("02:00:00", "00:30:00")
    assert (batch.max_nodes, batch.total_nodes, batch.preempt_mode, batch.state) == (2, 3, "OFF", "UP")
    assert (short.name, short.default) == ("short", False)
    assert (short.max_time, short.default_time) == ("00:10:00", None)
    assert (short.max_nodes, short.total_nodes, short.preempt_mode) == (None, 1, "REQUEUE")
    assert batch.allow_accounts is None
    assert batch.allow_qos is None
    a0, _a1, h0 = cluster.nodes
    assert (a0.name, a0.cpus, a0.memory_mb, a0.gpus, a0.gpu_types) == ("jobc-a0", 8, 8192, 2, ("a100",))
    assert a0.features == ("a100", "ib")
    assert a0.partitions == ("batch",)
    assert (h0.cpus, h0.gpus, h0.gpu_types, h0.partitions) == (4, 4, ("h100",), ("batch", "short"))
    assert [n.name for n in cluster.nodes_of("short")] == ["jobc-h0"]
    assert cluster.default_partition is batch


@pytest.mark.parametrize(
    ("gres", "expected"),
    [
        ("gpu:a100:4(S:0-1)", (4, ("a100",))),
        ("gpu:4", (4, ())),
        ("gpu:tesla:2(S:0),mps:200", (2, ("tesla",))),
        ("gpu:a100:2(S:0,1),gpu:v100:2(S:1)", (4, ("a100", "v100"))),
        ("gpu:nvidia_a100-sxm4-80gb:8(S:0-1)", (8, ("nvidia_a100-sxm4-80gb",))),
        ("gpu:h100:no_consume:4", (4, ("h100",))),
        ("(null)", (0, ())),
        ("", (0, ())),
        ("shard:8", (0, ())),
    ],
)
def test_gpus_from_gres(gres: str, expected: tuple[int, tuple[str, ...]]) -> None:
    assert gpus_in(gres) == expected


def test_gres_items_keep_socket_lists_whole() -> None:
    assert split_gres("gpu:a:2(S:0,1),mps:100") == ["gpu:a:2(S:0,1)", "mps:100"]


def test_config_lines() -> None:
    conf = parse_config("Configuration data as of 2026-01-01T00:00:00\nClusterName = x\nMaxTime = 1 sec\n\n")
    assert conf == {"ClusterName": "x", "MaxTime": "1 sec"}


def test_profile_is_deterministic_and_lints_clean(tmp_path: Path) -> None:
    text = render(facts(), command="jobc profile", date="2026-01-01")
    assert text == render(facts(), command="jobc profile", date="2026-01-01")
    # the state of nodes and partitions at the time (IDLE, ALLOCATED, load) is not in it
    busy = facts(nodes=tuple(replaced(n, state="ALLOCATED") for n in facts().nodes))
    assert render(busy, command="jobc profile", date="2026-01-01") == text
    assert "written by `jobc profile` on 2026-01-01" in text
    assert "storage.shared" in text
    assert "a100, h100" in text
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    result = lint_file(path)
    assert result.is_profile
    assert result.findings == []
    for line in (
        "  default_partition: batch",
        '      max_time: "02:00:00"',
        '      default_time: "00:30:00"',
        "      max_nodes: 2",
        '      preempt_mode: "REQUEUE"',
        "      gpu_type: a100",
        "      features: [a100, ib]",
    ):
        assert line in text.splitlines(), line


# `scontrol show partition` without -o, as a newer Slurm prints it (NodeSets, MaxCPUsPerSocket);
# an excerpt of the fixture in snakemake/snakemake-executor-plugin-slurm,
# tests/test_scontrol_parsing.py
MULTI_LINE = """\
PartitionName=standard
   AllowGroups=ALL DenyAccounts=none AllowQos=ALL
   AllocNodes=ALL Default=YES QoS=standard
   DefaultTime=01:00:00 DisableRootJobs=NO ExclusiveUser=NO ExclusiveTopo=NO GraceTime=0 Hidden=NO
   MaxNodes=1 MaxTime=6-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED MaxCPUsPerSocket=UNLIMITED
   NodeSets=compute_small
   Nodes=compute[0001-0100]
   PriorityJobFactor=1 PriorityTier=2 RootOnly=NO ReqResv=NO OverSubscribe=NO
   OverTimeLimit=NONE PreemptMode=OFF
   State=UP TotalCPUs=71808 TotalNodes=561 SelectTypeParameters=NONE

PartitionName=parallel
   AllowGroups=ALL DenyAccounts=none AllowQos=ALL
   AllocNodes=ALL Default=NO QoS=N/A
   DefaultTime=01:00:00 DisableRootJobs=NO ExclusiveUser=NO ExclusiveTopo=NO GraceTime=0 Hidden=NO
   MaxNodes=UNLIMITED MaxTime=6-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED MaxCPUsPerSocket=UNLIMITED
   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=EXCLUSIVE
   OverTimeLimit=NONE PreemptMode=OFF
   State=UP TotalCPUs=71808 TotalNodes=561 SelectTypeParameters=NONE
"""


def test_partitions_in_scontrols_multi_line_form() -> None:
    standard, parallel = parse_partitions(MULTI_LINE)
    assert (standard.name, standard.default, standard.max_nodes, standard.max_time) == (
        "standard",
        True,
        1,
        "6-00:00:00",
    )
    assert (standard.default_time, standard.total_nodes, standard.preempt_mode) == ("01:00:00", 561, "OFF")
    assert (parallel.name, parallel.max_nodes, parallel.oversubscribe) == ("parallel", None, "EXCLUSIVE")


def test_a_drained_24_05_node_without_configured_memory() -> None:
    # scontrol show node of Slurm 24.05 (multi-line, a whitespace-only line before Reason=), as
    # posted in awslabs/awsome-distributed-ai#195: RealMemory=1 is Slurm's default for a node
    # whose memory is not configured (CfgTRES says mem=1M), so the memory is unknown, not 1 MB.
    text = (
        Path(__file__).parents[1] / "support" / "slurm_output" / "scontrol-24.05-node-drain.txt"
    ).read_text()
    (node,) = parse_nodes(text)
    assert (node.name, node.cpus, node.memory_mb) == ("yigou-dev-102-68", 8, None)
    assert (node.gpus, node.gpu_types, node.features) == (1, ("nvidia-rtx-3090",), ())
    assert (node.partitions, node.state) == (("compute100",), "IDLE+DRAIN")


def test_a_configured_memory_is_read_as_it_is() -> None:
    # near miss: RealMemory of a configured node, in the same layout
    (node,) = parse_nodes("NodeName=n1 CPUTot=64 RealMemory=515000 Gres=gpu:4\n")
    assert (node.cpus, node.memory_mb, node.gpus) == (64, 515000, 4)


def test_cpus_jobs_may_use_are_the_effective_ones() -> None:
    # scontrol (21.08+) prints CPUEfctv beside CPUTot; CoreSpecCount/CpuSpecList keep the rest
    # for the system, so a job gets CPUEfctv (Slurm's scontrol man page, NODES section)
    text = (
        "NodeName=g001 Arch=x86_64 CoresPerSocket=32\n"
        "   CPUAlloc=0 CPUEfctv=120 CPUTot=128 CPULoad=0.50\n"
        "   AvailableFeatures=ib,a100\n   ActiveFeatures=ib,a100\n"
        "   Gres=gpu:a100:8(S:0-1)\n   RealMemory=1000000 AllocMem=0 FreeMem=990000 Sockets=2\n"
        "   State=MIXED+PLANNED ThreadsPerCore=2 TmpDisk=0 Weight=1\n"
        "   CoreSpecCount=4 CPUSpecList=0-3,64-67 MemSpecLimit=20000\n"
        "   CfgTRES=cpu=128,mem=1000000M,billing=128,gres/gpu=8\n"
    )
    (node,) = parse_nodes(text)
    assert (node.cpus, node.gpus, node.gpu_types, node.features) == (120, 8, ("a100",), ("a100", "ib"))


def test_features_of_a_slurm_before_17_11_and_a_type_only_cfgtres_knows() -> None:
    # before 17.11 scontrol printed Features= (no AvailableFeatures); a node whose Gres is untyped
    # may still count its GPUs by type in CfgTRES (gres/gpu:h100=8, AccountingStorageTRES)
    old = parse_nodes("NodeName=c1 CPUTot=16 RealMemory=64000 Features=haswell,ib Gres=gpu:4 State=IDLE\n")
    assert (old[0].features, old[0].gpu_types) == (("haswell", "ib"), ())
    typed = parse_nodes(
        "NodeName=h1 CPUTot=96 Gres=gpu:8 CfgTRES=cpu=96,mem=2000G,gres/gpu=8,gres/gpu:h100=8\n"
    )
    assert (typed[0].gpus, typed[0].gpu_types) == (8, ("h100",))


def test_a_profile_says_an_unknown_memory_and_lints_clean(tmp_path: Path) -> None:
    text = (
        Path(__file__).parents[1] / "support" / "slurm_output" / "scontrol-24.05-node-drain.txt"
    ).read_text()
    nodes = tuple(parse_nodes(text))
    part = "PartitionName=compute100 Default=YES MaxTime=UNLIMITED State=UP TotalNodes=1\n"
    cluster = facts(nodes=nodes, partitions=tuple(parse_partitions(part)))
    profile = render(cluster, command="jobc profile", date="2026-01-01")
    assert "      # memory_mb unknown: Slurm was not told it (RealMemory)" in profile.splitlines()
    assert "memory_mb: 1" not in profile
    assert "nvidia-rtx-3090x1-8cpu:" in profile
    path = tmp_path / "cluster.yaml"
    path.write_text(profile)
    assert lint_file(path).findings == []


def test_partitions_of_a_slurm_before_16_05_say_shared() -> None:
    # before 16.05 scontrol printed Shared= where it now prints OverSubscribe= (same values)
    old = "PartitionName=gpu MaxNodes=UNLIMITED MaxTime=INFINITE Shared=EXCLUSIVE State=UP TotalNodes=4\n"
    (part,) = parse_partitions(old)
    assert (part.oversubscribe, part.max_time, part.max_nodes) == ("EXCLUSIVE", None, None)
    (new,) = parse_partitions("PartitionName=gpu OverSubscribe=NO State=UP\n")
    assert new.oversubscribe == "NO"


def test_a_profile_says_what_it_cannot_read_instead_of_copying_it(tmp_path: Path) -> None:
    nodes = (
        "NodeName=g0 CPUTot=8 RealMemory=8192 Gres=gpu:a100:x4 Partitions=gpu State=IDLE\n"
        "NodeName=g1 CPUTot=8 RealMemory=8192 Gres=gpu:a100:x4 Partitions=gpu State=IDLE\n"
    )
    part = "PartitionName=gpu Default=YES MaxTime=two-days DefaultTime=soon State=UP TotalNodes=2\n"
    cluster = facts(nodes=tuple(parse_nodes(nodes)), partitions=tuple(parse_partitions(part)))
    profile = render(cluster, command="jobc profile", date="2026-01-01")
    lines = profile.splitlines()
    assert "  # gpus unknown: jobc cannot read the GPU count in the nodes' Gres" in lines
    assert "      # gpus unknown: jobc cannot read the GPU count in the nodes' Gres" in lines
    assert '      # max_time unknown: jobc cannot read the MaxTime Slurm printed, "two-days"' in lines
    assert '      # default_time unknown: jobc cannot read the DefaultTime Slurm printed, "soon"' in lines
    assert "gpus: 1" not in profile
    assert "gpus_per_node: 1" not in profile
    assert "two-days" not in profile.replace('printed, "two-days"', "")
    assert "a100xunknown-8cpu-8g:" in profile
    path = tmp_path / "cluster.yaml"
    path.write_text(profile)
    assert lint_file(path).findings == []
