"""transformers' classes that tokenize by characters or decode CTC output (Wav2Vec2CTCTokenizer,
Wav2Vec2PhonemeCTCTokenizer, MgpstrTokenizer, VitsTokenizer, EsmTokenizer, EsmcTokenizer; ParakeetTokenizer and
LasrTokenizer): hfcompat.load(dir) against AutoTokenizer on directories made here (character vocabularies with
unknown characters, special tokens, lower-casing, a nested vocabulary, transformers' own save_pretrained, VITS's and
the phoneme class's options) and on a shared tokenizer.json.

Compared per text: ids, tokens (convert_ids_to_tokens: the Python classes have no .tokens()), decode with
skip_special_tokens both ways; pairs: ids and type ids; for the CTC classes the decode of model-like output (runs of
repeated ids, pad ids between them).
"""

from __future__ import annotations

import importlib.util
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import UnsupportedConversion
from tests.conftest import shared_dir
from tests.conformance.test_hypothesis import texts

from .auto_harness import auto_tokenizer
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance

# Wav2Vec2's English characters (upper case, as its do_lower_case models hold them) and a few kana and hanzi, so
# the Japanese and Chinese lines mix known and unknown characters.
UPPER = "ETAONISRHDLUMCWFGYPBVK'XJQZ"
KANA_HANZI = "のにはをたがでてとしれさある一人日大年中"
W2V_ROLES = ["<pad>", "<s>", "</s>", "<unk>"]


def _vocab(tokens: list[str]) -> dict[str, int]:
    """Tokens -> their positions."""
    return {token: index for index, token in enumerate(tokens)}


