"""The documented examples of DESIGN.md, exactly (and, where an official library runs them, equal to it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tiktoken_files import encodings, hfcompat_cache, rank_file, tiktoken_offline  # noqa: F401  (fixtures)
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P

import hfcompat
from hfcompat.decoders.utf8 import recover_text

from .harness import oracle_component, subject_module

pytestmark = pytest.mark.conformance

NORMALIZER_INPUT = "Héllò hôw are ü?"
NORMALIZER_OUTPUT = "hello how are u?"

PRE_TOKENIZER_INPUT = "Hello, how are  you?"  # two spaces before "you"
PRE_TOKENIZED = {
    "bert": [("Hello", (0, 5)), (",", (5, 6)), ("how", (7, 10)), ("are", (11, 14)), ("you", (16, 19)),
             ("?", (19, 20))],
    "gpt2": [("Hello", (0, 5)), (",", (5, 6)), ("Ġhow", (6, 10)), ("Ġare", (10, 14)), ("Ġ", (14, 15)),
             ("Ġyou", (15, 19)), ("?", (19, 20))],
    "t5": [("▁Hello,", (0, 6)), ("▁how", (7, 10)), ("▁are", (11, 14)), ("▁you?", (16, 20))],
}


def state(component: Any) -> dict:
    """The JSON dict tokenizers writes for a component."""
    return json.loads(component.__getstate__())


def ref_section(name: str, section: str) -> Callable[[Path], dict]:
    """A loader of one section of a reference tokenizer.json (needs ../shared)."""
    return lambda shared: json.loads((shared / "refs" / name / "tokenizer.json").read_text(encoding="utf-8"))[section]


# (documented example, how its pre-tokenizer is obtained): built in tokenizers, or read from a real file.
PRE_TOKENIZER_SOURCES = {
    "bert-built": ("bert", lambda shared: state(P.BertPreTokenizer())),
    "gpt2-built": ("gpt2", lambda shared: state(P.ByteLevel(add_prefix_space=False))),
    "gpt2-ref": ("gpt2", ref_section("gpt2", "pre_tokenizer")),
    "t5-built": ("t5", lambda shared: state(P.Sequence([P.WhitespaceSplit(), P.Metaspace(replacement="▁")]))),
    "t5-ref": ("t5", ref_section("t5", "pre_tokenizer")),
}


def pieces(result: list) -> list[tuple[str, tuple[int, int]]]:
    """pre_tokenize_str output as plain (str, (int, int)) tuples."""
    return [(text, (int(start), int(end))) for text, (start, end) in result]


def test_bert_normalizer_example() -> None:
    """Example 1: BERT's normalizer lowercases and strips the accents."""
    oracle = N.BertNormalizer()
    assert oracle.normalize_str(NORMALIZER_INPUT) == NORMALIZER_OUTPUT
    ours = subject_module("normalizers").from_dict(state(oracle))
    assert ours.normalize_str(NORMALIZER_INPUT) == NORMALIZER_OUTPUT


@pytest.mark.parametrize("source", list(PRE_TOKENIZER_SOURCES))
def test_pre_tokenizer_example(request: pytest.FixtureRequest, source: str) -> None:
    """Example 2: the documented pieces and offsets, from tokenizers and from hfcompat."""
    expected_name, load = PRE_TOKENIZER_SOURCES[source]
    shared = request.getfixturevalue("shared") if source.endswith("-ref") else None
    data = load(shared)
    expected = PRE_TOKENIZED[expected_name]
    oracle = oracle_component("pre_tokenizer", data)
    assert pieces(oracle.pre_tokenize_str(PRE_TOKENIZER_INPUT)) == expected
    ours = subject_module("pre_tokenizers").from_dict(data)
    assert pieces(ours.pre_tokenize_str(PRE_TOKENIZER_INPUT)) == expected



# ----- examples 8 and 9: Chinese word segmentation --------------------------------------------

EXAMPLE8_WORDS = ["商务处", "女干事", "商务", "处女", "干事"]
EXAMPLE9 = "我们相信AI可以让世界变得更美好"


@pytest.mark.parametrize("method", ["fmm", "bmm", "bidirectional"])
def test_maximum_matching_example(method: str) -> None:
    """Example 8: forward, backward and bidirectional matching all give 商务处/女干事."""
    from hfcompat.segmentation import Dictionary, Segmenter

    segmenter = Segmenter(Dictionary.from_words(EXAMPLE8_WORDS), method=method)
    assert "/".join(segmenter.cut("商务处女干事")) == "商务处/女干事"


