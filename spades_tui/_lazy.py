"""Package exports loaded on first use (PEP 562), so importing one name loads one module.

The start screen is drawn before the engine's reducer, the records or the session's store are
needed (issue 21: first paint near a bare Textual app's); ``from spades_tui.engine import Rules``
must then cost the rules module alone, not the whole package.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_exports(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name in ``where`` comes from the submodule named there
    (``"module:attr"`` when the submodule calls it otherwise).

    A name may not be a submodule's: importing that submodule would set the package's attribute to
    the module, hiding the name (import such a name eagerly instead).
    """
    clash = set(where) & {found.partition(":")[0] for found in where.values()}
    if clash:
        raise ValueError(f"{package}: {', '.join(sorted(clash))} would be hidden by the submodule of that name")

    def __getattr__(name: str) -> Any:
        found = where.get(name)
        if found is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = found.partition(":")
        value = getattr(importlib.import_module(f"{package}.{module}"), attr or name)
        setattr(sys.modules[package], name, value)  # found directly from now on
        return value

    return __getattr__


def exports(**modules: tuple[str, ...]) -> dict[str, str]:
    """``exports(rules=("Rules",), cards=("Card", "Suit"))``: each name to its submodule."""
    return {name: module for module, names in modules.items() for name in names}
