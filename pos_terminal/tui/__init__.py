"""The cashier's terminal UI (Textual): app.py, screens/, widgets/, app.tcss."""
