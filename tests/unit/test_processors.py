"""hfcompat.processors, truncation and padding against tokenizers 0.23.3.

The oracle encodes with a post-processor, truncation and padding set. hfcompat gets
what the oracle's model produced for each sequence alone (the same tokenizer with
none of the three, without specials), runs `post_process` (truncate, post-process,
pad) and must give the same Encoding: every field, sequence range and overflowing
part. JSON forms, the Python template syntax and the error cases are compared too.
"""

from __future__ import annotations

import gc
import json
import os
import weakref
from functools import lru_cache
from typing import Any

import pytest
from conftest import shared_file
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Encoding as HfEncoding
from tokenizers import Regex, Tokenizer, models, pre_tokenizers
from tokenizers import processors as hf_processors

from hfcompat import processors
from hfcompat.pipeline.bytelevel import BYTE_TO_CHAR
from hfcompat.encoding import Encoding
from hfcompat.errors import FormatError, TokenizationError
from hfcompat.pipeline.padding import BATCH_LONGEST, Fixed, PaddingParams, pad_encodings
from hfcompat.processors import post_process
from hfcompat.pipeline.truncation import TruncationParams, check_stride

# The oracle panics on purpose in some tests; its backtraces would only add noise.
os.environ["RUST_BACKTRACE"] = "0"


TEXTS = [
    "Hello, how are  you?",
    "a  b",
    "  leading and trailing  ",
    "",
    " ",
    "日本語のテキスト\u3000と 空白",
    "emoji 🤗 and é",
    "tabs\tand\nnew lines",
    "x",
    "The quick brown fox jumps over the lazy dog, then sleeps in the sun all day long.",
]
PAIRS = [(text, None) for text in TEXTS] + [
    (TEXTS[0], TEXTS[1]), (TEXTS[2], TEXTS[5]), (TEXTS[3], TEXTS[0]), (TEXTS[0], TEXTS[3]),
    (TEXTS[9], TEXTS[6]), (TEXTS[4], TEXTS[4]), (TEXTS[9], TEXTS[2]),
]


# --------------------------------------------------------------------------- oracle tokenizers


def _dumps(value: Any) -> str:
    """Compact JSON with keys in their order, as serde_json writes it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _words_base() -> dict:
    """WordLevel over pieces that keep their spaces (" are  ", "\u3000"), vocab from TEXTS."""
    split = pre_tokenizers.Split(Regex(r"\s?\S+\s*|\s+"), behavior="isolated")
    pieces = {piece for text in TEXTS for piece, _ in split.pre_tokenize_str(text)}
    vocab = {token: i for i, token in enumerate(["[UNK]"] + sorted(pieces))}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = split
    return json.loads(tok.to_str())


def _bytes_base() -> dict:
    """A tiny byte-level BPE (GPT-2 alphabet, a few merges making "ĠĠ", "Ġthe", "eĠ")."""
    alphabet = sorted(set(BYTE_TO_CHAR.values()))
    merges = [("Ġ", "Ġ"), ("ĠĠ", "ĠĠ"), ("Ġ", "t"), ("Ġt", "h"), ("Ġth", "e"), ("e", "Ġ"),
              ("o", "w")]
    vocab = {token: i for i, token in enumerate(alphabet + ["".join(m) for m in merges])}
    tok = Tokenizer(models.BPE(vocab, merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    return json.loads(tok.to_str())


@lru_cache(maxsize=None)
def _ref_text(name: str) -> str:
    """The text of a reference tokenizer.json of ../shared (skips when absent)."""
    return shared_file(f"refs/{name}/tokenizer.json").read_text(encoding="utf-8")


def _ref_json(name: str) -> dict:
    """A fresh parse of a reference tokenizer.json."""
    return json.loads(_ref_text(name))


@lru_cache(maxsize=None)
def _ref_processor(name: str) -> str:
    """The post_processor section of a reference tokenizer.json, as JSON text."""
    return _dumps(_ref_json(name)["post_processor"])


@lru_cache(maxsize=None)
def base_json(base: str) -> str:
    """The tokenizer.json text of a base tokenizer with no post-processor, truncation or padding."""
    data = {"words": _words_base, "bytes": _bytes_base}.get(base)
    data = data() if data else _ref_json(base)
    data.update(post_processor=None, truncation=None, padding=None)
    return _dumps(data)


@lru_cache(maxsize=None)
def hf_tokenizer(base: str, processor: str = "null", truncation: str = "null",
                 padding: str = "null") -> Tokenizer:
    """The oracle: a base tokenizer with these JSON sections."""
    data = json.loads(base_json(base))
    data.update(post_processor=json.loads(processor), truncation=json.loads(truncation),
                padding=json.loads(padding))
    return Tokenizer.from_str(_dumps(data))


@lru_cache(maxsize=None)
def model_state(base: str, text: str) -> str:
    """What the oracle's pipeline hands to post-processing for one sequence (as HF state JSON)."""
    return hf_tokenizer(base).encode(text).__getstate__().decode()


