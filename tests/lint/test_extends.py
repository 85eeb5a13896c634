"""Cluster profiles: `extends:` chains, deep merge, and every way a profile can be unusable."""

from __future__ import annotations

from pathlib import Path

from tests.support.lint import codes, lint_text, only, where

SPEC = """\
version: 1
name: t
extends: {target}
resources:
  nodes: 1
launch:
  program: train.py
"""

PROFILE = """\
profile: site
cluster:
  gpus_per_node: 8
  cpus_per_node: 96
  partitions:
    batch: {max_time: "48:00:00"}
    debug: {max_time: "01:00:00"}
slurm:
  account: my-account
  partition: batch
  time: "04:00:00"
storage:
  shared: [/lustre, /home]
env:
  A: from-profile
  B: from-profile
"""


def spec(target: str = "clusters/site.yaml", extra: str = "") -> str:
    return SPEC.format(target=target) + extra


def test_profile_values_reach_the_spec(tmp_path: Path) -> None:
    result = lint_text(spec(), tmp_path, files={"clusters/site.yaml": PROFILE})
    assert codes(result) == []
    assert result.spec is not None
    assert result.spec.slurm.account == "my-account"
    assert result.spec.cluster.partitions["debug"].max_time == "01:00:00"
    assert result.context is not None
    assert result.context.gpus_per_node == 8


def test_deep_merge_the_spec_wins_key_by_key(tmp_path: Path) -> None:
    extra = """\
slurm:
  time: "12:00:00"
cluster:
  partitions:
    batch: {max_time: "72:00:00"}
env:
  B: from-spec
"""
    result = lint_text(spec(extra=extra), tmp_path, files={"clusters/site.yaml": PROFILE})
    assert result.spec is not None
    slurm = result.spec.slurm
    # the spec's time replaces the profile's; the profile's account and partition stay
    assert (slurm.time, slurm.account, slurm.partition) == ("12:00:00", "my-account", "batch")
    # nested mappings merge too: batch is overridden, debug is kept
    partitions = result.spec.cluster.partitions
    assert (partitions["batch"].max_time, partitions["debug"].max_time) == ("72:00:00", "01:00:00")
    assert result.spec.env == {"A": "from-profile", "B": "from-spec"}


def test_lists_are_replaced_whole_not_appended(tmp_path: Path) -> None:
    extra = "storage:\n  shared: [/scratch]\n"
    result = lint_text(spec(extra=extra), tmp_path, files={"clusters/site.yaml": PROFILE})
    assert result.spec is not None
    assert result.spec.storage.shared == ["/scratch"]


def test_a_chain_of_profiles_nearest_wins(tmp_path: Path) -> None:
    files = {
        "clusters/base.yaml": PROFILE,
        # relative to the profile that says it, not to the spec
        "clusters/team/gpu4.yaml": (
            "profile: gpu4\nextends: ../base.yaml\ncluster:\n  gpus_per_node: 4\n  cpus_per_node: 48\n"
        ),
        "clusters/team/mine.yaml": (
            'profile: mine\nextends: gpu4.yaml\nslurm:\n  partition: debug\n  time: "00:30:00"\n'
        ),
    }
    result = lint_text(spec("clusters/team/mine.yaml"), tmp_path, files=files)
    assert codes(result) == []
    assert result.spec is not None
    assert result.spec.cluster.gpus_per_node == 4  # from gpu4, over base's 8
    assert result.spec.cluster.cpus_per_node == 48
    assert result.spec.slurm.partition == "debug"  # from mine
    assert result.spec.slurm.account == "my-account"  # from base, three levels down
    assert [src.file for src in result.sources] == [
        "spec.yaml",
        "clusters/team/mine.yaml",
        "clusters/team/gpu4.yaml",
        "clusters/base.yaml",
    ]


def test_a_cycle_is_jc006_at_the_extends_that_closes_it(tmp_path: Path) -> None:
    files = {
        "a.yaml": "profile: a\nextends: b.yaml\n",
        "b.yaml": "profile: b\nextends: a.yaml\n",
    }
    result = lint_text(spec("a.yaml"), tmp_path, files=files)
    finding = only(result, "JC006")
    assert (finding.file, finding.span.line, finding.span.col) == ("b.yaml", 2, 10)
    assert "cycle" in finding.message


def test_a_spec_that_extends_itself_is_a_cycle(tmp_path: Path) -> None:
    result = lint_text(spec("spec.yaml"), tmp_path)
    finding = only(result, "JC006")
    assert (finding.file, finding.span.line, finding.span.col) == ("spec.yaml", 3, 10)
    assert "cycle" in finding.message


def test_a_missing_file_is_jc006_at_the_path(tmp_path: Path) -> None:
    result = lint_text(spec("clusters/h100.yaml"), tmp_path)
    finding = only(result, "JC006")
    assert (finding.file, finding.span.line, finding.span.col, finding.span.end_col) == (
        "spec.yaml",
        3,
        10,
        28,
    )
    assert "no such file" in finding.message
    assert codes(result) == ["JC006"]  # nothing else is reported about a spec whose profile is missing


