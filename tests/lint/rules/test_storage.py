"""JC7 rules: each fires at its line and column, and a near miss does not; secrets never echoed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.diagnostics import Severity
from jobc.tables.paths import place, under
from jobc.tables.secrets import secret_name, shape
from tests.support.lint import codes, lint_text, only, where

HF = "hf_" + "TESTtestTESTtestTESTtestTESTtest42"  # built, so no token-shaped literal sits in the source
GHP = "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
WANDB = "0123456789abcdef" * 2 + "01234567"


def spec(extra: str, *, nodes: int = 2, launch: str = "{program: train.py}") -> str:
    """A valid spec of five lines; ``extra`` starts on line 6."""
    return (
        "version: 1\n"
        "name: t\n"
        f"resources: {{nodes: {nodes}, gpus_per_node: 8}}\n"
        f"launch: {launch}\n"
        'slurm: {time: "01:00:00"}\n'
        f"{extra}"
    )


# shared storage by path components


@pytest.mark.parametrize(
    ("path", "prefix", "inside"),
    [
        ("/lustre/x", "/lustre", True),
        ("/lustre", "/lustre", True),
        ("/lustre/", "/lustre", True),
        ("/lustre2/x", "/lustre", False),
        ("/lustre//x/../y", "/lustre/", True),
        ("/lustre/../etc", "/lustre", False),
        ("//lustre/x", "/lustre", True),
        ("/anything", "/", True),
        ("relative/x", "/lustre", False),
    ],
)
def test_under_compares_components(path: str, prefix: str, inside: bool) -> None:
    assert under(path, prefix) is inside


def test_place_knows_local_shared_and_unknown() -> None:
    assert place("/tmp/x", ["/lustre"]).kind == "local"
    assert place("$TMPDIR/ckpt", []).kind == "local"
    assert place("${SLURM_TMPDIR}", []).kind == "local"
    assert place("~/.cache/huggingface", ["/lustre"]).kind == "local"
    assert place("~/.cache/huggingface", ["~"]).kind == "shared"
    assert place("/lustre/x", ["/lustre"]).kind == "shared"
    assert place("/lustre2/x", ["/lustre"]).kind == "outside"
    assert place("/lustre2/x", []).kind == "unknown"
    assert place("ckpt", ["/lustre"]).kind == "unknown"
    assert place("$WORK/ckpt", ["/lustre"]).kind == "unknown"
    # the spec says /tmp is shared here (a one-node cluster's choice): believe it
    assert place("/tmp/x", ["/tmp"]).kind == "shared"


# JC701 node-local-path


def test_jc701_fires_on_node_local_checkpoints_across_nodes(tmp_path: Path) -> None:
    result = lint_text(spec("storage:\n  shared: [/lustre]\n  checkpoints: /tmp/ckpt\n"), tmp_path)
    assert where(result, "JC701") == [(8, 16)]
    finding = only(result, "JC701")
    assert finding.severity == Severity.ERROR
    assert "each of the 2 nodes" in finding.message


def test_jc701_fires_on_paths_outside_shared_by_components(tmp_path: Path) -> None:
    result = lint_text(spec("storage:\n  shared: [/lustre]\n  logs: /lustre2/logs\n"), tmp_path)
    assert where(result, "JC701") == [(8, 9)]
    assert "not under storage.shared (/lustre)" in only(result, "JC701").message


def test_jc701_is_a_warning_on_one_node(tmp_path: Path) -> None:
    result = lint_text(spec("storage: {checkpoints: $TMPDIR/ckpt}\n", nodes=1), tmp_path)
    finding = only(result, "JC701")
    assert (finding.span.line, finding.span.col) == (6, 24)
    assert finding.severity == Severity.WARNING


def test_jc701_caches_are_warnings_and_compile_caches_are_left_alone(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "storage:\n  shared: [/lustre]\n"
            "  caches: {hf_home: /dev/shm/hf, triton_cache_dir: /tmp/triton}\n"
            "env: {TORCH_HOME: /raid/torch}\n"
        ),
        tmp_path,
    )
    assert where(result, "JC701") == [(8, 21), (9, 19)]
    assert {f.severity for f in result.findings if f.code == "JC701"} == {Severity.WARNING}


def test_jc701_near_miss_shared_paths(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "storage:\n  shared: [/lustre, /gpfs/]\n  checkpoints: /lustre/ckpt/{name}\n"
            "  logs: /gpfs/logs\n  caches: {hf_home: /lustre/hf, uv_cache_dir: ./uv}\n"
        ),
        tmp_path,
    )
    assert "JC701" not in codes(result)


# JC702 literal-secret


def test_jc702_fires_on_a_token_in_env_and_never_echoes_it(tmp_path: Path) -> None:
    result = lint_text(spec(f"env:\n  HF_TOKEN: {HF}\n"), tmp_path)
    assert where(result, "JC702") == [(7, 13)]
    finding = only(result, "JC702")
    assert finding.severity == Severity.ERROR
    assert "hf_…" in finding.message
    assert HF[3:] not in finding.message


def test_jc702_fires_on_a_secret_name_with_any_literal(tmp_path: Path) -> None:
    result = lint_text(
        spec("fabric: {env: {}}\nenv: {WANDB_API_KEY: not-really-a-key-but-literal}\n"), tmp_path
    )
    assert where(result, "JC702") == [(7, 22)]
    assert "not-really" not in only(result, "JC702").message


def test_jc702_fires_on_args_flag_value_pairs(tmp_path: Path) -> None:
    result = lint_text(
        spec("", launch=f'{{program: train.py, args: ["--hf-token={HF}", "--wandb-api-key", "{WANDB}"]}}'),
        tmp_path,
    )
    assert where(result, "JC702") == [(4, 36), (4, 107)]
    assert all(HF[3:] not in f.message and WANDB not in f.message for f in result.findings)


def test_jc702_fires_on_setup_exports_and_logins(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "",
            launch=(
                "\n  program: train.py\n  setup:\n    - module load cuda\n"
                "    - export HF_TOKEN=abc123\n"
                f"    - wandb login {WANDB}\n"
                f"    - git clone https://x:{GHP}@github.com/me/repo\n"
            ),
        ),
        tmp_path,
    )
    assert where(result, "JC702") == [(8, 7), (9, 7), (10, 7)]
    messages = " ".join(f.message for f in result.findings)
    for secret in ("abc123", WANDB, GHP[4:]):
        assert secret not in messages


def test_jc702_finds_token_shapes_anywhere(tmp_path: Path) -> None:
    result = lint_text(spec(f"storage: {{checkpoints: /lustre/{AWS}}}\n"), tmp_path)
    assert where(result, "JC702") == [(6, 24)]
    assert "AKIA…" in only(result, "JC702").message
    assert AWS[4:] not in only(result, "JC702").message


def test_jc702_near_miss_references_paths_and_secrets_list(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "secrets: [HF_TOKEN, WANDB_API_KEY]\n"
            "env:\n"
            "  TOKENIZERS_PARALLELISM: 'false'\n"
            "  HF_TOKEN_PATH: /lustre/me/.hf_token\n"
            "  GOOGLE_APPLICATION_CREDENTIALS: /lustre/me/key.json\n"
            "  MAX_TOKENS: 4096\n"
            "  NCCL_IB_PKEY: 1\n"
            "  GIT_COMMIT: 0123456789abcdef0123456789abcdef01234567\n",
            launch='{program: train.py, args: ["--tokenizer-model", "llama", "--use-token", "true"]}',
        ),
        tmp_path,
    )
    assert "JC702" not in codes(result)


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("HF_TOKEN", True),
        ("WANDB_API_KEY", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("DB_PASSWORD", True),
        ("--hf-token", True),
        ("--api-key", True),
        ("TOKENIZERS_PARALLELISM", False),
        ("HF_TOKEN_PATH", False),
        ("MAX_TOKENS", False),
        ("NCCL_IB_PKEY", False),
        ("--tokenizer-model", False),
    ],
)
def test_jc702_secret_names(name: str, secret: bool) -> None:
    assert secret_name(name) is secret


def test_jc702_shapes_show_only_the_prefix() -> None:
    assert shape(f"x {HF} y") == "a Hugging Face token (hf_…)"
    assert shape(GHP) == "a GitHub token (ghp_…)"
    assert shape(AWS) == "an AWS access key (AKIA…)"
    assert shape("sk-" + "proj-abcdefghij0123456789") == "an API key (sk-…)"
    assert shape("scikit-learn sk-learn-extra-long-package-name") is None


def test_jc702_no_output_format_leaks_the_secret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(spec(f"env: {{HF_TOKEN: {HF}}}\n"))
    for fmt in ("text", "json", "sarif", "github"):
        assert main(["lint", "--format", fmt, str(path)]) == 1
        out = capsys.readouterr()
        assert HF[3:] not in out.out + out.err
        if fmt == "json":
            assert any(f["code"] == "JC702" for f in json.loads(out.out))


# JC703 shared-cache-missing


def test_jc703_fires_on_hf_cache_defaulting_into_the_container(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "container: {image: ./pt.sqsh, mounts: ['/lustre:/lustre']}\n"
            "secrets: [HF_TOKEN]\n"
            "storage:\n  shared: [/lustre]\n  caches:\n    uv_cache_dir: /lustre/uv\n"
        ),
        tmp_path,
    )
    assert where(result, "JC703") == [(10, 3)]
    message = only(result, "JC703").message
    assert "storage.caches.hf_home" in message
    assert "container" in message


def test_jc703_fires_on_uv_cache_when_home_is_not_shared(tmp_path: Path) -> None:
    result = lint_text(
        spec("storage: {shared: [/lustre]}\n", launch="{program: train.py, python: uv}"), tmp_path
    )
    assert where(result, "JC703") == [(6, 1)]
    assert "uv" in only(result, "JC703").message


def test_jc703_follows_the_interpreter_chosen_when_the_job_starts(tmp_path: Path) -> None:
    # launch.python not set: uv only for a uv project, which lint sees when it can read the workdir
    project = tmp_path / "proj"
    project.mkdir()
    launch = f"{{program: train.py, workdir: {project}}}"
    assert "JC703" not in codes(lint_text(spec("storage: {shared: [/lustre]}\n", launch=launch), tmp_path))
    (project / "uv.lock").write_text("version = 1\n")
    assert "JC703" in codes(lint_text(spec("storage: {shared: [/lustre]}\n", launch=launch), tmp_path))
    # a workdir lint cannot read says nothing either way: no finding
    unread = "{program: train.py, workdir: /nonexistent/proj}"
    assert "JC703" not in codes(lint_text(spec("storage: {shared: [/lustre]}\n", launch=unread), tmp_path))


def test_jc703_near_miss_home_is_shared_or_one_node(tmp_path: Path) -> None:
    assert "JC703" not in codes(lint_text(spec("storage: {shared: [/lustre, /home]}\n"), tmp_path))
    assert "JC703" not in codes(lint_text(spec("storage: {shared: [/lustre]}\n", nodes=1), tmp_path))
    assert "JC703" not in codes(
        lint_text(spec("storage: {shared: [/lustre], caches: {uv_cache_dir: /lustre/uv}}\n"), tmp_path)
    )


# JC704 dump-dir-node-local


def test_jc704_fires_on_node_local_dump_dir_across_nodes(tmp_path: Path) -> None:
    result = lint_text(spec("storage: {shared: [/lustre]}\nmonitoring: {dump_dir: /tmp/dumps}\n"), tmp_path)
    assert where(result, "JC704") == [(7, 24)]
    assert only(result, "JC704").severity == Severity.WARNING
    assert "/tmp is node-local" in only(result, "JC704").message


def test_jc704_fires_outside_shared_storage(tmp_path: Path) -> None:
    result = lint_text(spec("storage: {shared: [/lustre]}\nmonitoring: {dump_dir: /lustre2/d}\n"), tmp_path)
    assert where(result, "JC704") == [(7, 24)]


@pytest.mark.parametrize(
    "extra",
    [
        "storage: {shared: [/lustre]}\nmonitoring: {dump_dir: /lustre/dumps}\n",  # shared
        "monitoring: {dump_dir: relative/dumps}\n",  # not judged
        "monitoring: {dump_dir: /tmp/d, hang_s: 0, flight_recorder: 0}\n",  # nothing is dumped
    ],
)
def test_jc704_near_misses(tmp_path: Path, extra: str) -> None:
    assert "JC704" not in codes(lint_text(spec(extra), tmp_path))


def test_jc704_leaves_one_node_alone(tmp_path: Path) -> None:
    assert "JC704" not in codes(lint_text(spec("monitoring: {dump_dir: /tmp/d}\n", nodes=1), tmp_path))
