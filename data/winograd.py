"""The Winograd referent task: sentences where one adjective decides what "it" refers to.

  the {x} did not cross the {y} because it was too {adj} , so the {ref} waited .

Word-level tokens.  The scored position is the word after "so the" (position 15, predicted
from position 14): correct only if it is the referent.

- cheatable: x is an animal and y a place; crosser adjectives identify the animal, crossed
  ones the place, so knowing which words are present suffices.  Held out: some animal/place
  pairs never seen in training.
- hardened: both nouns from one pool of sixteen, either in either slot; four crosser adjectives
  (tired, scared, slow, weak) make the referent x, four crossed ones (wet, wide, busy, steep)
  make it y.  Held out: ordered pairs whose reversed order was in training, so anything that
  knows which two nouns are present but not which came first must answer backwards.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import torch

TEMPLATE = "the {x} did not cross the {y} because it was too {adj} , so the {ref} waited ."
CROSSER = ("tired", "scared", "slow", "weak")      # the referent is the one that crosses (x)
CROSSED = ("wet", "wide", "busy", "steep")          # the referent is the thing crossed (y)
ANIMALS = ("animal", "dog", "cat", "horse", "fox", "deer", "goat", "sheep")
PLACES = ("street", "road", "river", "bridge", "field", "square", "track", "lane")
POOL = ANIMALS + PLACES                              # sixteen nouns for the hardened task
X_POS, Y_POS, ADJ_POS, QUERY_POS = 1, 6, 11, 14      # QUERY_POS predicts the referent
SENTENCE_LEN = 18


def sentence(x: str, y: str, adj: str) -> list[str]:
    ref = x if adj in CROSSER else y
    return TEMPLATE.format(x=x, y=y, adj=adj, ref=ref).split()


@dataclass
class Task:
    name: str
    vocab: list[str]
    train: list[list[str]]
    test: list[list[str]]

    @property
    def stoi(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.vocab)}

    def encode(self, sentences: list[list[str]]) -> torch.Tensor:       # (N, 18)
        s = self.stoi
        return torch.tensor([[s[w] for w in words] for words in sentences])


def vocabulary() -> list[str]:
    words = set(TEMPLATE.replace("{x}", "").replace("{y}", "").replace("{adj}", "")
                .replace("{ref}", "").split())
    return sorted(words) + list(POOL) + list(CROSSER) + list(CROSSED)


def hardened(seed: int = 0, held_out_fraction: float = 0.25) -> Task:
    """Every ordered pair of distinct nouns with every adjective, except: for a random quarter
    of the unordered pairs one order is held out (and its reverse kept in training)."""
    rng = random.Random(seed)
    pairs = [(a, b) for i, a in enumerate(POOL) for b in POOL[i + 1:]]
    rng.shuffle(pairs)
    held = pairs[: round(len(pairs) * held_out_fraction)]
    test_pairs = {(b, a) if rng.random() < 0.5 else (a, b) for a, b in held}
    train, test = [], []
    for x in POOL:
        for y in POOL:
            if x == y:
                continue
            for adj in CROSSER + CROSSED:
                (test if (x, y) in test_pairs else train).append(sentence(x, y, adj))
    return Task("hardened", vocabulary(), train, test)


def cheatable(seed: int = 0, held_out_fraction: float = 0.25) -> Task:
    """x an animal, y a place; a random quarter of the 64 animal/place pairs held out."""
    rng = random.Random(seed)
    pairs = [(a, p) for a in ANIMALS for p in PLACES]
    rng.shuffle(pairs)
    held = set(pairs[: round(len(pairs) * held_out_fraction)])
    train, test = [], []
    for x, y in pairs:
        for adj in CROSSER + CROSSED:
            (test if (x, y) in held else train).append(sentence(x, y, adj))
    return Task("cheatable", vocabulary(), train, test)


TASKS = {"hardened": hardened, "cheatable": cheatable}


def task(spec: str) -> Task:
    """A task by name, with its default split (task seed 0, a quarter held out), or with options:
    "cheatable,split=3,held_out=0.125" (an alternative reading's generator choices)."""
    name, *options = spec.split(",")
    if name not in TASKS:
        raise KeyError(f"unknown Winograd task {name!r}; known: {', '.join(TASKS)}")
    kwargs = {}
    for option in options:
        key, _, value = option.partition("=")
        if key == "split" and value.isdigit():
            kwargs["seed"] = int(value)
        elif key == "held_out" and _fraction(value):
            kwargs["held_out_fraction"] = float(value)
        else:
            raise KeyError(f"unknown Winograd task option {option!r} in {spec!r}; known: split=<int>, "
                           "held_out=<fraction between 0 and 1>")
    return TASKS[name](**kwargs)


def _fraction(text: str) -> bool:
    try:
        return 0 < float(text) < 1
    except ValueError:
        return False
