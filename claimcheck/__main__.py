"""`python -m claimcheck COMMAND --text MODULE`: the engine's commands for any text (claimcheck/commands.py)."""
import sys

from claimcheck.commands import main

if __name__ == "__main__":
    sys.exit(main())
