"""What sentencepiece's C++ processor does for its Python class, on hfcompat: a .model read by
hfcompat's reader, its text normalized as sentencepiece normalizes it (with the map back to the
input), segmented by hfcompat's model, and the pieces laid out as sentencepiece's
SentencePieceText lays them out (surfaces, byte offsets, unknown runs, byte-fallback pieces).
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field
from typing import Any, Iterable

from ...collector import paused_while_loading
from ...formats.sentencepiece import read_model, tokenizer_from_proto
from ...formats.sentencepiece import schema as spm
from ...normalizers.charsmap import CharsMap
from ...normalizers.sentencepiece_spec import REPLACEMENT, SPACE, SpecNormalizer
from ...tokenizer import Tokenizer

NBEST_LIMIT = 1024  # sentencepiece's cap on nbest_size


class Settings:
    """Process-wide settings sentencepiece keeps in globals (seed, n-best time limit)."""

    nbest_timeout_ms: float = 0.0
    rng: random.Random = random.Random()


@dataclass
class Piece:
    """One piece of a SentencePieceText: its offsets are bytes of the text it belongs to."""

    piece: str
    id: int
    surface: str | bytes | None = None  # None: not set (the leading byte pieces of a char)
    begin: int = 0
    end: int = 0


@dataclass
class Segmented:
    """A text and its pieces (an encoding, or a decoding), with a path score when there is one."""

    text: str
    pieces: list[Piece] = field(default_factory=list)
    score: float = 0.0
    raw: bytes | None = None  # an encoded input as given (sentencepiece keeps bytes that are not UTF-8)

    def serialized(self) -> bytes:
        """As a serialized SentencePieceText (text and surfaces as sentencepiece writes them)."""
        message = spm.RawSentencePieceText(text=self.text.encode("utf-8") if self.raw is None else self.raw)
        if self.score:
            message.score = self.score
        for p in self.pieces:
            added = message.pieces.add(piece=p.piece.encode("utf-8"), id=p.id, begin=p.begin, end=p.end)
            if p.surface is not None:
                added.surface = p.surface.encode("utf-8") if isinstance(p.surface, str) else p.surface
        return message.SerializeToString()

    def message(self) -> Any:
        """As a SentencePieceText message."""
        return spm.SentencePieceText.FromString(self.serialized())


def f32(value: float) -> float:
    """`value` rounded to float32."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


