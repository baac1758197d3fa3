"""transformers classes around BERT's and RoBERTa's tokenizers that read files of their own or wrap others
(ProphetNet, RoCBert, BertJapanese, RAG, LUKE, mLUKE on plain text) and MistralCommonBackend: hfcompat.load(dir)
against AutoTokenizer on directories built here (from ../shared/refs; tekken.json from mistral-common's package).

Compared per text: ids, tokens, decode with skip_special_tokens both ways; pairs (where the class takes them):
ids and type ids. transformers' Python tokenizers have no .tokens(), so their tokens are convert_ids_to_tokens;
MistralCommonBackend's convert_ids_to_tokens decodes each id alone, so hfcompat's side there is the decode of each
id. Where a class does something hfcompat does not (entity spans, RAG's generator decode, pairs refused by
mistral-common), a test asserts both the warning and that AutoTokenizer really differs.
"""

from __future__ import annotations

import importlib.util
import json
import warnings
from pathlib import Path
from typing import Any, Iterable

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, UnsupportedConversion
from tests.conformance.test_hypothesis import texts
from tests.conftest import shared_file

from .auto_harness import auto_tokenizer
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance



def tekken_files() -> list[Path]:
    """The tekken.json files mistral-common ships (none when it is not installed)."""
    spec = importlib.util.find_spec("mistral_common")
    if spec is None or not spec.submodule_search_locations:
        return []
    return sorted(Path(list(spec.submodule_search_locations)[0], "data").glob("tekken_*.json"))


TEKKEN_FILES = tekken_files()


def write_directory(directory: Path, files: dict[str, str | Path]) -> Path:
    """A directory holding these files: text, or a file to copy (a symlink: the files are large)."""
    directory.mkdir(parents=True)
    for name, content in files.items():
        if isinstance(content, Path):
            (directory / name).symlink_to(content)
        else:
            (directory / name).write_text(content, encoding="utf-8")
    return directory


def loaded_quietly(directory: Path) -> tuple[Any, list[str]]:
    """hfcompat.load(directory) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tokenizer = hfcompat.load(directory)
    return tokenizer, [str(w.message) for w in caught]


def agree(expected: tuple, actual: tuple) -> bool:
    """True when both libraries' fields are equal."""
    return expected == actual


def differing_pairs(auto: Any, ours: Any, pairs: Iterable[tuple[str, str]]) -> list[str]:
    """The pairs whose ids or type ids differ between AutoTokenizer and hfcompat."""
    def fields(first: str, second: str) -> tuple[tuple, tuple]:
        result, encoding = auto(first, second, return_token_type_ids=True), ours.encode(first, second)
        return (result["input_ids"], result["token_type_ids"]), (encoding.ids, encoding.type_ids)

    return [f"pair {first[:20]!r} {second[:20]!r}" for first, second in pairs if not agree(*fields(first, second))]


# ---------------------------------------------------------------- MistralCommonBackend


def mistral_directories(root: Path, tekken: Path) -> dict[str, Path]:
    """A directory naming MistralCommonBackend; one of the hub's layout: LlamaTokenizerFast in tokenizer_config.json,
    model_type mistral in config.json (AutoTokenizer then prefers tekken.json); one without tokenizer_config.json."""
    def naming(name: str) -> str:
        return json.dumps({"tokenizer_class": name})

    named = write_directory(root / "named", {"tekken.json": tekken,
                                             "tokenizer_config.json": naming("MistralCommonBackend")})
    model_config = json.dumps({"model_type": "mistral"})
    hub = write_directory(root / "hub", {"tekken.json": tekken, "config.json": model_config,
                                         "tokenizer_config.json": naming("LlamaTokenizerFast")})
    bare = write_directory(root / "bare", {"tekken.json": tekken, "config.json": model_config})
    return {"named": named, "hub": hub, "bare": bare}


@pytest.fixture(scope="module")
def mistral(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[Any, Any, list[str]]]:
    """(tekken file, directory kind) -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings)."""
    if not TEKKEN_FILES:
        pytest.skip("mistral-common is not installed (test extra), or ships no tekken_*.json")
    loaded = {}
    for tekken in TEKKEN_FILES:
        for kind, path in mistral_directories(tmp_path_factory.mktemp(tekken.stem), tekken).items():
            loaded[tekken.stem, kind] = (auto_tokenizer(path), *loaded_quietly(path))
    return loaded


MISTRAL_KEYS = [(tekken.stem, kind) for tekken in TEKKEN_FILES for kind in ("named", "hub", "bare")]


