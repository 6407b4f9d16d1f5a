import pytest

from engine.scenarios.new_game import make_unit


@pytest.fixture
def unit():
    """Build a unit from the orders of battle: unit("us", "Sherman 75mm", "allies", 10.0,10.0)."""
    return make_unit
