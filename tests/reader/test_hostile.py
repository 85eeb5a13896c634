"""Hostile input: whatever a path or its bytes hold, `jobc lint` answers with findings (exit 1) or
one line on stderr (exit 2), quickly, and never with a traceback.

The limits are the loader's (`jobc.reader.source`): files over 1 MiB, nesting deeper than 64 levels
(measured before the parser runs, so ten thousand `[` cost nothing), documents that expand to
more than 100 000 nodes through aliases, binary (NUL bytes), UTF-16/32, invalid UTF-8 and control
characters are all JC001. Merge keys (`<<: *base`) are read the way YAML 1.1 tools and ruamel read
them (the merged keys are part of the mapping; explicit keys win); non-string keys are JC003.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.cli import main
from jobc.spec.model import json_schema

VALID: dict[str, Any] = {
    "version": 1,
    "name": "hostile",
    "slurm": {"partition": "batch", "time": "01:00:00"},
    "resources": {"nodes": 2, "gpus_per_node": 8, "gpu": "h100-80gb"},
    "launch": {"program": "train.py", "workdir": "/lustre/me/p"},
    "storage": {
        "shared": ["/lustre"],
        "checkpoints": "/lustre/ckpt",
        "caches": {"uv_cache_dir": "/lustre/cache/uv"},
    },
}
# No wall-clock bound here: a busy machine makes any number of seconds wrong. That lint's work
# grows linearly with its input is held by tests/lint/test_linear.py (work counted and compared
# across sizes), and a file over the size limit is one finding (test_a_huge_file_is_one_finding).


def lint(*args: str) -> tuple[int, str, str]:
    """Run `jobc lint ARGS…` in-process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["lint", *args])
    return code, out.getvalue(), err.getvalue()


# a traceback starts a line; a finding may quote a word of the input such as a key `Traceback`
_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)


def check_answer(code: int, out: str, err: str, *, codes: tuple[int, ...] = (0, 1)) -> None:
    assert _TRACEBACK.search(out + err) is None, out + err
    assert "internal error" not in err, err
    assert code in codes, (code, out, err)


def lint_bytes(directory: Path, raw: bytes, *, expect: tuple[int, ...] = (0, 1)) -> tuple[str, str]:
    path = directory / "spec.yaml"
    path.write_bytes(raw)
    code, out, err = lint(str(path))
    check_answer(code, out, err, codes=expect)
    return out, err


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


# -- fuzzing -------------------------------------------------------------------------------------

YAMLISH = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("abcxyz019:-[]{}&*!|>'\"#%@`,?.~<= \n\t\\$")),
        st.characters(codec="utf-8"),
    ),
    max_size=400,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=YAMLISH)
def test_random_text_never_crashes(scratch: Path, text: str) -> None:
    lint_bytes(scratch, text.encode("utf-8", "surrogatepass"))


@settings(max_examples=150, deadline=None)
@given(raw=st.binary(max_size=400))
def test_random_bytes_never_crash(scratch: Path, raw: bytes) -> None:
    lint_bytes(scratch, raw)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
KEYS = st.one_of(
    st.sampled_from([*VALID, "cluster", "fabric", "env", "nodes", "tp", "<<"]), st.text(max_size=12)
)
STRUCTURES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=25,
)


def dump(data: Any) -> bytes:
    """YAML text for ``data``: block style, every scalar double-quoted (so no JC004 of its own)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.default_style = '"'
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return buffer.getvalue().encode("utf-8", "surrogatepass")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=STRUCTURES)
def test_random_structured_yaml_never_crashes(scratch: Path, data: Any) -> None:
    lint_bytes(scratch, dump(data))


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return _resolve(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    for option in node.get("anyOf", []):
        resolved = _resolve(option, defs)
        if resolved.get("type") in ("object", "array"):
            return resolved
    return node


def field_paths() -> list[tuple[str | int, ...]]:
    """Every field of a job spec, from the JSON Schema: sections, values, list items, map values."""
    schema = json_schema()
    defs = schema["$defs"]
    out: list[tuple[str | int, ...]] = []

    def walk(node: dict[str, Any], path: tuple[str | int, ...], depth: int) -> None:
        node = _resolve(node, defs)
        if path:
            out.append(path)
        if depth > 4:
            return
        if node.get("type") == "array" and isinstance(node.get("items"), dict):
            walk(node["items"], (*path, 0), depth + 1)
        for name, child in node.get("properties", {}).items():
            walk(child, (*path, name), depth + 1)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, (*path, "FUZZ_KEY"), depth + 1)

    walk(defs["JobSpec"], (), 0)
    return out


FIELDS = field_paths()


def with_value(base: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A copy of ``base`` with ``value`` at ``path``, creating (or replacing) what lies on the way."""

    def put(node: Any, rest: tuple[str | int, ...]) -> Any:
        if not rest:
            return value
        head, tail = rest[0], rest[1:]
        if isinstance(head, int):
            items = list(node) if isinstance(node, list) else []
            if head < len(items):
                items[head] = put(items[head], tail)
            else:
                items.append(put(None, tail))
            return items
        mapping = dict(node) if isinstance(node, dict) else {}
        mapping[head] = put(mapping.get(head), tail)
        return mapping

    result: dict[str, Any] = put(json.loads(json.dumps(base)), path)
    return result


