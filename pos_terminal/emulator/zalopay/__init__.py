"""ZaloPay's part of the emulator: the house service of both generations (quick pay, status
query, gateway orders, refunds, the bank list, callbacks), its wallets (customers) and their
codes; its routes and their fault routing (routes.py) are mounted from ZaloPay's declaration
(`routes.PART`)."""
