"""atheris target: the sentencepiece reader, seeded with llama.model, albert.model (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['llama.model', 'albert.model'])
