"""Regenerate every generated file of the repository, or check that each is current.

    uv run python tools/regen.py            # rewrite what is stale, name what it wrote
    uv run python tools/regen.py --check    # change nothing; name what is stale, exit 1
    uv run python tools/regen.py goldens    # only some targets (see --help)

The targets, in the order they are made (a later one reads what an earlier one wrote):

- `model`: `schema/jobc.schema.json`, its packaged copy `src/jobc/data/jobc.schema.json` and
  `src/jobc/spec/plain.py`, from the pydantic models in `jobc.spec.model`, and
  `src/jobc/data/literals.py`, the packaged JSON a lint reads as Python literals;
- `registry`: `src/jobc/lint/rules/registry.py`, the table of every rule module under
  `src/jobc/lint/rules/` (`tools/rule_registry.py`), which lint reads instead of importing them;
- `patterns`: `src/jobc/core/compiled.py` and `src/jobc/tables/compiled.py`, the regular
  expressions of the lint path compiled for this Python's engine (`tools/patterns.py`);
- `rules`: `docs/rules.md`, from the rules' metadata and docstrings (`jobc rules --format markdown`);
- `spec`: `docs/spec.md`, every field of a spec with its type, default, what it compiles to and
  the rules that read it (`jobc schema --format markdown`);
- `triage`: `docs/triage.md`, from triage's catalogue of failure signatures
  (`jobc triage --signatures --format markdown`);
- `goldens`: `golden/<name>.sbatch` and `golden/<name>.attach.sh`, every job spec of `specs/`
  compiled (a golden whose spec is gone is removed);
- `docs`: the generated blocks of `README.md` and `docs/` (`tools/doc_examples.py`), which may
  show the schema, the rules and the goldens.

The test suite (`tests/project/test_generated.py`) and `.ci/checks` run the same check. Review
the diff after a write: a changed golden is a changed script for every user of that spec.
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: `tools` as a package, from the checkout
    sys.path.insert(0, str(ROOT))

#: The job id the attach goldens are compiled for.
ATTACH_JOB = "4242"


@dataclass(frozen=True)
class Target:
    """Some generated files: what each should hold now (None: it should not exist)."""

    name: str
    summary: str
    wanted: Callable[[], dict[Path, str | None]]


def _model() -> dict[Path, str | None]:
    from jobc.spec import generate

    return dict(generate.wanted())


def _registry() -> dict[Path, str | None]:
    from tools import rule_registry

    return dict(rule_registry.wanted())


def _patterns() -> dict[Path, str | None]:
    from tools import patterns

    return dict(patterns.wanted())


def _rules() -> dict[Path, str | None]:
    from jobc.commands.rules import markdown

    return {ROOT / "docs" / "rules.md": markdown()}


def _spec() -> dict[Path, str | None]:
    from jobc.lint.reference import markdown

    return {ROOT / "docs" / "spec.md": markdown()}


def _triage() -> dict[Path, str | None]:
    from jobc.jobs.catalogue_doc import listing

    return {ROOT / "docs" / "triage.md": listing("markdown")}


def goldens(specs: Path = ROOT / "specs", golden: Path = ROOT / "golden") -> dict[Path, str | None]:
    """The batch and attach script of every job spec (profiles are not jobs), by the spec's name."""
    from jobc.compile import compile_attach, compile_batch
    from jobc.lint.pipeline import lint_file

    wanted: dict[Path, str | None] = dict.fromkeys([*golden.glob("*.sbatch"), *golden.glob("*.attach.sh")])
    for path in sorted(specs.glob("*.yaml")):
        result = lint_file(path, display=path.name)
        if result.errors or result.context is None or result.spec is None:
            problems = "; ".join(map(str, result.errors)) or "not a job spec"
            raise SystemExit(f"regen: {path.relative_to(ROOT)} does not compile: {problems}")
        name = result.spec.name
        wanted[golden / f"{name}.sbatch"] = compile_batch(result.context)
        wanted[golden / f"{name}.attach.sh"] = compile_attach(result.context, ATTACH_JOB)
    return wanted


def _docs() -> dict[Path, str | None]:
    from tools import doc_examples

    return {page: doc_examples.regenerate(page.read_text("utf-8")) for page in doc_examples.pages()}


TARGETS = (
    Target("model", "the JSON Schema (both copies), jobc.spec.plain and jobc.data.literals", _model),
    Target("registry", "src/jobc/lint/rules/registry.py", _registry),
    Target("patterns", "src/jobc/core/compiled.py and src/jobc/tables/compiled.py", _patterns),
    Target("rules", "docs/rules.md", _rules),
    Target("spec", "docs/spec.md, the spec reference", _spec),
    Target("triage", "docs/triage.md", _triage),
    Target("goldens", "golden/*.sbatch and golden/*.attach.sh", goldens),
    Target("docs", "the generated blocks of README.md and docs/", _docs),
)


def _current(path: Path) -> str | None:
    return path.read_text("utf-8") if path.is_file() else None


def stale(wanted: dict[Path, str | None]) -> list[Path]:
    """The files that do not hold what they should, in order."""
    return [path for path, text in wanted.items() if _current(path) != text]


def diff(path: Path, text: str | None) -> str:
    """What regenerating `path` would change, as a unified diff."""
    old, new = (_current(path) or "").splitlines(keepends=True), (text or "").splitlines(keepends=True)
    name = str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return "".join(difflib.unified_diff(old, new, f"{name} (committed)", f"{name} (regenerated)"))


def _write(path: Path, text: str | None) -> None:
    if text is None:
        path.unlink()
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def main(argv: Sequence[str] | None = None, targets: Sequence[Target] = TARGETS) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/regen.py",
        description="Regenerate every generated file of the repository (or check that each is current).",
        epilog="targets: " + "; ".join(f"{t.name}: {t.summary}" for t in targets),
    )
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file is stale")
    parser.add_argument("only", nargs="*", metavar="TARGET", help="only these targets (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.only) - {t.name for t in targets})
    if unknown:
        parser.error(f"no target {unknown[0]!r} (choose from {', '.join(t.name for t in targets)})")
    chosen = [t for t in targets if not args.only or t.name in args.only]
    found = 0
    for index, target in enumerate(chosen):
        wanted = target.wanted()
        for path in stale(wanted):
            found += 1
            if args.check:
                print(f"stale: {_shown(path)} ({target.name}; run `uv run python tools/regen.py`)")
            else:
                _write(path, wanted[path])
                print(f"{'removed' if wanted[path] is None else 'wrote'} {_shown(path)}")
        if found and not args.check and target.name in ("model", "registry") and index + 1 < len(chosen):
            # The rest compiles specs with the plain classes (and lists the rules from the
            # registry) this process imported before they were rewritten: a fresh interpreter
            # makes them with the new ones.
            rest = [t.name for t in chosen[index + 1 :]]
            return subprocess.run([sys.executable, __file__, *rest], check=False).returncode
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