def test_every_field_is_reached() -> None:
    names = {".".join(map(str, p)) for p in FIELDS}
    for expected in (
        "resources.nodes",
        "launch.args.0",
        "env.FUZZ_KEY",
        "model.moe.top_k",
        "slurm.mail.type.0",
    ):
        assert expected in names


WRONG = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.text(max_size=8), SCALARS, max_size=3),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(FIELDS), value=WRONG)
def test_wrong_values_in_every_field_never_crash(
    scratch: Path, path: tuple[str | int, ...], value: Any
) -> None:
    lint_bytes(scratch, dump(with_value(VALID, path, value)))


def test_the_fuzzing_base_is_clean(scratch: Path) -> None:
    out, _ = lint_bytes(scratch, dump(VALID), expect=(0,))
    assert out == ""


# -- shell metacharacters in every string field -----------------------------------------------

METACHARACTERS = [
    "$(touch /tmp/jobc-pwned)",
    "`id`",
    "a; rm -rf ~",
    "x && y || z",
    "'\"'\"'",
    "${IFS}$'\\n'",
    "a|b>c<d&",
    "line\nbreak",
    "#!/bin/sh",
    "{{literal}} and } {",
    "\\",
    "* ? [a-z]",
]


def string_fields() -> Iterator[tuple[str | int, ...]]:
    schema = json_schema()
    defs = schema["$defs"]
    for path in FIELDS:
        node: dict[str, Any] = defs["JobSpec"]
        for part in path:
            node = _resolve(node, defs)
            if isinstance(part, int):
                node = node.get("items", {})
            else:
                node = node.get("properties", {}).get(part) or node.get("additionalProperties") or {}
        kinds = {node.get("type")} | {o.get("type") for o in node.get("anyOf", [])}
        if "string" in kinds:
            yield path


STRING_FIELDS = list(string_fields())


def numeric_fields() -> Iterator[tuple[str | int, ...]]:
    schema = json_schema()
    defs = schema["$defs"]
    for path in FIELDS:
        node: dict[str, Any] = defs["JobSpec"]
        for part in path:
            node = _resolve(node, defs)
            if isinstance(part, int):
                node = node.get("items", {})
            else:
                node = node.get("properties", {}).get(part) or node.get("additionalProperties") or {}
        kinds = {node.get("type")} | {o.get("type") for o in node.get("anyOf", [])}
        if kinds & {"integer", "number"}:
            yield path


NUMERIC_FIELDS = list(numeric_fields())
EXTREMES = [0, -1, 2**63, 10**30, 1e308, 1e-308, float("inf"), float("-inf"), float("nan"), 0.5]


@pytest.mark.parametrize("path", NUMERIC_FIELDS, ids=lambda p: ".".join(map(str, p)))
def test_extreme_numbers_in_every_numeric_field(scratch: Path, path: tuple[str | int, ...]) -> None:
    for value in EXTREMES:
        data = with_value(VALID, path, value)
        # the resilience numbers interact: make the grace-window check do its arithmetic too
        data.setdefault("resilience", {}).setdefault("signal", "SIGTERM")
        lint_bytes(scratch, dump(data))


def test_string_fields_cover_the_spec() -> None:
    names = {".".join(map(str, p)) for p in STRING_FIELDS}
    assert {"name", "launch.program", "launch.setup.0", "env.FUZZ_KEY", "container.image"} <= names


