"""The text rewriting of transformers' GPTNeoXJapaneseTokenizer (its SubWordJapaneseTokenizer, after
tanreinama's Japanese-BPEEncoder_V2), done on each piece of text between added tokens before segmentation.

Spaces (ASCII and U+3000) become "<SP>", line ends "<BR>" ("\\r\\n" first), tabs "<TAB>", the dashes U+2014
and U+2212 the prolonged sound mark "ー", and each emoji of emoji.json's "emoji" map its tag, in the map's
order. With do_clean_text the content is cleaned after that: URLs, e-mail addresses, telephone numbers,
dates (Western and Japanese era) and prices become tags, and runs of box-drawing and block characters one
"<BLOCK>". Plain functions of a string: the model (models/japanese_subwords.py) calls them.
"""

from __future__ import annotations

import re

# Fixed replacements, in the order they are made.
WHITESPACE_TAGS = ((" ", "<SP>"), ("\u3000", "<SP>"), ("\r\n", "<BR>"), ("\n", "<BR>"), ("\r", "<BR>"),
                   ("\t", "<TAB>"), ("\u2014", "ー"), ("\u2212", "ー"))

# What may follow a date: hours, minutes, a colon, a weekday in parentheses or as one enclosed character.
_DATE_TAIL = r"(\d{1,2}|:|\d{1,2}時|\d{1,2}分|\(日\)|\(月\)|\(火\)|\(水\)|\(木\)|\(金\)|\(土\)|㈰|㈪|㈫|㈬|㈭|㈮|㈯)*"
_MONTH = r"(0?[1-9]|1[0-2])"
_DAY = r"(0?[1-9]|[12][0-9]|3[01])"
_URL_CHARS = r"[-_\.!~*\'()a-zA-Z0-9;\/?:\@&=\+$,%#]"
# (pattern, tag) in the order the class applies them.
CONTENT_TAGS = (
    (re.compile(rf"(https?|ftp)(:\/\/{_URL_CHARS}+)"), "<URL>"),
    (re.compile(r"[A-Za-z0-9\._+]*@[\-_0-9A-Za-z]+(\.[A-Za-z]+)*"), "<EMAIL>"),
    (re.compile(r"[\(]{0,1}[0-9]{2,4}[\)\-\(]{0,1}[0-9]{2,4}[\)\-]{0,1}[0-9]{3,4}"), "<TEL>"),
    (re.compile(rf"([12]\d{{3}}[/\-年])*{_MONTH}[/\-月]({_DAY}日?)*{_DATE_TAIL}"), "<DATE>"),
    (re.compile(rf"(明治|大正|昭和|平成|令和|㍾|㍽|㍼|㍻|\u32ff)\d{{1,2}}年{_MONTH}月{_DAY}日{_DATE_TAIL}"), "<DATE>"),
    # Amounts with 億/万/千 and thousands separators, a currency, then a tax note (possessive: no backtracking).
    (re.compile(r"(?:\d,\d{3}|[\d億])*+(?:\d,\d{3}|[\d万])*+(?:\d,\d{3}|[\d千])*+"
                r"(?:千円|万円|千万円|円|千ドル|万ドル|千万ドル|ドル|千ユーロ|万ユーロ|千万ユーロ|ユーロ)+"
                r"(?:\(税込\)|\(税抜\)|\+tax)*"), "<PRICE>"),
)
BOX_DRAWING = "".join(map(chr, range(0x2500, 0x2580)))  # ─ ... ╿
BLOCKS = "".join(map(chr, range(0x2580, 0x25A0)))  # ▀ ... ▟
BLOCK_TAG = "<BLOCK>"
_BLOCK_TABLE = str.maketrans(dict.fromkeys(BOX_DRAWING + BLOCKS, BLOCK_TAG))


def tagged_text(text: str, emoji: dict[str, str]) -> str:
    """The text with whitespace, dashes and emoji replaced by their tags."""
    for old, new in WHITESPACE_TAGS:
        text = text.replace(old, new)
    for symbol, tag in emoji.items():
        if symbol in text:
            text = text.replace(symbol, tag)
    return text


def cleaned_text(text: str) -> str:
    """do_clean_text's rewriting: content tags, then each run of box-drawing and block characters one tag."""
    for pattern, tag in CONTENT_TAGS:
        text = pattern.sub(tag, text)
    text = text.translate(_BLOCK_TABLE)
    while BLOCK_TAG * 2 in text:
        text = text.replace(BLOCK_TAG * 2, BLOCK_TAG)
    return text