def test_bidirectional_matching_picks_fewer_words() -> None:
    """Example 8: where the two directions differ in length, bidirectional keeps the shorter cut."""
    from hfcompat.segmentation.dictionary import Dictionary
    from hfcompat.segmentation.matching import backward_max_match, bidirectional_max_match, forward_max_match

    words = Dictionary.from_words(["商务处女", "商务处", "女干事"])
    forward, backward = forward_max_match("商务处女干事", words), backward_max_match("商务处女干事", words)
    assert forward == ["商务处女", "干", "事"] and backward == ["商务处", "女干事"]
    assert bidirectional_max_match("商务处女干事", words) == backward


@pytest.mark.parametrize("method, expected", [
    ("char", "我/们/相/信/A/I/可/以/让/世/界/变/得/更/美/好"),
    ("dag", "我们/相信/AI/可以/让/世界/变得/更/美好"),
    ("char_bigram", "我们/们相/相信/信A/AI/I可/可以/以让/让世/世界/界变/变得/得更/更美/美好/好"),
])
def test_character_word_and_bigram_segmentation_example(method: str, expected: str) -> None:
    """Example 9: by character, by word (jieba's dictionary) and by character bigram."""
    from hfcompat.segmentation import Dictionary, Segmenter

    dictionary = Dictionary.from_jieba() if method == "dag" else None
    assert "/".join(Segmenter(dictionary, method=method).cut(EXAMPLE9)) == expected


def test_word_segmentation_example_is_jiebas() -> None:
    """Example 9's word cut is what jieba itself gives, with and without its HMM."""
    jieba = pytest.importorskip("jieba")
    for hmm in (False, True):
        assert "/".join(jieba.lcut(EXAMPLE9, HMM=hmm)) == "我们/相信/AI/可以/让/世界/变得/更/美好"
# Example 3: the four-sentence training corpus; example 4: the classic word counts.
TRAINING_CORPUS = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]
BPE_MERGES = [("Ġ", "t"), ("i", "s"), ("e", "r"), ("Ġ", "a"), ("Ġt", "o"), ("e", "n"), ("T", "h"), ("Th", "is"),
              ("o", "u"), ("s", "e"), ("Ġto", "k"), ("Ġtok", "en"), ("n", "d"), ("Ġ", "is"), ("Ġt", "h"),
              ("Ġth", "e"), ("i", "n"), ("Ġa", "b"), ("Ġtoken", "i"), ("Ġtokeni", "z")]
WORDPIECE_LEARNED = ("##ct ##fu ##ful ##full ##fully ##hm ##thm ##thms ##ut ##za ##zat Fa Fac Hu Hug Hugg Th ab ch "
                     "cha chap chapt is sh th").split()
WORDPIECE_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def documented_counts(pre_tokenizer: dict) -> tuple[Any, dict[str, int]]:
    """A model-less hfcompat tokenizer with this pre-tokenizer, and its word counts of the corpus."""
    import hfcompat
    from hfcompat.pre_tokenizers import from_dict
    from hfcompat.trainers import count_words

    tokenizer = hfcompat.Tokenizer(None, pre_tokenizer=from_dict(pre_tokenizer))
    return tokenizer, count_words(tokenizer, TRAINING_CORPUS, show_progress=False)


def test_bpe_training_example() -> None:
    """Example 3, BPE: GPT-2 pre-tokenization, vocab 50, ties to the first pair met."""
    from hfcompat.trainers import BpeTrainer

    tokenizer, counts = documented_counts(state(P.ByteLevel(add_prefix_space=False)))
    trainer = BpeTrainer(50, tie_break="first", show_progress=False)
    vocab, merges = trainer.learn(counts)
    assert merges == BPE_MERGES
    assert len(vocab) == 50
    tokenizer.model = trainer.train(counts)
    assert tokenizer.encode("This is not a token.").tokens == \
        ["This", "Ġis", "Ġ", "n", "o", "t", "Ġa", "Ġtoken", "."]


def test_bpe_training_example_differs_under_hf_ties() -> None:
    """The HF rule breaks example 3's ties differently, as DESIGN.md says (so the mode matters)."""
    from hfcompat.trainers import BpeTrainer

    _, counts = documented_counts(state(P.ByteLevel(add_prefix_space=False)))
    _, merges = BpeTrainer(50, show_progress=False).learn(counts)
    assert merges != BPE_MERGES