def model_encoding(base: str, text: str | None, type_id: int) -> Encoding | None:
    """Our input: the oracle's model output for `text`, type ids set to the sequence index."""
    if text is None:
        return None
    encoding = Encoding.from_state(json.loads(model_state(base, text)))
    encoding.type_ids = [type_id] * len(encoding.ids)
    return encoding


def hf_json_of(processor: Any) -> dict:
    """The tokenizer.json form the oracle writes for one of its processor objects."""
    tok = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tok.post_processor = processor
    return json.loads(tok.to_str())["post_processor"]


def _run(action: Any) -> Any:
    """The value of action(), or ("error", message) when it raises (HF panics included)."""
    try:
        return action()
    except BaseException as error:  # pyo3's PanicException is a BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return ("error", str(error))


# --------------------------------------------------------------------------- processor configs


def _hand_written() -> dict[str, Any]:
    """Processors built with the oracle's Python API (their JSON feeds both sides)."""
    bert = hf_processors.BertProcessing(("[SEP]", 102), ("[CLS]", 101))
    tmpl_bert = hf_processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 101), ("[SEP]", 102)])
    return {
        "bert": bert,
        "roberta_default": hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0)),
        "roberta_no_prefix": hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0),
                                                             add_prefix_space=False),
        "roberta_no_trim": hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0),
                                                           trim_offsets=False),
        "bytelevel": hf_processors.ByteLevel(),
        "bytelevel_no_prefix": hf_processors.ByteLevel(add_prefix_space=False),
        "bytelevel_no_trim": hf_processors.ByteLevel(trim_offsets=False, use_regex=False),
        "tmpl_bert": tmpl_bert,
        "tmpl_types": hf_processors.TemplateProcessing(single="$0", pair="$A:3 $B:7"),
        "tmpl_multi": hf_processors.TemplateProcessing(
            single="[M] $A:2 [E]:1", pair="$B:1 [M]:4 $A [E]",
            special_tokens=[{"id": "[M]", "ids": [7, 8, 9], "tokens": ["<m1>", "<m2>", "<m3>"]},
                            (5, "[E]")]),
        "tmpl_repeat": hf_processors.TemplateProcessing(
            single="$A [E] $a:5", pair="$A $B:1 $2 [E]", special_tokens=[("[E]", 5)]),
        "tmpl_default": hf_processors.TemplateProcessing(),
        "seq_bytelevel_template": hf_processors.Sequence([hf_processors.ByteLevel(), tmpl_bert]),
        # trimming after [CLS]: the first real token is not at index 0 but starts at offset 0
        "seq_template_bytelevel": hf_processors.Sequence([tmpl_bert, hf_processors.ByteLevel()]),
        "seq_roberta_bert": hf_processors.Sequence(
            [hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0)), bert]),
        "seq_empty": hf_processors.Sequence([]),
    }


HAND_WRITTEN = {name: _dumps(hf_json_of(p)) for name, p in _hand_written().items()}
REF_NAMES = ["roberta-base", "gpt2", "t5", "phi-3-mini", "whisper-large-v3", "clip"]
PROCESSOR_NAMES = ["none"] + list(HAND_WRITTEN) + [f"ref:{name}" for name in REF_NAMES]


def processor_json(name: str) -> str:
    """The JSON text of a named processor config ("null" for none)."""
    if name == "none":
        return "null"
    if name.startswith("ref:"):
        return _ref_processor(name[4:])
    return HAND_WRITTEN[name]


def our_processor(name: str) -> processors.PostProcessor | None:
    """hfcompat's processor read from the same JSON."""
    data = json.loads(processor_json(name))
    return None if data is None else processors.from_dict(data)


# --------------------------------------------------------------------------- the comparison


def compare(base: str, pair: tuple[str, str | None], add_special_tokens: bool,
            processor: str = "none", truncation: dict | None = None,
            padding: dict | None = None) -> None:
    """Encode with the oracle and with hfcompat's post_process; results or errors must match."""
    hf = hf_tokenizer(base, processor_json(processor), _dumps(truncation), _dumps(padding))
    first, second = pair
    expected = _run(lambda: json.loads(
        hf.encode(first, second, add_special_tokens=add_special_tokens).__getstate__()))

    def ours() -> dict:
        result = post_process(
            model_encoding(base, first, 0), model_encoding(base, second, 1), add_special_tokens,
            processor=our_processor(processor),
            truncation=None if truncation is None else TruncationParams.from_dict(truncation),
            padding=None if padding is None else PaddingParams.from_dict(padding))
        return result.to_state()

    if isinstance(expected, tuple):
        with pytest.raises(TokenizationError) as info:
            ours()
        assert str(info.value) == expected[1]
    else:
        assert ours() == expected


