"""Pausing Python's cyclic garbage collector while many objects without cycles are made.

Reading a tokenizer makes hundreds of thousands of strings, tuples and lists (a vocabulary, its
merges, their tables) and encoding a long text makes millions of small tuples. None of them
holds a cycle, yet every 700 new containers start a collection, and the older generations are
walked again and again as they grow: on Gemma 4's tokenizer.json that was a fifth of the load.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Any, Iterator

# Chars above which encoding one text pauses the collector (see paused_for).
LONG_TEXT = 100_000


def paused_for(*texts: Any) -> bool:
    """Pause the collector while texts longer than LONG_TEXT chars in all are encoded: collecting
    their tuples again and again took over half the time of a 1,000,000-char text
    (benchmarks/pathological.py). Whether it paused it: the caller then turns it back on with
    `gc.enable()` in a `finally`. (A function, not a context manager: it runs once per text, and
    entering and leaving a context manager's two Python methods cost 1 us of a 30 us line.)"""
    length = 0
    for text in texts:
        if isinstance(text, str):
            length += len(text)
    if length > LONG_TEXT and gc.isenabled():
        gc.disable()
        return True
    return False


@contextmanager
def paused_while_loading() -> Iterator[None]:
    """Pause the collector while a tokenizer is read, and restore it as the caller had it (a
    load inside a load leaves it to the outer one). Nothing is lost: what a load leaves for the
    collector is collected when it next runs."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
