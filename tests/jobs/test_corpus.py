"""The corpus: small excerpts of real failure logs (tests/jobs/corpus/, each naming its source),
each with the class, rank and node of its first finding and the key line (the line that states
the error, counted from the line after `---`), which some finding's evidence must cite. One test
scores them all."""

from __future__ import annotations

import re
from pathlib import Path

from jobc.jobs.signatures import CATALOGUE
from jobc.jobs.triage import triage_files

CORPUS = Path(__file__).with_name("corpus")
_EXPECT = re.compile(r"^# expect: class=(\S+) rank=(\S+) node=(\S+) key=([0-9]+)$", re.M)


def _cases() -> list[tuple[Path, str, int | None, str | None, str]]:
    return [(path, cls, rank, node, body) for path, cls, rank, node, _key, body in _keyed()]


def _keyed() -> list[tuple[Path, str, int | None, str | None, int, str]]:
    cases = []
    for path in sorted(CORPUS.glob("*.log")):
        head, _, body = path.read_text(encoding="utf-8").partition("---\n")
        m = _EXPECT.search(head)
        assert m is not None, f"{path.name}: no '# expect:' line with class, rank, node and key"
        assert "# source: " in head, f"{path.name}: no '# source:' line"
        rank = None if m.group(2) == "-" else int(m.group(2))
        node = None if m.group(3) == "-" else m.group(3)
        key = int(m.group(4))
        assert 1 <= key <= len(body.splitlines()), f"{path.name}: key line {key} is not in the excerpt"
        cases.append((path, m.group(1), rank, node, key, body))
    return cases


def test_the_corpus_is_large_enough_and_covers_every_class() -> None:
    cases = _cases()
    assert len(cases) >= 40
    covered = {c[1] for c in cases}
    assert covered >= {s.cls for s in CATALOGUE} - {"exit_code"} | {"exit_code"}


def test_triage_names_the_first_cause_of_every_excerpt(tmp_path: Path) -> None:
    wrong = []
    for path, cls, rank, node, key, body in _keyed():
        log = tmp_path / path.name
        log.write_text(body, encoding="utf-8")
        d = triage_files([log])
        if not d.findings:
            wrong.append(f"{path.name}: nothing found; expected {cls}")
            continue
        first = d.findings[0]
        # a collective timeout's reporting rank is a victim: its rank and node may be any timeout's
        seen = [first] + [
            f for f in d.findings if f.cls == "collective_timeout" and cls == "collective_timeout"
        ]
        placed = (rank is None and first.rank is None) or any(
            f.rank == rank for f in seen if rank is not None
        )
        noded = (node is None and first.node is None) or any(f.node == node for f in seen if node is not None)
        if first.cls != cls or not placed or not noded:
            got = (first.cls, first.rank, first.node)
            wrong.append(f"{path.name}: got {got}, expected {(cls, rank, node)}: {first.summary[:160]}")
        cited = {ev.line for f in d.findings for ev in f.evidence}
        if key not in cited:
            wrong.append(f"{path.name}: key line {key} is in no finding's evidence (cited: {sorted(cited)})")
        if first.cls != cls and first.confidence == "high":
            wrong.append(f"{path.name}: a wrong class ({first.cls}) at high confidence")
    assert not wrong, "\n".join(wrong)


def test_the_statement_line_comes_first_in_the_evidence(tmp_path: Path) -> None:
    """The first cause's first evidence line is the line that states it: never a traceback header,
    never a table's `Root Cause` banner."""
    headers = ("Traceback (most recent call last)", "Root Cause (first observed failure)")
    for path, _cls, _rank, _node, _key, body in _keyed():
        log = tmp_path / path.name
        log.write_text(body, encoding="utf-8")
        d = triage_files([log])
        if d.findings and d.findings[0].evidence:
            assert not d.findings[0].evidence[0].text.strip().endswith(headers), path.name


def test_every_signature_fires_somewhere_in_the_corpus() -> None:
    import io

    from jobc.jobs.triage import Scanner, scan

    seen: set[str] = set()
    for _path, _cls, _rank, _node, body in _cases():
        scanner = Scanner()
        scan([("x", io.BytesIO(body.encode("utf-8")))], scanner)
        scanner.diagnosis(None, None, None, ["x"])
        seen |= {e.sig.code for e in scanner.events if e.sig is not None}
        seen |= {"G306" for e in scanner.events if e.fields.get("abort")}
    assert {s.code for s in CATALOGUE} - seen == set()


def test_advice_for_a_log_jobc_did_not_compile_names_no_spec_field(tmp_path: Path) -> None:
    from jobc.jobs.judge import ADVICE

    # a spec field is a section and a field (`launch.nproc`), not a file a log names (`launch.py`)
    field = re.compile(
        r"(?<![\w/.])(?:slurm|launch|resources|parallelism|resilience|fabric|storage)\.(?!py\b)[a-z_]"
    )
    for cls, (plain, _compiled) in ADVICE.items():
        assert not field.search(plain), (cls, plain)
    for _path, _cls, _rank, _node, body in _cases():
        log = tmp_path / "x.log"
        log.write_text(body, encoding="utf-8")
        d = triage_files([log])
        if d.compiled:
            continue
        for f in d.findings:
            assert not field.search(f.advice), f.advice
            assert not field.search(f.summary), f.summary


def test_leaving_a_source_out_gives_no_sure_wrong_answer_and_never_nothing() -> None:
    """tools/triage_loso.py: with the signatures made only for one source taken away, its excerpt
    is still read right, or said to be `unknown`, or given another class without high confidence;
    never a wrong class at high confidence, never no finding at all."""
    from collections import Counter

    from tools.triage_loso import outcomes

    tally = Counter(outcomes().values())
    assert tally["sure-and-wrong"] == 0, tally
    assert tally["nothing"] == 0, tally
    assert tally["right"] + tally["honest"] >= 20, tally
