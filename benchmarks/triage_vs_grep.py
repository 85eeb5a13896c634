"""`jobc triage` against `grep -c` on the same generated log, at 100 MB and 1 GB.

The log is what a long multi-node job writes: progress lines from several frameworks, with torch's
and srun's prefixes, a NCCL INFO line now and then, and at the end one rank's traceback, the
others' collective timeouts and srun's reports. Each size is timed in one run: `jobc triage FILE`
(a fresh process), `grep -c -F -f KEYWORDS FILE` with the same literal keywords triage's
pre-filter looks for, and plain `grep -c Traceback FILE`, each after one untimed run that puts the
file in the page cache. The ratio is triage / grep; peak memory is the triage process's maximum
resident set (from wait4), which should not grow with the file.

    uv run python benchmarks/triage_vs_grep.py [--sizes 100,1024] [--dir DIR] [--json]

The 1 GB file needs that much free space in DIR (default: the system's temporary directory); it
is deleted afterwards. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jobc.jobs.signatures import keywords  # noqa: E402

PROGRESS = [
    "{t}: [rank{r}]:{{'loss': 1.{i:04d}, 'grad_norm': 0.8123, 'learning_rate': 1.9e-05, 'epoch': 0.12}}\n",
    "[2024-05-01 12:00:01,123][INFO] Epoch 3 | step {i}/500000 | loss 2.3456 | lr 3.0e-4 | grad_norm 0.812 "
    "| 112.3 TFLOPS | GPU mem 61.2 GiB\n",
    "Epoch 1:  45%|####5     | {i}/1000000 [12:34<15:21,  5.97it/s, loss=2.31, v_num=0]\n",
    "{t}: iteration {i:>8d}/ 1000000 | consumed samples: {i:>10d} | elapsed time per iteration (ms): 812.3 | "
    "learning rate: 2.999E-04 | global batch size: 1024 | lm loss: 2.417E+00 | grad norm: 0.513 |\n",
]
NCCL_INFO = "gpu-a07:412:790 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0\n"
TAIL = """3: [rank3]: Traceback (most recent call last):
3: [rank3]:   File "/home/me/train.py", line 45, in load_batch
3: [rank3]:     raise ValueError("bad sample")
3: [rank3]: ValueError: bad sample
0: [rank0]:[E601 10:10:10.000000000 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective \
operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600010 milliseconds.
srun: error: gpu-node02: task 3: Exited with exit code 1
srun: error: gpu-node01: tasks 0-2: Terminated
"""


def generate(path: Path, size: int) -> None:
    lines = []
    i = 0
    while sum(map(len, lines)) < 1 << 20:
        i += 1
        lines.append(PROGRESS[i % len(PROGRESS)].format(t=i % 8, r=i % 8, i=i))
        if i % 2000 == 0:
            lines.append(NCCL_INFO)
    block = "".join(lines).encode()
    with path.open("wb") as out:
        written = 0
        while written < size:
            out.write(block)
            written += len(block)
        out.write(TAIL.encode())


def timed(argv: list[str]) -> tuple[float, float, int, str]:
    """Wall time, CPU time (user + system), peak resident memory (KiB) and output of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    out = proc.stdout.read().decode(errors="replace")
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out


def grep_patterns(words: list[str] | tuple[str, ...]) -> list[str]:
    """The keywords as `grep -F -f` lines. grep reads one pattern per line, so a keyword that
    ends in a newline (` -> 1\n`, a line's end) is its text before it; written as it is, the
    empty line after it was an empty pattern, which matches every line and made grep count
    lines instead of searching."""
    return sorted({piece for word in words for piece in word.split("\n") if piece})


def measure(path: Path, words: Path) -> dict[str, float | int | str]:
    triage = [sys.executable, "-m", "jobc", "triage", str(path), "--format", "json"]
    grep_kw = ["grep", "-c", "-F", "-f", str(words), str(path)]
    grep_one = ["grep", "-c", "Traceback", str(path)]
    for argv in (grep_one, grep_kw, triage):
        timed(argv)  # the page cache, and bytecode
    t_triage, c_triage, rss, out = timed(triage)
    t_kw, c_kw, _, _ = timed(grep_kw)
    t_one, _, _, _ = timed(grep_one)
    first = json.loads(out)["findings"][0]
    return {
        "size_mb": round(path.stat().st_size / 2**20),
        "triage_s": round(t_triage, 2),
        "grep_keywords_s": round(t_kw, 2),
        "grep_traceback_s": round(t_one, 2),
        "ratio_keywords": round(t_triage / t_kw, 1),
        "ratio_keywords_cpu": round(c_triage / max(c_kw, 1e-3), 1),
        "ratio_traceback": round(t_triage / t_one, 1),
        "triage_peak_rss_mib": round(rss / 1024, 1),
        "first_cause": f"{first['class']} rank {first['rank']} on {first['node']}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1024", help="sizes in MiB, comma-separated")
    parser.add_argument("--dir", default=None, help="where to write the generated logs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        words = Path(tmp) / "keywords.txt"
        words.write_text("\n".join(grep_patterns(keywords())) + "\n", encoding="utf-8")
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"job-{size}.out"
            generate(path, size * 2**20)
            rows.append(measure(path, words))
            path.unlink()
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        "| log | jobc triage | grep -c (same keywords) | ratio (wall) | ratio (CPU) | grep -c Traceback | "
        "ratio (wall) | triage peak memory | first cause |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['size_mb']} MiB | {r['triage_s']} s | {r['grep_keywords_s']} s | {r['ratio_keywords']} | "
            f"{r['ratio_keywords_cpu']} | {r['grep_traceback_s']} s | {r['ratio_traceback']} | "
            f"{r['triage_peak_rss_mib']} MiB | {r['first_cause']} |"
        )


if __name__ == "__main__":
    main()
