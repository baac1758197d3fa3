"""The Tokenizer: normalizer -> pre-tokenizer -> model -> post-processor, and a decoder."""

from __future__ import annotations

import dataclasses
import gc
import importlib
import random
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from itertools import starmap
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence, Union

from . import _backend
from .decoders.utf8 import StreamDecoder, decode_text
from .encoding import Encoding, PackedEncoding
from .errors import TokenizationError
from .pipeline.added_vocabulary import AddedToken, AddedVocabulary
from .pipeline.cache import Cache
from .pipeline.chat_template import apply_chat_template
from .pipeline.normalized import NormalizedString, PreTokenizedString, Split, Token, char_spans, unaligned_offsets
from .pipeline.padding import BATCH_LONGEST, Fixed, PaddingParams, pad_encodings
from .pipeline.truncation import TruncationParams, check_stride
from .models.base import Columns, token_columns
from .pipeline.pieces import PieceEntry, TextColumns, word_entry
from .plan import EncodePlan, build_plan
from .processors import UNPROCESSED, SingleLayout, post_process
from .specials import AddedTokens, Segments, SpecialSet, TiktokenSpecials

TextInput = Union[str, Sequence[str]]
# Words encoded once and reused: bounded like HF's model caches, and only for short words.
WORD_CACHE_CAPACITY = 10_000
WORD_CACHE_MAX_CHARS = 256

EncodeInput = Union[TextInput, tuple[TextInput, TextInput]]

# The functions behind Tokenizer's file and tool methods (from_str, from_file, to_str, save,
# save_pretrained, explain), registered by the packages named in EXTENDED_BY when they are
# imported: the core names what it needs and never imports the layers above it at load time; a
# method whose package is not loaded yet loads it by name when first called (as a plugin).
EXTENSIONS: dict[str, Callable[..., Any]] = {}
EXTENDED_BY = {"from_str": "hfcompat.formats", "from_file": "hfcompat.formats", "to_str": "hfcompat.formats",
               "save": "hfcompat.formats", "save_pretrained": "hfcompat.formats", "explain": "hfcompat.tools"}



# Chars above which encoding one text pauses Python's cyclic garbage collector (see CollectorPaused).
LONG_TEXT = 100_000


# encode_ordinary_batch hands the texts to its threads in runs of this many.
BATCH_RUN = 256


class CollectorPaused:
    """Pause the cyclic garbage collector while texts longer than LONG_TEXT chars in all are
    encoded: the millions of small tuples they make hold no cycles, and collecting them again
    and again took over half the time of a 1,000,000-char text (benchmarks/pathological.py).
    A class, not a generator: it is entered once per text, and a generator's context manager
    cost 2-3 us of a 35 us line."""

    __slots__ = ("paused",)

    def __init__(self, *texts: Any):
        length = 0
        for text in texts:
            if isinstance(text, str):
                length += len(text)
        self.paused = length > LONG_TEXT and gc.isenabled()

    def __enter__(self) -> None:
        if self.paused:
            gc.disable()

    def __exit__(self, *_: Any) -> None:
        if self.paused:
            gc.enable()


