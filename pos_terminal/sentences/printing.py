"""Receipts and slips at the counter: printed, or why not (counter/receipts.py's reasons).

A printer's problem (hardware/printers' PrinterError) arrives as the reason ``printer.<problem>``
with the target's ``kind`` and ``address`` and the driver's own words (``detail``), so the
printer is named and the thing to check said in the language shown. The screens say what a
cashier checks, or to tell the supervisor; the CLI names the setting and the command.
"""

from __future__ import annotations

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, by_front_end, front_end, register
from pos_terminal.sentences.labels import STATE_LABELS

_PRINTERS = {
    "tcp": N_("network printer {address}"),
    "usb": N_("USB printer {address}"),
    "serial": N_("serial printer {address}"),
    "file": N_("file {address}"),
}

# What to check, for a person at the terminal's shell (the CLI) ...
_HINTS = {
    "tcp": N_("check that the printer is on, on the network, and that its address and raw port "
              "({port}) are right"),
    "usb": N_("check the cable and power, the ids with `lsusb`, and that this user may use the "
              "device (a udev rule)"),
    "serial": N_("check the cable, the device path (`ls /dev/tty*`), the baud rate and that this "
                 "user may use it (group dialout)"),
    "file": N_("check that the folder exists and this user may write there"),
}
# ... and for a cashier at the screen (what a cashier can check; the rest is the supervisor's).
_SCREEN_HINTS = {
    "tcp": _HINTS["tcp"],
    "usb": N_("check the printer's cable and power; if it still does not print, tell your "
              "supervisor"),
    "serial": N_("check the printer's cable and power; if it still does not print, tell your "
                 "supervisor"),
    "file": N_("tell your supervisor: the receipt file cannot be written"),
}


def _printer(said: Said, msgid: str) -> str:
    kind = str(said["kind"])
    name = said.tr(_PRINTERS.get(kind, _PRINTERS["file"])).format(address=said["address"])
    hints = _SCREEN_HINTS if front_end() == "screen" else _HINTS
    hint = said.tr(hints.get(kind, hints["file"])).format(port=said["port"])
    return said.say(msgid, printer=name, hint=hint)


def _not_settled(said: Said, final: str, open_: str) -> str:
    state = said.tr(STATE_LABELS.get(str(said["state"]), str(said["state"])))
    if said["final"] or front_end() == "screen":
        return said.say(final, state=state)
    return said.say(open_, state=state)


register({
    # printed
    "receipt.printed": N_("Receipt printed on {target}."),
    "receipt.reprinted": N_("Reprint of the receipt printed on {target}."),
    "slip.printed": N_("Printed on {target}."),
    "receipt.printed_picture": N_("Receipt printed; its picture: {picture}"),
    "receipt.reprinted_picture": N_("Reprint of the receipt printed; its picture: {picture}"),
    "slip.printed_picture": N_("Printed; its picture: {picture}"),
    "receipt.not_printed": N_("No receipt printed: {cause}"),
    # why not: the terminal's setting
    "printer.not_set_up": by_front_end(N_(
        "no receipt printer is set up. Set [printer] target in {config} (e.g. target = "
        "\"tcp:192.168.1.50:9100\")."), N_(
        "no receipt printer is set up on this terminal: tell your supervisor.")),
    "printer.setting_unusable": by_front_end(N_(
        "[printer] target in {config} is not usable: {error}"), N_(
        "the receipt printer's setting on this terminal is not usable: tell your supervisor.")),
    # why not: the printer
    "printer.unreachable": lambda said: _printer(said, N_(
        "cannot reach the {printer} ({detail}): {hint}.")),
    "printer.stopped": lambda said: _printer(said, N_(
        "the {printer} stopped taking the receipt ({detail}); it may be partly printed: "
        "{hint}.")),
    "printer.usb_unusable": by_front_end(N_(
        "cannot use the USB printer {address}: USB printing needs the pyusb package and the "
        "libusb-1.0-0 system library (`pip install pyusb`, `apt-get install libusb-1.0-0`); a "
        "network or serial printer needs neither."), N_(
        "cannot use the USB printer {address}: this terminal lacks what USB printing needs; "
        "tell your supervisor.")),
    # why not: the receipt
    "receipt.font_missing": by_front_end(N_(
        "The receipt font {path} is missing, and Vietnamese text on a printer without a "
        "Vietnamese code page is printed as an image drawn with it: install it (`apt-get "
        "install fonts-dejavu-core`), point [printer] font at a TrueType font with Vietnamese "
        "letters, or set [printer] codepage = \"CP1258\" if the printer has that code page."), N_(
        "The receipt font is missing on this terminal, so Vietnamese text cannot be printed: "
        "tell your supervisor.")),
    "receipt.unknown": by_front_end(N_(
        "No payment (app_trans_id) or refund (m_refund_id) {subject_id!r} in the journal "
        "{journal}; see `pos-terminal journal list`."), N_(
        "No payment or refund {subject_id} in this terminal's journal.")),
    "receipt.payment_not_paid": lambda said: _not_settled(said, N_(
        "Payment {app_trans_id} is {state}: a receipt is only for a paid payment (succeeded or "
        "refunded)."), N_(
        "Payment {app_trans_id} is {state}: a receipt is only for a paid payment (succeeded or "
        "refunded). Run `pos-terminal status` on it first.")),
    "receipt.refund_not_confirmed": lambda said: _not_settled(said, N_(
        "Refund {m_refund_id} is {state}: a refund receipt is only for a refund the wallet "
        "confirmed."), N_(
        "Refund {m_refund_id} is {state}: a refund receipt is only for a refund the wallet "
        "confirmed. Run `pos-terminal reconcile` first.")),
    "print.failed": by_front_end(N_(
        "{error}. Try again; if it happens again, print it with `pos-terminal receipt {id} "
        "--print`."), N_(
        "{error}. Try again; if it happens again, tell your supervisor.")),
})
