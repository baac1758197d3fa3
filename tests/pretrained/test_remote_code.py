"""save_pretrained(remote_code=True): AutoTokenizer(trust_remote_code=True) runs hfcompat itself.

For pipelines tokenizer.json cannot hold (Chinese word segmentation as a pre-tokenizer); checked
here on reference tokenizers too, where the official pipeline is the oracle of the comparison.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hfcompat
from tests.conftest import shared_file

from .auto_harness import auto_tokenizer, compare_auto
from .test_save_pretrained import sample_texts

REFS = ["bert-base-uncased/vocab.txt", "roberta-base/tokenizer.json"]


@pytest.mark.conformance
@pytest.mark.parametrize("ref", REFS)
def test_remote_code_directory_matches(tmp_path: Path, ref: str) -> None:
    """The remote-code class encodes, pads, truncates and decodes exactly like hfcompat (and the file)."""
    ours = hfcompat.load(shared_file(f"refs/{ref}"))
    written = ours.save_pretrained(tmp_path, remote_code=True)
    assert {p.name for p in written} == {"hfcompat_tokenizer.json", "tokenizer_config.json",
                                         "special_tokens_map.json", "tokenization_hfcompat.py"}
    config = json.loads((tmp_path / "tokenizer_config.json").read_text())
    assert config["auto_map"] == {"AutoTokenizer": ["tokenization_hfcompat.HfcompatTokenizer", None]}
    auto = auto_tokenizer(tmp_path, trust_remote_code=True)
    assert type(auto).__name__ == "HfcompatTokenizer"
    compare_auto(auto, ours, sample_texts(), f"{ref} (remote code)").assert_clean()
    reread = hfcompat.load(tmp_path)
    assert reread.to_str() == ours.to_str()


def test_remote_code_needs_trust(tmp_path: Path) -> None:
    """Without trust_remote_code, transformers refuses the directory rather than guessing."""
    ours = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    ours.save_pretrained(tmp_path, remote_code=True)
    with pytest.raises(ValueError, match="trust_remote_code"):
        auto_tokenizer(tmp_path, trust_remote_code=False)


def test_chinese_segmentation_through_auto_tokenizer(tmp_path: Path) -> None:
    """A BERT Chinese vocabulary behind word segmentation: AutoTokenizer gives hfcompat's tokens."""
    from hfcompat.segmentation import ChineseWordSegmentation
    ours = hfcompat.load(shared_file("refs/bert-base-chinese/vocab.txt"))
    ours.pre_tokenizer = ChineseWordSegmentation()
    ours.save_pretrained(tmp_path, remote_code=True)
    auto = auto_tokenizer(tmp_path, trust_remote_code=True)
    texts = ["我们相信AI可以让世界变得更美好", "商务处女干事", "东京和北京"]
    compare_auto(auto, ours, texts, "segmented Chinese (remote code)").assert_clean()


def test_transformers_saves_and_reloads_the_remote_class(tmp_path: Path) -> None:
    """transformers' own save_pretrained of HfcompatTokenizer reloads, in transformers and in hfcompat."""
    ours = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    ours.save_pretrained(tmp_path / "first", remote_code=True)
    auto_tokenizer(tmp_path / "first", trust_remote_code=True).save_pretrained(str(tmp_path / "second"))
    again = auto_tokenizer(tmp_path / "second", trust_remote_code=True)
    assert type(again).__name__ == "HfcompatTokenizer"
    assert again("Hello world", "again")["input_ids"] == ours.encode("Hello world", "again").ids
    assert hfcompat.load(tmp_path / "second").to_str() == ours.to_str()
