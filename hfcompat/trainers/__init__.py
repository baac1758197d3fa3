"""Training: count the words a tokenizer's pipeline makes, then learn a model from the counts.

`train(files_or_iterator, model="bpe", vocab_size=...)` builds the pipeline a model name stands
for (see `pipeline`), counts words once (normalizer + pre-tokenizer, like `tokenizers`), and
hands the counts to the trainer of that model. `Tokenizer.train` / `train_from_iterator` run the
same counting with the tokenizer's own pipeline and any trainer, as `tokenizers` does.

Counting streams its input; with `workers` > 1 it runs in processes over chunks of lines and
merges the chunks in input order, so the counts (and their order) equal one process's.
Ctrl-C stops training with KeyboardInterrupt and leaves the tokenizer as it was.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from ..added_vocabulary import AddedToken
from ..errors import FormatError
from .bpe import BpeTrainer
from .progress import progress_bar
from .unigram import UnigramTrainer
from .wordlevel import WordLevelTrainer
from .wordpiece import WordPieceTrainer

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer

MODELS = ("bpe", "bytelevel_bpe", "wordpiece", "wordlevel", "unigram", "sentencepiece_bpe")
# The special tokens each model name adds when the caller names none.
DEFAULT_SPECIAL_TOKENS = {
    "bpe": ["<unk>"],
    "bytelevel_bpe": ["<|endoftext|>"],
    "wordpiece": ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
    "wordlevel": ["<unk>"],
    "unigram": ["<unk>"],
    "sentencepiece_bpe": ["<unk>"],
}
CHUNK_LINES = 2000
TEXT_FILE_SUFFIXES = {".txt", ".text", ".utf8", ".md", ".json", ".jsonl", ".csv", ".tsv", ".raw"}
SENTENCEPIECE_CHARACTER_COVERAGE = 0.9995  # sentencepiece's default, for model="unigram"
SENTENCEPIECE_MAX_SENTENCE_LENGTH = 4192  # bytes: sentencepiece's trainer skips longer lines (default)

__all__ = ["BpeTrainer", "UnigramTrainer", "WordLevelTrainer", "WordPieceTrainer", "count_words",
           "count_words_and_ends", "extend", "iter_texts", "pipeline", "train", "train_tokenizer"]


# --------------------------------------------------------------------------- input


def iter_texts(source: Any) -> Iterator[str]:
    """The texts of a training source: a file path, a list of paths, or an iterable of texts.

    A file yields its lines with their "\\n" (as `tokenizers` reads files); an iterable may also
    yield lists of texts (batches), like a `datasets.Dataset` column read in batches.
    """
    if isinstance(source, (str, os.PathLike)):
        yield from _file_lines(Path(source))
        return
    if isinstance(source, (list, tuple)) and source and _all_files(source):
        for path in source:
            yield from _file_lines(Path(path))
        return
    if isinstance(source, (list, tuple)):
        _refuse_missing_files(source)
    for item in source:
        if isinstance(item, str):
            yield item
        else:
            yield from item


def _all_files(items: Sequence[Any]) -> bool:
    """True when every item is a path object, or a string naming an existing file."""
    return all(isinstance(item, os.PathLike) or (isinstance(item, str) and os.path.isfile(item))
               for item in items)


def _refuse_missing_files(items: Sequence[Any]) -> None:
    """A list meant as file names but naming a missing file is an error, not training text."""
    missing = [item for item in items if isinstance(item, os.PathLike)
               or (isinstance(item, str) and _looks_like_path(item) and not os.path.isfile(item))]
    if missing and (len(missing) == len(items) or any(
            isinstance(item, str) and os.path.isfile(item) for item in items)):
        raise FormatError("no such file (a list of strings is read as file names when they name "
                          "files; pass an iterator for texts)", path=str(missing[0]))


def _looks_like_path(text: str) -> bool:
    """A string with no whitespace that has a directory part or a text-file suffix."""
    return bool(text) and not any(char.isspace() for char in text) and (
        os.sep in text or Path(text).suffix.lower() in TEXT_FILE_SUFFIXES)


def _file_lines(path: Path) -> Iterator[str]:
    """The lines of a UTF-8 file, each with its "\\n" (split on "\\n" only)."""
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    with handle:
        for number, line in enumerate(handle, 1):
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise FormatError(f"line {number} is not UTF-8 ({exc.reason})", path=str(path),
                                  field="text") from None


def source_size(source: Any) -> int | None:
    """How many texts a source holds, when it says so without being read (for progress)."""
    if isinstance(source, (str, os.PathLike)) or (isinstance(source, (list, tuple)) and _all_files(source)):
        return None
    try:
        return len(source)
    except TypeError:
        return None


# --------------------------------------------------------------------------- counting


def words_of(tokenizer: "Tokenizer", text: str) -> list[str]:
    """The words `tokenizer` makes of `text`: added tokens split out, normalized, pre-tokenized."""
    words = _plain_words(tokenizer, text)
    if words is not None:
        return words
    normalizer = tokenizer.normalizer
    normalize = normalizer.normalize if normalizer is not None else None
    pretokenized = tokenizer.added_vocabulary.extract_and_normalize(normalize, text)
    if tokenizer.pre_tokenizer is not None:
        tokenizer.pre_tokenizer.pre_tokenize(pretokenized)
    return [split.normalized.normalized for split in pretokenized.splits]


def _plain_words(tokenizer: "Tokenizer", text: str) -> list[str] | None:
    """words_of from plain strings, with no alignments (the usual case when counting): when no
    added token occurs and the pre-tokenizer can split a plain string; None otherwise."""
    added = tokenizer.added_vocabulary
    if added.may_match(text, normalized=False):
        return None
    normalized = tokenizer.normalizer.normalize_str(text) if tokenizer.normalizer is not None else text
    if not normalized:
        return []
    if added.may_match(normalized, normalized=True):
        return None
    pre_tokenizer = tokenizer.pre_tokenizer
    words = pre_tokenizer.words(normalized) if pre_tokenizer is not None else [normalized]
    return None if words is None else [word for word in words if word]


def count_chunk(tokenizer: "Tokenizer", texts: Iterable[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Word counts of some texts, in order of first appearance, and how often each word was a text's last."""
    counts: dict[str, int] = {}
    ends: dict[str, int] = {}
    get = counts.get
    for text in texts:
        words = words_of(tokenizer, text)
        for word in words:
            counts[word] = get(word, 0) + 1
        if words:
            ends[words[-1]] = ends.get(words[-1], 0) + 1
    return counts, ends


