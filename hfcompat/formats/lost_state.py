"""What a destination format would lose of a tokenizer's state, found by a text it changes.

Two pieces of state have no field in tokenizer.json (nor in a GGUF, which hfcompat reads the way
T5TokenizerFast runs it) and are fixed in a SentencePiece .model:

- how a precompiled charsmap is applied: SentencePiece takes the longest rule at each position
  (`Precompiled(longest_match=True)`), tokenizers' `Precompiled` the shortest rule prefixing each
  grapheme cluster under 6 bytes, char by char otherwise (normalizers/charsmap.py);
- how Unigram adds path scores: sentencepiece in float32, tokenizers in float64.

A writer asks `lost_in(tokenizer, destination)` and hands the answer to `refuse_or_warn`. A
difference is reported only with a text whose result it changes, or, for a charsmap, where no
argument shows that the two applications agree on every text.
"""

from __future__ import annotations

import heapq
import sys
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import regex

from .. import models, normalizers
from ..errors import InexactConversion, UnsupportedConversion
from ..pipeline.normalized import NormalizedString
from ..tokenizer import Tokenizer

if TYPE_CHECKING:  # the components' modules load when a writer first checks one (a GPT-2 load needs none)
    from ..models.unigram import Unigram
    from ..normalizers.charsmap import CharsMap
    from ..normalizers.precompiled import Precompiled

SPACE = "\u2581"
_PACKAGE = str(Path(__file__).parents[1])
# Marks put after a rule's key to see whether tokenizers' per-cluster replacement drops them.
_MARKS = ("\u0301", "\u0308", "\u20d7")
# Texts where tokenizers' Precompiled is known to part from SentencePiece's normalizer with the
# usual charsmaps (nmt_nfkc and its kin), tried before the charsmap's own keys.
PROBES = ("\u00aa\u0301", "\uff76\uff9e", "\ufb01\u0301", "a\u0301\u0301", "\u1100\u1161\u11a8", "A\u0301",
          "1\u0301", "\uff21\u0301")
KEYS_TRIED = 2000  # the shortest keys tried after PROBES (walking all 224k of nmt_nfkc's takes a second)


@lru_cache(maxsize=1)
def _alone() -> "regex.Pattern[str]":
    """Chars that always stand alone as a grapheme cluster, or in one of 6 bytes or more (which
    tokenizers takes char by char): a charsmap whose keys are all single such chars is applied alike."""
    return regex.compile(r"[\p{GCB=Control}\p{GCB=CR}\p{GCB=LF}\U00010000-\U0010FFFF]")


@dataclass(frozen=True)
class Destination:
    """How a format's reader runs what tokenizer.json cannot say."""

    name: str
    longest_match: bool  # a charsmap applied as SentencePiece applies it
    float32_sums: bool  # Unigram path scores added in float32


TOKENIZER_JSON = Destination("tokenizer.json", longest_match=False, float32_sums=False)
GGUF = Destination("GGUF", longest_match=False, float32_sums=False)
SENTENCEPIECE = Destination("SentencePiece .model", longest_match=True, float32_sums=True)


def refuse_or_warn(differences: list[str], exact: bool) -> None:
    """Raise UnsupportedConversion listing `differences` when `exact`, else warn with the same text."""
    if not differences:
        return
    message = "; ".join(differences)
    if exact:
        raise UnsupportedConversion(f"{message} (exact=False, or --inexact, writes the nearest file)")
    warnings.warn(InexactConversion(f"the file written differs: {message}"), stacklevel=_outside_package())


