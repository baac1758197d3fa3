"""tekken.json (Mistral): hfcompat encodes and decodes as mistral-common's Tekkenizer, and converts
exactly to tokenizer.json (run by `tokenizers`), .tiktoken (run by tiktoken) and back to
tekken.json (run by Tekkenizer). The tekken files are the two that mistral-common ships."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat.errors import FormatError, UnsupportedConversion

from conftest import corpus_sample, fixture_texts

mistral_common = pytest.importorskip("mistral_common", reason="mistral-common (a test dependency) ships the tekken files")
from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy  # noqa: E402
from mistral_common.tokens.tokenizers.tekken import Tekkenizer  # noqa: E402

pytestmark = pytest.mark.conformance

DATA = Path(mistral_common.__file__).parent / "data"
TEKKEN_FILES = ["tekken_240718.json", "tekken_240911.json"]
SPECIAL_TEXTS = ["<s>", "hello <s> world [INST] x [/INST] </s>", "<SPECIAL_999><pad>", "[TOOL_CALLS][IMG]",
                 "<s", "  \n\n  tabs\t\there 12345 ", "😀👍🏽 👨\u200d👩\u200d👧", "a\ud800b"]


def texts() -> list[str]:
    """Corpus lines, the fixture and texts that spell special tokens."""
    lines = [line for name in ("botchan", "wagahaiwa", "pku_test") for line in corpus_sample(name, 80)]
    return lines + fixture_texts() + SPECIAL_TEXTS


def is_utf8(text: str) -> bool:
    """True when the text has no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.fixture(scope="module", params=TEKKEN_FILES)
def pair(request: pytest.FixtureRequest) -> tuple[object, Tekkenizer, Path]:
    """(hfcompat's tokenizer, Tekkenizer, the file) for one shipped tekken.json."""
    path = DATA / request.param
    return hfcompat.load(path), Tekkenizer.from_file(path), path


def theirs(reference: Tekkenizer, text: str, bos: bool = False, eos: bool = False) -> list[int]:
    """Tekkenizer's ids."""
    return reference.encode(text, bos=bos, eos=eos)


def test_encode_as_tekkenizer(pair) -> None:
    """Every text, special-token spellings included (plain text to Tekkenizer), gives its ids."""
    ours, reference, _ = pair
    for text in texts():
        assert ours.encode(text).ids == theirs(reference, text), text
        assert ours.encode_ids(text) == theirs(reference, text), text


