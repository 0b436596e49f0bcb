"""ZaloPay's part of the emulator: the house service of both generations (quick pay, status
query, gateway orders, refunds, the bank list, callbacks), its wallets (customers) and their
codes. Its routes and fault routing are mounted from ZaloPay's declaration (server.py's
`ZALOPAY_PART`)."""
