"""transformers' classes that run sentencepiece on a .model and give its pieces the ids of another table
(M2M100Tokenizer, Speech2TextTokenizer, MarianTokenizer, PLBartTokenizer, BartphoTokenizer,
SiglipTokenizer): hfcompat.load(dir)
against AutoTokenizer on directories made here from ../shared/refs .model files (XLNet's and ALBERT's Unigram,
Llama-2's BPE with byte fallback, a small BPE model trained here with Speech2Text's language codes as
user-defined pieces) and a vocab.json / dict.txt written in the test that lacks some pieces (so
the unk id is exercised).

transformers runs these as Python tokenizers (no .tokens()), so token strings come from convert_ids_to_tokens.
Compared per text: ids, tokens, decode with skip_special_tokens both ways; pairs: ids and type ids.
"""

from __future__ import annotations

import io
import json
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import UnsupportedConversion
from hfcompat.formats.sentencepiece.read import read_sentencepiece, sentencepiece_source
from hfcompat.formats.transformers import classes, sentencepiece_map
from tests.conformance.test_hypothesis import texts

from tests.conftest import corpus_lines, shared_file
from .auto_harness import auto_tokenizer
from .test_byte_classes import expected_and_actual
from .test_class_table import corpus_texts

sentencepiece = pytest.importorskip("sentencepiece")

pytestmark = [pytest.mark.conformance, pytest.mark.filterwarnings("ignore:This sequence already has")]

MODELS = {"xlnet": "refs/xlnet/spiece.model", "albert": "refs/albert/spiece.model",
          "llama": "refs/llama2/tokenizer.model"}
WMT21 = [f"__{code}__" for code in sentencepiece_map.M2M100_LANGUAGES["wmt21"]]
# directory -> (class, .model per file name, the table it reads ("vocab.json" or "dict.txt", None), config)
DIRECTORIES: dict[str, tuple[str, dict[str, str], str | None, dict[str, Any]]] = {
    "m2m100-xlnet": ("M2M100Tokenizer", {"sentencepiece.bpe.model": "xlnet"}, "vocab.json", {"src_lang": "fr"}),
    "m2m100-llama-wmt21": ("M2M100Tokenizer", {"sentencepiece.bpe.model": "llama"}, "vocab.json",
                           {"language_codes": "wmt21", "src_lang": "de", "additional_special_tokens": WMT21,
                            "clean_up_tokenization_spaces": True}),
    "m2m100-albert-new-eos": ("M2M100Tokenizer", {"sentencepiece.bpe.model": "albert"}, "vocab.json",
                              {"eos_token": "<eos>", "src_lang": "ja"}),
    "speech2text-albert": ("Speech2TextTokenizer", {"sentencepiece.bpe.model": "albert"}, "vocab.json", {}),
    "speech2text-mustc": ("Speech2TextTokenizer", {"sentencepiece.bpe.model": "xlnet"}, "vocab.json",
                          {"lang_codes": "mustc", "tgt_lang": "fr"}),
    "speech2text-trained-mustc": ("Speech2TextTokenizer", {"sentencepiece.bpe.model": "trained"}, "vocab.json",
                                  {"lang_codes": "mustc", "tgt_lang": "it"}),
    "marian-xlnet": ("MarianTokenizer", {"source.spm": "xlnet", "target.spm": "albert"}, "vocab.json", {}),
    "marian-separate-vocabs": ("MarianTokenizer", {"source.spm": "llama", "target.spm": "albert"}, "vocab.json",
                               {"separate_vocabs": True}),
    "plbart-llama-base": ("PLBartTokenizer", {"sentencepiece.bpe.model": "llama"}, None, {"src_lang": "python"}),
    "plbart-xlnet-multi": ("PLBartTokenizer", {"sentencepiece.bpe.model": "xlnet"}, None,
                           {"language_codes": "multi", "clean_up_tokenization_spaces": False}),
    "bartpho-xlnet": ("BartphoTokenizer", {"sentencepiece.bpe.model": "xlnet"}, "dict.txt", {}),
    "bartpho-albert-no-legacy": ("BartphoTokenizer", {"sentencepiece.bpe.model": "albert"}, "dict.txt",
                                 {"legacy": False}),
    "plbart-xlnet-no-legacy": ("PLBartTokenizer", {"sentencepiece.bpe.model": "xlnet"}, None, {"legacy": False}),
    "siglip-albert": ("SiglipTokenizer", {"spiece.model": "albert"}, None, {}),
    "siglip-xlnet-cased": ("SiglipTokenizer", {"spiece.model": "xlnet"}, None,
                           {"do_lower_case": False, "additional_special_tokens": ["<sep>", "[X]"]}),
    "siglip-xlnet-hub-like": ("SiglipTokenizer", {"spiece.model": "xlnet"}, None, {
        "added_tokens_decoder": {str(i): {"content": token, "lstrip": False, "normalized": False, "rstrip": False,
                                          "single_word": False, "special": True}
                                 for i, token in ((0, "<unk>"), (2, "</s>"))},
        "clean_up_tokenization_spaces": True, "model_max_length": 64, "sp_model_kwargs": {}, "pad_token": "</s>"}),
    "siglip-llama-no-legacy": ("SiglipTokenizer", {"spiece.model": "llama"}, None, {"legacy": False}),
}
# Language codes and Marian's target codes written into vocab.json.
MARIAN_CODES = (">>fr<<", ">>de<<")
EXTRA_LINES = ["Hello world __de__ über  alles</s>x", "  two  spaces <unk> and <mask> here", ">>fr<< Bonjour le monde.",
               ">>de<<", "x >>de<< y", ">>fr << no code", "def f(x):\n    return x  # comment", "Hello, world! Don't stop .",
               "<s>a<pad>b</s> __python__ c __en_XX__", "__en__ __ja__ <lang:fr> __java__d", "", "   ", "\t\n",
               "</s>x", " </s> x", "a</s>", "\u2581a \u2581 b", "x\u3000y\x1cz", "<unk>", "[X]<sep>[X] [x]"]


