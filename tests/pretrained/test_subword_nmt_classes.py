"""transformers' subword-nmt / fastBPE classes (CTRL, BlenderbotSmall, PhoBERT, BERTweet): hfcompat.load(dir)
against AutoTokenizer on directories of the files each class reads.

Each class gets a directory of merges learned here from the project's multilingual fixture (so words outside
it, other scripts and unknown characters, meet the unknown token), the directory its own save_pretrained
writes from that, and, with ../shared, one whose vocabulary and merges are CLIP's (49k merges, "</w>" marks
as subword-nmt writes them; CLIP's byte-level symbols leave non-ASCII text to the unknown token). transformers runs these as Python tokenizers (no .tokens()), so token strings
come from convert_ids_to_tokens. Compared per text: ids, tokens, decode with skip_special_tokens both ways;
pairs: ids and type ids.
"""

from __future__ import annotations

import json
import sys
import types
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, TokenizationError, UnsupportedConversion
from hfcompat.formats.transformers import classes, own_files
from hfcompat.formats.transformers.subword_nmt import CLASSES
from tests.conformance.test_hypothesis import texts
from tests.conftest import SHARED, corpus_sample, fixture_lines

from .auto_harness import auto_tokenizer
from .test_byte_classes import agree, expected_and_actual

pytestmark = pytest.mark.conformance

MERGES = 300
# The classes reading vocab.json + merges.txt; the others read vocab.txt + bpe.codes.
JSON_CLASSES = ("CTRLTokenizer", "BlenderbotSmallTokenizer")
# The made-up directories: kind -> (class, tokenizer_config.json options, vocabulary tokens written first).
MADE: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "ctrl": ("CTRLTokenizer", {}, ("<unk>",)),
    "ctrl-extra": ("CTRLTokenizer", {"additional_special_tokens": ["<ctl>", "Ab@@"]}, ("<unk>", "<ctl>")),
    "blenderbot-small": ("BlenderbotSmallTokenizer", {}, ("__start__", "__end__", "__unk__", "__null__")),
    "blenderbot-small-few": ("BlenderbotSmallTokenizer", {"clean_up_tokenization_spaces": True},
                             ("__unk__", "__null__")),
    "phobert": ("PhobertTokenizer", {}, ()),
    "phobert-roles": ("PhobertTokenizer", {"cls_token": "<cls>", "sep_token": "<sep>", "mask_token": "<m>",
                                           "clean_up_tokenization_spaces": True}, ()),
    "bertweet": ("BertweetTokenizer", {}, ()),
    "bertweet-normalized": ("BertweetTokenizer", {"normalization": True}, ("@USER", "HTTPURL")),
}
TWEETS = [
    "@remy: This is waaaaayyyy too much for you!!!!!! http://t.co/abc_(x) &amp; &#x41;&#150;&#129;&bogus; &lt;3",
    "I can't, we cannot… it’s 5 p.m. not 5 a.m. :-) <3 :P -> <-- #Hash_tag's foo.bar@mail.com www.Site.org/a(b)",
    "Call +1 (555) 123-4567 or 555.123.4567 now.... really . . . ok??!!?? ain't they'll I'd we've you're",
    "<b>bold</b> HTTPS://X.Y 3.14 -2/3 ... ))))) ＠全角 café naïve 😀😀😀😀 x&#1114112;y&#xD800;z",
]


def learned_merges(words: Counter, count: int) -> list[tuple[str, str]]:
    """subword-nmt's learning, plainly: join the most frequent adjacent pair (ties: the greatest) `count` times."""
    segmented = {word: [*word[:-1], word[-1] + "</w>"] for word in words}
    merges: list[tuple[str, str]] = []
    for _ in range(count):
        pairs: Counter = Counter()
        for word, symbols in segmented.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] += words[word]
        if not pairs:
            break
        best = max(pairs, key=lambda pair: (pairs[pair], pair))
        merges.append(best)
        for word, symbols in segmented.items():
            joined, index = [], 0
            while index < len(symbols):
                if tuple(symbols[index:index + 2]) == best:
                    joined.append(best[0] + best[1])
                    index += 2
                else:
                    joined.append(symbols[index])
                    index += 1
            segmented[word] = joined
    return merges


def as_subword(symbol: str) -> str:
    """A BPE symbol as the vocabulary writes it: "ab</w>" -> "ab", "ab" -> "ab@@"."""
    return symbol[:-4] if symbol.endswith("</w>") else symbol + "@@"


def made_vocabulary(words: Counter, merges: list[tuple[str, str]]) -> list[str]:
    """Every character (both forms) and every merge's result, but the characters seen once (unknown then)."""
    chars = Counter(char for word, n in words.items() for char in word for _ in range(n))
    symbols = [char + end for char in sorted(chars) if chars[char] > 1 for end in ("", "</w>")]
    symbols += [left + right for left, right in merges]
    return list(dict.fromkeys(as_subword(symbol) for symbol in symbols))