class Engine:
    """A loaded model: encode, decode and look up pieces as sentencepiece's processor does."""

    def __init__(self, serialized: bytes):
        with paused_while_loading():
            model = read_model(serialized)
            self.tokenizer = tokenizer_from_proto(model)
        self.proto = model.proto
        self.serialized = bytes(serialized)
        self.model = self.tokenizer.model
        self.segmenter = Tokenizer(self.model, pre_tokenizer=self.tokenizer.pre_tokenizer)
        pieces = self.proto.pieces
        self.pieces = [p.piece if isinstance(p.piece, str) else p.piece.decode("utf-8", "replace") for p in pieces]
        self.types = [p.type for p in pieces]
        self.scores = [p.score for p in pieces]
        self.ids = {piece: index for index, piece in enumerate(self.pieces)}
        self.unk_id = next((i for i, t in enumerate(self.types) if t == spm.UNKNOWN), -1)
        trainer, spec = self.proto.trainer_spec, self.proto.normalizer_spec
        self.spec = spec
        self.trainer = trainer
        self.normalizer = spec_normalizer(spec, trainer.treat_whitespace_as_suffix,
                                          (p for p, t in zip(self.pieces, self.types) if t == spm.USER_DEFINED))
        self.byte_ids = frozenset(i for i, t in enumerate(self.types) if t == spm.BYTE)

    # ----- lookups ----------------------------------------------------------------------------

    def piece_to_id(self, piece: str) -> int:
        """The id of a piece; the unknown id for any other string."""
        return self.ids.get(piece, self.unk_id)

    def special_id(self, name: str) -> int:
        """The id of the unk/bos/eos/pad piece the trainer spec names, if that piece is there."""
        trainer = self.trainer
        piece = getattr(trainer, f"{name}_piece")
        found = self.ids.get(piece, -1)
        if name == "unk":
            return self.unk_id
        return found if found >= 0 and self.types[found] == spm.CONTROL else -1

    def check_id(self, token_id: int) -> int:
        """`token_id`, or IndexError as sentencepiece raises for one out of range."""
        if not 0 <= token_id < len(self.pieces):
            raise IndexError("OUT_OF_RANGE: piece id is out of range.")
        return token_id

    # ----- encoding ---------------------------------------------------------------------------

    def encode(self, data: bytes, sampling: tuple[int, float] | None = None) -> Segmented:
        """The pieces of one text (bytes), best path or a sample (nbest_size, alpha)."""
        normalized, origins = self.normalizer.normalize_bytes(data)
        text = normalized.decode("utf-8")
        if sampling is None:
            spans = self._best_spans(text)
        else:
            spans = self._sampled_spans(text, *sampling)
        return self.laid_out(data, normalized, origins, spans)

    def nbest(self, data: bytes, size: int) -> list[Segmented]:
        """The `size` best encodings, best first, each with its path score."""
        if self.trainer.model_type != spm.UNIGRAM:
            raise RuntimeError("INTERNAL: NBestEncode is not available for the current model.")
        normalized, origins = self.normalizer.normalize_bytes(data)
        text = normalized.decode("utf-8")
        size = min(max(size, 1), NBEST_LIMIT)
        if not text:
            return [Segmented(data.decode("utf-8", "replace"), raw=data)]
        found = []
        for tokens in self.model.nbest(text, size, timeout_ms=Settings.nbest_timeout_ms):
            spans = [(t.id, *t.offsets) for t in tokens]
            segmented = self.laid_out(data, normalized, origins, spans)
            segmented.score = self._path_score(text, spans)
            found.append(segmented)
        return found

    def _path_score(self, text: str, spans: list[tuple[int, int, int]]) -> float:
        """The path's score as sentencepiece sums it (float32)."""
        encoded = text.encode("utf-8")
        total = 0.0
        last = None
        for token_id, start, end in spans:
            if (start, end) == last:
                continue
            last = (start, end)
            if token_id == self.unk_id or token_id in self.byte_ids:
                score = self.model.unk_score * len(encoded[start:end].decode("utf-8"))
            else:
                score = self.scores[token_id]
            total = f32(total + score)
        return total

    def _best_spans(self, text: str) -> list[tuple[int, int, int]]:
        """(id, byte start, byte end) of the best segmentation of normalized text."""
        if not text:
            return []
        encoding = self.segmenter.encode(text, add_special_tokens=False)
        return byte_spans(text, encoding.ids, encoding.offsets)

    def _sampled_spans(self, text: str, nbest_size: int, alpha: float) -> list[tuple[int, int, int]]:
        """A sampled segmentation (subword regularization, or BPE-dropout)."""
        if not text:
            return []
        if self.trainer.model_type not in (spm.UNIGRAM, spm.BPE):
            return self._best_spans(text)
        encoding = self.segmenter.sample(text, alpha, nbest_size, seed=Settings.rng.getrandbits(64),
                                         add_special_tokens=False)
        return byte_spans(text, encoding.ids, encoding.offsets)

    def laid_out(self, data: bytes, normalized: bytes, origins: list[int],
                 spans: list[tuple[int, int, int]]) -> Segmented:
        """The model's (id, byte span in the normalized text) as sentencepiece's pieces."""
        result = Segmented(data.decode("utf-8", "replace"), raw=data)
        pieces = result.pieces
        fallback_span = None
        previous_unknown = False
        for token_id, start, end in spans:
            if token_id in self.byte_ids:
                if (start, end) != fallback_span:
                    fallback_span = (start, end)
                    self._byte_pieces(data, normalized, origins, start, end, pieces)
                previous_unknown = True
                continue
            begin, finish = origins[start], origins[end]
            surface = data[begin:finish]
            unknown = token_id == self.unk_id
            piece = normalized[start:end].decode("utf-8") if unknown else self.pieces[token_id]
            if unknown and previous_unknown and pieces and pieces[-1].id == token_id:
                last = pieces[-1]
                last.piece += piece
                last.surface += surface
                last.end = finish
            else:
                pieces.append(Piece(piece, token_id, surface, begin, finish))
            previous_unknown = unknown
        return result

    def _byte_pieces(self, data: bytes, normalized: bytes, origins: list[int], start: int, end: int,
                     pieces: list[Piece]) -> None:
        """An unknown run spelled in byte pieces, char by char: the last byte of a char holds its surface."""
        position = start
        for char in normalized[start:end].decode("utf-8"):
            width = len(char.encode("utf-8"))
            begin, finish = origins[position], origins[position + width]
            for index, byte in enumerate(char.encode("utf-8")):
                name = f"<0x{byte:02X}>"
                if index == width - 1:
                    surface = data[begin:finish]
                    pieces.append(Piece(name, self.piece_to_id(name), surface, begin, finish))
                else:
                    pieces.append(Piece(name, self.piece_to_id(name), None, begin, begin))
            position += width

    # ----- decoding ---------------------------------------------------------------------------

    def decode_ids(self, ids: Iterable[int]) -> Segmented:
        """The text of ids (IndexError for an id out of range)."""
        return self.decode_pieces([self.pieces[self.check_id(i)] for i in ids])

    def decode_pieces(self, names: Iterable[str]) -> Segmented:
        """The text of pieces, each with its surface in it, as sentencepiece decodes."""
        result = Segmented("")
        pieces = result.pieces = [Piece(name, self.piece_to_id(name)) for name in names]
        text: list[str] = []
        size = 0  # bytes written so far
        leading = True  # a leading "▁" may still be dropped
        leading_seen = False
        byte_run: list[int] = []

        def set_surface(index: int, surface: str) -> None:
            nonlocal size
            piece = pieces[index]
            piece.surface, piece.begin = surface, size
            size += len(surface.encode("utf-8"))
            piece.end = size
            text.append(surface)

        def flush_bytes() -> None:
            data = bytes(self._byte_value(pieces[i].piece) for i in byte_run)
            index = 0
            while index < len(data):
                width = _valid_char_width(data, index)
                if width == 0:
                    set_surface(byte_run[index], REPLACEMENT.decode())
                    index += 1
                    continue
                char = data[index:index + width].decode("utf-8")
                for offset in range(width):
                    set_surface(byte_run[index + offset], char if offset == width - 1 else "")
                index += width
            byte_run.clear()

        for index, piece in enumerate(pieces):
            if self.types[piece.id] == spm.BYTE and piece.id >= 0:
                byte_run.append(index)
                continue
            flush_bytes()
            if leading_seen or size:
                leading = False
            surface, leading_seen = self._piece_text(piece, leading)
            set_surface(index, surface)
        flush_bytes()
        result.text = "".join(text)
        return result

    def _piece_text(self, piece: Piece, leading: bool) -> tuple[str, bool]:
        """What one non-byte piece writes, and whether it took the dummy-prefix "▁"."""
        kind = self.types[piece.id] if piece.id >= 0 else spm.UNKNOWN
        if kind == spm.CONTROL:
            return "", False
        if piece.id == self.unk_id or piece.id < 0:
            if piece.id >= 0 and self.pieces[piece.id] == piece.piece:
                return self.trainer.unk_surface, False
            return piece.piece, False
        name = piece.piece
        took = False
        if leading and (self.spec.add_dummy_prefix or self.spec.remove_extra_whitespaces):
            if name.startswith(SPACE):
                name, took = name[1:], True
            if self.spec.remove_extra_whitespaces:
                took = False
        return name.replace(SPACE, " "), took

    @staticmethod
    def _byte_value(name: str) -> int:
        """The byte a `<0xHH>` piece stands for."""
        return int(name[3:5], 16)


