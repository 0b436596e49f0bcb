"""The Terminal API: the counter as an HTTP/JSON service for the shop's POS software, and the
customer display (docs/terminal-api.md). A front end beside the UI, the CLI and headless mode:
it drives the counter (pos_terminal.counter) and imports nothing of the wallet, the checkout or
the journal.

    app.py        the FastAPI application: routers, error table, body limit, access log
    auth.py       bearer tokens and scopes; the display's loopback rule
    payments.py   /v1/payments (sale_ref), refunds.py /v1/refunds (refund_ref)
    reports.py    /v1/reports/x|z, /v1/receipts/{id}
    events.py     the counter's events as numbered JSON; event_stream.py /v1/events (SSE)
    display.py    /display, the customer-facing page
    errors.py     the one error table; limits.py the 64 kB body limit and the access log
    server.py     uvicorn: foreground (`pos-terminal serve`) or a thread (beside the UI, tests)
"""
