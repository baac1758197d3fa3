"""SentencePiece `.model` files read into a Tokenizer (writing them back: write.py).

A model is translated into the tokenizer.json pipeline that runs it exactly (see
`pipeline_from_proto`), so that hfcompat and HF `tokenizers` run the same components:

- normalizer: the precompiled charsmap, then SentencePiece's whitespace rules as `Replace`
  (remove_extra_whitespaces: leading and trailing spaces go, runs shrink to one; then
  escape_whitespaces: " " -> "▁"), then the dummy prefix as `Prepend("▁")` (or a "▁" after the
  last char with treat_whitespace_as_suffix);
- model: Unigram over the pieces (user-defined pieces carry the score SentencePiece gives them
  in its lattice), or BPE whose merges are every split of every piece, ranked by the piece's
  score: SentencePiece merges the adjacent pair whose concatenation is the best-scored piece,
  the leftmost one on ties, and ranking ties longest piece first makes runs of equal-scored
  pieces (Llama's whitespace pieces) grow from the left as SentencePiece grows them;
- decoder: control pieces to "", the unknown piece to its surface, byte pieces to bytes,
  "▁" to " ", and one leading space dropped.

hfcompat's own copy applies the charsmap with SentencePiece's longest-match rule (HF's
`Precompiled` applies it per grapheme cluster, see charsmap.py). A loaded model remembers its
ModelProto, so saving it again writes the same bytes.
"""

from __future__ import annotations

import base64
import math
import re
import struct
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, compress
from operator import attrgetter, itemgetter, ne, not_
from pathlib import Path
from typing import Any, Iterable

from google.protobuf.message import DecodeError

from ... import processors
from ...errors import FormatError
from ...normalizers import Precompiled, flatten
from ...normalizers.charsmap import rules_may_touch
from ...normalizers.replace import EXTRA_SPACES
from ...models.bpe import BPE, sentencepiece_merges
from ...models.unigram import Unigram
from ...models.wordlevel import WordLevel
from ...tokenizer import Tokenizer
from ..tokenizer_json import build_compiled, tokenizer_around, tokenizer_to_dict
from . import schema as spm

SPACE = "\u2581"
# Marks a piece's own "▁" while decoding: a lone surrogate, which no piece or decoded byte text holds.
PIECE_SPACE = "\ud800"
_REGEX_SPECIAL = set(".^$|()[]{}*+?\\-#&~")
# treat_whitespace_as_suffix: the dummy "▁" goes after the last char of a non-empty text.
AFTER_LAST_CHAR = r"(?<=[\s\S])\z"
UNK_PENALTY = 10.0  # sentencepiece's unknown-char score is the lowest normal score minus this
MATCHABLE = (spm.NORMAL, spm.USER_DEFINED)


@dataclass(frozen=True)
class SentencePieceSource:
    """The ModelProto a tokenizer was read from, with the reader's options."""

    proto: Any
    add_bos: bool = False
    add_eos: bool = False

    def pipeline(self) -> dict:
        """The tokenizer.json of the tokenizer as read (built again when asked, which costs a load:
        only a writer asks, to tell whether the tokenizer still is the file's)."""
        return tokenizer_to_dict(tokenizer_from_proto(self.proto, add_bos=self.add_bos, add_eos=self.add_eos))


