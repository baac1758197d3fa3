"""Parity on the real tokenizers of ../shared/refs: corpora, fixtures, special tokens, truncation, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tokenizers

from .harness import (
    JSON_REFS,
    REFS,
    assert_same_json,
    build_oracle,
    compare,
    compare_batch,
    load_subject,
    oracle_ref,
    ref_file,
    subject,
    subject_ref,
)

pytestmark = pytest.mark.conformance

REF_NAMES = list(REFS)
JSON_NAMES = [spec.name for spec in JSON_REFS]
SOURCES = ["botchan", "taylorswift", "wagahaiwa", "pku_test", "multilingual"]

# A pad token each tokenizer really has (GPT-2 style models pad with their end-of-text token).
PAD_TOKENS = {
    "bert-base-uncased": "[PAD]",
    "gpt2": "<|endoftext|>",
    "t5": "<pad>",
    "roberta-base": "<pad>",
    "phi-3-mini": "<unk>",
}

# The oracle panics (not raises) when a stride reaches the room left for a sequence, so strides
# stay below half of max_length minus the special tokens, and only_first/only_second use none.
TRUNCATION_PADDING = [
    ({"max_length": 12}, None),
    ({"max_length": 9, "strategy": "only_first", "direction": "left"}, None),
    ({"max_length": 16, "strategy": "only_second"}, None),
    ({"max_length": 12, "stride": 2, "strategy": "longest_first", "direction": "right"}, {}),
    ({"max_length": 20, "direction": "left"}, {"direction": "left", "pad_to_multiple_of": 8, "pad_type_id": 3}),
    ({"max_length": 14, "stride": 1}, {"length": 24}),
]


def short_sample(corpora, multilingual: list[str]) -> list[str]:
    """A small mixed sample for the slower checks (reloads, batches)."""
    return corpora("botchan", 24) + corpora("wagahaiwa", 8) + corpora("pku_test", 8) + multilingual[:30]


def short_lines(corpora, multilingual: list[str]) -> list[str]:
    """Short lines only: truncating long ones to a dozen tokens yields hundreds of overflowing parts."""
    return corpora("botchan", 30) + [t for t in multilingual if len(t) < 100][:30]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", REF_NAMES)
def test_corpus_parity(shared: Path, corpora, multilingual, name: str, source: str) -> None:
    """Singles and pairs, with and without special tokens: every field and both decodes agree."""
    texts = multilingual if source == "multilingual" else corpora(source)
    compare(oracle_ref(shared, name), subject_ref(shared, name), texts, pairs=True, label=f"{name} on {source}")


def special_token_texts(oracle: tokenizers.Tokenizer) -> list[str]:
    """Texts that hold the tokenizer's own added tokens: alone, glued, spaced, doubled, re-cased."""
    added = sorted(oracle.get_added_tokens_decoder().items())
    contents = [tok.content for _, tok in added[:16] + added[-8:]]
    texts = []
    for c in dict.fromkeys(contents):
        texts += [c, f"a{c}b", f" {c} ", f"Hello {c}{c} world.", f"x  {c}\ty", c.lower(), c.upper()]
    return texts


@pytest.mark.parametrize("name", REF_NAMES)
def test_special_token_strings(shared: Path, multilingual, name: str) -> None:
    """The tokenizer's added tokens inside text, next to the fixture's look-alikes."""
    oracle = oracle_ref(shared, name)
    look_alikes = [t for t in multilingual if "<" in t or "[" in t]
    texts = special_token_texts(oracle) + look_alikes
    compare(oracle, subject_ref(shared, name), texts, pairs=True, label=f"{name} special tokens")


@pytest.mark.parametrize("name", REF_NAMES)
def test_batch_api(shared: Path, corpora, multilingual, name: str) -> None:
    """encode_batch / decode_batch agree, for texts and for pairs."""
    texts = short_sample(corpora, multilingual)
    oracle, ours = oracle_ref(shared, name), subject_ref(shared, name)
    compare_batch(oracle, ours, texts, label=f"{name} batch")
    compare_batch(oracle, ours, texts, pairs=True, add_special_tokens=False, label=f"{name} batch of pairs")


@pytest.mark.parametrize("name", sorted(PAD_TOKENS))
def test_truncation_and_padding(shared: Path, corpora, multilingual, name: str) -> None:
    """Each truncation/padding setting, applied the same way to fresh tokenizers on both sides."""
    spec = REFS[name]
    oracle, ours = build_oracle(shared, spec), load_subject(shared, spec)
    pad_token = PAD_TOKENS[name]
    texts = short_lines(corpora, multilingual)
    for truncation, padding in TRUNCATION_PADDING:
        oracle.enable_truncation(**truncation)
        ours.enable_truncation(**truncation)
        if padding is not None:
            options = {"pad_id": oracle.token_to_id(pad_token), "pad_token": pad_token, **padding}
            oracle.enable_padding(**options)
            ours.enable_padding(**options)
        label = f"{name} truncation={truncation} padding={padding}"
        compare(oracle, ours, texts, pairs=True, label=label)
        compare_batch(oracle, ours, texts, pairs=True, label=label + " (batch)")


