"""Trainers against tokenizers' trainers: identical merges and vocabularies on the same texts.

tokenizers numbers the decorated chars of continuing_subword_prefix / end_of_word_suffix in the
order of its hash map of words, which changes from run to run; those cases feed hfcompat the
words in an order that gives the same numbering (read back from tokenizers' vocabulary), so
the comparison stays exact.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
import tokenizers
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import models as HM
from tokenizers import pre_tokenizers as HP
from tokenizers import trainers as HT

import hfcompat
from hfcompat.trainers import BpeTrainer, WordLevelTrainer, WordPieceTrainer, count_words

from conftest import corpus_sample, fixture_texts

pytestmark = pytest.mark.conformance

CORPUS_LINES = 300
PRE_TOKENIZERS: dict[str, Callable[[], Any]] = {
    "whitespace": HP.Whitespace,
    "bytelevel": lambda: HP.ByteLevel(add_prefix_space=False),
}


def corpus(name: str) -> list[str]:
    """Training texts: a spread sample of one corpus, or the fixture texts."""
    return fixture_texts() if name == "fixtures" else corpus_sample(name, CORPUS_LINES)


def oracle_tokenizer(model: Any, pre_tokenizer: str) -> tokenizers.Tokenizer:
    """An untrained tokenizers Tokenizer with one of the test pre-tokenizers."""
    tokenizer = tokenizers.Tokenizer(model)
    tokenizer.pre_tokenizer = PRE_TOKENIZERS[pre_tokenizer]()
    return tokenizer


def trained_model_json(tokenizer: Any) -> dict:
    """The model section of a trained tokenizer's tokenizer.json (merges as pairs)."""
    model = json.loads(tokenizer.to_str())["model"]
    if "merges" in model:
        model["merges"] = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return model


def train_both(model: Any, pre_tokenizer: str, texts: list[str], oracle_trainer: Any,
               trainer: Any) -> tuple[dict, dict, Any]:
    """Train tokenizers and hfcompat on the same texts; both model sections, and ours."""
    oracle = oracle_tokenizer(model, pre_tokenizer)
    oracle.train_from_iterator(texts, oracle_trainer)
    ours = hfcompat.Tokenizer.from_str(oracle_tokenizer(model, pre_tokenizer).to_str())
    ours.train_from_iterator(texts, trainer)
    return trained_model_json(oracle), trained_model_json(ours), ours


BPE_CASES = {
    "char-300": ("whitespace", dict(vocab_size=300)),
    "char-1000-min2": ("whitespace", dict(vocab_size=1000, min_frequency=2)),
    "char-800-specials": ("whitespace", dict(vocab_size=800, special_tokens=["<unk>", "<s>", "a"])),
    "char-700-maxlen3": ("whitespace", dict(vocab_size=700, max_token_length=3)),
    "char-600-initial": ("whitespace", dict(vocab_size=600, initial_alphabet=["é", "ß", "zebra"])),
    "bytes-500": ("bytelevel", dict(vocab_size=500)),
    "bytes-1500-min3": ("bytelevel", dict(vocab_size=1500, min_frequency=3, special_tokens=["<|endoftext|>"])),
    "bytes-alphabet-1000": ("bytelevel", dict(vocab_size=1000, initial_alphabet=HP.ByteLevel.alphabet())),
}
CORPORA = ["botchan", "wagahaiwa", "pku_test", "fixtures"]


@pytest.mark.parametrize("corpus_name", CORPORA)
@pytest.mark.parametrize("case", list(BPE_CASES))
def test_bpe_identical_to_tokenizers(shared: Path, corpus_name: str, case: str) -> None:
    """Same merges in the same order and the same vocabulary as tokenizers' BpeTrainer."""
    pre_tokenizer, options = BPE_CASES[case]
    texts = corpus(corpus_name)
    oracle, ours, _ = train_both(HM.BPE(), pre_tokenizer, texts,
                                 HT.BpeTrainer(show_progress=False, **options),
                                 BpeTrainer(show_progress=False, **options))
    assert ours["merges"] == oracle["merges"]
    assert ours["vocab"] == oracle["vocab"]


def decorated_order(vocab: dict[str, int], prefix: str | None, suffix: str | None) -> list[str]:
    """The decorated single chars of a trained vocabulary, in id order."""
    def is_decorated(token: str) -> bool:
        core = token
        if prefix and core.startswith(prefix):
            core = core[len(prefix):]
        if suffix and core.endswith(suffix):
            core = core[: -len(suffix)]
        return len(core) == 1 and core != token
    return sorted((t for t in vocab if is_decorated(t)), key=vocab.get)


