"""The compiled script's contract: what the compiler prints is what triage reads, one home per code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobc.runtime import contract as runtime_contract
from jobc.runtime import signals as runtime_signals
from jobc.tables import contract

SAMPLES: dict[str, tuple[str, ...]] = {
    "job": ("demo", "1234", "2", "node[1-2]"),
    "layout": ("world 8 = tp 2 x pp 1 x cp 1 x dp 4 (ep 1), torchrun launch",),
    "master": ("node1", "29500", "0"),
    "signal forwarded": ("USR1",),
    "signal noted": ("TERM",),
    "step end": ("75",),
    "requeue": ("1234", "the program exited with the requeue code 75", "1", "3"),
    "agent requeue": ("75",),
    "agent hang": ("86",),
    "runtime watchdog": ("120", "SIGUSR1", "124"),
}


def _printed(banner: contract.Banner, values: tuple[str, ...]) -> str:
    """What the shell's printf prints for these values (%s and %d alike)."""
    pieces = iter(values)
    return re.sub(r"%[sd]", lambda _: next(pieces), banner.printf)


@pytest.mark.parametrize("banner", contract.BANNERS, ids=lambda b: b.name)
def test_every_banner_is_read_back_by_its_pattern(banner: contract.Banner) -> None:
    line = _printed(banner, SAMPLES[banner.name])
    m = banner.pattern.search(line)
    assert m is not None, line
    assert len(m.groups()) == len(banner.groups)
    read = [g for g in m.groups() if g is not None]
    assert set(read) <= set(SAMPLES[banner.name]) | {"torchrun", "8"}


@pytest.mark.parametrize("banner", contract.BANNERS, ids=lambda b: b.name)
def test_a_huge_or_unicode_number_is_not_read(banner: contract.Banner) -> None:
    """A 5000-digit number or a superscript digit never reaches int()."""
    for odd in ("9" * 5000, "²"):
        values = tuple(odd if v.isdigit() else v for v in SAMPLES[banner.name])
        if values == SAMPLES[banner.name]:
            continue
        m = banner.pattern.search(_printed(banner, values))
        assert m is None or not any(g and (len(g) > 40 or "²" in g) and g in values for g in m.groups())


def test_the_shell_line_prints_the_format() -> None:
    assert contract.MASTER.shell('"$A"', '"$B"', '"$C"') == (
        'printf \'jobc: master %s:%s, restart %s\\n\' "$A" "$B" "$C"'
    )


def test_the_runtime_keeps_the_same_exit_codes() -> None:
    """The runtime imports nothing of jobc: its own constants must equal the contract's."""
    assert runtime_contract.DEFAULT_REQUEUE_EXIT_CODE == contract.REQUEUE_EXIT_CODE
    assert runtime_contract.WATCHDOG_EXIT_CODE == contract.WATCHDOG_EXIT_CODE
    assert runtime_contract.HANG_EXIT_CODE == contract.HANG_EXIT_CODE
    codes = {contract.REQUEUE_EXIT_CODE, contract.WATCHDOG_EXIT_CODE, contract.HANG_EXIT_CODE, 0, 1}
    assert len(codes) == 5


def test_the_runtime_prints_the_watchdog_line_triage_reads() -> None:
    source = Path(runtime_signals.__file__).read_text(encoding="utf-8")
    assert "jobc.runtime: still running " in source
    assert "(JOBC_GRACE_S); forcing exit with code " in source
    assert contract.RUNTIME_WATCHDOG.printf.startswith("jobc.runtime: still running ")


def test_the_requeue_code_has_one_home() -> None:
    """No other module of jobc writes 75 as the requeue code (the runtime's copy is tested above)."""
    src = Path(contract.__file__).resolve().parents[1]
    homes = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if re.search(r"REQUEUE_EXIT_CODE\s*=\s*75|\"75\"\)", p.read_text(encoding="utf-8"))
    ]
    assert sorted(homes) == ["runtime/contract.py", "tables/contract.py"]
