"""Write triage's corpus (tests/jobs/corpus/) as a batch directory: logs/ and expected.tsv.

Each excerpt's body (what follows its `---` line) becomes logs/NAME, and its `# expect:` header a
row of expected.tsv (`file  first_cause_class  first_failing_rank  first_failing_node  key_line
diagnosis`, '?' where the excerpt shows no rank or node), the layout fresh batches of real logs
are gathered in, so the corpus and a fresh batch are scored by the same rules.

    uv run python tools/triage_corpus.py OUT_DIR
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "jobs" / "corpus"
_EXPECT = re.compile(r"^# expect: class=(\S+) rank=(\S+) node=(\S+) key=([0-9]+)$", re.M)


def write(out: Path) -> int:
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    rows = ["file\tfirst_cause_class\tfirst_failing_rank\tfirst_failing_node\tkey_line\tdiagnosis"]
    for path in sorted(CORPUS.glob("*.log")):
        head, _, body = path.read_text(encoding="utf-8").partition("---\n")
        m = _EXPECT.search(head)
        if m is None:
            raise SystemExit(f"{path.name}: no complete '# expect:' line")
        cls, rank, node, key = m.groups()
        (logs / path.name).write_text(body, encoding="utf-8")
        source = head.split("# source: ", 1)[-1].split("\n", 1)[0]
        rows.append(
            "\t".join(
                [path.name, cls, "?" if rank == "-" else rank, "?" if node == "-" else node, key, source]
            )
        )
    (out / "expected.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(f"{write(Path(sys.argv[1]))} excerpts written to {sys.argv[1]}")
