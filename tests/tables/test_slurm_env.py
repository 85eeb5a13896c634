"""The names Slurm sets, and what the import says of a `SLURM_` name outside them."""

from __future__ import annotations

from jobc.tables import slurm_env


def test_a_misspelt_name_is_unknown_and_the_close_one_named() -> None:
    assert slurm_env.unknown("SLURM_NN")
    assert slurm_env.closest("SLURM_NN") == "SLURM_NNODES"
    assert slurm_env.closest("SLURM_PROCDI") == "SLURM_PROCID"


def test_names_slurm_sets_and_families_are_known() -> None:
    for name in ("SLURM_NNODES", "SLURM_JOB_NUM_NODES", "SLURMD_NODENAME", "SLURM_GPUS_ON_NODE"):
        assert not slurm_env.unknown(name), name
    # tails a site or plugin chooses, and names without Slurm's beginning, are not Slurm's to say
    assert not slurm_env.unknown("SLURM_SPANK_PYXIS_CONTAINER_IMAGE")
    assert not slurm_env.unknown("SLURM_JOB_SOMETHING_NEW")
    assert not slurm_env.unknown("MY_SLURM_NN")


def test_a_name_far_from_every_slurm_name_gets_no_guess() -> None:
    assert slurm_env.unknown("SLURM_XYZZY_QUUX")
    assert slurm_env.closest("SLURM_XYZZY_QUUX") is None
