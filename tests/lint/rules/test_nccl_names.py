"""JC407's "did you mean" answers exactly as difflib.get_close_matches, for any name."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from jobc.lint.rules.fabric import _nccl_names

KNOWN = sorted(_nccl_names.names().exact)
# names near the known ones (a known name with a few characters changed) and any others
NAMES = st.one_of(
    st.tuples(
        st.sampled_from(KNOWN), st.lists(st.tuples(st.integers(0, 40), st.sampled_from("AEIOU_SLX")))
    ).map(
        lambda t: (
            "".join(c for i, c in enumerate(t[0]) if i not in {k for k, _ in t[1]})
            + "".join(c for _, c in t[1][:2])
        )
    ),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789", max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(NAMES, st.sampled_from([0.6, 0.85]))
def test_the_suggestion_is_difflibs(name: str, cutoff: float) -> None:
    expected = difflib.get_close_matches(name, KNOWN, n=1, cutoff=cutoff)
    assert _nccl_names._closest(name, cutoff, frozenset(KNOWN)) == (expected[0] if expected else None)
