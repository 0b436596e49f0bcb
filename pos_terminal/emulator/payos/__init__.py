"""payOS's part of the emulator: payment requests with a VietQR, and a "bank app" that pays a
shown QR in full, in part, late or never (shared/spec/payos.md)."""
