"""atheris target: the tekken reader, seeded with tekken.json (see fuzz/README.md)."""

from harness import main

if __name__ == "__main__":
    main(['tekken.json'])
