"""The path the loader of a remote-code directory written before hfcompat 0.2 imports; the class
lives in formats/transformers/remote_code.py. Kept so that such directories keep loading."""

from .transformers.remote_code import HfcompatTokenizer

__all__ = ["HfcompatTokenizer"]
