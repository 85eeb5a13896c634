"""The fast schema walker accepts exactly what the pydantic models accept, and the generated
files (schema, dataclasses) are fresh."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from jobc.data.literals import SCHEMA_DEFS
from jobc.spec import fastcheck
from jobc.spec.model import JobSpec, Profile
from jobc.spec.plain import JobSpec as PlainJobSpec

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=70000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["", "a b", "srun", "torchrun", "bf16", "SIGTERM", "h100-80gb", "1-2", "NCCL_X", "x-y"]),
)


def _fields(model: Any) -> dict[str, Any]:
    return {info.alias or name: info.annotation for name, info in model.model_fields.items()}


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, Any]:
    """A valid base spec with a few values replaced by random ones, keys sometimes misspelt."""
    data: dict[str, Any] = {
        "version": 1,
        "name": "n",
        "resources": {"nodes": 2, "gpus_per_node": 8},
        "launch": {"program": "t.py", "args": ["a"]},
        "env": {"A": "b"},
        "parallelism": {"tp": 2},
        "slurm": {"extra": {"x": True}, "mail": {"type": ["END"]}},
        "resilience": {"checkpoint": {"async": True, "size_gb": 1.5}},
        "cluster": {"partitions": {"batch": {"max_time": "1:00:00"}}},
        "model": {"layers": 2, "moe": {"experts": 8, "top_k": 2}},
    }
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        section = draw(st.sampled_from(sorted(data)))
        if isinstance(data[section], dict) and draw(st.booleans()):
            key = draw(
                st.sampled_from([*sorted(data[section]), "nodes", "tp", "bogus", "async", "A-B", "9X"])
            )
            data[section] = {**data[section], key: draw(st.one_of(scalars, st.lists(scalars, max_size=2)))}
        else:
            data[section] = draw(st.one_of(scalars, st.dictionaries(st.sampled_from(["a", "b"]), scalars)))
    return data


def _pydantic_ok(data: Any, model: Any) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_valid())
def test_fast_check_agrees_with_the_models(data: dict[str, Any]) -> None:
    if data.get("version") is True or isinstance(data.get("version"), float):
        # pydantic lets True and 1.0 through Literal[1] (both == 1); the fast check does not, and
        # lint answers `version: 1.0` with JC003 "write `version: 1`"
        assert not fastcheck.valid(data, "JobSpec")
        return
    assert fastcheck.valid(data, "JobSpec") == _pydantic_ok(data, JobSpec)
    profile = {k: v for k, v in data.items() if k != "name"} | {"profile": "p"}
    assert fastcheck.valid(profile, "Profile") == _pydantic_ok(profile, Profile)


@settings(max_examples=200, deadline=None)
@given(near_valid())
def test_dataclasses_hold_what_the_models_hold(data: dict[str, Any]) -> None:
    if not fastcheck.valid(data, "JobSpec"):
        return
    assert PlainJobSpec.build(data).dump() == JobSpec.model_validate(data).model_dump(by_alias=True)


def test_every_node_of_the_schema_compiles() -> None:
    """The checks are compiled as values reach them; every node compiles, so no spec can meet one
    the walker does not understand (an unsupported keyword is a ValueError here, not in a lint)."""
    nodes: list[Any] = list(SCHEMA_DEFS.values())
    defs = fastcheck._validators()
    while nodes:
        node = nodes.pop()
        if not isinstance(node, dict):
            continue
        fastcheck._compile(node, defs)
        nodes.extend(node.get("properties", {}).values())
        nodes.extend(node.get("anyOf", []))
        for key in ("items", "propertyNames", "additionalProperties"):
            nodes.append(node.get(key))
    for name in SCHEMA_DEFS:
        assert callable(defs[name])


def test_the_literals_are_the_packaged_json() -> None:
    """What lint reads from `jobc.data.literals` is what the packaged JSON files say."""
    import json

    from jobc.data import literals, read_text

    schema, gpus, models = (
        json.loads(read_text(n)) for n in ("jobc.schema.json", "gpus.json", "models.json")
    )
    assert schema["$defs"] == literals.SCHEMA_DEFS
    assert gpus == literals.GPUS
    assert models == literals.MODELS
