import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from spades_tui.i18n import language as i18n

# The tests read the game's English words (the source's): a machine whose locale asks for a language the game
# speaks must not change them, here or in a command a test starts (docs/languages.md, "Choosing").
for _name in i18n.ENVIRONMENT:
    if i18n.from_locale(os.environ.get(_name)) not in (None, i18n.SOURCE):
        os.environ[_name] = "C.UTF-8"

# CI runs a moderate number of examples; set HYPOTHESIS_PROFILE=long for soaks.
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def fine_grain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot's idle wait at a finer grain (tests.support.pilot.FINE_GRAIN): a module of games by keys asks
    for it with ``pytestmark = pytest.mark.usefixtures("fine_grain")``."""
    from tests.support.pilot import set_fine_grain  # here: a run of the engine's tests imports no Textual

    set_fine_grain(monkeypatch)


@pytest.fixture
def forced_card_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forced card does not play itself while the test looks (tests.support.pilot.hold_forced_cards): a module of
    screens as they come up asks for it with ``pytestmark = pytest.mark.usefixtures("forced_card_waits")``."""
    from tests.support.pilot import hold_forced_cards

    hold_forced_cards(monkeypatch)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Each test starts in English and leaves it so, whatever language a test of the languages chose."""
    i18n.use(i18n.SOURCE)
    yield
    i18n.use(i18n.SOURCE)
