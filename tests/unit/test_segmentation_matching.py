"""Maximum matching and the word-graph paths on small dictionaries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hfcompat.segmentation import Dictionary
from hfcompat.segmentation.dag import build_dag, most_probable_cut, shortest_route, follow
from hfcompat.segmentation.matching import backward_max_match, bidirectional_max_match, forward_max_match

WORDS = Dictionary.from_words(["研究", "研究生", "生命", "命", "起源"])


def test_forward_and_backward_disagree_where_they_should() -> None:
    """研究生命起源: forward takes 研究生 first, backward takes 生命 first."""
    assert forward_max_match("研究生命起源", WORDS) == ["研究生", "命", "起源"]
    assert backward_max_match("研究生命起源", WORDS) == ["研究", "生命", "起源"]


def test_bidirectional_prefers_fewer_single_characters_on_equal_counts() -> None:
    """Equal word counts: the side with fewer one-character words (here backward) wins."""
    assert bidirectional_max_match("研究生命起源", WORDS) == ["研究", "生命", "起源"]


def test_bidirectional_prefers_fewer_words() -> None:
    """Forward 2 words against backward 4: forward wins."""
    d = Dictionary.from_words(["abcd", "de", "e"])
    assert forward_max_match("abcde", d) == ["abcd", "e"]
    assert backward_max_match("abcde", d) == ["a", "b", "c", "de"]
    assert bidirectional_max_match("abcde", d) == ["abcd", "e"]


def test_unknown_characters_come_out_alone() -> None:
    """Characters no word covers are single-character words in every method."""
    assert forward_max_match("x研究y", WORDS) == ["x", "研究", "y"]
    assert backward_max_match("x研究y", WORDS) == ["x", "研究", "y"]


def test_dag_lists_every_word_end() -> None:
    """build_dag: inclusive ends of the words starting at each index, the index itself if none."""
    assert build_dag("研究生命", WORDS) == [[1, 2], [1], [3], [3]]


def test_most_probable_path_uses_frequencies() -> None:
    """With frequencies the unigram path differs from the fewest-words path."""
    d = Dictionary.from_words([("研究", 100), ("研究生", 1), ("生命", 100), ("命", 1)])
    assert most_probable_cut("研究生命", d) == ["研究", "生命"]
    d2 = Dictionary.from_words([("ab", 1), ("a", 1000), ("b", 1000)])
    assert most_probable_cut("ab", d2) == ["a", "b"]
    assert follow("ab", shortest_route("ab", d2)) == ["ab"]


def naive_forward(text: str, words: set[str], longest: int) -> list[str]:
    """Textbook forward matching: try every length from the longest down (the test's oracle)."""
    out, k = [], 0
    while k < len(text):
        size = next((n for n in range(min(longest, len(text) - k), 1, -1) if text[k:k + n] in words), 1)
        out.append(text[k:k + size])
        k += size
    return out


def naive_backward(text: str, words: set[str], longest: int) -> list[str]:
    """Textbook backward matching, the mirror image of naive_forward."""
    out, end = [], len(text)
    while end > 0:
        size = next((n for n in range(min(longest, end), 1, -1) if text[end - n:end] in words), 1)
        out.append(text[end - size:end])
        end -= size
    return out[::-1]


@given(st.lists(st.text("abc", min_size=1, max_size=4), max_size=8), st.text("abcd", max_size=20))
def test_matching_equals_the_textbook_procedure(words: list[str], text: str) -> None:
    """On random dictionaries over a tiny alphabet, the prefix-table scan equals the naive loops."""
    dictionary = Dictionary.from_words(words)
    known, longest = set(words), max(map(len, words), default=1)
    assert forward_max_match(text, dictionary) == naive_forward(text, known, longest)
    assert backward_max_match(text, dictionary) == naive_backward(text, known, longest)
