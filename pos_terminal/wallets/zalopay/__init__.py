"""ZaloPay's merchant API: signing, payment-code crypto, messages, the HTTP client.

Knows only the service's API: nothing of the UI, the journal, cameras or hardware.
"""
