"""The Tokenizer: normalizer -> pre-tokenizer -> model -> post-processor, and a decoder."""

from __future__ import annotations

import dataclasses
import gc
import importlib
import random
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence, Union

from .decoders.utf8 import StreamDecoder, decode_text
from .encoding import Encoding, PackedEncoding
from .errors import TokenizationError
from .pipeline.added_vocabulary import AddedToken, AddedVocabulary
from .pipeline.normalized import NormalizedString
from .pipeline.padding import BATCH_LONGEST, Fixed, PaddingParams, pad_encodings
from .pipeline.truncation import TruncationParams, check_stride
from .collector import paused_for
from .encoder import TextEncoder
from .processors import UNPROCESSED, SingleLayout, post_process
from .specials import AddedTokens, SpecialSet, TiktokenSpecials

TextInput = Union[str, Sequence[str]]

EncodeInput = Union[TextInput, tuple[TextInput, TextInput]]

# The functions behind Tokenizer's file and tool methods (from_str, from_file, to_str, save,
# save_pretrained, explain), registered by the packages named in EXTENDED_BY when they are
# imported: the core names what it needs and never imports the layers above it at load time; a
# method whose package is not loaded yet loads it by name when first called (as a plugin).
EXTENSIONS: dict[str, Callable[..., Any]] = {}
EXTENDED_BY = {"from_str": "hfcompat.formats", "from_file": "hfcompat.formats", "to_str": "hfcompat.formats",
               "save": "hfcompat.formats", "save_pretrained": "hfcompat.formats", "explain": "hfcompat.tools"}


# encode_ordinary_batch hands the texts to its threads in runs of this many.
BATCH_RUN = 256


