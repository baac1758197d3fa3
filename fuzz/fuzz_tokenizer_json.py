"""atheris target: the tokenizer.json reader, seeded with gpt2.json, t5.json, bert.json, wordlevel.json (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['gpt2.json', 't5.json', 'bert.json', 'wordlevel.json'])
