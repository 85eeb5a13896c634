"""JC5 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.core.diagnostics import Severity
from jobc.lint.rules.environment.jc502_container_image_syntax import image_problem
from tests.support.lint import codes, lint_text, only, where


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


# JC501 container-flag-in-sbatch


def test_jc501_fires_on_pyxis_flags_in_slurm_extra(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 2, gpus_per_node: 8}
        launch: {program: train.py}
        slurm:
          time: "01:00:00"
          extra:
            no-container-mount-home: true
        """,
        tmp_path,
    )
    assert where(result, "JC501") == [(8, 5)]
    finding = only(result, "JC501")
    assert finding.severity == Severity.ERROR
    assert "container.mount_home" in finding.message


def test_jc501_near_miss_slurm_oci_container_option(tmp_path: Path) -> None:
    result = lint_text(
        "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 8}\nlaunch: {program: train.py}\n"
        "slurm: {extra: {container: /srv/bundle}}\n",
        tmp_path,
    )
    assert "JC501" not in codes(result)


# JC502 container-image-syntax


def test_jc502_fires_on_a_docker_style_registry_path(tmp_path: Path) -> None:
    result = lint_text(spec('container:\n  image: "nvcr.io/nvidia/pytorch:25.01-py3"\n'), tmp_path)
    assert where(result, "JC502") == [(7, 10)]
    assert "nvcr.io#nvidia/pytorch:25.01-py3" in only(result, "JC502").message


def test_jc502_fires_on_a_relative_squashfs_path(tmp_path: Path) -> None:
    result = lint_text(spec("container: {image: images/pytorch.sqsh}\n"), tmp_path)
    assert where(result, "JC502") == [(6, 20)]
    assert "./images/pytorch.sqsh" in only(result, "JC502").message


def test_jc502_near_miss_enroot_uri(tmp_path: Path) -> None:
    result = lint_text(spec('container: {image: "nvcr.io#nvidia/pytorch:25.01-py3"}\n'), tmp_path)
    assert "JC502" not in codes(result)


@pytest.mark.parametrize(
    ("image", "bad"),
    [
        ("/lustre/images/pt.sqsh", False),
        ("./pt.sqsh", False),
        ("../images/pt.sqsh", False),
        ("ubuntu:22.04", False),
        ("nvidia/cuda:12.4.1-base-ubuntu22.04", False),
        ("user@nvcr.io#nvidia/pytorch:25.01-py3", False),
        ("docker://nvcr.io#nvidia/pytorch:25.01-py3", False),
        ("nvcr.io#nvidia/pytorch@sha256:0123", False),
        ("localhost:5000/me/img", True),
        ("ghcr.io/me/img:1", True),
        ("~/images/pt.sqsh", True),
        ("pt.squashfs", True),
        ("a#b#c", True),
        ("nvcr.io#nvidia/py torch", True),
        ("  ", True),
    ],
)
def test_jc502_image_forms(image: str, bad: bool) -> None:
    assert (image_problem(image) is not None) is bad


# JC503 workdir-not-shared


def test_jc503_fires_on_a_workdir_outside_shared_storage(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "storage: {shared: [/lustre]}\n",
            launch="{program: train.py, workdir: /lustre2/me/proj}",
        ),
        tmp_path,
    )
    assert where(result, "JC503") == [(4, 38)]
    assert "not under storage.shared (/lustre)" in only(result, "JC503").message


def test_jc503_fires_on_a_node_local_workdir(tmp_path: Path) -> None:
    result = lint_text(spec("", launch="{program: train.py, workdir: /tmp/proj}"), tmp_path)
    assert where(result, "JC503") == [(4, 38)]
    assert "/tmp is node-local" in only(result, "JC503").message


def test_jc503_near_miss_single_node_outside_shared(tmp_path: Path) -> None:
    result = lint_text(
        spec("storage: {shared: [/lustre]}\n", nodes=1, launch="{program: train.py, workdir: /home/me/p}"),
        tmp_path,
    )
    assert "JC503" not in codes(result)


def test_jc503_fires_when_the_container_does_not_mount_the_workdir(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "storage: {shared: [/lustre]}\ncontainer: {image: ./pt.sqsh, mounts: ['/data:/data']}\n",
            launch="{program: train.py, workdir: /lustre/me/proj, python: uv}",
        ),
        tmp_path,
    )
    assert where(result, "JC503") == [(4, 38)]
    assert "uv environment (.venv)" in only(result, "JC503").message


def test_jc503_near_miss_mounted_workdir(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "storage: {shared: [/lustre]}\ncontainer: {image: ./pt.sqsh, mounts: ['/lustre:/lustre']}\n",
            launch="{program: train.py, workdir: /lustre/me/proj}",
        ),
        tmp_path,
    )
    assert "JC503" not in codes(result)


