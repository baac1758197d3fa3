"""Training at scale (issue 19): word counts made in parts, saved, loaded and added train exactly
the tokenizer the whole text trains, for every model name; counts of another pipeline are
refused; every source format reads the same texts, and bad input names its file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import hfcompat
from hfcompat import FormatError, PipelineMismatch, WordCounts, count_words, train
from hfcompat.cli import run
from hfcompat.formats.sentencepiece.write import proto_from_tokenizer
from hfcompat.tools.train import MODELS

from conftest import corpus_sample

pytestmark = pytest.mark.conformance

VOCAB = {"wordlevel": 150}  # every other model: 1000


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """A small corpus of English and Japanese lines (with their "\\n", as files give them)."""
    return [line + "\n" for line in corpus_sample("botchan", 160) + corpus_sample("wagahaiwa", 30)]


def trained(source, model: str, **options) -> str | bytes:
    """A tokenizer trained on `source`, in the format that holds it exactly: the .model of the
    SentencePiece kinds (whose charsmap and float32 sums tokenizer.json cannot say), else tokenizer.json."""
    tokenizer = train(source, model=model, vocab_size=VOCAB.get(model, 1000), show_progress=False, **options)
    if model in ("unigram", "sentencepiece_bpe"):
        return bytes(proto_from_tokenizer(tokenizer).SerializeToString())
    return tokenizer.to_str()


@pytest.mark.parametrize("model", MODELS)
def test_halves_saved_loaded_and_added_train_as_the_whole(model: str, texts: list[str], tmp_path: Path) -> None:
    middle = len(texts) // 2
    first = count_words(texts[:middle], model=model, show_progress=False)
    second = count_words(texts[middle:], model=model, show_progress=False)
    first.save(tmp_path / "first.jsonl")
    second.save(tmp_path / "second.jsonl.gz")
    total = WordCounts.load(tmp_path / "first.jsonl") + WordCounts.load(tmp_path / "second.jsonl.gz")
    assert total == count_words(texts, model=model, show_progress=False)  # order included
    assert list(total.counts) == list(count_words(texts, model=model, show_progress=False).counts)
    assert trained(total, model) == trained(texts, model)


def test_counts_are_ints_and_add_with_sum(texts: list[str]) -> None:
    parts = [count_words(texts[i:i + 50], show_progress=False) for i in range(0, len(texts), 50)]
    total = sum(parts)
    assert total == count_words(texts, show_progress=False)
    assert all(type(count) is int for count in total.counts.values())
    assert total.texts == len(texts) and total.total() == sum(total.counts.values())


def test_workers_count_as_one_process(texts: list[str]) -> None:
    assert count_words(texts * 10, workers=2, show_progress=False) == count_words(texts * 10, show_progress=False)


# --------------------------------------------------------------------------- refused counts


@pytest.mark.parametrize("counted, used", [("bpe", "wordpiece"), ("unigram", "sentencepiece_bpe"),
                                           ("bytelevel_bpe", "bpe")])
def test_counts_of_another_pipeline_are_refused(counted: str, used: str, texts: list[str]) -> None:
    counts = count_words(texts[:20], model=counted, show_progress=False)
    with pytest.raises(PipelineMismatch, match=f'"model":"{counted}".*"model":"{used}"'):
        trained(counts, used)


def test_lowercase_and_max_sentence_length_are_part_of_the_pipeline(texts: list[str]) -> None:
    counts = count_words(texts[:20], model="wordpiece", lowercase=False, show_progress=False)
    with pytest.raises(PipelineMismatch, match="normalizer"):
        trained(counts, "wordpiece")
    assert trained(counts, "wordpiece", lowercase=False) == trained(texts[:20], "wordpiece", lowercase=False)
    counts = count_words(texts[:20], model="unigram", max_sentence_length=100, show_progress=False)
    with pytest.raises(PipelineMismatch, match="max_sentence_length"):
        trained(counts, "unigram")
    assert trained(counts, "unigram", max_sentence_length=100) == trained(texts[:20], "unigram", max_sentence_length=100)


def test_adding_counts_of_two_pipelines_is_refused(texts: list[str]) -> None:
    with pytest.raises(PipelineMismatch, match="different pipelines.*NFKC.*ByteLevel"):
        count_words(texts[:5], model="bpe", show_progress=False) + count_words(texts[:5], model="bytelevel_bpe",
                                                                             show_progress=False)


def test_a_tokenizers_own_pipeline_counts_its_words(texts: list[str]) -> None:
    tokenizer = hfcompat.train(texts, model="bytelevel_bpe", vocab_size=300, show_progress=False)
    counts = count_words(texts, tokenizer=tokenizer, show_progress=False)
    assert counts.counts == count_words(texts, model="bytelevel_bpe", show_progress=False).counts
    assert counts.pipeline["model"] is None and counts.pipeline["added_tokens"][0]["content"] == "<|endoftext|>"
    with pytest.raises(PipelineMismatch, match="added_tokens"):
        trained(counts, "bytelevel_bpe")


def test_unigram_lines_left_out_are_counted(texts: list[str]) -> None:
    counts = count_words(texts, model="unigram", max_sentence_length=60, show_progress=False)
    assert counts.left_out > 0 and counts.texts + counts.left_out == len(texts)
    with pytest.raises(ValueError, match="every one of the 3 lines"):
        trained(count_words(["x" * 80] * 3, model="unigram", max_sentence_length=60, show_progress=False),
                "unigram", max_sentence_length=60)


# --------------------------------------------------------------------------- bounded memory


def test_max_words_keeps_the_most_frequent(texts: list[str]) -> None:
    exact = count_words(texts, show_progress=False)
    pruned = count_words(texts, max_words=100, show_progress=False)
    assert len(pruned) == 100 and pruned.dropped > 0 and exact.dropped == 0
    assert pruned.total() + pruned.dropped == exact.total()
    assert list(pruned.counts) == [word for word in exact.counts if word in pruned.counts]  # first-seen order
    assert min(pruned.counts.values()) >= sorted(exact.counts.values(), reverse=True)[99] // 2
    assert train(pruned, vocab_size=200, show_progress=False).get_vocab_size() == 200


# --------------------------------------------------------------------------- counts files


def test_first_sentences_are_sentencepieces(tmp_path: Path) -> None:
    """input_sentence_size with shuffle_input_sentence=False counts the texts sentencepiece's
    trainer keeps: the first N that are not empty and not over max_sentence_length. Each line is
    one CJK char thrice, so the chars of a sentencepiece char model name the lines it read."""
    spm = pytest.importorskip("sentencepiece")
    lines = [chr(0x4E00 + i) * 3 for i in range(600)]
    lines[5] = lines[70] = ""
    lines[9] = chr(0x4E00 + 9) * 2000  # 6000 bytes: over the default 4192
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(input=str(path), model_prefix=str(tmp_path / "char"), model_type="char",
                                   vocab_size=400, hard_vocab_limit=False, character_coverage=1.0,
                                   input_sentence_size=200, shuffle_input_sentence=False, minloglevel=2)
    model = spm.SentencePieceProcessor(model_file=str(tmp_path / "char.model"))
    theirs = {model.id_to_piece(i) for i in range(model.get_piece_size())} - {"<unk>", "<s>", "</s>", "▁"}
    counts = count_words(str(path), model="unigram", input_sentence_size=200, shuffle_input_sentence=False,
                         show_progress=False)
    ours = {char for word in counts.counts for char in word} - {"▁"}
    assert ours == theirs and len(ours) == 200 and counts.texts == 200


def test_shuffled_sample_is_drawn_from_every_text(texts: list[str]) -> None:
    """input_sentence_size=N (shuffled, sentencepiece's default) counts N texts drawn from the
    whole input, the same N for the same sample_seed; training on it equals training on those
    texts; its counts are not the whole text's."""
    many = [f"{i} {text}" for i, text in enumerate(texts * 5)] + ["", "\n"]
    first = count_words(many, model="unigram", input_sentence_size=50, show_progress=False)
    again = count_words(many, model="unigram", input_sentence_size=50, show_progress=False)
    other = count_words(many, model="unigram", input_sentence_size=50, sample_seed=1, show_progress=False)
    chosen = [text for text in many if text.split(" ", 1)[0].isdigit()
              and "▁" + text.split(" ", 1)[0] in first.counts]
    assert first.texts == 50 and first.counts == again.counts and first.counts != other.counts
    assert len(chosen) == 50 and max(int(text.split(" ", 1)[0]) for text in chosen) >= 50
    sampled = list(hfcompat.trainers.Sample(50).selected(many))
    assert sorted(sampled) == sorted(chosen)
    assert trained(first, "unigram", input_sentence_size=50) == trained(sampled, "unigram")
    with pytest.raises(PipelineMismatch, match="input_sentence_size"):
        train(first, model="unigram", vocab_size=1000, show_progress=False)


@pytest.mark.parametrize("size", [-1, 2.5, True, "10"])
def test_bad_input_sentence_size_is_refused(size) -> None:
    """A sample size that is not a positive int (0: every text) is a ValueError."""
    with pytest.raises(ValueError, match="input_sentence_size"):
        count_words(["a b"], model="unigram", input_sentence_size=size, show_progress=False)


def test_counts_file_format(tmp_path: Path) -> None:
    counts = count_words(["a b a\n", "c \U0001f600\n"], model="wordlevel", show_progress=False)
    counts.save(tmp_path / "counts.jsonl")
    lines = (tmp_path / "counts.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "hfcompat-word-counts" and header["words"] == 4 and header["texts"] == 2
    assert header["pipeline"]["pre_tokenizer"] == {"type": "Whitespace"}
    assert [json.loads(line) for line in lines[1:]] == [["a", 2, 1], ["b", 1], ["c", 1], ["\U0001f600", 1, 1]]
    assert WordCounts.load(tmp_path / "counts.jsonl") == counts


def test_unigram_pipeline_is_described_by_its_charsmap_digest(tmp_path: Path) -> None:
    counts = count_words(["a b\n"], model="unigram", show_progress=False)
    charsmap = counts.pipeline["normalizer"]["normalizers"][0]["precompiled_charsmap"]
    assert charsmap.startswith("sha256:") and len(charsmap) == 71


@pytest.mark.parametrize("content, message", [
    ("", "empty"),
    ('{"format": "other"}\n', "not a hfcompat-word-counts header"),
    ('{"format": "hfcompat-word-counts", "version": 2}\n', "version 2"),
    ('{"format": "hfcompat-word-counts", "version": 1, "pipeline": {}, "texts": 1, "left_out": 0, '
     '"dropped": 0, "words": 2}\n["a", 1]\n', "announces 2 words but the file holds 1"),
    ('{"format": "hfcompat-word-counts", "version": 1, "pipeline": {}, "texts": 1, "left_out": 0, '
     '"dropped": 0, "words": 1}\n["a", 1.5]\n', "line 2: the counts of 'a'"),
    ('{"format": "hfcompat-word-counts", "version": 1, "pipeline": {}, "texts": 1, "left_out": 0, '
     '"dropped": 0, "words": 2}\n["a", 1]\n["a", 1]\n', "line 3: the word 'a' occurs twice"),
])
def test_bad_counts_files_are_format_errors(content: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "counts.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as caught:
        WordCounts.load(path)
    assert str(path) in str(caught.value)


def test_missing_counts_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="missing.jsonl: cannot read"):
        WordCounts.load(tmp_path / "missing.jsonl")


# --------------------------------------------------------------------------- sources


def test_every_text_source_counts_the_same(texts: list[str], tmp_path: Path) -> None:
    plain = tmp_path / "part1.txt"
    plain.write_text("".join(texts[:100]), encoding="utf-8")
    with gzip.open(tmp_path / "part2.txt.gz", "wt", encoding="utf-8") as handle:
        handle.write("".join(texts[100:]))
    expected = count_words(texts, show_progress=False)
    assert count_words(str(tmp_path / "part*"), show_progress=False) == expected
    assert count_words([plain, tmp_path / "part2.txt.gz"], show_progress=False) == expected


def test_zstd_text(texts: list[str], tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard", reason="zstd text needs the zstandard package (hfcompat[zstd])")
    (tmp_path / "corpus.txt.zst").write_bytes(zstandard.ZstdCompressor().compress("".join(texts).encode("utf-8")))
    assert count_words(tmp_path / "corpus.txt.zst", show_progress=False) == count_words(texts, show_progress=False)


def test_json_lines_with_a_text_column(texts: list[str], tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [{"id": i, "body": text} for i, text in enumerate(texts)] + [{"id": -1, "body": None}]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert count_words(path, text_column="body", show_progress=False) == count_words(texts, show_progress=False)
    with pytest.raises(FormatError, match=r"rows.jsonl: field 'text': line 1 has no 'text' key"):
        count_words(path, text_column="text", show_progress=False)


def test_parquet_with_a_text_column(texts: list[str], tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (hfcompat[parquet])")
    parquet = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "rows.parquet"
    parquet.write_table(pyarrow.table({"body": texts, "n": list(range(len(texts)))}), path, row_group_size=50)
    assert count_words(path, text_column="body", show_progress=False) == count_words(texts, show_progress=False)
    with pytest.raises(FormatError, match=r"rows.parquet: field 'text': no column 'text'.*\['body', 'n'\]"):
        count_words(path, show_progress=False)
    with pytest.raises(FormatError, match="rows.parquet: field 'n': expected a column of strings, found int64"):
        count_words(path, text_column="n", show_progress=False)


def test_datasets_are_streamed(texts: list[str]) -> None:
    datasets = pytest.importorskip("datasets", reason="needs the datasets package (hfcompat[datasets])")
    dataset = datasets.Dataset.from_dict({"text": texts, "n": list(range(len(texts)))})
    expected = count_words(texts, show_progress=False)
    assert count_words(dataset, show_progress=False) == expected
    assert count_words(dataset.to_iterable_dataset(num_shards=2), show_progress=False) == expected
    with pytest.raises(FormatError, match="no column 'body'"):
        count_words(dataset, text_column="body", show_progress=False)


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="nothing.txt: cannot read"):
        count_words(tmp_path / "nothing.txt", show_progress=False)
    with pytest.raises(FormatError, match=r"none\*.txt: no file matches"):
        count_words(str(tmp_path / "none*.txt"), show_progress=False)


@pytest.mark.parametrize("name", ["bad.txt", "bad.txt.gz"])
def test_a_line_that_is_not_utf8_names_file_and_line(name: str, tmp_path: Path) -> None:
    data = b"good line\nsecond\nbad \xff byte\n"
    (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    with pytest.raises(FormatError, match=f"{name}: field 'text': line 3 is not UTF-8"):
        count_words(tmp_path / name, show_progress=False)


@pytest.mark.parametrize("model", MODELS)
def test_a_lone_surrogate_is_a_format_error_naming_the_text(model: str) -> None:
    """A str can hold one, but no trainer can take it as text (tokenizers and sentencepiece
    cannot encode it to UTF-8): every model kind refuses it the same way, before training."""
    texts = ["good text", ["a batch", "bad \ud800 text"]]
    with pytest.raises(FormatError, match="text 3 of the source holds a lone surrogate U\\+D800 at char 4"):
        train(texts, model=model, vocab_size=100, show_progress=False)


def test_a_lone_surrogate_escape_in_json_lines_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('{"text": "fine"}\n{"text": "x\\udc00y"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match="rows.jsonl: field 'text': line 2 holds a lone surrogate U\\+DC00 at char 1"):
        count_words(path, text_column="text", show_progress=False)


def test_a_damaged_gzip_file_is_a_format_error(tmp_path: Path) -> None:
    (tmp_path / "cut.txt.gz").write_bytes(gzip.compress(b"some text\n" * 1000)[:60])
    with pytest.raises(FormatError, match="cut.txt.gz: cannot read"):
        count_words(tmp_path / "cut.txt.gz", show_progress=False)


# --------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def dask_client():
    """A two-process LocalCluster (skips without dask.distributed)."""
    distributed = pytest.importorskip("distributed", reason="counting on a cluster needs hfcompat[dask]")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


@pytest.mark.slow
@pytest.mark.parametrize("model", ["bpe", "wordpiece", "unigram"])
def test_dask_trains_as_one_process(model: str, texts: list[str], tmp_path: Path, dask_client) -> None:
    for i in range(3):
        (tmp_path / f"shard{i}.txt").write_text("".join(texts[i::3]), encoding="utf-8")
    files = sorted(tmp_path.glob("shard*.txt"))
    by_files = count_words(str(tmp_path / "shard*.txt"), model=model, client=dask_client, show_progress=False)
    assert by_files == count_words(files, model=model, show_progress=False)
    by_lines = count_words(iter(texts), model=model, client=dask_client, show_progress=False)
    assert by_lines == count_words(texts, model=model, show_progress=False)
    assert trained(files, model, client=dask_client) == trained(files, model)


@pytest.mark.slow
def test_dask_counts_a_sample_as_one_process(texts: list[str], tmp_path: Path, dask_client) -> None:
    """With input_sentence_size, files are read here (the sample needs every line), and the
    sample's chunks are counted on the cluster: the counts equal one process's."""
    for i in range(3):
        (tmp_path / f"shard{i}.txt").write_text("".join(texts[i::3]), encoding="utf-8")
    pattern = str(tmp_path / "shard*.txt")
    for shuffle in (True, False):
        options = dict(model="unigram", input_sentence_size=40, shuffle_input_sentence=shuffle, show_progress=False)
        assert count_words(pattern, client=dask_client, **options) == count_words(pattern, **options)


@pytest.mark.slow
def test_dask_task_errors_name_the_file(tmp_path: Path, dask_client) -> None:
    (tmp_path / "bad.txt").write_bytes(b"fine\n\xfe\n")
    with pytest.raises(FormatError, match="bad.txt: field 'text': line 2 is not UTF-8"):
        count_words([tmp_path / "bad.txt"], client=dask_client, show_progress=False)


def test_a_list_holds_file_patterns_or_texts(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two\n", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text('{"text": "three"}\n', encoding="utf-8")

    def words(source: list[str], **options) -> list[str]:
        return list(count_words(source, model="wordlevel", show_progress=False, **options).counts)

    assert words([str(tmp_path / "*.txt")]) == ["one", "two"]
    assert words([str(tmp_path / "*.jsonl"), str(tmp_path / "a.txt")], text_column="text") == ["three", "one", "two"]
    assert words(["*", "x"]) == ["*", "x"]  # texts, not a pattern


def test_count_and_train_commands(texts: list[str], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for half, part in enumerate((texts[:100], texts[100:])):
        (tmp_path / f"part{half}.txt").write_text("".join(part), encoding="utf-8")
    for half, name in enumerate(("counts0.jsonl", "counts1.jsonl.gz")):
        assert run(["count", str(tmp_path / f"part{half}.txt"), "-o", str(tmp_path / name), "--quiet"]) == 0
    assert "counts0.jsonl: " in capsys.readouterr().out
    from_counts, from_text = tmp_path / "from-counts.json", tmp_path / "from-text.json"
    assert run(["train", "--counts", str(tmp_path / "counts0.jsonl"), str(tmp_path / "counts1.jsonl.gz"),
                "-o", str(from_counts), "--vocab-size", "1000", "--quiet"]) == 0
    assert run(["train", str(tmp_path / "part*.txt"), "-o", str(from_text), "--vocab-size", "1000", "--quiet"]) == 0
    assert from_counts.read_bytes() == from_text.read_bytes()
    assert run(["train", "--counts", str(tmp_path / "counts0.jsonl"), "--model", "wordlevel", "-o",
                str(tmp_path / "x.json"), "--quiet"]) == 3
    assert "cannot be used by train(model='wordlevel'" in capsys.readouterr().err
