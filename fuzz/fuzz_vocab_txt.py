"""atheris target: the vocab.txt reader, seeded with vocab.txt (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['vocab.txt'])
