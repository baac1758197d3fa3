"""What a built wheel holds: the demo's fixture ships as package data (so `hfcompat demo` runs from an installed
wheel), the sdist has the Cython sources (.pyx, .pxd), and pyproject says the Python versions the pins need. .ci/run builds
and installs the wheel itself (`make wheel-smoke`); these checks fail fast without a build."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import hfcompat
from hfcompat.cli import demo

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_demo_reads_its_fixture_from_the_package() -> None:
    """The fixture is inside the package, declared as package data, and fixtures/ links to the same file."""
    package = Path(hfcompat.__file__).resolve().parent
    assert demo.FIXTURE.is_file() and demo.FIXTURE.is_relative_to(package)
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["hfcompat"]
    relative = demo.FIXTURE.relative_to(package).as_posix()
    assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), patterns
    assert (ROOT / "fixtures" / "multilingual.txt").resolve() == demo.FIXTURE


def test_the_sdist_has_the_cython_sources() -> None:
    """MANIFEST.in puts every .pyx and .pxd file in the sdist: the wheel is built from it, and
    the twins cimport the shared C structures' .pxd files."""
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    included = [line.split()[2:] for line in manifest.splitlines() if line.startswith("recursive-include hfcompat ")]
    patterns = [pattern for line in included for pattern in line]
    sources = [path for path in (ROOT / "hfcompat").rglob("*") if path.suffix in (".pyx", ".pxd")]
    assert {path.suffix for path in sources} == {".pyx", ".pxd"}
    for path in sources:
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path


def test_requires_python_is_what_the_pins_need() -> None:
    """transformers 5.24 and mistral-common 1.13 (test extra) need Python 3.11."""
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
