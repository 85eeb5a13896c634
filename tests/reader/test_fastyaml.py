"""The libyaml reading agrees with ruamel's round-trip reading wherever it answers at all.

ruamel is the reference: for every document that `fastyaml.parse` accepts, the data (with its
types), the source problems and the span of every path must be exactly what ruamel gives.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.reader import fastyaml, source
from jobc.reader.locate import locate
from tests.support import ROOT

pytestmark = pytest.mark.skipif(not fastyaml.AVAILABLE, reason="PyYAML's C extension is not installed")


def typed(value: Any) -> Any:
    """The value with every scalar's type made visible, so that 1, 1.0 and True differ."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


def assert_same(text: str) -> bool:
    """Whether the fast reading answered; when it did, it must agree with ruamel in every detail."""
    fast = source.parse_text(text, "x.yaml")
    if fastyaml.parse(text) is None:
        return False
    slow = source._parse_round_trip(text, "x.yaml")
    assert not any(p.code in ("JC001", "JC002") for p in slow.problems), slow.problems
    assert typed(fast.data) == typed(slow.data)
    assert fast.problems == slow.problems
    assert fast.tree is not None
    assert slow.tree is not None
    lines = fast.lines
    probes = paths(fast.data)
    probes += [(*p, "missing") for p in probes] + [(*p, 99) for p in probes]
    for path in probes:
        for at_value in (True, False):
            assert locate(fast.tree, lines, path, at_value=at_value) == locate(
                slow.tree, lines, path, at_value=at_value
            ), (path, at_value)
    return True


@pytest.mark.parametrize(
    "path",
    sorted([*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("tests/**/*.yaml")]),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_bundled_files(path: Path) -> None:
    assert_same(path.read_text("utf-8"))


def test_the_examples_take_the_fast_path() -> None:
    for path in sorted(ROOT.glob("specs/**/*.yaml")):
        assert fastyaml.parse(path.read_text("utf-8")) is not None, path


SCALARS = [
    "0", "1", "-1", "-0", "+1", "010", "0o17", "0x1F", "0b101", "1_000", "12", "123456789012345678901234",
    "1.5", "-0.5", "0.10", "1.", ".5", "1e3", "1.5e-3", "-.inf", ".inf", ".NaN", "1.2.3",
    "true", "True", "TRUE", "false", "yes", "No", "on", "OFF", "y", "n",
    "null", "Null", "NULL", "~", "nil",
    "12:00:00", "1:30", "24:00:00", "2024-01-01", "2024-1-1 10:00:00", "2024-01-01T10:00:00Z",
    "<<", "=", "<x", "=x", "-x", "+x", ".x", "--tp", "+_1", "-.5", "-x:1", "8x7b", "200G", "0:00:30", "1-2",
    "h100-80gb", "/lustre/x y", "nvcr.io#nvidia/pytorch:25.01-py3", "a #b", "é", "日本",
    "'quoted'", '"dq"', '"esc \\" \\t \\u00e9 \\x41 \\/"', "'it''s'", '"multi\n  line"', "'a\n\n  b'",
]  # fmt: skip


@pytest.mark.parametrize("scalar", SCALARS)
def test_scalar_types_and_ambiguity(scalar: str) -> None:
    text = f"key: {scalar}\nlist:\n  - {scalar}\nflow: [{scalar}, x]\n"
    assert_same(text)


def test_block_scalars_comments_and_flow() -> None:
    text = textwrap.dedent(
        """\
        # top comment
        version: 1   # trailing
        setup: |
          line one  # not a comment
          line two
        folded: >-
          a
          b
        keep: |+
          x

        nested:
          - {a: 1, b: [x, "y", 'z'], c: }
          - - inner
            - 2
          -
          - k: v
            k2:
        "quoted key": 1
        'single key': two
        empty_flow: {}
        empty_seq: []
        ---
        """
    )
    # a trailing '---' opens a second document: ruamel's to report
    assert not assert_same(text)
    assert assert_same(text.replace("---\n", ""))


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "%YAML 1.1\n---\na: yes\n",  # directives change the resolution
        "a: 1\na: 2\n",  # duplicate keys
        "1: a\n",  # non-string keys
        "true: a\n",
        "? [a]\n: b\n",  # collection keys
        "<<: {a: 1}\n",  # merge keys
        "a: b\n---\nc: d\n",  # two documents
        "a: [\n",  # syntax error
        "a:\tb\n",  # tabs
        "a: b\u2028c\n",  # 1.1-only line break
        "",  # no document
        "# only a comment\n",
    ],
)
def test_what_is_left_to_ruamel(text: str) -> None:
    assert fastyaml.parse(text) is None
    src = source.parse_text(text, "x.yaml")  # still read, by ruamel
    assert src.problems or src.data is not None or not text.strip() or text.startswith("#")


