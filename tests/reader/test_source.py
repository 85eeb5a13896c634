"""Reading a file: what cannot be read is a finding at the parser's position, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.pipeline import lint_file
from jobc.reader.source import MAX_BYTES

SPEC = "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 8}\nlaunch: {program: t.py}\n"


def findings(tmp_path: Path, raw: bytes) -> list[tuple[str, int, int]]:
    path = tmp_path / "spec.yaml"
    path.write_bytes(raw)
    return [(f.code, f.span.line, f.span.col) for f in lint_file(path).findings]


@pytest.mark.parametrize("version", ["1.1", "1.0"])
def test_a_yaml_1_1_directive_is_refused(tmp_path: Path, version: str) -> None:
    # under 1.1 `time: 12:00:00` reads as 43200 (minutes, to Slurm) and `yes` as true
    raw = f"# a comment\n%YAML {version}\n---\n{SPEC}slurm: {{time: 12:00:00}}\n".encode()
    assert findings(tmp_path, raw) == [("JC001", 2, 1)]


def test_a_yaml_1_2_directive_is_fine(tmp_path: Path) -> None:
    assert findings(tmp_path, f"%YAML 1.2\n---\n{SPEC}".encode()) == []


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    assert findings(tmp_path, b"\xef\xbb\xbf" + SPEC.encode()) == []


def test_invalid_utf8_points_at_the_byte(tmp_path: Path) -> None:
    assert findings(tmp_path, SPEC.encode() + b'env: {A: "\xff"}\n') == [("JC001", 5, 11)]


def test_a_nul_byte_means_a_binary_file(tmp_path: Path) -> None:
    assert findings(tmp_path, b"version: 1\nna\x00me: t\n") == [("JC001", 2, 3)]


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    assert findings(tmp_path, b"# " + b"x" * MAX_BYTES + b"\n") == [("JC001", 1, 1)]


def test_two_documents(tmp_path: Path) -> None:
    assert findings(tmp_path, f"{SPEC}---\n{SPEC}".encode()) == [("JC001", 5, 1)]


def test_syntax_error_at_the_parser_position(tmp_path: Path) -> None:
    assert findings(tmp_path, b"version: 1\nresources: {nodes: 1\nlaunch: x\n") == [("JC001", 3, 7)]


def test_duplicate_key_points_at_the_second_and_names_the_first(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC + "name: again\n")
    (finding,) = lint_file(path).findings
    assert (finding.code, finding.span.line, finding.span.col) == ("JC002", 5, 1)
    assert "first defined at line 2, column 1" in finding.message


@pytest.mark.parametrize(
    ("text", "what"),
    [("", "nothing"), ("# only a comment\n", "nothing"), ("- a\n", "a list"), ("x\n", "a single")],
)
def test_a_file_that_is_not_a_mapping(tmp_path: Path, text: str, what: str) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    (finding,) = lint_file(path).findings
    assert finding.code == "JC003"
    assert what in finding.message


def test_an_alias_bomb_is_bounded(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 7)]
    codes = {code for code, _, _ in findings(tmp_path, ("\n".join(lines) + "\n").encode())}
    assert codes == {"JC001"}
