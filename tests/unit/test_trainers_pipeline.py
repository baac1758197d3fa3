"""hfcompat.train, word counting, training input and Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import pytest

import hfcompat
import hfcompat.trainers
from hfcompat.errors import FormatError
from hfcompat.tools.train import pipeline
from hfcompat.trainers import BpeTrainer, count_words, count_words_and_ends, iter_texts

TEXTS = ["Hello, how are  you?", "The quick brown fox jumps over the lazy dog.", "héllo wörld 12345"] * 5


def test_iter_texts_reads_files_with_line_endings(tmp_path: Path) -> None:
    """A file yields its lines split on "\\n" only, each keeping its "\\n" (and any "\\r")."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"one\r\ntwo\rthree\nlast")
    assert list(iter_texts(path)) == ["one\r\n", "two\rthree\n", "last"]
    assert list(iter_texts([str(path), path])) == ["one\r\n", "two\rthree\n", "last"] * 2


def test_iter_texts_accepts_texts_and_batches() -> None:
    """Plain texts pass through; batches (lists of texts) are flattened."""
    assert list(iter_texts(iter(["a", ["b", "c"], "d"]))) == ["a", "b", "c", "d"]
    assert list(iter_texts(["not a file", "x"])) == ["not a file", "x"]


def test_iter_texts_rejects_bad_utf8(tmp_path: Path) -> None:
    """A file that is not UTF-8 raises FormatError naming the file and line."""
    path = tmp_path / "bad.txt"
    path.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(FormatError, match="line 2"):
        list(iter_texts(path))


def test_count_words_in_processes_equals_one_process() -> None:
    """Counting in two worker processes gives the same counts in the same order."""
    tokenizer = pipeline("bytelevel_bpe")
    texts = [f"{text} {i}" for i in range(3000) for text in TEXTS[:3]]
    one = count_words_and_ends(tokenizer, texts, show_progress=False)
    two = count_words_and_ends(tokenizer, texts, show_progress=False, workers=2)
    assert [list(counts.items()) for counts in one] == [list(counts.items()) for counts in two]
    assert count_words(tokenizer, texts, show_progress=False) == one[0]


def test_count_words_and_ends() -> None:
    """Each text's last word is counted as a sentence end; a text without words ends none."""
    counts, ends = count_words_and_ends(pipeline("unigram"), ["a b a", "b a", "  ", "c"], show_progress=False)
    assert counts == {"▁a": 3, "▁b": 2, "▁c": 1}
    assert ends == {"▁a": 2, "▁c": 1}


@pytest.mark.parametrize("model", ["bpe", "bytelevel_bpe", "wordpiece", "wordlevel"])
def test_train_each_model_name(model: str) -> None:
    """Each model name trains and round-trips through tokenizer.json."""
    tokenizer = hfcompat.train(TEXTS, model=model, vocab_size=300, show_progress=False)
    encoding = tokenizer.encode("Hello, how are you?")
    assert encoding.ids
    again = hfcompat.Tokenizer.from_str(tokenizer.to_str())
    assert again.encode("Hello, how are you?").ids == encoding.ids


def test_bytelevel_bpe_has_the_byte_alphabet() -> None:
    """The GPT-2 setup: every byte is a token, so nothing is ever unknown."""
    tokenizer = hfcompat.train(TEXTS, model="bytelevel_bpe", vocab_size=400, show_progress=False)
    assert tokenizer.get_vocab_size() >= 257
    assert tokenizer.decode(tokenizer.encode("日本語 🙂").ids) == "日本語 🙂"


def test_wordpiece_gets_bert_processing() -> None:
    """The BERT setup wraps a sequence in [CLS] ... [SEP]."""
    tokenizer = hfcompat.train(TEXTS, model="wordpiece", vocab_size=200, show_progress=False)
    tokens = tokenizer.encode("hello").tokens
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"


def test_train_rejects_unknown_model() -> None:
    """A misspelt model name says which names exist."""
    with pytest.raises(ValueError, match="bytelevel_bpe"):
        hfcompat.train(TEXTS, model="bytebpe")


def test_train_unigram_dispatch() -> None:
    """model="unigram": the sentencepiece-like pipeline around a trained Unigram model."""
    from hfcompat.models.unigram import Unigram

    tokenizer = hfcompat.train(TEXTS * 20, model="unigram", vocab_size=60, show_progress=False)
    assert isinstance(tokenizer.model, Unigram)
    assert tokenizer.token_to_id("<unk>") is not None
    assert tokenizer.encode("hello  world").tokens[0].startswith("▁")


def test_train_unigram_leaves_out_lines_sentencepiece_skips() -> None:
    """Lines over max_sentence_length UTF-8 bytes (4192 by default) are not trained on, as in
    sentencepiece's trainer; None keeps them."""
    texts = TEXTS * 20 + ["\u3091" * 1398, "\u3090" * 1397]  # 4194 bytes (left out), 4191 (kept)
    default = hfcompat.train(texts, model="unigram", vocab_size=60, show_progress=False)
    kept = hfcompat.train(texts, model="unigram", vocab_size=60, show_progress=False, max_sentence_length=None)
    assert default.token_to_id("\u3091") is None and default.token_to_id("\u3090") is not None
    assert kept.token_to_id("\u3091") is not None


