"""Every Python block of the README and of the docs pages (docs/*.md) runs as written (from the repository root,
as a script, as a user would: `__name__` is "__main__", so a block may guard what only a script's main part does,
such as starting Dask's worker processes), and a `print(...)  # value` line whose comment is a Python literal
prints exactly that value (the page shows what the code prints).

Every `sh` block runs too, in bash from the repository root with `hfcompat` and `python` standing for this
interpreter and the checkout's package, and must exit 0. A block fenced `shell` is shown, not run: a synopsis
with `[options]`, a `make` target, or a command that needs more than this machine has."""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(language: str) -> list[tuple[str, str]]:
    """(name, code) of each block fenced with `language` in the pages, named "page block N"."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        codes = re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)
        found += [(f"{page.relative_to(ROOT)} block {number}", code) for number, code in enumerate(codes, 1)]
    return found


PYTHON_BLOCKS = blocks("python")
SHELL_BLOCKS = blocks("sh")
PRINT_SHOWING = re.compile(r"^\s*print\(.*\)\s+#\s*(.+?)\s*$")


def shown_outputs(code: str) -> dict[int, tuple[str, Any]]:
    """Line number -> (comment, its value) of each `print(...)  # literal` line of a block."""
    found = {}
    for number, line in enumerate(code.split("\n"), 1):
        match = PRINT_SHOWING.match(line)
        if match is None:
            continue
        try:
            found[number] = (match.group(1), ast.literal_eval(match.group(1)))
        except (ValueError, SyntaxError):  # prose, not a shown value
            continue
    return found


def needs_missing_shared(code: str) -> bool:
    """True when the block reads ../shared and it is not beside the repository."""
    return "../shared" in code and not (SHARED / "refs").is_dir()


def test_the_pages_have_blocks() -> None:
    """The blocks are found (a changed fence would otherwise pass every case silently), and so are the values
    they show; the README has its example and the docs their shell examples."""
    assert len(PYTHON_BLOCKS) >= 15
    assert sum(len(shown_outputs(code)) for _, code in PYTHON_BLOCKS) >= 20
    assert any(name.startswith("README.md") for name, _ in PYTHON_BLOCKS)
    assert len(SHELL_BLOCKS) >= 1


@pytest.mark.parametrize("name, code", PYTHON_BLOCKS, ids=[name for name, _ in PYTHON_BLOCKS])
def test_python_block_runs(name: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The block runs without error, prints something, and prints the values its comments show."""
    if needs_missing_shared(code):
        pytest.skip(f"{name} reads ../shared, which is not beside the repository")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    by_line: dict[int, str] = {}

    def recording_print(*args: Any, sep: str = " ", end: str = "\n", file: Any = None, flush: bool = False) -> None:
        """print, also noting the first text each line of the block prints."""
        caller = sys._getframe(1)
        if caller.f_code.co_filename == name:
            by_line.setdefault(caller.f_lineno, sep.join(map(str, args)))
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, name, "exec"), {"__name__": "__main__", "print": recording_print})
    assert printed.getvalue().strip(), f"{name} printed nothing"
    for line, (comment, value) in shown_outputs(code).items():
        assert by_line.get(line) in (comment, str(value)), f"{name}, line {line}: shows {comment}"


@pytest.mark.parametrize("name, code", SHELL_BLOCKS, ids=[name for name, _ in SHELL_BLOCKS])
def test_shell_block_runs(name: str, code: str) -> None:
    """The block's commands all succeed (bash -e, pipefail), `hfcompat` being this checkout's command."""
    if needs_missing_shared(code):
        pytest.skip(f"{name} reads ../shared, which is not beside the repository")
    python = shlex.quote(sys.executable)
    prelude = (f"set -euo pipefail\nhfcompat() {{ {python} -m hfcompat \"$@\"; }}\n"
               f"python() {{ {python} \"$@\"; }}\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "TOKENIZERS_PARALLELISM": "false", "NO_COLOR": "1"}
    result = subprocess.run(["bash", "-c", prelude + code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"{name} exited {result.returncode}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
