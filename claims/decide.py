"""The rules as pure functions: a figure's verdict from its recorded measurement (stub)."""
