"""The emulator's MoMo part: MoMo's POS API (payment, status query, refund, confirm) with its own
signing and checking code, written from shared/spec/momo.md (it imports nothing of the client's
pos_terminal.wallets.momo), its demo customers holding ``MM`` codes, and its faults."""
