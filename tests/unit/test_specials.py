"""tiktoken-style decoding helpers: the streaming decoder and the "recover" decode."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hfcompat.decoders.utf8 import StreamDecoder, decode_text
from hfcompat.specials import scrub_surrogates


def stream(chunks: list[bytes]) -> list[str]:
    """Feed byte chunks (one per id) through a StreamDecoder; the emitted pieces, flush last."""
    decoder = StreamDecoder(chunks.__getitem__)
    return [decoder.feed(i) for i in range(len(chunks))] + [decoder.flush()]


def test_stream_waits_for_whole_characters() -> None:
    """A character split over ids comes out once, when its last byte arrives."""
    assert stream([b"\xe4", b"\xbd", b"\xa0ok"]) == ["", "", "你ok", ""]
    assert stream([b"\xf0\x9f", b"\x98\x80"]) == ["", "😀", ""]


def test_stream_replaces_what_cannot_finish() -> None:
    """Bytes that can never form a character are emitted as U+FFFD at once; a dangling start at flush."""
    assert stream([b"\xff", b"a"]) == ["\ufffd", "a", ""]
    assert stream([b"\xc3", b"\xe4"]) == ["", "\ufffd", "\ufffd"]  # c3 waits; e4 shows it cannot finish


@given(st.lists(st.binary(max_size=5), max_size=12))
def test_stream_adds_up_to_one_decode(chunks: list[bytes]) -> None:
    """Whatever the chunks, the pieces join to the "replace" decode of all bytes."""
    assert "".join(stream(chunks)) == b"".join(chunks).decode("utf-8", "replace")


@given(st.binary(max_size=30))
def test_decode_modes(data: bytes) -> None:
    """"recover" keeps exactly the valid characters; other modes are bytes.decode's."""
    assert decode_text(data, "recover") == data.decode("utf-8", "ignore")
    assert decode_text(data, "replace") == data.decode("utf-8", "replace")


def test_scrub_surrogates() -> None:
    """Lone surrogates become U+FFFD (tiktoken round-trips through UTF-16 to the same effect)."""
    assert scrub_surrogates("a\ud800b\udfff") == "a\ufffdb\ufffd"
    assert scrub_surrogates("😀") == "😀"
    assert scrub_surrogates("\ud83d\udc4d\ud83d") == "👍\ufffd"  # a pair is the char it encodes