def mistral_fields(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries."""
    ids = auto(text)["input_ids"]
    encoding = ours.encode(text)
    return ((ids, auto.convert_ids_to_tokens(ids), auto.decode(ids), auto.decode(ids, skip_special_tokens=True)),
            (encoding.ids, [ours.decode([i], skip_special_tokens=False) for i in encoding.ids],
             ours.decode(ids, skip_special_tokens=False), ours.decode(ids, skip_special_tokens=True)))


@pytest.mark.parametrize("key", MISTRAL_KEYS)
def test_mistral_common_matches_auto(mistral: dict, backend: str, key: tuple[str, str]) -> None:
    """Corpus lines and lines spelling the special tokens (plain text for mistral-common): <s> before each,
    the same tokens and both decodes."""
    auto, ours, _ = mistral[key]
    assert type(auto).__name__ == "MistralCommonBackend"
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in auto.all_special_tokens[:12]] + \
        ["[INST] hi [/INST]</s>", "x lang:en <s>", "", " \n\t é\u3000\U0001f600"]
    differing = [text for text in lines if not agree(*mistral_fields(auto, ours, text))]
    assert differing == [], f"{key}: {len(differing)}/{len(lines)} differ: {differing[:3]}"


@pytest.mark.parametrize("key", MISTRAL_KEYS[:1])
def test_mistral_common_decodes_runs_apart(mistral: dict, backend: str, key: tuple[str, str]) -> None:
    """Special tokens split the bytes around them: mistral-common decodes each run alone, so a character cut by
    a special token is two U+FFFD even when the special is dropped."""
    auto, ours, _ = mistral[key]
    cut = [1000 + 0xE6, 1000 + 0x97, 1, 1000 + 0xA5, 3, 1000 + 0xC3, 1000 + 0xA9]
    for skip in (False, True):
        assert ours.decode(cut, skip_special_tokens=skip) == auto.decode(cut, skip_special_tokens=skip)
    assert ours.decode(cut, skip_special_tokens=True) == "\ufffd\ufffdé"


@pytest.mark.parametrize("key", MISTRAL_KEYS[:1])
@settings(max_examples=40, deadline=None)
@given(text=texts)
def test_mistral_common_random_text(mistral: dict, key: tuple[str, str], text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    auto, ours, _ = mistral[key]
    expected, actual = mistral_fields(auto, ours, text)
    assert actual == expected


def test_mistral_common_rules_are_announced_and_real(mistral: dict) -> None:
    """The warnings name what the wrapper does that hfcompat does not, and AutoTokenizer really does it: a pair is
    refused, and "lang:xx" at the start of a decode skipping specials is removed."""
    auto, ours, messages = mistral[MISTRAL_KEYS[0]]
    assert len(messages) == 2 and all("MistralCommonBackend" in m for m in messages)
    assert "pair" in messages[0] and "lang:xx" in messages[1]
    with pytest.raises(ValueError, match="text_pair"):
        auto("a", "b")
    ids = auto("lang:en hello")["input_ids"]
    assert auto.decode(ids, skip_special_tokens=True) == " hello" != ours.decode(ids, skip_special_tokens=True)


def mistral_sentencepiece_files() -> list[Path]:
    """The SentencePiece models mistral-common ships (tokenizer.model.v1, ....model.v3, ...)."""
    return [path for path in (TEKKEN_FILES[0].parent.iterdir() if TEKKEN_FILES else ())
            if ".model" in path.suffixes]


MISTRAL_SENTENCEPIECE = sorted(path.name for path in mistral_sentencepiece_files())


@pytest.fixture(scope="module")
def mistral_sentencepiece(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, list[str]]]:
    """Model file name -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings) of a directory holding that model
    and a tokenizer_config.json naming MistralCommonBackend."""
    loaded = {}
    for path in mistral_sentencepiece_files():
        directory = write_directory(tmp_path_factory.mktemp("mistral-spm") / "dir", {
            path.name: path, "tokenizer_config.json": json.dumps({"tokenizer_class": "MistralCommonBackend"})})
        loaded[path.name] = (auto_tokenizer(directory), *loaded_quietly(directory))
    return loaded


@pytest.mark.parametrize("name", MISTRAL_SENTENCEPIECE)
def test_mistral_common_sentencepiece_matches_auto(mistral_sentencepiece: dict, backend: str, name: str) -> None:
    """A directory with a SentencePiece model and no tekken.json: <s> and sentencepiece's ids, the same pieces and
    the same decode skipping specials (sentencepiece's own) on every line."""
    auto, ours, messages = mistral_sentencepiece[name]
    assert type(auto).__name__ == "MistralCommonBackend"
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in auto.all_special_tokens[:12]] + \
        ["[INST] hi [/INST]</s>", "", " \n\t é\u3000\U0001f600"]
    differing = []
    for text in lines:
        ids, encoding = auto(text)["input_ids"], ours.encode(text)
        if (ids, auto.convert_ids_to_tokens(ids), auto.decode(ids, skip_special_tokens=True)) != \
                (encoding.ids, encoding.tokens, ours.decode(ids, skip_special_tokens=True)):
            differing.append(text)
    assert differing == [], f"{name}: {len(differing)}/{len(lines)} differ: {differing[:3]}"
    assert any("raw pieces" in message for message in messages)