# JC504 uv-sync-stampede


def test_jc504_fires_on_srun_uv_sync_in_setup(tmp_path: Path) -> None:
    result = lint_text(
        spec("", launch="\n  program: train.py\n  setup:\n    - module load cuda\n    - srun uv sync\n"),
        tmp_path,
    )
    assert where(result, "JC504") == [(8, 7)]
    assert "16" in only(result, "JC504").message


def test_jc504_fires_on_a_syncing_python(tmp_path: Path) -> None:
    result = lint_text(spec("", launch="{program: train.py, python: uv run python}"), tmp_path)
    assert where(result, "JC504") == [(4, 37)]


def test_jc504_fires_on_uv_by_a_path(tmp_path: Path) -> None:
    # where uv's installer puts it off PATH: the same uv, which syncs the same way
    setup = "\n  program: train.py\n  setup:\n    - srun ~/.local/bin/uv sync\n"
    assert where(lint_text(spec("", launch=setup), tmp_path), "JC504") == [(7, 7)]
    python = "{program: train.py, python: $HOME/.local/bin/uv run python}"
    assert where(lint_text(spec("", launch=python), tmp_path), "JC504") == [(4, 37)]


def test_jc504_near_miss_another_command_by_a_path(tmp_path: Path) -> None:
    setup = "\n  program: train.py\n  setup:\n    - srun ~/.local/bin/uvx-sync sync\n"
    assert "JC504" not in codes(lint_text(spec("", launch=setup), tmp_path))
    no_sync = "{program: train.py, python: ~/.local/bin/uv run --no-sync python}"
    assert "JC504" not in codes(lint_text(spec("", launch=no_sync), tmp_path))


def test_jc504_near_miss_one_task_and_no_sync(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "",
            launch=(
                "{program: train.py, python: uv run --no-sync python, "
                'setup: ["srun --ntasks=1 uv sync", "uv sync --frozen"]}'
            ),
        ),
        tmp_path,
    )
    assert "JC504" not in codes(result)


# JC505 pmix-with-container


def test_jc505_fires_on_pmix_with_a_container(tmp_path: Path) -> None:
    result = lint_text(spec("container: {image: ./pt.sqsh}\nenv: {SLURM_MPI_TYPE: pmix_v4}\n"), tmp_path)
    assert where(result, "JC505") == [(7, 23)]
    assert only(result, "JC505").severity == Severity.INFO


def test_jc505_fires_on_mpi_flag_in_setup(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "container: {image: ./pt.sqsh}\n",
            launch='{program: train.py, setup: ["srun --mpi=pmix -N1 hostname"]}',
        ),
        tmp_path,
    )
    assert where(result, "JC505") == [(4, 37)]


def test_jc505_near_miss_without_container(tmp_path: Path) -> None:
    result = lint_text(spec("env: {SLURM_MPI_TYPE: pmix}\n"), tmp_path)
    assert "JC505" not in codes(result)


# JC506 hub-offline


def test_jc506_fires_on_hf_cache_when_air_gapped(tmp_path: Path) -> None:
    result = lint_text(
        spec("cluster: {air_gapped: true}\nstorage:\n  caches: {hf_home: /lustre/hf}\n"), tmp_path
    )
    assert where(result, "JC506") == [(8, 21)]
    assert "HF_HUB_OFFLINE" in only(result, "JC506").message


def test_jc506_near_miss_offline_set(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "cluster: {air_gapped: true}\nstorage:\n  caches: {hf_home: /lustre/hf}\n"
            'env: {HF_HUB_OFFLINE: "1"}\n'
        ),
        tmp_path,
    )
    assert "JC506" not in codes(result)


def test_jc506_near_miss_online_cluster(tmp_path: Path) -> None:
    result = lint_text(spec("storage:\n  caches: {hf_home: /lustre/hf}\n"), tmp_path)
    assert "JC506" not in codes(result)


# JC507 env-shell-syntax


def test_jc507_fires_on_substring_that_looks_like_a_default(tmp_path: Path) -> None:
    result = lint_text(spec('env:\n  CUDA_LAUNCH_BLOCKING: "${CUDA_LAUNCH_BLOCKING:0}"\n'), tmp_path)
    assert where(result, "JC507") == [(7, 25)]
    message = only(result, "JC507").message
    assert "substring" in message
    assert "${CUDA_LAUNCH_BLOCKING:-0}" in message


def test_jc507_fires_in_setup_where_the_shell_runs_it(tmp_path: Path) -> None:
    result = lint_text(
        spec("", launch='{program: train.py, setup: ["export X=${X:0}"]}'),
        tmp_path,
    )
    assert where(result, "JC507") == [(4, 37)]
    assert "${X:-0}" in only(result, "JC507").message


