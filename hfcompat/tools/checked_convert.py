"""`convert --check`: a conversion that takes its destination's place only once it verifies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..files import staged
from ..formats.convert import convert
from ..tokenizer import Tokenizer
from .verify import VerifyReport, verify


@dataclass
class CheckedConversion:
    """What `checked_convert` did: the tokenizer, the check's report (None when unchecked), and
    whether the destination was written."""

    tokenizer: Tokenizer
    report: VerifyReport | None
    written: bool


def checked_convert(source: str | Path, destination: str | Path, texts: Iterable[str] | None = None, *,
                    progress: bool = False, exact: bool = True, **load_options: Any) -> CheckedConversion:
    """Convert `source` into a scratch file beside `destination`, verify that file (in its own
    library) against `source` (in its own) on `texts`, and rename it over `destination` only when
    every text agrees: a failed check, or an error, leaves `destination` as it was. `exact` as in
    `convert`."""
    with staged(Path(destination)) as staging:
        tokenizer = convert(source, staging.path, exact=exact, **load_options)
        report = None if texts is None else verify(staging.path, texts, reference=source, progress=progress,
                                                   **load_options)
        written = report is None or report.ok
        if written:
            staging.commit()
    return CheckedConversion(tokenizer, report, written)
