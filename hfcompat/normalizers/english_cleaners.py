"""The English text cleaning of transformers' ClvpTokenizer (its EnglishNormalizer, after tortoise-tts'
english_cleaners), done on each piece of text between added tokens before its byte-level BPE.

In order: every non-ASCII character dropped; lowercased; numbers spelled out (thousands separators removed,
pounds, dollars and cents, decimal points as "point", ordinals, years 1001-2999 read as years); the
abbreviations "mr." "dr." "st." ... written out; each run of whitespace one space; double quotes removed.
Python's `re`, as the class uses. A plain function of a string: the pre-tokenizer that follows it
(pre_tokenizers/cleaned_byte_level.py) calls it.
"""

from __future__ import annotations

import re

from ..errors import TokenizationError

ONES = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
         "nineteen")
TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
# (size, name) of the groups above a thousand's, largest first; numbers from 10**18 are not spelled.
SCALES = ((10**15, "quadrillion"), (10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))
TOO_LARGE = 10**18
ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
ABBREVIATIONS = (("mrs", "misess"), ("mr", "mister"), ("dr", "doctor"), ("st", "saint"), ("co", "company"),
                 ("jr", "junior"), ("maj", "major"), ("gen", "general"), ("drs", "doctors"), ("rev", "reverend"),
                 ("lt", "lieutenant"), ("hon", "honorable"), ("sgt", "sergeant"), ("capt", "captain"),
                 ("esq", "esquire"), ("ltd", "limited"), ("col", "colonel"), ("ft", "fort"))
_ABBREVIATION_PATTERNS = tuple((re.compile(rf"\b{short}\.", re.IGNORECASE), long) for short, long in ABBREVIATIONS)
_WHITESPACE = re.compile(r"\s+")


def number_words(number: int) -> str:
    """A number in English words ("minus ..." below zero; "number out of range" from 10**18)."""
    if number == 0:
        return "zero"
    if number < 0:
        return "minus " + number_words(-number)
    if number < 10:
        return ONES[number]
    if number < 20:
        return TEENS[number - 10]
    if number < 100:
        return TENS[number // 10] + (f"-{ONES[number % 10]}" if number % 10 else "")
    if number < 1000:
        return f"{ONES[number // 100]} hundred" + (f" {number_words(number % 100)}" if number % 100 else "")
    if number >= TOO_LARGE:
        return "number out of range"
    size, name = next((size, name) for size, name in SCALES if number >= size)
    rest = number % size
    return f"{number_words(number // size)} {name}" + (f", {number_words(rest)}" if rest else "")


def _integer(digits: str) -> int:
    """int() of the digits the class reads; what int() refuses (",5", too many digits) fails as it does there."""
    try:
        return int(digits)
    except ValueError as error:
        raise TokenizationError(f"transformers' ClvpTokenizer cannot read {digits[:20]!r} as a number: {error}") \
            from None


def _unit(count: int, one: str, many: str) -> str:
    """'1 dollar', '2 dollars'."""
    return f"{count} {one if count == 1 else many}"


def _dollars(found: re.Match) -> str:
    """"$3.50" as "3 dollars, 50 cents" (the digits spelled later)."""
    amount = found.group(1)
    parts = amount.split(".")
    if len(parts) > 2:
        return amount + " dollars"
    dollars = _integer(parts[0]) if parts[0] else 0
    cents = _integer(parts[1]) if len(parts) > 1 and parts[1] else 0
    if dollars and cents:
        return f"{_unit(dollars, 'dollar', 'dollars')}, {_unit(cents, 'cent', 'cents')}"
    if dollars:
        return _unit(dollars, "dollar", "dollars")
    if cents:
        return _unit(cents, "cent", "cents")
    return "zero dollars"


def _ordinal(found: re.Match) -> str:
    """"21st" as "twenty-onest" ... as the class writes it: the number's words and a suffix."""
    number = _integer(found.group(0)[:-2])
    suffix = "th" if 10 <= number % 100 <= 20 else ORDINAL_SUFFIXES.get(number % 10, "th")
    return number_words(number) + suffix


def _number(found: re.Match) -> str:
    """A number in words; 1001-2999 as a year ("nineteen hundred", "two thousand five")."""
    number = _integer(found.group(0))
    if not 1000 < number < 3000:
        return number_words(number)
    if number == 2000:
        return "two thousand"
    if 2000 < number < 2010:
        return "two thousand " + number_words(number % 100)
    if number % 100 == 0:
        return number_words(number // 100) + " hundred"
    return number_words(number)


def spelled_numbers(text: str) -> str:
    """The numbers of a lowercased ASCII text in words, with its money, decimals and ordinals."""
    text = re.sub(r"([0-9][0-9,]+[0-9])", lambda found: found.group(1).replace(",", ""), text)
    text = re.sub(r"£([0-9,]*[0-9])", r"\1 pounds", text)
    text = re.sub(r"\$([0-9.,]*[0-9])", _dollars, text)
    text = re.sub(r"([0-9]++\.[0-9]+)", lambda found: found.group(1).replace(".", " point "), text)
    text = re.sub(r"[0-9]++(st|nd|rd|th)", _ordinal, text)
    return re.sub(r"[0-9]+", _number, text)


def english_cleaners(text: str) -> str:
    """ClvpTokenizer's cleaning of a piece of text (see the module docstring)."""
    text = text.encode("ascii", "ignore").decode("ascii").lower()
    text = spelled_numbers(text)
    for pattern, replacement in _ABBREVIATION_PATTERNS:
        text = pattern.sub(replacement, text)
    return _WHITESPACE.sub(" ", text).replace('"', "")
