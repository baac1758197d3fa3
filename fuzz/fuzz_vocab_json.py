"""atheris target: the vocab.json reader, seeded with vocab.json (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['vocab.json'])
