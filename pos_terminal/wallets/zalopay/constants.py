"""Numbers of the service's interface that the client acts on (the spec's return codes).

The one module of the wallet package the emulator may import (an import-linter contract): the
emulator shares constants with the client, never code.
"""

from __future__ import annotations

# Return codes the client acts on (both generations).
RC_SUCCESS = 1
RC_V2_FAILED = 2
RC_V2_PROCESSING = 3
RC_V001_PROCESSING = 10
RC_NOT_FOUND = -101
RC_DUPLICATE = -68
