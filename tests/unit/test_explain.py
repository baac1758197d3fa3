"""Tokenizer.explain: the model steps replayed from the file give what `tokenizers` encodes."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hfcompat
from hfcompat.cli import run
from hfcompat.tools.explain import Explanation
from tests.conftest import fixture_texts, mixed_sample, shared_file

pytestmark = pytest.mark.conformance


@lru_cache(maxsize=None)
def texts() -> list[str]:
    """Short corpus lines and fixture texts (explain is for one text at a time)."""
    return [t for t in mixed_sample(12) + fixture_texts() if 0 < len(t) <= 160][:70]


@lru_cache(maxsize=None)
def pair(ref: str) -> tuple[Any, Any, dict]:
    """hfcompat's tokenizer, the official one and the tokenizer.json data of a reference."""
    import tokenizers
    path = shared_file(f"refs/{ref}")
    if path.name == "vocab.txt":
        from tokenizers.implementations import BertWordPieceTokenizer
        return hfcompat.load(path), BertWordPieceTokenizer(str(path), lowercase=True), {}
    ours, theirs = hfcompat.load(path), tokenizers.Tokenizer.from_file(str(path))
    for tokenizer in (ours, theirs):
        tokenizer.no_truncation()
        tokenizer.no_padding()
    return ours, theirs, json.loads(path.read_text("utf-8"))


def final_symbols(explanation: Explanation) -> list[str]:
    """The tokens the steps end with, word after word."""
    return [s for word in explanation.words for s in word.steps[-1 if word.steps[-1].action != "candidate"
                                                                 else _path_index(word)].symbols]


def _path_index(word: Any) -> int:
    """Index of the Unigram best-path step."""
    return next(i for i, step in enumerate(word.steps) if step.action == "path")


def check_against_oracle(ours: Any, theirs: Any, text: str) -> Explanation:
    """ids, post-processor additions and decoded text of the explanation equal the oracle's."""
    explanation = ours.explain(text)
    expected = theirs.encode(text)
    assert explanation.ids == expected.ids
    assert explanation.offsets == [tuple(o) for o in expected.offsets]
    assert explanation.decoded == theirs.decode(expected.ids, skip_special_tokens=False)
    assert [i for i, _, _ in explanation.added] == [i for i, w in enumerate(expected.word_ids) if w is None]
    plain = theirs.encode(text, add_special_tokens=False)
    assert [t for w in explanation.words for _, t in w.tokens] == plain.tokens
    return explanation


# ------------------------------------------------------------------ BPE


def replay_bpe(merges: list[tuple[str, str]], explanation: Explanation) -> None:
    """Each merge has its rank in the file, is the lowest-ranked adjacent pair, applied leftmost."""
    rank_of: dict[tuple[str, str], int] = {}
    for rank, merge in enumerate(merges):
        rank_of[merge] = rank
    for word in explanation.words:
        if word.added_token or word.steps[0].action == "whole":
            continue
        symbols = word.steps[0].symbols
        for step in word.steps[1:]:
            assert rank_of[step.pair] == step.rank
            pairs = [rank_of.get(p) for p in zip(symbols, symbols[1:])]
            assert step.rank == min(r for r in pairs if r is not None)
            i = pairs.index(step.rank)
            symbols = symbols[:i] + [step.symbols[i]] + symbols[i + 2:]
            assert symbols == step.symbols
        assert not any(p in rank_of for p in zip(symbols, symbols[1:]))  # nothing left to merge
        assert [t for _, t in word.tokens] == symbols


@pytest.mark.parametrize("ref", ["gpt2/tokenizer.json", "clip/tokenizer.json", "phi-3-mini/tokenizer.json",
                                 "roberta-base/tokenizer.json"])
def test_bpe_steps_replay_to_the_oracle(ref: str) -> None:
    """For every text: replaying the merges from the file's merge list gives tokenizers' tokens."""
    ours, theirs, data = pair(ref)
    merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in data["model"]["merges"]]
    for text in texts():
        replay_bpe(merges, check_against_oracle(ours, theirs, text))


def test_bpe_steps_on_a_known_word() -> None:
    """GPT-2 on 'Hello': four merges, lowest rank first."""
    ours, _, _ = pair("gpt2/tokenizer.json")
    steps = ours.explain("Hello").words[0].steps
    assert [s.symbols for s in steps] == [list("Hello"), ["H", "e", "ll", "o"], ["H", "ell", "o"],
                                          ["H", "ello"], ["Hello"]]
    assert [s.rank for s in steps[1:]] == sorted(s.rank for s in steps[1:])


# ------------------------------------------------------------------ WordPiece