def read_sentencepiece(path: str | Path, *, add_bos: bool = False, add_eos: bool = False) -> Tokenizer:
    """Read a SentencePiece .model file into a Tokenizer that encodes as sentencepiece does.

    `add_bos` / `add_eos`: what sentencepiece's options of those names do, as a post-processor
    (so `encode(..., add_special_tokens=False)` leaves them out).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FormatError("no such file", path=str(path)) from None
    try:
        return tokenizer_from_proto(read_model(data), add_bos=add_bos, add_eos=add_eos)
    except FormatError as error:
        raise error.at(path=str(path)) from None


def parse_model(data: bytes) -> Any:
    """Parse and check a serialized ModelProto."""
    return read_model(data).proto


def read_model(data: bytes) -> "ReadableModel":
    """Parse a serialized ModelProto, read its pieces once into plain objects and check them."""
    proto = spm.ModelProto()
    try:
        proto.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        raise FormatError(f"not a SentencePiece ModelProto: {error}") from None
    model = readable(proto)
    check_model(model)
    return model


def check_model(model: "ReadableModel") -> None:
    """The checks sentencepiece makes when it loads a model."""
    texts, types = model.texts, model.types
    if not texts:
        raise FormatError("the model has no pieces", field="pieces")
    byte_fallback = model.trainer_spec.byte_fallback
    if len(set(texts)) != len(texts) or "" in texts or not all(map(math.isfinite, model.scores)):
        _check_each_piece(model)
    byte_ids = model.ids_of(spm.BYTE)
    for index in byte_ids:
        _check_byte_piece(texts[index], byte_fallback, f"pieces[{index}]")
    unknowns = types.count(spm.UNKNOWN)
    if unknowns > 1 or not (unknowns or byte_fallback):
        said = "unk is already defined" if unknowns else "unk is not defined"
        raise FormatError(f"expected exactly one UNKNOWN piece, found {unknowns} (sentencepiece refuses it: {said!r}; "
                          "a byte-fallback model may have none)", field="pieces")
    if byte_fallback and len(byte_ids) != 256:
        raise FormatError(f"{len(byte_ids)} byte pieces although byte_fallback is true (sentencepiece needs all 256)",
                          field="trainer_spec.byte_fallback")
    model_type = model.trainer_spec.model_type
    if model_type not in spm.MODEL_TYPES.values():
        raise FormatError(f"unknown model type {model_type}", field="trainer_spec.model_type")


def _check_each_piece(model: "ReadableModel") -> None:
    """Name the first piece that is empty, has a score that is not finite, or repeats one before."""
    seen: set[str] = set()
    for index, (piece, score) in enumerate(zip(model.texts, model.scores)):
        if not piece:
            raise FormatError("a piece is empty", field=f"pieces[{index}].piece")
        if not math.isfinite(score):
            raise FormatError(f"score {score} is NaN or infinite, which sentencepiece refuses",
                              field=f"pieces[{index}].score")
        if piece in seen:
            raise FormatError(f"piece {piece!r} is repeated", field=f"pieces[{index}].piece")
        seen.add(piece)


@dataclass
class ReadableModel:
    """A ModelProto's pieces as plain columns (each text a str, by id), with its specs: what the
    pipeline is built from, read once from the protobuf objects."""

    texts: list[str]
    scores: list[float]
    types: list[int]
    trainer_spec: Any
    normalizer_spec: Any
    proto: Any  # the ModelProto they were read from

    def ids_of(self, *kinds: int) -> list[int]:
        """The ids of the pieces of these types, in order."""
        return list(compress(range(len(self.types)), map(frozenset(kinds).__contains__, self.types)))

    def texts_of(self, *kinds: int) -> list[str]:
        """The texts of the pieces of these types, in id order."""
        return list(compress(self.texts, map(frozenset(kinds).__contains__, self.types)))

    def scores_of(self, *kinds: int) -> list[float]:
        """The scores of the pieces of these types, in id order."""
        return list(compress(self.scores, map(frozenset(kinds).__contains__, self.types)))

    def first_of(self, kind: int) -> int | None:
        """The id of the first piece of this type (None when there is none)."""
        return self.types.index(kind) if kind in self.types else None

    @cached_property
    def all_text(self) -> bool:
        """Whether every piece is UTF-8 text (the usual case, found in one search)."""
        return _BYTE_STAND_IN.search("".join(self.texts)) is None

    @cached_property
    def matchable(self) -> list[bool]:
        """Per id, whether sentencepiece's model can give the piece for a span of text: normal and
        user-defined pieces that are UTF-8, but a CHAR model looks up single chars only (and
        user-defined symbols)."""
        flags = list(map(frozenset(MATCHABLE).__contains__, self.types))
        if self.trainer_spec.model_type == spm.CHAR:
            flags = [flag and (kind != spm.NORMAL or len(piece) == 1)
                     for flag, kind, piece in zip(flags, self.types, self.texts)]
        if not self.all_text:
            flags = [flag and is_text(piece) for flag, piece in zip(flags, self.texts)]
        return flags

    @cached_property
    def mergeable_scores(self) -> dict[str, float]:
        """Piece -> score of every piece a merge can make (normal and unused pieces that are text)."""
        mergeable = compress(zip(self.texts, self.scores), map(frozenset((spm.NORMAL, spm.UNUSED)).__contains__,
                                                              self.types))
        return dict(mergeable if self.all_text else (pair for pair in mergeable if is_text(pair[0])))

    @cached_property
    def stand_in_chars(self) -> list[str]:
        """The chars of mergeable pieces that are no piece: sentencepiece's BPE still joins them (an
        unknown char is a symbol like any other), so they enter the merges, with ids after the pieces."""
        spelled = "".join(self.mergeable_scores)
        missing = set(spelled).difference(self.texts)
        return [char for char in dict.fromkeys(spelled) if char in missing] if missing else []

    @cached_property
    def ranked_merges(self) -> list[tuple[float, str, str]]:
        """sentencepiece's BPE as merges of the mergeable pieces and stand-in chars (`models.bpe.ranked_splits`)."""
        return sentencepiece_merges({**self.mergeable_scores, **dict.fromkeys(self.stand_in_chars, 0.0)})


