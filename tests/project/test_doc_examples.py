"""The console blocks of README.md and docs/ are what their commands print today."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobc.lint.pipeline import lint_file
from tools import doc_examples, regen
from tools.doc_examples import ROOT, blocks, regenerate, unmarked

REGENERATE = "uv run python tools/regen.py docs"


@pytest.mark.parametrize("page", doc_examples.pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_console_block_is_generated_or_marked_illustrative(page: Path) -> None:
    assert unmarked(page) == [], (
        f"{page.relative_to(ROOT)}: console blocks at lines {unmarked(page)} need "
        "`<!-- run: COMMAND -->` (then run `" + REGENERATE + "`) or `<!-- illustrative: WHY -->` "
        "on the line before them"
    )


def test_the_readme_tour_is_generated() -> None:
    # The tour's lint output and the compiled script's head are the blocks that went stale before.
    marks = [
        b.arg for b in blocks(ROOT.joinpath("README.md").read_text("utf-8").splitlines()) if b.kind == "run"
    ]
    assert any(m.startswith("jobc lint jobs/") for m in marks), marks
    assert any(m.startswith("jobc compile ") for m in marks), marks


PAGE = """\
# A page

<!-- file: jobs/a.yaml -->
```yaml
version: 1
name: a
slurm: {time: "01:00:00"}
resources: {nodes: 2, gpus_per_node: 8, tasks_per_node: 1}
launch: {mode: srun, program: train.py}
```

<!-- run: jobc lint --select JC101 jobs/a.yaml -->
```console
$ jobc lint --select JC101 jobs/a.yaml
out of date
```

<!-- illustrative: needs a Slurm cluster -->
```console
$ sbatch job.sh
Submitted batch job 17
```

<!-- run: printf 'x\\ny\\n' -->
```text
old
```
"""


def test_regenerate_runs_the_command_in_a_directory_with_the_page_files(tmp_path: Path) -> None:
    new = regenerate(PAGE, tmp_path)
    assert "out of date" not in new
    assert re.search(
        r"^\$ jobc lint --select JC101 jobs/a\.yaml\njobs/a\.yaml:4:\d+: JC101 \[error\]", new, re.M
    )
    # illustrative blocks are left as written; other languages get the bare output
    assert "$ sbatch job.sh\nSubmitted batch job 17\n" in new
    assert "```text\nx\ny\n```" in new
    assert regenerate(new, tmp_path) == new


def test_a_new_unmarked_console_block_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE + "\n```console\n$ jobc plan x.yaml\n```\n", encoding="utf-8")
    assert unmarked(page) == [len(PAGE.splitlines()) + 2]  # the fence after one blank line


def test_regen_checks_and_rewrites_a_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- run: echo fresh -->\n```console\n$ echo fresh\nstale\n```\n", encoding="utf-8")
    target = regen.Target("docs", "one page", lambda: {page: regenerate(page.read_text("utf-8"))})
    assert regen.main(["--check"], targets=[target]) == 1
    assert "stale" in page.read_text("utf-8")
    assert regen.main([], targets=[target]) == 0
    assert page.read_text("utf-8") == "<!-- run: echo fresh -->\n```console\n$ echo fresh\nfresh\n```\n"
    assert regen.main(["--check"], targets=[target]) == 0
    capsys.readouterr()


def test_readme_suppression_example_suppresses_something(tmp_path: Path) -> None:
    """Copied as shown, the example's `jobc: ignore[...]` is used, so it raises no JC007."""
    lines = ROOT.joinpath("README.md").read_text("utf-8").splitlines()
    (example,) = [
        "\n".join(lines[b.start : b.end]) + "\n"
        for b in blocks(lines)
        if b.language == "yaml" and any("# jobc: ignore[" in line for line in lines[b.start : b.end])
    ]
    spec = tmp_path / "spec.yaml"
    spec.write_text(example, encoding="utf-8")
    assert [f.code for f in lint_file(spec).findings] == []
    (code,) = re.findall(r"# jobc: ignore\[(JC\d+)\]", example)
    spec.write_text(re.sub(r"\s*# jobc: ignore\[.*", "", example), encoding="utf-8")
    assert code in [f.code for f in lint_file(spec).findings], "the suppression silences nothing"
