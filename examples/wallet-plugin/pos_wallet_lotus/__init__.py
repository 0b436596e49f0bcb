"""Lotus Pay, an example wallet installed beside pos-terminal (examples/wallet-plugin/README.md).

Everything the terminal needs about it is its declaration (declaration.py), found through the
entry point ``pos_terminal.wallets`` of this distribution; its stand-in service (emulator.py)
joins the terminal's emulator the same way."""
