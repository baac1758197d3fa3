"""Tokenizers trained at test time with `tokenizers`, one per component option, saved and reloaded.

Each case builds a pipeline in `tokenizers`, trains a small vocabulary (a few hundred entries) on
a slice of botchan plus the project's multilingual fixture, writes it with `save()`, and checks
that hfcompat.load() of that file encodes, decodes and re-serializes exactly like the oracle.
Together the cases use every normalizer, pre-tokenizer, model option, post-processor, decoder
and added-token flag that tokenizer.json can hold (Precompiled comes from the T5 reference).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, trainers
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P
from tokenizers import processors as PP

from .harness import assert_same_json, compare, subject

pytestmark = pytest.mark.conformance

VOCAB_SIZE = 500
TRAIN_LINES = 800  # of botchan, plus every fixture line
TEXTS_PER_CORPUS = 30
SPECIALS = ["[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]", "<s>", "</s>"]
BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]


def default_added() -> list[AddedToken]:
    """Overlapping contents and every AddedToken flag, added after training."""
    return [
        AddedToken("ab"),
        AddedToken("abc"),
        AddedToken("bcd"),
        AddedToken("<mask>", special=True, lstrip=True, rstrip=True),
        AddedToken("the", single_word=True),
        AddedToken("Lighthouse", normalized=False),
        AddedToken("CASE", normalized=True),
        AddedToken("[CLS", special=True, normalized=False),
    ]


@dataclass
class Case:
    """One pipeline to train: components, model options and the tokens added afterwards."""

    model: str = "bpe"  # bpe | wordpiece | wordlevel | unigram
    normalizer: Any = None
    pre_tokenizer: Any = None
    post_processor: Callable[[Tokenizer], Any] | None = None  # built once the special ids exist
    decoder: Any = None
    model_options: dict = field(default_factory=dict)  # BPE(...) and BpeTrainer(...) prefix/suffix
    edit_model: dict = field(default_factory=dict)  # fields set in the trained model's JSON
    byte_tokens: bool = False  # add <0x00>..<0xFF> to the trained vocabulary
    added: Callable[[], list[AddedToken]] | None = default_added
    unk: bool = True


def bert_processing(tok: Tokenizer) -> Any:
    """BertProcessing with the trained [SEP]/[CLS] ids."""
    return PP.BertProcessing(("[SEP]", tok.token_to_id("[SEP]")), ("[CLS]", tok.token_to_id("[CLS]")))


def bert_template(tok: Tokenizer) -> Any:
    """TemplateProcessing with BERT's layout and type ids."""
    return PP.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))],
    )


def unusual_template(tok: Tokenizer) -> Any:
    """Template with a multi-id special token, $0/$1 type ids and specials after the sequences."""
    sep, cls = tok.token_to_id("[SEP]"), tok.token_to_id("[CLS]")
    return PP.TemplateProcessing(
        single="$0 [SEP2] [CLS]:2",
        pair="[CLS]:3 $A:1 [SEP2]:1 $B:4 [SEP]:5",
        special_tokens=[
            {"id": "[SEP2]", "ids": [sep, sep], "tokens": ["[SEP]", "[SEP]"]},
            ("[CLS]", cls),
            ("[SEP]", sep),
        ],
    )


def roberta(trim_offsets: bool, add_prefix_space: bool) -> Callable[[Tokenizer], Any]:
    """RobertaProcessing factory with <s>/</s>."""

    def make(tok: Tokenizer) -> Any:
        return PP.RobertaProcessing(
            ("</s>", tok.token_to_id("</s>")),
            ("<s>", tok.token_to_id("<s>")),
            trim_offsets=trim_offsets,
            add_prefix_space=add_prefix_space,
        )

    return make


def bytelevel_then_template(tok: Tokenizer) -> Any:
    """Sequence of a ByteLevel offset trimmer and a RoBERTa-like template."""
    template = PP.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B:1 </s>:1",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))],
    )
    return PP.Sequence([PP.ByteLevel(trim_offsets=True), template])


def fixed(processor: Any) -> Callable[[Tokenizer], Any]:
    """A post-processor that needs no ids."""
    return lambda tok: processor


def lowercase_added() -> list[AddedToken]:
    """Added tokens whose match depends on normalization."""
    return [
        AddedToken("HeLLo", normalized=True),
        AddedToken("WORLD", normalized=False),
        AddedToken("cat", single_word=True, lstrip=True),
        AddedToken("éa", normalized=True),
        AddedToken("[MASK]", special=True, lstrip=True),
    ]