def test_mistral_common_sentencepiece_keep_decode_is_announced_and_real(mistral_sentencepiece: dict) -> None:
    """Without skip_special_tokens the wrapper joins the raw pieces (mistral-common's KEEP policy), which hfcompat
    does not: the warning says so, and AutoTokenizer's text really is the pieces."""
    if not mistral_sentencepiece:
        pytest.skip("mistral-common is not installed (test extra)")
    auto, ours, messages = next(iter(mistral_sentencepiece.values()))
    ids = auto("Hello world")["input_ids"]
    assert auto.decode(ids) == "".join(auto.convert_ids_to_tokens(ids)) != ours.decode(ids, skip_special_tokens=False)
    assert sum("MistralCommonBackend" in message for message in messages) == 3


# ---------------------------------------------------------------- BERT's Python tokenizers

ROC_BERT_SIDE = {"word_shape.json": '{"[UNK]": 1}', "word_pronunciation.json": '{"[UNK]": 1}'}
# directory name -> (class, vocabulary under ../shared/refs, the file it goes in, other files, config options)
BERT_LIKE: dict[str, tuple[str, str, str, dict[str, str], dict[str, Any]]] = {
    "prophetnet": ("ProphetNetTokenizer", "bert-base-uncased", "prophetnet.tokenizer", {}, {}),
    "prophetnet-cased": ("ProphetNetTokenizer", "bert-base-multilingual-cased", "prophetnet.tokenizer", {},
                         {"do_lower_case": False, "clean_up_tokenization_spaces": False, "x_sep_token": "<xs>"}),
    "roc-bert": ("RoCBertTokenizer", "bert-base-uncased", "vocab.txt", ROC_BERT_SIDE, {}),
    "roc-bert-accents": ("RoCBertTokenizer", "bert-base-multilingual-cased", "vocab.txt", ROC_BERT_SIDE,
                         {"do_lower_case": False, "strip_accents": True, "tokenize_chinese_chars": False}),
    "japanese-wordpiece": ("BertJapaneseTokenizer", "bert-base-multilingual-cased", "vocab.txt", {},
                           {"word_tokenizer_type": "basic"}),
    "japanese-lowercase": ("BertJapaneseTokenizer", "bert-base-multilingual-cased", "vocab.txt", {},
                           {"word_tokenizer_type": "basic", "do_lower_case": True,
                            "clean_up_tokenization_spaces": True}),
    "japanese-character": ("BertJapaneseTokenizer", "bert-base-multilingual-cased", "vocab.txt", {},
                           {"word_tokenizer_type": "basic", "subword_tokenizer_type": "character"}),
}


def bert_like_directory(root: Path, name: str) -> Path:
    """The directory of one BERT_LIKE entry: its vocabulary under the class's file name, and its config."""
    class_name, vocabulary, file_name, files, options = BERT_LIKE[name]
    source = shared_file(f"refs/{vocabulary}/vocab.txt")
    config = json.dumps({"tokenizer_class": class_name, **options})
    return write_directory(root / name, {file_name: source, **files, "tokenizer_config.json": config})


@pytest.fixture(scope="module")
def bert_like(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, list[str]]]:
    """directory name -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings); "-saved": the directory
    transformers' save_pretrained writes of the AutoTokenizer of the first one."""
    root = tmp_path_factory.mktemp("bert-like")
    loaded = {}
    for name in BERT_LIKE:
        directory = bert_like_directory(root, name)
        auto = auto_tokenizer(directory)
        loaded[name] = (auto, *loaded_quietly(directory))
        saved = root / f"{name}-saved"
        auto.save_pretrained(str(saved))
        for side, content in BERT_LIKE[name][3].items():
            (saved / side).write_text(content, encoding="utf-8")
        loaded[f"{name}-saved"] = (auto_tokenizer(saved), *loaded_quietly(saved))
    return loaded


