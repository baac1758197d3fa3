"""SentencePiece models no trainer writes but sentencepiece loads and runs: hfcompat loads them
too and gives sentencepiece's ids, pieces and decoded text (docs/strict_readers.md), and `lint`
reports what is odd.

Each model is trained here with sentencepiece on a slice of botchan, then edited with
sentencepiece's own `sentencepiece_model_pb2`.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat.tools.lint import lint

from conftest import corpus_lines, corpus_sample

sentencepiece = pytest.importorskip("sentencepiece")
model_pb2 = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")

NORMAL = 1
TRAINING_LINES = 2000
EXTRA_TEXTS = ("x ① y", "🙂🙂 ①②", "the thethe  ｔｈｅ", "Hello world", "naïve café 12345", "☃", "a ☃☂ ☂☃",
               "☃☂☁ x☃", " ☂☃☃☂ ☂☂☃ the☃e☃")


@lru_cache(maxsize=None)
def trained(model_type: str, byte_fallback: bool) -> bytes:
    """A small model of this type trained on botchan's first lines (serialized ModelProto)."""
    written = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus_lines("botchan")[:TRAINING_LINES]), model_writer=written,
        model_type=model_type, vocab_size=600, hard_vocab_limit=False, byte_fallback=byte_fallback,
        minloglevel=2)
    return written.getvalue()


def edited(model_type: str, byte_fallback: bool, edit: Callable[[Any], bytes | None], directory: Path) -> Path:
    """The trained model after `edit` (which changes the proto, or returns the file's bytes), in `directory`."""
    proto = model_pb2.ModelProto()
    proto.ParseFromString(trained(model_type, byte_fallback))
    data = edit(proto)
    path = directory / "odd.model"
    path.write_bytes(proto.SerializeToString() if data is None else data)
    return path


def texts() -> list[str]:
    """Corpus lines (English, Japanese, Chinese: most chars unknown to an English model) and probes."""
    return [*EXTRA_TEXTS, *corpus_sample("botchan", 60), *corpus_sample("wagahaiwa", 30),
            *corpus_sample("pku_test", 30)]


def assert_runs_as_sentencepiece(path: Path, lines: list[str]) -> int:
    """Ids, pieces and decoded text of hfcompat and sentencepiece agree on every line; the count."""
    owner = sentencepiece.SentencePieceProcessor(model_file=str(path))
    ours = hfcompat.load(path)
    for text in lines:
        ids = owner.encode(text)  # no text gives a piece that is not UTF-8, whose decoding raises in sentencepiece
        assert ours.encode_ids(text) == ids, text
        # An unknown span's piece: sentencepiece gives its text, hfcompat's BPE (as tokenizers') the unk piece.
        pieces = [None if i == owner.unk_id() else piece for i, piece in zip(ids, owner.encode(text, out_type=str))]
        assert [None if i == owner.unk_id() else t for i, t in zip(ids, ours.encode(text).tokens)] == pieces, text
        assert ours.decode(ids) == owner.decode(ids), text
    return len(lines)


def _long_char_pieces(proto: Any) -> None:
    """Pieces of several chars added to a CHAR model, scored above every char."""
    for text in ("▁the", "th", "he", "▁t"):
        proto.pieces.add(piece=text, score=10.0, type=NORMAL)


def _not_utf8(proto: Any) -> bytes:
    """The model's bytes with the first byte of its first two normal pieces of several chars made 0xFF."""
    data = proto.SerializeToString()
    for piece in [p.piece for p in proto.pieces if p.type == NORMAL and len(p.piece) > 1][:2]:
        text = piece.encode()
        field = b"\x0a" + bytes([len(text)]) + text  # field 1 (piece), length-delimited
        assert field in data
        data = data.replace(field, field[:2] + b"\xff" + text[1:], 1)
    return data


def _pieces_through_unknown_chars(proto: Any) -> None:
    """BPE pieces holding chars that are no piece ("☃", "☂"), scored so that they compete."""
    for text, score in (("▁☃", 0.0), ("☃☂", -1.0), ("☂☃", -2.0), ("▁☂☃", -3.0), ("e☃", -4.0)):
        proto.pieces.add(piece=text, score=score, type=NORMAL)


