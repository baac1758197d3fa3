"""transformers' tokenizer classes one by one: hfcompat.load(dir) against AutoTokenizer on corpus lines.

Each class hfcompat builds (formats/transformers/classes.py) is named in a tokenizer_config.json beside
a tokenizer.json of the kind the class is made for; both libraries load the directory, and ids, tokens
and decoded text must agree on every line. The table must also know every class of the installed
transformers' auto mapping, and a class it cannot build must say what transformers does.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

import hfcompat
from hfcompat.formats.transformers import classes
from hfcompat.formats.transformers.auto_class import auto_class, model_types
from hfcompat.formats.transformers.own_files import OWN_FILES_CLASSES
from tests.conftest import corpus_sample, fixture_lines, shared_dir

from .auto_harness import auto_tokenizer, transformers

pytestmark = pytest.mark.conformance

# Where each kind of tokenizer.json comes from: a ../shared/refs file, or a file hfcompat or transformers
# writes (MADE).
MADE = {
    "wordpiece": "hfcompat's BERT from bert-base-uncased/vocab.txt",
    "albert": "transformers' save_pretrained of albert/spiece.model",
    "xlnet": "transformers' save_pretrained of xlnet/spiece.model",
    "metaspace-charsmap": "phi-3-mini/tokenizer.json with t5/tokenizer.json's Precompiled normalizer",
    "wordpiece-angle": "hfcompat's BERT with [UNK], [CLS], [SEP], [PAD], [MASK] spelt <unk>, <cls>, ... (Funnel's)",
    "clip-unk": "clip/tokenizer.json with <unk> at the end of its vocabulary (OpenAI GPT's unk)",
}
SOURCES = {
    "byte-level": "gpt2/tokenizer.json",
    "roberta": "roberta-base/tokenizer.json",
    "metaspace": "phi-3-mini/tokenizer.json",
    "unigram": "t5/tokenizer.json",
    "falcon": "falcon/tokenizer.json",
    "clip": "clip/tokenizer.json",
    "whisper": "whisper-large-v3/tokenizer.json",
}
# Each class hfcompat builds, with the kind of tokenizer.json it is checked on.
CHECKED_ON = {
    **dict.fromkeys(("BertTokenizer", "DPRQuestionEncoderTokenizer", "LxmertTokenizer", "MobileBertTokenizer"),
                    "wordpiece"),
    **dict.fromkeys(("GPT2Tokenizer", "Qwen2Tokenizer", "Qwen3_5Tokenizer", "CohereTokenizer", "GPTNeoXTokenizer",
                     "BlenderbotTokenizer"), "byte-level"),
    **dict.fromkeys(("RobertaTokenizer", "BartTokenizer", "LEDTokenizer", "MvpTokenizer", "LukeTokenizer"), "roberta"),
    **dict.fromkeys(("LlamaTokenizer", "CodeLlamaTokenizer", "GemmaTokenizer", "Siglip2Tokenizer"), "metaspace"),
    "ReformerTokenizer": "metaspace-charsmap",
    "CLIPTokenizer": "clip",
    "WhisperTokenizer": "whisper",
    "T5Tokenizer": "unigram",
    "LasrTokenizer": "unigram",
    "XLMRobertaTokenizer": "xlnet",
    "MLukeTokenizer": "xlnet",
    "AlbertTokenizer": "albert",
    "DebertaV2Tokenizer": "albert",
    "XLNetTokenizer": "xlnet",
    "CamembertTokenizer": "xlnet",
    "BigBirdTokenizer": "xlnet",
    "PegasusTokenizer": "unigram",
    "MBartTokenizer": "xlnet",
    "MBart50Tokenizer": "xlnet",
    "NllbTokenizer": "metaspace",
    "FunnelTokenizer": "wordpiece-angle",
    "MPNetTokenizer": "wordpiece",
    "OpenAIGPTTokenizer": "clip-unk",
    "BarthezTokenizer": "xlnet",
    "XGLMTokenizer": "xlnet",
    "RemBertTokenizer": "albert",
    "DebertaTokenizer": "byte-level",
    "HerbertTokenizer": "clip-unk",
    "SplinterTokenizer": "wordpiece",
    "NougatTokenizer": "byte-level",
    "VideoPrismTokenizer": "unigram",
    "Tipsv2Tokenizer": "metaspace-charsmap",
    "SeamlessM4TTokenizer": "metaspace",
}
# Classes checked again with options of their config (more are in directories.FROM_JSON).
VARIANTS = {
    "albert-cased-accents": ("AlbertTokenizer", {"do_lower_case": False, "keep_accents": True}),
    "albert-no-prefix": ("AlbertTokenizer", {"add_prefix_space": False}),
    "whisper-french-translate": ("WhisperTokenizer", {"language": "French", "task": "translate"}),
    "whisper-cantonese-timestamps": ("WhisperTokenizer", {"language": "yue", "predict_timestamps": True,
                                                          "add_prefix_space": True}),
    "xlnet-lowercase": ("XLNetTokenizer", {"do_lower_case": True, "unk_id": 1}),
    "camembert-no-prefix": ("CamembertTokenizer", {"add_prefix_space": False, "unk_token": "<s>"}),
    "big-bird-no-prefix": ("BigBirdTokenizer", {"add_prefix_space": False, "mask_token": "<mask>"}),
    "mbart-romanian-extra": ("MBartTokenizer", {"src_lang": "ro_RO", "additional_special_tokens": ["<x>", "de_DE"]}),
    "mbart50-french-extra": ("MBart50Tokenizer", {"src_lang": "fr_XX", "additional_special_tokens": ["<x>"]}),
    "nllb-legacy-french": ("NllbTokenizer", {"legacy_behaviour": True, "src_lang": "fra_Latn"}),
    "funnel-cased": ("FunnelTokenizer", {"do_lower_case": False, "clean_text": False, "sep_token": "<mask>"}),
    "mpnet-cased": ("MPNetTokenizer", {"do_lower_case": False, "strip_accents": True}),
    "barthez-no-prefix": ("BarthezTokenizer", {"add_prefix_space": False}),
    "xglm-extra": ("XGLMTokenizer", {"additional_special_tokens": ["<madeupword2>", "<x>"], "add_prefix_space": False}),
    "rembert-lowercase-accents": ("RemBertTokenizer", {"do_lower_case": True, "keep_accents": False}),
    "deberta-prefix": ("DebertaTokenizer", {"add_prefix_space": True, "cls_token": "<|endoftext|>"}),
    "splinter-left-cased": ("SplinterTokenizer", {"padding_side": "left", "do_lower_case": False}),
    "tipsv2-cased": ("Tipsv2Tokenizer", {"do_lower_case": False}),
    "seamless-m4t-french": ("SeamlessM4TTokenizer", {"src_lang": "fra", "additional_special_tokens": ["__fra__"]}),
    "pegasus-offset": ("PegasusTokenizer", {"offset": 5, "additional_special_tokens": ["<mask_1>", "<unk_2>"]}),
    "deberta-v2-options": ("DebertaV2Tokenizer", {"do_lower_case": True, "split_by_punct": True,
                                                  "add_prefix_space": False, "unk_token": "<unk>"}),
}
# Classes that take tokenizer.json as it is (falcon's has its own pre-tokenizer, so a rebuild would show).
AS_IS = sorted(classes.AS_IS_CLASSES - {"HfcompatTokenizer"}) + ["GPT3_5Tokenizer"]


def corpus_texts() -> list[str]:
    """English, Japanese and Chinese corpus lines and the fixture's lines (30 in all)."""
    return (corpus_sample("botchan", 10) + corpus_sample("wagahaiwa", 5) + corpus_sample("pku_test", 5)
            + list(fixture_lines())[:10])


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tokenizer.json files MADE names, written once for the module."""
    refs = shared_dir() / "refs"
    root = tmp_path_factory.mktemp("made")
    files = {"wordpiece": root / "bert.json"}
    hfcompat.load(refs / "bert-base-uncased" / "vocab.txt").save(files["wordpiece"])
    for kind in ("albert", "xlnet"):
        source = root / f"{kind}-model"
        source.mkdir()
        shutil.copy(refs / kind / "spiece.model", source / "tokenizer.model")
        (source / "tokenizer_config.json").write_text("{}", encoding="utf-8")
        auto_tokenizer(source).save_pretrained(str(root / kind))
        files[kind] = root / kind / "tokenizer.json"
    phi3 = json.loads((refs / SOURCES["metaspace"]).read_text(encoding="utf-8"))
    phi3["normalizer"] = json.loads((refs / SOURCES["unigram"]).read_text(encoding="utf-8"))["normalizer"]
    files["metaspace-charsmap"] = root / "metaspace-charsmap.json"
    files["metaspace-charsmap"].write_text(json.dumps(phi3), encoding="utf-8")
    angle = {f"[{name}]": f"<{name.lower()}>" for name in ("UNK", "CLS", "SEP", "PAD", "MASK")}
    bert = json.loads(files["wordpiece"].read_text(encoding="utf-8"))
    bert["model"]["vocab"] = {angle.get(token, token): index for token, index in bert["model"]["vocab"].items()}
    for entry in bert["added_tokens"]:
        entry["content"] = angle.get(entry["content"], entry["content"])
    files["wordpiece-angle"] = root / "wordpiece-angle.json"
    files["wordpiece-angle"].write_text(json.dumps(bert), encoding="utf-8")
    clip = json.loads((refs / SOURCES["clip"]).read_text(encoding="utf-8"))
    clip["model"]["vocab"]["<unk>"] = len(clip["model"]["vocab"])
    files["clip-unk"] = root / "clip-unk.json"
    files["clip-unk"].write_text(json.dumps(clip), encoding="utf-8")
    return files


def class_directory(directory: Path, tokenizer_json: Path, config: dict) -> Path:
    """tokenizer.json and a tokenizer_config.json naming a class."""
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(tokenizer_json, directory / "tokenizer.json")
    (directory / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory


def source_file(kind: str, made: dict[str, Path]) -> Path:
    """The tokenizer.json of a kind."""
    return made[kind] if kind in MADE else shared_dir() / "refs" / SOURCES[kind]


def differing_lines(directory: Path) -> tuple[list[str], int, list[str]]:
    """Lines whose ids, tokens or decode differ between AutoTokenizer and hfcompat.load (and three pairs whose ids
    or type ids differ); the count compared; warnings."""
    auto = auto_tokenizer(directory)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    # transformers applies a file's truncation and padding only when a call asks for them.
    ours.no_truncation()
    ours.no_padding()
    specials = [token for token in auto.all_special_tokens if token][:6]
    texts = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in specials]
    differing = []
    for text in texts:
        result = auto(text)
        ids = result["input_ids"]
        encoding = ours.encode(text)
        # A Python tokenizer (SentencePieceBackend) has no tokens() of its encoding: both sides give their ids' pieces
        # (sentencepiece's own tokens hold the text of an unknown piece).
        tokens = result.tokens() if auto.is_fast else auto.convert_ids_to_tokens(ids)
        our_tokens = encoding.tokens if auto.is_fast else [ours.id_to_token(i) for i in encoding.ids]
        expected = (ids, tokens, auto.decode(ids, skip_special_tokens=False))
        actual = (encoding.ids, our_tokens, ours.decode(ids, skip_special_tokens=False))
        if expected != actual:
            differing.append(f"{text[:60]!r}:\n    transformers {expected!r:.300}\n    hfcompat     {actual!r:.300}")
    for pair in zip(texts[:3], texts[-3:]):
        result = auto(*pair, return_token_type_ids=True)
        encoding = ours.encode(*pair)
        if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
            differing.append(f"pair {pair!r:.60}: transformers {result['input_ids']!r:.200} "
                             f"{result['token_type_ids']!r:.200}, hfcompat {encoding.ids!r:.200} {encoding.type_ids!r:.200}")
    return differing, len(texts) + 3, [str(w.message) for w in caught]


@pytest.mark.parametrize("name", sorted(CHECKED_ON))
def test_built_class_matches_auto(tmp_path: Path, made: dict[str, Path], name: str) -> None:
    """A class hfcompat rebuilds: the same ids, tokens and decode as AutoTokenizer on every line, no warning."""
    directory = class_directory(tmp_path / name, source_file(CHECKED_ON[name], made),
                                {"tokenizer_class": name + "Fast"})
    differing, total, messages = differing_lines(directory)
    assert differing == [], f"{name}: {len(differing)}/{total} lines differ\n  " + "\n  ".join(differing[:3])
    rule, decode_rule = classes.call_rule({}, name), classes.CLASS_DECODE_RULES.get(name)
    assert messages == ([] if rule is None else [f"{directory}: transformers' {name} {rule}; hfcompat encodes "
                                                 "such a text as it is"]) + \
        ([] if decode_rule is None else [f"{directory}: transformers' {name} {decode_rule}"])


def test_code_llama_infilling_is_announced(tmp_path: Path) -> None:
    """CodeLlama's fill token: AutoTokenizer encodes the text in its infilling layout, hfcompat does not,
    and the warning says so; with fill_token null, both encode the text as it is and nothing is said."""
    source = shared_dir() / "refs" / SOURCES["metaspace"]
    text = "def f(x):<FILL_ME>    return x"
    directory = class_directory(tmp_path / "fill", source, {"tokenizer_class": "CodeLlamaTokenizer"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    assert any("infilling" in str(w.message) for w in caught)
    assert auto_tokenizer(directory)(text)["input_ids"] != ours.encode(text).ids
    directory = class_directory(tmp_path / "off", source, {"tokenizer_class": "CodeLlamaTokenizer", "fill_token": None})
    differing, _, messages = differing_lines(directory)
    assert messages == [] and differing == []
    assert auto_tokenizer(directory)(text)["input_ids"] == hfcompat.load(directory).encode(text).ids


def test_whisper_decode(tmp_path: Path) -> None:
    """WhisperTokenizer drops the text of timestamp tokens in decode, as hfcompat does; the prompt it drops
    with skip_special_tokens is announced, and hfcompat keeps it."""
    directory = class_directory(tmp_path / "whisper", shared_dir() / "refs" / SOURCES["whisper"],
                                {"tokenizer_class": "WhisperTokenizer", "language": "en", "task": "transcribe"})
    auto = auto_tokenizer(directory)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    assert any("<|startofprev|>" in str(w.message) for w in caught)
    for text in ("<|0.00|> Hello there.<|1.20|><|1.20|> Bye!<|2.00|>", "<|en|><|fr|> <|translate|>x<|0.02|>"):
        ids = auto(text)["input_ids"]
        assert ours.encode(text).ids == ids
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == auto.decode(ids, skip_special_tokens=skip)
    prompt = auto("<|startofprev|> a prompt<|startoftranscript|> hi", add_special_tokens=False)["input_ids"]
    assert ours.decode(prompt, skip_special_tokens=False) == auto.decode(prompt, skip_special_tokens=False)
    assert ours.decode(prompt, skip_special_tokens=True) != auto.decode(prompt, skip_special_tokens=True)


def test_whisper_languages_are_transformers_own() -> None:
    """whisper_languages.json is the installed transformers' language list (when it is the release it was read from)."""
    from transformers.models.whisper import tokenization_whisper

    recorded = classes.whisper_languages()
    if recorded["transformers"] != transformers.__version__:
        pytest.skip(f"whisper_languages.json was read from transformers {recorded['transformers']}")
    assert list(recorded["languages"].items()) == list(tokenization_whisper.LANGUAGES.items())
    names = {name: code for code, name in recorded["languages"].items()} | recorded["aliases"]
    assert names == tokenization_whisper.TO_LANGUAGE_CODE
    assert recorded["tasks"] == tokenization_whisper.TASK_IDS


