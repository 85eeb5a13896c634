"""JC702 over a corpus of secrets and of look-alikes, in both directions.

Each row is a section of a spec. A secret must be found (and compile refused); a look-alike
must not be, since a false alarm blocks `jobc compile` as surely as a real one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.lint import lint_text

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
HF = "hf_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"

SECRETS: list[tuple[str, dict[str, Any]]] = [
    ("database-url", {"env": {"DATABASE_URL": "postgres://app:s3cretpw@db.internal:5432/app"}}),
    ("numeric-password", {"env": {"DB_PASSWORD": 123456}}),
    ("secret-key-base", {"env": {"SECRET_KEY_BASE": "f00dfeedc0ffee"}}),
    ("my-pass", {"env": {"MY_PASS": "hunter2"}}),
    ("bearer-jwt-env", {"env": {"AUTH_HEADER": f"Bearer {JWT}"}}),
    ("bearer-args", {"launch": {"args": ["--header", f"Authorization: Bearer {JWT}"]}}),
    ("jwt-args", {"launch": {"args": ["--auth", "Bearer", JWT]}}),
    ("bearer-setup", {"launch": {"setup": [f"curl -H 'Authorization: Bearer {JWT}' https://x.io"]}}),
    ("dash-p-sshpass", {"launch": {"setup": ["sshpass -p hunter2 ssh data-host true"]}}),
    ("docker-login", {"launch": {"setup": ["docker login -u me -p hunter2 registry.io"]}}),
    ("url-password-args", {"launch": {"args": ["--data", "https://me:hunter2@data.example.com/set"]}}),
    ("image-credentials", {"container": {"image": "me:hunter2@nvcr.io#nvidia/pytorch:24.01-py3"}}),
    ("hf-token", {"env": {"HF_TOKEN": HF}}),
    ("nccl-ib-token", {"fabric": {"env": {"NCCL_IB_TOKEN": "abcdef123456"}}}),
    ("password-flag", {"launch": {"args": ["--password=hunter2"]}}),
    ("wandb-key-in-env", {"env": {"WANDB_KEY_FOR_RUN": "cbf31f62664d4b1360b3a78427f7b3c3ed8f0fa8"}}),
]

LOOK_ALIKES: list[tuple[str, dict[str, Any]]] = [
    ("pad-token", {"launch": {"args": ["--pad-token", "<|endoftext|>"]}}),
    ("eos-token", {"launch": {"args": ["--eos-token", "</s>"]}}),
    ("text-key", {"launch": {"args": ["--text-key", "text"]}}),
    ("metric-key", {"launch": {"args": ["--metric-key", "val_loss"]}}),
    ("cache-key", {"env": {"CACHE_KEY": "v1-build"}}),
    ("password-file", {"env": {"DB_PASSWORD_FILE": "secrets/db.txt"}}),
    ("token-path", {"env": {"HF_TOKEN_PATH": "/lustre/me/.hf_token"}}),
    ("url-reference", {"env": {"DATABASE_URL": "postgres://app:${DB_PASSWORD}@db.internal/app"}}),
    ("bearer-reference", {"launch": {"setup": ['curl -H "Authorization: Bearer $API_TOKEN" https://x.io']}}),
    ("mkdir-p", {"launch": {"setup": ["mkdir -p /lustre/me/out"]}}),
    ("port-p", {"launch": {"args": ["-p", "8080"]}}),
    ("ssh-url", {"launch": {"setup": ["git clone git@github.com:org/repo.git"]}}),
    ("image-digest", {"container": {"image": "nvcr.io#nvidia/pytorch@sha256:0123abcd"}}),
    ("mail", {"slurm": {"mail": {"user": "me@example.com", "type": ["END"]}}}),
    ("max-tokens", {"env": {"MAX_TOKENS": "4096"}}),
    (
        "hub-snapshot-path",
        {"env": {"HF_MODEL": "/data/hub/models--org--m/snapshots/cbf31f62664d4b1360b3a78427f7b3c3ed8f0fa8/"}},
    ),
]

BASE: dict[str, Any] = {
    "version": 1,
    "name": "secrets",
    "resources": {"nodes": 1, "gpus_per_node": 8},
    "launch": {"program": "train.py"},
}


def spec(section: dict[str, Any]) -> str:
    data = json.loads(json.dumps(BASE))
    for key, value in section.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key].update(value)
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize("section", [s for _, s in SECRETS], ids=[n for n, _ in SECRETS])
def test_a_secret_is_found(tmp_path: Path, section: dict[str, Any]) -> None:
    result = lint_text(spec(section), tmp_path)
    found = [f for f in result.findings if f.code == "JC702"]
    assert found, [str(f) for f in result.findings]
    for finding in found:
        for secret in ("hunter2", "s3cretpw", JWT, HF[3:], "123456", "f00dfeedc0ffee", "abcdef123456"):
            assert secret not in finding.message


@pytest.mark.parametrize("section", [s for _, s in LOOK_ALIKES], ids=[n for n, _ in LOOK_ALIKES])
def test_a_look_alike_is_not(tmp_path: Path, section: dict[str, Any]) -> None:
    result = lint_text(spec(section), tmp_path)
    assert [str(f) for f in result.findings if f.code == "JC702"] == []


def test_another_findings_source_line_hides_the_secret(tmp_path: Path) -> None:
    import io

    from jobc.lint.report.text import write

    text = "version: 1\nname: s\nresources: {nodes: 1, gpus_per_node: 8}\nlaunch: {program: t.py}\n"
    text += "fabric:\n  env: {NCCL_IB_TOKEN: abcdef123456}\n"
    result = lint_text(text, tmp_path)
    assert {"JC702", "JC407"} <= {f.code for f in result.findings}
    out = io.StringIO()
    write(result.findings, {"spec.yaml": text.splitlines()}, out, True)
    assert "abcdef123456" not in out.getvalue()
