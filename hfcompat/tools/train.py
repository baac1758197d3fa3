"""`hfcompat.train`: a tokenizer of a named kind trained on files or texts.

`train(files_or_iterator, model="bpe", vocab_size=...)` builds the pipeline the model name
stands for (see `pipeline`), counts its words once (`count_words`: a WordCounts, which can also be
made beforehand, in parts, on a Dask cluster, and saved) and hands the counts to the model's
trainer (hfcompat.trainers). Training from a WordCounts gives exactly the tokenizer training on
the text it counted gives, for every model name: each trainer consumes only the word counts in
first-seen order and, for Unigram, how often each word ended a text. The SentencePiece kinds ("unigram", "sentencepiece_bpe") end as the
tokenizer their .model reads as, so they sit above the formats.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import decoders, normalizers, pre_tokenizers, processors
from ..formats.sentencepiece import proto_from_tokenizer
from ..formats.sentencepiece import schema as spm
from ..formats.sentencepiece import tokenizer_from_proto
from ..formats.sentencepiece.read import SPACE, every_split_merges
from ..models import BPE, WordLevel, WordPiece
from ..normalizers.normalization_rules import precompiled_charsmap
from ..pipeline.added_vocabulary import AddedToken
from ..tokenizer import Tokenizer
from ..trainers import (BpeTrainer, Sample, UnigramTrainer, WordCounts, WordLevelTrainer, WordPieceTrainer,
                        count_corpus, describe_pipeline, source_size, train_from_counts)

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
SENTENCEPIECE_CHARACTER_COVERAGE = 0.9995  # sentencepiece's default, for model="unigram"
SENTENCEPIECE_MAX_SENTENCE_LENGTH = 4192  # bytes: sentencepiece's trainer skips longer lines (default)


def pipeline(model: str, *, lowercase: bool = True) -> Tokenizer:
    """An untrained tokenizer with the pipeline a model name stands for (see README "Training")."""
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


def sentencepiece_pipeline(rule_name: str) -> Tokenizer:
    """sentencepiece's default setup around an untrained Unigram: the pipeline a .model with
    this normalization rule reads as (charsmap, extra spaces removed, "▁" for spaces, dummy
    prefix), with words cut before each "▁" for counting (sentencepiece trains on such words)."""
    proto = spm.ModelProto()
    proto.pieces.add(piece="<unk>", score=0.0, type=spm.UNKNOWN)
    proto.trainer_spec.model_type = spm.UNIGRAM
    spec = proto.normalizer_spec
    spec.name = rule_name
    spec.precompiled_charsmap = precompiled_charsmap(rule_name)
    spec.add_dummy_prefix = spec.remove_extra_whitespaces = spec.escape_whitespaces = True
    tokenizer = tokenizer_from_proto(proto)
    tokenizer.source = None
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="never", split=True)
    return tokenizer


def model_trainer(model: str, vocab_size: int, special_tokens: Sequence[str | AddedToken],
                  options: dict[str, Any]) -> Any:
    """The trainer of a model name, with the options the caller passed."""
    if model in ("bpe", "bytelevel_bpe", "sentencepiece_bpe"):
        if model == "bytelevel_bpe" and "initial_alphabet" not in options:
            options = {**options, "initial_alphabet": pre_tokenizers.ByteLevel.alphabet()}
        return BpeTrainer(vocab_size, special_tokens=special_tokens, **options)
    if model == "wordpiece":
        return WordPieceTrainer(vocab_size, special_tokens=special_tokens, **options)
    if model == "wordlevel":
        return WordLevelTrainer(vocab_size, special_tokens=special_tokens, **options)
    options = {"unk_token": "<unk>", "character_coverage": SENTENCEPIECE_CHARACTER_COVERAGE, **options}
    return UnigramTrainer(vocab_size, special_tokens=special_tokens, **options)


def train(files_or_iterator: Any, model: str = "bpe", vocab_size: int = 8000, *,
          special_tokens: Sequence[str | AddedToken] | None = None, lowercase: bool = True,
          workers: int = 1, client: Any = None, text_column: str | None = None,
          max_words: int | None = None, **options: Any) -> Tokenizer:
    """Train a tokenizer of the named kind on files, texts, a dataset or a WordCounts (see
    count_words for the sources and for workers, client, text_column and max_words); the other
    options go to its trainer.

    model="unigram" also takes max_sentence_length (UTF-8 bytes, sentencepiece's default 4192):
    longer lines are left out as sentencepiece's trainer leaves them out (None keeps them); and
    input_sentence_size, shuffle_input_sentence and sample_seed (see count_words).
    """
    limit, sample = None, None
    if model == "unigram":
        limit = options.pop("max_sentence_length", SENTENCEPIECE_MAX_SENTENCE_LENGTH)
        sample = _sample(options.pop("input_sentence_size", 0), options.pop("shuffle_input_sentence", True),
                         options.pop("sample_seed", 0))
    tokenizer = pipeline(model, lowercase=lowercase)
    described = describe_pipeline(tokenizer, model=model, max_sentence_length=limit,
                                  sample=None if sample is None else sample.describe())
    if isinstance(files_or_iterator, WordCounts):
        counts = files_or_iterator
        counts.check_pipeline(described, f"train(model={model!r}, lowercase={lowercase})")
    else:
        counts = _counted(tokenizer, described, files_or_iterator, text_column=text_column, workers=workers,
                          client=client, max_words=max_words, show_progress=options.get("show_progress", True),
                          sample=sample)
    if counts.left_out and not counts.texts:
        raise ValueError(f"every one of the {counts.left_out} lines is longer than max_sentence_length="
                         f"{limit} UTF-8 bytes, so nothing was trained on: pass a larger "
                         "max_sentence_length, or None to keep every line")
    if special_tokens is None:
        special_tokens = DEFAULT_SPECIAL_TOKENS[model]
    if model == "unigram":
        options.setdefault("workers", workers)  # its EM rounds run in as many processes as the counting
    trainer = model_trainer(model, vocab_size, list(special_tokens), dict(options))
    train_from_counts(tokenizer, counts.counts, counts.ends, trainer)
    if model == "wordpiece":
        _add_bert_processing(tokenizer)
    if model == "sentencepiece_bpe":
        tokenizer.model = _merged_as_sentencepiece(tokenizer.model)
    if model in ("unigram", "sentencepiece_bpe"):
        tokenizer = _as_sentencepiece(tokenizer)
    return tokenizer


def count_words(source: Any, model: str = "bpe", *, tokenizer: Tokenizer | None = None, lowercase: bool = True,
                max_sentence_length: int | None = SENTENCEPIECE_MAX_SENTENCE_LENGTH, text_column: str | None = None,
                workers: int = 1, client: Any = None, max_words: int | None = None,
                input_sentence_size: int = 0, shuffle_input_sentence: bool = True, sample_seed: int = 0,
                show_progress: bool = True) -> WordCounts:
    """The word counts `train(source, model=model, lowercase=lowercase)` trains on, to train from
    later, add to other counts or save; or, with `tokenizer`, the words of that tokenizer's
    normalizer, pre-tokenizer and added tokens.

    source: a text file, a glob or a list of them (plain, .gz or .zst; JSON lines and Parquet
    rows with `text_column`), a `datasets` Dataset or IterableDataset (`text_column`, default
    "text"), or an iterable of texts. `workers` counts in that many processes; `client` (a
    dask.distributed Client) counts on its cluster, a task per file (the workers must see the
    files at the same paths) or per chunk of lines. `max_words` keeps only the most frequent
    words once there are twice as many (an approximation: `dropped` says how much was left out).
    `max_sentence_length` applies to model="unigram" only, as in train, and so does
    sentencepiece's sampling of huge inputs: `input_sentence_size=N` counts N of the non-empty
    texts, drawn uniformly from all of them (reservoir sampling, repeatable with `sample_seed`;
    sentencepiece's draw differs from run to run), or the first N with
    `shuffle_input_sentence=False` (sentencepiece's exact choice; reading stops there).
    """
    unigram = model == "unigram" and tokenizer is None
    limit = max_sentence_length if unigram else None
    sample = _sample(input_sentence_size, shuffle_input_sentence, sample_seed) if unigram else None
    counter = tokenizer if tokenizer is not None else pipeline(model, lowercase=lowercase)
    described = describe_pipeline(counter, model=None if tokenizer is not None else model, max_sentence_length=limit,
                                  sample=None if sample is None else sample.describe())
    return _counted(counter, described, source, text_column=text_column, workers=workers, client=client,
                    max_words=max_words, show_progress=show_progress, sample=sample)


def _sample(size: int, shuffle: bool, seed: int) -> Sample | None:
    """The sample sentencepiece's input_sentence_size asks for; None for 0 (every text)."""
    if size == 0 and not isinstance(size, bool):
        return None
    return Sample(size, bool(shuffle), seed)


def _counted(tokenizer: Tokenizer, described: dict[str, Any], source: Any, **options: Any) -> WordCounts:
    """count_corpus with the pipeline's description set on the result."""
    counts = count_corpus(tokenizer, source, max_sentence_length=described["max_sentence_length"],
                          total=source_size(source), **options)
    counts.pipeline = described
    return counts


def _merged_as_sentencepiece(model: Any) -> Any:
    """The trained BPE as sentencepiece runs its pieces: each merged piece scored by its merge's
    rank, and two pieces merging wherever together they spell a piece (not only as trained)."""
    scores = {token: 0.0 for token in model.vocab if len(token) == 1}
    for rank, (left, right) in enumerate(model.merges):
        scores.setdefault(left + right, -float(rank))
    unk_token = DEFAULT_SPECIAL_TOKENS["sentencepiece_bpe"][0]
    vocab = dict(model.vocab)
    vocab.setdefault(unk_token, len(vocab))
    return BPE(vocab, every_split_merges(scores), unk_token=unk_token, fuse_unk=True)


def _as_sentencepiece(tokenizer: Tokenizer) -> Tokenizer:
    """The tokenizer its .model reads as, so that it encodes and decodes as sentencepiece runs
    that file (the whole text at once, special pieces not matched in text)."""
    return tokenizer_from_proto(proto_from_tokenizer(tokenizer))


def _add_bert_processing(tokenizer: Tokenizer) -> None:
    """BERT's [CLS] A [SEP] post-processor, when both tokens are in the vocabulary."""
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    if cls_id is not None and sep_id is not None:
        tokenizer.post_processor = processors.BertProcessing(sep=("[SEP]", sep_id), cls=("[CLS]", cls_id))
