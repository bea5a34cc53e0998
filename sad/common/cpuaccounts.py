"""The CPU seconds of a limited analysis, charged to the file whose routines they build.

Data flow: sad.codebase.timelimit opens the accounts of one unit's analysis (`Accounts`, this thread's while
the limit runs) and its watchdog reads the account being charged; the analysis switches accounts where it
starts on another file's work (`charged_to`: sad.analysis.pipeline around each routine's build, sad.codebase
.routines around each file's parse). Where no limit runs, `charged_to` does nothing.

Why charged by file: `sad check` builds a routine once per worker and reuses it for every later file that
calls it, so the first file to call into a deep call tree builds the whole tree, and which file that is depends
on the order the workers take the files in. With one account per unit, DGEEV's file took 15.8 CPU s at -j 1
(its 59 callee files built before it) and 58.1 s at -j 2 (dealt alone to a worker that had built nothing):
2 s under the 60 s limit, and past it when the same run shared its core with another job, so that its
report, with DHSEQR and DTREVC3 then priced by name, depended on the schedule and the load. Charged to the
file whose routines they build, each file's seconds are the same whichever unit builds them first.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_active = threading.local()


class Accounts:
    """A limited block's CPU seconds by account: a file's path, or None for the unit's own work (its own file
    is that account too). Read by the watchdog thread while the analysing thread switches: a lock keeps the
    account, its seconds and the clock's start consistent."""

    def __init__(self, clock: Callable[[], float], own: str | None = None) -> None:
        self._clock = clock
        self._own = own
        self._lock = threading.Lock()
        self._spent: dict[str | None, float] = {}
        self._current: str | None = None
        self._since = clock()

    def _key(self, account: str | None) -> str | None:
        return None if account == self._own else account

    def switch(self, account: str | None) -> str | None:
        """Charge from now on to `account`; the account charged until now."""
        with self._lock:
            previous, spent = self._snapshot()
            self._spent, self._current, self._since = spent, self._key(account), self._clock()
            return previous

    def _snapshot(self) -> tuple[str | None, dict[str | None, float]]:
        """The account charged now and every account's seconds up to now (under the lock)."""
        spent = dict(self._spent)
        spent[self._current] = spent.get(self._current, 0.0) + self._clock() - self._since
        return self._current, spent

    def charged(self) -> tuple[str | None, float]:
        """The account charged now and its seconds so far."""
        with self._lock:
            current, spent = self._snapshot()
        return current, spent[current]

    def most(self) -> tuple[str | None, float]:
        """The account charged the most seconds and its seconds (the current one on a tie)."""
        with self._lock:
            current, spent = self._snapshot()
        return max(spent.items(), key=lambda item: (item[1], item[0] == current))

    def total(self) -> float:
        """The seconds of every account together."""
        with self._lock:
            return sum(self._snapshot()[1].values())


@contextmanager
def opened(accounts: Accounts) -> Iterator[Accounts]:
    """Make `accounts` this thread's for the block (the ones open before are restored after it)."""
    before = getattr(_active, "accounts", None)
    _active.accounts = accounts
    try:
        yield accounts
    finally:
        _active.accounts = before


@contextmanager
def charged_to(account: str) -> Iterator[None]:
    """Charge the block's CPU seconds to `account` (a file's path) in this thread's open accounts, then go back
    to the account charged before; nothing where none are open."""
    accounts: Accounts | None = getattr(_active, "accounts", None)
    if accounts is None:
        yield
        return
    previous = accounts.switch(account)
    try:
        yield
    finally:
        accounts.switch(previous)
