"""syrupy extensions that keep one readable file per example under golden/.

`golden/<spec-name>.sbatch` is the batch script, `golden/<spec-name>.attach.sh` the attach
script. Update with `uv run pytest tests/compile/test_golden.py --snapshot-update`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from tests.compile.support import GOLDEN

if TYPE_CHECKING:
    from syrupy.location import PyTestLocation


class _Golden(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(GOLDEN)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(GOLDEN)

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation, index: Any = 0) -> str:
        # The name passed as snapshot(name=…): the spec's name, not the test's.
        return str(index)

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        return snapshot_location.endswith(cls._snapshot_suffix())


class SbatchGolden(_Golden):
    file_extension = "sbatch"


class AttachGolden(_Golden):
    file_extension = "attach.sh"