def readable(proto: Any) -> ReadableModel:
    """The model's pieces as plain columns; bytes that are not UTF-8 become lone surrogates (no text
    holds them, so no text matches them, as in sentencepiece)."""
    if isinstance(proto, ReadableModel):
        return proto
    texts, scores, types = map(list, list(zip(*map(_PIECE_FIELDS, proto.pieces))) or [(), (), ()])
    if set(map(type, texts)) - {str}:
        texts = list(map(_text, texts))
    return ReadableModel(texts, scores, types, proto.trainer_spec, proto.normalizer_spec, proto)


_PIECE_FIELDS = attrgetter("piece", "score", "type")


def _text(piece: str | bytes) -> str:
    """A piece's text; bytes that are not UTF-8 become lone surrogates (Python's surrogateescape)."""
    return piece if isinstance(piece, str) else piece.decode("utf-8", "surrogateescape")


_BYTE_STAND_IN = re.compile("[\udc80-\udcff]")  # what surrogateescape makes of a byte that is not UTF-8


def is_text(piece: str) -> bool:
    """Whether a piece is UTF-8 text (no lone surrogate standing for a byte of the file)."""
    return piece.isascii() or _BYTE_STAND_IN.search(piece) is None


def _check_byte_piece(piece: str, byte_fallback: bool, field: str) -> None:
    """A BYTE piece needs byte_fallback and the form <0xHH>, as sentencepiece requires (a model cut
    short, its trainer spec lost, would otherwise load as a different tokenizer)."""
    if not byte_fallback:
        raise FormatError(f"byte piece {piece!r} is found although byte_fallback is false", field=f"{field}.type")
    if len(piece) != 6 or not piece.startswith("<0x") or not piece.endswith(">") \
            or any(c not in "0123456789ABCDEF" for c in piece[3:5]):
        raise FormatError(f"byte piece {piece!r} is not of the form <0xHH>", field=f"{field}.piece")


def sentencepiece_source(tokenizer: Tokenizer) -> SentencePieceSource | None:
    """The .model a tokenizer was read from (None when it was not read from one)."""
    return tokenizer.source if isinstance(tokenizer.source, SentencePieceSource) else None


