"""atheris target: the gguf reader, seeded with llama.gguf, gpt2.gguf (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['llama.gguf', 'gpt2.gguf'])
