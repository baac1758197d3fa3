"""Files hfcompat writes: atomically (the target appears complete or not at all), and where
it keeps derived data (the cache directory)."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to a temp file beside `path`, then rename it over `path`."""
    with atomic_target(Path(path)) as target:
        target.write_bytes(data)


@contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """A temp path beside `path` for a writer that wants a file name; renamed over `path` when the
    block ends, removed if it raises (so `path` appears complete or not at all)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        yield Path(temp_name)
        os.chmod(temp_name, 0o666 & ~_umask())
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise


@dataclass
class Staging:
    """A scratch directory beside a destination: write `path`, look at it, then `commit` it."""

    directory: Path
    destination: Path

    @property
    def path(self) -> Path:
        """Where to write: the destination's name inside the scratch directory."""
        return self.directory / self.destination.name

    def commit(self) -> None:
        """Move what was written to the destination's directory, each file by one rename (files
        written beside the destination, such as a sidecar, first; the destination last)."""
        for entry in sorted(self.directory.iterdir(), key=lambda entry: entry.name == self.destination.name):
            _move(entry, self.destination.parent / entry.name)


def _move(source: Path, target: Path) -> None:
    """Rename `source` over `target`; a directory into an existing one file by file (its other files stay)."""
    if source.is_dir() and target.is_dir():
        for child in source.iterdir():
            _move(child, target / child.name)
    else:
        os.replace(source, target)


@contextmanager
def staged(destination: Path) -> Iterator[Staging]:
    """A Staging beside `destination` (a directory when the destination is one); whatever was not
    committed when the block ends is removed, so a destination is replaced only by `commit`."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Staging(Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)),
                      destination)
    try:
        if destination.is_dir():
            staging.path.mkdir()
        yield staging
    finally:
        shutil.rmtree(staging.directory, ignore_errors=True)


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def cache_dir() -> Path:
    """Where hfcompat keeps derived data: $HFCOMPAT_CACHE_DIR, else $XDG_CACHE_HOME/hfcompat."""
    explicit = os.environ.get("HFCOMPAT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hfcompat"
