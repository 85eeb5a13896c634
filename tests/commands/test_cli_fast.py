"""`jobc lint FILE…` read without argparse means what argparse reads from the same words.

Every command line below goes through both: where the short reader answers, its values must be
argparse's, name for name; where it declines, argparse answers alone. Then whole runs of
`main`, with the short reader and with it switched off, must print the same and exit the same.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

import jobc.cli
from jobc.cli import UsageError, main, parser
from jobc.commands.argv import LintArgs, lint_args
from tests.support import ROOT

SPECS = ROOT / "specs"

# the values the lint command reads from its arguments
NAMES = (
    "command", "color", "paths", "format", "select", "ignore", "strict", "config", "overrides",
    "profile", "fix", "unsafe_fixes", "fix_only", "show_fixes", "diff", "live",
)  # fmt: skip

READ = [
    ["lint", "a.yaml"],
    ["lint", "a.yaml", "b.yaml", "c.sh"],
    ["lint", "--strict", "a.yaml"],
    ["lint", "a.yaml", "--strict"],
    ["lint", "--format", "json", "a.yaml"],
    ["lint", "--format=sarif", "a.yaml"],
    ["lint", "a.yaml", "--format", "github"],
    ["lint", "--format", "json", "--format", "text", "a.yaml"],
    ["lint", "--select", "JC101", "--select=JC2", "a.yaml"],
    ["lint", "--ignore", "JC101,JC004", "--ignore", "JC5", "a.yaml"],
    ["lint", "--select=", "a.yaml"],
    ["lint", "--config", "x.toml", "--config=y.toml", "a.yaml"],
    ["lint", "--set", "resources.nodes=8", "--set=launch.program=x.py", "a.yaml"],
    ["lint", "--set=a=-1", "a.yaml"],
    ["lint", "--profile", "p.yaml", "s.sh"],
    ["lint", "--fix", "--unsafe-fixes", "--show-fixes", "a.yaml"],
    ["lint", "--fix-only", "--diff", "--live", "a.yaml"],
    ["lint", "--color", "never", "a.yaml"],
    ["lint", "--color=always", "a.yaml", "--strict"],
    ["lint", "", "a.yaml"],
    ["lint", "dir/", "a b.yaml", "x=y.yaml"],
]

DECLINED = [
    [],
    ["lint"],
    ["lint", "--strict"],
    ["--color", "never", "lint", "a.yaml"],
    ["--debug", "lint", "a.yaml"],
    ["compile", "a.yaml"],
    ["lnt", "a.yaml"],
    ["lint", "--help"],
    ["lint", "-h", "a.yaml"],
    ["lint", "--form", "json", "a.yaml"],
    ["lint", "--format", "xml", "a.yaml"],
    ["lint", "--format=", "a.yaml"],
    ["lint", "--format", "a.yaml"],
    ["lint", "a.yaml", "--format"],
    ["lint", "--select", "-JC1", "a.yaml"],
    ["lint", "--color", "sometimes", "a.yaml"],
    ["lint", "a.yaml", "--strict", "b.yaml"],
    ["lint", "--", "a.yaml"],
    ["lint", "-", "a.yaml"],
    ["lint", "-1", "a.yaml"],
    ["lint", "--strict=yes", "a.yaml"],
    ["lint", "--bogus", "a.yaml"],
    ["lint", "a.yaml", "--debug"],
]


def full(argv: list[str]) -> argparse.Namespace | str:
    """argparse's reading of `argv`, or its usage error."""
    try:
        return parser(argv).parse_args(argv)
    except UsageError as exc:
        return f"usage: {exc}"


def values(args: argparse.Namespace | LintArgs) -> dict[str, object]:
    return {name: getattr(args, name, None) for name in NAMES}


@pytest.mark.parametrize("argv", READ, ids=" ".join)
def test_the_short_reader_reads_what_argparse_reads(argv: list[str]) -> None:
    fast = lint_args(argv)
    assert fast is not None
    slow = full(argv)
    assert isinstance(slow, argparse.Namespace), slow
    assert values(fast) == values(slow)


@pytest.mark.parametrize("argv", DECLINED, ids=lambda a: " ".join(a) or "(none)")
def test_the_short_reader_leaves_the_rest_to_argparse(argv: list[str]) -> None:
    assert lint_args(argv) is None


def _run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], short: bool
) -> tuple[int, str, str]:
    with monkeypatch.context() as patch:
        if not short:
            patch.setattr(jobc.cli, "lint_args", lambda _argv: None)
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The examples and their profiles in a directory of their own, marked as a repository root."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(SPECS, tmp_path / "specs")
    corpus = ROOT / "tests" / "script" / "corpus"
    shutil.copy(corpus / "signal_to_steps.sh", tmp_path / "job.sh")  # an error and a warning, both fixable
    shutil.copy(corpus / "megatron_gpt.sh", tmp_path / "clean.sh")
    (tmp_path / "broken.yaml").write_text("version: 1\nname: [\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


RUNS = [
    ["lint", "specs/ddp-two-node.yaml"],
    ["lint", "specs/ddp-two-node.yaml", "specs/kempnerforge-single-node.yaml"],
    ["lint", "--strict", "specs/kempnerforge-single-node.yaml"],
    ["lint", "--format", "json", "specs/megatron-lm-llama3-8b.yaml", "job.sh"],
    ["lint", "--format=sarif", "job.sh"],
    ["lint", "clean.sh", "job.sh"],
    ["lint", "--format", "github", "--select", "JC8", "job.sh"],
    ["lint", "--ignore", "JC602", "specs"],
    ["lint", "--select", "JC999", "specs/ddp-two-node.yaml"],
    ["lint", "--set", "resources.nodes=3", "specs/ddp-two-node.yaml"],
    ["lint", "--set", "nodes", "specs/ddp-two-node.yaml"],
    ["lint", "--config", "missing.toml", "specs/ddp-two-node.yaml"],
    ["lint", "--profile", "missing.yaml", "job.sh"],
    ["lint", "--profile", "specs/clusters/h100-ib.yaml", "job.sh"],
    ["lint", "--diff", "job.sh"],
    ["lint", "--show-fixes", "job.sh"],
    ["lint", "--unsafe-fixes", "job.sh"],
    ["lint", "--fix", "--set", "a=1", "job.sh"],
    ["lint", "broken.yaml"],
    ["lint", "missing.yaml"],
    ["lint", ""],
    ["lint", "--color", "always", "broken.yaml"],
    ["lint", "--format", "xml", "job.sh"],
    ["lint", "job.sh", "--strict", "broken.yaml"],
    ["lint"],
]


@pytest.mark.parametrize("argv", RUNS, ids=" ".join)
def test_a_run_is_the_same_either_way(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    assert _run(capsys, monkeypatch, argv, short=True) == _run(capsys, monkeypatch, argv, short=False)


def test_a_fix_is_the_same_either_way(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = (project / "job.sh").read_text(encoding="utf-8")
    short = _run(capsys, monkeypatch, ["lint", "--fix", "--show-fixes", "job.sh"], short=True)
    fixed = (project / "job.sh").read_text(encoding="utf-8")
    (project / "job.sh").write_text(before, encoding="utf-8")
    long = _run(capsys, monkeypatch, ["lint", "--fix", "--show-fixes", "job.sh"], short=False)
    assert short == long
    assert fixed != before
    assert (project / "job.sh").read_text(encoding="utf-8") == fixed
