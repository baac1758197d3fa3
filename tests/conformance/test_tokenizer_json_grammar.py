"""tokenizer.json documents written from tokenizers' whole grammar: hfcompat loads, encodes and decodes
each as tokenizers does (tokenizer_json_grammar.py draws them).

Both load or both refuse; a loaded document encodes its texts (alone and paired, with and without
special tokens, one by one and as a batch: ids, tokens, offsets and the other fields) and decodes
the ids and random id lists (skipping special tokens or not) identically. A text on which
tokenizers panics is left out of the comparison; two normalized added tokens of one normalized
form (tokenizers picks one at random per process) leave only the load compared.

HFCOMPAT_GRAMMAR_EXAMPLES sets the examples per backend (fuzz/README.md: longer runs).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import tokenizers
from hypothesis import given, settings

from hfcompat import _backend
from hfcompat.errors import FormatError
from hfcompat.formats.tokenizer_json import tokenizer_from_json

from .harness import collect, compare_batch, make_inputs, render
from .tokenizer_json_grammar import Case, cases

# tokenizers panics on some texts of some documents; its backtraces would only add noise.
os.environ["RUST_BACKTRACE"] = "0"

EXAMPLES = int(os.environ.get("HFCOMPAT_GRAMMAR_EXAMPLES", "150"))
BACKENDS = [name for name in _backend.available() if not (name == _backend.COMPILED and _backend.pure_python_forced())]


def owner_load(text: str) -> Any:
    """tokenizers' Tokenizer for the document, or the exception (a Rust panic too) it raised."""
    try:
        return tokenizers.Tokenizer.from_str(text)
    except BaseException as error:  # noqa: BLE001 - pyo3's PanicException derives from BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return error


def owner_panics(oracle: tokenizers.Tokenizer, item: Any) -> bool:
    """Whether tokenizers panics encoding the input (or decoding its ids), with or without specials."""
    args = item if isinstance(item, tuple) else (item,)
    try:
        for flag in (True, False):
            try:
                ids = oracle.encode(*args, add_special_tokens=flag).ids
            except Exception:  # noqa: BLE001 - an ordinary error is compared, not left out
                continue
            for skip in (True, False):
                try:
                    oracle.decode(ids, skip_special_tokens=skip)
                except Exception:  # noqa: BLE001
                    pass
    except BaseException as error:  # noqa: BLE001
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return True
    return False


def ambiguous_added_tokens(oracle: tokenizers.Tokenizer) -> bool:
    """Whether two normalized added tokens normalize to one string (AMBIGUOUS_NORMALIZED_ADDED).

    tokenizers builds its matcher from a hash map, so which of the two a match gives changes from
    one process to the next: there is no answer to agree with, and such documents only load."""
    normalizer = oracle.normalizer
    forms = [normalizer.normalize_str(token.content) if normalizer else token.content
             for token in oracle.get_added_tokens_decoder().values() if token.normalized]
    return len(forms) != len(set(forms))


PANIC = object()


def outcome(action: Any) -> Any:
    """action()'s value, or "raises" when it raises an ordinary exception."""
    try:
        return action()
    except Exception:  # noqa: BLE001 - that it raised is what is compared
        return "raises"


def owner_decode(oracle: tokenizers.Tokenizer, ids: list[int], skip: bool) -> Any:
    """tokenizers' decode of the ids, "raises", or PANIC when it panics."""
    try:
        return outcome(lambda: oracle.decode(ids, skip_special_tokens=skip))
    except BaseException as error:  # noqa: BLE001
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return PANIC


