"""hfcompat.encoding.Encoding against tokenizers.Encoding 0.23.3.

Both sides start from the same state (HF pickles an Encoding as JSON, which
`Encoding.to_state`/`from_state` read and write), run merge / truncate / pad / the
mapping methods, and every field, sequence range and overflowing part is compared.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Encoding as HfEncoding
from tokenizers import Tokenizer, models, pre_tokenizers, processors

from hfcompat.encoding import Encoding
from hfcompat.errors import TokenizationError

# The oracle panics on purpose in some tests; its backtraces would only add noise.
os.environ["RUST_BACKTRACE"] = "0"

WORDS = "the quick brown fox jumps over a lazy dog and then sleeps".split()
TEXTS = [
    "the quick brown fox",
    "a lazy dog and then",
    "the quick brown fox jumps over a lazy dog and then sleeps",
    "fox",
    "",
]


# --------------------------------------------------------------------------- oracle helpers


@lru_cache(maxsize=None)
def hf_tokenizer(max_length: int | None = None, stride: int = 0, bert: bool = True) -> Tokenizer:
    """A WordLevel tokenizer, with BERT specials, optionally truncating (to get overflow)."""
    vocab = {w: i for i, w in enumerate(["[UNK]", "[CLS]", "[SEP]", "[PAD]"] + WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    if bert:
        tok.post_processor = processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1))
    if max_length is not None:
        tok.enable_truncation(max_length, stride=stride)
    return tok


def hf_state(encoding: HfEncoding) -> dict:
    """The full state of an HF Encoding, sequence ranges and overflow included."""
    return json.loads(encoding.__getstate__())


def hf_from_state(state: dict) -> HfEncoding:
    """An HF Encoding holding exactly this state."""
    encoding = HfEncoding()
    encoding.__setstate__(json.dumps(state).encode())
    return encoding


def sample_states() -> list[dict]:
    """Encodings of single and pair inputs, with and without specials and overflow."""
    states = []
    for max_length, stride in ((None, 0), (7, 0), (9, 1)):
        tok = hf_tokenizer(max_length, stride)
        for text in TEXTS[:3]:
            for add in (True, False):
                states.append(hf_state(tok.encode(text, add_special_tokens=add)))
                states.append(hf_state(tok.encode(text, TEXTS[1], add_special_tokens=add)))
    states.append(hf_state(hf_tokenizer().encode("", add_special_tokens=False)))
    return states


SAMPLES = sample_states()


def _run(action: Any) -> Any:
    """The value of action(), or ("error", message) when it raises (HF panics included)."""
    try:
        return action()
    except (Exception, BaseException) as error:  # pyo3's PanicException is a BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return ("error", str(error))


# --------------------------------------------------------------------------- state round trip


@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_state_round_trip(index: int) -> None:
    state = SAMPLES[index]
    assert Encoding.from_state(state).to_state() == state


def test_from_lists_matches_a_model_encoding() -> None:
    hf = hf_tokenizer(bert=False).encode(TEXTS[2])
    ours = Encoding.from_lists(hf.ids, hf.tokens, hf.offsets, hf.word_ids, 0)
    state = hf_state(hf)
    assert ours.to_state() == state
    assert len(ours) == len(hf) and not ours.is_empty()


# --------------------------------------------------------------------------- truncate


def _truncate_cases() -> list[tuple[int, int, int, str]]:
    cases = []
    for index, state in enumerate(SAMPLES):
        n = len(state["ids"])
        for max_length in sorted({0, 1, 2, 3, n - 1, n, n + 1} - {-1}):
            for stride in range(0, min(max_length, 3)):
                for direction in ("right", "left"):
                    cases.append((index, max_length, stride, direction))
    return cases


@pytest.mark.parametrize("index,max_length,stride,direction", _truncate_cases())
def test_truncate(index: int, max_length: int, stride: int, direction: str) -> None:
    state = SAMPLES[index]
    hf = hf_from_state(state)
    hf.truncate(max_length, stride=stride, direction=direction)
    ours = Encoding.from_state(state)
    ours.truncate(max_length, stride, direction)
    assert ours.to_state() == hf_state(hf)


@pytest.mark.parametrize("stride", [3, 4])
def test_truncate_stride_too_large_fails_like_hf(stride: int) -> None:
    state = SAMPLES[4]
    hf = hf_from_state(state)
    expected = _run(lambda: hf.truncate(3, stride=stride))
    assert expected[0] == "error"
    with pytest.raises(TokenizationError) as info:
        Encoding.from_state(state).truncate(3, stride)
    assert str(info.value) == expected[1]


def test_truncate_bad_direction() -> None:
    hf = hf_from_state(SAMPLES[0])
    expected = _run(lambda: hf.truncate(2, direction="up"))
    with pytest.raises(ValueError) as info:
        Encoding.from_state(SAMPLES[0]).truncate(2, 0, "up")
    assert str(info.value) == expected[1]


# --------------------------------------------------------------------------- pad


def _pad_cases() -> list[tuple[int, int, str]]:
    cases = []
    for index, state in enumerate(SAMPLES):
        n = len(state["ids"])
        for length in sorted({0, n - 1, n, n + 1, n + 4} - {-1}):
            for direction in ("right", "left"):
                cases.append((index, length, direction))
    return cases


@pytest.mark.parametrize("index,length,direction", _pad_cases())
def test_pad(index: int, length: int, direction: str) -> None:
    state = SAMPLES[index]
    hf = hf_from_state(state)
    hf.pad(length, direction=direction, pad_id=9, pad_type_id=4, pad_token="<pad>")
    ours = Encoding.from_state(state)
    ours.pad(length, pad_id=9, pad_type_id=4, pad_token="<pad>", direction=direction)
    assert ours.to_state() == hf_state(hf)


def test_pad_bad_direction() -> None:
    hf = hf_from_state(SAMPLES[0])
    expected = _run(lambda: hf.pad(20, direction="up"))
    with pytest.raises(ValueError) as info:
        Encoding.from_state(SAMPLES[0]).pad(20, direction="up")
    assert str(info.value) == expected[1]


def test_pad_defaults() -> None:
    hf = hf_from_state(SAMPLES[1])
    hf.pad(30)
    ours = Encoding.from_state(SAMPLES[1])
    ours.pad(30)
    assert ours.to_state() == hf_state(hf)


# --------------------------------------------------------------------------- merge


def _merge_cases() -> list[tuple[tuple[int, ...], bool]]:
    picks = [(0,), (1, 2), (4, 5), (13, 14), (14, 20), (0, 13, 1), (20, 21, 22), (12, 24)]
    return [(p, g) for p in picks for g in (True, False)]


@pytest.mark.parametrize("picks,growing", _merge_cases())
def test_merge(picks: tuple[int, ...], growing: bool) -> None:
    states = [SAMPLES[i] for i in picks]
    hf = HfEncoding.merge([hf_from_state(s) for s in states], growing_offsets=growing)
    ours = Encoding.merge([Encoding.from_state(s) for s in states], growing)
    assert ours.to_state() == hf_state(hf)
    # the inputs are only read
    assert [Encoding.from_state(s).to_state() for s in states] == states


def test_merge_with_in_place() -> None:
    first, second = Encoding.from_state(SAMPLES[13]), Encoding.from_state(SAMPLES[20])
    first.merge_with(second, True)
    hf = HfEncoding.merge([hf_from_state(SAMPLES[13]), hf_from_state(SAMPLES[20])])
    assert first.to_state() == hf_state(hf)


# --------------------------------------------------------------------------- mappings


def _mapping_answers(encoding: Any, n_words: int, n_chars: int) -> dict[str, list]:
    """Every mapping method over every index (ours and HF share the method names)."""
    n = len(encoding.ids)
    answers: dict[str, list] = {
        "n_sequences": [encoding.n_sequences],
        "sequence_ids": list(encoding.sequence_ids),
        "token_to_sequence": [encoding.token_to_sequence(i) for i in range(n + 2)],
        "token_to_chars": [encoding.token_to_chars(i) for i in range(n + 2)],
        "token_to_word": [encoding.token_to_word(i) for i in range(n + 2)],
    }
    for seq in (0, 1, 2):
        answers[f"word_to_tokens{seq}"] = [encoding.word_to_tokens(w, seq) for w in range(n_words)]
        answers[f"word_to_chars{seq}"] = [encoding.word_to_chars(w, seq) for w in range(n_words)]
        answers[f"char_to_token{seq}"] = [encoding.char_to_token(c, seq) for c in range(n_chars)]
        answers[f"char_to_word{seq}"] = [encoding.char_to_word(c, seq) for c in range(n_chars)]
    return answers


def _padded(state: dict, direction: str) -> dict:
    hf = hf_from_state(state)
    hf.pad(len(state["ids"]) + 3, direction=direction)
    return hf_state(hf)


MAPPING_STATES = SAMPLES + [_padded(SAMPLES[1], "left"), _padded(SAMPLES[13], "left"),
                            _padded(SAMPLES[13], "right")]


@pytest.mark.parametrize("index", range(len(MAPPING_STATES)))
def test_mappings(index: int) -> None:
    state = MAPPING_STATES[index]
    expected = _mapping_answers(hf_from_state(state), 14, 70)
    assert _mapping_answers(Encoding.from_state(state), 14, 70) == expected


def test_fields_read_like_hf() -> None:
    hf = hf_tokenizer(9, 1).encode(TEXTS[2], TEXTS[0])
    ours = Encoding.from_state(hf_state(hf))
    assert ours.ids == hf.ids and ours.tokens == hf.tokens and ours.offsets == hf.offsets
    assert ours.word_ids == hf.word_ids and ours.words == hf.word_ids
    assert ours.type_ids == hf.type_ids and ours.attention_mask == hf.attention_mask
    assert ours.special_tokens_mask == hf.special_tokens_mask
    assert [o.ids for o in ours.overflowing] == [o.ids for o in hf.overflowing]
    assert len(ours) == len(hf)
    assert repr(ours) == repr(hf)


def test_set_sequence_id() -> None:
    state = SAMPLES[2]
    hf = hf_from_state(state)
    hf.set_sequence_id(1)
    ours = Encoding.from_state(state)
    ours.set_sequence_id(1)
    assert ours.to_state() == hf_state(hf)
    assert ours.sequence_ids == hf.sequence_ids


def test_copy_is_deep() -> None:
    ours = Encoding.from_state(SAMPLES[13])
    clone = ours.copy()
    clone.ids.append(1)
    clone.overflowing[0].tokens.append("x")
    clone.sequence_ranges[5] = (0, 0)
    assert ours.to_state() == SAMPLES[13]


# --------------------------------------------------------------------------- random states


@st.composite
def encoding_states(draw: Any, depth: int = 1) -> dict:
    """A random but well-formed Encoding state (disjoint ranges inside the encoding)."""
    n = draw(st.integers(0, 7))
    ints = st.lists(st.integers(0, 20), min_size=n, max_size=n)
    starts = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    widths = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    # disjoint ranges: with overlapping ones HF's answer depends on its hash order
    seq_ids = draw(st.lists(st.integers(0, 2), max_size=2, unique=True))
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=2 * len(seq_ids),
                                max_size=2 * len(seq_ids))))
    ranges = {str(seq_id): {"start": cuts[2 * i], "end": cuts[2 * i + 1]}
              for i, seq_id in enumerate(seq_ids)}
    overflowing = draw(st.lists(encoding_states(depth - 1), max_size=2)) if depth else []
    return {
        "ids": draw(ints), "type_ids": draw(ints),
        "tokens": draw(st.lists(st.sampled_from(["a", "Ġb", "c ", "[X]"]),
                                min_size=n, max_size=n)),
        "words": draw(st.lists(st.none() | st.integers(0, 4), min_size=n, max_size=n)),
        "offsets": [[s, s + w] for s, w in zip(starts, widths)],
        "special_tokens_mask": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
        "attention_mask": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
        "overflowing": overflowing,
        "sequence_ranges": ranges,
    }


@given(st.lists(encoding_states(), min_size=1, max_size=3), st.booleans())
def test_random_merge(states: list[dict], growing: bool) -> None:
    hf = HfEncoding.merge([hf_from_state(s) for s in states], growing_offsets=growing)
    ours = Encoding.merge([Encoding.from_state(s) for s in states], growing)
    assert ours.to_state() == hf_state(hf)


@given(encoding_states(), st.integers(0, 8), st.integers(0, 3), st.sampled_from(["left", "right"]))
def test_random_truncate_then_pad(state: dict, max_length: int, stride: int,
                                  direction: str) -> None:
    hf = hf_from_state(state)
    ours = Encoding.from_state(state)
    expected = _run(lambda: hf.truncate(max_length, stride=stride, direction=direction))
    got = _run(lambda: ours.truncate(max_length, stride, direction))
    assert (got is None) == (expected is None)
    if expected is not None:
        assert got == expected
        return
    assert ours.to_state() == hf_state(hf)
    hf.pad(max_length + 2, direction=direction, pad_id=7)
    ours.pad(max_length + 2, pad_id=7, direction=direction)
    assert ours.to_state() == hf_state(hf)


@given(encoding_states())
def test_random_mappings(state: dict) -> None:
    assert (_mapping_answers(Encoding.from_state(state), 6, 16)
            == _mapping_answers(hf_from_state(state), 6, 16))
