"""Readers and writers of the tokenizer file formats."""
