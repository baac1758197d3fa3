"""hfcompat.tools.verify: counts, first divergences with both token sequences, throughput, each library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import hfcompat
from hfcompat.tools.verify import owner_library
from tests.conftest import fixture_lines, shared_file

TEXTS = ["Hello, how are  you?", "我们相信AI可以让世界变得更美好", "x  y   z", "naïve café"]


def test_hfcompat_against_tokenizers() -> None:
    """A reference file: every text identical, both throughputs measured."""
    report = hfcompat.verify(shared_file("refs/gpt2/tokenizer.json"), list(fixture_lines()) + TEXTS)
    assert report.ok and report.total == len(fixture_lines()) + len(TEXTS)
    assert report.summary() == f"{report.total}/{report.total} identical"
    assert report.subject == "hfcompat" and report.reference.startswith("tokenizers ")
    assert report.subject_mb_per_s > 0 and report.reference_mb_per_s > 0


def test_tokenizer_object_against_each_library(tmp_path: Path) -> None:
    """A Tokenizer object is checked against tokenizers, or against transformers on a saved directory."""
    tok = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    assert hfcompat.verify(tok, TEXTS).ok
    tok.save_pretrained(tmp_path)
    report = hfcompat.verify(tok, TEXTS, against="transformers", reference=tmp_path)
    assert report.ok and report.reference.startswith("transformers ")
    assert hfcompat.verify(tok, TEXTS, against="transformers").ok  # saved to a temporary directory
    assert hfcompat.verify(tmp_path / "tokenizer.json", TEXTS, against="transformers").ok


def test_divergence_names_text_position_and_pieces(tmp_path: Path) -> None:
    """Two ids swapped in a copy: the report says which text, which token, and both sequences."""
    original = shared_file("refs/gpt2/tokenizer.json")
    data = json.loads(original.read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"]
    vocab["Ġhow"], vocab["Ġare"] = vocab["Ġare"], vocab["Ġhow"]
    tampered = tmp_path / "tokenizer.json"
    tampered.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    report = hfcompat.verify(tampered, TEXTS, reference=original)
    assert (report.total, report.mismatches) == (4, 1)
    divergence = report.first_divergences[0]
    assert divergence.text == "Hello, how are  you?" and divergence.position == 2
    assert divergence.expected[2] == (703, "Ġhow") and divergence.actual[2] == (389, "Ġhow")
    assert "token 2 differs" in divergence.describe()
    assert report.to_dict()["first_divergences"][0]["position"] == 2


def test_converted_file_against_sentencepiece_shows_the_double_space_drift(tmp_path: Path) -> None:
    """AutoTokenizer on Llama-2's .model (LlamaTokenizer) against sentencepiece on the same file:
    where two spaces meet they part, as DESIGN.md says."""
    model = shared_file("refs/llama2/tokenizer.model")
    shutil.copy(model, tmp_path / "tokenizer.model")
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "LlamaTokenizer"}')
    report = hfcompat.verify(tmp_path, ["Hello You", "Hello  You"], reference=model, add_special_tokens=False)
    assert report.subject.startswith("transformers ") and report.reference.startswith("sentencepiece ")
    assert (report.total, report.mismatches) == (2, 1)
    divergence = report.first_divergences[0]
    assert divergence.text == "Hello  You"
    assert [piece for _, piece in divergence.expected] == ["▁Hello", "▁", "▁You"]
    assert [piece for _, piece in divergence.actual] == ["▁Hello", "▁▁", "You"]


def test_tiktoken_side() -> None:
    """A .tiktoken file runs in tiktoken (with the encoding's pattern); hfcompat's reader when present."""
    path = shared_file("refs/tiktoken/cl100k_base.tiktoken")
    assert owner_library(path) == "tiktoken"
    texts = ["hello world", "你是谁, my name", "8868 apples"]
    report = hfcompat.verify(path, texts, encoding="cl100k_base")
    assert report.ok and report.subject == "hfcompat", [d.describe() for d in report.first_divergences]


def test_tiktoken_side_reads_the_sidecar_pattern(tmp_path: Path) -> None:
    """A rank file of no known encoding runs in tiktoken with the pattern of its `.tiktoken.json`."""
    texts = list(fixture_lines())
    trained = hfcompat.train(iter(texts), model="bytelevel_bpe", vocab_size=400, show_progress=False)
    path = tmp_path / "trained.tiktoken"
    trained.save(str(path))
    assert path.with_name("trained.tiktoken.json").exists()
    report = hfcompat.verify(trained, texts, reference=path)
    assert report.reference.startswith("tiktoken ") and report.total == len(texts)
    assert report.ok, [d.describe() for d in report.first_divergences]
    assert any("<|endoftext|>" in text for text in texts)  # the read-back file has tiktoken's rules
    report = hfcompat.verify(hfcompat.load(path), texts, reference=path)
    assert report.ok, [d.describe() for d in report.first_divergences]


def test_errors_on_both_sides_agree_and_unknown_library_is_refused() -> None:
    """An unknown library name is a ValueError; a missing file a FormatError naming it."""
    tok = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    with pytest.raises(ValueError, match="unknown library"):
        hfcompat.verify(tok, TEXTS, against="spacy")
    with pytest.raises(hfcompat.FormatError, match="missing.json"):
        hfcompat.verify(tok, TEXTS, reference="/nonexistent/missing.json")


def test_a_side_without_post_processor_compares_without_special_tokens(tmp_path: Path) -> None:
    """T5's tokenizer.json against its .model conversion: sentencepiece adds no `</s>` (a .model
    holds no post-processor), so neither side adds special tokens and the report says so; ids and
    decoded text agree, the unknown piece included (the .model keeps T5's "<unk>" surface)."""
    original = shared_file("refs/t5/tokenizer.json")
    converted = tmp_path / "spiece.model"
    hfcompat.convert(original, converted, exact=False)  # sentencepiece applies the charsmap its own way
    texts = TEXTS + ["Hello world.", "a 東京 b"]
    report = hfcompat.verify(converted, texts, reference=original)
    assert report.subject.startswith("sentencepiece ") and report.reference.startswith("tokenizers ")
    assert report.ok, [d.describe() for d in report.first_divergences]
    assert not report.add_special_tokens and report.to_dict()["add_special_tokens"] is False
    assert report.notes == ["special tokens not added on either side: a SentencePiece model holds no post-processor"]
    assert report.to_dict()["notes"] == report.notes
    asked = hfcompat.verify(converted, texts, reference=original, add_special_tokens=False)
    assert asked.ok and asked.notes == []  # nothing was left out that was asked for
    assert hfcompat.verify(original, texts).notes == []  # both sides run the post-processor
    assert hfcompat.verify(original, texts).add_special_tokens
