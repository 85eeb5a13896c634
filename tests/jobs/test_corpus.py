"""The corpus: small excerpts of real failure logs (tests/jobs/corpus/, each naming its source),
each with the class, rank and node of its first finding. One test scores them all."""

from __future__ import annotations

import re
from pathlib import Path

from jobc.jobs.signatures import CATALOGUE
from jobc.jobs.triage import triage_files

CORPUS = Path(__file__).with_name("corpus")
_EXPECT = re.compile(r"^# expect: class=(\S+) rank=(\S+) node=(\S+)$", re.M)


def _cases() -> list[tuple[Path, str, int | None, str | None, str]]:
    cases = []
    for path in sorted(CORPUS.glob("*.log")):
        head, _, body = path.read_text(encoding="utf-8").partition("---\n")
        m = _EXPECT.search(head)
        assert m is not None, f"{path.name}: no '# expect:' line"
        assert "# source: " in head, f"{path.name}: no '# source:' line"
        rank = None if m.group(2) == "-" else int(m.group(2))
        node = None if m.group(3) == "-" else m.group(3)
        cases.append((path, m.group(1), rank, node, body))
    return cases


def test_the_corpus_is_large_enough_and_covers_every_class() -> None:
    cases = _cases()
    assert len(cases) >= 40
    covered = {c[1] for c in cases}
    assert covered >= {s.cls for s in CATALOGUE} - {"exit_code"} | {"exit_code"}


def test_triage_names_the_first_cause_of_every_excerpt(tmp_path: Path) -> None:
    wrong = []
    for path, cls, rank, node, body in _cases():
        log = tmp_path / path.name
        log.write_text(body, encoding="utf-8")
        d = triage_files([log])
        if not d.findings:
            wrong.append(f"{path.name}: nothing found; expected {cls}")
            continue
        first = d.findings[0]
        got = (first.cls, first.rank, first.node)
        if got != (cls, rank, node):
            wrong.append(f"{path.name}: got {got}, expected {(cls, rank, node)}: {first.summary[:160]}")
    assert not wrong, "\n".join(wrong)


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
