"""The lazy-import contract: what `jobc lint` may load for a clean spec and for a clean script.

A lint is a fresh process on every commit and every save, and what it imports is most of its
time. So a clean spec loads no library outside the standard one (no PyYAML, ruamel, pydantic,
jsonschema or tree-sitter), nothing of the script package, no rule that cannot speak about it (the script
rules, the `--live` ones, the input rules the reader reports itself) and none of the heavy
standard modules below; a clean script loads tree-sitter and nothing else from outside, and
none of the spec model's validation (pydantic, jsonschema, the explainer), YAML readers or
spec-only rules. Each case is a fresh interpreter; the modules are read from `sys.modules`
after the command ran, so modules imported by name (the rules) count too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jobc.lint.rules.registry import ROWS
from tests.support import ROOT

EXAMPLES = sorted((ROOT / "specs").glob("*.yaml"))

# what the interpreter's own start-up imports from outside the standard library (setuptools'
# path hook in a virtual environment): not jobc's doing
_SITE = {"_distutils_hack"}
# standard modules a lint has no use for, each costing a millisecond or more with what it brings
HEAVY_STDLIB = (
    "argparse",  # `jobc lint FILE…` is read without it (jobc.commands.argv)
    "gettext",
    "locale",
    "json",  # the packaged schema and GPU catalogue are read as literals (jobc.data.literals)
    "dataclasses",
    "inspect",
    "ast",
    "tokenize",
    "hashlib",
    "shutil",
    "tempfile",
    "importlib.resources",
    "zlib",
    "bz2",
    "lzma",
    "fractions",  # the memory estimate's exact arithmetic is jobc.core.rational's
    "decimal",
    "contextlib",  # `jobc.lint.live.using` is a class of its own
    "importlib.util",  # tree-sitter's binding is found and made by importlib's bootstrap
)
# what `pathlib` imports beyond the interpreter's start; a lint of a spec or a script named on the
# command line needs none of it (a spec's `extends:` is followed as text, as `jobc.core.paths` reads it)
NO_PATHLIB = ("pathlib", "urllib", "ipaddress", "ntpath")
# what only reading a YAML file needs (its guard, the positions of its keys and values, its
# scalars' problems); a script's lint reads none
YAML_READING = ("jobc.reader.yamlguard", "jobc.reader.locate", "jobc.reader.scalars", "jobc.reader.plainyaml")
# the spec model's validation machinery and the YAML readers that are not the plain one
SPEC_MODEL = ("jobc.spec.model", "jobc.spec.explain", "jobc.reader.fastyaml", "pydantic", "jsonschema")

CHILD = """
import io, sys
from jobc.cli import main
out, sys.stdout = sys.stdout, io.StringIO()  # not contextlib.redirect_stdout: contextlib is counted
code = main(sys.argv[1:])
sys.stdout = out
loaded = sorted(sys.modules)
import json
print(json.dumps({"code": code, "modules": loaded}))
"""


def loaded(*args: str, cwd: Path = ROOT) -> tuple[int, set[str]]:
    """The exit code of `jobc ARGS` in a fresh interpreter, and every module it left loaded."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args], capture_output=True, text=True, cwd=cwd, check=True, timeout=300
    )
    result = json.loads(done.stdout.splitlines()[-1])
    return result["code"], set(result["modules"])


def outside(modules: set[str]) -> set[str]:
    """The top-level packages that are neither jobc nor the standard library."""
    tops = {m.split(".")[0] for m in modules}
    return tops - set(sys.stdlib_module_names) - {"jobc", "__main__"} - _SITE


def under(modules: set[str], names: tuple[str, ...]) -> set[str]:
    return {m for m in modules if any(m == n or m.startswith(n + ".") for n in names)}


def rule_modules(modules: set[str], wanted: str) -> set[str]:
    """The rule modules loaded whose rows match `wanted`: "script-only", "spec-only", "live", "input",
    or "facts-absent": a script check gated by facts none of the scripts here has (`FACTS`: a
    trap, an exec, a late or cut directive, --signal, \\r\\n, a byte-order mark, no #!, non-ASCII)."""
    by_module = {f"jobc.lint.rules.{row[5]}": row for row in ROWS}
    out = set()
    for name in modules & set(by_module):
        kinds, live = by_module[name][6:8]
        if (
            (wanted == "script-only" and kinds == ("script",))
            or (wanted == "spec-only" and kinds == ("spec",))
            or (wanted == "live" and live)
            or (wanted == "input" and not kinds)
            or (wanted == "facts-absent" and by_module[name][10])
        ):
            out.add(name)
    return out


