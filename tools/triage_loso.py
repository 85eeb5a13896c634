"""Leave-one-source-out over triage's corpus: does triage still answer right, or honestly say it
does not know, when the signatures made for one source are taken away?

For each excerpt of tests/jobs/corpus/ (each names one public source), the signatures that fire
on it and on no other excerpt are the ones that exist only for that source. They are dropped from
the catalogue, and the excerpt is read again with what is left. The answer is

- `right`: the first finding's class, rank and node are still the expected ones and some
  finding cites the key line (as the corpus test checks);
- `honest`: the first finding is of class `unknown` at low confidence (the fallback lexicon
  found the line, nothing claimed a class);
- `wrong-medium` / `wrong-low`: another class, said with medium or low confidence;
- `sure-and-wrong`: another class at high confidence (the outcome precision forbids);
- `nothing`: no finding at all.

Excerpts whose signatures all fire elsewhere too are `shared`: dropping nothing, they measure
nothing here, and are counted apart.

    uv run python tools/triage_loso.py [-v]
"""

from __future__ import annotations

import io
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jobc.jobs.events import Scanner  # noqa: E402
from jobc.jobs.signatures import CATALOGUE  # noqa: E402
from jobc.jobs.triage import scan, triage_files  # noqa: E402

CORPUS = ROOT / "tests" / "jobs" / "corpus"
_EXPECT = re.compile(r"^# expect: class=(\S+) rank=(\S+) node=(\S+) key=([0-9]+)$", re.M)


def fired(body: str) -> set[str]:
    scanner = Scanner()
    scan([("x", io.BytesIO(body.encode("utf-8")))], scanner)
    scanner.diagnosis(None, None, None, ["x"])
    codes = {e.sig.code for e in scanner.events if e.sig is not None}
    return codes | ({"G306"} if any(e.fields.get("abort") for e in scanner.events) else set())


def grade(path: Path, body: str, drop: set[str], tmp: Path) -> str:
    head = path.read_text(encoding="utf-8").partition("---\n")[0]
    m = _EXPECT.search(head)
    assert m is not None, path.name
    cls, rank, node, key = m.group(1), m.group(2), m.group(3), int(m.group(4))
    log = tmp / path.name
    log.write_text(body, encoding="utf-8")
    d = triage_files([log], catalogue=[s for s in CATALOGUE if s.code not in drop])
    if not d.findings:
        return "nothing"
    first = next((f for f in d.findings if f.cause), d.findings[0])
    if first.cls != cls:
        if first.cls == "unknown" and first.confidence == "low":
            return "honest"
        return {"high": "sure-and-wrong", "medium": "wrong-medium"}.get(first.confidence, "wrong-low")
    seen = [first] + [f for f in d.findings if f.cls == "collective_timeout" == cls]
    placed = rank == "-" or any(str(f.rank) == rank for f in seen)
    noded = node == "-" or any(f.node == node for f in seen)
    cited = key in {ev.line for f in d.findings for ev in f.evidence}
    return "right" if placed and noded and cited else "right-class"


def outcomes() -> dict[str, str]:
    """Every excerpt's outcome (see the module's docstring), by file name."""
    return {path.name: outcome for path, outcome, _only in _run()}


def _run() -> list[tuple[Path, str, set[str]]]:
    bodies = {p: p.read_text(encoding="utf-8").partition("---\n")[2] for p in sorted(CORPUS.glob("*.log"))}
    codes = {p: fired(b) for p, b in bodies.items()}
    counts = Counter(c for cs in codes.values() for c in cs)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, body in bodies.items():
            only = {c for c in codes[path] if counts[c] == 1}
            out.append((path, grade(path, body, only, Path(tmp)) if only else "shared", only))
    return out


def main() -> None:
    verbose = "-v" in sys.argv
    tally: Counter[str] = Counter()
    for path, outcome, only in _run():
        tally[outcome] += 1
        if verbose or outcome not in ("right", "shared"):
            print(f"{path.name}: {outcome} (dropped {', '.join(sorted(only)) or 'nothing'})")
    measured = sum(n for k, n in tally.items() if k != "shared")
    print(", ".join(f"{k} {n}" for k, n in sorted(tally.items())))
    ok = tally["right"] + tally["honest"]
    print(f"right or honestly unknown: {ok}/{measured} excerpts whose source has signatures of its own")


if __name__ == "__main__":
    main()