LLAMA_DECODER = decoders.Sequence(
    [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
)

CASES: dict[str, Case] = {
    # BERT normalizer variants
    "bert-wordpiece": Case(
        "wordpiece", N.BertNormalizer(), P.BertPreTokenizer(), bert_processing, decoders.WordPiece()
    ),
    "bert-strip-accents-cased": Case(
        "wordpiece",
        N.BertNormalizer(strip_accents=True, lowercase=False),
        P.BertPreTokenizer(),
        bert_template,
        decoders.WordPiece(prefix="##", cleanup=False),
    ),
    "bert-keep-accents-lowercase": Case("bpe", N.BertNormalizer(strip_accents=False, lowercase=True), P.Whitespace()),
    "bert-no-clean-no-chinese": Case(
        "wordlevel",
        N.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=None, lowercase=False),
        P.WhitespaceSplit(),
    ),
    # Unicode and other normalizers
    "nfc-metaspace": Case(
        "bpe", N.NFC(), P.Metaspace(replacement="▁", prepend_scheme="always", split=True),
        decoder=decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True),
    ),
    "nfd-unigram": Case("unigram", N.NFD(), P.Whitespace()),
    "nfkc-bytelevel": Case(
        "bpe", N.NFKC(), P.ByteLevel(add_prefix_space=False), fixed(PP.ByteLevel(trim_offsets=True)),
        decoders.ByteLevel(),
    ),
    "nfkd-strip-accents-lowercase": Case(
        "wordpiece", N.Sequence([N.NFKD(), N.StripAccents(), N.Lowercase()]), P.Whitespace(),
        decoder=decoders.WordPiece(),
    ),
    "nfd-strip-accents": Case("bpe", N.Sequence([N.NFD(), N.StripAccents()]), P.BertPreTokenizer()),
    "lowercase": Case("wordlevel", N.Lowercase(), P.WhitespaceSplit(), added=lowercase_added),
    "strip-left": Case("bpe", N.Strip(left=True, right=False), P.Metaspace(replacement="▁", prepend_scheme="always")),
    "strip-right-metaspace-first": Case(
        "unigram", N.Strip(left=False, right=True), P.Metaspace(replacement="▁", prepend_scheme="first"),
        decoder=decoders.Metaspace(replacement="▁", prepend_scheme="first"),
    ),
    "strip-both-nfc": Case("bpe", N.Sequence([N.Strip(), N.NFC()]), P.BertPreTokenizer()),
    "replace-string": Case("bpe", N.Replace("e", "ë"), P.Whitespace(), added=lowercase_added),
    "replace-regex": Case(
        "bpe", N.Sequence([N.Replace(Regex(r"\s+"), " "), N.Replace(Regex(r"\d"), "<D>"), N.Lowercase()]),
        P.WhitespaceSplit(),
    ),
    "prepend": Case("wordlevel", N.Prepend(">>"), P.Whitespace()),
    "bytelevel-normalizer": Case(
        "bpe", N.ByteLevel(), P.Split(Regex("Ġ"), "merged_with_next"), decoder=decoders.ByteLevel()
    ),
    "nmt-nfkc-metaspace-never": Case(
        "unigram", N.Sequence([N.Nmt(), N.NFKC()]), P.Metaspace(replacement="▁", prepend_scheme="never"),
        decoder=decoders.Metaspace(replacement="▁", prepend_scheme="never"),
    ),
    # pre-tokenizers
    "bytelevel-prefix": Case(
        "bpe", None, P.ByteLevel(add_prefix_space=True), fixed(PP.ByteLevel(trim_offsets=True)), decoders.ByteLevel()
    ),
    "bytelevel-no-regex": Case(
        "bpe", None, P.ByteLevel(add_prefix_space=False, use_regex=False), fixed(PP.ByteLevel(trim_offsets=False)),
        decoders.ByteLevel(), added=None,
    ),
    "roberta-trim": Case("bpe", None, P.ByteLevel(add_prefix_space=True), roberta(True, True), decoders.ByteLevel()),
    "roberta-no-trim": Case(
        "bpe", None, P.ByteLevel(add_prefix_space=False), roberta(False, False), decoders.ByteLevel()
    ),
    "metaspace-never-no-split": Case(
        "bpe", None, P.Metaspace(replacement="▁", prepend_scheme="never", split=False),
        decoder=decoders.Metaspace(replacement="▁", prepend_scheme="never", split=False),
    ),
    "metaspace-always-no-split": Case(
        "bpe", None, P.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    ),
    **{
        f"split-string-{b}": Case("bpe", None, P.Split(" ", b), decoder=decoders.Fuse())
        for b in BEHAVIORS
    },
    **{
        f"split-regex-{b}": Case("bpe", N.NFC(), P.Split(Regex(r"\s+|[,.;:!?]"), b))
        for b in BEHAVIORS
    },
    "split-regex-invert": Case(
        "bpe", None, P.Sequence([P.Split(Regex(r"'s|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+"), "removed", invert=True),
                                 P.ByteLevel(add_prefix_space=False)]),
        decoder=decoders.ByteLevel(),
    ),
    "split-string-invert": Case("bpe", None, P.Split("e", "isolated", invert=True)),
    "digits-individual": Case("bpe", None, P.Sequence([P.WhitespaceSplit(), P.Digits(individual_digits=True)])),
    "digits-contiguous": Case("wordpiece", None, P.Digits(individual_digits=False)),
    **{f"punctuation-{b}": Case("bpe", None, P.Punctuation(b)) for b in BEHAVIORS},
    "char-delimiter": Case("wordlevel", None, P.CharDelimiterSplit(" ")),
    "unicode-scripts": Case("bpe", None, P.UnicodeScripts()),
    "fixed-length": Case("wordpiece", None, P.FixedLength(length=4)),
    "sequence": Case(
        "bpe", None, P.Sequence([P.WhitespaceSplit(), P.Punctuation("isolated"), P.Digits(individual_digits=True)])
    ),
    # model options
    "bpe-prefix": Case(
        "bpe", None, P.Whitespace(), decoder=decoders.WordPiece(prefix="##"),
        model_options={"continuing_subword_prefix": "##"},
    ),
    "bpe-suffix": Case(
        "bpe", N.Lowercase(), P.Whitespace(), decoder=decoders.BPEDecoder(suffix="</w>"),
        model_options={"end_of_word_suffix": "</w>"},
    ),
    "bpe-prefix-and-suffix": Case(
        "bpe", None, P.BertPreTokenizer(),
        model_options={"continuing_subword_prefix": "@@", "end_of_word_suffix": "</w>"},
    ),
    "bpe-byte-fallback-llama": Case(
        "bpe", N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]), None, decoder=LLAMA_DECODER,
        edit_model={"byte_fallback": True, "fuse_unk": True}, byte_tokens=True,
    ),
    "bpe-fuse-unk": Case("bpe", None, P.Whitespace(), edit_model={"fuse_unk": True}),
    "bpe-ignore-merges": Case(
        "bpe", None, P.ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel(),
        edit_model={"ignore_merges": True},
    ),
    "bpe-no-unk": Case("bpe", None, P.Whitespace(), unk=False),
    "wordpiece-short-words": Case(
        "wordpiece", N.BertNormalizer(), P.BertPreTokenizer(), bert_processing, decoders.WordPiece(),
        edit_model={"max_input_chars_per_word": 8},
    ),
    "wordlevel-ctc": Case(
        "wordlevel", None, P.WhitespaceSplit(),
        decoder=decoders.CTC(pad_token="[PAD]", word_delimiter_token="|", cleanup=True),
    ),
    "unigram-byte-fallback": Case(
        "unigram", None, P.Metaspace(replacement="▁"), decoder=LLAMA_DECODER,
        edit_model={"byte_fallback": True}, byte_tokens=True,
    ),
    "unigram-no-unk": Case("unigram", None, P.Whitespace(), unk=False),
    # post-processors and decoders
    "template-unusual": Case("wordpiece", None, P.BertPreTokenizer(), unusual_template, decoders.WordPiece()),
    "processor-sequence": Case(
        "bpe", None, P.ByteLevel(add_prefix_space=True), bytelevel_then_template, decoders.ByteLevel()
    ),
    "decoder-replace-strip-fuse": Case(
        "wordlevel", None, P.Whitespace(),
        decoder=decoders.Sequence(
            [decoders.Replace("e", "E"), decoders.Replace(Regex(r"[aeiou]{2}"), "_"),
             # right-stripping an empty token panics in tokenizers, so it runs while none is empty
             decoders.Strip(content="s", left=0, right=1), decoders.Strip(content="t", left=2, right=0),
             decoders.Fuse()]
        ),
    ),
}


