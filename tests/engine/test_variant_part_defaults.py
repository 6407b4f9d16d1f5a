"""A game without a rule set's part reads that part's defaults (engine.variant_parts) cheaply: a
new list or dict from the field's factory each time, without pydantic's ``FieldInfo.get_default``
inspecting the factory's signature on every read (half a millisecond each: a picture read some
of them a few times, an action many)."""

from pydantic.fields import FieldInfo

from engine.scenarios.quick_battle import quick_battle
from renderer import render


def test_reading_a_parts_defaults_inspects_no_factory(monkeypatch):
    state = quick_battle()
    inspected = []

    def takes_validated_data(field: FieldInfo) -> bool | None:
        if field.default_factory is None:
            return None  # no factory: nothing to inspect
        inspected.append(field)
        return False

    monkeypatch.setattr(FieldInfo, "default_factory_takes_validated_data", property(takes_validated_data))
    assert state.__dict__.get("variant") is None  # no part: its defaults are read
    assert state.smoke_screens == [] and state.fires == {} and state.wind is None
    assert state.smoke_screens is not state.smoke_screens  # each read its own list
    render(state, None)
    assert inspected == []
