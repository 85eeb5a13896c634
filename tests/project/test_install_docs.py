"""The install instructions name what exists: the repository jobc comes from, and its wheel.

jobc is not on PyPI, so a bare `pip install jobc` would install nothing, or someone else's
package. Every place that names the repository (pyproject's URLs, the README's install and
pre-commit snippets, the hook manifest's comment) must name the same one.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import InvalidRequirement, Requirement

from tests.support import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
REPOSITORY = PYPROJECT["project"]["urls"]["Repository"]
VERSION = PYPROJECT["project"]["version"]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def readme() -> str:
    return (ROOT / "README.md").read_text("utf-8")


def install_commands(text: str) -> list[list[str]]:
    """`pip install …` and `uv tool install …` lines of the page's sh blocks, as words."""
    found = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:2] == ["pip", "install"] or words[:3] == ["uv", "tool", "install"]:
                found.append(words)
    return found


def test_the_repository_is_a_public_url() -> None:
    assert re.fullmatch(r"https://github\.com/[\w.-]+/jobc", REPOSITORY), REPOSITORY


def test_readme_says_how_to_install_from_the_repository_and_the_wheel() -> None:
    commands = install_commands(readme())
    assert commands, "README.md shows no install command"
    targets = [words[-1] for words in commands]
    assert f"git+{REPOSITORY}" in targets  # uv tool install
    requirements = [Requirement(t) for t in targets if " @ " in t]
    assert {(r.name, r.url) for r in requirements} >= {("jobc", f"git+{REPOSITORY}")}
    assert any(r.extras == {"runtime"} for r in requirements), "no way to install the runtime extra"
    wheel = f"jobc-{VERSION}-py3-none-any.whl"
    assert any(t.startswith(f"./dist/{wheel}") for t in targets), f"README should install {wheel}"
    assert f"writes dist/{wheel}" in readme()


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_no_page_installs_jobc_by_a_name_that_is_not_published(page: Path) -> None:
    for words in install_commands(page.read_text("utf-8")):
        for target in words[3 if words[0] == "uv" else 2 :]:
            if target.startswith("-"):
                continue
            try:
                requirement = Requirement(target)
            except InvalidRequirement:
                continue  # a path or a URL
            if requirement.name == "jobc":
                assert requirement.url, f"{page.name}: `{' '.join(words)}` installs jobc from PyPI"
    for inline in re.findall(r"`(pip install [^`]*)`", page.read_text("utf-8")):
        assert " @ " in inline or "/" in inline or "jobc" not in inline, f"{page.name}: `{inline}`"


def test_pre_commit_snippets_name_the_repository() -> None:
    readme_repos = re.findall(r"^\s*- repo: (\S+)", readme(), re.M)
    assert readme_repos == [REPOSITORY]
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")
    assert re.findall(r"repo: (\S+)", manifest) == [REPOSITORY]
    hooks = yaml.safe_load(manifest)
    assert [hook["id"] for hook in hooks] == ["jobc-lint", "jobc-fix"]
    for hook in hooks:
        assert f"- id: {hook['id']}" in readme()
    assert f"rev: v{VERSION}" in readme()


def test_every_uv_install_the_docs_show_compiles_bytecode() -> None:
    """A fresh process per commit pays for every module compiled from source: uv installs
    compile only when asked (pip compiles by default), and the README says why."""
    for page in DOCS:
        for words in install_commands(page.read_text("utf-8")):
            if words[:2] == ["uv", "tool"]:
                assert "--compile-bytecode" in words, (page.name, words)
    text = readme()
    assert "UV_COMPILE_BYTECODE=1" in text
    assert "PYTHONDONTWRITEBYTECODE" in text
