"""bashcheck runs bash as `subprocess.run(input=..., capture_output=True, timeout=...)` did,
without importing subprocess: real processes, both pipes full at once, a timeout, a signal."""

from __future__ import annotations

import shutil

from jobc.script.bashcheck import accepts, parse, refusal, run

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
