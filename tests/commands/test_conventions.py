"""The command line as a new user meets it: a mistyped verb gets a suggestion, a missing file is
worded alike by every command, a linted directory skips YAML that is not a job spec (and says
so), and the summary of what --fix would repair reads as a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.cli import main
from tests.support import ROOT


@pytest.mark.parametrize(("typed", "meant"), [("lnt", "lint"), ("stauts", "status"), ("compil", "compile")])
def test_a_mistyped_verb_gets_a_suggestion(
    typed: str, meant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([typed, "x"]) == 2
    assert f"jobc: {typed!r} is not a command; did you mean {meant!r}?" in capsys.readouterr().err


def test_a_word_far_from_every_verb_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--color", "never", "frobnicate"]) == 2
    err = capsys.readouterr().err
    assert "'frobnicate' is not a command (commands: init, lint," in err


@pytest.mark.parametrize("command", ["lint", "compile", "plan", "import"])
def test_a_missing_file_is_worded_alike(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.yaml"
    assert main([command, str(missing)]) == 2
    assert f"{missing}: no such file or directory" in capsys.readouterr().err


def test_a_directory_lint_skips_yaml_that_is_not_a_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text("lr: 0.1\nname: run-7\nbatch: 32\n")
    (tmp_path / ".github").mkdir()
    (tmp_path / "job.yaml").write_text((ROOT / "specs" / "kempnerforge-single-node.yaml").read_text())
    (tmp_path / "clusters").mkdir()
    for profile in (ROOT / "specs" / "clusters").glob("*.yaml"):
        (tmp_path / "clusters" / profile.name).write_text(profile.read_text())
    assert main(["lint", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 YAML file that is not a job spec" in err
    assert "configs/train.yaml" in err
    # named on the command line, it is linted (and is no spec)
    assert main(["lint", str(tmp_path / "configs" / "train.yaml")]) == 1


def test_a_directory_of_configs_only_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "train.yaml").write_text("lr: 0.1\n")
    assert main(["lint", str(tmp_path)]) == 2
    assert (
        "no job specs and no sbatch scripts in it (1 YAML files that are not job specs)"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\nname: x\n",
        "profile: site\ncluster: {gpus_per_node: 8}\n",
        "extends: site.yaml\nname: x\n",
        "name: x\nresources: {nodes: 2}\n",
        '{"version": 1, "name": "x"}\n',
        "# yaml-language-server: $schema=x\n---\nversion: 1\n",
    ],
)
def test_what_counts_as_a_spec(text: str, tmp_path: Path) -> None:
    from jobc.commands.common import looks_like_spec

    path = tmp_path / "s.yaml"
    path.write_text(text)
    assert looks_like_spec(path)


@pytest.mark.parametrize("text", ["name: run\nlr: 0.1\n", "model:\n  version: 2\n", "defaults:\n  - base\n"])
def test_what_does_not(text: str, tmp_path: Path) -> None:
    from jobc.commands.common import looks_like_spec

    path = tmp_path / "c.yaml"
    path.write_text(text)
    assert not looks_like_spec(path)
