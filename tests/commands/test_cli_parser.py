"""A command's run builds only that command's parser; help and errors still see every command."""

from __future__ import annotations

import argparse

import pytest

from jobc.cli import main, parser

ALL = {"init", "lint", "import", "compile", "plan", "rule", "rules", "schema"}
ALL |= {"submit", "status", "logs", "cancel", "triage", "heal", "profile"}


def commands(top: argparse.ArgumentParser) -> set[str]:
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["lint", "x.yaml"], {"lint"}),
        (["compile", "x.yaml"], {"compile"}),
        (["import", "job.sh"], {"import"}),
        (["rule", "JC101"], {"rule"}),
        ([], ALL),
        (["--help"], ALL),
        (["-h", "lint"], ALL),
        (["lnit", "x.yaml"], ALL),
    ],
)
def test_only_the_named_command_is_built(argv: list[str], expected: set[str]) -> None:
    assert commands(parser(argv)) == expected


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ALL:
        assert f"    {name} " in out


def test_a_misspelt_command_is_named_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lnit", "x.yaml"]) == 2
    err = capsys.readouterr().err
    assert "'lnit' is not a command; did you mean 'lint'?" in err


def test_a_command_without_arguments_shows_its_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint"]) == 2
    assert "jobc lint: the following arguments are required: PATH" in capsys.readouterr().err


def test_the_garbage_collector_is_restored_after_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    assert gc.isenabled()
    main(["lint", "no-such-file.yaml"])
    assert gc.isenabled()
    gc.disable()
    try:
        main(["--version"])
        assert not gc.isenabled()
    finally:
        gc.enable()
    capsys.readouterr()


def test_heal_refuses_outside_a_job(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    assert main(["heal", "start", "--log", "x.out", "--max-restarts", "3"]) == 2
    err = capsys.readouterr().err
    assert err == "jobc heal: not inside a Slurm job; the compiled script runs this\n"