BASES = ["words", "bytes", "roberta-base"]


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("processor", PROCESSOR_NAMES)
@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_post_processing(base: str, processor: str, add_special_tokens: bool) -> None:
    for pair in PAIRS:
        compare(base, pair, add_special_tokens, processor)


# --------------------------------------------------------------------------- truncation


def _truncations() -> list[dict]:
    return [{"direction": direction, "max_length": max_length, "strategy": strategy,
             "stride": stride}
            for max_length in (0, 1, 3, 4, 9, 40)
            for stride in (0, 2)
            for strategy in ("LongestFirst", "OnlyFirst", "OnlySecond")
            for direction in ("Right", "Left")]


TRUNCATIONS = _truncations()
# Byte-level tokens are many: shorter texts there keep HF's overflow combinations small.
TRUNCATION_PAIRS = {
    "words": [(TEXTS[9], None), (TEXTS[9], TEXTS[0]), (TEXTS[0], TEXTS[9]), (TEXTS[2], TEXTS[6]),
              (TEXTS[3], TEXTS[9])],
    "bytes": [(TEXTS[0], None), (TEXTS[0], TEXTS[6]), (TEXTS[8], TEXTS[2]), (TEXTS[3], TEXTS[0])],
}


# A sequence used twice in a template multiplies the overflowing parts (HF makes every
# combination, nested): on the long byte-level pair that is 350 MB, so only words there.
TRUNCATION_CASES = [(processor, base)
                    for processor in ("none", "bert", "roberta_default", "bytelevel", "tmpl_multi",
                                      "tmpl_repeat", "seq_bytelevel_template")
                    for base in ("words", "bytes")
                    if (processor, base) != ("tmpl_repeat", "bytes")]


@pytest.mark.parametrize("processor,base", TRUNCATION_CASES)
def test_truncation(processor: str, base: str) -> None:
    for truncation in TRUNCATIONS:
        if processor == "tmpl_repeat" and truncation["stride"]:
            continue  # the slowest case: its stride windows are covered by the others
        for pair in TRUNCATION_PAIRS[base]:
            for add_special_tokens in (True, False):
                compare(base, pair, add_special_tokens, processor, truncation)


@pytest.mark.parametrize("truncation,pair,message", [
    ({"max_length": 3, "strategy": "OnlySecond", "stride": 0}, (TEXTS[9], None),
     "Truncation error: Second sequence not provided"),
    ({"max_length": 8, "strategy": "OnlyFirst", "stride": 0}, (TEXTS[0], TEXTS[9]),
     "Truncation error: Sequence to truncate too short to respect the provided max_length"),
    ({"max_length": 5, "strategy": "LongestFirst", "stride": 2}, (TEXTS[9], TEXTS[0]),
     "`stride` must be strictly less than `max_len=1`"),
])
def test_truncation_errors_carry_hf_messages(truncation: dict, pair: tuple, message: str) -> None:
    hf = hf_tokenizer("words", processor_json("bert"), _dumps(truncation))
    expected = _run(lambda: hf.encode(*pair))
    assert isinstance(expected, tuple) and expected[1].startswith(message)
    with pytest.raises(TokenizationError) as info:
        post_process(model_encoding("words", pair[0], 0), model_encoding("words", pair[1], 1),
                     processor=our_processor("bert"),
                     truncation=TruncationParams.from_dict(truncation))
    assert str(info.value) == expected[1]


@pytest.mark.parametrize("processor", ["none", "bert", "roberta_default", "tmpl_multi",
                                       "tmpl_types", "seq_roberta_bert"])
def test_check_stride_matches_enable_truncation(processor: str) -> None:
    hf = hf_tokenizer("words", processor_json(processor))
    ours = our_processor(processor)
    added = 0 if ours is None else ours.added_tokens(False)
    for max_length in range(0, 9):
        for stride in range(0, 9):
            expected = _run(lambda: hf.enable_truncation(max_length, stride=stride))
            got = _run(lambda: check_stride(TruncationParams(max_length, stride), added))
            assert got == expected, (max_length, stride)


def test_truncation_params_json() -> None:
    tok = Tokenizer.from_str(base_json("words"))
    for truncation in [t for t in TRUNCATIONS if t["stride"] < t["max_length"]]:
        tok.enable_truncation(truncation["max_length"], stride=truncation["stride"],
                              strategy=TruncationParams(**truncation).to_python()["strategy"],
                              direction=truncation["direction"].lower())
        written = json.loads(tok.to_str())["truncation"]
        params = TruncationParams.from_dict(written)
        assert _dumps(params.to_dict()) == _dumps(written)
        assert params.to_python() == tok.truncation
    legacy = TruncationParams.from_dict({"max_length": 9, "strategy": "OnlyFirst", "stride": 1})
    assert legacy.direction == "Right"


