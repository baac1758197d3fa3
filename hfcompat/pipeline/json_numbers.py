"""Numbers in tokenizer.json and vocab.json read exactly as HF's reader (serde_json) reads them."""

from __future__ import annotations

import math

from ..errors import FormatError

_U64_MAX = 2**64 - 1
_POW10 = [float(f"1e{exponent}") for exponent in range(309)]


def serde_json_int(literal: str) -> int | float:
    """What serde_json makes of an integer literal: an int when it fits u64 (or, negative, i64);
    else, like "-0", an f64, which no id field takes (readers pass this as `parse_int`)."""
    value = int(literal)
    if 0 <= value <= _U64_MAX and not literal.startswith("-") or -2**63 <= value < 0:
        return value
    return serde_json_f64(literal)


def serde_json_f64(literal: str) -> float:
    """The f64 that HF's JSON reader (serde_json without `float_roundtrip`) makes of a number literal.

    It is not always the nearest double: the decimal digits become an integer (digits
    past u64 are dropped), rounded to f64, then scaled by one power of ten, rounding
    twice. T5's tokenizer.json has 8,334 of 32,100 scores read 1 ULP off this way, and
    that changes segmentations, so tokenizer.json readers pass this as `parse_float`.
    """
    text = literal.strip()
    positive = not text.startswith("-")
    digits = text.lstrip("-")
    mantissa, _, exponent_text = digits.replace("E", "e").partition("e")
    integer, _, fraction = mantissa.partition(".")
    significand, exponent, overflowed = 0, 0, False
    for digit in map(int, integer):
        if overflowed or _u64_overflows(significand, digit):
            overflowed = True
            exponent += 1  # digits past u64 only scale the number
        else:
            significand = significand * 10 + digit
    overflowed = False  # the fraction checks afresh, then drops every digit after its first overflow
    for digit in map(int, fraction):
        if overflowed or _u64_overflows(significand, digit):
            overflowed = True
        else:
            significand = significand * 10 + digit
            exponent -= 1
    if exponent_text:
        exponent = _add_exponent(exponent, exponent_text, significand == 0)
        if exponent is None:
            return 0.0 if positive else -0.0
    value = _scale(float(significand), exponent)
    return value if positive else -value


def _u64_overflows(significand: int, digit: int) -> bool:
    """Whether `significand * 10 + digit` exceeds u64 (serde_json's `overflow!`)."""
    return significand >= _U64_MAX // 10 and (significand > _U64_MAX // 10 or digit > _U64_MAX % 10)


def _add_exponent(exponent: int, text: str, zero: bool) -> int | None:
    """Add an `e±N` part as serde_json does; None means the literal is ±0."""
    negative = text.startswith("-")
    magnitude = text.lstrip("+-")
    if int(magnitude) > 2**31 - 1:  # serde_json gives up on the exponent
        if not zero and not negative:
            raise FormatError("number out of range")
        return None
    total = exponent - int(magnitude) if negative else exponent + int(magnitude)
    return max(-(2**31), min(2**31 - 1, total))  # i32 saturating add/sub


def _scale(value: float, exponent: int) -> float:
    """value * 10**exponent with serde_json's single table multiply or divide."""
    while True:
        if abs(exponent) < len(_POW10):
            if exponent >= 0:
                value *= _POW10[exponent]
                if math.isinf(value):
                    raise FormatError("number out of range")
            else:
                value /= _POW10[-exponent]
            return value
        if value == 0.0:
            return value
        if exponent >= 0:
            raise FormatError("number out of range")
        value /= 1e308
        exponent += 308