def write_directory(path: Path, name: str, config: dict[str, Any], tokens: list[str],
                    merges: list[tuple[str, str]]) -> Path:
    """The files `name` reads (vocab.json + merges.txt, or fairseq's vocab.txt + bpe.codes) and the config."""
    path.mkdir()
    if name in JSON_CLASSES:
        (path / "vocab.json").write_text(json.dumps({t: i for i, t in enumerate(tokens)}, ensure_ascii=False),
                                         encoding="utf-8")
        (path / "merges.txt").write_text("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges),
                                         encoding="utf-8")
    else:
        (path / "vocab.txt").write_text("".join(f"{t} {1000 - i % 900}\n" for i, t in enumerate(tokens)),
                                        encoding="utf-8")
        (path / "bpe.codes").write_text("".join(f"{a} {b} {9999 - i}\n" for i, (a, b) in enumerate(merges)),
                                        encoding="utf-8")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name, **config}), encoding="utf-8")
    return path


def made_directories(root: Path) -> dict[str, Path]:
    """MADE's directories over merges learned from the fixture, and each class's save_pretrained of the first."""
    words = Counter(word for line in fixture_lines() for word in line.split())
    merges = learned_merges(words, MERGES)
    vocabulary = made_vocabulary(words, merges)
    found = {}
    for kind, (name, config, first) in MADE.items():
        found[kind] = write_directory(root / kind, name, config, [*first, *vocabulary], merges)
    for kind in ("ctrl", "blenderbot-small", "phobert", "bertweet"):
        auto_tokenizer(found[kind]).save_pretrained(str(root / f"{kind}-saved"))
        found[f"{kind}-saved"] = root / f"{kind}-saved"
    return found


# The CLIP directories: kind -> (class, tokenizer_config.json options, vocabulary tokens written first).
CLIP: dict[str, tuple[str, dict[str, Any], tuple[str, ...]]] = {
    "clip-ctrl": ("CTRLTokenizer", {}, ("<unk>",)),
    "clip-blenderbot-small": ("BlenderbotSmallTokenizer", {}, ("__start__", "__end__", "__unk__", "__null__")),
    "clip-phobert": ("PhobertTokenizer", {}, ()),
    "clip-bertweet-normalized": ("BertweetTokenizer", {"normalization": True}, ()),
}


def clip_directories(root: Path) -> dict[str, Path]:
    """CLIP's vocabulary and merges (../shared/refs/clip) as each class reads them, when there."""
    clip = SHARED / "refs" / "clip"
    if not (clip / "vocab.json").exists():
        return {}
    vocab = json.loads((clip / "vocab.json").read_text(encoding="utf-8"))
    tokens = [as_subword(symbol) for symbol in sorted(vocab, key=vocab.get)]
    lines = (clip / "merges.txt").read_text(encoding="utf-8").split("\n")[1:]
    merges = [tuple(line.split()) for line in lines if len(line.split()) == 2]
    return {kind: write_directory(root / kind, name, config, [*first, *tokens], merges)
            for kind, (name, config, first) in CLIP.items()}


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every directory compared, by kind."""
    root = tmp_path_factory.mktemp("subword-nmt")
    return {**made_directories(root), **clip_directories(root)}


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {kind: (auto_tokenizer(path), hfcompat.load(path)) for kind, path in directories.items()}


def lines_for(auto: Any) -> list[str]:
    """Corpus and fixture lines, tweets, and lines holding each special token (spaces and newlines around)."""
    try:
        corpus = corpus_sample("botchan", 10) + corpus_sample("wagahaiwa", 5) + corpus_sample("pku_test", 5)
    except pytest.skip.Exception:
        corpus = []
    specials = [token for token in auto.all_special_tokens if token][:6]
    with_specials = [f"Hello {token}world{token} x  {token} " for token in specials]
    return corpus + list(fixture_lines()) + TWEETS + with_specials + \
        [f"a\n{specials[0]}\nb {specials[-1]}\n", "a\x1cb\x1fc d\x85e\u3000f", "It's (ok). He said: 'no!'\n\nX",
         "\n", " ", ""]


def test_every_class_of_the_family_is_built_and_checked() -> None:
    """Each class is registered, no longer NOT_BUILT, and has a made-up directory here."""
    assert set(CLASSES) <= set(own_files.OWN_FILES_CLASSES)
    assert not set(CLASSES) & set(classes.NOT_BUILT)
    assert {name for name, _, _ in MADE.values()} == set(CLASSES)


@pytest.mark.parametrize("kind", [*MADE, *(f"{k}-saved" for k in ("ctrl", "blenderbot-small", "phobert", "bertweet")),
                                  *CLIP])
def test_class_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines, tweets, lines holding each special token, and pairs agree."""
    if kind not in loaded:
        pytest.skip("../shared/refs/clip is absent")
    auto, ours = loaded[kind]
    lines = lines_for(auto)
    differing = [text for text in lines if not agree(*expected_and_actual(auto, ours, text))]
    pairs = list(zip(lines[:4], lines[-8:-4]))
    for first, second in pairs:
        result = auto(first, second, return_token_type_ids=True)
        encoding = ours.encode(first, second)
        if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
            differing.append(f"pair {first[:20]!r} {second[:20]!r}")
    assert differing == [], f"{kind}: {len(differing)}/{len(lines) + len(pairs)} differ: {differing[:3]}"