def reorder_like(counts: dict[str, int], order: list[str], prefix: str | None,
                 suffix: str | None) -> dict[str, int]:
    """The word counts reordered so that decorated chars first appear in `order`."""
    def decorated(word: str) -> list[str]:
        pieces = [(prefix if prefix and i else "") + c for i, c in enumerate(word)]
        if suffix and pieces:
            pieces[-1] += suffix
        return [p for p in pieces if p != p[:1] or len(p) > 1]
    wanted = set(order)
    forms = {word: list(dict.fromkeys(p for p in decorated(word) if p in wanted)) for word in counts}
    holders: dict[str, list[str]] = {}
    for word, word_forms in forms.items():
        for form in word_forms:
            holders.setdefault(form, []).append(word)
    seen: set[str] = set()
    placed: dict[str, int] = {}
    position = 0
    while position < len(order):
        for word in holders.get(order[position], ()):
            new = [p for p in forms[word] if p not in seen]
            if word not in placed and new == order[position:position + len(new)]:
                placed[word] = counts[word]
                seen.update(new)
                position += len(new)
                break
        else:
            pytest.fail(f"no word introduces {order[position]!r} next")
    placed.update((word, count) for word, count in counts.items() if word not in placed)
    return placed


DECORATED_CASES = {
    "prefix": dict(continuing_subword_prefix="##"),
    "suffix": dict(end_of_word_suffix="</w>"),
    "both": dict(continuing_subword_prefix="##", end_of_word_suffix="</w>"),
}


@pytest.mark.parametrize("corpus_name", ["botchan", "pku_test"])
@pytest.mark.parametrize("case", list(DECORATED_CASES))
def test_bpe_decorated_identical_to_tokenizers(shared: Path, corpus_name: str, case: str) -> None:
    """With prefix/suffix decorations: identical once the decorated chars are numbered alike."""
    options = dict(vocab_size=900, **DECORATED_CASES[case])
    texts = corpus(corpus_name)
    oracle = oracle_tokenizer(HM.BPE(), "whitespace")
    oracle.train_from_iterator(texts, HT.BpeTrainer(show_progress=False, **options))
    expected = trained_model_json(oracle)
    ours_tokenizer = hfcompat.Tokenizer.from_str(oracle_tokenizer(HM.BPE(), "whitespace").to_str())
    counts = count_words(ours_tokenizer, texts, show_progress=False)
    prefix, suffix = options.get("continuing_subword_prefix"), options.get("end_of_word_suffix")
    order = decorated_order(expected["vocab"], prefix, suffix)
    vocab, merges = BpeTrainer(show_progress=False, **options).learn(reorder_like(counts, order, prefix, suffix))
    assert merges == expected["merges"]
    assert vocab == expected["vocab"]


@pytest.mark.parametrize("corpus_name", ["botchan", "wagahaiwa"])
@pytest.mark.parametrize("vocab_size", [200, 1200])
def test_wordpiece_hf_identical_to_tokenizers(shared: Path, corpus_name: str, vocab_size: int) -> None:
    """WordPiece in "hf" scoring: the vocabulary of tokenizers' WordPieceTrainer."""
    texts = corpus(corpus_name)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    oracle = oracle_tokenizer(HM.WordPiece(unk_token="[UNK]"), "whitespace")
    oracle.train_from_iterator(texts, HT.WordPieceTrainer(vocab_size=vocab_size, special_tokens=specials,
                                                          show_progress=False))
    expected = trained_model_json(oracle)
    ours_tokenizer = hfcompat.Tokenizer.from_str(oracle_tokenizer(HM.WordPiece(unk_token="[UNK]"),
                                                                  "whitespace").to_str())
    counts = count_words(ours_tokenizer, texts, show_progress=False)
    counts = reorder_like(counts, decorated_order(expected["vocab"], "##", None), "##", None)
    model = WordPieceTrainer(vocab_size, special_tokens=specials, scoring="hf", show_progress=False).train(counts)
    assert model.vocab == expected["vocab"]


@pytest.mark.parametrize("corpus_name", CORPORA)
@pytest.mark.parametrize("options", [dict(vocab_size=500), dict(vocab_size=3000, min_frequency=2,
                                                                special_tokens=["<unk>", "<pad>"])])
