"""A second text for the claim engine (textcheck): a short original text on the running mean,
its tables, its claim tests and its committed evidence (docs/layout.md, "A second text")."""