def _valid_char_width(data: bytes, index: int) -> int:
    """The length of the UTF-8 char at `index`, 0 where the bytes there are not one."""
    for width in (1, 2, 3, 4):
        try:
            data[index:index + width].decode("utf-8")
        except UnicodeDecodeError:
            continue
        return width if index + width <= len(data) else 0
    return 0


def byte_spans(text: str, ids: list[int], offsets: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(id, byte start, byte end) from char offsets into `text`."""
    if text.isascii():
        return [(token_id, start, end) for token_id, (start, end) in zip(ids, offsets)]
    positions = [0]
    for char in text:
        positions.append(positions[-1] + len(char.encode("utf-8")))
    return [(token_id, positions[start], positions[end]) for token_id, (start, end) in zip(ids, offsets)]


def spec_normalizer(spec: Any, as_suffix: bool, user_defined: Iterable[str] = ()) -> SpecNormalizer:
    """The normalizer of a NormalizerSpec (and the model's user-defined symbols)."""
    charsmap = CharsMap.from_bytes(bytes(spec.precompiled_charsmap)) if spec.precompiled_charsmap else None
    return SpecNormalizer(charsmap, spec.add_dummy_prefix, spec.remove_extra_whitespaces, spec.escape_whitespaces,
                          as_suffix, frozenset(piece.encode("utf-8") for piece in user_defined))


def char_offsets(text: str, data: bytes, origins: list[int]) -> list[int]:
    """Byte origins of a normalized text's chars (and its end) as char positions in the input."""
    if not origins:
        return [0]
    char_at = {}
    position = 0
    for index, char in enumerate(data.decode("utf-8", "replace") if isinstance(data, bytes) else data):
        char_at[position] = index
        position += len(char.encode("utf-8"))
    char_at[position] = len(char_at)
    result = []
    byte = 0
    for char in text:
        result.append(char_at.get(origins[byte], 0))
        byte += len(char.encode("utf-8"))
    result.append(char_at.get(origins[byte], 0))
    return result


__all__ = ["Engine", "Piece", "Segmented", "Settings", "byte_spans", "char_offsets", "f32", "spec_normalizer"]
