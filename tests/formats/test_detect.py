"""Files are read by what they hold, whatever their name (as sentencepiece, tiktoken and
transformers read them), and a SentencePiece model is checked as strictly as sentencepiece checks
it: a model cut short never loads as a different tokenizer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import hfcompat
from hfcompat.errors import FormatError
from hfcompat.formats.sentencepiece import schema as spm

from conftest import corpus_sample, fixture_texts, shared_file

pytestmark = pytest.mark.conformance

mistral_common = pytest.importorskip("mistral_common", reason="mistral-common (a test dependency) ships the models")
MISTRAL_MODELS = sorted(path.name for path in (Path(mistral_common.__file__).parent / "data").glob("*.model.v*"))
# A shared file, the name it is copied under, and a text to compare on.
RENAMED = [("refs/gpt2/tokenizer.json", "gpt2.bin"), ("refs/llama2/tokenizer.model", "llama"),
           ("refs/tiktoken/cl100k_base.tiktoken", "cl100k.ranks"), ("refs/gguf/ggml-vocab-qwen2.gguf", "qwen2"),
           ("refs/bert-base-uncased/vocab.txt", "bert-words"), ("refs/tiktoken/cl100k_base.tiktoken", "vocab.txt")]


def texts() -> list[str]:
    """Corpus lines and the fixture."""
    return corpus_sample("botchan", 60) + corpus_sample("pku_test", 60) + fixture_texts()


@pytest.mark.parametrize("name", MISTRAL_MODELS)
def test_mistral_common_models_load_whatever_their_name(name: str) -> None:
    """mistral-common's tokenizer.model.v1, ...model.v3, ... are SentencePiece models: hfcompat
    reads them by content and encodes as sentencepiece does."""
    sentencepiece = pytest.importorskip("sentencepiece")
    path = Path(mistral_common.__file__).parent / "data" / name
    ours = hfcompat.load(path)
    theirs = sentencepiece.SentencePieceProcessor(model_file=str(path))
    for text in texts():
        assert ours.encode(text, add_special_tokens=False).ids == theirs.encode(text), text


@pytest.mark.parametrize("source, name", RENAMED)
def test_renamed_files_load_as_what_they_hold(source: str, name: str, tmp_path: Path) -> None:
    """A file copied under a name that says nothing loads as it does under its own name."""
    original = shared_file(source)
    copy = tmp_path / name
    shutil.copyfile(original, copy)
    expected, actual = hfcompat.load(original), hfcompat.load(copy)
    for text in texts()[:40]:
        assert actual.encode(text).ids == expected.encode(text).ids, text


def test_a_name_that_contradicts_the_content(tmp_path: Path) -> None:
    """A tokenizer.json named .model is an error naming both; format= reads it anyway."""
    copy = tmp_path / "tokenizer.model"
    shutil.copyfile(shared_file("refs/gpt2/tokenizer.json"), copy)
    with pytest.raises(FormatError, match=r"the name says \.model but the content is a tokenizer\.json file"):
        hfcompat.load(copy)
    assert hfcompat.load(copy, format="tokenizer.json").encode("Hello world").ids == [15496, 995]
    with pytest.raises(FormatError, match="unknown format"):
        hfcompat.load(copy, format="docx")


def test_unrecognised_content(tmp_path: Path) -> None:
    """Bytes that are no tokenizer format, under a name that says nothing: an error saying so."""
    path = tmp_path / "mystery"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(FormatError, match="unrecognised tokenizer file"):
        hfcompat.load(path)


def truncated_llama(pieces: int = 1422) -> bytes:
    """Llama-2's model cut after `pieces` pieces, at a piece boundary (the protobuf still parses):
    the trainer and normalizer specs, which come after the pieces, are lost."""
    data = shared_file("refs/llama2/tokenizer.model").read_bytes()
    proto = spm.ModelProto()
    proto.ParseFromString(data)
    del proto.pieces[pieces:]
    proto.ClearField("trainer_spec")
    proto.ClearField("normalizer_spec")
    return proto.SerializeToString()


def test_a_model_cut_short_is_refused_as_sentencepiece_refuses_it(tmp_path: Path) -> None:
    """Byte pieces without byte_fallback: sentencepiece refuses the file, and so does hfcompat,
    naming the piece (it loaded as a 1,422-piece tokenizer before)."""
    sentencepiece = pytest.importorskip("sentencepiece")
    path = tmp_path / "cut.model"
    path.write_bytes(truncated_llama())
    with pytest.raises(Exception, match="byte_fallback"):
        sentencepiece.SentencePieceProcessor(model_file=str(path))
    with pytest.raises(FormatError, match="byte piece '<0x00>' is found although byte_fallback is false") as error:
        hfcompat.load(path)
    assert error.value.field == "pieces[3].type" and str(path) in str(error.value)


@pytest.mark.parametrize("damage, message", [("missing byte", "byte pieces although byte_fallback is true"),
                                             ("bad byte", "not of the form <0xHH>")])
def test_byte_pieces_checked_as_sentencepiece_checks_them(damage: str, message: str, tmp_path: Path) -> None:
    """With byte_fallback all 256 byte pieces must be there, each spelled <0xHH>: both libraries refuse."""
    sentencepiece = pytest.importorskip("sentencepiece")
    proto = spm.ModelProto()
    proto.ParseFromString(shared_file("refs/llama2/tokenizer.model").read_bytes())
    index = next(i for i, piece in enumerate(proto.pieces) if piece.piece == "<0x41>")
    if damage == "missing byte":
        proto.pieces[index].type = spm.NORMAL
        proto.pieces[index].piece = "<0x41>x"
    else:
        proto.pieces[index].piece = "<0xZZ>"
    path = tmp_path / "damaged.model"
    path.write_bytes(proto.SerializeToString())
    with pytest.raises(Exception):
        sentencepiece.SentencePieceProcessor(model_file=str(path))
    with pytest.raises(FormatError, match=message):
        hfcompat.load(path)