def count_words(tokenizer: "Tokenizer", texts: Iterable[str], *, show_progress: bool = True,
                total: int | None = None, workers: int = 1) -> dict[str, int]:
    """Count the words of every text once, in order of first appearance (streamed)."""
    return count_words_and_ends(tokenizer, texts, show_progress=show_progress, total=total, workers=workers)[0]


def count_words_and_ends(tokenizer: "Tokenizer", texts: Iterable[str], *, show_progress: bool = True,
                         total: int | None = None, workers: int = 1) -> tuple[dict[str, int], dict[str, int]]:
    """count_words, and how often each word was the last of its text (the Unigram trainer's seed
    tells the end of a sentence from the next word, as sentencepiece's does)."""
    counts: dict[str, int] = {}
    ends: dict[str, int] = {}
    with progress_bar(show_progress, total, "Count words", unit="lines") as bar:
        for (chunk_counts, chunk_ends), lines in _chunk_counts(tokenizer, iter(texts), workers):
            for word, count in chunk_counts.items():
                counts[word] = counts.get(word, 0) + count
            for word, count in chunk_ends.items():
                ends[word] = ends.get(word, 0) + count
            bar.update(lines)
    return counts, ends


def _chunk_counts(tokenizer: "Tokenizer", texts: Iterator[str],
                  workers: int) -> Iterator[tuple[tuple[dict[str, int], dict[str, int]], int]]:
    """count_chunk of successive chunks of lines and their sizes, in input order (in worker
    processes if asked)."""
    chunks = iter(lambda: list(islice(texts, CHUNK_LINES)), [])
    if workers <= 1:
        for chunk in chunks:
            yield count_chunk(tokenizer, chunk), len(chunk)
        return
    with ProcessPoolExecutor(workers, initializer=_set_worker_tokenizer, initargs=(tokenizer,)) as pool:
        pending: deque[tuple[Future, int]] = deque()
        try:
            for chunk in chunks:
                pending.append((pool.submit(_count_in_worker, chunk), len(chunk)))
                if len(pending) >= 2 * workers:
                    future, size = pending.popleft()
                    yield future.result(), size
            while pending:
                future, size = pending.popleft()
                yield future.result(), size
        except BaseException:
            for future, _ in pending:
                future.cancel()
            raise


