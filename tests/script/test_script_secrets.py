"""JC702 in an sbatch script as in a spec: the same secrets are errors in both, and never shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobc.core.diagnostics import Severity
from jobc.lint.config import Config
from jobc.lint.scripts import lint_path
from tests.support.lint import lint_text

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
HF = "hf_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --time=01:00:00\n"
# (name, a script line, the secret in it, the same thing in a spec)
CASES = [
    (
        "git-clone-url",
        "git clone https://me:s3cretPassw0rd@git.example.com/x.git",
        "s3cretPassw0rd",
        {"launch": {"setup": ["git clone https://me:s3cretPassw0rd@git.example.com/x.git"]}},
    ),
    (
        "curl-bearer",
        f'curl -H "Authorization: Bearer {JWT}" https://x.io',
        JWT,
        {"launch": {"setup": [f'curl -H "Authorization: Bearer {JWT}" https://x.io']}},
    ),
    (
        "database-url",
        "export DATABASE_URL=postgres://u:pw0rd@host/db",
        "pw0rd",
        {"env": {"DATABASE_URL": "postgres://u:pw0rd@host/db"}},
    ),
    ("numeric-password", "export DB_PASSWORD=12345678", "12345678", {"env": {"DB_PASSWORD": 12345678}}),
    ("hf-token", f"export HF_TOKEN={HF}", HF[3:], {"env": {"HF_TOKEN": HF}}),
    ("wandb-key", "export WANDB_API_KEY=abcdef0123", "abcdef0123", {"env": {"WANDB_API_KEY": "abcdef0123"}}),
    (
        "token-flag",
        "srun python train.py --token s3cretvalue",
        "s3cretvalue",
        {"launch": {"args": ["--token", "s3cretvalue"]}},
    ),
    (
        "directive",
        f"#SBATCH --comment={HF}",
        HF[3:],
        {"slurm": {"extra": {"comment": HF}}},
    ),
]


def _script(tmp_path: Path, line: str) -> tuple[Path, int]:
    if line.startswith("#SBATCH"):
        text = HEAD + line + "\nsrun python train.py\n"
        number = HEAD.count("\n") + 1
    else:
        text = HEAD + "module load cuda\n" + line + "\nsrun python train.py\n"
        number = HEAD.count("\n") + 2
    if line.startswith("srun"):
        text = HEAD + line + "\n"
        number = HEAD.count("\n") + 1
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return path, number


@pytest.mark.parametrize(("line", "secret"), [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_secret_in_a_script_is_an_error_at_its_line(tmp_path: Path, line: str, secret: str) -> None:
    path, number = _script(tmp_path, line)
    result = lint_path(path, config=Config())
    found = [f for f in result.findings if f.code == "JC702"]
    assert found, [str(f) for f in result.findings]
    assert {f.span.line for f in found} == {number}
    assert all(f.severity == Severity.ERROR for f in found)
    for finding in result.findings:
        assert secret not in finding.message, finding


@pytest.mark.parametrize(("section", "secret"), [(c[3], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_the_same_secret_in_a_spec_is_an_error(
    tmp_path: Path, section: dict[str, object], secret: str
) -> None:
    data: dict[str, object] = {
        "version": 1,
        "name": "s",
        "resources": {"nodes": 1, "gpus_per_node": 8},
        "launch": {"program": "train.py"},
    }
    for key, value in section.items():
        if key == "launch":
            data["launch"] = {"program": "train.py", **value}  # type: ignore[dict-item]
        else:
            data[key] = value
    result = lint_text(json.dumps(data), tmp_path)
    found = [f for f in result.findings if f.code == "JC702"]
    assert found, [str(f) for f in result.findings]
    assert all(f.severity == Severity.ERROR for f in found)
    for finding in result.findings:
        assert secret not in finding.message, finding


def test_directive_messages_mask_the_secret(tmp_path: Path) -> None:
    # JC801 (a directive after the first command) and JC107 ($VAR in a directive) quote the
    # directive's text: the token in it is masked as JC702 masks it
    path = tmp_path / "job.sh"
    path.write_text(
        HEAD + f"#SBATCH --comment=$USER-{HF}\nmodule load cuda\n#SBATCH --comment={HF}\nsrun python t.py\n",
        encoding="utf-8",
    )
    result = lint_path(path, config=Config())
    assert {"JC107", "JC702", "JC801"} <= {f.code for f in result.findings}
    for finding in result.findings:
        assert HF[3:] not in finding.message, finding
    assert any("hf_…" in f.message for f in result.findings if f.code == "JC801")


@pytest.mark.parametrize(
    ("line", "fires"),
    [
        # a word that says there is no key: what a client passes to a local server without one
        ('export LLM_API_URL="http://127.0.0.1:8000/v1" LLM_API_KEY=local', False),
        ("export OPENAI_API_KEY=EMPTY", False),
        ("export OPENAI_API_KEY=dummy", False),
        # near miss: a word that is no such word is still a literal key
        ("export LLM_API_KEY=locally-s3cret", True),
        ("export OPENAI_API_KEY=emptyish", True),
    ],
)
def test_a_value_that_says_there_is_no_key_is_no_secret(tmp_path: Path, line: str, fires: bool) -> None:
    path, number = _script(tmp_path, line)
    found = [f.span.line for f in lint_path(path, config=Config()).findings if f.code == "JC702"]
    assert found == ([number] if fires else [])