def test_wordpiece_steps_are_the_longest_matches() -> None:
    """Each match is in vocab.txt, no longer candidate is, and the matches give tokenizers' tokens."""
    ours, theirs, _ = pair("bert-base-uncased/vocab.txt")
    vocab = set(shared_file("refs/bert-base-uncased/vocab.txt").read_text("utf-8").split("\n"))
    for text in texts() + ["unaffable 💥 xx💥"]:
        explanation = check_against_oracle(ours, theirs, text)
        for word in explanation.words:
            kinds = [s.action for s in word.steps]
            if kinds == ["whole"]:
                assert word.text in vocab
                continue
            start = 0
            for step in word.steps:
                if step.action == "fail":
                    assert [t for _, t in word.tokens] == ["[UNK]"]
                    assert not any(("##" if start else "") + word.text[start:end] in vocab
                                   for end in range(start + 1, len(word.text) + 1))
                    break
                piece = step.symbols[-1]
                chars = piece[2:] if start else piece
                assert piece in vocab and word.text[start:].startswith(chars)
                end = start + len(chars)
                longer = [("##" if start else "") + word.text[start:e] for e in range(end + 1, len(word.text) + 1)]
                assert not any(candidate in vocab for candidate in longer)
                start = end
            else:
                assert start == len(word.text)
                assert [t for _, t in word.tokens] == word.steps[-1].symbols


# ------------------------------------------------------------------ Unigram


def segmentations(word: str) -> list[list[str]]:
    """Every way to cut `word` into pieces."""
    cuts = range(1, len(word))
    return [[word[a:b] for a, b in zip((0, *chosen), (*chosen, len(word)))]
            for size in range(len(word)) for chosen in combinations(cuts, size)]


def test_unigram_best_path_and_candidates() -> None:
    """Best path = the best of all segmentations scored from the file; candidates are the next best."""
    ours, theirs, data = pair("t5/tokenizer.json")
    scores = {piece: score for piece, score in data["model"]["vocab"]}
    checked = 0
    for text in texts() + ["Hello worldly tokenization"]:
        explanation = check_against_oracle(ours, theirs, text)
        for word in explanation.words:
            path = word.steps[0]
            assert path.action == "path" and "".join(path.symbols) == word.text
            if any(p not in scores for p in path.symbols) or len(word.text) > 10:
                continue
            assert path.symbols == [t for _, t in word.tokens]
            assert path.score == pytest.approx(sum(scores[p] for p in path.symbols))
            ranked = sorted((sum(scores[p] for p in s) for s in segmentations(word.text)
                             if all(p in scores for p in s)), reverse=True)
            assert path.score == pytest.approx(ranked[0])
            candidates = [s.score for s in word.steps[1:]]
            assert candidates == pytest.approx(ranked[1:1 + len(candidates)])
            checked += 1
    assert checked > 50


# ------------------------------------------------------------------ other stages and the command


def test_normalized_alignment() -> None:
    """BERT's normalizer: the documented example, each char aligned to the one it came from."""
    ours, _, _ = pair("bert-base-uncased/vocab.txt")
    explanation = ours.explain("Héllò hôw are ü?")
    assert explanation.normalized == "hello how are u?"
    assert explanation.alignments == [(i, i + 1) for i in range(16)]
    assert [(w.text, w.offsets) for w in explanation.words][:2] == [("hello", (0, 5)), ("how", (6, 9))]
    assert "'e'<-'é'@1" in str(explanation)


def test_added_tokens_and_post_processor() -> None:
    """An added token in the text is its own word; RoBERTa's <s> and </s> are listed as added."""
    ours, theirs, _ = pair("roberta-base/tokenizer.json")
    explanation = check_against_oracle(ours, theirs, "a<mask>b")
    assert [w.added_token for w in explanation.words] == [False, True, False]
    assert explanation.added == [(0, 0, "<s>"), (4, 2, "</s>")]


def test_truncation_is_reported() -> None:
    """GPT-2's saved truncation (50 tokens) drops tokens; explain says how many."""
    explanation = hfcompat.load(shared_file("refs/gpt2/tokenizer.json")).explain("a " * 60)
    assert len(explanation.ids) == 50
    assert explanation.truncation == "max_length 50: 11 tokens dropped"  # "a", 59 x " a", " "


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """`hfcompat explain TOK TEXT` prints the steps; --json prints the same as data."""
    path = str(shared_file("refs/gpt2/tokenizer.json"))
    assert run(["explain", path, "Hello world"]) == 0
    out = capsys.readouterr().out
    assert "merge (rank 41): 'l' + 'l' -> 'll'" in out and "ids:         [15496, 995]" in out
    assert run(["explain", path, "Hello world", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == [15496, 995]
    assert Path(path).exists()


@given(st.text(max_size=60))
def test_random_text_explained_like_the_oracle(text: str) -> None:
    """On random Unicode: GPT-2's and T5's explanations give tokenizers' ids; BPE merges replay."""
    ours, theirs, data = pair("gpt2/tokenizer.json")
    merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in data["model"]["merges"]]
    replay_bpe(merges, check_against_oracle(ours, theirs, text))
    ours, theirs, _ = pair("t5/tokenizer.json")
    explanation = check_against_oracle(ours, theirs, text)
    for word in explanation.words:
        if not word.added_token:
            assert "".join(word.steps[0].symbols) == word.text
