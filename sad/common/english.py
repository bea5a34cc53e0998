"""Counts in English for messages and reports (`1 file`, `2 files`, `3 branch probabilities`).

In the lowest layer and free of imports so that any command can word its summary without loading more.
"""
from __future__ import annotations


def plural(n: int, word: str) -> str:
    """`1 block`, `2 blocks`, `3 branch probabilities`: a count with its noun in English."""
    if n == 1:
        return f"{n} {word}"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}s"
