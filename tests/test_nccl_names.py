"""The close-match search for NCCL variable names answers exactly as difflib's does."""

from __future__ import annotations

import difflib
import random

import pytest

from jobc.rules.fabric._nccl_names import _closest, names


def typo(rng: random.Random, word: str) -> str:
    chars = list(word)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars))
        op = rng.choice("drsi")
        if op == "d" and len(chars) > 1:
            del chars[i]
        elif op == "r":
            chars[i] = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
        elif op == "s" and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars.insert(i, rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
    return "".join(chars)


@pytest.mark.parametrize("cutoff", [0.6, 0.85])
def test_the_same_answers_as_difflib(cutoff: float) -> None:
    known = names().exact
    rng = random.Random(7)
    words = sorted(known)
    probes = [typo(rng, rng.choice(words)) for _ in range(300)]
    probes += [
        "PYTORCH_CUDA_ALLOC_CONF",
        "OMP_NUM_THREADS",
        "HF_HOME",
        "NCCL_DEBUG",
        "X",
        "NCCL_",
        "nccl_debug",
    ]
    for name in probes:
        expected = difflib.get_close_matches(name, sorted(known), n=1, cutoff=cutoff)
        assert _closest(name, cutoff, known) == (expected[0] if expected else None), name
