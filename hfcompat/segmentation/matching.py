"""Dictionary maximum matching: forward, backward and bidirectional."""

from __future__ import annotations

from .dictionary import Dictionary


def forward_max_match(text: str, dictionary: Dictionary) -> list[str]:
    """Left to right, take the longest dictionary word at each position (one character if none)."""
    freq = dictionary.freq
    n = len(text)
    words = []
    k = 0
    while k < n:
        end = k + 1
        i = k + 1
        while i <= n and text[k:i] in freq:  # every prefix of a word is a key
            if freq[text[k:i]]:
                end = i
            i += 1
        words.append(text[k:end])
        k = end
    return words


def backward_max_match(text: str, dictionary: Dictionary) -> list[str]:
    """Right to left, take the longest dictionary word ending at each position."""
    freq = dictionary.freq
    longest = max(dictionary.max_length, 1)
    words = []
    end = len(text)
    while end > 0:
        start = end - 1
        for length in range(min(longest, end), 1, -1):
            if freq.get(text[end - length:end]):
                start = end - length
                break
        words.append(text[start:end])
        end = start
    words.reverse()
    return words


def bidirectional_max_match(text: str, dictionary: Dictionary) -> list[str]:
    """Both directions; keep the one with fewer words, then fewer single characters, else backward."""
    forward = forward_max_match(text, dictionary)
    backward = backward_max_match(text, dictionary)
    if len(forward) != len(backward):
        return forward if len(forward) < len(backward) else backward
    if _singles(forward) < _singles(backward):
        return forward
    return backward


def _singles(words: list[str]) -> int:
    """How many one-character words a segmentation has."""
    return sum(1 for word in words if len(word) == 1)