@pytest.mark.parametrize("path", STRING_FIELDS, ids=lambda p: ".".join(map(str, p)))
def test_shell_metacharacters_in_every_string_field_lint_without_crashing(
    scratch: Path, path: tuple[str | int, ...]
) -> None:
    for payload in METACHARACTERS:
        lint_bytes(scratch, dump(with_value(VALID, path, payload)))
    assert not Path("/tmp/jobc-pwned").exists()


# -- the cases by name ---------------------------------------------------------------------------


def billion_laughs(levels: int = 10, width: int = 10) -> bytes:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        refs = ", ".join([f"*l{i - 1}"] * width)
        lines.append(f"l{i}: &l{i} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


def test_alias_bomb_is_rejected_fast(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, billion_laughs(), expect=(1,))
    assert re.search(r":1:1: JC001 \[error\] the document expands to more than [\d,]+ nodes", out)


def test_alias_bomb_of_mappings_and_merges_is_rejected_fast(tmp_path: Path) -> None:
    lines = ["a0: &a0 {x: 1, y: 2, z: 3, w: 4, v: 5, u: 6, t: 7, s: 8}"]
    for i in range(1, 9):
        refs = ", ".join(f"k{j}: *a{i - 1}" for j in range(9))
        lines.append(f"a{i}: &a{i} {{<<: *a{i - 1}, {refs}}}")
    out, _ = lint_bytes(tmp_path, ("\n".join(lines) + "\n").encode(), expect=(1,))
    assert "JC001" in out


def test_an_alias_that_contains_itself_is_a_finding(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"version: 1\nname: t\na: &a {b: *a}\n", expect=(1,))
    assert "JC00" in out


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000,
        "{" * 10_000,
        "{a: " * 5_000,
        "- " * 10_000 + "x",
        "? " * 10_000 + "x",
        "".join(" " * i + "a:\n" for i in range(1_000)),
        "x: " + "[" * 3_000 + "]" * 3_000,
    ],
    ids=["brackets", "braces", "flow-maps", "dashes", "complex-keys", "indentation", "balanced"],
)
def test_deep_nesting_is_rejected_fast(tmp_path: Path, text: str) -> None:
    out, _ = lint_bytes(tmp_path, text.encode(), expect=(1,))
    assert "JC001" in out
    assert "nest" in out


def test_nesting_within_the_limit_is_fine(tmp_path: Path) -> None:
    body = json.dumps(VALID)[:-1] + ', "env": {"A": "' + "[" * 200 + '"}}'
    lint_bytes(tmp_path, body.encode(), expect=(0,))


def test_a_huge_file_is_one_finding(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"a: " + b"x" * (3 << 20) + b"\n", expect=(1,))
    assert out.count("\n") == 1
    assert "larger than 1024 KiB" in out


def test_binary_is_one_finding(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, bytes(range(256)) * 4, expect=(1,))
    assert "JC001" in out
    assert "binary" in out


def test_invalid_utf8_points_at_the_byte(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"version: 1\nname: caf\xe9\n", expect=(1,))
    assert ":2:10: JC001" in out
    assert "UTF-8" in out


def test_nul_byte_points_at_the_byte(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"version: 1\nname: a\x00b\n", expect=(1,))
    assert ":2:8: JC001" in out


def test_utf16_is_named(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, json.dumps(VALID).encode("utf-16"), expect=(1,))
    assert "UTF-16" in out


def test_control_character_is_located(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b'version: 1\nname: "a\x01b"\n', expect=(1,))
    assert ":2:" in out
    assert "JC001" in out


def test_a_utf8_bom_is_accepted(tmp_path: Path) -> None:
    text = "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 8}\nlaunch: {program: t.py}\nbogus: 1\n"
    out, _ = lint_bytes(tmp_path, b"\xef\xbb\xbf" + text.encode(), expect=(1,))
    assert ":5:1: JC003" in out  # positions are not shifted by the mark


def test_tabs_as_indentation(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"version: 1\nresources:\n\tnodes: 1\n", expect=(1,))
    assert ":3:1: JC001" in out
    assert "tab" in out.lower()