def test_language_codes_are_transformers_own() -> None:
    """language_codes.json holds the installed transformers' codes of MBart, MBart50 and NLLB."""
    from transformers.models.mbart import tokenization_mbart
    from transformers.models.mbart50 import tokenization_mbart50
    from transformers.models.nllb import tokenization_nllb

    recorded = classes.language_codes()
    if recorded["transformers"] != transformers.__version__:
        pytest.skip(f"language_codes.json was read from transformers {recorded['transformers']}")
    assert recorded["MBartTokenizer"] == tokenization_mbart.FAIRSEQ_LANGUAGE_CODES
    assert recorded["MBart50Tokenizer"] == tokenization_mbart50.FAIRSEQ_LANGUAGE_CODES
    assert recorded["NllbTokenizer"] == tokenization_nllb.FAIRSEQ_LANGUAGE_CODES


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_class_options_match_auto(tmp_path: Path, made: dict[str, Path], variant: str) -> None:
    """A class with options in its config (add_prefix_space, casing, roles): identical to AutoTokenizer."""
    name, options = VARIANTS[variant]
    directory = class_directory(tmp_path / variant, source_file(CHECKED_ON[name], made),
                                {"tokenizer_class": name, **options})
    differing, total, _ = differing_lines(directory)
    assert differing == [], f"{variant}: {len(differing)}/{total} lines differ\n  " + "\n  ".join(differing[:3])