ODD_MODELS = {  # name: (model type, byte fallback, edit, the lint finding)
    "CHAR model with pieces of several chars": ("char", False, _long_char_pieces, "char-model-long-piece"),
    "WORD model with byte fallback": ("word", True, lambda proto: None, "sentencepiece-json-inexact"),
    # Legal and trained as it is; odd only in that sentencepiece fuses a run of unknown words into one unk.
    "WORD model without byte fallback": ("word", False, lambda proto: None, "sentencepiece-json-inexact"),
    "Unigram model with byte fallback and no UNKNOWN piece": ("unigram", True, lambda proto: proto.pieces.__delitem__(0),
                                                              "unknown-piece-missing"),
    "CHAR model with byte fallback and no UNKNOWN piece": ("char", True, lambda proto: proto.pieces.__delitem__(0),
                                                           "unknown-piece-missing"),
    "BPE model with pieces holding chars that are no piece": ("bpe", True, _pieces_through_unknown_chars,
                                                              "bpe-char-not-a-piece"),
    "BPE model without byte fallback with pieces holding chars that are no piece":
        ("bpe", False, _pieces_through_unknown_chars, "bpe-char-not-a-piece"),
    "BPE model with pieces not UTF-8": ("bpe", True, _not_utf8, "piece-not-utf8"),
    "Unigram model with pieces not UTF-8": ("unigram", False, _not_utf8, "piece-not-utf8"),
    "WORD model with pieces not UTF-8": ("word", True, _not_utf8, "piece-not-utf8"),
}


@pytest.mark.parametrize("name", sorted(ODD_MODELS))
def test_odd_model_runs_as_sentencepiece(name: str, backend: str, tmp_path: Path) -> None:
    """sentencepiece loads the model and runs it; hfcompat gives the same ids, pieces, decoding."""
    model_type, byte_fallback, edit, code = ODD_MODELS[name]
    path = edited(model_type, byte_fallback, edit, tmp_path)
    assert assert_runs_as_sentencepiece(path, texts()) == len(texts())
    assert code in {found.code for found in lint(path)}


@pytest.mark.parametrize("name", sorted(ODD_MODELS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.sampled_from("the ▁①日本 \u3000ｔ🙂abcxyz☃☂"), max_size=20) | st.text(max_size=12))
def test_odd_model_runs_as_sentencepiece_on_any_text(name: str, text: str, tmp_path_factory: Any) -> None:
    """The same on generated text."""
    model_type, byte_fallback, edit, _ = ODD_MODELS[name]
    path = edited(model_type, byte_fallback, edit, tmp_path_factory.mktemp("odd"))
    assert_runs_as_sentencepiece(path, [text])


def char_offsets(text: str, begin: int, end: int) -> tuple[int, int]:
    """sentencepiece's byte offsets in `text` as char offsets."""
    data = text.encode("utf-8")
    return len(data[:begin].decode("utf-8")), len(data[:end].decode("utf-8"))


def test_word_model_fuses_unknown_words_as_sentencepiece(backend: str, tmp_path: Path) -> None:
    """A WORD model without byte fallback: a run of unknown words is one unk spanning the run (its
    offsets sentencepiece's surface, spaces between the words included), a known word between
    unknown ones parts them; the tokenizer.json conversion is refused."""
    path = edited("word", False, lambda proto: None, tmp_path)
    owner = sentencepiece.SentencePieceProcessor(model_file=str(path))
    ours = hfcompat.load(path)
    assert owner.encode("x ① y") == ours.encode_ids("x ① y") == [owner.unk_id()]
    assert len(owner.encode("x the y")) == len(ours.encode("x the y").ids) == 3
    fused = 0
    # Not the texts with a run of spaces: there a token after the run starts at its last space in
    # hfcompat, at its first in sentencepiece, for every model type (the whitespace rules' alignments).
    for text in [text for text in texts() if not re.search(r"\s\s", text)]:
        pieces = owner.encode(text, out_type="proto").pieces
        assert ours.encode(text).offsets == [char_offsets(text, p.begin, p.end) for p in pieces], text
        fused += sum(p.id == owner.unk_id() and p.piece.count("\u2581") > 1 for p in pieces)
    assert fused > 0  # the texts do hold runs of unknown words
    with pytest.raises(hfcompat.UnsupportedConversion, match="WordLevel"):
        hfcompat.convert(path, tmp_path / "tokenizer.json")


def _equal_scores(proto: Any) -> None:
    """BPE pieces of one score that compete for the same char ("qz" and "zq"), scored above the rest."""
    for text in ("qz", "zq", "zk", "kz"):
        proto.pieces.add(piece=text, score=10.0, type=NORMAL)


def test_equal_scores_merge_leftmost_as_sentencepiece(backend: str, tmp_path: Path) -> None:
    """Merges of equal piece scores: sentencepiece takes the leftmost pair, whatever their order
    in the file (both orders of each pair are probed)."""
    path = edited("bpe", False, _equal_scores, tmp_path)
    lines = ["qzq", "zqz", "kzk", "zkz", "qzkzq zqzk"]
    assert assert_runs_as_sentencepiece(path, lines) == len(lines)