@pytest.mark.parametrize("kwargs", [{"strategy": "first"}, {"direction": "up"},
                                    {"strategy": "only_second", "direction": "LEFT"}])
def test_truncation_params_python_errors(kwargs: dict) -> None:
    tok = Tokenizer.from_str(base_json("words"))
    expected = _run(lambda: tok.enable_truncation(5, **kwargs))
    assert isinstance(expected, tuple)
    assert _run(lambda: TruncationParams(5, **kwargs)) == expected
    # unlike enable_truncation, the params also take the JSON spellings
    assert TruncationParams(5, strategy="OnlySecond", direction="Left").to_python() == {
        "max_length": 5, "stride": 0, "strategy": "only_second", "direction": "left"}


@pytest.mark.parametrize("data,field", [
    ({"max_length": 5, "strategy": "LongestFirst"}, "stride"),
    ({"max_length": 5, "stride": 0}, "strategy"),
    ({"strategy": "LongestFirst", "stride": 0}, "max_length"),
    ({"max_length": 5, "stride": 0, "strategy": "longest_first"}, "strategy"),
    ({"max_length": 5, "stride": 0, "strategy": "OnlyFirst", "direction": "right"}, "direction"),
    ({"max_length": -1, "stride": 0, "strategy": "OnlyFirst"}, "max_length"),
    ({"max_length": 5.0, "stride": 0, "strategy": "OnlyFirst"}, "max_length"),
])
def test_truncation_params_json_errors(data: dict, field: str) -> None:
    wrapper = json.loads(base_json("words"))
    wrapper["truncation"] = data
    with pytest.raises(Exception):
        Tokenizer.from_str(_dumps(wrapper))
    with pytest.raises(FormatError) as info:
        TruncationParams.from_dict(data)
    assert info.value.field == field


# --------------------------------------------------------------------------- padding


def _paddings() -> list[dict]:
    return [{"strategy": strategy, "direction": direction, "pad_to_multiple_of": multiple,
             "pad_id": 3, "pad_type_id": pad_type_id, "pad_token": "<pad>"}
            for strategy in ("BatchLongest", {"Fixed": 4}, {"Fixed": 30})
            for direction in ("Right", "Left")
            for multiple in (None, 0, 8)
            for pad_type_id in (0, 2)]


PADDINGS = _paddings()
BATCHES = [[TEXTS[0]], [TEXTS[0], TEXTS[9], TEXTS[3]], [(TEXTS[0], TEXTS[1]), TEXTS[9]], []]


def our_batch(base: str, batch: list, add_special_tokens: bool, processor: str,
              truncation: dict | None, padding: dict) -> list[dict]:
    """What a tokenizer's encode_batch does: encode each (padding it alone), then pad the batch."""
    params = PaddingParams.from_dict(padding)
    encodings = []
    for item in batch:
        first, second = item if isinstance(item, tuple) else (item, None)
        encodings.append(post_process(
            model_encoding(base, first, 0), model_encoding(base, second, 1), add_special_tokens,
            processor=our_processor(processor),
            truncation=None if truncation is None else TruncationParams.from_dict(truncation),
            padding=params))
    pad_encodings(encodings, params)
    return [encoding.to_state() for encoding in encodings]


@pytest.mark.parametrize("processor", ["none", "bert", "tmpl_multi", "roberta_default"])
@pytest.mark.parametrize("truncation", [None, {"direction": "Right", "max_length": 12,
                                               "strategy": "LongestFirst", "stride": 2}])
def test_padding_in_batches(processor: str, truncation: dict | None) -> None:
    for padding in PADDINGS:
        hf = hf_tokenizer("words", processor_json(processor), _dumps(truncation), _dumps(padding))
        for batch in BATCHES:
            for add_special_tokens in (True, False):
                expected = [json.loads(e.__getstate__())
                            for e in hf.encode_batch(batch, add_special_tokens=add_special_tokens)]
                assert our_batch("words", batch, add_special_tokens, processor, truncation,
                                 padding) == expected, (padding, batch)


@pytest.mark.parametrize("padding", PADDINGS[::5])
def test_single_encode_padding(padding: dict) -> None:
    for pair in PAIRS[::3]:
        compare("words", pair, True, "bert", None, padding)