_WORKER_TOKENIZER: Any = None


def _set_worker_tokenizer(tokenizer: "Tokenizer") -> None:
    """Keep the tokenizer in a worker process (sent once, not per chunk).

    Workers ignore Ctrl-C: the parent stops them, so one interrupt gives one clean stop.
    """
    global _WORKER_TOKENIZER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_TOKENIZER = tokenizer


def _count_in_worker(chunk: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """count_chunk in a worker process."""
    return count_chunk(_WORKER_TOKENIZER, chunk)


# --------------------------------------------------------------------------- training


def default_trainer(model: Any) -> Any:
    """The trainer `tokenizers` would pick for a model, with its default options."""
    from ..models.bpe import BPE
    from ..models.wordlevel import WordLevel
    from ..models.wordpiece import WordPiece
    if isinstance(model, BPE):
        return BpeTrainer()
    if isinstance(model, WordPiece):
        return WordPieceTrainer(scoring="hf")
    if isinstance(model, WordLevel):
        return WordLevelTrainer()
    return UnigramTrainer()


def train_tokenizer(tokenizer: "Tokenizer", texts: Iterable[str], trainer: Any = None, *,
                    total: int | None = None, workers: int = 1) -> "Tokenizer":
    """Count words with the tokenizer's pipeline, train its model, add the special tokens."""
    trainer = trainer if trainer is not None else default_trainer(tokenizer.model)
    show = getattr(trainer, "show_progress", True)
    counts, ends = count_words_and_ends(tokenizer, texts, show_progress=show, total=total, workers=workers)
    model = _train_model(trainer, counts, ends, tokenizer.model)
    tokenizer.model = model
    tokenizer.add_special_tokens(list(getattr(trainer, "special_tokens", ())))
    return tokenizer


def _train_model(trainer: Any, counts: dict[str, int], ends: dict[str, int], current: Any) -> Any:
    """Run a trainer: ours take the current model to carry its options over, Unigram's the
    words' sentence ends (`ends`)."""
    if isinstance(trainer, (BpeTrainer, WordPieceTrainer, WordLevelTrainer)):
        kind = {BpeTrainer: "BPE", WordPieceTrainer: "WordPiece", WordLevelTrainer: "WordLevel"}
        same_kind = type(current).__name__ == kind[type(trainer)]
        return trainer.train(counts, model=current if same_kind else None)
    return trainer.train(counts, ends)


def pipeline(model: str, *, lowercase: bool = True) -> "Tokenizer":
    """An untrained tokenizer with the pipeline a model name stands for (see README "Training")."""
    from .. import decoders, normalizers, pre_tokenizers, processors
    from ..models.bpe import BPE
    from ..models.unigram import Unigram
    from ..models.wordlevel import WordLevel
    from ..models.wordpiece import WordPiece
    from ..tokenizer import Tokenizer
    if model == "bpe":
        return Tokenizer(BPE({}, [], unk_token="<unk>"), normalizer=normalizers.NFKC(),
                         pre_tokenizer=pre_tokenizers.Metaspace(), decoder=decoders.Metaspace())
    if model == "bytelevel_bpe":
        return Tokenizer(BPE({}, []), pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=False),
                         post_processor=processors.ByteLevel(trim_offsets=False),
                         decoder=decoders.ByteLevel())
    if model == "wordpiece":
        return Tokenizer(WordPiece({}, unk_token="[UNK]"),
                         normalizer=normalizers.BertNormalizer(lowercase=lowercase),
                         pre_tokenizer=pre_tokenizers.BertPreTokenizer(), decoder=decoders.WordPiece())
    if model == "wordlevel":
        return Tokenizer(WordLevel({}, unk_token="<unk>"), pre_tokenizer=pre_tokenizers.Whitespace())
    if model in ("unigram", "sentencepiece_bpe"):
        return sentencepiece_pipeline("nmt_nfkc")
    raise ValueError(f"unknown model {model!r}: expected one of {', '.join(MODELS)}")


