"""payOS, merchant-presented: the terminal creates a payment request for the sale, shows its
VietQR (any Vietnamese bank app pays it), and follows the request until the transfer has arrived
(shared/spec/payos.md). Declared in declaration.py; nothing outside this package and its emulator
part names it but the registry's list of built-in wallets."""
