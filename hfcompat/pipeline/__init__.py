"""What every stage of the pipeline works on: the normalized string with its alignments and the
pre-tokenized splits (normalized.py), added and special tokens (added_vocabulary.py), truncation
and padding of encodings, the GPT-2 byte alphabet (bytelevel.py), Oniguruma patterns read as
Python `regex` (oniguruma.py: normalizers, pre-tokenizers and decoders all take them), the
bounded word cache, the readers of tokenizer.json fields the components share, and the chat
templates that turn a conversation into the text to encode (chat_template.py, tool_schemas.py)."""
