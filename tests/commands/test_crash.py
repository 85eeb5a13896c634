"""An internal error: one line on stderr naming the saved report, or the traceback with --debug,
and never a raw traceback, not even when reporting it fails too."""

from __future__ import annotations

import argparse
import re
import stat
import tempfile
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.commands import Exit, crash
from jobc.commands import schema as schema_command


def _fail_with(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """`jobc schema` raises `error`: a stand-in for any bug in a command."""

    def run(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setattr(schema_command, "run", run)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "jobc"


def test_one_line_names_the_report_which_holds_the_traceback(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, RuntimeError("boom"))
    assert main(["schema"]) == Exit.ERROR
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    m = re.fullmatch(r"jobc: internal error: RuntimeError: boom \(please report this, with (\S+)\)\n", err)
    assert m, err
    report = Path(m[1])
    assert report.parent == cache
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    text = report.read_text("utf-8")
    assert text.startswith("jobc ")
    assert "command: jobc schema\n" in text
    assert "Traceback (most recent call last):" in text
    assert "RuntimeError: boom" in text
    assert "in run" in text  # the frame that raised


def test_debug_prints_the_traceback_and_saves_nothing(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, RuntimeError("boom"))
    assert main(["--debug", "schema"]) == Exit.ERROR
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert err.endswith(
        "jobc: internal error: RuntimeError: boom (please report this, with the traceback above)\n"
    )
    assert not cache.exists()


def test_debug_is_an_option_of_jobc_not_of_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--debug"]) == Exit.ERROR
    assert "unrecognized arguments: --debug" in capsys.readouterr().err


def test_the_message_stays_on_one_printable_line(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, ValueError("bad \x1b[31mred\x1b[0m value\nsecond line\n" + "x" * 1000))
    assert main(["schema"]) == Exit.ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "\x1b" not in err
    assert "ValueError: bad \\x1b[31mred\\x1b[0m value …" in err


def test_no_writable_directory_still_one_line_that_points_to_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file: no directory can go under it
    monkeypatch.setattr(tempfile, "tempdir", str(blocked / "tmp"))
    _fail_with(monkeypatch, RuntimeError("boom"))
    assert main(["schema"]) == Exit.ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("jobc: internal error: RuntimeError: boom (please report this; the traceback could")
    assert err.endswith("jobc --debug prints it)\n")


@pytest.mark.parametrize("where", ["write_report", "summary"])
def test_memory_error_while_reporting_a_memory_error_ends_in_the_fixed_line(
    where: str, cache: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    _fail_with(monkeypatch, MemoryError())

    def out_of_memory(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr(crash, where, out_of_memory)
    assert main(["schema"]) == Exit.ERROR
    out, err = capfd.readouterr()
    assert out == ""
    assert err == crash.FALLBACK.decode()
    assert not cache.exists() or not any(cache.iterdir())


def test_an_error_whose_message_cannot_be_built_ends_in_the_fixed_line(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise MemoryError

    _fail_with(monkeypatch, Unprintable())
    assert main(["schema"]) == Exit.ERROR
    assert capfd.readouterr().err == crash.FALLBACK.decode()


def test_the_reserve_is_held_while_a_command_runs_and_released_to_report(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    held: list[int] = []

    def run(args: argparse.Namespace) -> int:
        held.append(sum(len(block) for block in crash._reserve))
        raise RuntimeError("boom")

    monkeypatch.setattr(schema_command, "run", run)
    assert main(["schema"]) == Exit.ERROR
    assert held == [crash.RESERVE_BYTES]
    assert crash._reserve == []
    capsys.readouterr()


def test_without_a_home_the_report_goes_to_the_temporary_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    _fail_with(monkeypatch, RuntimeError("boom"))
    assert main(["schema"]) == Exit.ERROR
    err = capsys.readouterr().err
    assert f"with {tmp_path}/jobc-crash-" in err, err