def check_case(case: Case) -> None:
    """The document loads in both libraries or in neither; a loaded one runs its texts identically."""
    text = json.dumps(case.document, ensure_ascii=False)
    oracle = owner_load(text)
    try:
        ours = tokenizer_from_json(text)
    except FormatError as error:
        assert not isinstance(oracle, tokenizers.Tokenizer), f"hfcompat refuses what tokenizers loads: {error}\n{text}"
        return
    assert isinstance(oracle, tokenizers.Tokenizer), f"hfcompat loads what tokenizers refuses: {oracle!r}\n{text}"
    if ambiguous_added_tokens(oracle):
        return
    texts, pairs = list(case.texts), True
    if any(owner_panics(oracle, item) for item in make_inputs(texts, pairs=True)):
        texts, pairs = [t for t in texts if not owner_panics(oracle, t)], False
    tally = collect(oracle, ours, texts, pairs=pairs)
    for ids in case.ids:
        for skip in (True, False):
            expected = owner_decode(oracle, ids, skip)
            if expected is not PANIC:
                tally.check(("decode", ids), f"decode(skip_special_tokens={skip})", expected,
                            outcome(lambda: ours.decode(ids, skip_special_tokens=skip)))
    if tally.mismatches:
        tally.label = "grammar"
        pytest.fail(f"{render(tally)}\n\ndocument: {text}", pytrace=False)
    try:  # padding to the longest of a batch shows only in a batch
        compare_batch(oracle, ours, texts, pairs=pairs, label="grammar, batch")
    except pytest.fail.Exception as failure:
        pytest.fail(f"{failure}\n\ndocument: {text}", pytrace=False)


def _document(model: dict[str, Any], **parts: Any) -> dict[str, Any]:
    """A tokenizer.json document of the model and the given top-level parts."""
    return {"version": "1.0", **parts, "model": model}


def _added(content: str, **flags: bool) -> dict[str, Any]:
    """An added_tokens entry (id 0: tokenizers re-assigns it), its flags false unless given."""
    names = ("single_word", "lstrip", "rstrip", "normalized", "special")
    return {"id": 0, "content": content, **{name: flags.get(name, False) for name in names}}


CHARS_BPE = {"type": "BPE", "vocab": {"a": 0, "\n": 1, "b": 2, "c": 3}, "merges": []}

