import os

import pytest
from hypothesis import HealthCheck, settings

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
