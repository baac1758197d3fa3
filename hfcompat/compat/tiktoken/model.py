"""`tiktoken.model`: which encoding an OpenAI model name uses (tiktoken 0.14's table)."""

from __future__ import annotations

from .core import Encoding
from .registry import get_encoding

__all__ = ["MODEL_PREFIX_TO_ENCODING", "MODEL_TO_ENCODING", "encoding_for_model", "encoding_name_for_model"]

O200K, CL100K, P50K, R50K = "o200k_base", "cl100k_base", "p50k_base", "r50k_base"

# Tried in this order (a longer prefix before a shorter one it begins with).
MODEL_PREFIX_TO_ENCODING: dict[str, str] = {
    "o1-": O200K, "o3-": O200K, "o4-mini-": O200K, "gpt-5": O200K, "gpt-4.5-": O200K, "gpt-4.1-": O200K,
    "chatgpt-4o-": O200K, "gpt-4o-": O200K, "gpt-4-": CL100K, "gpt-3.5-turbo-": CL100K,
    "gpt-35-turbo-": CL100K, "gpt-oss-": "o200k_harmony", "ft:gpt-4o": O200K, "ft:gpt-4": CL100K,
    "ft:gpt-3.5-turbo": CL100K, "ft:davinci-002": CL100K, "ft:babbage-002": CL100K,
}

MODEL_TO_ENCODING: dict[str, str] = {
    **dict.fromkeys(["o1", "o3", "o4-mini", "gpt-5", "gpt-4.1", "gpt-4o"], O200K),
    **dict.fromkeys(["gpt-4", "gpt-3.5-turbo", "gpt-3.5", "gpt-35-turbo", "davinci-002", "babbage-002",
                     "text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"], CL100K),
    **dict.fromkeys(["text-davinci-003", "text-davinci-002", "code-davinci-002", "code-davinci-001",
                     "code-cushman-002", "code-cushman-001", "davinci-codex", "cushman-codex"], P50K),
    **dict.fromkeys(["text-davinci-001", "text-curie-001", "text-babbage-001", "text-ada-001", "davinci",
                     "curie", "babbage", "ada", "text-similarity-davinci-001", "text-similarity-curie-001",
                     "text-similarity-babbage-001", "text-similarity-ada-001", "text-search-davinci-doc-001",
                     "text-search-curie-doc-001", "text-search-babbage-doc-001", "text-search-ada-doc-001",
                     "code-search-babbage-code-001", "code-search-ada-code-001"], R50K),
    **dict.fromkeys(["text-davinci-edit-001", "code-davinci-edit-001"], "p50k_edit"),
    **dict.fromkeys(["gpt2", "gpt-2"], "gpt2"),
}


def encoding_name_for_model(model_name: str) -> str:
    """The encoding a model uses, by its exact name, else by a known prefix; KeyError if neither."""
    if model_name in MODEL_TO_ENCODING:
        return MODEL_TO_ENCODING[model_name]
    for prefix, name in MODEL_PREFIX_TO_ENCODING.items():
        if model_name.startswith(prefix):
            return name
    raise KeyError(f"Could not automatically map {model_name} to a tokeniser. "
                   "Please use `tiktoken.get_encoding` to explicitly get the tokeniser you expect.")


def encoding_for_model(model_name: str) -> Encoding:
    """The Encoding a model uses (KeyError for a model name it cannot map)."""
    return get_encoding(encoding_name_for_model(model_name))