def test_merge_keys_are_read_as_yaml_1_1_tools_read_them(tmp_path: Path) -> None:
    text = (
        "version: 1\n"
        "name: t\n"
        "resources:\n"
        "  <<: {nodes: 2, gpus_per_node: 8}\n"
        "  nodes: 1\n"
        "launch: {program: t.py}\n"
        "slurm:\n"
        "  <<: &limits {time: '99:00:00', partition: batch}\n"
        "cluster: {partitions: {batch: {max_time: '48:00:00'}}}\n"
    )
    out, _ = lint_bytes(tmp_path, text.encode(), expect=(1,))
    # nodes: 1 (the explicit key wins), so no multi-node rule; the merged time is over the limit,
    # and the finding lands on the key of the mapping that merges it (merged keys have no
    # position of their own)
    assert re.search(r":7:1: JC108", out)
    assert "JC701" not in out


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1: x\n", 1),
        ("version: 1\nnull: y\n", 2),
        ("version: 1\n[a, b]: c\n", 2),
        ("version: 1\n? {a: 1}\n: c\n", 2),
        ("version: 1\ntrue: 1\n", 2),
        ("version: 1\n3.5: 1\n", 2),
    ],
)
def test_non_string_keys_are_named_plainly(tmp_path: Path, text: str, line: int) -> None:
    out, _ = lint_bytes(tmp_path, text.encode(), expect=(1,))
    found = [row for row in out.splitlines() if "is not a string" in row or "cannot be a key" in row]
    assert len(found) == 1
    assert f":{line}:" in found[0]
    assert "ordereddict" not in out
    assert "('a'" not in out
    assert "None" not in found[0]


def test_a_directory_named_like_a_spec(tmp_path: Path) -> None:
    empty = tmp_path / "spec.yaml"
    empty.mkdir()
    code, out, err = lint(str(empty))
    check_answer(code, out, err, codes=(2,))
    assert err.count("\n") == 1
    assert "spec.yaml" in err
    (empty / "job.yml").write_text(dump(VALID).decode())
    code, out, err = lint(str(empty))
    check_answer(code, out, err, codes=(0,))


def test_a_missing_file(tmp_path: Path) -> None:
    code, out, err = lint(str(tmp_path / "nope.yaml"))
    check_answer(code, out, err, codes=(2,))
    assert "no such file" in err


def test_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    code, out, err = lint(str(fifo))
    check_answer(code, out, err, codes=(2,))
    assert "not a regular file" in err


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    # /proc/self/mem is a regular file that nobody, root included, can read from offset 0
    code, out, err = lint("/proc/self/mem")
    check_answer(code, out, err, codes=(2,))
    assert err.startswith("jobc lint: /proc/self/mem: cannot read")
    assert err.count("\n") == 1


def test_a_file_without_read_permission(tmp_path: Path) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text(dump(VALID).decode())
    path.chmod(0)
    try:
        code, out, err = lint(str(path))
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    if os.geteuid() == 0:  # root reads it anyway: then it simply lints
        check_answer(code, out, err, codes=(0,))
    else:
        check_answer(code, out, err, codes=(2,))
        assert "cannot read" in err


def test_an_empty_file_and_a_comment_only_file(tmp_path: Path) -> None:
    for raw in (b"", b"# nothing\n", b"---\n", b"...\n", b"\n\n\n"):
        out, _ = lint_bytes(tmp_path, raw, expect=(1,))
        assert "JC00" in out


def test_several_documents(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, dump(VALID) + b"---\n" + dump(VALID), expect=(1,))
    assert "more than one YAML document" in out


@pytest.mark.parametrize(
    "text",
    [
        "version: 1\nname: x\nlaunch: {program: t.py, args: [-_]}\n",  # IndexError inside ruamel
        "?\n- : b\n",  # a collection as a key: TypeError inside ruamel
    ],
    ids=["plain-dash-in-flow", "collection-key"],
)
def test_reader_crashes_are_findings(scratch: Path, text: str) -> None:
    out, _ = lint_bytes(scratch, text.encode(), expect=(1,))
    assert "JC001" in out


# -- internal errors the fuzzer found: each is a finding at its position or one usage line -------