BERT_LIKE_KEYS = [key for name in BERT_LIKE for key in (name, f"{name}-saved")]


def python_fields(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries (transformers' Python tokenizers have
    no .tokens(): convert_ids_to_tokens)."""
    result = auto(text)
    ids = result["input_ids"]
    encoding = ours.encode(text)
    tokens = result.tokens() if auto.is_fast else auto.convert_ids_to_tokens(ids)
    return ((ids, tokens, auto.decode(ids), auto.decode(ids, skip_special_tokens=True)),
            (encoding.ids, encoding.tokens, ours.decode(ids, skip_special_tokens=False),
             ours.decode(ids, skip_special_tokens=True)))


# Texts where the Python tokenizers and tokenizers' BERT pipeline part: NFC, final sigma, Unicode 9+ punctuation
# and controls, U+2028, CJK extension ideographs, NFKC to a space, cleanup across tokens.
EDGE_TEXTS = ["e\u0301te\u0301 ΟΔΟΣ ΣΑΣ. Σ", "a\u2028b\u2029c \x85d \x1ce", "x\u2e52y \u0600z \U000e0001w",
              "\U0002b820\U0002b91f\u4e00 \uf900", "¨ ½ ｱ ﬁ ㌀", "don ' t , a ' b . c ? !",
              "İstanbul Ǆ ß ﬀ",
              "\u0378 \U0001fbf9 \U000f0000 \ud7ff", "a\u200bb\u00adc ##x [SEP ]"]


@pytest.mark.parametrize("key", BERT_LIKE_KEYS)
def test_bert_like_matches_auto(bert_like: dict, backend: str, key: str) -> None:
    """Corpus lines, edge texts and lines holding each special token: ids, tokens, both decodes; three pairs:
    ids and type ids."""
    auto, ours, _ = bert_like[key]
    assert type(auto).__name__ == BERT_LIKE[key.removesuffix("-saved")][0]
    specials = [token for token in auto.all_special_tokens if token]
    lines = corpus_texts() + EDGE_TEXTS + [f"Hello {token}world{token} x  {token} " for token in specials] + \
        [f"{specials[0]}ab{specials[-1]}", ""]
    differing = [text for text in lines if not agree(*python_fields(auto, ours, text))]
    differing += differing_pairs(auto, ours, zip(lines[:3], lines[-4:]))
    assert differing == [], f"{key}: {len(differing)}/{len(lines) + 3} differ: {differing[:3]}"


@pytest.mark.parametrize("key", ["prophetnet", "roc-bert-accents", "japanese-character"])
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_bert_like_random_text(bert_like: dict, key: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = python_fields(*bert_like[key][:2], text)
    assert actual == expected


def test_roc_bert_extra_ids_are_announced_and_real(bert_like: dict) -> None:
    """RoCBert's call gives shape and pronunciation ids besides input_ids; the warning says hfcompat does not."""
    auto, _, messages = bert_like["roc-bert"]
    assert {"input_shape_ids", "input_pronunciation_ids"} <= set(auto("Hello world"))
    assert any("input_shape_ids" in message for message in messages)


def test_never_split_is_announced_and_real(tmp_path: Path) -> None:
    """A never_split word stays whole in transformers (not lowercased, not split); the warning says hfcompat
    splits it, and AutoTokenizer really differs there."""
    directory = write_directory(tmp_path / "never", {
        "prophetnet.tokenizer": shared_file("refs/bert-base-uncased/vocab.txt"),
        "tokenizer_config.json": json.dumps({"tokenizer_class": "ProphetNetTokenizer", "never_split": ["Don't"]})})
    ours, messages = loaded_quietly(directory)
    assert any("never_split" in message for message in messages)
    assert auto_tokenizer(directory)("Don't go")["input_ids"] != ours.encode("Don't go").ids


def test_japanese_analyzers_are_refused_as_in_transformers(tmp_path: Path) -> None:
    """word_tokenizer_type mecab: hfcompat names what it needs and refuses; transformers cannot load it without
    fugashi either (or, with it, runs MeCab, which hfcompat does not)."""
    directory = write_directory(tmp_path / "mecab", {
        "vocab.txt": shared_file("refs/bert-base-multilingual-cased/vocab.txt"),
        "tokenizer_config.json": json.dumps({"tokenizer_class": "BertJapaneseTokenizer",
                                             "word_tokenizer_type": "mecab"})})
    with pytest.raises(UnsupportedConversion, match="fugashi"):
        hfcompat.load(directory)
    if importlib.util.find_spec("fugashi") is None:
        with pytest.raises(ImportError, match="fugashi"):
            auto_tokenizer(directory)


def test_missing_files_are_named(tmp_path: Path) -> None:
    """A missing vocabulary or RoCBert side file: FormatError naming it, where transformers refuses too."""
    directory = write_directory(tmp_path / "roc", {
        "vocab.txt": shared_file("refs/bert-base-uncased/vocab.txt"), "word_shape.json": "{}",
        "tokenizer_config.json": json.dumps({"tokenizer_class": "RoCBertTokenizer"})})
    with pytest.raises(FormatError, match="word_pronunciation.json"):
        hfcompat.load(directory)
    with pytest.raises(ValueError):
        auto_tokenizer(directory)
    (directory / "tokenizer_config.json").write_text('{"tokenizer_class": "ProphetNetTokenizer"}', encoding="utf-8")
    with pytest.raises(FormatError, match="prophetnet.tokenizer"):
        hfcompat.load(directory)


@pytest.mark.parametrize("key", ["prophetnet", "japanese-character"])
def test_bert_like_saving_as_tokenizer_json_is_refused(bert_like: dict, tmp_path: Path, key: str) -> None:
    """No tokenizer.json holds BasicTokenizer's Python steps: saving names the component and writes nothing."""
    with pytest.raises(UnsupportedConversion, match="^(normalizer|pre_tokenizer|decoder): "):
        bert_like[key][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


# ---------------------------------------------------------------- RagTokenizer


def rag_directory(root: Path) -> Path:
    """A RAG model directory: config.json with model_type rag and the two model configs, a DPR question encoder's
    tokenizer (bert-base-uncased) and a BART generator's (roberta-base) in the sub-directories RagTokenizer reads."""
    refs = "refs/roberta-base/"
    write_directory(root / "rag" / "question_encoder_tokenizer", {
        "vocab.txt": shared_file("refs/bert-base-uncased/vocab.txt"),
        "tokenizer_config.json": json.dumps({"tokenizer_class": "DPRQuestionEncoderTokenizer"})})
    write_directory(root / "rag" / "generator_tokenizer", {
        "vocab.json": shared_file(refs + "vocab.json"), "merges.txt": shared_file(refs + "merges.txt"),
        "tokenizer_config.json": json.dumps({"tokenizer_class": "BartTokenizer"})})
    model_config = {"model_type": "rag", "question_encoder": {"model_type": "dpr"}, "generator": {"model_type": "bart"}}
    (root / "rag" / "config.json").write_text(json.dumps(model_config), encoding="utf-8")
    return root / "rag"


@pytest.fixture(scope="module")
def rag(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, list[str]]:
    """(AutoTokenizer, hfcompat tokenizer, hfcompat's warnings) of the RAG directory."""
    directory = rag_directory(tmp_path_factory.mktemp("rag"))
    return (auto_tokenizer(directory), *loaded_quietly(directory))


def test_rag_encodes_as_its_question_encoder(rag: tuple, backend: str) -> None:
    """RagTokenizer's __call__ is its question encoder's: the same ids for corpus lines and pairs (ids and type
    ids); hfcompat's tokens and decodes are the question encoder's own."""
    auto, ours, _ = rag
    assert type(auto).__name__ == "RagTokenizer"
    encoder = auto.question_encoder
    lines = corpus_texts() + ["Hello [SEP]world[CLS] x  [MASK] ", ""]
    differing = [text for text in lines
                 if (auto(text)["input_ids"], encoder.convert_ids_to_tokens(auto(text)["input_ids"]),
                     encoder.decode(auto(text)["input_ids"], skip_special_tokens=True))
                 != (ours.encode(text).ids, ours.encode(text).tokens,
                     ours.decode(ours.encode(text).ids, skip_special_tokens=True))]
    differing += differing_pairs(auto, ours, zip(lines[:3], [text for text in lines if text][-3:]))
    assert differing == [], f"RAG: {len(differing)}/{len(lines) + 3} differ: {differing[:3]}"


def test_rag_decode_is_announced_and_real(rag: tuple) -> None:
    """RagTokenizer decodes with the generator's tokenizer: the warning says hfcompat does not, and it differs."""
    auto, ours, messages = rag
    assert [m for m in messages if "RagTokenizer" in m and "generator_tokenizer/" in m]
    ids = ours.encode("Hello world").ids
    assert auto.decode(ids, skip_special_tokens=True) != ours.decode(ids, skip_special_tokens=True)


# ---------------------------------------------------------------- LukeTokenizer (text only)


@pytest.fixture(scope="module")
def luke(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, list[str]]]:
    """"slow": roberta-base's vocab.json + merges.txt naming LukeTokenizer; "saved": transformers' save_pretrained
    of it -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings). tokenizer.json directories are
    test_class_table.py's."""
    root = tmp_path_factory.mktemp("luke")
    slow = write_directory(root / "slow", {name: shared_file(f"refs/roberta-base/{name}") for name in
                                           ("vocab.json", "merges.txt")} |
                           {"tokenizer_config.json": json.dumps({"tokenizer_class": "LukeTokenizer"})})
    auto_tokenizer(slow).save_pretrained(str(root / "saved"))
    return {kind: (auto_tokenizer(root / kind), *loaded_quietly(root / kind)) for kind in ("slow", "saved")}


@pytest.mark.parametrize("kind", ["slow", "saved"])
def test_luke_text_matches_auto(luke: dict, backend: str, kind: str) -> None:
    """Plain text (no entity spans): corpus lines and lines with each special token (the entity ones too): ids,
    tokens, both decodes; three pairs: ids and type ids."""
    auto, ours, _ = luke[kind]
    assert type(auto).__name__ == "LukeTokenizer"
    specials = list(auto.all_special_tokens)
    assert {"<ent>", "<ent2>", "[MASK2]"} <= set(specials)
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in specials] + [" leading", ""]
    differing = [text for text in lines if not agree(*python_fields(auto, ours, text))]
    differing += differing_pairs(auto, ours, zip(lines[:3], [text for text in lines if text][-3:]))
    assert differing == [], f"Luke {kind}: {len(differing)}/{len(lines) + 3} differ: {differing[:3]}"


