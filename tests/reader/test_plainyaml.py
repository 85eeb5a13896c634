"""The Python reading of the plain subset agrees with ruamel's reading wherever it answers at all.

ruamel is the reference: for every document that `plainyaml.parse` accepts, the data (with its
types), the ambiguous-scalar problems and the span of every path must be exactly what ruamel
gives; and `plainyaml.scalar_spans` must name the scalars ruamel's scanner finds, where they
start and end. What it leaves alone goes on to libyaml and ruamel as before.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.reader import plainyaml, source
from jobc.reader.locate import locate
from tests.reader.test_fastyaml import SCALARS, WORDS, documents, paths, typed
from tests.support import ROOT


def ruamel_spans(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    from ruamel.yaml import YAML
    from ruamel.yaml.tokens import ScalarToken

    return [
        ((t.start_mark.line, t.start_mark.column), (t.end_mark.line, t.end_mark.column))
        for t in YAML(typ="rt", pure=True).scan(text)
        if isinstance(t, ScalarToken)
    ]


def assert_same(text: str) -> bool:
    """Whether the plain reading answered; when it did, it must agree with ruamel in every detail."""
    fast = plainyaml.parse(text)
    if fast is None:
        assert plainyaml.scalar_spans(text) is None
        return False
    data, tree, problems = fast
    slow = source._parse_round_trip(text, "x.yaml")
    assert not any(p.code in ("JC001", "JC002") for p in slow.problems), slow.problems
    assert typed(data) == typed(slow.data)
    assert [source.SourceProblem("JC004", None, m, p) for p, m in problems] == slow.problems
    assert slow.tree is not None
    lines = text.splitlines()
    probes = paths(data)
    probes += [(*p, "missing") for p in probes] + [(*p, 99) for p in probes]
    for path in probes:
        for at_value in (True, False):
            assert locate(tree, lines, path, at_value=at_value) == locate(
                slow.tree, lines, path, at_value=at_value
            ), (path, at_value)
    assert plainyaml.scalar_spans(text) == ruamel_spans(text)
    return True


BUNDLED = sorted([*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("docs/**/*.yaml")])


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_bundled_files(path: Path) -> None:
    assert_same(path.read_text("utf-8"))


def test_the_examples_take_the_plain_path() -> None:
    for path in sorted(ROOT.glob("specs/**/*.yaml")):
        assert plainyaml.parse(path.read_text("utf-8")) is not None, path


@pytest.mark.parametrize("scalar", SCALARS)
def test_scalar_types_and_ambiguity(scalar: str) -> None:
    text = f"key: {scalar}\nlist:\n  - {scalar}\nflow: [{scalar}, x]\nmap: {{k: {scalar}}}\n"
    assert_same(text)
    assert_same(f"key: {scalar}  # comment\n")


READ = [
    "a: 1\n",
    "a: 1\nb:\n  c: [x, 'y', \"z\"]\n  d: {e: 1, f: [2, 3]}\n",
    "a:\n- x\n- y\nb: 2\n",  # an indentless sequence
    "a:\n  - k: v\n    k2: w\n  - k: u\n",
    "a:   # comment\n  b: c   # comment\n       # a deeper comment\n  d: e\n",
    'env: {PYTORCH_CUDA_ALLOC_CONF: "expandable_segments:True"}\n',
    "time: 12:00:00\nflag: yes\nlist: [on, off]\n",
    "'quoted key': 1\n\"dq key\": 'it''s'\n",
    'a: "esc \\" \\t \\u00e9 \\x41 \\/ \\\\"\n',
    "a: x#y\nb: x  #y\nc: 'x # y'\n",
    "a: -x\nb: --tp\nc: [-1, --z]\n",
    "a: ~\nb: null\nc: [null, ~]\nd: {e: NULL}\n",
    "  a: 1\n  b: 2\n",  # an indented root
    "a: []\nb: {}\nc: [[], {}]\n",
    "a: [a b, c]\n",
]


@pytest.mark.parametrize("text", READ)
def test_what_it_reads(text: str) -> None:
    assert assert_same(text)


LEFT = [
    "a: &x 1\nb: *x\n",  # anchors and aliases
    "a: !!str 1\n",  # tags
    "%YAML 1.2\n---\na: yes\n",  # directives and document markers
    "---\na: 1\n",
    "a: 1\n...\n",
    "a: 1\na: 2\n",  # duplicate keys
    "1: a\n",  # non-string keys
    "true: a\n",
    "? [a]\n: b\n",  # collection keys
    "a: [\n  b]\n",  # flow over several lines
    'a: "b\n  c"\n',  # quoted over several lines
    "a: b\n  c\n",  # plain over several lines
    "a:\n  b\n",  # a scalar below its key
    "a: |\n  x\n",  # block scalars
    "a: >\n  x\n",
    "a:\n",  # empty values
    "a:\nb: 1\n",
    "- a\n- b\n",  # not a mapping
    "a:\n  - - x\n",  # a sequence in a sequence
    "a:\n  -\n    b: 1\n",  # an item that starts below its dash
    "a:\tb\n",  # tabs
    "a: b\r\nc: d\r\n",  # carriage returns
    "\ufeffa: b\n",  # a byte-order mark
    "a: b: c\n",  # a syntax error
    "a: {b:c}\n",  # flow forms the YAML versions read differently
    "a: {b : c}\n",
    "a: {b}\n",
    "a: [b,]\n",
    "a: [b:c]\n",
    'a: "\\N\\_"\n',  # escapes left to the others
    'a: "\\ud800"\n',
    "é: 1\n",  # keys it does not read
    "a b : 1\n",
    "",
    "# only a comment\n",
]


@pytest.mark.parametrize("text", LEFT)
def test_what_it_leaves_to_the_others(text: str) -> None:
    assert plainyaml.parse(text) is None
    assert plainyaml.scalar_spans(text) is None
    src = source.parse_text(text, "x.yaml")  # still read, by libyaml or ruamel
    assert src.problems or src.data is not None or not text.strip() or text.startswith("#")


def test_a_spec_reads_the_same_through_source() -> None:
    text = (ROOT / "specs" / "megatron-lm-llama3-8b.yaml").read_text("utf-8")
    fast = source.parse_text(text, "x.yaml")
    slow = source._parse_round_trip(text, "x.yaml")
    assert typed(fast.data) == typed(slow.data)
    assert fast.problems == slow.problems


PLAIN_WORDS = st.sampled_from(
    ["a", "x y", "a:b", "a#b", "a #b", "-x", "--tp", "é", "0", "-3", "1.5", "true", "no", "on", "~", "null",
     "12:00", "1:30:00", "0o7", "1e3", "2024-01-01", "'q'", "'it''s'", '"d"', '"e\\n"', '"\\u00e9\\/"', "[]",
     "{}", "[1, 2]", "[a, {b: c}]", "{k: v, k2: [x]}", "[a b, 'c d']", "a, b", "a[0]", "{k: 'v'}",
     "x:", "a: b", "[a,b]", "*x", "&y z", "!t", "|", ">", "%", "@x", "`x", "? x"]
)  # fmt: skip
PLAIN_KEYS = st.sampled_from(["a", "b", "c", "key", "x y", "'q k'", '"d k"', "k-1", "K_2", "a.b", "1", "on"])


@st.composite
def specs(draw: st.DrawFn, depth: int = 0) -> str:
    """Block YAML in the shapes specs take: mappings, sequences (indented or not), sequences of
    mappings, one-line flow collections, comments at any indentation, and some misfits."""
    indent = "  " * depth
    lines = []
    if depth and draw(st.integers(0, 3)) == 0:
        dash = draw(st.sampled_from(["", "  "]))  # indentless or indented under its key
        for _ in range(draw(st.integers(1, 3))):
            if draw(st.booleans()):
                key, value = draw(PLAIN_KEYS), draw(PLAIN_WORDS)
                lines.append(f"{indent[:-2] if not dash else indent}- {key}: {value}")
                if draw(st.booleans()):
                    lines.append(f"{indent[:-2] if not dash else indent}  {draw(PLAIN_KEYS)}2: {value}")
            else:
                lines.append(f"{indent[:-2] if not dash else indent}- {draw(PLAIN_WORDS)}")
        return "\n".join(lines)
    for _ in range(draw(st.integers(1, 4))):
        key = draw(PLAIN_KEYS)
        if depth < 3 and draw(st.integers(0, 2)) == 0:
            lines.append(f"{indent}{key}:{draw(st.sampled_from(['', '  # c', ' #c']))}")
            if draw(st.booleans()):
                lines.append(draw(st.sampled_from(["", "# top", f"{indent}    # deep"])))
            lines.append(draw(specs(depth + 1)))
        else:
            value = draw(PLAIN_WORDS)
            comment = draw(st.sampled_from(["", "  # c", " #c", "   # c: d"]))
            lines.append(f"{indent}{key}: {value}{comment}")
            if draw(st.integers(0, 4)) == 0:
                lines.append(f"{indent}{draw(st.sampled_from(['  ', '      ', '']))}# a comment line")
    return "\n".join(lines)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_generated_specs(text: str) -> None:
    assert_same(text + "\n")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_documents(text: str) -> None:
    assert_same(text + "\n")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(WORDS, min_size=1, max_size=4), st.lists(PLAIN_WORDS, min_size=1, max_size=4))
def test_generated_flow(items: list[str], more: list[str]) -> None:
    assert_same(f"a: [{', '.join(items)}]\nb: {{{', '.join(f'k{i}: {w}' for i, w in enumerate(more))}}}\n")


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="ab1 :-#'\"[]{},\n|>&*!?%.~\\", max_size=40))
def test_arbitrary_text_never_disagrees(text: str) -> None:
    assert_same(text)


def _mutations() -> list[str]:
    """Each bundled spec with one line cut, doubled or re-indented: near misses of real files."""
    out = []
    for path in sorted(ROOT.glob("specs/*.yaml"))[:3]:
        lines = path.read_text("utf-8").splitlines()
        for i in range(0, len(lines), 3):
            out.append("\n".join(lines[:i] + lines[i + 1 :]) + "\n")
            out.append("\n".join([*lines[:i], " " + lines[i], *lines[i + 1 :]]) + "\n")
            out.append("\n".join([*lines[: i + 1], lines[i], *lines[i + 1 :]]) + "\n")
    return out


def test_near_misses_of_real_specs() -> None:
    answered = sum(assert_same(text) for text in _mutations())
    assert answered > 20  # most stay in the subset; the rest went to the other readers


def test_a_suppression_inside_a_value_is_text() -> None:
    from jobc.lint import suppress

    text = textwrap.dedent(
        """\
        a: 'x # jobc: ignore[JC201]'  # jobc: ignore[JC202]
        b: x#jobc:ignore[JC203]
        c: [y, "z # jobc: ignore[JC204]"] # jobc: ignore[JC205]
        """
    )
    assert plainyaml.parse(text) is not None
    assert [s.codes for s in suppress.parse(text)] == [("JC202",), ("JC205",)]
