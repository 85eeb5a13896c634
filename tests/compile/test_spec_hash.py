"""The spec hash in a compiled script: what the spec file and its profiles say (then --set), not
the defaults jobc fills in, and not how the YAML is laid out."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from jobc.compile import compile_batch
from jobc.spec.plain import JobSpec
from tests.compile.support import compile_path, lint

PROFILE = """\
profile: site
cluster: {gpus_per_node: 4, gpu: h100-80gb}
slurm: {partition: gpu}
"""
SPEC = """\
version: 1
name: hashed
extends: site.yaml
slurm: {time: "01:00:00"}
resources: {nodes: 2}
launch: {program: train.py}
"""


def digest(script: str) -> str:
    m = re.search(r"^# spec sha256: ([0-9a-f]{64})$", script, re.M)
    assert m, script[:400]
    return m[1]


def write(tmp_path: Path, spec: str = SPEC, profile: str = PROFILE) -> Path:
    (tmp_path / "site.yaml").write_text(profile, encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    return tmp_path / "spec.yaml"


def test_the_hash_is_of_the_merged_data_as_written(tmp_path: Path) -> None:
    said = {
        "version": 1,
        "name": "hashed",
        "cluster": {"gpus_per_node": 4, "gpu": "h100-80gb"},
        "slurm": {"partition": "gpu", "time": "01:00:00"},
        "resources": {"nodes": 2},
        "launch": {"program": "train.py"},
    }
    text = json.dumps(said, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    script = compile_path(write(tmp_path))
    assert digest(script) == hashlib.sha256(text.encode()).hexdigest()
    assert f"export JOBC_SPEC_SHA256='{digest(script)}'" in script


def test_defaults_filled_in_are_not_part_of_it(tmp_path: Path) -> None:
    """A field jobc adds with a default changes what the model dumps, not what the spec says."""
    result = lint(write(tmp_path))
    assert result.context is not None
    before = digest(compile_batch(result.context))
    dumped = JobSpec.dump

    def with_a_new_default(self: JobSpec) -> dict[str, object]:
        return {**dumped(self), "new_section": {"new_field": "its default"}}

    JobSpec.dump = with_a_new_default  # type: ignore[method-assign]
    try:
        assert digest(compile_batch(result.context)) == before
    finally:
        JobSpec.dump = dumped  # type: ignore[method-assign]


def test_layout_does_not_change_it_but_every_layer_does(tmp_path: Path) -> None:
    def compiled(name: str, spec: str = SPEC, profile: str = PROFILE, *overrides: str) -> str:
        (tmp_path / name).mkdir()
        return digest(compile_path(write(tmp_path / name, spec, profile), *overrides))

    base = compiled("base")
    lines = SPEC.splitlines()
    reordered = "\n".join([*reversed(lines[3:]), *lines[:3], "# a comment", ""])
    assert compiled("reordered", reordered) == base
    assert compiled("profile", SPEC, PROFILE.replace("partition: gpu", "partition: big")) != base
    assert compiled("set", SPEC, PROFILE, "resources.nodes=4") != base
