"""How transformers' subword-nmt classes cut a text into the words their BPE runs on (models/subword_nmt.py).

Each class takes the runs of non-space characters, with the newline right after one (`\\S+\\n?`): CTRL and
BlenderbotSmall with the `regex` module, PhoBERT and BERTweet with Python's `re`, whose ideas of a space
differ (U+001C-U+001F are spaces to `re` alone). BlenderbotSmall rewrites each run before its BPE: a space
before . , ! ? ( and ), spaces around an apostrophe, a newline as the word "__newln__", lowercased.
BERTweet may normalize the text first (normalizers/tweet.py). A splitter returns (word, start, end): the
char span a word covers in the text (all the run for a rewritten word, all the text after a normalization).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import regex

WORD_RUN = r"\S+\n?"
NEWLINE_WORD = "__newln__"
Word = tuple[str, int, int]

_BEFORE_PUNCTUATION = regex.compile(r"([.,!?()])")
_APOSTROPHE = regex.compile(r"(')")
_SPACE_RUN = regex.compile(r"\s{2,}")
_RUNS = {False: regex.compile(WORD_RUN), True: re.compile(WORD_RUN)}


@dataclass(frozen=True)
class WordRuns:
    """The `\\S+\\n?` runs of a text, found with `regex` or with Python's `re` (`python_re`)."""

    python_re: bool = False

    def __call__(self, text: str) -> list[Word]:
        """The runs with their spans."""
        return [(found.group(), found.start(), found.end()) for found in _RUNS[self.python_re].finditer(text)]


def blenderbot_small_words(run: str) -> list[str]:
    """The lowercased words BlenderbotSmall makes of one run (punctuation cut off, "\\n" as "__newln__")."""
    run = _BEFORE_PUNCTUATION.sub(r" \1", run)
    run = _APOSTROPHE.sub(r" \1 ", run)
    run = _SPACE_RUN.sub(" ", run)
    run = run.replace("\n", " " + NEWLINE_WORD)
    return [word.lower() for word in run.split(" ") if word]


def blenderbot_small_splitter(text: str) -> list[Word]:
    """BlenderbotSmall's words of a text, each with the span of the run it came from."""
    return [(word, start, end) for run, start, end in WordRuns()(text) for word in blenderbot_small_words(run)]


@dataclass(frozen=True)
class NormalizedRuns:
    """The `re` runs of the text `normalize` makes (BERTweet's normalization): each covers the whole text."""

    normalize: Callable[[str], str]

    def __call__(self, text: str) -> list[Word]:
        """The runs of the normalized text."""
        return [(word, 0, len(text)) for word, _, _ in WordRuns(python_re=True)(self.normalize(text))]
