"""`python -m tests.checkout.journal_probe CONFIG read-only|full` (a payment code on stdin): what
Checkout does when the configured journal's file system takes no write. It runs in a process of
its own because that file system (tests/tmpfs.py) may exist only in another mount namespace.

- read-only: `open_checkout(settings)` on the journal as it is;
- full: the journal opened, its file system then filled, `pay(5000, code)`.

Prints one JSON object: the JournalUnavailable's reason and message, or {"error": null}."""

from __future__ import annotations

import json
import sys

from pos_terminal.checkout import JournalUnavailable
from pos_terminal.config import load_settings
from pos_terminal.counter import open_checkout
from pos_terminal.journal import Journal
from tests.tmpfs import fill


def main(config: str, condition: str) -> None:
    settings = load_settings(config, env={})
    code = sys.stdin.read().strip()
    try:
        if condition == "full":
            journal = Journal.open(settings.terminal.journal)
            fill(settings.terminal.journal.parent)
            try:
                with open_checkout(settings, journal=journal) as checkout:
                    checkout.pay(5_000, code)
            finally:
                journal.close()
        else:
            open_checkout(settings).close()
    except JournalUnavailable as err:
        print(json.dumps({"error": "JournalUnavailable", "reason": err.reason,
                          "message": str(err)}))
        return
    print(json.dumps({"error": None}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