def tokenizer_from_proto(source: Any, *, add_bos: bool = False, add_eos: bool = False) -> Tokenizer:
    """The Tokenizer that runs a ModelProto exactly (charsmap applied as SentencePiece does)."""
    proto = readable(source)
    model = _model(proto)  # built directly: no tokenizer.json form of its merges is made and read back
    sections = _sections(proto)
    sections["post_processor"] = _bos_eos_template(proto, add_bos, add_eos)
    tokenizer = tokenizer_around(model, sections)
    user_defined = proto.texts_of(spm.USER_DEFINED)
    for normalizer in flatten(tokenizer.normalizer):
        if isinstance(normalizer, Precompiled):
            normalizer.longest_match = True
            normalizer.protected = tuple(piece for piece in user_defined
                                         if rules_may_touch(normalizer.charsmap, piece))
    if isinstance(model, Unigram):
        model.without_matching(frozenset(compress(range(len(proto.texts)), map(not_, proto.matchable))))
        normal_scores = proto.scores_of(spm.NORMAL) or [0.0]
        model.sum_in_float32(_f32(min(normal_scores) - UNK_PENALTY))
    elif isinstance(model, BPE):
        model.merge_as_sentencepiece(_merge_levels(proto.ranked_merges), frozenset(proto.ids_of(spm.UNUSED)),
                                     frozenset(proto.ids_of(spm.USER_DEFINED)))
        model.merge_through(proto.stand_in_chars)
    elif proto.trainer_spec.byte_fallback:
        model.spell_unknown_in_bytes()  # WORD: sentencepiece spells an unknown word in bytes
    else:
        # WORD: sentencepiece gives a run of unknown words one unk id: the model sees the whole text.
        tokenizer.pre_tokenizer = None
        model.fuse_unknown_words(SPACE)
    tokenizer.source = SentencePieceSource(proto.proto, add_bos, add_eos)
    build_compiled(tokenizer)
    return tokenizer


# ----- ModelProto -> tokenizer.json ----------------------------------------------------------


def pipeline_from_proto(source: Any) -> dict:
    """The tokenizer.json object that runs this SentencePiece model exactly."""
    proto = readable(source)
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], **_sections(proto),
            "model": _model(proto).to_dict()}


def _frozen(proto: ReadableModel) -> list[str]:
    """The user-defined pieces a BPE model never merges with their neighbours: each is isolated
    before the model (a Unigram model has none)."""
    if proto.trainer_spec.model_type != spm.BPE:
        return []
    return proto.texts_of(spm.USER_DEFINED)


def _sections(proto: ReadableModel) -> dict[str, Any]:
    """The tokenizer.json sections around the model: normalizer, pre-tokenizer, decoder (and no
    post-processor)."""
    trainer, spec = proto.trainer_spec, proto.normalizer_spec
    return {"normalizer": _normalizer(spec, trainer.treat_whitespace_as_suffix),
            "pre_tokenizer": _pre_tokenizer(proto, _frozen(proto)), "post_processor": None,
            "decoder": _decoder(proto)}


def _bos_eos_template(proto: Any, add_bos: bool, add_eos: bool) -> dict | None:
    """A TemplateProcessing adding the bos and/or eos control pieces, or None."""
    trainer = proto.trainer_spec
    controls = {proto.texts[i]: i for i in proto.ids_of(spm.CONTROL)}
    wanted = [(flag, name, piece) for flag, name, piece in
              ((add_bos, "bos", trainer.bos_piece), (add_eos, "eos", trainer.eos_piece)) if flag]
    for _, name, piece in wanted:
        if piece not in controls:
            raise FormatError(f"add_{name}: the {name} piece {piece!r} is not a control piece",
                              field=f"trainer_spec.{name}_piece")
    return processors.bos_eos_template(
        (trainer.bos_piece, controls[trainer.bos_piece]) if add_bos else None,
        (trainer.eos_piece, controls[trainer.eos_piece]) if add_eos else None)


def _normalizer(spec: Any, as_suffix: bool) -> dict | None:
    """Charsmap, whitespace rules, escaping and the dummy prefix, as normalizers."""
    space = SPACE if spec.escape_whitespaces else " "
    steps: list[dict] = []
    if spec.precompiled_charsmap:
        steps.append({"type": "Precompiled",
                      "precompiled_charsmap": base64.b64encode(spec.precompiled_charsmap).decode("ascii")})
    if spec.remove_extra_whitespaces:
        steps.append(_replace(EXTRA_SPACES, "", regex=True))
    if spec.escape_whitespaces:
        steps.append(_replace(" ", SPACE))
    if spec.add_dummy_prefix:
        if as_suffix:
            steps.append(_replace(AFTER_LAST_CHAR, space, regex=True))
        else:
            steps.append({"type": "Prepend", "prepend": space})
    if not steps:
        return None
    return steps[0] if len(steps) == 1 else {"type": "Sequence", "normalizers": steps}


