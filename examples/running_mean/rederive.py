"""`python -m examples.running_mean.rederive`: the text's committed figures decided again from its
results/ alone (claimcheck/rederive.py, handed this text)."""
import sys

from claimcheck import rederive
from examples.running_mean.chapter import CHAPTER

if __name__ == "__main__":
    sys.exit(rederive.main(CHAPTER, prog="python -m examples.running_mean.rederive"))
