"""Segmenter: split text into blocks as jieba does, cut each block by the chosen method, add the HMM."""

from __future__ import annotations

from typing import Callable

import regex

from .bigram import BigramModel, bigram_cut
from .dag import follow, most_probable_route, shortest_route
from .dictionary import Dictionary
from .hmm import HMM
from .matching import backward_max_match, bidirectional_max_match, forward_max_match

# Runs the dictionary methods see: Han plus ASCII letters, digits and + # & . _ % -. Python jieba's Han is
# U+4E00-U+9FD5; jieba-rs (rjieba) takes the CJK ideograph blocks, extensions and compatibility ones too.
BLOCKS = {"jieba": regex.compile("([\u4E00-\u9FD5a-zA-Z0-9+#&._%\\-]+)"),
          "jieba-rs": regex.compile("([\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\U00020000-\U0002A6DF"
                                    "\U0002A700-\U0002EBEF\U0002F800-\U0002FA1F"
                                    "a-zA-Z0-9+#&._%\\-]+)")}
# What the matching methods see: everything but whitespace, as the bakeoff's maximum-matching baseline
_NON_SPACE = regex.compile(r"(\S+)")
_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

MATCHING_METHODS = ("fmm", "bmm", "bidirectional")
DICTIONARY_METHODS = MATCHING_METHODS + ("dag", "shortest", "bigram")
METHODS = ("char", "char_bigram") + DICTIONARY_METHODS


class Segmenter:
    """Chinese word segmentation by one method; `cut(text)` returns the words, spaces included.

    The graph methods cut the runs jieba cuts (Han, ASCII letters and digits, +#&._%-),
    every other character is a token of its own (CR LF stays one); the matching methods
    cut every whitespace-free run whole, as the bakeoff's baseline does.

    With Dictionary.from_jieba(), method "dag" is jieba.cut(text, HMM=False) and,
    with hmm=True, jieba.cut(text, HMM=True). `hmm` is False, True (jieba's model)
    or an HMM (e.g. HMM.train(lines)); "bigram" needs `bigram=BigramModel.train(lines)`.
    `blocks` "jieba-rs" cuts the wider Han runs of jieba-rs: "dag" is then rjieba.cut(text, False).
    """

    def __init__(self, dictionary: Dictionary | None = None, method: str = "dag",
                 hmm: bool | HMM = False, bigram: BigramModel | None = None, blocks: str = "jieba"):
        if method not in METHODS:
            raise ValueError(f"unknown segmentation method {method!r}; choose one of {', '.join(METHODS)}")
        if blocks not in BLOCKS:
            raise ValueError(f"unknown blocks {blocks!r}; choose one of {', '.join(BLOCKS)}")
        if method == "bigram" and bigram is None:
            raise ValueError('method "bigram" needs a trained model: bigram=BigramModel.train(lines)')
        if dictionary is None and method in DICTIONARY_METHODS:
            dictionary = bigram.dictionary() if bigram is not None else Dictionary.from_jieba()
        self.dictionary = dictionary if dictionary is not None else Dictionary()
        self.method = method
        self.hmm = HMM.from_jieba() if hmm is True else (hmm or None)
        self.bigram = bigram
        self.blocks = blocks
        self._block = BLOCKS[blocks]
        self._block_cut = self._block_cutter()

    def cut(self, text: str) -> list[str]:
        """The words of `text`, in order; they concatenate back to `text` (char_bigram: overlapping pairs)."""
        if self.method == "char":
            return list(text)
        if self.method == "char_bigram":
            return [text[i:i + 2] for i in range(len(text))]
        if self.method in MATCHING_METHODS:
            blocks, post_process = _NON_SPACE, list
        else:
            blocks, post_process = self._block, self._join_singles
        words: list[str] = []
        for block in blocks.split(text):
            if not block:
                continue
            if blocks.fullmatch(block):
                words.extend(post_process(self._block_cut(block)))
            else:
                words.extend(_other_chars(block))
        return words

    def add_word(self, word: str, freq: int | None = None) -> None:
        """Add a user word to the dictionary; without a frequency, one just high enough for the
        DAG to cut it out (jieba's add_word). Frequency 0 deletes it."""
        self.dictionary.add_word(word, self.suggest_freq(word) if freq is None else freq)

    def suggest_freq(self, word: str) -> int:
        """The smallest frequency that makes the most-probable path keep `word` whole (jieba's rule)."""
        dictionary = self.dictionary
        probability = 1.0
        for piece in Segmenter(dictionary, method="dag").cut(word):
            probability *= dictionary.freq.get(piece, 1) / dictionary.total
        return max(int(probability * dictionary.total) + 1, dictionary.freq.get(word, 1))

    def _block_cutter(self) -> Callable[[str], list[str]]:
        """The function that cuts one block by the chosen method."""
        dictionary = self.dictionary
        if self.method not in DICTIONARY_METHODS:  # "char" and "char_bigram" cut the whole text
            return list
        if self.method == "dag":
            return lambda block: follow(block, most_probable_route(block, dictionary))
        if self.method == "shortest":
            return lambda block: follow(block, shortest_route(block, dictionary))
        if self.method == "bigram":
            model = self.bigram
            assert model is not None
            return lambda block: bigram_cut(block, dictionary, model)
        matcher = {"fmm": forward_max_match, "bmm": backward_max_match,
                   "bidirectional": bidirectional_max_match}[self.method]
        return lambda block: matcher(block, dictionary)

    def _join_singles(self, pieces: list[str]) -> list[str]:
        """Post-process a block's path: runs of single characters go to the HMM, or ASCII runs join.

        Without an HMM, consecutive one-character ASCII letters/digits become one word.
        With it, a run of two or more single characters that is not itself a word is
        re-segmented by the HMM; a run that is a word stays as characters (jieba's rules).
        """
        words: list[str] = []
        run = ""
        for piece in pieces:
            if self.hmm is None:
                if len(piece) == 1 and piece in _ASCII_ALNUM:
                    run += piece
                    continue
                if run:
                    words.append(run)
                    run = ""
                words.append(piece)
            elif len(piece) == 1:
                run += piece
            else:
                if run:
                    words.extend(self._hmm_run(run))
                    run = ""
                words.append(piece)
        if run:
            words.extend([run] if self.hmm is None else self._hmm_run(run))
        return words

    def _hmm_run(self, run: str) -> list[str]:
        """A run of single characters: itself, its characters (if a word), or the HMM's words."""
        if len(run) == 1:
            return [run]
        if self.dictionary.freq.get(run):
            return list(run)
        assert self.hmm is not None
        return self.hmm.cut(run, self.dictionary.force_split)


def _other_chars(text: str) -> list[str]:
    """Text outside the blocks: one token per character, except that CR LF stays one token."""
    tokens = []
    i = 0
    while i < len(text):
        if text.startswith("\r\n", i):
            tokens.append("\r\n")
            i += 2
        else:
            tokens.append(text[i])
            i += 1
    return tokens