def test_padding_params_json() -> None:
    tok = Tokenizer.from_str(base_json("words"))
    for padding in PADDINGS:
        params = PaddingParams.from_dict(padding)
        tok.enable_padding(direction=padding["direction"].lower(), pad_id=params.pad_id,
                           pad_type_id=params.pad_type_id, pad_token=params.pad_token,
                           length=params.length, pad_to_multiple_of=params.pad_to_multiple_of)
        written = json.loads(tok.to_str())["padding"]
        assert _dumps(params.to_dict()) == _dumps(written)
        assert params.to_python() == tok.padding
    assert PaddingParams(Fixed(5), "left").to_dict()["strategy"] == {"Fixed": 5}
    assert PaddingParams().strategy == BATCH_LONGEST
    assert PaddingParams.from_dict({k: v for k, v in PADDINGS[0].items()
                                    if k != "pad_to_multiple_of"}).pad_to_multiple_of is None


@pytest.mark.parametrize("change,field", [
    ({"direction": None}, "direction"),
    ({"direction": "right"}, "direction"),
    ({"strategy": "Fixed"}, "strategy"),
    ({"strategy": {"Fixed": -2}}, "strategy.Fixed"),
    ({"pad_id": "0"}, "pad_id"),
    ({"pad_token": None}, "pad_token"),
    ({"pad_type_id": None}, "pad_type_id"),
])
def test_padding_params_json_errors(change: dict, field: str) -> None:
    data = {k: v for k, v in dict(PADDINGS[0], **change).items() if v is not None}
    wrapper = json.loads(base_json("words"))
    wrapper["padding"] = data
    with pytest.raises(Exception):
        Tokenizer.from_str(_dumps(wrapper))
    with pytest.raises(FormatError) as info:
        PaddingParams.from_dict(data)
    assert info.value.field == field


# --------------------------------------------------------------------------- JSON forms


@pytest.mark.parametrize("name", PROCESSOR_NAMES[1:])
def test_json_round_trip(name: str) -> None:
    text = processor_json(name)
    ours = processors.from_dict(json.loads(text))
    hf_text = _dumps(json.loads(hf_tokenizer("words", text).to_str())["post_processor"])
    assert _dumps(ours.to_dict()) == hf_text
    reread = hf_tokenizer("words", _dumps(ours.to_dict())).to_str()
    assert _dumps(json.loads(reread)["post_processor"]) == hf_text


@pytest.mark.parametrize("name", PROCESSOR_NAMES[1:])
def test_added_tokens(name: str) -> None:
    hf = hf_tokenizer("words", processor_json(name)).post_processor
    ours = our_processor(name)
    for is_pair in (False, True):
        assert ours.added_tokens(is_pair) == hf.num_special_tokens_to_add(is_pair)
        assert ours.num_special_tokens_to_add(is_pair) == ours.added_tokens(is_pair)


SHAPES = {
    "bert_no_type": {"sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
    "bert_unknown_type": {"type": "Foo", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
    "bert_fields_roberta_type": {"type": "RobertaProcessing", "sep": ["[SEP]", 102],
                                 "cls": ["[CLS]", 101]},
    "roberta_fields_bert_type": {"type": "BertProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                                 "trim_offsets": True, "add_prefix_space": False},
    "roberta_missing_field": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                              "trim_offsets": True},
    "bytelevel_no_type": {"add_prefix_space": True, "trim_offsets": True},
    "bytelevel_no_regex": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True},
    "bytelevel_missing": {"type": "ByteLevel", "add_prefix_space": True},
    "template_no_type": {"single": [{"Sequence": {"id": "A", "type_id": 0}}],
                         "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                  {"Sequence": {"id": "B", "type_id": 1}}],
                         "special_tokens": {}},
    "template_missing_specials": {"type": "TemplateProcessing",
                                  "single": [{"Sequence": {"id": "A", "type_id": 0}}], "pair": []},
    "template_bad_sequence": {"type": "TemplateProcessing",
                              "single": [{"Sequence": {"id": "C", "type_id": 0}}], "pair": [],
                              "special_tokens": {}},
    "template_bad_item": {"type": "TemplateProcessing", "single": [{"Foo": {}}], "pair": [],
                          "special_tokens": {}},
    "template_key_differs": {"type": "TemplateProcessing",
                             "single": [{"SpecialToken": {"id": "X", "type_id": 0}}],
                             "pair": [], "special_tokens": {"X": {"id": "Y", "ids": [1],
                                                                 "tokens": ["a"]}}},
    "sequence_no_type": {"processors": []},
    "sequence_nested": {"type": "Sequence", "processors": [
        {"type": "Sequence", "processors": [{"sep": ["[SEP]", 1], "cls": ["[CLS]", 2]}]}]},
    "sequence_bad_item": {"type": "Sequence", "processors": [{"type": "Foo"}]},
    "unknown": {"type": "Foo"},
    "empty": {},
    "float_id": {"type": "BertProcessing", "sep": ["[SEP]", 102.0], "cls": ["[CLS]", 101]},
    "negative_id": {"type": "BertProcessing", "sep": ["[SEP]", -1], "cls": ["[CLS]", 101]},
    "triple": {"type": "BertProcessing", "sep": ["[SEP]", 1, 2], "cls": ["[CLS]", 101]},
    "bool_flag_as_int": {"type": "ByteLevel", "add_prefix_space": 1, "trim_offsets": True},
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_untagged_reading_picks_hf_variant(name: str) -> None:
    data = SHAPES[name]
    expected = _run(lambda: json.loads(hf_tokenizer("words", _dumps(data)).to_str())
                    ["post_processor"])
    if isinstance(expected, tuple):
        with pytest.raises(FormatError):
            processors.from_dict(data)
    else:
        assert _dumps(processors.from_dict(data).to_dict()) == _dumps(expected)


@pytest.mark.parametrize("data,field", [
    ({"type": "RobertaProcessing", "sep": ["</s>", 2]}, "cls"),
    ({"type": "BertProcessing", "sep": ["[SEP]", 102]}, "cls"),
    ({"type": "ByteLevel", "add_prefix_space": True}, "trim_offsets"),
    ({"type": "TemplateProcessing", "single": [], "pair": []}, "special_tokens"),
    ({"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A"}}], "pair": [],
      "special_tokens": {}}, "single[0].Sequence.type_id"),
    ({"type": "TemplateProcessing", "single": [], "pair": [],
      "special_tokens": {"X": {"id": "X", "ids": ["1"], "tokens": ["x"]}}},
     "special_tokens.X.ids"),
    ({"type": "Sequence", "processors": [{"type": "ByteLevel"}]},
     "processors[0].add_prefix_space"),
    ({"type": "Foo"}, "type"),
])
def test_from_dict_errors_name_the_field(data: dict, field: str) -> None:
    with pytest.raises(FormatError) as info:
        processors.from_dict(data)
    assert info.value.field == field


