"""Receipt printers (ESC/POS): open a target from a spec string and send it bytes.

This package knows nothing of payments or receipts: it takes ESC/POS bytes and delivers them.
Targets (python-escpos's own printer classes do the I/O):
  usb:VID:PID                 e.g. usb:0x04b8:0x0202 (hex, 0x optional; needs pyusb + libusb)
  serial:/dev/ttyUSB0[:baud]  default 9600 baud
  tcp:HOST[:PORT]             a network printer, raw port 9100 by default
  file:/path                  a file or a device node such as /dev/usb/lp0
"""

from hardware.printers.transport import (
    PrinterError,
    PrinterSpecError,
    PrinterTarget,
    parse_target,
    send,
)

__all__ = ["PrinterError", "PrinterSpecError", "PrinterTarget", "parse_target", "send"]
