# The compiled twin's signatures: those of pieces.py, whose functions it mirrors.
from typing import Any, Callable

from .normalized import Span
from .pieces import PieceEntry, TextColumns

def assemble(pieces: list[str], starts: list[int], cache: Any, miss: Callable[[str], PieceEntry],
             alignments: list[Span] | None, direct: Callable[[str], Any] | None = None,
             max_chars: int = 0, mark: str | None = None) -> TextColumns | None: ...
def direct_entry(piece: str, direct: Callable[[str], Any], cache: Any, max_chars: int,
                 mark: str | None) -> PieceEntry | None: ...
def piece_ids(pieces: list[str], cache: dict[str, list[int]], ids_of: Callable[[str], list[int] | None], mark: str,
              capacity: int, max_chars: int) -> list[int] | None: ...