def _pre_tokenizer(proto: Any, frozen: list[str]) -> dict | None:
    """BPE user symbols isolated (longest first, as sentencepiece matches them), then words.

    sentencepiece runs its model over the whole text. For BPE, when no piece has a "▁" past its
    first char, no piece spans the place before a "▁", so cutting the text there (Metaspace)
    changes no result and lets words be cached; but not with UNUSED pieces, which sentencepiece
    splits by the pair last queued anywhere in the text. Unigram is not cut: its float32 path scores
    round differently from a word's start than from the text's.
    """
    model_type = proto.trainer_spec.model_type
    steps = []
    if frozen:
        alternatives = "|".join(_escape(piece) for piece in sorted(frozen, key=len, reverse=True))
        steps.append({"type": "Split", "pattern": {"Regex": alternatives}, "behavior": "Isolated",
                      "invert": False})
    if model_type == spm.WORD:
        steps.append({"type": "Split", "pattern": {"String": SPACE}, "behavior": "MergedWithNext",
                      "invert": False})
    elif model_type == spm.BPE and words_are_cuts(proto.texts_of(*MATCHABLE)) \
            and proto.normalizer_spec.escape_whitespaces and not proto.trainer_spec.treat_whitespace_as_suffix \
            and spm.UNUSED not in proto.types:
        steps.append({"type": "Metaspace", "replacement": SPACE, "prepend_scheme": "never", "split": True})
    if not steps:
        return None
    return steps[0] if len(steps) == 1 else {"type": "Sequence", "pretokenizers": steps}


def words_are_cuts(pieces: Iterable[str]) -> bool:
    """True when no piece holds a "▁" past its first char: then a text may be cut before each "▁"."""
    return not any(SPACE in piece[1:] for piece in pieces)


def _replace(pattern: str, content: str, regex: bool = False) -> dict:
    """A Replace component (normalizer or decoder)."""
    return {"type": "Replace", "pattern": {"Regex" if regex else "String": pattern}, "content": content}


def _escape(text: str) -> str:
    """`text` as an Oniguruma regex that matches it literally."""
    return "".join("\\" + char if char in _REGEX_SPECIAL else char for char in text)


def _decoder(proto: Any) -> dict:
    """Control pieces vanish, the unknown piece shows its surface, bytes and "▁" become text.

    sentencepiece drops one leading "▁" of the first pieces but keeps the unknown surface's
    leading space, so the Strip step takes a "▁" before "▁" becomes " ", and never a real space.
    """
    trainer, spec = proto.trainer_spec, proto.normalizer_spec
    steps: list[dict] = []
    controls = proto.texts_of(spm.CONTROL)
    if controls:
        steps.append(_replace(r"\A(?:" + "|".join(map(_escape, controls)) + r")\z", "", regex=True))
    unknown_id = proto.first_of(spm.UNKNOWN)
    if unknown_id is not None:  # a byte-fallback model may have none: its unknown chars are bytes
        steps.append(_replace(r"\A" + _escape(proto.texts[unknown_id]) + r"\z", trainer.unk_surface, regex=True))
    # sentencepiece writes the text of byte pieces as it is: a "▁" spelled in bytes (an unknown word
    # of a WORD model) stays "▁". The pieces' own "▁" are marked first, with a char no text holds.
    space = SPACE
    if trainer.byte_fallback and spec.escape_whitespaces and _space_in_bytes(proto):
        space = PIECE_SPACE
        steps.append(_replace(SPACE, space))
    if trainer.byte_fallback:
        steps.append({"type": "ByteFallback"})
    steps.append({"type": "Fuse"})
    if spec.add_dummy_prefix or spec.remove_extra_whitespaces:
        steps.append({"type": "Strip", "content": space, "start": 1, "stop": 0})
    if spec.escape_whitespaces:
        steps.append(_replace(space, " "))
    return {"type": "Sequence", "decoders": steps}


