"""The lock file works on any machine with uv: no machine-local sources, torch on every Python.

A lock that pins a package to a directory on one machine (a `find-links` wheel directory, a
`path` source) makes `uv sync` fail everywhere else before anything is downloaded. And a dev
group whose torch is limited by a marker leaves the runtime tests skipped on the Pythons the
marker excludes, which looks like a pass.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
from packaging.markers import Marker
from packaging.specifiers import SpecifierSet

from tests.support import ROOT

# The machines a developer may sync on; (sys_platform, platform_machine, platform_system).
PLATFORMS = (
    ("linux", "x86_64", "Linux"),
    ("linux", "aarch64", "Linux"),
    ("darwin", "arm64", "Darwin"),
    ("win32", "AMD64", "Windows"),
)


def load(name: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / name).read_text(encoding="utf-8"))


def supported_pythons() -> list[str]:
    """The minor versions pyproject's classifiers name, each admitted by requires-python."""
    project = load("pyproject.toml")["project"]
    found = [
        m.group(1)
        for c in project.get("classifiers", [])
        if (m := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", c))
    ]
    requires = SpecifierSet(project["requires-python"])
    assert found, "pyproject.toml names no supported Python in its classifiers"
    assert all(f"{v}.0" in requires for v in found), (found, str(requires))
    return found


def local(location: str) -> bool:
    """A source only this machine can read: a file URL or a file-system path, not http(s)."""
    return not location.startswith(("https://", "http://"))


def lock_locations(lock: dict[str, Any]) -> list[tuple[str, str]]:
    """(package, where) for every source and file the lock would fetch."""
    found: list[tuple[str, str]] = []
    for package in lock["package"]:
        name = package["name"]
        source = package["source"]
        if source in ({"editable": "."}, {"virtual": "."}):
            continue  # the project itself
        for key in ("path", "directory", "editable", "virtual"):
            if key in source:
                found.append((name, f"{key}={source[key]}"))
        for key in ("registry", "url", "git"):
            if key in source:
                found.append((name, source[key]))
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        for file in files:
            for key in ("url", "path"):
                if key in file:
                    found.append((name, file[key] if key == "url" else f"path={file[key]}"))
    return found


def test_the_lock_names_no_machine_local_source() -> None:
    locations = lock_locations(load("uv.lock"))
    assert locations, "the lock lists no sources at all"
    offending = [(name, where) for name, where in locations if local(where) or where.startswith("path=")]
    assert not offending, (
        f"uv.lock pins packages to files only this machine has; `uv sync` fails elsewhere: {offending[:5]}"
    )


def test_pyproject_names_no_machine_local_source() -> None:
    uv = load("pyproject.toml").get("tool", {}).get("uv", {})
    offending: list[str] = []
    for key in ("find-links", "extra-index-url"):
        offending += [f"{key} = {where}" for where in uv.get(key, []) if local(where)]
    if "index-url" in uv and local(uv["index-url"]):
        offending.append(f"index-url = {uv['index-url']}")
    offending += [f"index {i.get('name')} = {i['url']}" for i in uv.get("index", []) if local(i["url"])]
    for name, source in uv.get("sources", {}).items():
        entries = source if isinstance(source, list) else [source]
        offending += [f"sources.{name} = {e}" for e in entries if "path" in e]
    assert not offending, offending


@pytest.mark.parametrize(("sys_platform", "machine", "system"), PLATFORMS)
def test_the_dev_group_has_torch_on_every_supported_python(
    sys_platform: str, machine: str, system: str
) -> None:
    lock = load("uv.lock")
    (jobc,) = [p for p in lock["package"] if p["name"] == "jobc"]
    torch_entries = [d for d in jobc["dev-dependencies"]["dev"] if d["name"] == "torch"]
    assert torch_entries, "the dev group has no torch: the runtime tests would all be skipped"
    versions = {p["version"]: p for p in lock["package"] if p["name"] == "torch"}
    for python in supported_pythons():
        env = {
            "python_version": python,
            "python_full_version": f"{python}.0",
            "sys_platform": sys_platform,
            "platform_machine": machine,
            "platform_system": system,
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "os_name": "nt" if sys_platform == "win32" else "posix",
        }
        chosen = [d for d in torch_entries if "marker" not in d or Marker(d["marker"]).evaluate(env)]
        assert chosen, f"no torch in the dev group for Python {python} on {sys_platform}/{machine}"
        for entry in chosen:
            package = versions[entry["version"]] if "version" in entry else next(iter(versions.values()))
            tag = "cp" + python.replace(".", "")
            wheels = [w["url"].rsplit("/", 1)[-1] for w in package.get("wheels", [])]
            assert any(f"-{tag}-" in w and machine.lower() in w.lower() for w in wheels), (
                f"torch {package['version']} has no {tag} wheel for {machine} in the lock"
            )
