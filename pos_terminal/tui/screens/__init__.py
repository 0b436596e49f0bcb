"""One module per screen; each returns to Sale."""