def test_missing_special_token_at_process_time() -> None:
    data = SHAPES["template_key_differs"] | {"special_tokens": {}}
    hf = hf_tokenizer("words", _dumps(data))
    assert isinstance(_run(lambda: hf.encode("x")), tuple)  # the oracle panics
    ours = processors.from_dict(data)
    with pytest.raises(FormatError):
        ours.process(model_encoding("words", "x", 0))
    assert ours.process(model_encoding("words", "x", 0), add_special_tokens=False).ids == \
        hf.encode("x", add_special_tokens=False).ids


# --------------------------------------------------------------------------- the Python API


TEMPLATE_ARGS = [
    {},
    {"single": "[CLS] $A [SEP]", "pair": "[CLS] $A [SEP] $B:1 [SEP]:1",
     "special_tokens": [("[CLS]", 1), ("[SEP]", 2)]},
    {"single": ["[CLS]", "$0", "[SEP]"], "pair": ["[CLS]:0", "$A:0", "[SEP]:0", "$B:1", "[SEP]:1"],
     "special_tokens": [(1, "[CLS]"), (2, "[SEP]")]},
    {"single": "$", "pair": "$b $a"},
    {"single": "$7 $A:+3 $+4", "pair": "$B:0 $A:1"},
    {"single": "[X]:2 $a", "special_tokens": [("[X]", 1), ("[X]", 9)]},
    {"single": "[M] $A", "special_tokens": [{"id": "[M]", "ids": [1, 2], "tokens": ["a", "b"]}]},
    {"single": "$A  [X]", "special_tokens": [("[X]", 1)]},
    {"single": "$C"},
    {"single": "$A:x"},
    {"single": "$A:1:2"},
    {"single": "$A:-1"},
    {"single": "$A:4294967296"},
    {"single": "$٣"},
    {"pair": "$A $A"},
    {"pair": "$A"},
    {"single": "[Q] $A"},
    {"single": ""},
    {"single": "[M] $A", "special_tokens": [{"id": "[M]", "ids": [1, 2], "tokens": ["a"]}]},
    {"single": "[M] $A", "special_tokens": [{"ids": [1], "tokens": ["a"]}]},
]


@pytest.mark.parametrize("index", range(len(TEMPLATE_ARGS)))
def test_template_python_syntax(index: int) -> None:
    args = TEMPLATE_ARGS[index]
    expected = _run(lambda: hf_json_of(hf_processors.TemplateProcessing(**args)))
    got = _run(lambda: processors.TemplateProcessing(**args).to_dict())
    assert got == expected