class Tokenizer:
    """A full tokenization pipeline, behaving like `tokenizers.Tokenizer`."""

    # How encode finds special tokens: HF's added vocabulary, or tiktoken's per-call sets for a
    # tokenizer read from a rank file (see specials.py).
    specials: AddedTokens | TiktokenSpecials = AddedTokens()

    def __init__(self, model: Any, *, normalizer: Any = None, pre_tokenizer: Any = None,
                 post_processor: Any = None, decoder: Any = None,
                 truncation: TruncationParams | None = None,
                 padding: PaddingParams | None = None):
        self._encoder: TextEncoder | None = None  # built when first needed (`_text_encoder`)
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
        """Pickled without the text encoder (its plan holds the compiled tables): a copy builds its own."""
        return {**self.__dict__, "_encoder": None}

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
        return _chat_templates().apply_chat_template(
            self, conversation, tools=tools, documents=documents, chat_template=chat_template,
            add_generation_prompt=add_generation_prompt, continue_final_message=continue_final_message,
            tokenize=tokenize, padding=padding, truncation=truncation, max_length=max_length,
            return_dict=return_dict, return_assistant_tokens_mask=return_assistant_tokens_mask,
            tokenizer_kwargs=tokenizer_kwargs, **kwargs)

    # ----- components -------------------------------------------------------------------

    @property
    def model(self) -> Any:
        """The model (setting one builds a new text encoder, with empty caches)."""
        return self._model

    @model.setter
    def model(self, model: Any) -> None:
        self._model = model
        self._encoder = None

    @property
    def pre_tokenizer(self) -> Any:
        """The pre-tokenizer (setting one builds a new text encoder)."""
        return self._pre_tokenizer

    @pre_tokenizer.setter
    def pre_tokenizer(self, pre_tokenizer: Any) -> None:
        self._pre_tokenizer = pre_tokenizer
        self._encoder = None

    @property
    def normalizer(self) -> Any:
        """The normalizer (setting one refreshes the normalized forms of added tokens and builds a new text encoder)."""
        return self._normalizer

    @normalizer.setter
    def normalizer(self, normalizer: Any) -> None:
        self._normalizer = normalizer
        self._encoder = None
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
        paused = paused_for(sequence, pair)
        try:
            encoding = self._encode_input(sequence, pair, is_pretokenized, add_special_tokens, allowed_special,
                                          disallowed_special, self.padding)
            return encoding if isinstance(encoding, PackedEncoding) else PackedEncoding.pack(encoding)
        finally:
            if paused:
                gc.enable()

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
        has a single layout and the text's pieces give its columns (`TextEncoder.text_columns`); they are
        laid out and packed at once. The others go on through the pipeline from where the short
        way stopped."""
        if pair is not None or is_pretokenized:
            encoding = self._encode_sequence(sequence, 0, is_pretokenized)
            second = None if pair is None else self._encode_sequence(pair, 1, is_pretokenized)
            return self._post_process(encoding, second, add_special_tokens, padding)
        if not isinstance(sequence, str):
            raise TypeError("TextInputSequence must be str")
        encoder = self._text_encoder()
        found = self.specials.segments(sequence, allowed_special, disallowed_special,
                                       self.added_vocabulary.encode_special_tokens)
        layout = self._single_layout(add_special_tokens) if found is None else None
        if layout is None:
            encoding = encoder.text_encoding(sequence, 0, None) if found is None else encoder.segments_encoding(*found)
        else:
            normalized = encoder.normalized(sequence)
            columns = None if normalized is None else encoder.text_columns(normalized)
            if columns is not None:
                return layout.pack(*columns)
            encoding = encoder.into_encoding(encoder.pretokenized(sequence, normalized), 0, None)
        return self._post_process(encoding, None, add_special_tokens, padding)

    def sample(self, text: str, alpha: float, nbest_size: int = -1, *, seed: int | None = None,
               add_special_tokens: bool = True) -> Encoding:
        """One segmentation of `text` drawn as sentencepiece's `encode(text, enable_sampling=True,
        alpha=alpha, nbest_size=nbest_size)` draws it: subword regularization for Unigram,
        BPE-dropout (alpha = the chance to skip a merge) for BPE; `seed` makes it repeatable."""
        if not isinstance(text, str):
            raise TypeError("TextInputSequence must be str")
        encoder = self._text_encoder()
        sampler = encoder.plan.kernel.sample
        if sampler is None:
            raise TypeError(f"a {type(self._model).__name__} model has no sampling (Unigram and BPE have)")
        rng = random.Random(seed)
        encoding = encoder.text_encoding(text, 0, None, partial(sampler, alpha=alpha, nbest_size=nbest_size, rng=rng))
        return PackedEncoding.pack(self.post_process(encoding, None, add_special_tokens))

    def _encode_sequence(self, sequence: TextInput, type_id: int, is_pretokenized: bool) -> Encoding:
        """Encode one sequence (a text, or its words) without post-processing."""
        encoder = self._text_encoder()
        if not is_pretokenized:
            if not isinstance(sequence, str):
                raise TypeError("TextInputSequence must be str")
            return encoder.text_encoding(sequence, type_id, None)
        words = [encoder.text_encoding(word, type_id, i) for i, word in enumerate(sequence)]
        return Encoding.merge(words, growing_offsets=False)

    def _text_encoder(self) -> TextEncoder:
        """The text encoder of the current components and backend (built again when they change)."""
        encoder = self._encoder
        if encoder is None or not encoder.current() or encoder.added is not self.added_vocabulary:
            encoder = self._encoder = TextEncoder(self._normalizer, self._pre_tokenizer, self._model,
                                                  self.added_vocabulary)
        return encoder

    def clear_cache(self) -> None:
        """Forget every piece encoded so far (the model's cache too): the next pass runs cold."""
        if self._encoder is not None:
            self._encoder.clear()
        self._model.clear_cache()

    def _single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """How the post-processor lays out a single sequence, when nothing truncates or pads it."""
        if self.truncation is not None or self.padding is not None:
            return None
        if self.post_processor is None:
            return UNPROCESSED
        layout: SingleLayout | None = self.post_processor.single_layout(add_special_tokens)
        return layout

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
        paused = paused_for(text)
        try:
            return self._tiktoken_mode().encode_ordinary(self.model, text)
        finally:
            if paused:
                gc.enable()

    def encode_ordinary_batch(self, texts: Sequence[str], *, num_threads: int = 8) -> list[list[int]]:
        """tiktoken's encode_ordinary_batch: the ids of each text, encoded in `num_threads`
        threads (the compiled core merges without the GIL, so they run side by side)."""
        mode = self._tiktoken_mode()
        texts = list(texts)
        runs = [texts[start:start + BATCH_RUN] for start in range(0, len(texts), BATCH_RUN)]
        paused = paused_for(*texts)
        try:
            if num_threads <= 1 or len(runs) <= 1:
                return [ids for run in runs for ids in mode.encode_ordinary_batch(self.model, run)]
            with importlib.import_module("concurrent.futures").ThreadPoolExecutor(num_threads) as pool:
                found = pool.map(lambda run: mode.encode_ordinary_batch(self.model, run), runs)
                return [ids for run in found for ids in run]
        finally:
            if paused:
                gc.enable()

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
            paused = paused_for(text)
            try:
                return self.specials.encode_ids(self.model, text, allowed_special or frozenset(), disallowed)
            finally:
                if paused:
                    gc.enable()
        if not isinstance(text, str):
            raise TypeError("TextInputSequence must be str")
        ids = self._text_encoder().plain_ids(text) if self.truncation is None and self.padding is None else None
        if ids is not None and self.post_processor is not None:
            ids = self.post_processor.single_ids(ids, add_special_tokens)
        return ids if ids is not None else self.encode(text, add_special_tokens=add_special_tokens).ids

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


def _trainers() -> ModuleType:
    """hfcompat.trainers, imported when a tokenizer is first trained: with tqdm they are a third of
    the imports of a cold start, and loading or encoding needs none of them."""
    return importlib.import_module(".trainers", __package__)


def _chat_templates() -> ModuleType:
    """pipeline/chat_template.py, imported when a tokenizer first renders a conversation: loading
    and encoding need none of it."""
    return importlib.import_module(".pipeline.chat_template", __package__)


def _extension(name: str) -> Callable[..., Any]:
    """The function registered for a Tokenizer method, its package loaded on first use."""
    if name not in EXTENSIONS:
        importlib.import_module(EXTENDED_BY[name])
    return EXTENSIONS[name]