def _outside_package() -> int:
    """The stacklevel of the first caller outside hfcompat (the line the warning should name)."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def lost_in(tokenizer: Tokenizer, destination: Destination) -> list[str]:
    """What `destination` would run differently in `tokenizer`, each with a text that shows it."""
    differences = []
    for normalizer in normalizers.flatten(tokenizer.normalizer):
        if isinstance(normalizer, normalizers.Precompiled):
            differences += _charsmap_lost(normalizer, destination)
    if type(tokenizer.model).__name__ == "Unigram":  # no Unigram module loaded to save a BPE
        differences += _sums_lost(tokenizer.model, destination)
    return differences


def _charsmap_lost(normalizer: "Precompiled", destination: Destination) -> list[str]:
    """The charsmap's application, if the destination's differs on some text."""
    lost = []
    if normalizer.longest_match and not destination.longest_match and normalizer.protected:
        # those the charsmap would change first, then those a rule runs on from
        symbols = sorted(normalizer.protected,
                         key=lambda symbol: normalizers.sentencepiece_normalized(normalizer.charsmap, symbol) == symbol)
        shown = repr(symbols[:5])[:-1] + (f", ... ({len(symbols)} in all)]" if len(symbols) > 5 else "]")
        lost.append(f"normalizer: SentencePiece leaves the user-defined symbols {shown} as they are where the "
                    f"charsmap would touch them (a rule beginning in one of them), which {destination.name} "
                    "cannot say")
    if normalizer.longest_match == destination.longest_match:
        return lost
    ours, theirs = ("SentencePiece's", "tokenizers'") if normalizer.longest_match else \
        ("tokenizers'", "SentencePiece's")
    text = differing_text(normalizer.charsmap)
    if text is not None:
        lost.append(f"normalizer: {destination.name} applies the charsmap as {theirs} normalizer does, not as "
                    f"{ours}; they differ on {text!r} (SentencePiece's gives "
                    f"{_normalized(normalizer.charsmap, text, True)!r}, tokenizers' "
                    f"{_normalized(normalizer.charsmap, text, False)!r})")
    elif not applied_alike(normalizer.charsmap):
        lost.append(f"normalizer: {destination.name} applies the charsmap as {theirs} normalizer does, not as "
                    f"{ours}; no text was found where they differ, but nothing shows that they agree")
    return lost


def differing_text(charsmap: CharsMap) -> str | None:
    """A text the charsmap's two applications make different (normalized text or alignments), or None.

    Tried: texts where tokenizers' Precompiled is known to part from SentencePiece (a mark after a
    char a rule replaces, Hangul jamo, half-width kana), then the shortest rules' keys alone and
    followed by a combining mark: tokenizers replaces a cluster by the shortest rule prefixing it
    (dropping the mark), and applies a rule whose key spans two clusters to neither.
    """
    if charsmap.is_identity:
        return None
    for text in PROBES:
        if _applied(charsmap, text, True) != _applied(charsmap, text, False):
            return text
    keys = heapq.nsmallest(KEYS_TRIED, normalizers.charsmap_rules(charsmap), key=lambda key: (len(key.encode("utf-8")), key))
    for key in keys:
        for text in (key, *(key + mark for mark in _MARKS)):
            if _applied(charsmap, text, True) != _applied(charsmap, text, False):
                return text
    return None


def applied_alike(charsmap: CharsMap) -> bool:
    """True when the two applications agree on every text: no rule, or only rules on single chars
    that always form a cluster alone or of 6 bytes or more (which tokenizers takes char by char)."""
    return charsmap.is_identity or all(len(key) == 1 and _alone().match(key)
                                       for key in normalizers.charsmap_rules(charsmap))


def _applied(charsmap: CharsMap, text: str, longest_match: bool) -> tuple[str, list[Any]]:
    """The normalized text and its alignments under one application of the charsmap."""
    normalized = NormalizedString(text)
    normalizers.Precompiled(charsmap, longest_match=longest_match).normalize(normalized)
    return normalized.normalized, normalized.alignments


def _normalized(charsmap: CharsMap, text: str, longest_match: bool) -> str:
    """`text` normalized by one application of the charsmap."""
    return _applied(charsmap, text, longest_match)[0]


def _sums_lost(model: "Unigram", destination: Destination) -> list[str]:
    """The Unigram's summation, if the destination's gives other pieces for some text."""
    float32 = model._round is not None
    if float32 == destination.float32_sums:
        return []
    twin = _summing_otherwise(model, float32)
    text = next((text for text in tie_texts(model) if _ids(model, text) != _ids(twin, text)), None)
    if text is None:
        return []
    ours, theirs = ("float32", "float64") if float32 else ("float64", "float32")
    return [f"model: Unigram adds path scores in {ours} and {destination.name} in {theirs}, which segment "
            f"{text!r} differently ({_ids(model, text)} against {_ids(twin, text)})"]


def _summing_otherwise(model: "Unigram", float32: bool) -> "Unigram":
    """The same Unigram adding its path scores the other way (float64 if `float32`)."""
    twin = models.Unigram(model.vocab, model.unk_id, model.byte_fallback)
    twin.without_matching(model.reserved_ids)
    if not float32:
        twin.sum_in_float32(model.unk_score)  # HF's min score - 10, rounded as sentencepiece rounds it
    return twin


def _ids(model: "Unigram", text: str) -> list[int]:
    """The ids of one pre-token."""
    return [token.id for token in model.tokenize(text)]


def tie_texts(model: "Unigram") -> list[str]:
    """Texts where two segmentations score alike in exact arithmetic, so that float32 and float64
    may break the tie apart: w^(a+b) where the pieces w^a and w^b (a != b) both exist, read as
    w^a + w^b or w^b + w^a; alone and after "▁" (the word start a Metaspace puts)."""
    powers: dict[str, set[int]] = {}
    for index, (piece, _) in enumerate(model.vocab):
        if index in model.reserved_ids or not piece:
            continue
        period = (piece + piece).find(piece, 1)
        powers.setdefault(piece[:period], set()).add(len(piece) // period)
    texts = []
    for root, counts in sorted(powers.items()):
        sums = sorted({a + b for a in counts for b in counts if a < b})
        texts += [prefix + root * count for count in sums for prefix in ("", SPACE)]
    return texts
