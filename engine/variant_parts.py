"""Where a rule set keeps what only it has on the core models: one part per object, in the
object's ``variant`` field, written by the rule set's package and registered with
:func:`register_part`. The core declares the slot and never names what is in it.

A part's fields read and write as the object's own (``unit.in_building`` is
``unit.variant.in_building``), so rule code and stored games keep their words; an object
without a part reads that part's defaults (a game whose rule set has parts always carries them:
:meth:`engine.game_state.GameState.add_rule_set_parts`). A game stored before its rule set had a part (its
fields flat on the object) loads into the part: :meth:`WithVariant._lift_into_part`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator, model_validator


class VariantPart(BaseModel):
    """A rule set's own fields on one kind of core object; subclasses name their rule set."""

    rules: str  # the rule set whose part it is, so that a stored part loads as its own class


def part_default(kind: type[VariantPart], name: str) -> Any:
    """The default of a part's field, as a part made now holds it (a new list or dict from its
    factory). Not pydantic's ``FieldInfo.get_default``, which inspects the factory's signature
    on every call (half a millisecond): a game without a part reads these on every look at it,
    the renderer some times a picture."""
    field = kind.model_fields[name]
    if field.default_factory is None:
        return field.get_default()
    return field.default_factory()  # type: ignore[call-arg]  (the parts' factories take nothing)


class FrozenVariantPart(VariantPart):
    """A part of a frozen object (a unit profile), itself frozen."""

    model_config = ConfigDict(frozen=True)


# core model -> attribute name -> the part class that has it; and core model -> rule set -> part
_ATTRIBUTES: dict[type[BaseModel], dict[str, type[VariantPart]]] = {}
_PARTS: dict[type[BaseModel], dict[str, type[VariantPart]]] = {}


def register_part(model: type[WithVariant], part: type[VariantPart]) -> None:
    """Give ``model`` objects the fields of ``part`` (a rule set package calls this on import)."""
    names = [name for name in part.model_fields if name != "rules"]
    attributes = _ATTRIBUTES.setdefault(model, {})
    taken = [n for n in names if n in attributes or n in model.model_fields]
    if taken:
        raise ValueError(f"{part.__name__}: {model.__name__} already has {', '.join(taken)}")
    attributes.update(dict.fromkeys(names, part))
    _PARTS.setdefault(model, {})[part.model_fields["rules"].default] = part


class WithVariant(BaseModel):
    """A core model with a slot for one rule set's part (subclasses declare ``variant``)."""

    # fields it does not declare are taken in only to be lifted into the part, then dropped
    model_config = ConfigDict(extra="allow")

    @field_validator("variant", mode="before", check_fields=False)
    @classmethod
    def _part_of_its_own_class(cls, value: Any) -> Any:
        """A stored part loads as the class of the rule set it names."""
        if isinstance(value, dict):
            return _PARTS[cls][value["rules"]].model_validate(value)
        return value

    @model_validator(mode="after")
    def _lift_into_part(self) -> Any:
        """Fields given flat (an object stored before its rule set had a part, or built by name)
        go into the part unless they hold the part's defaults; any other field it does not
        declare is ignored."""
        flat = self.__pydantic_extra__
        if not flat:
            return self
        self.__pydantic_extra__ = {}
        attributes = _ATTRIBUTES.get(type(self), {})
        given = {
            name: value
            for name, value in flat.items()
            if name in attributes and value != part_default(attributes[name], name)
        }
        if given:
            part = self.__dict__.get("variant")
            kind = type(part) if part is not None else attributes[next(iter(given))]
            stored = part.model_dump() if part is not None else {}
            self.__dict__["variant"] = kind.model_validate({**stored, **given})  # frozen models too
        return self

    def __getattr__(self, name: str) -> Any:
        kind = _ATTRIBUTES.get(type(self), {}).get(name)
        if kind is None:
            return super().__getattr__(name)  # type: ignore[misc]
        part = self.__dict__.get("variant")
        if not isinstance(part, kind):  # none, or another rule set's
            return part_default(kind, name)
        return getattr(part, name)

    def __setattr__(self, name: str, value: Any) -> None:
        kind = _ATTRIBUTES.get(type(self), {}).get(name)
        if kind is None:
            super().__setattr__(name, value)
            return
        super().__setattr__("variant", self._part_with(kind, {name: value}, deep=False))

    def _part_with(self, kind: type[VariantPart], fields: dict[str, Any], *, deep: bool) -> VariantPart:
        """A new part with these fields changed: never a change to one a copy of this object may
        share."""
        part = self.__dict__.get("variant")
        return (part if isinstance(part, kind) else kind()).model_copy(update=fields, deep=deep)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        attributes = _ATTRIBUTES.get(type(self), {})
        own = {key: value for key, value in (update or {}).items() if key not in attributes}
        forwarded = {key: value for key, value in (update or {}).items() if key in attributes}
        if forwarded:
            own["variant"] = self._part_with(attributes[next(iter(forwarded))], forwarded, deep=deep)
        return super().model_copy(update=own or None, deep=deep)


def part_for(model: type[WithVariant], rules: str) -> type[VariantPart] | None:
    """The part a rule set gives objects of ``model``, if it has one."""
    return _PARTS.get(model, {}).get(rules)