def test_wordpiece_training_example() -> None:
    """Example 3, WordPiece: BERT pre-tokenization, score freq(ab)/(freq(a)freq(b)), vocab 70."""
    from hfcompat.trainers import WordPieceTrainer

    tokenizer, counts = documented_counts(state(P.BertPreTokenizer()))
    model = WordPieceTrainer(70, special_tokens=WORDPIECE_SPECIALS, show_progress=False).train(counts)
    assert len(model.vocab) == 70
    assert set(WORDPIECE_LEARNED) <= set(model.vocab)
    tokenizer.model = model
    assert tokenizer.encode("This is the Hugging Face course!").tokens == [
        "Th", "##i", "##s", "is", "th", "##e", "Hugg", "##i", "##n", "##g", "Fac", "##e", "c", "##o", "##u",
        "##r", "##s", "##e", "[UNK]"]


def test_classic_bpe_example() -> None:
    """Example 4: classic BPE with a separate end-of-word symbol on the paper's word counts."""
    from hfcompat.trainers import BpeTrainer

    trainer = BpeTrainer(20, tie_break="first", end_of_word_symbol="</w>", show_progress=False)
    vocab, merges = trainer.learn({"low": 5, "lower": 2, "newest": 6, "widest": 3})
    assert merges == [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("n", "e"),
                      ("ne", "w"), ("new", "est</w>"), ("low", "</w>")]
    assert len(vocab) == 20
# ----- examples 5, 6 and 7: tiktoken's cl100k_base --------------------------------------------

CL100K_EXAMPLES = {"你是谁, my name": [57668, 21043, 39013, 223, 11, 856, 836], "hello world": [15339, 1917]}
IM_TOKENS = {"<|im_start|>": 100264, "<|im_end|>": 100265, "<|im_sep|>": 100266}
CHAT_NEWLINES = ("<|im_start|>system\nYou are a helpful assistant<|im_end|>\n<|im_start|>user\n你是谁<|im_end|>\n"
                 "<|im_start|>assistant\n")
CHAT_NEWLINES_IDS = [100264, 9125, 198, 2675, 527, 264, 11190, 18328, 100265, 198, 100264, 882, 198, 57668, 21043,
                     39013, 223, 100265, 198, 100264, 78191, 198]
CHAT_SEP = ("<|im_start|>system<|im_sep|>You are a helpful assistant<|im_end|><|im_start|>user<|im_sep|>你是谁"
            "<|im_end|><|im_start|>assistant<|im_sep|>")
CHAT_SEP_IDS = [100264, 9125, 100266, 2675, 527, 264, 11190, 18328, 100265, 100264, 882, 100266, 57668, 21043,
                39013, 223, 100265, 100264, 78191, 100266]


@pytest.mark.parametrize("text", list(CL100K_EXAMPLES))
def test_cl100k_example(encodings, text: str) -> None:
    """Example 5: the documented ids, from tiktoken and from hfcompat."""
    ours, theirs = encodings("cl100k_base")
    assert theirs.encode(text) == CL100K_EXAMPLES[text]
    assert ours.encode(text).ids == ours.encode_ordinary(text) == CL100K_EXAMPLES[text]


def test_cl100k_one_char_spans_two_tokens(encodings) -> None:
    """Example 5: token 39013 alone is not valid UTF-8 (谁 is 39013 + 223)."""
    ours, theirs = encodings("cl100k_base")
    assert ours.decode_single_token_bytes(39013) == theirs.decode_single_token_bytes(39013)
    with pytest.raises(UnicodeDecodeError):
        ours.decode_single_token_bytes(39013).decode("utf-8")
    with pytest.raises(UnicodeDecodeError):
        ours.decode([39013], errors="strict")
    assert ours.decode([39013, 223]) == "谁"


@pytest.mark.parametrize("text, expected", [(CHAT_NEWLINES, CHAT_NEWLINES_IDS), (CHAT_SEP, CHAT_SEP_IDS)])
def test_cl100k_im_chat(tiktoken_offline, hfcompat_cache, text: str, expected: list[int]) -> None:
    """Example 6: cl100k_base extended with the three chat tokens, as in tiktoken."""
    path = rank_file("cl100k_base")
    base = tiktoken_offline.get_encoding("cl100k_base")
    im = tiktoken_offline.Encoding("cl100k_im", pat_str=base._pat_str, mergeable_ranks=base._mergeable_ranks,
                                   special_tokens={**base._special_tokens, **IM_TOKENS})
    assert im.encode(text, allowed_special="all") == expected
    ours = hfcompat.load(path, encoding="cl100k_base", special_tokens=IM_TOKENS)
    assert ours.encode(text, allowed_special="all").ids == expected
    assert ours.encode_ids(text, allowed_special="all") == expected
    assert ours.decode(expected) == text


