"""pos-terminal: charge a customer's mobile wallet at the checkout counter."""

__version__ = "0.1.0"