def _write(directory: Path, config: dict[str, Any], files: dict[str, str]) -> Path:
    """A directory holding tokenizer_config.json and the given files."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return directory


def made_directories(root: Path) -> dict[str, Path]:
    """Each directory kind -> its path (the shared tokenizer.json ones are made by `shared_directories`)."""
    upper = json.dumps(_vocab([*W2V_ROLES, "|", *UPPER, *KANA_HANZI]))
    lower = json.dumps(_vocab([*W2V_ROLES, "|", *UPPER.lower(), *KANA_HANZI, "<extra>", ".", ",", "é"]))
    nested = json.dumps({"eng": _vocab([*W2V_ROLES, "|", *UPPER]), "jpn": _vocab([*W2V_ROLES, "#", *KANA_HANZI])})
    esm_vocab = "\n".join(["<cls>", "<pad>", "<eos>", "<unk>", *"LAGVSERTIDPKQNFYMHWCXBUZO", ".", "-", "<null_1>",
                           "<mask>", "ab", " XY "])
    wav2vec2 = {"tokenizer_class": "Wav2Vec2CTCTokenizer"}
    directories = {
        "wav2vec2-upper": _write(root / "w2v-upper", {**wav2vec2, "do_lower_case": True}, {"vocab.json": upper}),
        "wav2vec2-lower": _write(root / "w2v-lower", wav2vec2, {"vocab.json": lower}),
        "wav2vec2-clean-up": _write(root / "w2v-clean-up", {**wav2vec2, "clean_up_tokenization_spaces": True},
                                    {"vocab.json": lower}),
        "wav2vec2-nested": _write(root / "w2v-nested", {**wav2vec2, "target_lang": "jpn", "word_delimiter_token": "#",
                                                        "replace_word_delimiter_char": "_"}, {"vocab.json": nested}),
        "mgpstr": _write(root / "mgpstr", {"tokenizer_class": "MgpstrTokenizer"},
                         {"vocab.json": json.dumps(_vocab(["[GO]", "[s]", *"0123456789abcdefghijklmnopqrstuvwxyz"]))}),
        "esm": _write(root / "esm", {"tokenizer_class": "EsmTokenizer"}, {"vocab.txt": esm_vocab}),
        "esm-roles": _write(root / "esm-roles", {"tokenizer_class": "EsmTokenizer", "cls_token": "<s>",
                                                 "additional_special_tokens": ["<null_1>"]}, {"vocab.txt": esm_vocab}),
        "esmc": _write(root / "esmc", {"tokenizer_class": "EsmcTokenizer"}, {}),
        "esmc-roles": _write(root / "esmc-roles", {"tokenizer_class": "EsmcTokenizer", "mask_token": "<MASK>",
                                                   "chain_break_token": "-"}, {}),
    }
    vits_vocab = json.dumps(_vocab([*VITS_CHARACTERS, "ab", "<unk>"]))
    for kind, options in VITS_CONFIGS.items():
        directories[kind] = _write(root / kind, {"tokenizer_class": "VitsTokenizer", **options},
                                   {"vocab.json": vits_vocab})
    phonemes = json.dumps(_vocab([*W2V_ROLES, "|", "h", "ə", "l", "oʊ", "w", "ɜː", "d", "aɪ", "t", "a", "b",
                                  "ab"]))
    for kind, options in PHONEME_CONFIGS.items():
        directories[kind] = _write(root / kind, {"tokenizer_class": "Wav2Vec2PhonemeCTCTokenizer", **options},
                                   {"vocab.json": phonemes})
    saved = root / "w2v-saved"
    auto_tokenizer(directories["wav2vec2-upper"]).save_pretrained(str(saved))
    directories["wav2vec2-saved"] = saved
    return directories


# An MMS-TTS-like character vocabulary (its blank, id 0, is a letter) with Romanian's "ţ" and a two-letter entry.
VITS_CHARACTERS = "k'zyudhesw–3cp-1jmi flo0bra42n_xvtq56gţ"
VITS_CONFIGS = {
    "vits-mms": {"normalize": True, "phonemize": False, "add_blank": True, "language": "ron"},
    "vits-raw": {"normalize": False, "phonemize": False, "add_blank": True},
    "vits-no-blank": {"phonemize": False, "add_blank": False, "pad_token": "_", "clean_up_tokenization_spaces": True},
    "vits-phonemize": {},
    "vits-uroman": {"phonemize": False, "is_uroman": True},
}

PHONEME_CONFIGS = {
    "phoneme": {"do_phonemize": False},
    "phoneme-delimiter": {"do_phonemize": False, "word_delimiter_token": "|"},
    "phoneme-phonemize": {},
}

SHARED_KINDS = {"parakeet": "ParakeetTokenizer", "lasr": "LasrTokenizer", "lasr-no-extra-ids": "LasrTokenizer",
                "lasr-extras": "LasrTokenizer"}
# Parakeet names its pad token (the CTC blank) in the config; Lasr has it by default, and adds <extra_id_0..99>
# unless the config names extra special tokens.
SHARED_CONFIGS = {"parakeet": {"pad_token": "<pad>", "unk_token": "<unk>"}, "lasr": {}, "lasr-no-extra-ids": {},
                  "lasr-extras": {"additional_special_tokens": ["<x1>"]}}


def shared_directories(root: Path) -> dict[str, Path]:
    """Parakeet and Lasr over T5's tokenizer.json (Unigram, <pad> at id 0) from ../shared, and Lasr over that file
    without its <extra_id_*> tokens."""
    source = json.loads((shared_dir() / "refs" / "t5" / "tokenizer.json").read_text(encoding="utf-8"))
    trimmed = {**source, "added_tokens": [t for t in source["added_tokens"] if "<extra_id_" not in t["content"]],
               "model": {**source["model"], "vocab": [v for v in source["model"]["vocab"] if "<extra_id_" not in v[0]]}}
    directories = {}
    for kind, name in SHARED_KINDS.items():
        data = source if kind in ("parakeet", "lasr") else trimmed
        directories[kind] = _write(root / kind, {"tokenizer_class": name, **SHARED_CONFIGS[kind]},
                                   {"tokenizer.json": json.dumps(data, ensure_ascii=False)})
    return directories


MADE_KINDS = ["wav2vec2-upper", "wav2vec2-lower", "wav2vec2-clean-up", "wav2vec2-nested", "wav2vec2-saved", "mgpstr",
              "esm", "esm-roles", "esmc", "esmc-roles", "vits-mms", "vits-raw", "vits-no-blank", "vits-uroman",
              "phoneme", "phoneme-delimiter"]


@pytest.fixture(scope="module")
def roots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's directory root."""
    return tmp_path_factory.mktemp("character-classes")