# ---------------------------------------------------------------- building


def make_model_and_trainer(case: Case) -> tuple[Any, Any]:
    """An untrained model of the case's type and the trainer that fills it."""
    unk = "[UNK]" if case.unk else None
    common = {"vocab_size": VOCAB_SIZE, "special_tokens": SPECIALS, "show_progress": False}
    if case.model == "bpe":
        return models.BPE(unk_token=unk, **case.model_options), trainers.BpeTrainer(**common, **case.model_options)
    if case.model == "wordpiece":
        return models.WordPiece(unk_token="[UNK]"), trainers.WordPieceTrainer(**common)
    if case.model == "wordlevel":
        return models.WordLevel(unk_token="[UNK]"), trainers.WordLevelTrainer(**common)
    return models.Unigram(), trainers.UnigramTrainer(**common, unk_token=unk)


def with_byte_tokens(model: dict) -> None:
    """Append the 256 <0xHH> pieces a byte-fallback model needs (in place)."""
    pieces = [f"<0x{b:02X}>" for b in range(256)]
    if model["type"] == "Unigram":
        known = {piece for piece, _ in model["vocab"]}
        model["vocab"].extend([piece, -20.0] for piece in pieces if piece not in known)
    else:
        for piece in pieces:
            model["vocab"].setdefault(piece, len(model["vocab"]))