def test_a_scalar_document() -> None:
    assert assert_same("just text\n")
    assert assert_same("8\n")
    assert assert_same("yes\n")


WORDS = st.sampled_from(
    ["a", "b", "name", "x1", "-x", "x y", "a:b", "a #b", "é", "0", "1", "-3", "1.5", "true", "no", "~",
     "null", "", "12:00", "2024-01-01", "0o7", "1e3", "'q'", '"d"', '"e\\n"', "'it''s'", "[1, 2]", "{k: v}",
     "[]", "{}", "[a, {b: c}]"]
)  # fmt: skip
KEYS = st.sampled_from(["a", "b", "c", "key", "x y", "'q k'", '"d k"', "k-1", "1", "yes", "~", "é"])


@st.composite
def documents(draw: st.DrawFn, depth: int = 0) -> str:
    """Block YAML built from pieces: mappings, sequences, scalars, comments, empty values."""
    indent = "  " * depth
    lines = []
    if depth < 3 and draw(st.booleans()):
        for _ in range(draw(st.integers(1, 3))):
            item = draw(st.one_of(WORDS.map(lambda w: f" {w}"), st.just(""), st.just("NEST")))
            lines.append(f"{indent}-{item}" if item != "NEST" else f"{indent}-")
            if item == "NEST":
                lines.append(draw(documents(depth + 1)))
    else:
        for _ in range(draw(st.integers(1, 4))):
            key = draw(KEYS)
            if depth < 3 and draw(st.integers(0, 3)) == 0:
                lines.append(f"{indent}{key}:")
                lines.append(draw(documents(depth + 1)))
            else:
                value = draw(WORDS)
                comment = draw(st.sampled_from(["", "  # c", " #c"]))
                lines.append(f"{indent}{key}: {value}{comment}".rstrip())
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_documents(text: str) -> None:
    assert_same(text + "\n")


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="ab1 :-#'\"[]{},\n|>&*!?%.~\\", max_size=40))
def test_arbitrary_text_never_disagrees(text: str) -> None:
    assert_same(text)


MARKED = [
    "a: 1  # jobc: ignore[JC201]\n",
    "# jobc: ignore[JC201]\na: 1\n",
    'a: "x # jobc: ignore[JC201]"\n',
    "a: 'x # jobc: ignore[JC201]'  # jobc: ignore[JC202]\n",
    "setup: |\n  echo # jobc: ignore[JC201]\n  two\nb: 2 # jobc: ignore[JC3]\n",
    "a: x#jobc: ignore[JC201]\n",
    "a: [x, y]  # jobc: ignore[JC201, JC202]\n",
    "a: {k: 'v # jobc: ignore[JC1]'}  # jobc: ignore[JC2]\n",
    "a: plain\n  continued # jobc: ignore[JC201]\n",
]


@pytest.mark.parametrize("text", MARKED)
def test_suppressions_are_found_alike(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from jobc.lint import suppress

    fast = suppress.parse(text)
    monkeypatch.setattr(fastyaml, "scalar_spans", lambda _text: None)
    assert fast == suppress.parse(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.integers(0, 50), st.sampled_from([" # jobc: ignore[JC201]", "# jobc: ignore[JC2]"]))
def test_suppressions_in_generated_documents(text: str, at: int, marker: str) -> None:
    from jobc.lint import suppress

    lines = text.splitlines()
    i = at % len(lines)
    lines[i] += marker
    marked = "\n".join(lines) + "\n"
    fast = suppress.parse(marked)
    original = fastyaml.scalar_spans
    try:
        fastyaml.scalar_spans = lambda _text: None  # type: ignore[assignment]
        assert fast == suppress.parse(marked)
    finally:
        fastyaml.scalar_spans = original
