"""safeio: files that a kill, a full disk or a second process cannot corrupt.

The claim engine (textcheck/) and this chapter's packages both write through it; it knows neither
(an import-linter contract): pure standard library and filelock.  files.py is the one atomic write,
locks.py the lock of a read-modify-write, transaction.py the all-or-nothing save of several files,
folders.py the checks of a folder a command writes into.
"""