@pytest.mark.parametrize("name", AS_IS)
def test_as_is_class_matches_auto(tmp_path: Path, name: str) -> None:
    """A class that takes tokenizer.json as it is, or one transformers does not know: the file, no warning."""
    directory = class_directory(tmp_path / name, shared_dir() / "refs" / SOURCES["falcon"], {"tokenizer_class": name})
    differing, total, messages = differing_lines(directory)
    assert differing == [], f"{name}: {len(differing)}/{total} lines differ\n  " + "\n  ".join(differing[:3])
    assert messages == []


def test_every_built_class_is_checked() -> None:
    """A class added to hfcompat's table comes with its check here (one built by rule: test_byte_classes.py)."""
    assert set(classes.CLASSES) == set(CHECKED_ON) | classes.BY_RULE_CLASSES


def test_table_knows_every_auto_class() -> None:
    """Every class transformers' auto mapping names is built, taken as it is, or announced by hfcompat; none is
    both built and announced."""
    from transformers.models.auto.tokenization_auto import TOKENIZER_MAPPING_NAMES

    known = (set(classes.CLASSES) | classes.AS_IS_CLASSES | set(classes.NOT_BUILT)
             | set(classes.PYTHON_SENTENCEPIECE_CLASSES) | set(OWN_FILES_CLASSES) | classes.OWN_LOADER_CLASSES)
    named = {classes.class_name({"tokenizer_class": name}) for name in TOKENIZER_MAPPING_NAMES.values() if name}
    assert sorted(named - known) == [], f"transformers {transformers.__version__}"
    built = set(classes.CLASSES) | set(classes.PYTHON_SENTENCEPIECE_CLASSES) | set(OWN_FILES_CLASSES) | \
        classes.OWN_LOADER_CLASSES
    assert sorted(built & set(classes.NOT_BUILT)) == []


