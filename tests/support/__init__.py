"""The tests' shared helpers (no tests here): waits, drivers, tables, the hidden-card oracle."""
