"""The scanner a setting names and that is not there (counter/scanning.missing_device).

The shell gets what to run to find the right device; a cashier gets what a cashier can check,
and that the keyboard-wedge scanner still works (said by the screen around it).
"""

from __future__ import annotations

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, front_end, register

_COMMANDS = {
    "camera": N_("{node} does not exist: plug the camera in, or choose the index of one that is "
                 "(ls /dev/video*)"),
    "evdev": N_("{node} does not exist: plug the scanner in, or name its event device (ls -l "
                "/dev/input/by-id)"),
    "serial": N_("{node} does not exist: plug the scanner in, or name its port (ls -l "
                 "/dev/serial/by-id)"),
    "path": N_("{node} does not exist: check the path"),
}
_SCREEN = {
    "camera": N_("the camera is not connected: check its cable"),
    "evdev": N_("the scanner is not connected: check its USB cable"),
    "serial": N_("the scanner is not connected: check its cable"),
    "path": N_("the folder or file it reads ({node}) is not there"),
}


def _missing(said: Said) -> str:
    table = _SCREEN if front_end() == "screen" else _COMMANDS
    device = str(said["device"])
    return said.say(table.get(device, table["path"]))


register({"scanner.missing": _missing})
