"""bashcheck runs bash as `subprocess.run(input=..., capture_output=True, timeout=...)` did,
without importing subprocess: real processes, both pipes full at once, a timeout, a signal."""

from __future__ import annotations

import os
import shutil

import pytest

from jobc.script import bashcheck
from jobc.script.bashcheck import accepts, ahead, ahead_of_script, drop_ahead, parse, refusal, run

SH = shutil.which("sh") or "/bin/sh"


def test_bash_verdicts() -> None:
    assert accepts("echo hi\n") is True
    assert accepts("if; then\n") is False
    assert refusal("echo hi\nfi\n") == (2, "syntax error near unexpected token `fi'")
    done = parse("echo hi\n")
    assert done is not None
    assert done.returncode == 0
    assert done.stderr == b""


def test_a_large_text_that_bash_refuses_at_once() -> None:
    # bash stops reading at the error: the rest of the text meets a closed pipe, not a hang
    assert refusal("fi\n" + "echo x\n" * 400_000) == (1, "syntax error near unexpected token `fi'")


def test_stdin_and_stderr_both_larger_than_a_pipe() -> None:
    many = "for i in $(seq 20000); do echo complaint $i >&2; done"
    expected = b"".join(b"complaint %d\n" % i for i in range(1, 20001))
    for script in (f"cat; {many}", f"{many}; cat"):
        done = run([SH, "-c", script], b"y" * 300_000, {}, 600)
        assert done is not None
        assert (done.returncode, done.stderr) == (0, expected)


def test_exit_codes_and_signals() -> None:
    done = run([SH, "-c", "exit 3"], b"", {}, 600)
    assert done is not None
    assert done.returncode == 3
    done = run([SH, "-c", "kill -9 $$"], b"", {}, 600)
    assert done is not None
    assert done.returncode == -9


def test_the_environment_is_the_one_given() -> None:
    done = run([SH, "-c", 'echo "$LC_ALL:${HOME-unset}" >&2'], b"", {"LC_ALL": "C"}, 600)
    assert done is not None
    assert done.stderr == b"C:unset\n"


def test_what_cannot_start_or_does_not_end_is_none() -> None:
    assert run(["/nonexistent/bash", "-n"], b"x", {}, 600) is None
    assert run([SH, "-c", "sleep 600"], b"", {}, 0.2) is None


PIDS: list[int] = []


def _spawns(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The processes bashcheck starts from now on (each still started for real)."""
    started: list[list[str]] = []
    real = os.posix_spawn

    def counting(path: str, argv: list[str], *args: object, **kwargs: object) -> int:
        started.append(list(argv))
        pid = real(path, argv, *args, **kwargs)  # type: ignore[arg-type]
        PIDS.append(pid)
        return pid

    monkeypatch.setattr(os, "posix_spawn", counting)
    return started


@pytest.mark.parametrize("text", ["echo hi\n", "echo hi\nfi\n", "fi\n" + "echo x\n" * 100_000, "é\udcff\n"])
def test_a_question_asked_ahead_gets_the_answer_it_would_get_now(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = refusal(text)
    started = _spawns(monkeypatch)
    ahead(text)
    assert len(started) == 1
    assert refusal(text) == now
    assert len(started) == 1  # the answer started ahead, not a second bash
    assert refusal(text) == now
    assert len(started) == 2  # taken once: asked again, bash is asked again
    drop_ahead()


def test_what_is_started_ahead_and_never_asked_is_reaped(monkeypatch: pytest.MonkeyPatch) -> None:
    started = _spawns(monkeypatch)
    ahead("echo one\n")
    ahead("echo one\n")  # the same question is started once
    ahead("echo two\n")
    assert len(started) == 2
    assert refusal("echo three\nfi\n") == (2, "syntax error near unexpected token `fi'")
    assert len(started) == 3
    drop_ahead()
    for pid in PIDS:  # no bash is left unreaped
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_reading_a_script_asks_bash_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from jobc.script.parse import read_bytes

    started = _spawns(monkeypatch)
    facts = read_bytes(b"#!/bin/bash\nsrun python t.py\n", "job.sh")
    assert facts.problems == []
    assert [argv[1:] for argv in started] == [["--norc", "--noprofile", "-n", "/dev/stdin"]]
    # a script bash refuses: the whole script is asked about once (then where its command starts)
    started.clear()
    facts = read_bytes(b"#!/bin/bash\n#SBATCH --nodes=1\nsrun python t.py\nfi\n", "job.sh")
    assert [p.message.split(":")[0] for p in facts.problems] == ["bash cannot parse the script"]
    assert [argv[-1] for argv in started].count("/dev/stdin") == 1


@pytest.mark.parametrize(
    "data",
    [
        b"#!/bin/bash\nsrun python t.py\n",
        b"#!/bin/bash\r\nsrun python t.py\r\n",  # CRLF: bash is asked about the lines without \r
        b"#!/bin/bash\nsrun python t.py",  # no final line break
        b"#!/bin/bash\necho \xff\xfe\nfi\n",  # not UTF-8, and refused
    ],
)
def test_the_script_lint_asks_bash_once_from_before_the_reader(
    data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jobc.script import parse

    assert parse.MAX_BYTES == bashcheck._MAX_SCRIPT
    now = parse.read_bytes(data, "job.sh").problems
    started = _spawns(monkeypatch)
    ahead_of_script(data)
    assert len(started) == 1
    facts = parse.read_bytes(data, "job.sh")  # takes the answer started ahead
    assert [argv[-1] for argv in started].count("/dev/stdin") == 1
    assert [p.message for p in facts.problems] == [p.message for p in now]


def test_a_script_the_reader_does_not_parse_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    from jobc.script import parse

    started = _spawns(monkeypatch)
    for data in (b"#!/bin/csh\nsetenv A 1\n", b"#!/bin/bash\n\0\n"):
        ahead_of_script(data)
        parse.read_bytes(data, "job.sh")
        drop_ahead()
    assert len(started) == 1  # the csh script's (a NUL byte asks nothing)
    for pid in PIDS:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
