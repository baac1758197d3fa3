"""`python -m hfcompat`: the same command as the `hfcompat` console script."""

from .cli import main

if __name__ == "__main__":
    main()
