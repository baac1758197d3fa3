"""atheris target: the tiktoken reader, seeded with r50k.tiktoken (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['r50k.tiktoken'])