@pytest.mark.parametrize(
    "number",
    ["9" * 5_000, "-" + "9" * 5_000, "0x" + "f" * 5_000, "0o" + "7" * 2_000, "9" * 400, str(2**63)],
    ids=["5000-digits", "negative", "hex", "octal", "400-digits", "int64-plus-one"],
)
def test_numbers_no_spec_value_can_hold(tmp_path: Path, number: str) -> None:
    # as a value, as a key and through --set: never an internal error
    text = dump(VALID).decode() + f"workload: {{seq_length: {number}}}\n"
    out, _ = lint_bytes(tmp_path, text.encode(), expect=(1,))
    assert re.search(r"spec\.yaml:\d+:\d+: JC001 \[error\] a number of [\d,]+ digits", out), out
    out, _ = lint_bytes(
        tmp_path, (dump(VALID).decode() + f"env:\n  ? {number}\n  : x\n").encode(), expect=(1,)
    )
    assert re.search(r"spec\.yaml:20:\d+: JC00[13]", out), out
    path = tmp_path / "spec.yaml"
    path.write_bytes(dump(VALID))
    code, out, err = lint(str(path), "--set", f"resources.nodes={number}")
    check_answer(code, out, err, codes=(1,))


NUMBER_FIELDS_TEXT = [".".join(map(str, p)) for p in NUMERIC_FIELDS]


@pytest.mark.parametrize("path", NUMERIC_FIELDS, ids=NUMBER_FIELDS_TEXT)
def test_a_5000_digit_number_in_every_numeric_field(scratch: Path, path: tuple[str | int, ...]) -> None:
    data = with_value(VALID, path, "BIGNUMBER")
    raw = dump(data).replace(b'"BIGNUMBER"', b"9" * 5_000)
    out, _ = lint_bytes(scratch, raw, expect=(1,))
    assert "a number of 5,000 digits" in out


def test_the_largest_int64_is_read_and_checked(tmp_path: Path) -> None:
    data = with_value(VALID, ("workload", "seq_length"), 2**63 - 1)
    data = with_value(data, ("parallelism", "tp"), 2**63 - 1)
    data = with_value(data, ("parallelism", "pp"), 2**63 - 1)
    lint_bytes(tmp_path, dump(data), expect=(1,))


def test_a_lone_surrogate_escape_is_a_finding(tmp_path: Path) -> None:
    for where in ('env: {A: "\\ud800"}\n', 'env: {"\\udfff": a}\n', 'name2: "x\\ud800"\n'):
        raw = (dump(VALID).decode() + where).encode()
        out, _ = lint_bytes(tmp_path, raw, expect=(1,))
        assert "half of a UTF-16 surrogate pair" in out
        for fmt in ("github", "json", "sarif"):
            code, out2, err = lint(str(tmp_path / "spec.yaml"), "--format", fmt)
            check_answer(code, out2, err, codes=(1,))
    code, out, err = _compile(tmp_path / "spec.yaml")
    check_answer(code, out, err, codes=(1,))


def _compile(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["compile", str(path), *args])
    return code, out.getvalue(), err.getvalue()


def test_an_omap_with_a_duplicate_key(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, b"version: 1\nslurm: !!omap [{a: 1}, {a: 2}]\n", expect=(1,))
    assert re.search(r"spec\.yaml:2:25: JC001 \[error\] duplicate key 'a' in an !!omap", out), out


def _link_loop(directory: Path) -> None:
    for a, b in (("loop1", "loop2"), ("loop2", "loop1")):
        if not (directory / a).is_symlink():
            (directory / a).symlink_to(b)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("loop1", "a symlink loop"),
        ("a\\0b", "cannot hold a NUL character"),
        ("a\\ud800b", "half of a UTF-16 surrogate pair"),
        ("x" * 300, "longer than 255 bytes"),
        ("d/" + "y" * 300 + "/p.yaml", "longer than 255 bytes"),
    ],
    ids=["symlink-loop", "nul", "surrogate", "long-name", "long-directory"],
)
def test_paths_to_other_files_that_cannot_exist(tmp_path: Path, target: str, message: str) -> None:
    _link_loop(tmp_path)
    for field in ("extends", "model"):
        value = f'"{target}"' if field == "extends" else f'{{hf_config: "{target}"}}'
        out, err = lint_bytes(tmp_path, (dump(VALID).decode() + f"{field}: {value}\n").encode(), expect=(1,))
        assert message in out
        assert err == ""
        assert re.search(r"spec\.yaml:19:\d+: JC00[136] \[error\]", out), out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests too deeply"),
        ('{"model_type": "llama", "hidden_size": ' + "9" * 5_000 + "}", "a number of 5000 digits"),
        ('{"model_type": "llama", "hidden_size": ' + "9" * 30 + "}", "a number of 30 digits"),
    ],
    ids=["deep", "5000-digits", "30-digits"],
)
def test_hf_configs_jobc_cannot_use(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "config.json").write_text(content)
    text = dump(VALID).decode() + "model: {hf_config: config.json}\n"
    out, _ = lint_bytes(tmp_path, text.encode(), expect=(1,))
    assert re.search(r"spec\.yaml:\d+:\d+: JC003 \[error\] model\.hf_config 'config\.json'", out)
    assert message in out