# Documents the grammar found hfcompat wrong on, each fixed (fuzz/README.md lists them).
FOUND = {
    # An added token that is whitespace, with lstrip and rstrip: the next match lies inside the
    # spaces the previous one's rstrip took; tokenizers starts it where they end (empty, dropped).
    "lstrip_inside_previous_rstrip": Case(
        _document(CHARS_BPE, added_tokens=[_added("\n", lstrip=True, rstrip=True)]),
        ["\n\n", "a\n\n\nb", "\n \n", "\n"]),
    # A template before another post-processor hands each of its items on as an encoding, around
    # each of which BertProcessing lays a [SEP]: encode_ids (compiled) chained the ids instead.
    "template_then_bert_in_a_sequence": Case(
        _document({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                   "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 1, "[X]": 2, "[CLS]": 3, "[SEP]": 4}},
                  post_processor={"type": "Sequence", "processors": [
                      {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}},
                                                                {"SpecialToken": {"id": "[X]", "type_id": 0}}],
                       "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                       "special_tokens": {"[X]": {"id": "[X]", "ids": [2], "tokens": ["[X]"]}}},
                      {"type": "BertProcessing", "sep": ["[SEP]", 4], "cls": ["[CLS]", 3]}]}),
        ["a", "", "aa", "b"]),
    # single_word looks at the chars around a match with Rust's `\w` (Unicode 16): U+3329A, a CJK
    # ideograph of Unicode 17, is no word char to it, but is to the `regex` module.
    "single_word_next_to_a_unicode_17_char": Case(
        _document({"type": "WordLevel", "vocab": {"'a": 1, "a": 0}, "unk_token": "'a"},
                  added_tokens=[_added("'a", single_word=True, normalized=True, special=True)]),
        ["\U0003329a'a", "'a\U0003329a", "\u0558'a", "b'a"]),
    # Byte fallback on a prefixed piece ("##1" as <0x23> <0x23> <0x31>) gives spans past the word:
    # tokenizers reads them unshifted over the whole input's bytes; hfcompat shifted them, and
    # raised IndexError after a non-ASCII char.
    "byte_fallback_past_the_word": Case(
        _document({"type": "BPE", "unk_token": "<unk>", "continuing_subword_prefix": "##", "fuse_unk": True,
                   "byte_fallback": True, "vocab": {"<0x23>": 0, "<0x31>": 1, "<unk>": 2, "é": 3}, "merges": []},
                  pre_tokenizer={"type": "Whitespace"}),
        ["31\u3000", "é1", "a 31 é1 ab", "1é1"]),
    # A template naming a special it does not define, and a model that cannot encode the text:
    # tokenizers reports the model's error (it runs first); hfcompat reported the template's.
    "model_error_before_a_missing_special": Case(
        _document({"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "<unk>"},
                  post_processor={"type": "TemplateProcessing", "single": [
                      {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "[X]", "type_id": 0}}],
                      "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                      "special_tokens": {}}),
        ["zz", "q", "b", "zz q"]),
    # A special with more tokens than ids gives an Encoding whose tokens outnumber its offsets;
    # ByteLevel's offset trimming after it zips the two in tokenizers, hfcompat raised IndexError.
    "special_with_more_tokens_than_ids_then_trim": Case(
        _document({"type": "WordLevel", "vocab": {"a": 0, "x": 1}, "unk_token": "a"},
                  post_processor={"type": "Sequence", "processors": [
                      {"type": "TemplateProcessing", "single": [
                          {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "X", "type_id": 0}}],
                       "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                       "special_tokens": {"X": {"id": "X", "ids": [1], "tokens": ["x", " y"]}}},
                      {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True}]}),
        ["a", "a b", " a", ""]),
}


@pytest.mark.parametrize("backend_name", BACKENDS)
@pytest.mark.parametrize("name", sorted(FOUND))
def test_found_documents(backend_name: str, name: str) -> None:
    """Each document the grammar once found a difference on, with the texts that showed it."""
    assert isinstance(owner_load(json.dumps(FOUND[name].document)), tokenizers.Tokenizer)
    with _backend.use(backend_name):
        check_case(FOUND[name])


@pytest.mark.parametrize("backend_name", BACKENDS)
@settings(max_examples=EXAMPLES)
@given(case=cases())
def test_documents_from_the_grammar(backend_name: str, case: Case) -> None:
    """hfcompat agrees with tokenizers on a random document from the serialization grammar."""
    with _backend.use(backend_name):
        check_case(case)


def test_prefix_cut_inside_a_char() -> None:
    """A merge whose right token loses the prefix's byte length inside a char: tokenizers aborts the
    process loading it (invalid UTF-8 in its error message), so the grammar leaves such merges out
    and hfcompat refuses the document."""
    model = {"type": "BPE", "continuing_subword_prefix": "##", "vocab": {"a": 0, "中": 1, "a\ufffd": 2},
             "merges": [["a", "中"]]}
    with pytest.raises(FormatError, match="out of vocabulary"):
        tokenizer_from_json(json.dumps(_document(model)))


@pytest.mark.parametrize("prefix", [None, "##"])
def test_untagged_bpe_the_owner_panics_on(prefix: str | None) -> None:
    """A model without "type" whose BPE reading panics in tokenizers (the merge a b makes a token
    longer than every vocab token; with the prefix ##, b is shorter than the prefix) is refused,
    not read as the next type (found by the grammar: hfcompat loaded such a model as WordLevel)."""
    text = json.dumps(_document({"vocab": {"a": 0, "b": 1}, "merges": [["a", "b"]], "unk_token": "a",
                                 "continuing_subword_prefix": prefix}))
    assert not isinstance(owner_load(text), tokenizers.Tokenizer)
    with pytest.raises(FormatError, match="it panics"):
        tokenizer_from_json(text)
