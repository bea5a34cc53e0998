"""The answers about the rest of the program that a routine's build took, kept so that a summary of the
build is reused only where the rest of the program gives the same answers.

Data flow: a helper of the value backtracer's program-wide facts (sad.analysis.values.ProgramFacts). Most of
what a build asks depends on the routine and its callees alone, but not all: the constants floating storage
may hold (sad.analysis.storedconstants) flow down from every caller in the program, and the element rules
(sad.analysis.storedelements) are agreed between all the calls of a routine. DLARF's `TAU.NE.ZERO` is decided
for generic data in a program where no caller stores a zero in TAU and stays a probability where one does
(SGEEVX's tree); a summary built in the one program and taken into the other gave the other a different
report from its own build (sad check's result then depended on which files the same process checked before).
While a build runs (sad.analysis.summaries opens the journal at its start and closes it at its end) each
such answer is noted by what was asked; a summary carries them, and is taken in only where asking again
gives the same answers.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager


class Journal:
    """The questions asked of the program during the build under way, with their first answers."""

    def __init__(self) -> None:
        self._entries: dict[Hashable, object] | None = None
        self._quiet = 0  # depth of the derived answers being worked out (`deriving`)

    def open(self) -> None:
        """Start noting (a build begins); what was noted before is dropped."""
        self._entries = {}

    def close(self) -> dict[Hashable, object]:
        """Stop noting and give what was noted since `open` (nothing when it was not open)."""
        entries, self._entries = self._entries or {}, None
        return entries

    def note(self, question: Hashable, answer: object) -> None:
        """Note an answer, where a build is under way (the first answer to each question stands)."""
        if self._entries is not None and not self._quiet:
            self._entries.setdefault(question, answer)

    @contextmanager
    def deriving(self) -> Iterator[None]:
        """While an answer that is itself noted is worked out (an element rule, what a routine leaves in its
        formal), the questions asked on the way are not noted: the build takes only the derived answer, and
        a program that derives the same one serves the build alike. DGEMM's read rule for A asks whether
        each caller's actual may hold a stored constant; noting those sets tied DGEMM's summary to them
        (SGEHRD's WORK {0} in one program, {0, 1} in another) though both gave DGEMM no rule."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1
