"""Every Python block of the README runs as written (from the repository root, as a script, as a
user would: `__name__` is "__main__", so a block may guard what only a script's main part does,
such as starting Dask's worker processes)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_blocks() -> None:
    """The blocks are found (a changed fence would otherwise pass every case silently)."""
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Block `index` runs without error and prints something."""
    code = BLOCKS[index]
    if "../shared" in code and not (SHARED / "refs").is_dir():
        pytest.skip(f"README block {index + 1} reads ../shared, which is not beside the repository")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"README.md block {index + 1}", "exec"), {"__name__": "__main__"})
    assert printed.getvalue().strip(), f"README block {index + 1} printed nothing"
