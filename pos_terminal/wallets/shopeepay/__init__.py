"""ShopeePay, customer-presented ("CPM"): the customer shows a code in the ShopeePay app, the
cashier scans it (shared/spec/shopeepay.md). Declared in declaration.py; nothing outside this
package and its emulator part names it but the registry's list of built-in wallets."""