def test_jc507_fires_on_home_and_tilde(tmp_path: Path) -> None:
    result = lint_text(spec("env: {HF_HOME: $HOME/hf, DATA: ~/data}\n"), tmp_path)
    assert where(result, "JC507") == [(6, 16), (6, 32)]


def test_jc507_leaves_per_rank_variables_to_jc106(tmp_path: Path) -> None:
    result = lint_text(spec('env: {MY_RANK: "$SLURM_PROCID"}\n'), tmp_path)
    assert "JC507" not in codes(result)
    assert "JC106" in codes(result)


def test_jc507_near_miss_literal_dollar_sign(tmp_path: Path) -> None:
    result = lint_text(spec("env: {PATTERN: '^v[0-9]+$', PRICE: 5$}\n"), tmp_path)
    assert "JC507" not in codes(result)


# JC508 uv-extras-not-synced

PYPROJECT_WITH_EXTRAS = """\
[project]
name = "trainer"
version = "0.1"
[project.optional-dependencies]
training = ["transformer-engine"]
dev = ["pytest"]
"""


def _uv_spec(uv: str = "") -> str:
    return f"""\
        version: 1
        name: t
        resources: {{nodes: 2, gpus_per_node: 8}}
        slurm: {{time: "01:00:00"}}
        storage: {{shared: ["/"]}}
        launch:
          python: uv
          uv_sync: two-phase
          workdir: proj
          program: train.py
        {uv}"""


def test_jc508_fires_when_the_project_has_extras_and_the_spec_names_none(tmp_path: Path) -> None:
    result = lint_text(_uv_spec(), tmp_path, files={"proj/pyproject.toml": PYPROJECT_WITH_EXTRAS})
    assert where(result, "JC508") == [(9, 12)]
    finding = only(result, "JC508")
    assert finding.severity == Severity.WARNING
    assert "dev, training" in finding.message
    assert "launch.uv.extras: [dev]" in finding.message


def test_jc508_near_miss_extras_named(tmp_path: Path) -> None:
    result = lint_text(
        _uv_spec("  uv: {extras: [training], lock: frozen}\n"),
        tmp_path,
        files={"proj/pyproject.toml": PYPROJECT_WITH_EXTRAS},
    )
    assert "JC508" not in codes(result)


def test_jc508_near_miss_project_without_extras(tmp_path: Path) -> None:
    pyproject = '[project]\nname = "trainer"\nversion = "0.1"\ndependencies = ["torch"]\n'
    result = lint_text(_uv_spec(), tmp_path, files={"proj/pyproject.toml": pyproject})
    assert "JC508" not in codes(result)


def test_jc508_reads_no_project_at_a_workdir_with_a_nul_byte(tmp_path: Path) -> None:
    result = lint_text(_uv_spec().replace("workdir: proj", 'workdir: "pr\\0oj"'), tmp_path)
    assert "JC508" not in codes(result)


# JC509 setup-shell-syntax


def _setup_spec(items: str) -> str:
    return (
        "version: 1\n"
        "name: t\n"
        "resources: {nodes: 1, gpus_per_node: 8}\n"
        'slurm: {time: "01:00:00"}\n'
        "launch:\n"
        "  program: train.py\n"
        "  setup:\n"
        f"{items}"
    )


@pytest.mark.parametrize(
    ("items", "at", "said"),
    [
        ('    - module load cuda\n    - echo "ready\n', (9, 7), "matching `\"'"),
        ("    - module load cuda\n    - 'export X=$(hostname'\n    - echo done\n", (9, 7), "`)'"),
        ("    - if [[ -d /scratch ]]; then\n    - '  export TMPDIR=/scratch'\n", (8, 7), "end of file"),
        ("    - echo ok\n    - cat > env.txt <<EOF\n    - A=1\n", (9, 7), "EOF ends it"),
        ("    - echo ok\n    - fi\n", (9, 7), "unexpected token `fi'"),
        ('    - "echo \'it"\n', (8, 7), "matching `''"),
        ("    - 'module load cuda &&'\n", (8, 7), "end of file"),
        # bash -n names this one and still exits 0
        ("    - echo ok\n    - '[[;'\n", (9, 7), "conditional command"),
    ],
    ids=[
        "quote",
        "command-substitution",
        "if-without-fi",
        "heredoc",
        "stray-fi",
        "single-quote",
        "and-at-end",
        "empty-conditional",
    ],
)
def test_jc509_fires_at_the_item_bash_cannot_parse(
    tmp_path: Path, items: str, at: tuple[int, int], said: str
) -> None:
    result = lint_text(_setup_spec(items), tmp_path)
    assert where(result, "JC509") == [at]
    finding = only(result, "JC509")
    assert finding.severity == Severity.ERROR
    assert said in finding.message