def _space_in_bytes(proto: ReadableModel) -> bool:
    """Whether byte pieces may spell a "▁": in a WORD model (whole unknown words), or where "▁" is no piece."""
    return proto.trainer_spec.model_type == spm.WORD or \
        SPACE not in proto.texts or not proto.matchable[proto.texts.index(SPACE)]


def _model(proto: ReadableModel) -> BPE | Unigram | WordLevel:
    """The Unigram or BPE model of the pieces (CHAR as Unigram, WORD as WordLevel)."""
    model_type = proto.trainer_spec.model_type
    unknown = proto.first_of(spm.UNKNOWN)
    if model_type == spm.BPE:
        return _bpe_model(proto, unknown)
    if model_type == spm.WORD:
        vocab = dict(zip(proto.texts, range(len(proto.texts))))
        # Without an unknown piece (byte fallback) no word becomes unk: the trainer's name stands in.
        unk = proto.trainer_spec.unk_piece if unknown is None else proto.texts[unknown]
        return WordLevel(vocab, unk)
    if unknown is None:  # byte fallback spells every unknown char: a piece no text matches stands in
        unknown = proto.matchable.index(False)
    return Unigram(_unigram_vocab(proto), unknown, proto.trainer_spec.byte_fallback)


def _f32(value: float) -> float:
    """`value` rounded to float32, as SentencePiece computes."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def _unigram_vocab(proto: ReadableModel) -> list[tuple[str, float]]:
    """[piece, score] per piece, with the scores SentencePiece's lattice effectively uses.

    A user-defined piece scores `0.1 * (bytes - 1)` (float32, sentencepiece 0.2.3's bonus for a
    longer match: a one-byte symbol scores 0, not its stored score). Pieces SentencePiece never
    matches in text (control, unknown, byte, unused, a CHAR model's pieces of several chars) get a
    score below any spelling of them in chars; HF's unknown-char score moves with it, which changes no choice:
    every segmentation of a text holds the same unknown chars.
    """
    normal_scores = proto.scores_of(spm.NORMAL) or [0.0]
    reserved = list(compress(proto.texts, map(not_, proto.matchable)))
    unreachable = min(normal_scores) * (max(map(len, reserved), default=0) + 1) - 1000.0
    vocab = []
    for piece, score, kind, matchable in zip(proto.texts, proto.scores, proto.types, proto.matchable):
        if kind == spm.USER_DEFINED:
            score = _f32(0.1 * (len(piece.encode("utf-8")) - 1))
        elif not matchable:
            score = unreachable
        vocab.append((piece, score))
    return vocab


def _merge_levels(ranked: list[tuple[float, str, str]]) -> list[int]:
    """Per merge, the rank of its piece's score among the distinct scores (sentencepiece's order)."""
    scores = list(map(itemgetter(0), ranked))  # best first: each new score is the next level
    return list(accumulate(map(ne, scores[1:], scores), initial=0)) if scores else []


def _bpe_model(proto: ReadableModel, unknown: int | None) -> BPE:
    """BPE with a merge for every split of every mergeable piece, best piece score first (the
    stand-in chars in the vocab too, for the merges; the reader takes them out again)."""
    stand_ins = {char: len(proto.texts) + index for index, char in enumerate(proto.stand_in_chars)}
    return BPE({**dict(zip(proto.texts, range(len(proto.texts)))), **stand_ins},
               [(left, right) for _, left, right in proto.ranked_merges],
               unk_token=None if unknown is None else proto.texts[unknown],
               # Without byte fallback sentencepiece gives one unk id for a run of unknown chars.
               fuse_unk=not proto.trainer_spec.byte_fallback, byte_fallback=proto.trainer_spec.byte_fallback,
               ignore_merges=bool(_frozen(proto)))


def every_split_merges(scores: dict[str, float]) -> list[tuple[str, str]]:
    """The (left, right) pairs of SentencePiece's BPE merges (`models.bpe.ranked_splits`), in their order."""
    return [(left, right) for _, left, right in sentencepiece_merges(scores)]


__all__ = ["pipeline_from_proto", "read_sentencepiece", "parse_model", "read_model", "tokenizer_from_proto"]
