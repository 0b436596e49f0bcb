"""The emulator's "bank app" for payOS: every request shown, with buttons that pay it in full,
pay half, or let it expire (a late transfer: pay one that has closed)."""

from __future__ import annotations

from html import escape

from pos_terminal.emulator.payos.service import JSON

_SCRIPT = """<script>
async function act(id, what, amount) {
  const init = {method: 'POST', headers: {'Content-Type': 'application/json'}};
  if (amount) init.body = JSON.stringify({amount: amount});
  await fetch('/_emulator/payos/requests/' + id + '/' + what, init);
  location.reload();
}
</script>"""


def _row(data: JSON) -> str:
    code, amount = data["orderCode"], data["amount"]
    half = max(amount // 2, 1)
    return (f"<tr><td>{code}</td><td>{amount:,}</td><td>{data['amountPaid']:,}</td>"
            f"<td>{escape(data['status'])}</td><td>"
            f"<button onclick=\"act('{code}','pay')\">Pay in full</button> "
            f"<button onclick=\"act('{code}','pay',{half})\">Pay {half:,}</button> "
            f"<button onclick=\"act('{code}','expire')\">Let it expire</button></td></tr>")


def page(requests: list[JSON]) -> str:
    rows = "".join(_row(data) for data in requests) or \
        "<tr><td colspan=5>No QR shown yet.</td></tr>"
    return ("<!doctype html><html><head><meta charset=utf-8><title>payOS bank app</title>"
            f"{_SCRIPT}</head><body><h1>Bank app (payOS VietQR)</h1><table border=1>"
            "<tr><th>order</th><th>amount</th><th>arrived</th><th>status</th><th></th></tr>"
            f"{rows}</table></body></html>")