def test_jc509_points_at_the_line_of_a_multi_line_item(tmp_path: Path) -> None:
    result = lint_text(_setup_spec('    - echo ok\n    - |\n      echo a\n      echo "b\n'), tmp_path)
    assert where(result, "JC509") == [(9, 7)]
    assert "setup line 2 (line 2 of the item)" in only(result, "JC509").message


@pytest.mark.parametrize(
    "items",
    [
        "    - cat > env.txt <<EOF\n    - A=1\n    - EOF\n",
        "    - |\n      cat <<-'END'\n      \tliteral $(not run) 'quote\n      \tEND\n",
        "    - 'case $(hostname) in gpu*) export X=1;; login|head) :;; *) exit 1;; esac'\n",
        "    - if [[ -d /scratch ]]; then\n    - '  export TMPDIR=/scratch'\n"
        "    - else\n    - '  :'\n    - fi\n",
        "    - \"printf $'it\\\\'s\\\\n'\"\n",
        '    - "# it\'s a comment with a \\" quote"\n    - echo ok  # don\'t\n',
        "    - 'for f in a b; do'\n    - '  echo \"$f\"'\n    - done\n",
        "    - 'x=$(echo \"$(date)\" | tr a b)'\n",
    ],
    ids=[
        "heredoc",
        "quoted-heredoc",
        "case",
        "if-across-items",
        "ansi-c-string",
        "comments",
        "for",
        "nested",
    ],
)
def test_jc509_near_miss_valid_shell(tmp_path: Path, items: str) -> None:
    result = lint_text(_setup_spec(items), tmp_path)
    assert "JC509" not in codes(result), result.findings


def test_jc509_says_nothing_without_setup_or_without_bash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "JC509" not in codes(lint_text(spec(""), tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))  # no bash here
    assert "JC509" not in codes(lint_text(_setup_spec('    - echo "open\n'), tmp_path))


def test_jc509_reports_a_nul_byte(tmp_path: Path) -> None:
    result = lint_text(_setup_spec('    - "echo a\\0b"\n'), tmp_path)
    assert where(result, "JC509") == [(8, 7)]
    assert "NUL" in only(result, "JC509").message


def test_jc509_never_runs_the_setup(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payloads = [
        f"'touch {marker}'",
        f"'x=$(touch {marker})'",
        f"'echo `touch {marker}`'",
        f"'cat <(touch {marker})'",
        f"'echo \"$(touch {marker})'",  # and one that does not parse
    ]
    for payload in payloads:
        lint_text(_setup_spec(f"    - {payload}\n"), tmp_path)
    assert not marker.exists()


def test_jc509_reads_a_huge_setup(tmp_path: Path) -> None:
    # near the reader's 1 MiB bound, one item a line
    body = "".join(f'    - export V{i}="{"x" * 100}"\n' for i in range(5000))
    assert "JC509" not in codes(lint_text(_setup_spec(body + "    - echo ok\n"), tmp_path))
    result = lint_text(_setup_spec(body + "    - if true; then\n"), tmp_path)
    assert where(result, "JC509") == [(8 + 5000, 7)]


def test_jc509_finds_the_opener_before_a_few_items_and_the_end_after_many(tmp_path: Path) -> None:
    few = "    - if true; then\n" + "    - echo a\n" * 5
    assert where(lint_text(_setup_spec(few), tmp_path), "JC509") == [(8, 7)]
    many = "    - if true; then\n" + "    - echo a\n" * 40  # beyond the 16 extra parses
    assert where(lint_text(_setup_spec(many), tmp_path), "JC509") == [(8 + 40, 7)]


def test_jc508_reads_the_extras_of_a_pyproject_only_when_it_can_hold_them(tmp_path: Path) -> None:
    from jobc.lint.rules.environment.jc508_uv_extras_not_synced import declared_extras

    cases = {
        "none.toml": ('[project]\nname = "x"\n', []),
        "plain.toml": ('[project]\nname = "x"\n[project.optional-dependencies]\ngpu = ["torch"]\n', ["gpu"]),
        "dotted.toml": ('project.optional-dependencies.a = []\nproject.name = "x"\n', ["a"]),
        "escaped.toml": ('[project."optional\\u002ddependencies"]\nb = []\n', ["b"]),
        "broken.toml": ("[project.optional-dependencies\n", []),
    }
    for name, (text, extras) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert declared_extras(tmp_path / name) == extras, name
    assert declared_extras(tmp_path / "missing.toml") == []