def test_attach_with_a_trailing_newline_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_bytes(dump(VALID))
    code, out, err = _compile(path, "--attach", "5\n")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "a job id is a number" in err


def test_set_with_invalid_utf8_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_bytes(dump(VALID))
    bad = os.fsdecode(b"name=\xff")
    code, out, err = lint(str(path), "--set", bad)
    check_answer(code, out, err, codes=(2,))
    assert err.count("\n") == 1
    assert "not valid UTF-8" in err


def test_sarif_for_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / os.fsdecode(b"caf\xe9.yaml")
    path.write_bytes(dump(VALID) + b"bogus: 1\n")
    for fmt in ("sarif", "json", "text", "github"):
        code, out, err = lint(str(path), "--format", fmt)
        check_answer(code, out, err, codes=(1,))
        out.encode("utf-8")  # printable on any UTF-8 stream
        if fmt == "sarif":
            assert "caf%E9.yaml" in out


def test_a_reused_anchor_prints_nothing_on_stderr(tmp_path: Path) -> None:
    _, err = lint_bytes(tmp_path, b"a: &x 1\nb: &x 2\nversion: 1\n", expect=(1,))
    assert err == ""


def test_set_takes_only_ascii_digits_as_an_index(tmp_path: Path) -> None:
    from jobc.lint.pipeline import parse_override

    assert parse_override("launch.args.3=1").path == ("launch", "args", 3)
    assert parse_override("launch.args.\u0663=1").path == ("launch", "args", "\u0663")
    assert parse_override("env.\u00b2=1").path == ("env", "\u00b2")


# -- spec text in messages cannot drive a terminal or forge an annotation -----------------------


def test_control_characters_in_messages_are_escaped_in_every_format() -> None:
    from jobc.core.diagnostics import Finding, Severity, Span
    from jobc.lint.report import FORMATS, reporter

    forged = "x\n::error file=README.md::pwned\x1b[31m\u202e\r"
    finding = Finding("JC003", "schema", Severity.ERROR, f"bad {forged}", f"a{forged}.yaml", Span.point(1, 1))
    for fmt in FORMATS:
        for tty in (False, True):
            out = io.StringIO()
            reporter(fmt)([finding], {finding.file: [f"name: {forged}"]}, out, tty)
            text = out.getvalue()
            assert "\x1b[31m\u202e" not in text
            assert "\r" not in text
            lines = text.splitlines()
            assert not any(row.startswith("::error file=README.md") for row in lines), fmt
            if fmt == "github":
                assert sum(row.startswith("::") for row in lines) == 1


# -- names that end in a line break ---------------------------------------------------------------


@pytest.mark.parametrize(
    "where",
    [
        'env: {"FOO\\n": bar}\n',
        'fabric: {env: {"FOO\\n": bar}}\n',
        'container: {image: "nvcr.io#nvidia/pytorch:24.01-py3", env: ["FOO\\n"]}\n',
        'secrets: ["FOO\\n"]\n',
    ],
    ids=["env", "fabric.env", "container.env", "secrets"],
)
def test_a_name_ending_in_a_newline_is_refused_at_lint(tmp_path: Path, where: str) -> None:
    out, _ = lint_bytes(tmp_path, (dump(VALID).decode() + where).encode(), expect=(1,))
    assert re.search(r"spec\.yaml:19:\d+: JC003 \[error\]", out), out


def test_an_sbatch_option_ending_in_a_newline_is_refused_at_lint(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, dump(with_value(VALID, ("slurm", "extra", "begin\n"), "now")), expect=(1,))
    assert "is not an sbatch option" in out


def test_a_job_name_ending_in_a_newline_is_refused_at_lint(tmp_path: Path) -> None:
    out, _ = lint_bytes(tmp_path, dump(VALID).replace(b'"name": "hostile"', b'"name": "r\\n"'), expect=(1,))
    assert "JC003" in out


