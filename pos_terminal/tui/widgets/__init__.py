"""Widgets of the cashier's UI."""