@pytest.fixture(scope="module")
def converted(pair, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The shipped file converted: tokenizer.json in `tokenizers`, .tiktoken in tiktoken, and
    tekken.json rewritten, in Tekkenizer; each encodes a text to ids."""
    tokenizers = pytest.importorskip("tokenizers")
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe
    ours, _, path = pair
    directory = tmp_path_factory.mktemp(path.stem)
    for name in ("tokenizer.json", "ranks.tiktoken", "again-tekken.json"):
        ours.save(directory / name)
    hf = tokenizers.Tokenizer.from_file(str(directory / "tokenizer.json"))
    hf.encode_special_tokens = True
    sidecar = json.loads((directory / "ranks.tiktoken.json").read_text(encoding="utf-8"))
    encoding = tiktoken.Encoding("tekken", pat_str=sidecar["pat_str"], special_tokens=sidecar["special_tokens"],
                                 mergeable_ranks=load_tiktoken_bpe(str(directory / "ranks.tiktoken")))
    again = Tekkenizer.from_file(directory / "again-tekken.json")
    return {"tokenizers": lambda text: hf.encode(text, add_special_tokens=False).ids,
            "tiktoken": lambda text: encoding.encode(text, disallowed_special=()),
            "rewritten tekken.json": lambda text: again.encode(text, bos=False, eos=False)}


@settings(max_examples=60, deadline=None)
@given(text=st.text(st.characters(codec="utf-8"), max_size=40))
def test_random_text_as_tekkenizer(pair, converted, text: str) -> None:
    """Random Unicode text gives Tekkenizer's ids, in hfcompat and in each converted file's library."""
    ours, reference, _ = pair
    expected = theirs(reference, text)
    assert ours.encode(text).ids == expected
    for library, encode in converted.items():
        assert encode(text) == expected, library


def test_bos_eos_and_control_tokens(pair) -> None:
    """add_bos / add_eos add the control tokens as Tekkenizer.encode(bos=True, eos=True) does; an
    allowed special is its control token."""
    _, reference, path = pair
    ours = hfcompat.load(path, add_bos=True, add_eos=True)
    for text in ["hello world", "", "<s> as text"]:
        assert ours.encode(text).ids == theirs(reference, text, bos=True, eos=True)
    assert ours.encode("[INST]hi[/INST]", add_special_tokens=False, allowed_special="all").ids == \
        [reference.get_special_token("[INST]"), *theirs(reference, "hi"), reference.get_special_token("[/INST]")]


def test_decode_as_tekkenizer(pair) -> None:
    """Specials dropped by default (IGNORE) and kept on request (KEEP); half a char replaced."""
    ours, reference, _ = pair
    ids = theirs(reference, "hello 世界 <s>", bos=True, eos=True) + [5, 999]
    assert ours.decode(ids) == reference.decode(ids)
    assert ours.decode(ids, skip_special_tokens=False) == reference.decode(ids, SpecialTokenPolicy.KEEP)
    world = theirs(reference, "界")
    assert ours.decode(world[:1]) == reference.decode(world[:1])


def test_converted_tokenizer_json_runs_in_tokenizers(pair, tmp_path: Path) -> None:
    """The tokenizer.json runs in `tokenizers` as Tekkenizer (special spellings as text:
    `encode_special_tokens`, as Tekkenizer never matches them in text)."""
    tokenizers = pytest.importorskip("tokenizers")
    ours, reference, _ = pair
    ours.save(tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    hf.encode_special_tokens = True
    for text in filter(is_utf8, texts()):  # `tokenizers` takes no lone surrogate
        assert hf.encode(text, add_special_tokens=False).ids == theirs(reference, text), text


def test_converted_rank_file_runs_in_tiktoken(pair, tmp_path: Path) -> None:
    """The .tiktoken (ranks from id n on, the specials in its sidecar) runs in tiktoken as Tekkenizer."""
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe
    ours, reference, _ = pair
    ours.save(tmp_path / "tekken.tiktoken")
    sidecar = json.loads((tmp_path / "tekken.tiktoken.json").read_text(encoding="utf-8"))
    encoding = tiktoken.Encoding("tekken", pat_str=sidecar["pat_str"], special_tokens=sidecar["special_tokens"],
                                 mergeable_ranks=load_tiktoken_bpe(str(tmp_path / "tekken.tiktoken")))
    for text in texts():
        assert encoding.encode(text, disallowed_special=()) == theirs(reference, text), text


def test_round_trips_back_to_tekken(pair, tmp_path: Path) -> None:
    """tekken -> tekken, tekken -> tokenizer.json -> tekken and tekken -> .tiktoken -> tekken all
    load in Tekkenizer with the same vocabulary and ids."""
    ours, reference, _ = pair
    ours.save(tmp_path / "tokenizer.json")
    ours.save(tmp_path / "ranks.tiktoken")
    written = {
        "direct": ours,
        "via tokenizer.json": hfcompat.load(tmp_path / "tokenizer.json"),
        "via .tiktoken": hfcompat.load(tmp_path / "ranks.tiktoken"),
    }
    sample = texts()[::3]
    for route, tokenizer in written.items():
        target = tmp_path / f"{route.replace(' ', '_')}-tekken.json"
        tokenizer.save(target)
        again = Tekkenizer.from_file(target)
        assert again.n_words == reference.n_words and again.num_special_tokens == reference.num_special_tokens, route
        assert [again.id_to_piece(i) for i in range(0, reference.n_words, 997)] == \
            [reference.id_to_piece(i) for i in range(0, reference.n_words, 997)], route
        for text in sample:
            assert again.encode(text, bos=False, eos=False) == theirs(reference, text), (route, text)


def test_rewrite_keeps_the_file(pair, tmp_path: Path) -> None:
    """Written back, a shipped file keeps its config, its dead vocab entries and its other keys."""
    ours, _, path = pair
    ours.save(tmp_path / "same-tekken.json")
    original = json.loads(path.read_text(encoding="utf-8"))
    rewritten = json.loads((tmp_path / "same-tekken.json").read_text(encoding="utf-8"))
    assert rewritten["config"] == original["config"]
    assert rewritten["vocab"] == original["vocab"]
    assert {key: value for key, value in rewritten.items() if key != "special_tokens"} == original


def test_what_tekken_cannot_hold_is_refused(tmp_path: Path) -> None:
    """GPT-2 (special token after the vocabulary) and WordPiece are refused; nothing is written."""
    from conftest import shared_file
    gpt2 = hfcompat.load(shared_file("refs/gpt2/tokenizer.json"))
    with pytest.raises(UnsupportedConversion, match="ids 0 .. n-1"):
        gpt2.save(tmp_path / "gpt2-tekken.json")
    bert = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    with pytest.raises(UnsupportedConversion):
        bert.save(tmp_path / "bert-tekken.json")
    assert not list(tmp_path.iterdir())


def small_tekken(**changes: object) -> dict:
    """A valid tekken document (256 bytes, two merges, two specials), with `changes` applied."""
    vocab = [{"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None} for i in range(256)]
    vocab += [{"rank": 256, "token_bytes": base64.b64encode(b"ab").decode(), "token_str": "ab"}]
    document = {"config": {"pattern": r"\w+|\s+|[^\w\s]+", "num_vocab_tokens": 257, "default_vocab_size": 259,
                           "default_num_special_tokens": 2, "version": "v7"},
                "vocab": vocab,
                "special_tokens": [{"rank": 0, "token_str": "<unk>", "is_control": True},
                                   {"rank": 1, "token_str": "<s>", "is_control": True}]}
    for key, value in changes.items():
        section, _, name = key.partition(".")
        if name:
            document[section][name] = value
        else:
            document[section] = value
    return document


def test_a_small_file_matches_tekkenizer(tmp_path: Path) -> None:
    """A hand-made file: hfcompat and Tekkenizer agree on it."""
    path = tmp_path / "small-tekken.json"
    path.write_text(json.dumps(small_tekken()), encoding="utf-8")
    reference = Tekkenizer.from_file(path)
    ours = hfcompat.load(path)
    for text in ["ab abab <s>", "ba", ""]:
        assert ours.encode(text).ids == reference.encode(text, bos=False, eos=False)


@pytest.mark.parametrize("changes, field", [
    ({"config.version": "v99"}, "config.version"),
    ({"config.default_vocab_size": "big"}, "config.default_vocab_size"),
    ({"config.pattern": None}, "config.pattern"),
    ({"config": {"pattern": "x"}}, "config.num_vocab_tokens"),
    ({"vocab.__garbage__": None}, "vocab[256].token_bytes"),
    ({"special_tokens": [{"rank": 1, "token_str": "<s>", "is_control": True}]}, "special_tokens[0].rank"),
    ({"special_tokens": [{"rank": 0, "token_str": "<s>"}, {"rank": 1, "token_str": "<s>"}]}, "special_tokens"),
    ({"vocab.__duplicate__": None}, "vocab[256].token_bytes"),
    ({"vocab.__short__": None}, "vocab"),
])
def test_malformed_files_name_the_field(tmp_path: Path, changes: dict, field: str) -> None:
    """Bad config values, base64 garbage, duplicate bytes, bad special tokens: a FormatError naming
    the file and the field."""
    special = {key: value for key, value in changes.items() if key.startswith("vocab.__")}
    document = small_tekken(**{key: value for key, value in changes.items() if key not in special})
    if "vocab.__garbage__" in special:
        document["vocab"][256]["token_bytes"] = "!!not base64!!"
    if "vocab.__duplicate__" in special:
        document["vocab"][256]["token_bytes"] = document["vocab"][97]["token_bytes"]
    if "vocab.__short__" in special:
        document["vocab"] = document["vocab"][:200]
    path = tmp_path / "bad-tekken.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(FormatError) as error:
        hfcompat.load(path)
    assert error.value.field == field and str(path) in str(error.value)


def test_truncated_file(tmp_path: Path) -> None:
    """A cut-off tekken.json is a FormatError naming the file."""
    path = tmp_path / "cut-tekken.json"
    path.write_text(json.dumps(small_tekken())[:3000], encoding="utf-8")
    with pytest.raises(FormatError, match="not valid JSON"):
        hfcompat.load(path)


def test_verify_against_tekkenizer(pair) -> None:
    """`hfcompat.verify` on a tekken.json runs Tekkenizer as the reference: all identical."""
    _, _, path = pair
    report = hfcompat.verify(path, texts()[:120])
    assert report.reference.startswith("mistral-common") and report.mismatches == 0, report.summary()