# The SentencePiece models the SentencePieceBackend classes are checked on: Unigram (lowercasing ALBERT, XLNet)
# and BPE with byte fallback (Llama 2).
PYTHON_SENTENCEPIECE_MODELS = ("albert/spiece.model", "xlnet/spiece.model", "llama2/tokenizer.model")


def python_sentencepiece_directory(directory: Path, name: str, model: str, config: dict | None = None) -> Path:
    """A SentencePiece model under the file name the class reads, and a tokenizer_config.json naming the class."""
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(shared_dir() / "refs" / model, directory / classes.PYTHON_SENTENCEPIECE_CLASSES[name])
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name, **(config or {})}),
                                                     encoding="utf-8")
    return directory


@pytest.mark.parametrize("model", PYTHON_SENTENCEPIECE_MODELS)
@pytest.mark.parametrize("name", sorted(classes.PYTHON_SENTENCEPIECE_CLASSES))
def test_python_sentencepiece_class_matches_auto(tmp_path: Path, name: str, model: str) -> None:
    """A SentencePieceBackend class over its .model: the same ids, pieces, decode and pairs as AutoTokenizer, no
    warning."""
    directory = python_sentencepiece_directory(tmp_path / name, name, model)
    differing, total, messages = differing_lines(directory)
    assert differing == [], f"{name} on {model}: {len(differing)}/{total} lines differ\n  " + "\n  ".join(differing[:3])
    assert messages == []