def train(case: Case, lines: list[str]) -> Tokenizer:
    """Build, train and finish one case's tokenizer in `tokenizers`."""
    model, trainer = make_model_and_trainer(case)
    tok = Tokenizer(model)
    if case.normalizer is not None:
        tok.normalizer = case.normalizer
    if case.pre_tokenizer is not None:
        tok.pre_tokenizer = case.pre_tokenizer
    tok.train_from_iterator(lines, trainer)
    if case.edit_model or case.byte_tokens:
        data = json.loads(tok.to_str())
        data["model"].update(case.edit_model)
        if case.byte_tokens:
            with_byte_tokens(data["model"])
        tok = Tokenizer.from_str(json.dumps(data))
    if case.post_processor is not None:
        tok.post_processor = case.post_processor(tok)
    if case.decoder is not None:
        tok.decoder = case.decoder
    if case.added is not None:
        tok.add_tokens(case.added())
    return tok


@dataclass
class Built:
    """A trained oracle, the file it saved, and (once loaded) the subject's tokenizer."""

    oracle: Tokenizer
    path: Path
    ours: Any = None


@pytest.fixture(scope="module")
def training_lines(corpora, multilingual) -> list[str]:
    """The training text: a slice of botchan and the fixture."""
    return corpora("botchan", TRAIN_LINES) + multilingual


@pytest.fixture(scope="module")
def test_texts(mixed) -> list[str]:
    """What every case is checked on: lines of each corpus and the fixture texts."""
    return mixed(TEXTS_PER_CORPUS)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, training_lines: list[str]) -> Callable[[str], Built]:
    """Train each case once per module; built(name) also loads it in the subject, once."""
    cache: dict[str, Built] = {}

    def get(name: str, load: bool = True) -> Built:
        if name not in cache:
            path = tmp_path_factory.mktemp(name) / "tokenizer.json"
            train(CASES[name], training_lines).save(str(path))
            # The file is the reference: a freshly trained Unigram can break score ties
            # differently from the same model read back from its JSON.
            cache[name] = Built(Tokenizer.from_file(str(path)), path)
        entry = cache[name]
        if load and entry.ours is None:
            entry.ours = subject().load(entry.path)
        return entry

    return get


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("name", list(CASES))
def test_trained_parity(built, test_texts: list[str], name: str) -> None:
    """The saved file loads in hfcompat and encodes/decodes like tokenizers (singles and pairs)."""
    entry = built(name)
    compare(entry.oracle, entry.ours, test_texts, pairs=True, label=name)


@pytest.mark.parametrize("name", list(CASES))
def test_trained_to_str(built, name: str) -> None:
    """hfcompat writes back the document tokenizers wrote."""
    entry = built(name)
    assert_same_json(entry.oracle.to_str(), entry.ours.to_str(), label=name)


def test_matrix_covers_every_component(built) -> None:
    """Every component type tokenizers can serialize appears in at least one case's file."""
    seen: set[str] = set()

    def walk(node: Any, section: str) -> None:
        if isinstance(node, dict):
            if "type" in node:
                seen.add(f"{section}:{node['type']}")
            for key, value in node.items():
                if key != "vocab":
                    walk(value, section)
        elif isinstance(node, list):
            for value in node:
                walk(value, section)

    for name in CASES:
        data = json.loads(built(name, load=False).oracle.to_str())
        for section in ("normalizer", "pre_tokenizer", "post_processor", "decoder", "model"):
            walk(data[section], section)
    expected = {
        *(f"normalizer:{t}" for t in ("BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Strip",
                                       "StripAccents", "Replace", "Prepend", "ByteLevel", "Nmt", "Sequence")),
        *(f"pre_tokenizer:{t}" for t in ("BertPreTokenizer", "ByteLevel", "Whitespace", "WhitespaceSplit",
                                          "Metaspace", "Split", "Digits", "Punctuation", "CharDelimiterSplit",
                                          "UnicodeScripts", "FixedLength", "Sequence")),
        *(f"model:{t}" for t in ("BPE", "WordPiece", "WordLevel", "Unigram")),
        *(f"post_processor:{t}" for t in ("TemplateProcessing", "BertProcessing", "RobertaProcessing",
                                           "ByteLevel", "Sequence")),
        *(f"decoder:{t}" for t in ("ByteLevel", "WordPiece", "Metaspace", "BPEDecoder", "ByteFallback", "Fuse",
                                    "Strip", "Replace", "CTC", "Sequence")),
    }
    assert expected <= seen, sorted(expected - seen)
