"""Scan sources by SPEC string; see hardware.open_source."""
