"""`python -m textcheck COMMAND --text MODULE`: the engine's commands for any text (textcheck/commands.py)."""
import sys

from textcheck.commands import main

if __name__ == "__main__":
    sys.exit(main())
