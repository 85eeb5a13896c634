"""The GPU model a `--gres=gpu:TYPE:N` names is imported as a catalogue key only when the type is
that key's model, never a model whose name merely starts the same way."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes


def _gpu(gres: str) -> object:
    text = f"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres={gres}\nsrun python train.py\n"
    return imported(read_bytes(text.encode(), "job.sh")).data["resources"].get("gpu")


@pytest.mark.parametrize(
    ("gres", "key"),
    [
        ("gpu:l40s:4", "l40s-48gb"),
        ("gpu:h200:8", "h200-141gb"),
        ("gpu:GH200:1", "gh200"),
        ("gpu:a100-80gb:4", "a100-80gb"),
    ],
)
def test_a_type_that_is_a_catalogue_model_gives_its_key(gres: str, key: str) -> None:
    assert _gpu(gres) == key


@pytest.mark.parametrize(
    "gres",
    [
        "gpu:l4:4",  # NVIDIA L4, 24 GB: not the L40S
        "gpu:l40:4",  # the L40 is not the L40S either
        "gpu:a100:4",  # 40 or 80 GB: the type does not say
        "gpu:h10:4",
    ],
)
def test_near_miss_a_type_that_only_starts_like_a_model_gives_no_key(gres: str) -> None:
    assert _gpu(gres) is None