@pytest.mark.parametrize("model", PYTHON_SENTENCEPIECE_MODELS)
def test_gpt_sw3_preprocessing_and_decode(tmp_path: Path, model: str) -> None:
    """GPTSw3Tokenizer drops non-printing characters, turns its whitespace characters into spaces and applies NFC
    before sentencepiece, and decodes the runs between special tokens apart: as AutoTokenizer, both decodes."""
    directory = python_sentencepiece_directory(tmp_path / "gpt-sw3", "GPTSw3Tokenizer", model)
    auto, ours = auto_tokenizer(directory), hfcompat.load(directory)
    texts = ["a\x07b\x85c\u00a0d\u00ade\u200bf\u3000g\u2009h\ufffci", "Cafe\u0301 <s>x</s><|endoftext|> y <unk>z",
             "\t tab\nnew line  <pad><pad>  end "]
    for text in texts:
        ids = auto(text)["input_ids"]
        assert ours.encode(text).ids == ids, text
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == auto.decode(ids, skip_special_tokens=skip), text


def test_python_sentencepiece_class_beside_tokenizer_json_says_so(tmp_path: Path) -> None:
    """A tokenizer.json beside the model: transformers takes its added tokens into the class's vocabulary (falcon's
    ">>DOMAIN<<" for id 7), hfcompat does not, and a warning says so."""
    name = "BertGenerationTokenizer"
    directory = python_sentencepiece_directory(tmp_path / name, name, "albert/spiece.model")
    shutil.copy(shared_dir() / "refs" / SOURCES["falcon"], directory / "tokenizer.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    assert any("added tokens of tokenizer.json" in str(w.message) for w in caught)
    assert auto_tokenizer(directory).decode([7]) != ours.decode([7])


@pytest.mark.parametrize("name, option", [("SpeechT5Tokenizer", {"normalize": True}),
                                          ("BertGenerationTokenizer", {"legacy": False})])
def test_python_sentencepiece_option_is_announced(tmp_path: Path, name: str, option: dict) -> None:
    """An option under which the class does what hfcompat does not (number spelling, legacy false): a warning
    says so, and AutoTokenizer does encode some text differently."""
    directory = python_sentencepiece_directory(tmp_path / name, name, "albert/spiece.model", option)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = hfcompat.load(directory)
    assert any(f"{name} " in str(w.message) and next(iter(option)) in str(w.message) for w in caught)
    text = "42 apples cost $3.50"
    assert auto_tokenizer(directory)(text)["input_ids"] != ours.encode(text).ids


@pytest.mark.parametrize("name", sorted(classes.NOT_BUILT))
def test_class_not_built_says_what_transformers_does(tmp_path: Path, name: str) -> None:
    """A known class hfcompat cannot build: a warning naming it and what transformers does instead."""
    data = {"model": {"type": "WordLevel", "vocab": {"<unk>": 0, "a": 1}, "unk_token": "<unk>"},
            "pre_tokenizer": {"type": "WhitespaceSplit"}}
    (tmp_path / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name}), encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(tmp_path)
    messages = [str(w.message) for w in caught]
    assert any(name in m and classes.NOT_BUILT[name] in m for m in messages), messages