PYTHON_BUILT = [
    (lambda m: m.BertProcessing(("[SEP]", 3), ("[CLS]", 4))),
    (lambda m: m.RobertaProcessing(("</s>", 3), ("<s>", 4), trim_offsets=False)),
    (lambda m: m.RobertaProcessing(("</s>", 3), ("<s>", 4))),
    (lambda m: m.ByteLevel(add_prefix_space=False)),
    (lambda m: m.ByteLevel()),
    (lambda m: m.Sequence([m.ByteLevel(trim_offsets=False), m.BertProcessing(("a", 1), ("b", 2))])),
]


@pytest.mark.parametrize("index", range(len(PYTHON_BUILT)))
def test_python_constructors(index: int) -> None:
    build = PYTHON_BUILT[index]
    assert _dumps(build(processors).to_dict()) == _dumps(hf_json_of(build(hf_processors)))


@pytest.mark.parametrize("processor", ["bert", "roberta_default", "bytelevel", "tmpl_multi",
                                       "tmpl_types", "seq_roberta_bert"])
def test_process_method(processor: str) -> None:
    """PostProcessor.process on encodings that already overflow, as HF's Python `process`."""
    hf = hf_tokenizer("words", processor_json(processor)).post_processor
    truncating = hf_tokenizer("words", truncation=_dumps(
        {"direction": "Left", "max_length": 3, "strategy": "LongestFirst", "stride": 1}))
    ours = our_processor(processor)
    for first, second in PAIRS:
        hf_first = truncating.encode(first)
        hf_second = None if second is None else truncating.encode(second)
        for add_special_tokens in (True, False):
            expected = hf.process(hf_first, hf_second, add_special_tokens=add_special_tokens)
            ours_first = Encoding.from_state(json.loads(hf_first.__getstate__()))
            ours_second = (None if hf_second is None
                           else Encoding.from_state(json.loads(hf_second.__getstate__())))
            before = ours_first.to_state()
            got = ours.process(ours_first, ours_second, add_special_tokens)
            assert got.to_state() == json.loads(expected.__getstate__())
            assert ours_first.to_state() == before  # process leaves its inputs alone


def test_process_offsets_documented_example() -> None:
    """FORMATS A.3: "a  b" through byte-level BPE with trim_offsets: Ġ(2,2) Ġ(3,3)."""
    hf = hf_tokenizer("bytes", processor_json("bytelevel"))
    expected = hf.encode("a  b")
    got = post_process(model_encoding("bytes", "a  b", 0), processor=our_processor("bytelevel"))
    assert got.offsets == expected.offsets and got.tokens == expected.tokens
    assert ("Ġ", (2, 2)) in list(zip(got.tokens, got.offsets))


@pytest.mark.parametrize("base", ["bytes", "roberta-base"])
@pytest.mark.parametrize("processor", ["bytelevel", "bytelevel_no_prefix", "roberta_default",
                                       "roberta_no_prefix"])
def test_trimming_pretokenized_words(base: str, processor: str) -> None:
    """Pre-tokenized words each start at offset 0: every one counts as first when trimming.

    HF joins the words' encodings without shifting offsets; its Python `encode` needs numpy
    for word lists, so the join is built here and handed to HF's `process`."""
    words = ["Hello", " there", "é", "  two", "x "]
    parts = []
    for index, word in enumerate(words):
        part = model_encoding(base, word, 0)
        part.word_ids = [index] * len(part.ids)
        parts.append(part)
    joined = Encoding.merge(parts, False)
    hf_input = HfEncoding()
    hf_input.__setstate__(_dumps(joined.to_state()).encode())
    expected = hf_tokenizer("words", processor_json(processor)).post_processor.process(hf_input)
    assert (our_processor(processor).process(joined).to_state()
            == json.loads(expected.__getstate__()))


@pytest.mark.parametrize("processor", ["bytelevel", "bytelevel_no_prefix", "roberta_default"])
def test_trimming_knows_rust_whitespace(processor: str) -> None:
    """One-char tokens of every space-like char: trimming empties exactly Rust's White_Space."""
    candidates = [chr(c) for c in range(0x3001) if chr(c).isspace()]
    candidates += ["\u180e", "\u200b", "\u2060", "\ufeff", "\x1c", "Ġ", "ĉ"]
    vocab = {c: i for i, c in enumerate(["[UNK]", "a"] + candidates)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), behavior="isolated")
    for text in ("a".join(candidates), "".join(candidates), " " + "  ".join(candidates)):
        raw = tok.encode(text)
        tok.post_processor = hf_processors.ByteLevel(add_prefix_space=processor == "bytelevel")
        if processor == "roberta_default":
            tok.post_processor = hf_processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
        expected = json.loads(tok.encode(text).__getstate__())
        tok.post_processor = None
        ours = Encoding.from_state(json.loads(raw.__getstate__()))
        assert post_process(ours, processor=our_processor(processor)).to_state() == expected


