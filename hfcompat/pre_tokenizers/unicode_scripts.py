"""UnicodeScripts: cut where the script changes, by sentencepiece's script table (Unicode 9)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import ClassVar

import regex

from ..pipeline.normalized import PreTokenizedString, Span
from .base import SplitWise

# The scripts of sentencepiece's table (Unicode 9.0), by their Unicode names. Hiragana and
# Katakana count as Han; they come first so that the lookup tries them early.
_SCRIPT_NAMES = (
    "Han Hiragana Katakana Latin Common Inherited Cyrillic Greek Arabic Hangul Hebrew Thai "
    "Devanagari Adlam Ahom Anatolian_Hieroglyphs Armenian Avestan Balinese Bamum Bassa_Vah "
    "Batak Bengali Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian "
    "Caucasian_Albanian Chakma Cham Cherokee Coptic Cuneiform Cypriot Deseret Duployan "
    "Egyptian_Hieroglyphs Elbasan Ethiopic Georgian Glagolitic Gothic Grantha Gujarati Gurmukhi "
    "Hanunoo Hatran Imperial_Aramaic Inscriptional_Pahlavi Inscriptional_Parthian Javanese "
    "Kaithi Kannada Kayah_Li Kharoshthi Khmer Khojki Khudawadi Lao Lepcha Limbu Linear_A "
    "Linear_B Lisu Lycian Lydian Mahajani Malayalam Mandaic Manichaean Marchen Meetei_Mayek "
    "Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani "
    "Myanmar Nabataean New_Tai_Lue Newa Nko Ogham Ol_Chiki Old_Hungarian Old_Italic "
    "Old_North_Arabian Old_Permic Old_Persian Old_South_Arabian Old_Turkic Oriya Osage Osmanya "
    "Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic "
    "Samaritan Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sora_Sompeng Sundanese "
    "Syloti_Nagri Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangut Telugu "
    "Thaana Tibetan Tifinagh Tirhuta Ugaritic Vai Warang_Citi Yi"
).split()
_SCRIPT_RE = regex.compile("|".join(rf"(\p{{Script={name}}})" for name in _SCRIPT_NAMES))
_HAN = 1  # the group number of Han in _SCRIPT_RE
_ANY = 0  # spaces and chars the table does not know: they join the run before them
# Code points assigned after the table was made (the `regex` module knows them; HF does not).
_ASSIGNED_LATER = (
    "0558 0560 0588 058B-058C 05C8-05C9 05EF 061D 07FD-07FF 0860-089F 08B5 08BE-08D3 09FC-09FE "
    "0A76 0AFA-0AFF 0B53-0B55 0C04 0C3C 0C5C-0C5D 0C77 0C84 0CDC-0CDD 0CF3-0D00 0D04 0D3B-0D3C "
    "0D81 0E86 0E89 0E8C 0E8E-0E93 0E98 0EA0 0EA8-0EA9 0EAC 0EBA 0ECE 170D 1715-171F 180F 1878 "
    "1ABF-1AF0 1B4C-1B4F 1B7D-1B7F 1C89-1CBF 1CF7 1CFA 1DF6-1DFA 208F 209D-209F 20BF-20C4 23FF "
    "2427-2429 2B96-2B97 2BBA-2BBC 2BC9 2BD2-2BEB 2BF0-2BFF 2C2F 2C5F 2E45-2E63 2FFC-2FFF "
    "312E-312F 31BB-31BF 31E4-31EF 32FF 4DB6-4DBF 9FD6-9FFF A7AF A7B8-A7F6 A82C A8FE-A8FF "
    "AB66-AB6D FBC2-FBD2 FD40-FD4F FD90-FD91 FDC8-FDCF FDFE-FDFF 1019C 1032D-1032F 10570-105F3 "
    "10780-107BF 10940-10959 10A34-10A35 10A48 10D00-10D8F 10E80-10FF6 11070-11075 110C2-110CD "
    "11144-11147 111CE-111CF 1123F-11241 1133B 11380-113E2 1145A 1145E-11461 116B8-116B9 "
    "116D0-116E3 1171A 11740-1183B 11900-11ABF 11B00-11BF9 11D00-11FFF 1246F 12475-1247F "
    "12550-12FF2 1342F-143FA 16100-16139 16A70-16AC9 16D40-16ED3 16F45-16F4F 16F7F-16F87 "
    "16FE1-16FF6 187ED-187FF 18AF3-1AFFE 1B002-1B2FB 1CC00-1CFC3 1D127-1D128 1D1E9-1D1FF "
    "1D250-1D2F3 1D372-1D378 1D6A6 1DB00-1DFFF 1E030-1E7FE 1E94B 1EC71-1ED3D 1F10D-1F10F 1F12F "
    "1F16C-1F16F 1F1AD-1F1AE 1F260-1F265 1F6D3-1F6DF 1F6F7-1F6FC 1F774-1F77F 1F7D5-1F7FF "
    "1F8B0-1F90F 1F91F 1F928-1F92F 1F931-1F932 1F93F 1F94C-1F94F 1F95F-1F97F 1F992-1F9BF "
    "1F9C1-1FBFA 2A6D7-2A6DF 2B735-2B73F 2B81E 2CEA2-2EE5D 30000-3FC3F"
)
# Chars whose script changed since: the table's answer, as a name from _SCRIPT_NAMES.
_SCRIPT_CHANGED = {"\u0953": "Devanagari", "\u0954": "Devanagari", "\u0589": "Common",
                   "\u061c": "Common"}


def _parse_ranges(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of "HEX" / "HEX-HEX" ranges."""
    starts, ends = [], []
    for item in text.split():
        low, _, high = item.partition("-")
        starts.append(int(low, 16))
        ends.append(int(high or low, 16))
    return starts, ends


_LATER_STARTS, _LATER_ENDS = _parse_ranges(_ASSIGNED_LATER)
_SCRIPT_CACHE: dict[str, int] = {}


def script_of(char: str) -> int:
    """The script of `char` as UnicodeScripts compares them (an id; 0 means "Any")."""
    script = _SCRIPT_CACHE.get(char)
    if script is None:
        script = _SCRIPT_CACHE[char] = _lookup_script(char)
    return script


def _lookup_script(char: str) -> int:
    """Look up a char's script id: Hiragana, Katakana and U+30FC count as Han, " " as Any."""
    if char == " ":
        return _ANY
    if char in _SCRIPT_CHANGED:
        return _SCRIPT_NAMES.index(_SCRIPT_CHANGED[char]) + 1
    code = ord(char)
    i = bisect.bisect_right(_LATER_STARTS, code) - 1
    if i >= 0 and code <= _LATER_ENDS[i]:
        return _ANY
    if code == 0x30FC:
        return _HAN
    match = _SCRIPT_RE.match(char)
    if match is None:
        return _ANY
    return _HAN if match.lastindex <= 3 else match.lastindex


@dataclass
class UnicodeScripts(SplitWise):
    """Cut wherever the script changes; spaces and unknown chars join the run before them.

    Chars of "Any" script before the first real script are dropped (a leading space is lost).
    """

    TYPE: ClassVar[str] = "UnicodeScripts"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every segment at its script changes."""
        pts.split(lambda _, ns: [ns.slice(s, e) for s, e in _script_runs(ns.normalized)])


def _script_runs(text: str) -> list[Span]:
    """The runs of one script, each extended over the "Any" chars that follow it."""
    cuts = []
    last = None
    for i, char in enumerate(text):
        script = script_of(char)
        if script == _ANY:
            continue
        if script != last:
            cuts.append(i)
        last = script
    cuts.append(len(text))
    return list(zip(cuts, cuts[1:]))