def test_class_that_does_not_read_the_vocab_files_says_so(tmp_path: Path) -> None:
    """vocab.json + merges.txt under a class without them in its vocab_files_names: a warning says
    transformers builds the class from its special tokens alone (AutoTokenizer encodes nothing here)."""
    for name in ("vocab.json", "merges.txt"):
        shutil.copy(shared_dir() / "refs" / "gpt2" / name, tmp_path / name)
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "Qwen3_5Tokenizer"}', encoding="utf-8")
    assert auto_tokenizer(tmp_path)("Hello world")["input_ids"] == []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(tmp_path)
    assert any("Qwen3_5Tokenizer does not read vocab.json" in str(w.message) for w in caught)


# config.json's model type against tokenizer_config.json's class: (kind of tokenizer.json, model config,
# tokenizer config). The class AutoTokenizer loads is in the comment.
MODEL_TYPE_CASES = {
    # the model type's class is TokenizersBackend: the file as it is, not GPT2Tokenizer's pipeline
    "olmo2-names-gpt2": ("falcon", {"model_type": "olmo2"}, {"tokenizer_class": "GPT2TokenizerFast"}),
    # a model type whose hub class transformers overrules: Qwen2Tokenizer, not LlamaTokenizer
    "qwen2-names-llama": ("byte-level", {"model_type": "qwen2"}, {"tokenizer_class": "LlamaTokenizerFast"}),
    # another model type: the hub's class wins (LlamaTokenizer, not GemmaTokenizer)
    "gemma-names-llama": ("metaspace", {"model_type": "gemma"}, {"tokenizer_class": "LlamaTokenizer"}),
    # no class named anywhere: the model type's (GPTNeoXTokenizer)
    "gpt-neox-no-class": ("falcon", {"model_type": "gpt_neox"}, {}),
    # config.json's own tokenizer_class when tokenizer_config.json names none (CohereTokenizer)
    "class-in-model-config": ("byte-level", {"model_type": "cohere", "tokenizer_class": "CohereTokenizerFast"}, {}),
    # Mistral without tekken.json, named LlamaTokenizer over a byte-level file: TokenizersBackend
    "mistral-names-llama": ("falcon", {"model_type": "mistral"}, {"tokenizer_class": "LlamaTokenizerFast"}),
}