@pytest.mark.parametrize("spec", EXAMPLES, ids=lambda p: p.name)
def test_a_clean_spec_loads_only_what_it_needs(spec: Path) -> None:
    code, modules = loaded("lint", str(spec.relative_to(ROOT)))
    assert code == 0
    assert "jobc.lint.pipeline" in modules  # the run was observed at all
    assert outside(modules) == set()
    # nothing of the script package, not even the check that YAML is not a script
    assert under(modules, ("jobc.script",)) == set()
    # the live cluster's facts: without --live a profile gives a partition's
    assert under(modules, ("jobc.spec.slurmfacts",)) == set()
    assert under(modules, (*SPEC_MODEL, "ruamel", "yaml", "jobc.compile.plan", "jobc.jobs")) == set()
    for kind in ("script-only", "live", "input"):
        assert rule_modules(modules, kind) == set(), kind
    assert under(modules, HEAVY_STDLIB) == set()
    # the profile its `extends:` names is found and read through paths as text; pathlib is for a
    # file the spec names that lint reads (a workdir's pyproject.toml, a model's config.json)
    assert under(modules, NO_PATHLIB) == set()
    # modules on the spec path import typing only for type checkers; no example's workdir exists
    # here, so JC508 reads no pyproject.toml and the TOML reader (which imports typing) stays out
    assert under(modules, ("typing", "tomllib")) == set()
    # no `jobc:` marker in the file or its profiles: the suppressions' reader is not needed
    assert "jobc.lint.suppress" not in modules


GOOD_SCRIPT = (
    "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
    "#SBATCH --time=01:00:00\nsrun python train.py\n"
)


def test_a_clean_script_loads_the_bash_parser_and_nothing_else_from_outside(tmp_path: Path) -> None:
    script = tmp_path / "job.sbatch"
    script.write_text(GOOD_SCRIPT, encoding="utf-8")
    code, modules = loaded("lint", str(script), cwd=tmp_path)
    assert code == 0
    assert outside(modules) == {"tree_sitter", "tree_sitter_bash"}
    assert under(modules, (*SPEC_MODEL, "ruamel", "yaml", "jobc.compile.plan", "jobc.jobs")) == set()
    for kind in ("spec-only", "live", "input", "facts-absent"):
        assert rule_modules(modules, kind) == set(), kind
    assert under(modules, HEAVY_STDLIB) == set()
    # bash is asked through os alone, and tree-sitter's binding is loaded without its package's
    # __init__ (which imports typing); the script path's modules import typing only for checkers
    assert under(modules, ("subprocess", "typing")) == set()
    # a named file's path is read as text (jobc.core.paths): no pathlib, with the URL parser and
    # the IP address classes behind it
    assert under(modules, NO_PATHLIB) == set()
    assert under(modules, YAML_READING) == set()


def test_a_real_script_loads_no_more(tmp_path: Path) -> None:
    code, modules = loaded(
        "lint", str(ROOT / "tests" / "script" / "corpus" / "megatron_gpt.sh"), cwd=tmp_path
    )
    assert code in (0, 1)
    assert outside(modules) == {"tree_sitter", "tree_sitter_bash"}
    assert under(modules, (*SPEC_MODEL, "ruamel", "yaml")) == set()
    assert under(modules, HEAVY_STDLIB) == set()
    assert under(modules, ("subprocess", "typing")) == set()
    assert under(modules, NO_PATHLIB) == set()  # it sources no file and names no launcher config
    assert under(modules, YAML_READING) == set()
    # what only `jobc import` carries into a spec (the environment, setup lines, directory)
    assert "jobc.script.carry" not in modules
    # nor what only the import infers (a console script that starts torchrun, a step run on CPUs)
    assert {"jobc.script.clilaunch", "jobc.script.cpu", "jobc.script.inferred"} & modules == set()
    # it has no condition for the reader to decide (no if, case, && or ||)
    assert "jobc.script.decide" not in modules
    # nor the compiler (JC104 names the compiled script's derived port only in a finding)
    assert under(modules, ("jobc.compile",)) == set()
    # it has no trap, exec, --signal, late or cut directive, \r\n or non-ASCII text
    assert rule_modules(modules, "facts-absent") == set()
    assert "jobc.lint.suppress" not in modules  # nor a `jobc:` marker


def test_a_script_with_a_condition_loads_what_decides_it(tmp_path: Path) -> None:
    script = tmp_path / "job.sbatch"
    text = GOOD_SCRIPT.replace("srun python", 'if [ "$SLURM_NNODES" -gt 1 ]; then echo many; fi\nsrun python')
    script.write_text(text, encoding="utf-8")
    code, modules = loaded("lint", str(script), cwd=tmp_path)
    assert code == 0
    assert "jobc.script.decide" in modules  # the clean Megatron script's test is not vacuous


def test_a_broken_spec_may_load_the_explainers(tmp_path: Path) -> None:
    spec = tmp_path / "broken.yaml"
    text = (ROOT / "specs" / "ddp-two-node.yaml").read_text("utf-8")
    spec.write_text(text.replace("extends: clusters/", "extends: " + str(ROOT / "specs" / "clusters") + "/")
                    + "\nbogus_section: 1\n")  # fmt: skip
    code, modules = loaded("lint", str(spec), cwd=tmp_path)
    assert code == 1
    assert "torch" not in outside(modules)
    assert outside(modules) & {"jsonschema", "pydantic"}  # the explainer ran: the clean test is not vacuous


def test_yaml_outside_the_plain_subset_loads_a_yaml_library(tmp_path: Path) -> None:
    spec = tmp_path / "anchored.yaml"
    text = (ROOT / "specs" / "ddp-two-node.yaml").read_text("utf-8")
    spec.write_text(text.replace("extends: clusters/", "extends: " + str(ROOT / "specs" / "clusters") + "/")
                    + "x-common: &common {a: 1}\n")  # fmt: skip
    _, modules = loaded("lint", str(spec), cwd=tmp_path)
    assert outside(modules) & {"yaml", "ruamel"}  # the plain reader left it to the others