class Tokenizer:
    """A full tokenization pipeline, behaving like `tokenizers.Tokenizer`."""

    # How encode finds special tokens: HF's added vocabulary, or tiktoken's per-call sets for a
    # tokenizer read from a rank file (see specials.py).
    specials: AddedTokens | TiktokenSpecials = AddedTokens()

    def __init__(self, model: Any, *, normalizer: Any = None, pre_tokenizer: Any = None,
                 post_processor: Any = None, decoder: Any = None,
                 truncation: TruncationParams | None = None,
                 padding: PaddingParams | None = None):
        self._word_cache: Cache = Cache(WORD_CACHE_CAPACITY)  # text -> (ids, tokens, char spans)
        self._piece_cache: Cache = Cache(WORD_CACHE_CAPACITY)  # text -> PieceEntry
        self._ids_cache: dict[str, list[int]] = {}  # piece -> its ids (encode_ids)
        self._plan: EncodePlan | None = None  # built when first needed (`_encode_plan`)
        self.model = model
        self._normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.decoder = decoder
        self.truncation = truncation
        self.padding = padding
        # Truncate as transformers' Python classes do (pipeline/truncation.py), set by load_pretrained for them.
        self.python_truncation = False
        self.added_vocabulary = AddedVocabulary()
        # What transformers keeps beside tokenizer.json (tokenizer_config.json), kept for save_pretrained.
        self.chat_template: str | dict[str, str] | None = None  # a template, or named ones
        self.named_special_tokens: dict[str, str] = {}
        # The record of the file it was read from, kept to write that file back as it was and for
        # lint (formats/: SentencePieceSource, GGUFTokenizerData, TekkenSource); None when built.
        self.source: object | None = None

    # ----- construction and files -------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the encode plan (it holds the compiled tables): a copy builds its own."""
        return {**self.__dict__, "_plan": None}

    @classmethod
    def from_str(cls, json_text: str) -> "Tokenizer":
        """Build a tokenizer from tokenizer.json text."""
        tokenizer: Tokenizer = _extension("from_str")(json_text)
        return tokenizer

    @classmethod
    def from_file(cls, path: str) -> "Tokenizer":
        """Read a tokenizer.json file."""
        tokenizer: Tokenizer = _extension("from_file")(path)
        return tokenizer

    def to_str(self, pretty: bool = False, exact: bool = True) -> str:
        """This tokenizer as tokenizer.json text (`exact=False`: the nearest, with a warning, where
        tokenizer.json cannot run it exactly)."""
        text: str = _extension("to_str")(self, pretty=pretty, exact=exact)
        return text

    def save(self, path: str, pretty: bool = True, exact: bool = True) -> None:
        """Write the tokenizer in the format its suffix names (see `formats.save`; `exact=False`
        writes the nearest file where the format cannot hold it exactly, with a warning)."""
        _extension("save")(self, path, pretty=pretty, exact=exact)

    # ----- training ---------------------------------------------------------------------

    def train(self, files: Sequence[str], trainer: Any = None) -> None:
        """Train the model on text files (lines with their "\\n"), as `tokenizers` does."""
        trainers = _trainers()
        trainers.train_tokenizer(self, trainers.iter_texts([Path(path) for path in files]) if files else iter(()),
                                 trainer)

    def train_from_iterator(self, iterator: Iterable[Any], trainer: Any = None,
                            length: int | None = None) -> None:
        """Train the model on texts (or batches of texts), as `tokenizers` does."""
        texts = (text for item in iterator for text in ([item] if isinstance(item, str) else item))
        _trainers().train_tokenizer(self, texts, trainer, total=length)

    # ----- transformers -----------------------------------------------------------------

    def save_pretrained(self, directory: str, **options: Any) -> list[str]:
        """Write a directory transformers.AutoTokenizer loads (see formats.transformers.save_pretrained)."""
        written: list[str] = _extension("save_pretrained")(self, directory, **options)
        return written

    def apply_chat_template(self, conversation: Any, tools: Sequence[Any] | None = None,
                            documents: Sequence[Any] | None = None, chat_template: str | None = None,
                            add_generation_prompt: bool = False, continue_final_message: bool | str = False,
                            tokenize: bool = True, padding: bool | str = False, truncation: bool = False,
                            max_length: int | None = None, return_dict: bool = True,
                            return_assistant_tokens_mask: bool = False,
                            tokenizer_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        """Render a conversation (a list of {"role", "content"} dicts, or a batch of them) with the
        chat template, as transformers 5's apply_chat_template does (pipeline/chat_template.py).

        `chat_template` is a template or the name of one of the tokenizer's; `tools` are JSON
        schemas or documented Python functions; `continue_final_message` (True or a message key)
        leaves the final message open. With `tokenize` the text is encoded without the
        post-processor's special tokens: ids (`return_dict=False`) or a dict of input_ids and
        attention_mask (plus assistant_masks when asked). Other keywords reach the template.
        Needs jinja2 (`pip install 'hfcompat[chat]'`).
        """
        return apply_chat_template(
            self, conversation, tools=tools, documents=documents, chat_template=chat_template,
            add_generation_prompt=add_generation_prompt, continue_final_message=continue_final_message,
            tokenize=tokenize, padding=padding, truncation=truncation, max_length=max_length,
            return_dict=return_dict, return_assistant_tokens_mask=return_assistant_tokens_mask,
            tokenizer_kwargs=tokenizer_kwargs, **kwargs)

    # ----- components -------------------------------------------------------------------

    @property
    def model(self) -> Any:
        """The model (setting it empties the word cache)."""
        return self._model

    @model.setter
    def model(self, model: Any) -> None:
        self._model = model
        self._plan = None
        self._word_cache.clear()
        self._piece_cache.clear()
        self._ids_cache.clear()

    @property
    def pre_tokenizer(self) -> Any:
        """The pre-tokenizer (setting it empties the piece cache)."""
        return self._pre_tokenizer

    @pre_tokenizer.setter
    def pre_tokenizer(self, pre_tokenizer: Any) -> None:
        self._pre_tokenizer = pre_tokenizer
        self._plan = None
        self._piece_cache.clear()
        self._ids_cache.clear()

    @property
    def normalizer(self) -> Any:
        """The normalizer (setting it refreshes the normalized forms of added tokens)."""
        return self._normalizer

    @normalizer.setter
    def normalizer(self, normalizer: Any) -> None:
        self._normalizer = normalizer
        self.added_vocabulary.refresh_normalized(self._normalize_text)

    def _normalize_text(self, text: str) -> str:
        """Normalize a plain string with this tokenizer's normalizer."""
        if self._normalizer is None:
            return text
        ns = NormalizedString(text)
        self._normalizer.normalize(ns)
        return ns.normalized

    # ----- vocabulary -------------------------------------------------------------------

    def add_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add plain added tokens; returns how many were new."""
        return self._add(tokens, special=False)

    def add_special_tokens(self, tokens: Iterable[str | AddedToken]) -> int:
        """Add special tokens (skipped by decode(skip_special_tokens=True))."""
        return self._add(tokens, special=True)

    def _add(self, tokens: Iterable[str | AddedToken], special: bool) -> int:
        """Add tokens, building AddedToken with HF's defaults from plain strings."""
        prepared = []
        for token in tokens:
            if isinstance(token, str):
                token = AddedToken(token, normalized=not special, special=special)
            elif special and not token.special:
                token = dataclasses.replace(token, special=True)
            prepared.append(token)
        return self.added_vocabulary.add_tokens(prepared, self.model, self._normalize_text)

    def token_to_id(self, token: str) -> int | None:
        """Id of a token, added tokens first."""
        found = self.added_vocabulary.token_to_id.get(token)
        return found if found is not None else self.model.token_to_id(token)

    def id_to_token(self, token_id: int) -> str | None:
        """Token of an id, added tokens first."""
        found = self.added_vocabulary.id_to_token(token_id)
        return found if found is not None else self.model.id_to_token(token_id)

    def get_vocab(self, with_added_tokens: bool = True) -> dict[str, int]:
        """The vocabulary, token -> id."""
        vocab = dict(self.model.get_vocab())
        if with_added_tokens:
            vocab.update(self.added_vocabulary.token_to_id)
        return vocab

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        """Number of distinct tokens."""
        size: int = self.model.get_vocab_size()
        if with_added_tokens:
            added = self.added_vocabulary.token_to_id
            size += sum(1 for t in added if self.model.token_to_id(t) is None)
        return size

    def get_added_tokens_decoder(self) -> dict[int, AddedToken]:
        """Added tokens by id."""
        return dict(self.added_vocabulary.id_to_added)

    @property
    def encode_special_tokens(self) -> bool:
        """When true, special tokens in the input are tokenized as plain text."""
        return self.added_vocabulary.encode_special_tokens

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        self.added_vocabulary.encode_special_tokens = value

    # ----- truncation and padding -------------------------------------------------------

    def enable_truncation(self, max_length: int, stride: int = 0,
                          strategy: str = "longest_first", direction: str = "right") -> None:
        """Truncate every encoding to `max_length` (HF's Python arguments)."""
        params = TruncationParams(max_length, stride, strategy, direction)
        check_stride(params, self.num_special_tokens_to_add(False))
        self.truncation = params

    def no_truncation(self) -> None:
        """Stop truncating."""
        self.truncation = None

    def enable_padding(self, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0,
                       pad_token: str = "[PAD]", length: int | None = None,
                       pad_to_multiple_of: int | None = None) -> None:
        """Pad batches (to `length`, or to the longest of the batch)."""
        strategy = BATCH_LONGEST if length is None else Fixed(length)
        self.padding = PaddingParams(strategy, direction, pad_to_multiple_of, pad_id,
                                     pad_type_id, pad_token)

    def no_padding(self) -> None:
        """Stop padding."""
        self.padding = None

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        """How many tokens the post-processor adds."""
        return self.post_processor.added_tokens(is_pair) if self.post_processor else 0

    # ----- encoding ---------------------------------------------------------------------

    def encode(self, sequence: TextInput, pair: TextInput | None = None,
               is_pretokenized: bool = False, add_special_tokens: bool = True, *,
               allowed_special: SpecialSet | None = None,
               disallowed_special: SpecialSet | None = None) -> Encoding:
        """Encode one sequence, or a pair, into an Encoding with original char offsets.

        A tokenizer read from a rank file treats the special tokens of a single text as tiktoken
        does: `allowed_special` (default none) become tokens, `disallowed_special` (default "all"
        not allowed) raise SpecialTokenError, the others are plain text; with
        `encode_special_tokens` set, every special token is plain text.
        """
        with CollectorPaused(sequence, pair):
            encoding = self._encode_input(sequence, pair, is_pretokenized, add_special_tokens, allowed_special,
                                          disallowed_special, self.padding)
            return encoding if isinstance(encoding, PackedEncoding) else PackedEncoding.pack(encoding)

    def encode_batch(self, inputs: Iterable[EncodeInput], is_pretokenized: bool = False,
                     add_special_tokens: bool = True, *, allowed_special: SpecialSet | None = None,
                     disallowed_special: SpecialSet | None = None) -> list[Encoding]:
        """Encode many inputs (each a sequence or a (sequence, pair) tuple), then pad them.

        Single texts follow the special-token policy, as in `encode`.
        """
        encodings = []
        for item in inputs:
            sequence, pair = item if isinstance(item, tuple) or (isinstance(item, list) and not is_pretokenized) \
                else (item, None)
            encoding = self._encode_input(sequence, pair, is_pretokenized, add_special_tokens, allowed_special,
                                          disallowed_special, None)
            # Without padding each encoding is packed at once, so the batch never holds many
            # unpacked ones (their lists would all be walked by every garbage collection).
            packed = self.padding is None and not isinstance(encoding, PackedEncoding)
            encodings.append(PackedEncoding.pack(encoding) if packed else encoding)
        if self.padding is None:
            return encodings
        pad_encodings(encodings, self.padding)
        return [PackedEncoding.pack(encoding) for encoding in encodings]

    def _encode_input(self, sequence: TextInput, pair: TextInput | None, is_pretokenized: bool,
                      add_special_tokens: bool, allowed_special: SpecialSet | None,
                      disallowed_special: SpecialSet | None, padding: PaddingParams | None) -> Encoding:
        """One input of `encode` or `encode_batch`, post-processed (padded with `padding`). A
        single text takes the short way when it can: nothing truncates or pads, the post-processor
        has a single layout and the text's pieces give its columns (`_text_columns`); they are
        laid out and packed at once. The others go on through the pipeline from where the short
        way stopped."""
        if pair is not None or is_pretokenized:
            encoding = self._encode_sequence(sequence, 0, is_pretokenized)
            second = None if pair is None else self._encode_sequence(pair, 1, is_pretokenized)
            return self._post_process(encoding, second, add_special_tokens, padding)
        if not isinstance(sequence, str):
            raise TypeError("TextInputSequence must be str")
        found = self.specials.segments(sequence, allowed_special, disallowed_special, self.encode_special_tokens)
        layout = self._single_layout(add_special_tokens) if found is None else None
        if layout is None:
            encoding = self._encode_text(sequence, 0, None) if found is None else self._encode_segments(*found)
        else:
            normalized = self._normalized(sequence)
            columns = None if normalized is None else self._text_columns(normalized)
            if columns is not None:
                return layout.pack(*columns)
            encoding = self._into_encoding(self._pretokenized(sequence, normalized), 0, None)
        return self._post_process(encoding, None, add_special_tokens, padding)

    def sample(self, text: str, alpha: float, nbest_size: int = -1, *, seed: int | None = None,
               add_special_tokens: bool = True) -> Encoding:
        """One segmentation of `text` drawn as sentencepiece's `encode(text, enable_sampling=True,
        alpha=alpha, nbest_size=nbest_size)` draws it: subword regularization for Unigram,
        BPE-dropout (alpha = the chance to skip a merge) for BPE; `seed` makes it repeatable."""
        if not isinstance(text, str):
            raise TypeError("TextInputSequence must be str")
        sampler = self._encode_plan().kernel.sample
        if sampler is None:
            raise TypeError(f"a {type(self._model).__name__} model has no sampling (Unigram and BPE have)")
        rng = random.Random(seed)
        encoding = self._encode_text(text, 0, None, partial(sampler, alpha=alpha, nbest_size=nbest_size, rng=rng))
        return PackedEncoding.pack(self.post_process(encoding, None, add_special_tokens))

    def _single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """How the post-processor lays out a single sequence, when nothing truncates or pads it."""
        if self.truncation is not None or self.padding is not None:
            return None
        if self.post_processor is None:
            return UNPROCESSED
        layout: SingleLayout | None = self.post_processor.single_layout(add_special_tokens)
        return layout

    def _encode_segments(self, text: str, segments: Segments) -> Encoding:
        """A text the policy cut into segments: a special token's id, or text that goes through
        the pre-tokenizer and the model."""
        pretokenized = PreTokenizedString(text)
        whole = pretokenized.splits[0].normalized
        splits = []
        for start, stop, special_id in segments:
            part = whole.slice(start, stop)
            if special_id is None:
                splits.append(Split(part))
            else:
                content = text[start:stop]
                splits.append(Split(part, [Token(special_id, content, (0, len(content.encode())))]))
        pretokenized.splits = splits
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(pretokenized)
        return self._into_encoding(pretokenized, 0, None)

    def _encode_sequence(self, sequence: TextInput, type_id: int,
                         is_pretokenized: bool) -> Encoding:
        """Encode one sequence without post-processing."""
        if not is_pretokenized:
            if not isinstance(sequence, str):
                raise TypeError("TextInputSequence must be str")
            return self._encode_text(sequence, type_id, None)
        words = [self._encode_text(word, type_id, i) for i, word in enumerate(sequence)]
        return Encoding.merge(words, growing_offsets=False)

    def _encode_text(self, text: str, type_id: int, word_index: int | None,
                     tokenize: Callable[[str], list[Any]] | None = None) -> Encoding:
        """Run added tokens, normalizer, pre-tokenizer and model over one text.

        A text without added tokens takes `_piece_columns` (cached pieces) when the
        pre-tokenizer allows it. `tokenize` replaces the model's own (a sampler), uncached.
        """
        normalized = self._normalized(text)
        if normalized is not None and tokenize is None:
            columns = self._text_columns(normalized)
            if columns is not None:
                return self._columns_encoding(*columns, type_id, word_index)
        return self._into_encoding(self._pretokenized(text, normalized), type_id, word_index, tokenize)

    def _normalized(self, text: str) -> NormalizedString | None:
        """The normalized text; None when an added token may match in the raw text (the
        pipeline then cuts it out before normalizing the rest)."""
        if self.added_vocabulary.may_match(text, normalized=False):
            return None
        ns = NormalizedString(text)
        if self._normalizer is not None:
            self._normalizer.normalize(ns)
        return ns

    def _text_columns(self, ns: NormalizedString) -> TextColumns | None:
        """A normalized text's columns from its pieces (`_piece_columns`); None when an added
        token may match in it too."""
        if self.added_vocabulary.may_match(ns.normalized, normalized=True):
            return None
        return self._piece_columns(ns)

    def _pretokenized(self, text: str, ns: NormalizedString | None) -> PreTokenizedString:
        """The text cut around its added tokens (normalized here unless `ns` is its normalized
        form already), then pre-tokenized."""
        added = self.added_vocabulary
        if ns is None:
            normalize = self._normalizer.normalize if self._normalizer is not None else None
            pretokenized = added.extract_and_normalize(normalize, text)
        else:
            pretokenized = PreTokenizedString(text)
            pretokenized.splits = [s for s in added.split_normalized(ns) if s.normalized.normalized]
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(pretokenized)
        return pretokenized

    def _piece_columns(self, ns: NormalizedString) -> TextColumns | None:
        """The ids, tokens, offsets and word indices that pre-tokenizing and `_into_encoding`
        give for a normalized text, built from cached pieces; None when the plan has no pieces
        (or an empty token's offsets would have to go through the text's alignments).

        A piece's offsets are cached within the piece's text; the alignment of the normalized
        text maps them to the input, as slicing and the pre-tokenizer's edits would.
        """
        plan = self._encode_plan()
        if plan.find is None:
            return None
        alignments = None if ns.is_identity() else ns.alignments
        columns: TextColumns | None = plan.loops.assemble(*plan.find(ns.normalized), self._piece_cache,
                                                          self._piece_entry, alignments, plan.direct,
                                                          WORD_CACHE_MAX_CHARS, plan.mark)
        return columns

    def _encode_plan(self) -> EncodePlan:
        """The encode plan of the current components and backend (built again when they change)."""
        plan = self._plan
        if plan is None or plan.backend != _backend.backend or plan.version != self._model.kernel_version:
            plan = self._plan = build_plan(self._model, self._pre_tokenizer)
        return plan

    @staticmethod
    def _columns_encoding(ids: list[int], tokens: list[str], offsets: list[tuple[int, int]],
                          words: list[int | None], type_id: int, word_index: int | None) -> Encoding:
        """The Encoding of a text's columns (all its words one word when `word_index` is given)."""
        n = len(ids)
        if word_index is not None:
            words = [word_index] * n
        return Encoding(ids, [type_id] * n, tokens, offsets, [0] * n, [1] * n, words, [], {})

    def _piece_entry(self, piece: str) -> PieceEntry:
        """The tokens of one piece pre-tokenized alone (cached when there is room): the model's
        columns of a piece that is one word, else the pipeline's splits of the piece."""
        plan = self._encode_plan()
        if plan.word_columns is not None and plan.mark is None:
            entry = word_entry(*plan.word_columns(piece))
        else:
            pretokenized = PreTokenizedString(piece)
            self._pre_tokenizer.pre_tokenize(pretokenized)
            encoding = self._into_encoding(pretokenized, 0, None)
            entry = (encoding.ids, encoding.tokens, encoding.offsets, encoding.word_ids,
                     len(pretokenized.splits), any(starmap(int.__eq__, encoding.offsets)))
        if len(piece) < WORD_CACHE_MAX_CHARS:
            self._piece_cache.offer(piece, entry)
        return entry

    def _into_encoding(self, pretokenized: PreTokenizedString, type_id: int, word_index: int | None,
                       tokenize: Callable[[str], list[Any]] | None = None) -> Encoding:
        """Collect the tokens of all splits (running the model, or `tokenize`, where needed)
        into an Encoding."""
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        cached = self._word_cache.get
        overrun = self._encode_plan().kernel.overrun
        for index, split in enumerate(pretokenized.splits):
            ns = split.normalized
            if split.tokens is None and overrun:
                word_ids, word_tokens, word_offsets = _overrun_columns(
                    ns, (tokenize or self._model.tokenize)(ns.normalized), pretokenized.original)
                ids += word_ids
                tokens += word_tokens
                offsets += word_offsets
                words += [index if word_index is None else word_index] * len(word_ids)
                continue
            if split.tokens is None and tokenize is not None:
                word_ids, word_tokens, spans = token_columns(ns.normalized, tokenize)
            elif split.tokens is None:
                word = cached(ns.normalized) or self._encode_word(ns.normalized)
                word_ids, word_tokens, spans = word
            else:
                word_ids = [token[0] for token in split.tokens]
                word_tokens = [token[1] for token in split.tokens]
                spans = char_spans(ns.normalized, [token[2] for token in split.tokens])
            if not word_ids:
                continue
            ids += word_ids
            tokens += word_tokens
            if ns.is_identity():
                shift = ns.original_shift
                offsets += [(shift + s, shift + e) for s, e in spans] if shift else spans
            else:
                offsets += ns.spans_to_original(spans)
            words += [index if word_index is None else word_index] * len(word_ids)
        n = len(ids)
        return Encoding(ids, [type_id] * n, tokens, offsets, [0] * n, [1] * n, words, [], {})

    def _encode_word(self, text: str) -> tuple[list[int], list[str], list[tuple[int, int]]]:
        """The model's tokens of one split: ids, strings and char spans within the split."""
        cached: Columns | None = self._word_cache.get(text)
        if cached is not None:
            return cached
        plan = self._encode_plan()
        result = plan.kernel.columns(text)
        if len(text) < WORD_CACHE_MAX_CHARS and plan.kernel.deterministic:
            self._word_cache.offer(text, result)
        return result

    def explain(self, text: str, add_special_tokens: bool = True) -> Any:
        """Every stage of encoding `text`, the model's steps per word included (see tools/explain.py)."""
        return _extension("explain")(self, text, add_special_tokens)

    def post_process(self, encoding: Encoding, pair: Encoding | None = None,
                     add_special_tokens: bool = True) -> Encoding:
        """Truncate, add the special tokens and pad, as HF does after the model."""
        return self._post_process(encoding, pair, add_special_tokens, self.padding)

    def _post_process(self, encoding: Encoding, pair: Encoding | None, add_special_tokens: bool,
                      padding: PaddingParams | None) -> Encoding:
        """Truncate, add the special tokens and pad with `padding` (None: a batch padded as a whole later)."""
        return post_process(encoding, pair, add_special_tokens, processor=self.post_processor,
                            truncation=self.truncation, padding=padding,
                            python_truncation=self.python_truncation)

    # ----- decoding ---------------------------------------------------------------------

    def decode(self, ids: Sequence[int], skip_special_tokens: bool | None = None,
               errors: str | None = None) -> str:
        """Turn ids back into text; unknown ids are skipped, as HF does.

        `skip_special_tokens` defaults to True, except for a tokenizer read from a rank file,
        which decodes as tiktoken: specials kept (dropped for a tekken.json, as mistral-common
        does), an unknown id is a KeyError, and invalid UTF-8 follows `errors` ("replace" by
        default, "strict", or "recover": the most whole chars).
        """
        if self.specials.decodes_bytes or errors is not None:
            skip = self.specials.skips_specials if skip_special_tokens is None else skip_special_tokens
            if skip and self.specials.skips_specials:  # mistral-common decodes the runs between specials apart
                return "".join(decode_text(self.decode_bytes(run), errors or "replace") for run in self._plain_runs(ids))
            data = self.decode_bytes([i for i in ids if not (skip and self.added_vocabulary.id_to_token(i))])
            return decode_text(data, errors or "replace")
        if skip_special_tokens is None:
            skip_special_tokens = True
        if self.decoder is not None:
            ids = self.decoder.prepare_ids(list(ids))
        added = self.added_vocabulary
        model_token = self.model.id_to_token
        tokens = []
        for token_id in ids:
            token = added.id_to_token(token_id)
            if token is None:
                token = model_token(token_id)
            if token is None:
                continue
            if skip_special_tokens and added.is_special(token):
                continue
            tokens.append(token)
        if self.decoder is not None:
            text: str = self.decoder.decode(tokens)
            return text
        return " ".join(tokens)

    def _plain_runs(self, ids: Sequence[int]) -> list[list[int]]:
        """The runs of ids between added tokens."""
        runs: list[list[int]] = [[]]
        for token_id in ids:
            if self.added_vocabulary.id_to_token(token_id):
                runs.append([])
            else:
                runs[-1].append(token_id)
        return [run for run in runs if run]

    def decode_batch(self, sequences: Iterable[Sequence[int]],
                     skip_special_tokens: bool | None = None) -> list[str]:
        """Decode several id lists."""
        return [self.decode(ids, skip_special_tokens) for ids in sequences]

    # ----- tiktoken's interface (tokenizers read from a rank file) ----------------------

    @property
    def tiktoken(self) -> TiktokenSpecials | None:
        """tiktoken's policy and interface, for a tokenizer read from a rank file; else None."""
        return self.specials if isinstance(self.specials, TiktokenSpecials) else None

    def _tiktoken_mode(self) -> TiktokenSpecials:
        """The tiktoken semantics of this tokenizer, or an error saying it has none."""
        if not isinstance(self.specials, TiktokenSpecials):
            raise TokenizationError("this tokenizer was not read from a tiktoken rank file")
        return self.specials

    def encode_ordinary(self, text: str) -> list[int]:
        """tiktoken's encode_ordinary: the ids of `text`, special tokens treated as text."""
        with CollectorPaused(text):
            return self._tiktoken_mode().encode_ordinary(self.model, text)

    def encode_ordinary_batch(self, texts: Sequence[str], *, num_threads: int = 8) -> list[list[int]]:
        """tiktoken's encode_ordinary_batch: the ids of each text, encoded in `num_threads`
        threads (the compiled core merges without the GIL, so they run side by side)."""
        mode = self._tiktoken_mode()
        texts = list(texts)
        runs = [texts[start:start + BATCH_RUN] for start in range(0, len(texts), BATCH_RUN)]
        with CollectorPaused(*texts):
            if num_threads <= 1 or len(runs) <= 1:
                return [ids for run in runs for ids in mode.encode_ordinary_batch(self.model, run)]
            with ThreadPoolExecutor(num_threads) as pool:
                found = pool.map(lambda run: mode.encode_ordinary_batch(self.model, run), runs)
                return [ids for run in found for ids in run]

    def encode_ids(self, text: str, add_special_tokens: bool = True, *,
                   allowed_special: SpecialSet | None = None,
                   disallowed_special: SpecialSet | None = None) -> list[int]:
        """The ids of `encode(text)` as a plain list, without building the Encoding (the ids
        alone, as sentencepiece's and tiktoken's `encode` give them).

        For a tokenizer read from a rank file this is tiktoken's `encode`: `allowed_special`
        (default none) become tokens, `disallowed_special` (default the policy's: "all" for a
        rank file, none for tekken) raise SpecialTokenError. Otherwise the normalizer,
        pre-tokenizer and model run on their string paths (no alignments, no offsets) where
        the pipeline has them, and `encode` runs where it does not.
        """
        if isinstance(self.specials, TiktokenSpecials):
            disallowed = self.specials.disallowed_default if disallowed_special is None else disallowed_special
            with CollectorPaused(text):
                return self.specials.encode_ids(self.model, text, allowed_special or frozenset(), disallowed)
        if not isinstance(text, str):
            raise TypeError("TextInputSequence must be str")
        ids = self._plain_ids(text) if self.truncation is None and self.padding is None else None
        if ids is not None and self.post_processor is not None:
            ids = self.post_processor.single_ids(ids, add_special_tokens)
        return ids if ids is not None else self.encode(text, add_special_tokens=add_special_tokens).ids

    def _plain_ids(self, text: str) -> list[int] | None:
        """The model's ids of a text through the normalizer's and pre-tokenizer's string forms;
        None where only the Encoding path can tell: an added token may be in the text, the plan
        has no ids path, or a piece has no ids that way (then `encode` runs)."""
        plan = self._encode_plan()
        added = self.added_vocabulary
        if plan.ids_of is None or added.may_match(text, normalized=False):
            return None
        normalized = text if self._normalizer is None else self._normalizer.normalize_str(text)
        if added.may_match(normalized, normalized=True):
            return None
        if plan.scanned_ids is not None:
            return plan.scanned_ids(normalized)
        if plan.find is None:
            return None
        ids: list[int] | None = plan.loops.piece_ids(plan.find(normalized)[0], self._ids_cache, plan.ids_of,
                                                     plan.mark or "", WORD_CACHE_CAPACITY, WORD_CACHE_MAX_CHARS)
        return ids

    def decode_single_token_bytes(self, token_id: int) -> bytes:
        """The bytes of one token (a special token as its UTF-8)."""
        return self._tiktoken_mode().token_bytes(self.model, token_id)

    def decode_tokens_bytes(self, ids: Sequence[int]) -> list[bytes]:
        """The bytes of each token."""
        mode = self._tiktoken_mode()
        return [mode.token_bytes(self.model, token_id) for token_id in ids]

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The bytes of the tokens joined (not necessarily valid UTF-8)."""
        return self._tiktoken_mode().decode_bytes(self.model, ids)

    def stream_decoder(self) -> StreamDecoder:
        """A decoder fed one id at a time that returns text once it forms whole chars."""
        mode = self._tiktoken_mode()
        return StreamDecoder(lambda token_id: mode.token_bytes(self.model, token_id))


def _overrun_columns(ns: NormalizedString, model_tokens: list[Any], original: str
                     ) -> tuple[list[int], list[str], list[tuple[int, int]]]:
    """The ids, strings and original offsets of a split's tokens when the model's byte spans may
    run past the split: those keep HF's unaligned form (`unaligned_offsets`), the others map
    through the split's alignment."""
    size = len(ns.normalized.encode("utf-8", "surrogatepass"))
    offsets = []
    for token in model_tokens:
        start, end = token[2]
        if end > size and start != end:
            offsets.append(unaligned_offsets(original, start, end))
        else:
            offsets += ns.spans_to_original(char_spans(ns.normalized, [(start, end)]))
    return [t[0] for t in model_tokens], [t[1] for t in model_tokens], offsets


def _trainers() -> ModuleType:
    """hfcompat.trainers, imported when a tokenizer is first trained: with tqdm they are a third of
    the imports of a cold start, and loading or encoding needs none of them."""
    return importlib.import_module(".trainers", __package__)


def _extension(name: str) -> Callable[..., Any]:
    """The function registered for a Tokenizer method, its package loaded on first use."""
    if name not in EXTENSIONS:
        importlib.import_module(EXTENDED_BY[name])
    return EXTENSIONS[name]
