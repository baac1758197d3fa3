"""BpeTrainer on hand-made word counts, and against the documented algorithm written out naively."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat.models.bpe import BPE
from hfcompat.trainers import BpeTrainer
from hfcompat.trainers.bpe import merge_in_word

COUNTS = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def test_merge_in_word_reports_pair_changes() -> None:
    """Merging (a, b) in "x a b a b" rewrites it and reports the pairs that went and came."""
    x, a, b, ab = 1, 2, 3, 9
    symbols = [x, a, b, a, b]
    changes = merge_in_word(symbols, None, a, b, ab, 1 << 62)
    assert symbols == [x, ab, ab]
    assert changes == [((x, a), -1), ((x, ab), 1), ((b, a), -1), ((ab, a), 1),
                       ((ab, a), -1), ((ab, ab), 1)]


def test_merge_in_word_respects_max_length() -> None:
    """A pair whose token would reach the max length is not counted (the merge still happens)."""
    symbols, lengths = [1, 2, 3], [1, 1, 1]
    changes = merge_in_word(symbols, lengths, 2, 3, 7, 3)
    assert symbols == [1, 7] and lengths == [1, 2]
    assert changes == [((1, 2), -1)]


def test_bpe_learns_the_most_frequent_pairs() -> None:
    """The textbook counts: ("u","g") then ("u","n") then ("h","ug")."""
    vocab, merges = BpeTrainer(10, show_progress=False).learn(COUNTS)
    assert merges == [("u", "g"), ("u", "n"), ("h", "ug")]
    assert list(vocab) == ["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"]


def test_bpe_special_tokens_and_min_frequency() -> None:
    """Special tokens come first; merging stops below min_frequency."""
    vocab, merges = BpeTrainer(100, min_frequency=16, special_tokens=["<unk>"], show_progress=False).learn(COUNTS)
    assert merges == [("u", "g"), ("u", "n")]
    assert vocab["<unk>"] == 0


def test_bpe_limit_and_initial_alphabet() -> None:
    """limit_alphabet keeps the most frequent chars; initial_alphabet chars are always kept."""
    vocab, _ = BpeTrainer(8, limit_alphabet=3, initial_alphabet=["zoo", "q"], show_progress=False).learn(COUNTS)
    assert list(vocab)[:3] == ["q", "u", "z"]


def test_bpe_trained_model_keeps_model_options() -> None:
    """train(..., model=) keeps the unk token and byte fallback of the model it replaces."""
    old = BPE({}, [], unk_token="<unk>", byte_fallback=True)
    model = BpeTrainer(20, continuing_subword_prefix="##", show_progress=False).train(COUNTS, model=old)
    assert model.unk_token == "<unk>" and model.byte_fallback
    assert model.continuing_subword_prefix == "##"
    assert [t.value for t in model.tokenize("bugs")] == ["b", "##ug", "##s"]


def test_bpe_rejects_unknown_tie_break() -> None:
    """A misspelt tie rule is an error, not a silent default."""
    with pytest.raises(ValueError, match="tie_break"):
        BpeTrainer(tie_break="last")


def test_first_tie_break_prefers_the_earliest_pair() -> None:
    """Equal counts: "first" takes the pair met first, "hf" the smallest ids."""
    counts = {"zy": 1, "ab": 1}
    assert BpeTrainer(5, tie_break="first", show_progress=False).learn(counts)[1] == [("z", "y")]
    assert BpeTrainer(5, show_progress=False).learn(counts)[1] == [("a", "b")]




# ----- the documented algorithms, written out naively (recount everything per merge) -------------


def naive_merge(split: list[str], left: str, right: str, new: str) -> list[str]:
    """Merge every (left, right) of one split, left to right."""
    out: list[str] = []
    i = 0
    while i < len(split):
        if i + 1 < len(split) and split[i] == left and split[i + 1] == right:
            out.append(new)
            i += 2
        else:
            out.append(split[i])
            i += 1
    return out


def naive_first_bpe(word_counts: dict[str, int], vocab_size: int) -> list[tuple[str, str]]:
    """BPE as documented: recount pairs each step, take the first pair met with the top count."""
    vocab = sorted({char for word in word_counts for char in word})
    splits = {word: list(word) for word in word_counts}
    merges = []
    while len(vocab) < vocab_size:
        pair_counts: dict[tuple[str, str], int] = {}
        for word, count in word_counts.items():
            split = splits[word]
            for pair in zip(split, split[1:]):
                pair_counts[pair] = pair_counts.get(pair, 0) + count
        if not pair_counts:
            break
        top = max(pair_counts.values())
        best = next(pair for pair, count in pair_counts.items() if count == top)
        merges.append(best)
        new = best[0] + best[1]
        splits = {word: naive_merge(split, *best, new) for word, split in splits.items()}
        if new not in vocab:
            vocab.append(new)
    return merges


WORD_COUNTS = st.dictionaries(st.text(alphabet="abcab", min_size=1, max_size=7), st.integers(1, 6),
                              min_size=1, max_size=12)


@given(word_counts=WORD_COUNTS, vocab_size=st.integers(1, 30))
def test_first_tie_break_equals_the_naive_algorithm(word_counts: dict[str, int], vocab_size: int) -> None:
    """The incremental "first" loop gives the merges of the recount-everything algorithm."""
    _, merges = BpeTrainer(vocab_size, tie_break="first", show_progress=False).learn(word_counts)
    assert merges == naive_first_bpe(word_counts, vocab_size)
