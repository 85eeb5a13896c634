"""The fuzz target under hypothesis: the example specs, mutated field by field, with --set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.target import examples, run

EXAMPLES = examples()
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=24),
    st.sampled_from(["{name}", "{storage.logs}", "{{", "'", '"', "#", "\\", "\n", "\x1b[31m", "٣"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(
    [
        "name", "slurm", "resources", "launch", "env", "storage", "fabric", "container", "secrets",
        "parallelism", "model", "workload", "resilience", "cluster", "extends", "monitoring",
    ]
)  # fmt: skip
SUBKEYS = st.one_of(
    st.sampled_from(["partition", "logs", "args", "nodes", "tp", "env", "image", "program", "time"]),
    st.text(max_size=6),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _mutate(data: dict[str, Any], key: str, sub: str, value: Any, nested: bool) -> dict[str, Any]:
    out = dict(data)
    if nested and isinstance(out.get(key), dict):
        out[key] = {**out[key], sub: value}
    else:
        out[key] = value
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    example=st.sampled_from(EXAMPLES),
    key=KEYS,
    sub=SUBKEYS,
    value=VALUES,
    nested=st.booleans(),
    sets=st.lists(
        st.tuples(
            st.sampled_from(["resources.nodes", "name", "launch.args.0", "env.X", "slurm.partition"]), SCALARS
        ),
        max_size=2,
    ),
)
def test_mutated_examples(
    scratch: Path, *, example: Path, key: str, sub: str, value: Any, nested: bool, sets: list[tuple[str, Any]]
) -> None:
    import json

    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(example.read_text())
    mutated = _mutate(data, key, sub, value, nested)
    raw = json.dumps(mutated, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass")
    run(scratch, raw, [f"{k}={v}" for k, v in sets])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.binary(max_size=300), example=st.sampled_from(EXAMPLES), cut=st.integers(0, 4000))
def test_spliced_bytes(scratch: Path, raw: bytes, example: Path, cut: int) -> None:
    # a real spec with random bytes spliced in: structure mostly intact, the rest hostile
    text = example.read_bytes()
    run(scratch, text[:cut] + raw + text[cut:])


# scripts and import: the seeds of each target mutated as `python -m tests.fuzz.run` does. The
# suite draws the same 40 seeds every run (derandomize), so a run's answer is the code's, not the
# draw's: finding new inputs is the fuzz runner's work (`python -m tests.fuzz.run`, docs/testing.md),
# and what it finds comes back here as a test of its own


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32))
@pytest.mark.parametrize("name", ["script", "import", "fix-script", "fix-spec", "flight"])
def test_mutated_inputs_of_each_target(scratch: Path, name: str, seed: int) -> None:
    import random

    from tests.fuzz.run import TARGETS, mutate

    run_target, seed_files = TARGETS[name]
    seeds = [p.read_bytes() for p in seed_files()]
    rng = random.Random(seed)
    run_target(scratch, mutate(rng, rng.choice(seeds), seeds))
