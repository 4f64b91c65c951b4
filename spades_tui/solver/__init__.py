"""Exact double-dummy analysis of the play phase (docs/analysis.md).

Pure: imports only the engine and the standard library; no I/O, no randomness.
"""