def sentencepiece_pipeline(rule_name: str) -> "Tokenizer":
    """sentencepiece's default setup around an untrained Unigram: the pipeline a .model with
    this normalization rule reads as (charsmap, extra spaces removed, "▁" for spaces, dummy
    prefix), with words cut before each "▁" for counting (sentencepiece trains on such words)."""
    from .. import pre_tokenizers
    from ..formats import sentencepiece_model as spm
    from ..formats.sentencepiece import SPACE, tokenizer_from_proto
    from ..normalization_rules import precompiled_charsmap
    proto = spm.ModelProto()
    proto.pieces.add(piece="<unk>", score=0.0, type=spm.UNKNOWN)
    proto.trainer_spec.model_type = spm.UNIGRAM
    spec = proto.normalizer_spec
    spec.name = rule_name
    spec.precompiled_charsmap = precompiled_charsmap(rule_name)
    spec.add_dummy_prefix = spec.remove_extra_whitespaces = spec.escape_whitespaces = True
    tokenizer = tokenizer_from_proto(proto)
    tokenizer.sentencepiece_source = None
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="never", split=True)
    return tokenizer


def model_trainer(model: str, vocab_size: int, special_tokens: Sequence[str | AddedToken],
                  options: dict[str, Any]) -> Any:
    """The trainer of a model name, with the options the caller passed."""
    if model in ("bpe", "bytelevel_bpe", "sentencepiece_bpe"):
        if model == "bytelevel_bpe" and "initial_alphabet" not in options:
            from ..pre_tokenizers import ByteLevel
            options = {**options, "initial_alphabet": ByteLevel.alphabet()}
        return BpeTrainer(vocab_size, special_tokens=special_tokens, **options)
    if model == "wordpiece":
        return WordPieceTrainer(vocab_size, special_tokens=special_tokens, **options)
    if model == "wordlevel":
        return WordLevelTrainer(vocab_size, special_tokens=special_tokens, **options)
    options = {"unk_token": "<unk>", "character_coverage": SENTENCEPIECE_CHARACTER_COVERAGE, **options}
    return UnigramTrainer(vocab_size, special_tokens=special_tokens, **options)


def train(files_or_iterator: Any, model: str = "bpe", vocab_size: int = 8000, *,
          special_tokens: Sequence[str | AddedToken] | None = None, lowercase: bool = True,
          workers: int = 1, **options: Any) -> "Tokenizer":
    """Train a tokenizer of the named kind on files or texts; options go to its trainer.

    model="unigram" also takes max_sentence_length (UTF-8 bytes, sentencepiece's default 4192):
    longer lines are left out as sentencepiece's trainer leaves them out (None keeps them).
    """
    tokenizer = pipeline(model, lowercase=lowercase)
    if special_tokens is None:
        special_tokens = DEFAULT_SPECIAL_TOKENS[model]
    texts = iter_texts(files_or_iterator)
    if model == "unigram":
        options.setdefault("workers", workers)  # its EM rounds run in as many processes as the counting
        limit = options.pop("max_sentence_length", SENTENCEPIECE_MAX_SENTENCE_LENGTH)
        if limit is not None:
            texts = ShortTexts(texts, limit)
    trainer = model_trainer(model, vocab_size, list(special_tokens), dict(options))
    train_tokenizer(tokenizer, texts, trainer, total=source_size(files_or_iterator), workers=workers)
    if isinstance(texts, ShortTexts) and texts.left_out and not texts.kept:
        raise ValueError(f"every one of the {texts.left_out} lines is longer than max_sentence_length="
                         f"{texts.limit} UTF-8 bytes, so nothing was trained on: pass a larger "
                         "max_sentence_length, or None to keep every line")
    if model == "wordpiece":
        _add_bert_processing(tokenizer)
    if model == "sentencepiece_bpe":
        tokenizer.model = _merged_as_sentencepiece(tokenizer.model)
    if model in ("unigram", "sentencepiece_bpe"):
        tokenizer = _as_sentencepiece(tokenizer)
    return tokenizer