def test_default_process_keeps_a_single_encoding() -> None:
    encoding = model_encoding("words", TEXTS[0], 0)
    assert processors.default_process(encoding) is encoding


# --------------------------------------------------------------------------- real tokenizers


@pytest.mark.parametrize("name", REF_NAMES + ["falcon"])
def test_reference_tokenizers(name: str, corpora: Any) -> None:
    """Each reference tokenizer.json with its own model and post-processor, on corpus lines."""
    own = _ref_json(name)
    lines = corpora("botchan", 8) + corpora("taylorswift", 8) + corpora("pku_test", 4)
    lines = [line[:240] for line in lines]  # long pairs make thousands of overflow combinations
    pairs = [(line, None) for line in lines] + list(zip(lines[::2], lines[1::2]))
    truncations = [None, own.get("truncation"),
                   {"direction": "Right", "max_length": 24, "strategy": "LongestFirst",
                    "stride": 5},
                   {"direction": "Left", "max_length": 17, "strategy": "OnlyFirst", "stride": 3}]
    for truncation in truncations:
        for pair in pairs:
            for add_special_tokens in (True, False):
                compare(name, pair, add_special_tokens, f"ref:{name}", truncation)


# --------------------------------------------------------------------------- random input

text_strategy = st.text(st.characters(blacklist_categories=["Cs"]), max_size=24)


@pytest.mark.parametrize("base", ["bytes", "words", "roberta-base"])
@given(first=text_strategy, second=st.none() | text_strategy,
       processor=st.sampled_from([name for name in PROCESSOR_NAMES[:len(HAND_WRITTEN) + 1]
                                  if name != "tmpl_repeat"]),
       add_special_tokens=st.booleans(),
       truncation=st.none() | st.sampled_from(TRUNCATIONS),
       padding=st.none() | st.sampled_from(PADDINGS))
def test_random_text(base: str, first: str, second: str | None, processor: str,
                     add_special_tokens: bool, truncation: dict | None,
                     padding: dict | None) -> None:
    compare(base, (first, second), add_special_tokens, processor, truncation, padding)


# --------------------------------------------------------------------------- single layouts


def _has_no_layout(data: dict | None) -> bool:
    """Whether `process` alone can lay out a single sequence for this processor JSON: offsets it
    trims, chained steps, a single template without exactly one $A."""
    if data is None:
        return False
    if data["type"] == "Sequence" or data.get("trim_offsets"):
        return True
    if data["type"] == "TemplateProcessing":
        return [item["Sequence"]["id"] for item in data["single"] if "Sequence" in item] != ["A"]
    return False


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("processor", PROCESSOR_NAMES)
@pytest.mark.parametrize("add_special_tokens", [True, False])
def test_single_layout(base: str, processor: str, add_special_tokens: bool) -> None:
    """A post-processor's single layout packs one sequence's columns as the oracle post-processes
    it (what `Tokenizer.encode` relies on); the processors that trim offsets or chain steps have
    none, and `encode` then runs `post_process`."""
    ours = our_processor(processor)
    layout = processors.UNPROCESSED if ours is None else ours.single_layout(add_special_tokens)
    if _has_no_layout(json.loads(processor_json(processor))):
        assert layout is None
        return
    hf = hf_tokenizer(base, processor_json(processor), "null", "null")
    for text in TEXTS:
        encoding = model_encoding(base, text, 0)
        packed = layout.pack(encoding.ids, encoding.tokens, encoding.offsets, encoding.word_ids)
        expected = json.loads(hf.encode(text, add_special_tokens=add_special_tokens).__getstate__())
        assert packed.to_state() == expected, text


class _Held:
    """Something a caller's frame holds while a post-processor is read (a parsed file, say)."""


def _read_holding(data: dict, held: _Held) -> Any:
    """Read a post-processor from a frame that holds `held`."""
    return processors.from_dict(data)


@pytest.mark.parametrize("kind", ["BertProcessing", "ByteLevel", "TemplateProcessing", "Sequence"])
def test_a_variant_refused_on_the_way_leaves_no_cycle_holding_the_caller(kind: str) -> None:
    """The variants tried before the right one fail with a traceback that holds the caller's
    frames: kept, they would keep a whole parsed tokenizer.json alive until the collector runs."""
    data = {"BertProcessing": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
            "ByteLevel": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "TemplateProcessing": {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}}],
                                   "pair": [{"Sequence": {"id": "A", "type_id": 0}}], "special_tokens": {}},
            "Sequence": {"type": "Sequence", "processors": []}}[kind]
    held = _Held()
    freed = weakref.ref(held)
    paused = gc.isenabled()
    gc.disable()
    try:
        assert type(_read_holding(data, held)).__name__ == kind
        del held
        assert freed() is None, "the caller's frame outlived the read"
    finally:
        if paused:
            gc.enable()
