"""The measurement scripts: speed and size figures taken by hand, never run by the tests.

Each docstring says how to run it from the repository's root; docs/development.md lists them.
"""
