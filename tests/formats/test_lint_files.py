"""`hfcompat.lint` on real tokenizers: its merge-unreachable tokens against `tokenizers`' own BPE."""

from __future__ import annotations

import pytest
import tokenizers

import hfcompat
from hfcompat.tools.lint import has_errors, lint, merge_unreachable

from conftest import shared_file
from tiktoken_files import offline_cl100k

CONTROL = 3  # llama.cpp's token type of special tokens


def official_unreachable(model: tokenizers.models.BPE, vocab: dict[str, int], skip: set[int]) -> list[tuple[str, int]]:
    """The tokens `tokenizers`' BPE (merges on) does not give back whole from their own string."""
    return sorted(((token, i) for token, i in vocab.items() if i not in skip
                   and [t.id for t in model.tokenize(token)] != [i]), key=lambda pair: pair[1])


@pytest.mark.slow
def test_llama3_merge_unreachable_tokens_match_tokenizers() -> None:
    """Llama 3 (llama.cpp's vocab-only GGUF): 588 tokens the merges never build, the same ones
    that `tokenizers`, given the file's tokens and merges as read by the gguf package, finds."""
    gguf = pytest.importorskip("gguf")
    path = shared_file("refs/gguf/ggml-vocab-llama-bpe.gguf")
    fields = gguf.GGUFReader(path).fields
    tokens = fields["tokenizer.ggml.tokens"].contents()
    types = fields["tokenizer.ggml.token_type"].contents()
    merges = [tuple(merge.split(" ")) for merge in fields["tokenizer.ggml.merges"].contents()]
    vocab = {token: i for i, token in enumerate(tokens)}
    model = tokenizers.models.BPE(vocab=vocab, merges=merges, ignore_merges=False)
    expected = official_unreachable(model, vocab, {i for i, kind in enumerate(types) if kind == CONTROL})
    tokenizer = hfcompat.load(path)
    found = merge_unreachable(tokenizer)
    assert len(found) == 588
    assert found == expected
    finding = next(f for f in lint(tokenizer) if f.code == "merge-unreachable")
    assert (finding.count, finding.severity) == (588, "info")


def test_whisper_empty_token_is_unreachable() -> None:
    """Whisper large-v3's vocabulary holds an empty token (id 50256), which no text gives."""
    path = shared_file("refs/whisper-large-v3/tokenizer.json")
    official = tokenizers.Tokenizer.from_file(str(path))
    official.model.ignore_merges = False
    added = set(official.get_added_tokens_decoder())
    expected = official_unreachable(official.model, official.get_vocab(with_added_tokens=False), added)
    assert merge_unreachable(hfcompat.load(path)) == expected == [("", 50256)]


def test_cl100k_has_no_error_and_its_id_gaps() -> None:
    """tiktoken's cl100k_base: ids 100256 and 100261..100275 are unused, nothing is wrong."""
    findings = lint(offline_cl100k())
    assert not has_errors(findings)
    gaps = next(f for f in findings if f.code == "id-gaps")
    assert gaps.details == ["ids 100256, 100261-100275"]