RECOVER_CASES = {
    b"\xe4\xbd\xa0\xe6\x98\xe8\xb0\x81": "你谁",  # 是 lost its last byte
    b"\xe8\xb0": "",
    b"ab\xffcd": "abcd",
    b"\xf0\x9f\x98\x80\x80\x80x": "😀x",
    b"\xc3\xa9\xa9\xe2\x82\xac": "é€",
}


@pytest.mark.parametrize("data", list(RECOVER_CASES))
def test_recover_keeps_the_most_characters(data: bytes) -> None:
    """Example 7: the dynamic program keeps every character that can be whole."""
    assert recover_text(data) == RECOVER_CASES[data]


def _most_chars(data: bytes) -> int:
    """Brute force: the most disjoint one-character pieces of `data` (scanning forward)."""
    best = [0] * (len(data) + 1)
    for start in range(len(data) - 1, -1, -1):
        best[start] = best[start + 1]
        for width in range(1, 5):
            piece = data[start:start + width]
            if len(piece) == width:
                try:
                    if len(piece.decode("utf-8")) == 1:
                        best[start] = max(best[start], 1 + best[start + width])
                except UnicodeDecodeError:
                    pass
    return best[0]


@given(st.binary(max_size=24) | st.text(max_size=8).map(lambda t: t.encode("utf-8", "surrogatepass")[1:]))
def test_recover_is_optimal(data: bytes) -> None:
    """Example 7: as many characters as the best choice of pieces, and those decode cleanly."""
    recovered = recover_text(data)
    assert len(recovered) == _most_chars(data)
    assert recovered == data.decode("utf-8", "ignore")
T5_PRE_TOKENIZER = {"type": "Sequence", "pretokenizers": [
    {"type": "WhitespaceSplit"}, {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}]}


def test_unigram_documented_seed_and_viterbi() -> None:
    """Example 3, Unigram: the 300-entry seed's scores and the walk-through's Viterbi paths and scores."""
    from hfcompat.models.unigram import Unigram
    from hfcompat.trainers.unigram import documented_seed

    pre_tokenizer = subject_module("pre_tokenizers").from_dict(T5_PRE_TOKENIZER)
    oracle = oracle_component("pre_tokenizer", T5_PRE_TOKENIZER)
    word_counts: dict[str, int] = {}
    for text in TRAINING_CORPUS:
        words = [word for word, _ in pre_tokenizer.pre_tokenize_str(text)]
        assert words == [word for word, _ in oracle.pre_tokenize_str(text)]
        for word in words:
            word_counts[word] = word_counts.get(word, 0) + 1
    seed = documented_seed(word_counts)
    assert len(seed) == 300
    scores = dict(seed)
    assert -scores["▁"] == 2.952892114877499
    model = Unigram(seed)

    def walk(word: str) -> tuple[list[str], float]:
        tokens = model.encode(word)
        path_score = 1.0  # the walk-through starts its path score at 1
        for token in tokens:
            path_score += -scores[token]
        return tokens, path_score

    assert walk("This") == (["This"], 6.288267030694535)
    assert walk("this") == (["t", "his"], 10.03608902044192)
def test_sentencepiece_byte_fallback_example(tmp_path: Path) -> None:
    """Example 10: a byte_fallback model holds <0x00>..<0xFF>; an unseen char encodes as its UTF-8 bytes."""
    import io

    import sentencepiece as spm_lib

    import hfcompat

    lines = ["This is the Hugging Face Course.", "This chapter is about tokenization.",
             "This section shows several tokenizer algorithms."] * 20
    buffer = io.BytesIO()
    spm_lib.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buffer, vocab_size=300,
                                       hard_vocab_limit=False, byte_fallback=True, num_threads=1, minloglevel=2)
    path = tmp_path / "byte_fallback.model"
    path.write_bytes(buffer.getvalue())
    sp = spm_lib.SentencePieceProcessor(model_file=str(path))
    ours = hfcompat.load(path)
    byte_pieces = [f"<0x{byte:02X}>" for byte in range(256)]
    assert all(ours.token_to_id(piece) == sp.piece_to_id(piece) != sp.unk_id() for piece in byte_pieces)
    text = "This 你"
    pieces = sp.encode(text, out_type=str)
    assert pieces[-3:] == ["<0xE4>", "<0xBD>", "<0xA0>"]
    assert ours.encode(text).tokens == pieces
    assert ours.encode(text).ids == sp.encode(text)
    assert sp.unk_id() not in sp.encode(text)
    assert ours.decode(sp.encode(text)) == sp.decode(sp.encode(text)) == text