@lru_cache(maxsize=1)
def trained_model() -> bytes:
    """A small BPE model trained on botchan's first lines, Speech2Text's "<lang:xx>" codes user-defined pieces."""
    written = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus_lines("botchan")[:2000]), model_writer=written, model_type="bpe",
        vocab_size=800, hard_vocab_limit=False, minloglevel=2,
        user_defined_symbols=[f"<lang:{code}>" for code in sentencepiece_map.SPEECH2TEXT_LANGUAGES["mustc"]])
    return written.getvalue()


def _write_model(model: str, path: Path) -> None:
    """A shared .model (or the one trained here) at path."""
    if model == "trained":
        path.write_bytes(trained_model())
    else:
        shutil.copy(shared_file(MODELS[model]), path)


def _pieces(path: Path) -> list[str]:
    """The pieces of a .model, in id order (as sentencepiece reads them)."""
    tokenizer = read_sentencepiece(path)
    return [piece.piece for piece in sentencepiece_source(tokenizer).proto.pieces]


def _table(pieces: list[str]) -> dict[str, int]:
    """A fairseq-style vocab.json: <s> <pad> </s> <unk>, then the first 20,000 pieces but every seventh."""
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for index, piece in enumerate(pieces[:20000]):
        if index % 7 != 3:
            vocab.setdefault(piece, len(vocab))
    return vocab


