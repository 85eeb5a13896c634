"""Every generated file is what `tools/regen.py` makes of its sources today, and the tool writes
what is stale, removes what should not exist, and with --check only names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import regen


@pytest.mark.parametrize("target", regen.TARGETS, ids=lambda t: t.name)
def test_generated_files_are_current(target: regen.Target) -> None:
    wanted = target.wanted()
    stale = regen.stale(wanted)
    assert not stale, (
        f"stale ({target.name}): {', '.join(map(str, stale))}; run `uv run python tools/regen.py` and "
        f"review the diff\n{regen.diff(stale[0], wanted[stale[0]])}"
    )


def test_every_example_has_its_own_batch_and_attach_golden() -> None:
    wanted = regen.goldens()
    specs = sorted((regen.ROOT / "specs").glob("*.yaml"))
    assert len([text for text in wanted.values() if text is not None]) == 2 * len(specs) >= 6


def test_check_names_stale_files_and_changes_nothing_then_a_write_fixes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh, old, gone = tmp_path / "fresh.txt", tmp_path / "old.txt", tmp_path / "gone.txt"
    fresh.write_text("same\n")
    old.write_text("before\n")
    gone.write_text("left over\n")
    target = regen.Target(
        "unit", "a test", lambda: {fresh: "same\n", old: "after\n", gone: None, tmp_path / "new.txt": "n\n"}
    )
    assert regen.main(["--check"], targets=[target]) == 1
    out = capsys.readouterr().out
    assert [line.split()[1] for line in out.splitlines()] == [
        str(p) for p in (old, gone, tmp_path / "new.txt")
    ]
    assert old.read_text() == "before\n"
    assert gone.exists()
    assert regen.main([], targets=[target]) == 0
    assert old.read_text() == "after\n"
    assert not gone.exists()
    assert (tmp_path / "new.txt").read_text() == "n\n"
    assert regen.main(["--check"], targets=[target]) == 0
    assert regen.main(["--check", "unit"], targets=[target]) == 0


def test_an_unknown_target_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        regen.main(["--check", "gold"])
    assert exit_.value.code == 2
    assert "no target 'gold'" in capsys.readouterr().err