@pytest.mark.parametrize("name", JSON_NAMES)
def test_to_str_matches_tokenizers(shared: Path, name: str) -> None:
    """to_str() parses to the same JSON document as tokenizers' to_str() of the same file."""
    assert_same_json(oracle_ref(shared, name).to_str(), subject_ref(shared, name).to_str(), label=name)


@pytest.mark.parametrize("name", REF_NAMES)
def test_written_json_loads_in_tokenizers(shared: Path, corpora, multilingual, name: str, tmp_path: Path) -> None:
    """What hfcompat writes (save() == to_str()) loads in tokenizers and encodes like the original."""
    ours = subject_ref(shared, name)
    written = ours.to_str()
    saved = tmp_path / "tokenizer.json"
    ours.save(str(saved))
    assert json.loads(saved.read_text(encoding="utf-8")) == json.loads(written)
    reloaded = tokenizers.Tokenizer.from_str(written)
    texts = short_sample(corpora, multilingual)
    compare(oracle_ref(shared, name), reloaded, texts, pairs=True, label=f"{name}: tokenizers reads hfcompat's JSON")


@pytest.mark.parametrize("name", REF_NAMES)
def test_from_str_of_own_output(shared: Path, corpora, multilingual, name: str) -> None:
    """Tokenizer.from_str(to_str()) keeps parity."""
    ours = subject_ref(shared, name)
    texts = short_sample(corpora, multilingual)[::2]
    reloaded = subject().Tokenizer.from_str(ours.to_str())
    compare(oracle_ref(shared, name), reloaded, texts, pairs=True, label=f"{name}: from_str(to_str())")


@pytest.mark.parametrize("name", ["bert-base-uncased", "t5"])
def test_from_file_and_directory(shared: Path, corpora, multilingual, name: str, tmp_path: Path) -> None:
    """Tokenizer.from_file(saved file) and load(directory holding it) keep parity."""
    subject_ref(shared, name).save(str(tmp_path / "tokenizer.json"))
    oracle = oracle_ref(shared, name)
    texts = short_sample(corpora, multilingual)[::2]
    from_file = subject().Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    compare(oracle, from_file, texts, label=f"{name}: Tokenizer.from_file")
    compare(oracle, subject().load(tmp_path), texts, label=f"{name}: load(directory)")


# ---------------------------------------------------------------- the oracles themselves


def test_gpt2_vocab_oracle_is_built_from_the_same_files(shared: Path) -> None:
    """refs/gpt2/tokenizer.json holds exactly vocab.json and merges.txt, so it is their oracle."""
    converted = json.loads(oracle_ref(shared, "gpt2-vocab-json").to_str())
    vocab = json.loads((shared / "refs/gpt2/vocab.json").read_text(encoding="utf-8"))
    merges_lines = (shared / "refs/gpt2/merges.txt").read_text(encoding="utf-8").split("\n")
    merges = [line.split(" ") for line in merges_lines if line and not line.startswith("#version")]
    assert converted["model"]["vocab"] == vocab
    assert converted["model"]["merges"] == merges
    assert converted["truncation"] is None and converted["padding"] is None
    assert converted["pre_tokenizer"]["type"] == "ByteLevel"
    assert converted["pre_tokenizer"]["add_prefix_space"] is False
    assert converted["post_processor"]["type"] == "ByteLevel"
    assert converted["post_processor"]["trim_offsets"] is False
    assert [t["content"] for t in converted["added_tokens"] if t["special"]] == ["<|endoftext|>"]


@pytest.mark.parametrize("lowercase", [True, False])
def test_bert_vocab_oracle_is_transformers_pipeline(shared: Path, lowercase: bool) -> None:
    """The vocab.txt oracle has the components transformers' BertTokenizer builds."""
    spec = REFS["bert-base-uncased" if lowercase else "bert-base-cased"]
    built = json.loads(build_oracle(shared, spec).to_str())
    assert built["normalizer"] == {
        "type": "BertNormalizer",
        "clean_text": True,
        "handle_chinese_chars": True,
        "strip_accents": None,
        "lowercase": lowercase,
    }
    assert built["pre_tokenizer"] == {"type": "BertPreTokenizer"}
    assert built["model"]["type"] == "WordPiece"
    assert built["model"]["unk_token"] == "[UNK]"
    assert built["model"]["continuing_subword_prefix"] == "##"
    assert built["decoder"] == {"type": "WordPiece", "prefix": "##", "cleanup": True}
    specials = {t["content"] for t in built["added_tokens"] if t["special"] and not t["normalized"]}
    assert specials == {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
    oracle = build_oracle(shared, spec)
    pair = oracle.encode("a", "b")
    assert pair.tokens == ["[CLS]", "a", "[SEP]", "b", "[SEP]"]
    assert pair.type_ids == [0, 0, 0, 1, 1]
    assert ref_file(shared, spec).name == "vocab.txt"