@pytest.mark.parametrize("kind", [kind for kind in MADE if kind != "bertweet-normalized"])
def test_loading_warns_of_nothing(directories: dict, kind: str) -> None:
    """A directory hfcompat encodes and decodes as transformers does loads without a warning (clean-up too)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(directories[kind])
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("kind", ["ctrl", "blenderbot-small", "phobert", "bertweet-normalized"])
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, kind: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[kind], text)
    assert actual == expected


@pytest.mark.parametrize("kind", ["ctrl", "phobert"])
def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path, kind: str) -> None:
    """No tokenizer.json holds "@@" subwords: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder): "):
        loaded[kind][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_bertweet_normalization_warns_of_emoji(directories: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """normalization=True warns that transformers writes emoji names with the emoji package, and it really does:
    with a stand-in `emoji` module AutoTokenizer encodes an emoji otherwise than without it (and than hfcompat)."""
    path = directories["bertweet-normalized"]
    with pytest.warns(UserWarning, match="emoji package"):
        ours = hfcompat.load(path)
    text = "so happy 😀 !"
    without = auto_tokenizer(path)(text)["input_ids"]
    monkeypatch.setitem(sys.modules, "emoji", types.SimpleNamespace(demojize=lambda s: f":{ord(s):x}:"))
    with_emoji = auto_tokenizer(path)(text)["input_ids"]
    assert ours.encode(text).ids == without != with_emoji


def test_vocabulary_without_unk_warns_and_refuses(tmp_path: Path) -> None:
    """transformers gives the id None to a subword outside a vocabulary lacking <unk>; hfcompat says so on loading
    and raises TokenizationError for such a text (and encodes the others alike)."""
    path = write_directory(tmp_path / "no-unk", "CTRLTokenizer", {}, ["a", "b@@", "b"], [])
    auto = auto_tokenizer(path)
    with pytest.warns(UserWarning, match="no '<unk>'"):
        ours = hfcompat.load(path)
    assert auto("a ba")["input_ids"] == ours.encode("a ba").ids == [0, 1, 0]
    assert None in auto("a bc")["input_ids"]
    with pytest.raises(TokenizationError, match="'c'"):
        ours.encode("a bc")


@pytest.mark.parametrize(("name", "damage", "message"), [
    ("CTRLTokenizer", {"merges.txt": None}, "merges.txt: the class reads this file and it is missing"),
    ("BlenderbotSmallTokenizer", {"vocab.json": "[1, 2]"}, "vocab.json: expected an object"),
    ("PhobertTokenizer", {"vocab.txt": "a 1\nnospace\n"}, "vocab.txt: line 2: expected '<token> <count>'"),
    ("BertweetTokenizer", {"bpe.codes": b"a b 1\n\xff"}, "bpe.codes: not UTF-8"),
])
def test_damaged_files_are_refused_as_transformers_refuses_them(tmp_path: Path, name: str, damage: dict,
                                                                message: str) -> None:
    """A missing or damaged file: AutoTokenizer fails to load the directory, hfcompat raises a FormatError naming
    the file and what is wrong."""
    path = write_directory(tmp_path / "damaged", name, {}, ["a", "b"], [("a", "b")])
    for file_name, content in damage.items():
        if content is None:
            (path / file_name).unlink()
        elif isinstance(content, bytes):
            (path / file_name).write_bytes(content)
        else:
            (path / file_name).write_text(content, encoding="utf-8")
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match=message):
        hfcompat.load(path)


@pytest.mark.parametrize(("name", "config", "tokens"), [
    ("CTRLTokenizer", {"additional_special_tokens": ["ab@@", "<x>"]}, ["<unk>", "a", "b", "c", "b@@"]),
    ("BlenderbotSmallTokenizer", {"additional_special_tokens": ["ab@@"]}, ["__unk__", "a", "b", "c", "_@@"]),
    ("PhobertTokenizer", {}, ["a", "<unk>", "b", "c", "<s>", "ab@@"]),
])
def test_subwords_and_ids_of_added_tokens(tmp_path: Path, backend: str, name: str, config: dict,
                                          tokens: list[str]) -> None:
    """A subword that is an added token outside the vocabulary takes the added token's id, and an id both
    holds reads as the added token (fairseq's vocab.txt listing <unk> or <s> again), as in transformers."""
    path = write_directory(tmp_path / "added", name, config, tokens, [("a", "b")])
    auto, ours = auto_tokenizer(path), hfcompat.load(path)
    differing = [text for text in ("abc", "x ab@@ abc b", "__START__ __End__ <unk> <s> a", "ab\nabc <x>ab")
                 if not agree(*expected_and_actual(auto, ours, text))]
    assert differing == []
