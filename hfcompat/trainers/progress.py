"""Progress bars for long training steps (tqdm), silent when progress is off."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from tqdm import tqdm


@contextmanager
def progress_bar(show: bool, total: int | None, description: str, unit: str = "it") -> Iterator[tqdm]:
    """A tqdm bar closed on exit, also on Ctrl-C (disabled bars cost nothing)."""
    bar = tqdm(total=total, desc=description, unit=unit, disable=not show, leave=False)
    try:
        yield bar
    finally:
        bar.close()