@pytest.fixture(scope="module")
def made(roots: Path) -> dict[str, Path]:
    """Directory kind -> the made directory."""
    return made_directories(roots)


@pytest.fixture(scope="module")
def loaded(made: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """Directory kind -> (AutoTokenizer, hfcompat tokenizer) of the made directories (VITS's package warnings
    are checked by their own tests)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {kind: (auto_tokenizer(path), hfcompat.load(path)) for kind, path in made.items()}


@pytest.fixture(scope="module")
def loaded_shared(roots: Path) -> dict[str, tuple[Any, Any]]:
    """Directory kind -> (AutoTokenizer, hfcompat tokenizer) of the shared tokenizer.json directories."""
    return {kind: (auto_tokenizer(path), hfcompat.load(path)) for kind, path in shared_directories(roots).items()}


def auto_decode(auto: Any, ids: list[int], skip_special_tokens: bool = False) -> str:
    """AutoTokenizer's decode; "" where the phoneme class fails on an empty token list (a ValueError), as
    hfcompat's decode returns."""
    try:
        return auto.decode(ids, skip_special_tokens=skip_special_tokens)
    except ValueError:
        if type(auto).__name__ != "Wav2Vec2PhonemeCTCTokenizer":
            raise
        return ""


def expected_and_actual(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries."""
    ids = auto(text)["input_ids"]
    encoding = ours.encode(text)
    return ((ids, auto.convert_ids_to_tokens(ids), auto_decode(auto, ids), auto_decode(auto, ids, True)),
            (encoding.ids, [ours.id_to_token(i) for i in encoding.ids], ours.decode(ids, skip_special_tokens=False),
             ours.decode(ids, skip_special_tokens=True)))


def special_lines(auto: Any) -> list[str]:
    """Lines holding the class's special tokens, spaces around them, and odd whitespace."""
    specials = [token for token in auto.all_special_tokens if token][:5] + ["<extra_id_5>"]
    return [f"Hello {token}world{token} x  {token} " for token in specials] + [
        f"{specials[0]}ab{specials[-1]}", f"  {specials[-1]}\t{specials[0]}\n", "a  b\u3000c\x1cd\x85e", "",
        "ß straße ﬁ İstanbul ǅ", "MKTAYIAKQR <mask>QISF|VKSH-FS", "<cls><eos> A <extra> ab XY  X Y",
        "Hello, World. It's 3 o'clock!", "a , b . c ' d ! e ?"]


def differing(auto: Any, ours: Any) -> tuple[list[str], int]:
    """The lines and pairs whose fields differ, and how many were compared."""
    lines = corpus_texts() + special_lines(auto)
    found = [text for text in lines if (lambda pair: pair[0] != pair[1])(expected_and_actual(auto, ours, text))]
    for first, second in zip(lines[:3], lines[-4:]):
        for add in (True, False):
            result = auto(first, second, return_token_type_ids=True, add_special_tokens=add)
            encoding = ours.encode(first, second, add_special_tokens=add)
            if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
                found.append(f"pair {first[:20]!r} {second[:20]!r} add_special_tokens={add}")
    return found, len(lines) + 6


@pytest.mark.parametrize("kind", MADE_KINDS)
def test_made_directory_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines (English, Japanese, Chinese), lines holding the special tokens, and pairs agree."""
    found, total = differing(*loaded[kind])
    assert found == [], f"{kind}: {len(found)}/{total} differ: {found[:3]}"


@pytest.mark.parametrize("kind", sorted(SHARED_KINDS))
def test_shared_directory_matches_auto(loaded_shared: dict, backend: str, kind: str) -> None:
    """ParakeetTokenizer and LasrTokenizer over a Unigram tokenizer.json agree on the same lines."""
    found, total = differing(*loaded_shared[kind])
    assert found == [], f"{kind}: {len(found)}/{total} differ: {found[:3]}"


# CTC output: runs of one id, the pad (blank) between equal ids, special ids inside runs.
W2V_OUTPUT = [[5, 5, 0, 5, 4, 4, 6, 0, 0, 7, 1, 7, 3, 3], [4, 5, 4, 4], [1, 5, 1, 5, 2, 2], [0, 0, 0],
              [8, 8, 0, 8, 0, 4, 0, 9, 9, 9, 2, 9], []]
T5_OUTPUT = [[100, 100, 0, 100, 5, 5, 1, 5, 2, 2], [1, 1, 0, 1], [37, 37, 37, 0, 37, 3, 3, 3, 0, 32099, 32099],
             [0], []]


@pytest.mark.parametrize("kind", ["wav2vec2-upper", "wav2vec2-lower", "wav2vec2-nested", "wav2vec2-saved", "phoneme",
                                  "phoneme-delimiter"])
def test_wav2vec2_decodes_ctc_output_as_transformers(loaded: dict, kind: str) -> None:
    """Repeats collapse after the special tokens are skipped, the pad drops, the delimiter becomes its replacement
    (the phoneme class drops it and joins with spaces)."""
    auto, ours = loaded[kind]
    for ids in W2V_OUTPUT:
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == auto_decode(auto, ids, skip), (ids, skip)


def test_clean_up_tokenization_spaces_as_transformers(loaded: dict) -> None:
    """clean_up_tokenization_spaces: the CTC decode then removes spaces before punctuation, as transformers does."""
    auto, ours = loaded["wav2vec2-clean-up"]
    ids = auto("a , b . c")["input_ids"]
    assert ours.decode(ids, skip_special_tokens=False) == auto.decode(ids) == "a, b. c"
    assert loaded["wav2vec2-lower"][1].decode(ids) == "a , b . c"


@pytest.mark.parametrize("kind", sorted(SHARED_KINDS))
def test_parakeet_and_lasr_decode_ctc_output_as_transformers(loaded_shared: dict, kind: str) -> None:
    """Repeated ids collapse and the pad id drops before special tokens are skipped."""
    auto, ours = loaded_shared[kind]
    for ids in T5_OUTPUT:
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == auto.decode(ids, skip_special_tokens=skip), (ids, skip)


def test_ctc_collapse_is_what_differs_from_the_plain_decode(loaded_shared: dict) -> None:
    """The collapse matters: without it the T5 decode of the same output is another text."""
    auto, ours = loaded_shared["parakeet"]
    ids = T5_OUTPUT[0]
    assert ours.decode(ids, skip_special_tokens=False) == auto.decode(ids)
    assert hfcompat.load(shared_dir() / "refs" / "t5" / "tokenizer.json").decode(ids, skip_special_tokens=False) \
        != auto.decode(ids)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kind", ["wav2vec2-upper", "wav2vec2-lower", "mgpstr", "esm", "esmc", "vits-mms", "phoneme"])
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, kind: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[kind], text)
    assert actual == expected


def test_vits_phonemizing_warns_and_transformers_needs_phonemizer(made: dict[str, Path]) -> None:
    """phonemize (on by default): hfcompat warns; AutoTokenizer cannot encode at all without the phonemizer package."""
    if importlib.util.find_spec("phonemizer") is not None:
        pytest.skip("phonemizer is installed: AutoTokenizer phonemizes")
    with pytest.warns(UserWarning, match="phonemizes the text with espeak"):
        ours = hfcompat.load(made["vits-phonemize"])
    assert ours.encode("Hello").ids == [0, 6, 0, 7, 0, 21, 0, 21, 0, 22, 0]  # h e l l o with blanks
    with pytest.raises(ImportError, match="phonemizer"):
        auto_tokenizer(made["vits-phonemize"])("hello")


def test_phoneme_class_phonemizing_warns_and_transformers_needs_phonemizer(made: dict[str, Path]) -> None:
    """do_phonemize (on by default): hfcompat warns and encodes the text as phonemes; AutoTokenizer cannot encode
    without the phonemizer package."""
    if importlib.util.find_spec("phonemizer") is not None:
        pytest.skip("phonemizer is installed: AutoTokenizer phonemizes")
    with pytest.warns(UserWarning, match="phonemizes the text with the phonemizer package"):
        ours = hfcompat.load(made["phoneme-phonemize"])
    assert ours.encode("h ə l oʊ").ids == [5, 6, 7, 8]
    with pytest.raises(ImportError, match="phonemizer"):
        auto_tokenizer(made["phoneme-phonemize"])("h ə l oʊ")


def test_vits_uroman_warns_and_agrees_without_uroman(made: dict[str, Path]) -> None:
    """is_uroman: hfcompat warns that transformers romanizes with uroman; uroman is absent here, so AutoTokenizer
    encodes non-ASCII text as hfcompat does."""
    if importlib.util.find_spec("uroman") is not None:
        pytest.skip("uroman is installed: AutoTokenizer romanizes")
    with pytest.warns(UserWarning, match="romanizes text"):
        ours = hfcompat.load(made["vits-uroman"])
    text = "Ţara mea 日本 ab"
    assert ours.encode(text).ids == auto_tokenizer(made["vits-uroman"])(text)["input_ids"]


@pytest.mark.parametrize("kind", ["wav2vec2-upper", "wav2vec2-lower", "phoneme", "vits-mms", "vits-no-blank"])
def test_wav2vec2_and_vits_saving_is_refused(loaded: dict, tmp_path: Path, kind: str) -> None:
    """tokenizer.json holds neither Wav2Vec2's decode and Python's upper-casing nor VITS's preparation, blanks and
    decode: saving names the component."""
    with pytest.raises(UnsupportedConversion, match="^(model|normalizer|decoder): "):
        loaded[kind][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize("kind", sorted(SHARED_KINDS))
def test_ctc_id_decode_saving_is_refused(loaded_shared: dict, tmp_path: Path, kind: str) -> None:
    """No tokenizer.json decoder works on ids: saving Parakeet or Lasr names the decoder."""
    with pytest.raises(UnsupportedConversion, match="^decoder: "):
        loaded_shared[kind][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize("kind", ["mgpstr", "esm"])
def test_python_type_ids_saving_is_refused(loaded: dict, tmp_path: Path, kind: str) -> None:
    """Mgpstr's and ESM's encoding fits tokenizer.json but not their pairs' type ids without special tokens (all 0
    in a Python tokenizer): saving names the post-processor."""
    with pytest.raises(UnsupportedConversion, match="^post_processor: "):
        loaded[kind][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize("kind", ["esmc", "esmc-roles"])
def test_saved_tokenizer_json_encodes_as_the_class(loaded: dict, tmp_path: Path, kind: str) -> None:
    """ESMC's pipeline fits tokenizer.json: tokenizers runs the saved file as the class does."""
    tokenizers = pytest.importorskip("tokenizers")
    auto, ours = loaded[kind]
    ours.save(tmp_path / "tokenizer.json")
    saved = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    lines = corpus_texts() + special_lines(auto)
    assert [text for text in lines if saved.encode(text).ids != auto(text)["input_ids"]] == []
