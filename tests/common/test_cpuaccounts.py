"""CPU seconds charged by file (sad.common.cpuaccounts): the bookkeeping, on a clock the test moves."""
from __future__ import annotations

from sad.common.cpuaccounts import Accounts, charged_to, opened


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_seconds_go_to_the_account_charged_while_they_pass():
    clock = Clock()
    accounts = Accounts(clock, own="main.f")
    clock.now += 2.0                          # the unit's own work
    with opened(accounts):
        with charged_to("dgemm.f"):
            clock.now += 5.0
            assert accounts.charged() == ("dgemm.f", 5.0)
            with charged_to("lsame.f"):
                clock.now += 1.0
            clock.now += 3.0                  # back in DGEMM's build
        with charged_to("main.f"):            # the unit's own file is its own account
            clock.now += 4.0
            assert accounts.charged() == (None, 6.0)
    assert accounts.charged() == (None, 6.0)
    assert accounts.most() == ("dgemm.f", 8.0)
    assert accounts.total() == 15.0


def test_nothing_is_charged_where_no_accounts_are_open():
    with charged_to("dgemm.f"):
        pass
    clock = Clock()
    accounts = Accounts(clock)
    with opened(accounts):
        pass
    with charged_to("dgemm.f"):               # closed again: the block is not charged there
        clock.now += 1.0
    assert accounts.most() == (None, 1.0)
