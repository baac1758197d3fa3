"""Unit tests of the SentencePiece schema, the tokenizer.json -> .model checks and Unigram sampling."""

from __future__ import annotations

import random

import pytest
from sentencepiece import sentencepiece_model_pb2 as upstream

from hfcompat.errors import UnsupportedConversion
from hfcompat.formats.sentencepiece import schema as spm
from hfcompat.formats.sentencepiece.read import readable
from hfcompat.formats.sentencepiece.write import proto_from_pipeline
from hfcompat.models.unigram import Unigram


def test_schema_defaults_are_sentencepiece_defaults() -> None:
    """Absent fields read as sentencepiece's own schema reads them."""
    ours, theirs = spm.ModelProto(), upstream.ModelProto()
    for spec in ("trainer_spec", "normalizer_spec"):
        for field in getattr(theirs, spec).DESCRIPTOR.fields:
            assert getattr(getattr(ours, spec), field.name) == getattr(getattr(theirs, spec), field.name), field.name


def test_schema_bytes_match_sentencepiece_module() -> None:
    """A message built here serializes to bytes sentencepiece's module parses back identically."""
    proto = spm.ModelProto()
    proto.pieces.add(piece="<unk>", score=0.0, type=spm.UNKNOWN)
    proto.pieces.add(piece="▁a", score=-1.5)
    proto.trainer_spec.model_type = spm.BPE
    proto.trainer_spec.pad_id = -1
    proto.normalizer_spec.add_dummy_prefix = False
    theirs = upstream.ModelProto()
    theirs.ParseFromString(proto.SerializeToString())
    assert theirs.SerializeToString() == proto.SerializeToString()
    assert [(p.piece, p.score, p.type) for p in theirs.pieces] == [("<unk>", 0.0, 2), ("▁a", -1.5, 1)]
    assert theirs.trainer_spec.model_type == upstream.TrainerSpec.BPE


def bpe_pipeline(merges: list[list[str]], **model: object) -> dict:
    """A minimal character BPE tokenizer.json object."""
    vocab = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "bc": 5, "abc": 6}
    return {"normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None,
            "added_tokens": [], "model": {"type": "BPE", "vocab": vocab, "merges": merges, "unk_token": "<unk>",
                                          **model}}


def test_bpe_with_complete_merges_converts() -> None:
    """Every split of every piece present and grouped by piece: scores follow the ranks."""
    proto = proto_from_pipeline(bpe_pipeline([["a", "b"], ["b", "c"], ["ab", "c"], ["a", "bc"]]))
    scores = {p.piece: p.score for p in proto.pieces}
    assert scores["ab"] > scores["bc"] > scores["abc"]


@pytest.mark.parametrize("merges, options, reason", [
    ([["a", "b"], ["b", "c"], ["ab", "c"]], {}, "is not a merge"),
    ([["a", "b"], ["ab", "c"], ["b", "c"], ["a", "bc"]], {}, "not adjacent"),
    ([["a", "b"], ["b", "c"], ["ab", "c"], ["a", "bc"]], {"continuing_subword_prefix": "##"}, "decoration"),
    ([["a", "b"], ["b", "c"], ["ab", "c"], ["a", "bc"]], {"ignore_merges": True}, "ignore_merges"),
])
def test_bpe_that_sentencepiece_cannot_run_is_refused(merges: list, options: dict, reason: str) -> None:
    """The refusal names the model and why."""
    with pytest.raises(UnsupportedConversion, match=reason):
        proto_from_pipeline(bpe_pipeline(merges, **options))


def test_unknown_normalizer_is_refused() -> None:
    """A normalizer SentencePiece has no equivalent for is refused by name."""
    data = bpe_pipeline([["a", "b"], ["b", "c"], ["ab", "c"], ["a", "bc"]])
    data["normalizer"] = {"type": "Lowercase"}
    with pytest.raises(UnsupportedConversion, match="normalizer: Lowercase"):
        proto_from_pipeline(data)


def test_sampling_with_a_sharp_alpha_is_the_best_path() -> None:
    """With a large alpha every sample is the Viterbi path; with alpha 0 all paths appear."""
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -0.5)], unk_id=0)
    rng = random.Random(1)
    assert {tuple(t.value for t in model.sample("ab", 50.0, -1, rng)) for _ in range(20)} == {("ab",)}
    assert {tuple(t.value for t in model.sample("ab", 0.0, -1, rng)) for _ in range(60)} == {("ab",), ("a", "b")}
    assert [[t.value for t in path] for path in model.nbest("ab", 3)] == [["ab"], ["a", "b"]]


def test_stand_in_chars_come_in_the_order_the_pieces_first_spell_them() -> None:
    """The chars of mergeable (normal and unused) pieces that are no piece, each once, by first
    use (their ids follow the pieces' in that order); a control piece's chars are not merged."""
    proto = spm.ModelProto()
    proto.trainer_spec.model_type = spm.BPE
    for text, kind in [("<unk>", spm.UNKNOWN), ("a", spm.NORMAL), ("b", spm.NORMAL), ("a☃", spm.NORMAL),
                       ("☂b☃", spm.NORMAL), ("ç☂", spm.UNUSED), ("é", spm.CONTROL), ("éz", spm.CONTROL)]:
        proto.pieces.add(piece=text, score=-1.0, type=kind)
    model = readable(proto)
    assert model.stand_in_chars == ["☃", "☂", "ç"]
    assert readable(proto).texts == ["<unk>", "a", "b", "a☃", "☂b☃", "ç☂", "é", "éz"]
    assert model.ids_of(spm.NORMAL) == [1, 2, 3, 4] and model.first_of(spm.UNKNOWN) == 0
