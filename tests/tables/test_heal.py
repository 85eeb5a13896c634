"""The retry vocabulary: one table, the spec's enum, and every class triage can name."""

from __future__ import annotations

import typing

from jobc.jobs.signatures import CLASSES as TRIAGE_CLASSES
from jobc.spec.model import RetryClass
from jobc.tables import heal


def test_the_spec_accepts_exactly_the_tables_classes() -> None:
    assert typing.get_args(RetryClass) == heal.CLASSES


def test_every_class_triage_names_is_placed() -> None:
    # a new triage class must be put on one side: retried as a node's fault, or never (with why)
    assert set(TRIAGE_CLASSES) <= set(heal.CLASSES), set(TRIAGE_CLASSES) - set(heal.CLASSES)


def test_the_sides_do_not_overlap_and_each_says_why() -> None:
    assert not set(heal.RETRYABLE) & set(heal.NEVER)
    assert all(why.strip() for why in (*heal.RETRYABLE.values(), *heal.NEVER.values()))
    assert heal.UNKNOWN in heal.NEVER
    assert heal.retryable("node_fail")
    assert not heal.retryable("exception")


def test_the_docs_say_of_every_class_whether_it_is_retried() -> None:
    from tests.support import ROOT

    page = (ROOT / "docs" / "healing.md").read_text(encoding="utf-8")
    table = page[page.index("| class | retried when listed | why |") :]
    for cls in heal.CLASSES:
        assert f"`{cls}`" in table, cls