# -- lint clean means compile succeeds, and the script parses -------------------------------------


def _lint_and_compile(directory: Path, raw: bytes) -> tuple[int, str, str, str]:
    path = directory / "spec.yaml"
    path.write_bytes(raw)
    code, out, _ = lint(str(path))
    compiled, script, cerr = _compile(path)
    return code, out, str(compiled), script if compiled == 0 else cerr


@pytest.mark.parametrize(
    "logs",
    [f"/lustre/{v}" for v in ("a\nb", "a\tb", "a b'c", 'a b"c', "a\\b c", "#x", "{name}\r", "\x7f")],
)
def test_what_compile_would_refuse_in_the_logs_lint_reports_first(tmp_path: Path, logs: str) -> None:
    code, out, compiled, script = _lint_and_compile(
        tmp_path, dump(with_value(VALID, ("storage", "logs"), logs))
    )
    if code == 0:
        assert compiled == "0", script
        assert _bash_syntax_ok(script)
    else:
        assert re.search(r"spec\.yaml:\d+:\d+: JC003 \[error\] storage\.logs", out), out


def test_an_error_cannot_be_suppressed_into_a_clean_lint(tmp_path: Path) -> None:
    raw = dump(VALID) + b"bogus: 1  # jobc: ignore[JC003]\n"
    code, out, compiled, _ = _lint_and_compile(tmp_path, raw)
    assert code == 1
    assert "unknown key 'bogus'" in out
    assert compiled == "1"
    config = tmp_path / ".jobc.toml"
    config.write_text('ignore = ["JC003"]\n[severity]\nJC003 = "warning"\n')
    path = tmp_path / "spec.yaml"
    path.write_bytes(dump(VALID) + b"bogus: 1\n")
    code, out, err = lint(str(path), "--config", str(config))
    check_answer(code, out, err, codes=(1,))
    assert "JC003 [error]" in out


def _bash_syntax_ok(script: str) -> bool:
    import subprocess

    return (
        subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True, check=False).returncode
        == 0
    )


# extends and model name other files; launch.setup is shell, which JC509 has bash parse first
STRING_FIELDS_FOR_COMPILE = [p for p in STRING_FIELDS if p[0] not in ("extends", "model")]
assert any(p[:2] == ("launch", "setup") for p in STRING_FIELDS_FOR_COMPILE)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.sampled_from(STRING_FIELDS_FOR_COMPILE),
    value=st.one_of(
        st.sampled_from(METACHARACTERS),
        st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=20),
    ),
)
def test_lint_clean_means_compile_succeeds_and_the_script_parses(
    scratch: Path, path: tuple[str | int, ...], value: str
) -> None:
    code, out, compiled, script = _lint_and_compile(scratch, dump(with_value(VALID, path, value)))
    assert "internal error" not in script
    if code == 0:
        assert compiled == "0", (out, script)
        assert _bash_syntax_ok(script)


SHELL_PIECES = [
    "if true; then",
    "fi",
    "else",
    "for f in a b; do",
    "done",
    "case $x in",
    "a|b) echo a ;;",
    "esac",
    "cat <<EOF",
    "cat <<-'END'",
    "EOF",
    "END",
    "x=$(",
    ")",
    "echo `",
    "{",
    "}",
    'echo "',
    "echo '",
    "$'\\''",
    "module load cuda &&",
    "echo a \\",
    "# it's a comment",
    "f() {",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.lists(
        st.one_of(
            st.sampled_from(SHELL_PIECES),
            st.sampled_from(METACHARACTERS),
            st.text(alphabet=st.sampled_from(list("ab $(){}[]'\"`\\;&|<>#\n")), max_size=12),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_lint_clean_setup_compiles_to_a_script_bash_reads_whole(scratch: Path, setup: list[str]) -> None:
    code, out, compiled, script = _lint_and_compile(
        scratch, dump(with_value(VALID, ("launch", "setup"), setup))
    )
    assert "internal error" not in script
    if code == 0:
        assert compiled == "0", (out, script)
        import subprocess

        parsed = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True, check=False)
        # a warning too would be a heredoc that swallows the launch after the setup
        assert (parsed.returncode, parsed.stderr) == (0, ""), (parsed.stderr, setup)
