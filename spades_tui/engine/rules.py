"""Rule options (docs/rules.md section 9)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from .errors import RulesError


@dataclass(frozen=True, slots=True)
class Rules:
    target: int = 500
    bag_limit: int = 10
    bag_penalty: int = 100
    nil: bool = True
    double_nil: bool = True
    nil_tricks_are_bags: bool = False
    see_second_card: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise RulesError(f"rule {f.name} must be true or false, not {value!r}")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"rule {f.name} must be a whole number, not {value!r}")
        if self.target < 1:
            raise RulesError(f"rule target must be at least 1, not {self.target}")
        if self.bag_limit < 0:
            raise RulesError(f"rule bag_limit must be 0 or more, not {self.bag_limit}")
        if self.bag_penalty < 0:
            raise RulesError(f"rule bag_penalty must be 0 or more, not {self.bag_penalty}")

    @property
    def min_bid(self) -> int:
        return 0 if self.nil else 1

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, not {type(data).__name__}")
        known = cls.names()
        for key in data:
            if key not in known:
                raise RulesError(f"unknown rule option {key!r} (known: {', '.join(known)})")
        return cls(**dict(data))

    @classmethod
    def parse_assignments(cls, text: str) -> Rules:
        """Parse ``key=value[,key=value]`` as typed on the command line."""
        values: dict[str, Any] = {}
        known = {f.name: f.type for f in fields(cls)}
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise RulesError(f"expected key=value, got {part!r}")
            key, _, raw = part.partition("=")
            key, raw = key.strip(), raw.strip()
            if key not in known:
                raise RulesError(f"unknown rule option {key!r} (known: {', '.join(known)})")
            if known[key] in ("bool", bool):
                lowered = raw.lower()
                if lowered in ("true", "yes", "on", "1"):
                    values[key] = True
                elif lowered in ("false", "no", "off", "0"):
                    values[key] = False
                else:
                    raise RulesError(f"rule {key} must be true or false, not {raw!r}")
            else:
                try:
                    values[key] = int(raw)
                except ValueError:
                    raise RulesError(f"rule {key} must be a whole number, not {raw!r}") from None
        return cls(**values)
