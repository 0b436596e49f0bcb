"""ShopeePay's part of the emulator: its CPM calls as shared/spec/shopeepay.md describes them
(signed bodies, amounts ×100, errcodes and transaction statuses), its demo customers holding
``SPC`` codes, and the faults every JSON wallet's part has (emulator/json_part.py)."""
