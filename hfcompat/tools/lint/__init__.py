"""`hfcompat.lint`: what is wrong or risky in a tokenizer that still loads.

Each check is exact: it reports only what it proves, and skips a tokenizer it cannot judge
exactly (a check that does not apply to a model kind returns nothing). `vocabulary.py` holds
the checks of the vocabulary, `pipeline.py` those of the components around the model:

- `unreachable-token` / `merge-unreachable`: BPE vocabulary tokens that the merge loop cannot
  build from their own string (the authoritative test: run the model's merges on the token's
  initial symbols and see whether that one token comes back; a token made inside a word never
  had a merge cross its edges, so it comes back alone too). With `ignore_merges` such a token is
  still produced when a whole pre-token equals it, so it is reported as information.
- `unreachable-byte`: byte-level tokens that no UTF-8 text holds (bytes C0, C1, F5..FF, or a
  byte sequence no valid UTF-8 contains), and the `<0xHH>` tokens of a byte-fallback BPE whose
  byte only chars inside the vocabulary have.
- `shadowed-token`: vocabulary tokens whose text holds an added token, which the added-token
  matcher always takes first, so the model never sees that text whole.
- `special-token-missing`, `special-token-id-mismatch`, `special-token-not-special`,
  `unk-token-missing`: what the post-processor inserts, and the model's unknown token.
- `byte-level-gap`, `byte-fallback-gap`: byte symbols missing from a byte-level or byte-fallback
  vocabulary.
- `regex-engine-difference`: Split / Replace patterns that Oniguruma (what `tokenizers` runs) and
  the `regex` module read differently (`hfcompat.pipeline.oniguruma.differences`).
- `normalizer-not-idempotent`: normalize(normalize(x)) != normalize(x) on a probe string.
- `duplicate-ids`, `duplicate-tokens`, `id-gaps`: the id space.
- `merge-before-part`: the merges of a rank file listed before the merge that builds one of
  their parts (tokens ranked before a half: tiktoken builds them once the later part exists, and
  so do hfcompat and tokenizers on the converted file).
- `unknown-piece-missing`: a byte-fallback SentencePiece model without an UNKNOWN piece
  (sentencepiece loads it; its unk_id() is -1).
- `bpe-char-not-a-piece`: chars of a SentencePiece BPE model's pieces that are no piece
  (sentencepiece merges through them, and spells them in bytes or unk where no merge does).
- `piece-not-utf8`: SentencePiece pieces whose bytes are not UTF-8 (sentencepiece loads them and
  never gives them; decoding their ids fails in its Python API).
- `char-model-long-piece`: pieces of several chars in a SentencePiece CHAR model (sentencepiece
  never gives them; hfcompat neither, they only decode).
- `undefined-token-type`: GGUF token types outside 1..6 (llama.cpp's UNDEFINED: encoded as
  normal tokens, dropped by its detokenizer).
- `gguf-dead-merges`: GGUF merges naming a string that is no token and that no merge forms
  (llama.cpp never applies them; tokenizers would refuse them).
- `gguf-surplus-values`, `gguf-special-id-outside`: GGUF token types or scores with more values
  than tokens (llama.cpp reads one per token), special ids outside the vocabulary (llama.cpp
  keeps its own id).
- `repeated-rank-token`: a tiktoken rank file listing a token twice (tiktoken keeps the last rank).
- `repeated-json-key`: a tokenizer.json repeating a key in one object where `tokenizers` keeps
  the last value (hfcompat too; where tokenizers refuses it, so does hfcompat).
- `added-token-id-mismatch`: a tokenizer.json whose added tokens say other ids than the ones
  `tokenizers` gives them on load (it ignores the written ids).
- `sentencepiece-json-inexact`: a SentencePiece model whose tokenizer.json conversion cannot be
  exact (the reasons `hfcompat.convert` refuses with).
- `gguf-pre-missing`: a byte-level GGUF without a `tokenizer.ggml.pre` name, which llama.cpp (and
  hfcompat) reads with its 'default' splits.

A GGUF's `tokenizer.ggml.pre` name is not checked against its tokens: the file ties the name to
nothing else, and what a vocabulary "looks like" would be a guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from ...formats.load import load
from ...tokenizer import Tokenizer
from .base import SEVERITIES, Finding
from .pipeline import (added_token_ids, gguf_pre_name, normalizer_idempotence, regex_patterns,
                       repeated_json_keys, sentencepiece_conversion, shadowed_tokens, special_tokens)
from .vocabulary import (bpe_chars_not_pieces, byte_coverage, dead_gguf_merges, id_space, ignored_gguf_values,
                         long_char_model_pieces, merge_unreachable, merges_before_parts, missing_unknown_piece,
                         pieces_not_utf8, repeated_rank_lines, undefined_token_types, unreachable_bytes,
                         unreachable_tokens)

__all__ = ["CHECKS", "Finding", "counts", "has_errors", "lint", "merge_unreachable", "report"]

CHECKS: tuple[Callable[[Tokenizer], list[Finding]], ...] = (
    special_tokens, byte_coverage, id_space, unreachable_tokens, merges_before_parts, unreachable_bytes,
    undefined_token_types, dead_gguf_merges, missing_unknown_piece, long_char_model_pieces, pieces_not_utf8,
    bpe_chars_not_pieces, shadowed_tokens, regex_patterns, normalizer_idempotence, sentencepiece_conversion, gguf_pre_name,
)


def lint(tokenizer_or_path: Tokenizer | str | Path, **load_options: Any) -> list[Finding]:
    """The findings on a tokenizer (or on the file `hfcompat.load` reads), errors first.

    A file is read with `strict=False` unless the options say otherwise: what only hfcompat
    refuses (an id given to two tokens) is then a finding, not a load error."""
    if isinstance(tokenizer_or_path, Tokenizer):
        tokenizer, path = tokenizer_or_path, None
    else:
        tokenizer, path = load(tokenizer_or_path, **{"strict": False, **load_options}), Path(tokenizer_or_path)
    findings = [found for check in CHECKS for found in check(tokenizer)]
    if path is not None:
        findings += added_token_ids(path, tokenizer, load_options.get("format")) + \
            repeated_json_keys(path, load_options.get("format")) + \
            repeated_rank_lines(path, tokenizer) + ignored_gguf_values(path, tokenizer)
    return sorted(findings, key=lambda found: SEVERITIES.index(found.severity))


def has_errors(findings: Iterable[Finding]) -> bool:
    """True when a finding has error severity (the CLI's exit code 1)."""
    return any(found.severity == "error" for found in findings)


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings of each severity."""
    findings = list(findings)
    return {severity: sum(found.severity == severity for found in findings) for severity in SEVERITIES}


def report(findings: list[Finding], name: str) -> str:
    """The human-readable report: a count line, then one block per finding."""
    summary = ", ".join(f"{n} {severity}{'s' if n != 1 else ''}" for severity, n in counts(findings).items())
    return "\n".join([f"{name}: {summary}", *map(str, findings)])
