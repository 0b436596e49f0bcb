"""What every wallet provider shares: the published code tables and their one classifier.

A provider's own package (ZaloPay: ``pos_terminal.wallet``; MoMo: ``pos_terminal.wallets.momo``)
holds its fields, signing, code table (as data) and settings; this package holds nothing of any
one wallet.
"""
