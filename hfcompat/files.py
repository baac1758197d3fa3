"""Files hfcompat writes: atomically (the target appears complete or not at all), and where
it keeps derived data (the cache directory)."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
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
