"""BERTweet's tweet normalization (transformers' BertweetTokenizer with normalization=True), a text -> text rule.

The tweet's ’ and … become ' and ...; HTML entities become their characters (one that names none
vanishes); a run of four or more of one character that is not an ASCII letter or digit shrinks to three;
then NLTK's casual TweetTokenizer cuts the text into URLs, phone numbers, emoticons, HTML tags, arrows,
@handles, #hashtags, e-mail addresses, words, numbers, ellipses and single characters. A word starting
with "@" becomes "@USER", one starting with "http" or "www" (any case) "HTTPURL". The words are joined with
spaces, English contractions cut apart ("don't" -> "do n't", "it's" -> "it 's"), and the spaces collapsed.
transformers also writes an emoji as its name (":grinning_face:") when the `emoji` package is installed;
this rule is what it does without it. No alignment survives the rewriting: it is a plain text function.
"""

from __future__ import annotations

import html.entities

import regex

SPECIAL_PUNCTUATION = {"’": "'", "…": "..."}

_EMOTICON = r"""
    (?:
      [<>]? [:;=8] [\-o\*\']? [\)\]\(\[dDpP/\:\}\{@\|\\]    # eyes, nose, mouth
      |
      [\)\]\(\[dDpP/\:\}\{@\|\\] [\-o\*\']? [:;=8] [<>]?    # mouth, nose, eyes
      |
      <3                                                    # heart
    )"""
_URL = r"""
  (?:
    https?: (?: /{1,3} | [a-z0-9%] )                        # scheme and 1-3 slashes or a first char
    |
    [a-z0-9.\-]+[.] (?:[a-z]{2,13}) /                       # domain and slash
  )
  (?:                                                       # then one or more of
    [^\s()<>{}\[\]]+                                        # a run without spaces or brackets
    | \([^\s()]*?\([^\s()]+\)[^\s()]*?\)                    # parentheses nested once
    | \([^\s]+?\)                                           # parentheses
  )+
  (?:                                                       # ending with
    \([^\s()]*?\([^\s()]+\)[^\s()]*?\)
    | \([^\s]+?\)
    | [^\s`!()\[\]{};:'".,<>?«»“”‘’]                        # not a space or one of these
  )
  |                                                         # or a bare domain
  (?: (?<!@) [a-z0-9]+ (?:[.\-][a-z0-9]+)* [.] (?:[a-z]{2,13}) \b /? (?!@) )
"""
_PHONE = r"""
    (?:
      (?: \+?[01] [ *\-.\)]* )?                             # international prefix
      (?: [\(]? \d{3} [ *\-.\)]* )?                         # area code
      \d{3} [ *\-.\)]* \d{4}                                # exchange and number
    )"""
_HTML_TAG = r"""<[^>\s]+>"""
_ARROW = r"""[\-]+>|<[\-]+"""
_HANDLE = r"""(?:@[\w_]+)"""
_HASHTAG = r"""(?:\#+[\w_]+[\w\'_\-]*[\w_]+)"""
_EMAIL = r"""[\w.+-]+@[\w-]+\.(?:[\w-]\.?)+[\w-]"""
_REST = r"""
    (?:[^\W\d_](?:[^\W\d_]|['\-_])+[^\W\d_])               # words with apostrophes or dashes
    | (?:[+\-]?\d+[,/.:-]\d+[+\-]?)                         # numbers, fractions, decimals
    | (?:[\w_]+)                                            # other words
    | (?:\.(?:\s*\.){1,})                                   # ellipses
    | (?:\S)                                                # any other non-space character
    """
TWEET_WORD = regex.compile("(" + "|".join((_URL, _PHONE, _EMOTICON, _HTML_TAG, _ARROW, _HANDLE, _HASHTAG, _EMAIL,
                                           _REST)) + ")", regex.VERBOSE | regex.I | regex.UNICODE)
LONG_REPEAT = regex.compile(r"([^a-zA-Z0-9])\1{3,}")
HTML_ENTITY = regex.compile(r"&(#?(x?))([^&;\s]+);")
CP1252_RANGE = range(0x80, 0xA0)

# Applied in order to the joined words, each with str.replace.
REWRITES = (
    ("cannot ", "can not "), ("n't ", " n't "), ("n 't ", " n't "), ("ca n't", "can't"), ("ai n't", "ain't"),
    ("'m ", " 'm "), ("'re ", " 're "), ("'s ", " 's "), ("'ll ", " 'll "), ("'d ", " 'd "), ("'ve ", " 've "),
    (" p . m .", "  p.m."), (" p . m ", " p.m "), (" a . m .", " a.m."), (" a . m ", " a.m "),
)


def entity_text(found: regex.Match) -> str:
    """The character an HTML entity names ("" when it names none): decimal, hex (after "x") or named."""
    number: int | None
    if found.group(1):
        try:
            number = int(found.group(3), 16 if found.group(2) else 10)
            if number in CP1252_RANGE:
                return bytes((number,)).decode("cp1252")
        except ValueError:  # not a number, or a byte cp1252 leaves undefined
            number = None
    else:
        number = html.entities.name2codepoint.get(found.group(3))
    if number is None:
        return ""
    try:
        return chr(number)
    except (ValueError, OverflowError):
        return ""


def tweet_words(text: str) -> list[str]:
    """The casual TweetTokenizer's words of a text (entities replaced, long repeats shortened first)."""
    text = HTML_ENTITY.sub(entity_text, text)
    text = LONG_REPEAT.sub(r"\1\1\1", text)
    return [found.group() for found in TWEET_WORD.finditer(text)]


def normalized_word(word: str) -> str:
    """@handles as "@USER", links as "HTTPURL"."""
    if word.startswith("@"):
        return "@USER"
    lowered = word.lower()
    if lowered.startswith("http") or lowered.startswith("www"):
        return "HTTPURL"
    return SPECIAL_PUNCTUATION.get(word, word)


def normalize_tweet(text: str) -> str:
    """The text BERTweet's BPE runs on when normalization is on (without the `emoji` package)."""
    for char, replacement in SPECIAL_PUNCTUATION.items():
        text = text.replace(char, replacement)
    joined = " ".join(normalized_word(word) for word in tweet_words(text))
    for old, new in REWRITES:
        joined = joined.replace(old, new)
    return " ".join(joined.split())
