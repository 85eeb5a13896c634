"""A finding on a script speaks the script's language, and every rule that applies to scripts says so
itself: one emitter places span hits and data-path hits alike, at the script's own words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from jobc.lint.config import Config
from jobc.lint.rules import RULES
from jobc.lint.scripts import lint_path

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
HEAD += "#SBATCH --time=01:00:00\n"
# spec field names a script's reader never wrote
SPEC_WORDS = re.compile(
    r"\b(?:slurm|resources|launch|storage|fabric|resilience|container)\.[a-z_]+|\bsetup line\b|\bsecrets:"
    r"|\benv [A-Z]|\b(?:tasks|gpus)_per_node\b|\bcpus_per_task\b"
)
CORPUS = Path(__file__).with_name("corpus")
PROFILE = """\
profile: site
cluster:
  gpus_per_node: 8
  cpus_per_node: 64
  partitions:
    batch: {max_time: "24:00:00"}
storage:
  shared: [/lustre]
"""
OVERSIZED = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=16
#SBATCH --gpus-per-node=16
#SBATCH --cpus-per-task=16
#SBATCH --partition=batch
#SBATCH --time=48:00:00
#SBATCH --requeue
export HF_HOME=/home/alice/hf
export NCCL_IB_DISABLE=1
srun python train.py --output-dir /home/alice/ckpt
"""


def lint(tmp_path: Path, body: str) -> list[tuple[str, int, int, str]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    return [(f.code, f.span.line, f.span.col, f.message) for f in lint_path(path, config=Config()).findings]


def test_jc104_on_an_exported_port_names_the_directive_and_the_derived_port(tmp_path: Path) -> None:
    found = [f for f in lint(tmp_path, "export MASTER_PORT=6000\nsrun python train.py\n") if f[0] == "JC104"]
    assert [(line, col) for _, line, col, _ in found] == [(6, 20)]
    message = found[0][3]
    assert "export MASTER_PORT=6000" in message
    assert "#SBATCH --exclusive" in message
    assert "SLURM_JOB_ID" in message
    assert not SPEC_WORDS.search(message), message
    assert "slurm.exclusive" not in message


def test_jc104_is_quiet_with_exclusive_nodes(tmp_path: Path) -> None:
    body = "#SBATCH --exclusive\nexport MASTER_PORT=6000\nsrun python train.py\n"
    assert [f for f in lint(tmp_path, body) if f[0] == "JC104"] == []


def test_jc110_fires_on_directives_sbatch_refuses(tmp_path: Path) -> None:
    body = "#SBATCH --array=1-3%0\n#SBATCH --dependency=foo\nsrun python train.py\n"
    found = [f for f in lint(tmp_path, body) if f[0] == "JC110"]
    assert [(line, col) for _, line, col, _ in found] == [(6, 9), (7, 9)]
    assert "#SBATCH --array=1-3%0" in found[0][3]
    assert "'%0' lets no task run" in found[0][3]
    assert "#SBATCH --dependency=foo" in found[1][3]
    assert all("sbatch refuses the job" in f[3] and not SPEC_WORDS.search(f[3]) for f in found)


def test_jc110_near_miss(tmp_path: Path) -> None:
    body = "#SBATCH --array=1-3%1\n#SBATCH --dependency=afterok:123\nsrun python train.py\n"
    assert [f for f in lint(tmp_path, body) if f[0] == "JC110"] == []


def test_jc106_points_at_the_expansion_itself(tmp_path: Path) -> None:
    body = 'NODE=$SLURM_NODEID\nsrun python train.py --node "$NODE"\n'
    found = [f for f in lint(tmp_path, body) if f[0] == "JC106"]
    assert [(line, col) for _, line, col, _ in found] == [(6, 6)]
    assert not SPEC_WORDS.search(found[0][3]), found[0][3]


def test_jc702_on_a_script_line_names_no_spec_field(tmp_path: Path) -> None:
    body = "git clone https://me:s3cretPassw0rd@git.example.com/x.git\nsrun python train.py\n"
    found = [f for f in lint(tmp_path, body) if f[0] == "JC702"]
    assert [(line, col) for _, line, col, _ in found] == [(6, 22)]
    assert "s3cretPassw0rd" not in found[0][3]
    assert not SPEC_WORDS.search(found[0][3]), found[0][3]


def test_no_finding_on_a_script_names_a_spec_field(tmp_path: Path) -> None:
    """Across the corpus, and with a cluster profile: the script's words, never the spec's (a
    value that only the profile states is named as the profile's)."""
    profile = tmp_path / "site.yaml"
    profile.write_text(PROFILE, encoding="utf-8")
    oversized = tmp_path / "oversized.sh"
    oversized.write_text(OVERSIZED, encoding="utf-8")
    seen = set()
    for path in [*sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".md"), oversized]:
        for chosen in (None, profile):
            for f in lint_path(path, config=Config(), profile=chosen).findings:
                seen.add(f.code)
                text = f.message.replace("the profile's storage.shared", "").replace(
                    "the profile's cluster.gpus_per_node", ""
                )
                assert not SPEC_WORDS.search(text), (path.name, f.code, f.message)
    scripted = {code for code, rule in RULES.items() if rule.script_check is not None}
    # each has tests of its own; JC120-JC123 need a live cluster (tests/lint/rules/test_live.py)
    live = {code for code in scripted if code.startswith("JC12")}
    assert scripted - seen - live <= {"JC809", "JC402"}, sorted(scripted - seen)


def test_every_rule_that_applies_to_scripts_says_so_in_its_module() -> None:
    scripted = {code for code, rule in RULES.items() if rule.script_check is not None}
    assert {"JC104", "JC110", "JC702", "JC801"} <= scripted
    assert "JC201" not in scripted  # parallelism needs a model the script does not describe


def test_script_lint_uses_the_pipelines_public_interface_only() -> None:
    source = Path(__file__).resolve().parents[2] / "src" / "jobc" / "lint" / "scripts.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("jobc")
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == []
    text = source.read_text(encoding="utf-8")
    assert "#script" not in text
    assert "JC106" not in text
    assert not re.search(r"^import re$", text, re.MULTILINE)  # no message is rewritten


def test_jc505_pmix_in_a_containered_step(tmp_path: Path) -> None:
    image = "--container-image=nvcr.io#nvidia/pytorch:25.01-py3"
    found = lint(tmp_path, f"srun --mpi=pmix {image} python train.py\n")
    hits = [f for f in found if f[0] == "JC505"]
    assert [(line, col) for _, line, col, _ in hits] == [(6, 6)]
    assert "srun --mpi=pmix" in hits[0][3]
    assert not SPEC_WORDS.search(hits[0][3])
    # near misses: pmi2 in a container, pmix without one
    assert "JC505" not in {f[0] for f in lint(tmp_path, f"srun --mpi=pmi2 {image} python train.py\n")}
    assert "JC505" not in {f[0] for f in lint(tmp_path, "srun --mpi=pmix python train.py\n")}