@pytest.mark.parametrize("limit", [0, -5, "4192", 2.5, True])
def test_max_sentence_length_must_be_a_positive_byte_count(limit: object) -> None:
    """A limit that is no positive int is refused before anything is read."""
    with pytest.raises(ValueError, match="max_sentence_length must be a positive number"):
        hfcompat.train(["a b"], model="unigram", vocab_size=60, show_progress=False, max_sentence_length=limit)


def test_training_on_nothing_but_too_long_lines_is_an_error() -> None:
    """When max_sentence_length leaves every line out, train says so instead of an empty model."""
    with pytest.raises(ValueError, match="every one of the 2 lines is longer than max_sentence_length=10"):
        hfcompat.train(["a" * 11, "b c " * 5], model="unigram", vocab_size=60, show_progress=False,
                       max_sentence_length=10)


def test_a_missing_training_file_is_an_error_not_text(tmp_path: Path) -> None:
    """A mistyped file name in a list must not be trained on as if it were text."""
    present = tmp_path / "present.txt"
    present.write_text("some text\n", encoding="utf-8")
    for source in ([str(tmp_path / "absent.txt")], [str(present), str(tmp_path / "absent.txt")],
                   ["corpus.txt"], [tmp_path / "absent.txt"]):
        with pytest.raises(FormatError, match="absent.txt|corpus.txt"):
            hfcompat.train(source, model="wordlevel", vocab_size=10, show_progress=False)
    assert list(iter_texts(["hello world", "a/b is half"])) == ["hello world", "a/b is half"]


def test_ctrl_c_leaves_the_tokenizer_untouched() -> None:
    """KeyboardInterrupt during counting propagates; the model and added tokens stay as they were."""
    tokenizer = pipeline("bytelevel_bpe")
    model = tokenizer.model

    def texts():
        yield "some text"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tokenizer.train_from_iterator(texts(), BpeTrainer(100, special_tokens=["<s>"], show_progress=False))
    assert tokenizer.model is model
    assert tokenizer.token_to_id("<s>") is None


def test_unigram_pipeline_matches_tokenizers_normalization() -> None:
    """The unigram setup's normalizer and pre-tokenizer, read by tokenizers from the nearest
    tokenizer.json (its charsmap runs per grapheme there), split these texts alike."""
    tokenizers = pytest.importorskip("tokenizers")
    ours = pipeline("unigram")
    with pytest.warns(hfcompat.InexactConversion, match="per grapheme|tokenizers' normalizer"):
        oracle = tokenizers.Tokenizer.from_str(ours.to_str(exact=False))
    for text in ["  Hello\u3000 ｗｏｒｌｄ\t!  ", "ﬁ ①  x\u200by", "日本語のテキスト"]:
        expected = oracle.pre_tokenizer.pre_tokenize_str(oracle.normalizer.normalize_str(text))
        normalized = ours.normalizer.normalize_str(text)
        assert [piece for piece, _ in ours.pre_tokenizer.pre_tokenize_str(normalized)] == \
            [piece for piece, _ in expected]


def test_extend_keeps_ids_and_ranks() -> None:
    """Continuing BPE training on new text: old tokens keep ids, old merges keep ranks."""
    base = hfcompat.train(TEXTS, model="bytelevel_bpe", vocab_size=300, show_progress=False)
    old_vocab, old_merges = dict(base.model.vocab), list(base.model.merges)
    old_length = len(base.encode("Tokenizers learn merges").ids)
    end_id = base.token_to_id("<|endoftext|>")
    new_texts = ["Tokenizers learn merges from text.", "日本語の文章を学ぶ。"] * 10
    extended = hfcompat.trainers.extend(base, new_texts, vocab_size=340, show_progress=False)
    vocab = extended.model.vocab
    assert all(vocab[token] == token_id for token, token_id in old_vocab.items())
    assert extended.model.merges[: len(old_merges)] == old_merges
    assert len(vocab) == 340
    assert extended.token_to_id("<|endoftext|>") == end_id
    assert extended.decode(extended.encode("日本語 merges").ids) == "日本語 merges"
    assert len(extended.encode("Tokenizers learn merges").ids) < old_length


@pytest.mark.parametrize("tie_break", ["hf", "first"])
def test_extending_an_empty_model_is_training(tie_break: str) -> None:
    """extend() from a model without merges learns what learn() learns from scratch."""
    from hfcompat.models.bpe import BPE
    from hfcompat.trainers import count_words

    tokenizer = pipeline("bytelevel_bpe")
    counts = count_words(tokenizer, TEXTS, show_progress=False)
    trainer = BpeTrainer(120, tie_break=tie_break, show_progress=False)
    vocab, merges = trainer.learn(counts)
    extended = trainer.extend(BPE({}, []), counts)
    assert extended.vocab == vocab
    assert extended.merges == merges


def test_cli_train_writes_a_loadable_tokenizer(tmp_path: Path) -> None:
    """`hfcompat train FILE -o OUT` trains, saves atomically, and the result loads."""
    from hfcompat.cli import run

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(TEXTS), encoding="utf-8")
    output = tmp_path / "tokenizer.json"
    assert run(["train", str(corpus), "-o", str(output), "--model", "wordlevel", "--vocab-size", "50",
                "--quiet"]) == 0
    assert hfcompat.load(str(output)).encode("lazy dog").tokens == ["lazy", "dog"]
    assert run(["train", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "x.json"), "--quiet"]) == 3
    assert not (tmp_path / "x.json").exists()
