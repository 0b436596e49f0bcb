"""What every wallet provider shares: the published code tables and their one classifier
(code_table.py), the transport that tells "certainly not sent" from "no answer" (transport.py),
the strict reading of a JSON answer (json_answers.py), the payment code's RSA sealing
(crypto.py) and the wallet error classes (errors.py).

A provider's own package (ZaloPay: ``pos_terminal.wallet``; MoMo: ``pos_terminal.wallets.momo``)
holds its fields, signing, code table (as data) and settings; this package holds nothing of any
one wallet.
"""
