"""The secret shapes and their prefilter: what they find, how they mask, and that they stay linear."""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobc.tables import secrets
from jobc.tables.secrets import PREFILTER, SHAPES, in_line, mask, shape

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
HF = "hf_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
WANDB = "0123456789abcdef0123456789abcdef01234567"

# (shell line, the secret's text, what the first reason says)
LINES = [
    ("git clone https://me:s3cretPassw0rd@git.example.com/x.git", "s3cretPassw0rd", "URL with a password"),
    (f'curl -H "Authorization: Bearer {JWT}" https://x.io', JWT, "JSON Web Token"),
    ("export DATABASE_URL=postgres://u:pw@host/db", "pw", "URL with a password"),
    ("export DB_PASSWORD=12345678", "12345678", "DB_PASSWORD"),
    (f"export HF_TOKEN={HF}", HF[3:], "HF_TOKEN"),
    ("WANDB_API_KEY=abcdef python x.py", "abcdef", "WANDB_API_KEY"),
    # near miss of Ray's published default below: any other password is one
    ("ray start --head --redis-password='5241580000000001'", "5241580000000001", "--redis-password"),
    ("python train.py --token s3cret", "s3cret", "--token"),
    ("python train.py --hf-token=s3cret", "s3cret", "--hf-token"),
    ("sshpass -p hunter2 ssh host true", "hunter2", "-p"),
    (f"wandb login {WANDB}", WANDB, "W&B"),
]
NOT_SECRETS = [
    "mkdir -p /lustre/me/out",
    'curl -H "Authorization: Bearer $API_TOKEN" https://x.io',
    "git clone git@github.com:org/repo.git",
    "export DATABASE_URL=postgres://u:${DB_PASSWORD}@host/db",
    "export HF_TOKEN_PATH=/lustre/me/.hf_token",
    "python train.py --pad-token '<|endoftext|>'",
    "export TOKENIZERS_PARALLELISM=false",
    "echo me@example.com",
    # Ray's documented default (ray_constants.REDIS_DEFAULT_PASSWORD): in every guide, it hides nothing
    "ray start --address $head:6379 --redis-password='5241580000000000'",
]


@pytest.mark.parametrize(("line", "secret", "why"), LINES)
def test_a_secret_in_a_shell_line_is_found_and_masked(line: str, secret: str, why: str) -> None:
    found = in_line(line)
    assert found, line
    assert why in found[0].reason
    assert secret not in mask(line)
    assert secret not in found[0].reason


@pytest.mark.parametrize("line", NOT_SECRETS)
def test_a_look_alike_is_not(line: str) -> None:
    assert in_line(line) == []
    assert mask(line) == line


def test_mask_keeps_a_tokens_well_known_prefix() -> None:
    assert mask(f"export HF_TOKEN={HF}") == "export HF_TOKEN=…"
    assert mask(f"--comment={HF}") == "--comment=hf_…"
    assert shape(HF) == "a Hugging Face token (hf_…)"


def test_the_prefilter_passes_every_shape() -> None:
    # one list: each shape's prefix is in the prefilter, so a line it skips holds no shape
    for what, _, prefix, _ in SHAPES:
        example = {"hf_": HF, "eyJ": JWT, r"Bearer\s++": "Bearer " + "a" * 20}.get(prefix)
        if example is not None:
            assert PREFILTER.search(example), what
            assert shape(example) is not None, what


def _cpu(work: Callable[[], object]) -> float:
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


HOSTILE = ["--", "NCCL", "=a:", "-eyJaaaaaaaa", "a:b=@", "hf_", "'a", 'x="', "Bearer -", "sk-a-"]


@pytest.mark.parametrize("unit", HOSTILE)
def test_a_long_hostile_line_is_read_in_linear_time(unit: str) -> None:
    """A 1 MB line costs about ten times a 100 kB one (quadratic work would cost a hundred)."""
    big = unit * (1_000_000 // len(unit))
    small = big[: len(big) // 10]

    def read(line: str) -> Callable[[], object]:
        return lambda: (in_line(line), shape(line), mask(line), secrets.words(line))

    ratio = _cpu(read(big)) / max(_cpu(read(small)), 1e-4)
    assert ratio < 30, f"{unit!r}: a ten times longer line took {ratio:.0f} times as long"


def test_each_shape_runs_only_where_its_literal_prefix_stands() -> None:
    """A shape's pattern is compiled and run only for a text that holds its prefix's literal
    start: that start must be literal text, and every way the prefix matches must begin with it."""
    for (_, _, prefix, _), needles in zip(SHAPES, secrets._NEEDLES, strict=True):
        alternatives = prefix.split("|")
        assert len(needles) == len(alternatives)
        for needle, alternative in zip(needles, alternatives, strict=True):
            assert needle
            assert re.fullmatch(r"[A-Za-z0-9_-]+", needle), needle
            assert alternative.startswith(needle)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["hF_", "GhP_", "Github_PAT_", "akIA", "Sk-", "XOXb-", "bEaReR \t", "@", "ToKeN",
                             "pAsSwD", "Login", "WANDB", "eyJ", "AIZA", "nvAPI-", "x", "_", "-", " "]),
            st.text(alphabet=st.characters(max_codepoint=0x2200), max_size=4),
        ),
        max_size=8,
    ).map("".join)
)  # fmt: skip
def test_may_hold_answers_as_the_prefilter(text: str) -> None:
    assert secrets.may_hold(text) == (PREFILTER.search(text) is not None)