@pytest.mark.parametrize("name", list(MODEL_TYPE_CASES))
def test_model_type_picks_the_class(tmp_path: Path, made: dict[str, Path], name: str) -> None:
    """config.json beside the tokenizer: hfcompat picks the class AutoTokenizer picks, and encodes alike."""
    kind, model_config, config = MODEL_TYPE_CASES[name]
    directory = class_directory(tmp_path / name, source_file(kind, made), config)
    (directory / "config.json").write_text(json.dumps(model_config), encoding="utf-8")
    assert auto_class(directory, config) == type(auto_tokenizer(directory)).__name__
    differing, total, _ = differing_lines(directory)
    assert differing == [], f"{name}: {len(differing)}/{total} lines differ\n  " + "\n  ".join(differing[:3])


def test_model_types_are_transformers_own() -> None:
    """model_types.json is the installed transformers' auto mapping (when it is the release it was read from)."""
    from transformers.models.auto.tokenization_auto import (MODELS_WITH_INCORRECT_HUB_TOKENIZER_CLASS,
                                                            TOKENIZER_MAPPING_NAMES)

    recorded = model_types()
    if recorded["transformers"] != transformers.__version__:
        pytest.skip(f"model_types.json was read from transformers {recorded['transformers']}, "
                    f"{transformers.__version__} is installed")
    assert recorded["tokenizer_class"] == {k: v for k, v in TOKENIZER_MAPPING_NAMES.items() if v}
    assert recorded["hub_class_overruled"] == sorted(MODELS_WITH_INCORRECT_HUB_TOKENIZER_CLASS)
