"""open_regular: a file is opened; a FIFO, a device, a socket or a directory is refused at once,
each named for what it is."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from jobc.core.files import NotRegular, open_regular


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "job.out"
    path.write_bytes(b"line\n")
    with open_regular(path) as stream:
        assert stream.read() == b"line\n"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "job.out"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular) as caught:
        open_regular(fifo)  # a plain open() would wait here for ever
    assert caught.value.strerror == "a FIFO, not a regular file"


def test_a_device_a_socket_and_a_directory_are_named(tmp_path: Path) -> None:
    with pytest.raises(NotRegular, match="a device, not a regular file"):
        open_regular("/dev/zero")
    with pytest.raises(NotRegular, match="a directory, not a regular file"):
        open_regular(tmp_path)
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock"))
        # Linux refuses to open a socket as a file (ENXIO) before jobc can look at it
        with pytest.raises(OSError, match="No such device or address"):
            open_regular(tmp_path / "sock")


def test_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "absent")


def test_a_link_to_a_file_is_followed_and_to_a_fifo_refused(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with open_regular(tmp_path / "link") as stream:
        assert stream.read() == b"x"
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "to-pipe").symlink_to(tmp_path / "pipe")
    with pytest.raises(NotRegular):
        open_regular(tmp_path / "to-pipe")
