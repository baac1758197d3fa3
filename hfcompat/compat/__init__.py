"""Drop-in modules with the owners' APIs on hfcompat: `hfcompat.compat.tiktoken` takes tiktoken's
place and `hfcompat.compat.sentencepiece` sentencepiece's (their names, arguments, results and
errors), running on hfcompat's own readers and Tokenizer."""