def write_directory(root: Path, name: str) -> Path:
    """The files DIRECTORIES names for `name`, under root."""
    class_name, models, table, config = DIRECTORIES[name]
    directory = root / name
    directory.mkdir()
    for file_name, model in models.items():
        _write_model(model, directory / file_name)
    pieces = _pieces(directory / next(iter(models)))
    if table == "vocab.json":
        vocab = _table(pieces)
        if class_name == "MarianTokenizer":
            vocab |= {code: len(vocab) + index for index, code in enumerate(MARIAN_CODES)}
        (directory / table).write_text(json.dumps(vocab), encoding="utf-8")
        if config.get("separate_vocabs"):
            target = _table(_pieces(directory / "target.spm"))
            (directory / "target_vocab.json").write_text(json.dumps(target), encoding="utf-8")
    elif table == "dict.txt":
        words = [piece for index, piece in enumerate(pieces[9:15000]) if index % 5]
        (directory / table).write_text("".join(f"{word} 1\n" for word in words), encoding="utf-8")
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": class_name, **config}),
                                                     encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any]]:
    """directory name -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    root = tmp_path_factory.mktemp("sentencepiece-map")
    found = {}
    for name in DIRECTORIES:
        directory = write_directory(root, name)
        found[name] = (auto_tokenizer(directory), hfcompat.load(directory))
    return found


def test_every_class_of_the_family_is_checked() -> None:
    """Each class the family module builds has a directory here, and none is still named in NOT_BUILT."""
    assert {entry[0] for entry in DIRECTORIES.values()} == set(sentencepiece_map.CLASSES)
    assert not set(sentencepiece_map.CLASSES) & set(classes.NOT_BUILT)


@pytest.mark.parametrize("name", sorted(DIRECTORIES))
def test_class_matches_auto(loaded: dict, backend: str, name: str) -> None:
    """Corpus lines (English, Japanese, Chinese), lines holding the special tokens and language codes, and pairs
    (with and without special tokens) agree."""
    auto, ours = loaded[name]
    specials = [token for token in auto.all_special_tokens if token][:8]
    lines = corpus_texts() + EXTRA_LINES + [f"Hello {token}world{token} x  {token} " for token in specials]
    differing = [text for text in lines if (lambda pair: pair[0] != pair[1])(expected_and_actual(auto, ours, text))]
    for first, second in zip(lines[:4] + ["", "a"], lines[-4:] + ["b", ""]):
        for add in (True, False):
            result = auto(first, second, return_token_type_ids=True, add_special_tokens=add)
            if len(result["token_type_ids"]) != len(result["input_ids"]):
                continue  # Siglip's type ids count an eos it did not add (test_siglip_type_ids_of_a_pair_ending_in_eos)
            encoding = ours.encode(first, second, add_special_tokens=add)
            if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
                differing.append(f"pair {first[:20]!r} {second[:20]!r} add_special_tokens={add}")
    assert differing == [], f"{name}: {len(differing)}/{len(lines) + 12} differ: {differing[:3]}"


@pytest.mark.parametrize("name", ["m2m100-llama-wmt21", "marian-xlnet", "plbart-xlnet-multi", "bartpho-xlnet",
                                  "siglip-albert", "siglip-llama-no-legacy", "plbart-xlnet-no-legacy"])
@settings(max_examples=40, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, name: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[name], text)
    assert actual == expected


@pytest.mark.parametrize("name", sorted(DIRECTORIES))
def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path, name: str) -> None:
    """No tokenizer.json holds a .model looked up in another table: saving names the component instead."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder|post_processor): "):
        loaded[name][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_marian_language_code_is_one_token(loaded: dict) -> None:
    """A text starting with ">>fr<<" keeps the code whole (vocab.json's id), elsewhere it is sentencepiece's."""
    auto, ours = loaded["marian-xlnet"]
    ids = ours.encode(">>fr<< Bonjour").ids
    assert ids == auto(">>fr<< Bonjour")["input_ids"]
    assert ours.id_to_token(ids[0]) == ">>fr<<"


def test_speech2text_upper_case_warns_and_transformers_differs(tmp_path: Path) -> None:
    """do_upper_case: transformers upper-cases decoded text, hfcompat says it does not."""
    directory = write_directory(tmp_path, "speech2text-albert")
    config = directory / "tokenizer_config.json"
    config.write_text(json.dumps({**json.loads(config.read_text()), "do_upper_case": True}), encoding="utf-8")
    with pytest.warns(UserWarning, match="upper-cases the decoded text"):
        ours = hfcompat.load(directory)
    auto = auto_tokenizer(directory)
    ids = auto("hello world")["input_ids"]
    assert ids == ours.encode("hello world").ids
    assert auto.decode(ids, skip_special_tokens=True) != ours.decode(ids, skip_special_tokens=True)


@pytest.mark.parametrize(("name", "missing"), [("m2m100-xlnet", "vocab.json"), ("bartpho-xlnet", "dict.txt"),
                                               ("marian-xlnet", "source.spm")])
def test_missing_file_is_a_format_error(tmp_path: Path, name: str, missing: str) -> None:
    """A directory without a file the class reads: FormatError naming it."""
    directory = write_directory(tmp_path, name)
    (directory / missing).unlink()
    with pytest.raises(hfcompat.errors.FormatError, match=missing):
        hfcompat.load(directory)


def test_siglip_type_ids_of_a_pair_ending_in_eos(loaded: dict) -> None:
    """A sequence ending with </s> gets no second one, but transformers' type ids count it: one more type id than
    ids, which no Encoding holds; hfcompat gives the ids transformers gives and one type id (0) per id."""
    auto, ours = loaded["siglip-albert"]
    result = auto("a", "b</s>", return_token_type_ids=True)
    encoding = ours.encode("a", "b</s>")
    assert encoding.ids == result["input_ids"]
    assert len(result["token_type_ids"]) == len(result["input_ids"]) + 1
    assert encoding.type_ids == [0] * len(encoding.ids)