def test_wordlevel_identical_to_tokenizers(shared: Path, corpus_name: str, options: dict) -> None:
    """WordLevel: the vocabulary of tokenizers' WordLevelTrainer."""
    oracle, ours, _ = train_both(HM.WordLevel(unk_token="<unk>"), "whitespace", corpus(corpus_name),
                                 HT.WordLevelTrainer(show_progress=False, **options),
                                 WordLevelTrainer(show_progress=False, **options))
    assert ours == oracle


@pytest.mark.parametrize("model", ["bpe", "bytelevel_bpe", "wordpiece", "wordlevel"])
def test_trained_tokenizer_json_encodes_identically(shared: Path, tmp_path: Path, model: str) -> None:
    """hfcompat.train's tokenizer, saved as tokenizer.json, encodes in tokenizers as in hfcompat."""
    texts = corpus("botchan") + corpus("pku_test")
    ours = hfcompat.train(texts, model=model, vocab_size=1500, show_progress=False)
    path = tmp_path / "tokenizer.json"
    ours.save(str(path))
    oracle = tokenizers.Tokenizer.from_file(str(path))
    probe = corpus_sample("wagahaiwa", 40) + corpus_sample("botchan", 40) + fixture_texts()[:40]
    for text in probe:
        expected = oracle.encode(text)
        got = ours.encode(text)
        assert (got.ids, got.tokens, got.offsets) == (expected.ids, expected.tokens, expected.offsets), text
        assert ours.decode(got.ids) == oracle.decode(expected.ids)


def test_train_from_files_reads_lines_like_tokenizers(shared: Path, tmp_path: Path) -> None:
    """Tokenizer.train(files): lines keep their "\\n" (and "\\r"), as tokenizers reads them."""
    path = tmp_path / "corpus.txt"
    path.write_bytes("\n".join(corpus("botchan") + ["a\r\nb  c\r", "\t x"]).encode("utf-8"))
    oracle = oracle_tokenizer(HM.BPE(), "bytelevel")
    oracle.train([str(path)], HT.BpeTrainer(vocab_size=600, show_progress=False))
    ours = hfcompat.Tokenizer.from_str(oracle_tokenizer(HM.BPE(), "bytelevel").to_str())
    ours.train([str(path)], BpeTrainer(vocab_size=600, show_progress=False))
    assert trained_model_json(ours) == trained_model_json(oracle)


WORDS = st.text(alphabet="abcdé ", min_size=0, max_size=12)


@given(texts=st.lists(WORDS, min_size=1, max_size=30), vocab_size=st.integers(1, 60),
       min_frequency=st.integers(0, 3), byte_level=st.booleans(),
       max_token_length=st.none() | st.integers(1, 4), specials=st.lists(WORDS, max_size=2))
def test_bpe_random_corpora(texts: list[str], vocab_size: int, min_frequency: int, byte_level: bool,
                            max_token_length: int | None, specials: list[str]) -> None:
    """Random small corpora full of ties: merges and vocabulary as tokenizers'."""
    options = dict(vocab_size=vocab_size, min_frequency=min_frequency, max_token_length=max_token_length,
                   special_tokens=specials)
    oracle, ours, _ = train_both(HM.BPE(), "bytelevel" if byte_level else "whitespace", texts,
                                 HT.BpeTrainer(show_progress=False, **options),
                                 BpeTrainer(show_progress=False, **options))
    assert ours["merges"] == oracle["merges"]
    assert ours["vocab"] == oracle["vocab"]


def test_extended_tokenizer_json_encodes_identically(shared: Path, tmp_path: Path) -> None:
    """A BPE tokenizer trained further on new text still saves to a tokenizer.json tokenizers agrees with."""
    from hfcompat.trainers import extend

    ours = hfcompat.train(corpus("botchan"), model="bytelevel_bpe", vocab_size=800, show_progress=False)
    extend(ours, corpus("wagahaiwa"), vocab_size=1600, show_progress=False)
    path = tmp_path / "tokenizer.json"
    ours.save(str(path))
    oracle = tokenizers.Tokenizer.from_file(str(path))
    for text in corpus_sample("wagahaiwa", 40) + corpus_sample("botchan", 40):
        assert ours.encode(text).ids == oracle.encode(text).ids, text
