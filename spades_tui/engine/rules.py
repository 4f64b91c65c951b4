"""Rule options (docs/rules.md section 9) and the presets: named sets of them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping, Optional

from ..i18n.language import N_, _, translated
from .errors import RulesError

# The whole numbers' ranges (docs/rules.md section 9, "Values"); a value outside is refused.
RANGES: dict[str, tuple[int, int]] = {
    "target": (1, 10000),
    "bag_limit": (0, 50),
    "bag_penalty": (0, 1000),
    "nil_points": (10, 500),
    "double_nil_points": (10, 1000),
    "double_nil_behind": (0, 10000),
    "losing_score": (0, 10000),
}


@dataclass(frozen=True, slots=True)
class Rules:
    target: int = 500
    bag_limit: int = 10
    bag_penalty: int = 100
    nil: bool = True
    double_nil: bool = True
    nil_tricks_are_bags: bool = False
    see_second_card: bool = False
    spades_any_time: bool = False
    nil_points: int = 100
    double_nil_points: int = 200
    double_nil_behind: int = 0
    ten_for_200: bool = False
    losing_score: int = 0
    thirteen_wins: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise RulesError(_("rule {rule} must be true or false, not {value}").format(
                        rule=f.name, value=repr(value)))
            elif not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(_("rule {rule} must be a whole number, not {value}").format(
                    rule=f.name, value=repr(value)))
            else:
                lo, hi = RANGES[f.name]
                if not lo <= value <= hi:
                    raise RulesError(_("rule {rule} must be {low} to {high}, not {value}").format(
                        rule=f.name, low=lo, high=hi, value=value))

    @property
    def min_bid(self) -> int:
        return 0 if self.nil else 1

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults (the standard game), in the table's order."""
        default = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    @property
    def preset(self) -> Optional[str]:
        """The name of the preset these options are exactly, or None (house rules of one's own)."""
        for name, preset in PRESETS.items():
            if preset.rules == self:
                return name
        return None

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def is_switch(cls, name: str) -> bool:
        return any(f.name == name and f.type in ("bool", bool) for f in fields(cls))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError(_("rules must be an object, not {kind}").format(kind=type(data).__name__))
        known = cls.names()
        for key in data:
            if key not in known:
                raise RulesError(_("unknown rule option {option} (known: {options})").format(
                    option=repr(key), options=", ".join(known)))
        return cls(**dict(data))

    @classmethod
    def parse_assignments(cls, text: str) -> Rules:
        """Parse ``[PRESET,]key=value[,key=value]`` as typed on the command line.

        A preset's name (``tournament``) may come first; the assignments then change its options.
        """
        values: dict[str, Any] = {}
        known = {f.name: f.type for f in fields(cls)}
        base = cls()
        for i, part in enumerate(text.split(",")):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                if i == 0 and part not in known:  # an option's name alone is a half-typed assignment
                    base = find_preset(part).rules
                    continue
                raise RulesError(_("expected key=value, got {typed} (a preset's name may come first: {presets})")
                                 .format(typed=repr(part), presets=", ".join(PRESETS)))
            key, _sep, raw = part.partition("=")
            key, raw = key.strip(), raw.strip()
            if key not in known:
                raise RulesError(_("unknown rule option {option} (known: {options})").format(
                    option=repr(key), options=", ".join(known)))
            if known[key] in ("bool", bool):
                lowered = raw.lower()
                if lowered in ("true", "yes", "on", "1"):
                    values[key] = True
                elif lowered in ("false", "no", "off", "0"):
                    values[key] = False
                else:
                    raise RulesError(_("rule {rule} must be true or false, not {value}").format(
                        rule=key, value=repr(raw)))
            else:
                try:
                    values[key] = int(raw)
                except ValueError:
                    raise RulesError(_("rule {rule} must be a whole number, not {value}").format(
                        rule=key, value=repr(raw))) from None
        return replace(base, **values)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of options (docs/rules.md section 9, Presets): only a shorthand, never stored.

    One name each, the same on the command line, in the forms, the rules panel, help and docs; shown
    capitalised (``title``), in the player's language as ``about`` is."""

    name: str
    description: str  # marked with N_: ``about`` is it in the player's language
    rules: Rules

    @property
    def title(self) -> str:
        return translated(_TITLES.get(self.name, self.name.capitalize()))

    @property
    def about(self) -> str:
        return translated(self.description)


# The presets' titles, each a message (the name on the command line stays the English one).
_TITLES = {"standard": N_("Standard"), "tournament": N_("Tournament"), "casual": N_("Casual"), "quick": N_("Quick")}


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("standard",
           N_("The standard two-player draft game: 500 to win, 10 bags cost 100, Nil 100, Double Nil 200."),
           Rules()),
    Preset("tournament",
           N_("A demanding game: 10 for 200, 13 tricks on a bid of 13 win, Double Nil only when 100 behind, "
              "a score of \u2212200 loses."),
           Rules(ten_for_200=True, thirteen_wins=True, double_nil_behind=100, losing_score=200)),
    Preset("casual",
           N_("An easy game: spades may be led any time, Nil is worth 50, no Double Nil."),
           Rules(spades_any_time=True, nil_points=50, double_nil=False)),
    Preset("quick",
           N_("A short game to 250 (or \u2212250), 5 bags cost 50, Nil 50, Double Nil 100."),
           Rules(target=250, losing_score=250, bag_limit=5, bag_penalty=50, nil_points=50,
                 double_nil_points=100)),
)}
DEFAULT_PRESET = "standard"

# The names the presets had before they had one each (issue 37): still read on the command line, never
# listed.  The statistics database's groups were the old names too (keep/stats.py moves them on).
OLD_PRESET_NAMES: dict[str, str] = {
    "article": "standard",
    "club": "tournament",
    "kitchen": "casual",
    "kitchen-table": "casual",
    "quick-game": "quick",
}


def preset_name(name: str) -> Optional[str]:
    """The preset's one name for ``name`` (any case; an old name, ``kitchen table`` or ``Kitchen_table`` too),
    or None if it names none."""
    key = "-".join(name.strip().lower().replace("_", " ").split())
    key = OLD_PRESET_NAMES.get(key, key)
    return key if key in PRESETS else None


def find_preset(name: str) -> Preset:
    """The preset called ``name`` (any case, or an old name), or a ``RulesError`` that lists the known ones."""
    key = preset_name(name)
    if key is None:
        raise RulesError(_("unknown preset {preset} (known: {presets})").format(
            preset=repr(name), presets=", ".join(PRESETS)))
    return PRESETS[key]