class ShortTexts:
    """The texts of at most `limit` UTF-8 bytes (a line's "\\n" not counted), as sentencepiece's
    trainer skips longer lines (its max_sentence_length, 4192 by default); counts both kinds."""

    def __init__(self, texts: Iterable[str], limit: int):
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"max_sentence_length must be a positive number of UTF-8 bytes or None, not {limit!r}")
        self.texts = texts
        self.limit = limit
        self.kept = self.left_out = 0

    def __iter__(self) -> Iterator[str]:
        """The short texts, in order."""
        limit = self.limit
        for text in self.texts:
            line = text[:-1] if text.endswith("\n") else text
            if len(line) <= limit // 4 or (len(line) <= limit and len(line.encode("utf-8", "surrogatepass")) <= limit):
                self.kept += 1
                yield text
            else:
                self.left_out += 1


def _merged_as_sentencepiece(model: Any) -> Any:
    """The trained BPE as sentencepiece runs its pieces: each merged piece scored by its merge's
    rank, and two pieces merging wherever together they spell a piece (not only as trained)."""
    from ..formats.sentencepiece import every_split_merges
    from ..models.bpe import BPE
    scores = {token: 0.0 for token in model.vocab if len(token) == 1}
    for rank, (left, right) in enumerate(model.merges):
        scores.setdefault(left + right, -float(rank))
    unk_token = DEFAULT_SPECIAL_TOKENS["sentencepiece_bpe"][0]
    vocab = dict(model.vocab)
    vocab.setdefault(unk_token, len(vocab))
    return BPE(vocab, every_split_merges(scores), unk_token=unk_token, fuse_unk=True)


def _as_sentencepiece(tokenizer: "Tokenizer") -> "Tokenizer":
    """The tokenizer its .model reads as, so that it encodes and decodes as sentencepiece runs
    that file (the whole text at once, special pieces not matched in text)."""
    from ..formats.sentencepiece import proto_from_tokenizer, tokenizer_from_proto
    return tokenizer_from_proto(proto_from_tokenizer(tokenizer))


def extend(tokenizer: "Tokenizer", files_or_iterator: Any, vocab_size: int, *, workers: int = 1,
           **options: Any) -> "Tokenizer":
    """Continue training a BPE tokenizer on more text (`BpeTrainer.extend`), in place.

    Words are counted with the tokenizer's own pipeline; `vocab_size` is the new total. Every
    existing token keeps its id and every existing merge its rank.
    """
    from ..models.bpe import BPE
    if not isinstance(tokenizer.model, BPE):
        raise TypeError(f"only BPE tokenizers can be extended, not {type(tokenizer.model).__name__}")
    model = tokenizer.model
    options.setdefault("continuing_subword_prefix", model.continuing_subword_prefix)
    options.setdefault("end_of_word_suffix", model.end_of_word_suffix)
    trainer = BpeTrainer(vocab_size, **options)
    counts = count_words(tokenizer, iter_texts(files_or_iterator), show_progress=trainer.show_progress,
                         total=source_size(files_or_iterator), workers=workers)
    tokenizer.model = trainer.extend(model, counts)
    tokenizer.add_special_tokens(list(trainer.special_tokens))
    return tokenizer


def _add_bert_processing(tokenizer: "Tokenizer") -> None:
    """BERT's [CLS] A [SEP] post-processor, when both tokens are in the vocabulary."""
    from ..processors import BertProcessing
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    if cls_id is not None and sep_id is not None:
        tokenizer.post_processor = BertProcessing(sep=("[SEP]", sep_id), cls=("[CLS]", cls_id))
