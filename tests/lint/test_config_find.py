"""Finding the configuration without parsing every pyproject.toml on the way."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from jobc.lint import config

# every TOML spelling of a [tool.jobc] table, each with a setting in it
WITH_TOOL_JOBC = [
    "[tool.jobc]\nstrict = true\n",
    '[tool.jobc.severity]\nJC101 = "info"\n',
    " [ tool . jobc ]\nstrict = true\n",
    '[tool."jobc"]\nstrict = true\n',
    '["tool".jobc]\nstrict = true\n',
    "['tool'.'jobc']\nstrict = true\n",
    "[tool]\njobc = {strict = true}\n",
    "[tool]\njobc.strict = true\n",
    "tool.jobc.strict = true\n",
    "tool = {jobc = {strict = true}}\n",
    '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n\n[tool.jobc]\nstrict = true\n',
]
WITHOUT_TOOL_JOBC = [
    '[project]\nname = "jobc"\n\n[project.scripts]\njobc = "jobc.cli:main"\n',
    "[tool.ruff]\nline-length = 100\n# [tool.jobc] is not used here\n",
    "[tool.jobcx]\na = 1\n",
    "tool.ruff.line-length = 100\n",
]


@pytest.mark.parametrize("text", WITH_TOOL_JOBC)
def test_every_spelling_of_tool_jobc_is_found(tmp_path: Path, text: str) -> None:
    assert "jobc" in tomllib.loads(text)["tool"]
    (tmp_path / "pyproject.toml").write_text(text)
    assert config.find(tmp_path) == tmp_path / "pyproject.toml"
    assert config.load(tmp_path / "pyproject.toml", {"JC101"}).source == str(tmp_path / "pyproject.toml")


@pytest.mark.parametrize("text", WITHOUT_TOOL_JOBC)
def test_a_pyproject_without_tool_jobc_is_passed_over(tmp_path: Path, text: str) -> None:
    assert "jobc" not in tomllib.loads(text).get("tool", {})
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(text)
    assert config.find(tmp_path) is None


@pytest.mark.parametrize("text", ['tool = "jobc"\n', "tool = 5\n", 'tool = ["jobc"]\n'])
def test_a_tool_key_that_is_not_a_table_holds_no_settings(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from jobc.cli import main

    # `"jobc" in "jobc"` was true, and the string's .get() an internal error
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert config.find(tmp_path) is None
    spec = tmp_path / "s.yaml"
    spec.write_text("version: 1\nname: x\n", encoding="utf-8")
    assert main(["lint", str(spec)]) == 1
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("key", ["profile", "ledger"])
def test_a_path_setting_with_a_nul_is_refused(tmp_path: Path, key: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text(f'[tool.jobc]\n{key} = "a\\u0000b"\n', encoding="utf-8")
    with pytest.raises(config.ConfigError, match=f"{key} must be"):
        config.load(path, set())
