"""`hfcompat.lint` on real tokenizers: its merge-unreachable tokens against `tokenizers`' own BPE."""

from __future__ import annotations

import warnings

import pytest
import tokenizers

import hfcompat
from hfcompat.tools.lint import CHECKS, has_errors, lint, merge_unreachable
from hfcompat.tools.lint.pipeline import gguf_pre_name

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


@pytest.mark.parametrize(("name", "expected"), [
    ("gpt2", []),
    ("roberta-base", ["<|endoftext|>", "madeupword0000", "madeupword0001", "madeupword0002"]),
    ("whisper-large-v3", [""]),  # an empty token, id 50256
])
def test_unreachable_tokens_of_tokenizer_json_files_match_tokenizers(name: str, expected: list[str]) -> None:
    """The file's own model in `tokenizers`, merges on, gives back whole every token lint does not
    report, and none of those it reports (added tokens left out on both sides)."""
    path = shared_file(f"refs/{name}/tokenizer.json")
    official = tokenizers.Tokenizer.from_file(str(path))
    official.model.ignore_merges = False
    added = set(official.get_added_tokens_decoder())
    unreachable = official_unreachable(official.model, official.get_vocab(with_added_tokens=False), added)
    assert [token for token, _ in unreachable] == expected
    assert merge_unreachable(hfcompat.load(path)) == unreachable


def test_clip_word_end_tokens_are_reachable() -> None:
    """CLIP's `</w>` tokens: `tokenizers` gives each back from the word it ends, and lint, which also
    tries every token inside a word, finds nothing unreachable."""
    path = shared_file("refs/clip/tokenizer.json")
    official = tokenizers.Tokenizer.from_file(str(path))
    vocab = official.get_vocab(with_added_tokens=False)
    suffixed = {t: i for t, i in vocab.items() if t.endswith("</w>") and t != "</w>"}
    assert all([x.id for x in official.model.tokenize(t[:-4])] == [i] for t, i in suffixed.items())
    assert merge_unreachable(hfcompat.load(path)) == []


def test_cl100k_has_no_error_and_its_id_gaps() -> None:
    """tiktoken's cl100k_base: ids 100256 and 100261..100275 are unused, nothing is wrong."""
    findings = lint(offline_cl100k())
    assert not has_errors(findings)
    gaps = next(f for f in findings if f.code == "id-gaps")
    assert gaps.details == ["ids 100256, 100261-100275"]


@pytest.mark.parametrize("name, expected", [("aquila", ["gguf-pre-missing"]), ("gpt-neox", ["gguf-pre-missing"]),
                                            ("gpt-2", []), ("llama-spm", [])])
def test_a_gguf_without_pre_name_is_a_finding(name: str, expected: list[str]) -> None:
    """A gpt2 GGUF without tokenizer.ggml.pre (which loads, with llama.cpp's default splits) is a
    warning of lint's; one with a name, or another model, is not."""
    assert gguf_pre_name in CHECKS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the load's own warning about the missing name
        tokenizer = hfcompat.load(shared_file(f"refs/gguf/ggml-vocab-{name}.gguf"))
    findings = gguf_pre_name(tokenizer)
    assert [found.code for found in findings] == expected
    assert all(found.severity == "warning" for found in findings)
