"""What every wallet provider shares: the published code tables and their one classifier
(code_table.py), the transport that tells "certainly not sent" from "no answer" (transport.py),
the strict reading of a JSON answer (json_answers.py), the payment code's RSA sealing
(crypto.py) and the wallet error classes (errors.py).

Each wallet is a package of its own beside these modules (declared
to the terminal in pos_terminal/wallet_registry.py) holding its fields, signing, code table (as
data) and settings; the modules here hold nothing of any one wallet.
"""