def test_luke_entity_calls_are_announced_and_real(luke: dict) -> None:
    """With entity spans AutoTokenizer adds entity sequences; the warning says hfcompat takes no such call."""
    auto, ours, messages = luke["slow"]
    assert [m for m in messages if "LukeTokenizer" in m and "entity_spans" in m]
    result = auto("Beyoncé lives in Los Angeles.", entity_spans=[(0, 7)])
    assert "entity_ids" in result and result["input_ids"] == ours.encode("Beyoncé lives in Los Angeles.").ids


@pytest.fixture(scope="module")
def mluke(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any, list[str]]]:
    """"file": a Unigram tokenizer.json (XLNet's model, its nearest tokenizer.json) naming MLukeTokenizer; "saved":
    transformers' save_pretrained of it -> (AutoTokenizer, hfcompat tokenizer, hfcompat's warnings)."""
    root = tmp_path_factory.mktemp("mluke")
    (root / "file").mkdir()
    with pytest.warns(hfcompat.InexactConversion):  # XLNet's .model as tokenizers would convert it
        hfcompat.load(shared_file("refs/xlnet/spiece.model")).save(root / "file" / "tokenizer.json", exact=False)
    (root / "file" / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "MLukeTokenizer"}),
                                                          encoding="utf-8")
    auto_tokenizer(root / "file").save_pretrained(str(root / "saved"))
    return {kind: (auto_tokenizer(root / kind), *loaded_quietly(root / kind)) for kind in ("file", "saved")}


@pytest.mark.parametrize("kind", ["file", "saved"])
def test_mluke_text_matches_auto(mluke: dict, backend: str, kind: str) -> None:
    """Plain text: corpus lines, quotes it rewrites, each special token in text (<mask> takes the spaces before it,
    the entity tokens are '▁<ent>', '▁<ent2>'): ids, tokens, both decodes; pairs (type id 1 for the second)."""
    auto, ours, messages = mluke[kind]
    assert type(auto).__name__ == "MLukeTokenizer"
    assert [m for m in messages if "MLukeTokenizer" in m and "entity_spans" in m]
    specials = list(auto.all_special_tokens)
    assert {"▁<ent>", "[MASK2]"} <= set(specials)
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in specials] + \
        ["``quoted'' and '' ``", " leading  spaces ", ""]
    differing = [text for text in lines if not agree(*python_fields(auto, ours, text))]
    differing += differing_pairs(auto, ours, zip(lines[:3], [text for text in lines if text][-3:]))
    assert differing == [], f"MLuke {kind}: {len(differing)}/{len(lines) + 3} differ: {differing[:3]}"