def test_a_missing_file_further_down_the_chain_is_reported_in_the_profile(tmp_path: Path) -> None:
    result = lint_text(spec("p.yaml"), tmp_path, files={"p.yaml": "profile: p\nextends: gone.yaml\n"})
    finding = only(result, "JC006")
    assert (finding.file, finding.span.line) == ("p.yaml", 2)


def test_a_directory_is_not_a_profile(tmp_path: Path) -> None:
    (tmp_path / "clusters").mkdir()
    result = lint_text(spec("clusters"), tmp_path)
    assert "no such file" in only(result, "JC006").message


def test_a_job_spec_is_not_a_profile(tmp_path: Path) -> None:
    other = "version: 1\nname: other\nresources: {nodes: 1, gpus_per_node: 8}\nlaunch: {program: x.py}\n"
    result = lint_text(spec("other.yaml"), tmp_path, files={"other.yaml": other})
    finding = only(result, "JC006")
    assert (finding.file, finding.span.line) == ("spec.yaml", 3)
    assert "not a cluster profile" in finding.message


def test_a_yaml_list_is_not_a_profile(tmp_path: Path) -> None:
    result = lint_text(spec("list.yaml"), tmp_path, files={"list.yaml": "- a\n- b\n"})
    assert "not a cluster profile" in only(result, "JC006").message


def test_a_profile_with_a_schema_error_is_reported_in_the_profile(tmp_path: Path) -> None:
    profile = "profile: site\ncluster:\n  gpus_per_node: eight\n  cpus_per_nod: 96\n"
    result = lint_text(spec(), tmp_path, files={"clusters/site.yaml": profile})
    assert codes(result) == ["JC003", "JC003"]
    first, second = result.findings
    assert (first.file, first.span.line, first.span.col) == ("clusters/site.yaml", 3, 18)
    assert "a whole number" in first.message
    assert (second.file, second.span.line, second.span.col) == ("clusters/site.yaml", 4, 3)
    assert "did you mean 'cpus_per_node'?" in second.message


def test_a_profile_that_is_not_yaml_is_reported_in_the_profile(tmp_path: Path) -> None:
    result = lint_text(
        spec(), tmp_path, files={"clusters/site.yaml": "profile: site\ncluster: {gpus_per_node: 8\n"}
    )
    finding = only(result, "JC001")
    assert finding.file == "clusters/site.yaml"


def test_a_duplicate_key_in_a_profile_is_reported_in_the_profile(tmp_path: Path) -> None:
    profile = "profile: site\nslurm:\n  account: a\n  account: b\n"
    finding = only(lint_text(spec(), tmp_path, files={"clusters/site.yaml": profile}), "JC002")
    assert (finding.file, finding.span.line, finding.span.col) == ("clusters/site.yaml", 4, 3)


def test_extends_must_be_a_path(tmp_path: Path) -> None:
    result = lint_text(spec("[a.yaml, b.yaml]"), tmp_path)
    finding = only(result, "JC003")
    assert finding.span.line == 3


def test_a_finding_about_a_profile_value_points_into_the_profile(tmp_path: Path) -> None:
    profile = PROFILE.replace('  time: "04:00:00"\n', '  time: "96:00:00"\n')
    result = lint_text(spec(), tmp_path, files={"clusters/site.yaml": profile})
    finding = only(result, "JC108")
    assert (finding.file, finding.span.line, finding.span.col) == ("clusters/site.yaml", 11, 9)


def test_an_absolute_extends_path(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    target = tmp_path / "elsewhere" / "site.yaml"
    target.write_text(PROFILE)
    result = lint_text(spec(str(target)), tmp_path)
    assert codes(result) == []
    assert result.sources[1].file == str(target)


def test_profile_paths_are_shown_normalised(tmp_path: Path) -> None:
    files = {"clusters/site.yaml": PROFILE.replace("  cpus_per_node: 96\n", "  cpus_per_node: 0\n")}
    result = lint_text(spec("clusters/../clusters/site.yaml"), tmp_path, files=files)
    assert only(result, "JC003").file == "clusters/site.yaml"


def test_a_profile_alone_lints_clean_and_needs_nothing(tmp_path: Path) -> None:
    result = lint_text("profile: empty\n", tmp_path, name="clusters/empty.yaml")
    assert result.is_profile
    assert result.findings == []
    result = lint_text(PROFILE, tmp_path, name="clusters/site.yaml")
    assert result.findings == []


def test_a_profile_may_extend_a_profile_when_linted_alone(tmp_path: Path) -> None:
    files = {"clusters/base.yaml": PROFILE}
    result = lint_text("profile: pa\nextends: base.yaml\n", tmp_path, name="clusters/pa.yaml", files=files)
    assert result.findings == []
    bad = lint_text("profile: pb\nextends: nope.yaml\n", tmp_path, name="clusters/pb.yaml", files=files)
    assert codes(bad) == ["JC006"]


def test_a_file_with_both_name_and_profile_is_refused(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: job
        profile: h100
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC003") == [(3, 1)]
    assert "not both" in result.findings[0].message
