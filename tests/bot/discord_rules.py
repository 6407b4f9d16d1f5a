"""What Discord would accept: each request the bot sends in the tests, checked against Discord's
published description of its HTTP API (``tests/discord_api_spec/openapi.json``) and against the
limits Discord documents that the schema leaves out. The harness answers a request that breaks one
as Discord does (400, Invalid Form Body) and fails the test that sent it, naming the rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.validators import extend
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).parent.parent / "discord_api_spec" / "openapi.json"
_BASE = "urn:discord-api"

COMPONENTS_V2 = 1 << 15  # a message flag: the message is its components, with no content or embeds
MOST_COMPONENTS = 40  # components in one message, nested ones included
MOST_TEXT = 4000  # characters of text displays in one Components V2 message
MOST_MODAL_ROWS = 5
TEXT_DISPLAY = 10


@cache
def _spec() -> dict[str, Any]:
    spec = json.loads(SPEC.read_text())
    # Discord takes a snowflake as a string of digits or as the number itself (discord.py sends
    # some as numbers, such as a direct message's recipient); the schema writes only the first.
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    _tell_apart_by_type(spec, spec["components"]["schemas"])
    return spec


def _tell_apart_by_type(value: Any, schemas: dict[str, Any]) -> None:
    """Where the schema offers alternatives that each carry their own ``type`` number (the kinds
    of component, of callback), check a value against its own kind alone (``x-by-type``), as
    Discord reads it: the same verdict as trying every kind, at a fraction of the cost, and the
    error is the one of the value's own kind."""
    if isinstance(value, list):
        for item in value:
            _tell_apart_by_type(item, schemas)
        return
    if not isinstance(value, dict):
        return
    for union in ("oneOf", "anyOf"):
        kinds = _kinds(value.get(union), schemas)
        if kinds is not None:
            del value[union]
            value["x-by-type"] = kinds
    for item in value.values():
        _tell_apart_by_type(item, schemas)


def _kinds(alternatives: Any, schemas: dict[str, Any]) -> dict[str, Any] | None:
    """Each ``type`` number -> its alternative, when every alternative is a schema of its own
    numbers."""
    if not isinstance(alternatives, list) or len(alternatives) < 3:
        return None
    kinds: dict[str, Any] = {}
    for alternative in alternatives:
        ref = alternative.get("$ref", "") if isinstance(alternative, dict) else ""
        named = ref.removeprefix("#/components/schemas/")
        numbers = schemas.get(named, {}).get("properties", {}).get("type", {}).get("enum")
        if named == ref or not numbers or any(str(n) in kinds for n in numbers):
            return None
        kinds.update({str(n): alternative for n in numbers})
    return kinds


def _by_type(validator, kinds: dict[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        yield ValidationError(f"{instance!r} is not an object")
        return
    kind = kinds.get(str(instance.get("type")))
    if kind is None:
        yield ValidationError(f"type {instance.get('type')!r} is not one of {', '.join(kinds)}")
        return
    yield from validator.descend(instance, kind)


Validator = extend(Draft202012Validator, {"x-by-type": _by_type})


@cache
def _paths() -> dict[tuple[str, str], str]:
    """Each (method, path with its parameters blanked) of the spec -> the JSON pointer of the
    schema of its JSON body."""
    found = {}
    for path, operations in _spec()["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            if "application/json" in body.get("content", {}):
                parts = ("paths", path, method, "requestBody", "content", "application/json", "schema")
                pointer = "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)
                found[(method.upper(), _blanked(path))] = pointer
    return found


def _blanked(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


@cache
def _validator(method: str, path: str) -> Any:
    pointer = _paths().get((method, _blanked(path)))
    if pointer is None:
        return None
    resource = Resource.from_contents(_spec(), default_specification=DRAFT202012)
    registry = Registry().with_resource(_BASE, resource)
    return Validator({"$ref": f"{_BASE}#/{pointer}"}, registry=registry)


def route_known(method: str, path: str) -> bool:
    """Whether the spec describes the route at all (any body, or none)."""
    return (method.lower(), _blanked(path)) in _routes()


@cache
def _routes() -> frozenset[tuple[str, str]]:
    return frozenset((method, _blanked(path)) for path, ops in _spec()["paths"].items() for method in ops)


def violations(
    method: str, path: str, body: dict[str, Any] | list[Any] | None, uploaded: set[str], kept: set[str]
) -> list[str]:
    """Every rule the request breaks: the schema's first, then the documented limits. ``uploaded``
    are the names of the files sent with it, ``kept`` those of files the message already has and
    keeps."""
    route = f"{method} {path}"
    if not route_known(method, path):
        return [f"{route}: not a route of Discord's API"]
    found = []
    validator = _validator(method, path)
    if validator is not None and body is not None:
        error = _worst(list(validator.iter_errors(body)))
        if error is not None:
            found.append(f"{route}: schema: at {error.json_path}: {_said(error)}")
    for message in _messages(body):
        found += [f"{route}: {rule}" for rule in message_limits(message, uploaded | kept)]
    return found


def _messages(body: Any) -> Iterator[dict[str, Any]]:
    """The message (or form) a request sends: the body itself, or an interaction callback's data."""
    if not isinstance(body, dict):
        return
    if "type" in body and "data" in body and isinstance(body["data"], dict):
        if body["type"] == 9:
            yield {"components": body["data"].get("components") or [], "_form": True}
        elif body["type"] in (4, 7):
            yield body["data"]
        return
    if any(key in body for key in ("content", "components", "embeds", "attachments")):
        yield body


def message_limits(message: dict[str, Any], files: set[str]) -> list[str]:
    """The rules Discord documents for a message or a form that its schema does not carry."""
    broken = []
    components = message.get("components") or []
    every = list(walk(components))
    if message.get("_form"):
        if not 1 <= len(components) <= MOST_MODAL_ROWS:
            broken.append(f"a form has 1 to {MOST_MODAL_ROWS} rows, not {len(components)}")
    elif (message.get("flags") or 0) & COMPONENTS_V2:
        if message.get("content"):
            broken.append("a Components V2 message has no content")
        if message.get("embeds"):
            broken.append("a Components V2 message has no embeds")
        if len(every) > MOST_COMPONENTS:
            broken.append(f"a message has at most {MOST_COMPONENTS} components, nested too: {len(every)}")
        text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
        if text > MOST_TEXT:
            broken.append(f"a Components V2 message has at most {MOST_TEXT:,} characters of text: {text:,}")
    ids = [c["custom_id"] for c in every if c.get("custom_id")]
    for custom_id in sorted({i for i in ids if ids.count(i) > 1}):
        broken.append(f"custom id {custom_id!r} is not unique in its message")
    for select in (c for c in every if c.get("options")):
        values = [option.get("value") for option in select["options"]]
        if len(set(values)) < len(values):
            broken.append(f"select {select.get('custom_id')!r} offers a value twice")
    for name in sorted(set(_references(message)) - files):
        broken.append(f"attachment://{name} is not uploaded with the message nor kept on it")
    return broken


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component at every depth (rows, containers, sections, labels and what they hold)."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        for inner in ("accessory", "component"):
            if isinstance(component.get(inner), dict):
                yield from walk([component[inner]])


def _references(value: Any) -> Iterator[str]:
    """The file names a message refers to as ``attachment://name``, anywhere in it."""
    if isinstance(value, str) and value.startswith("attachment://"):
        yield value.removeprefix("attachment://")
    elif isinstance(value, dict):
        for item in value.values():
            yield from _references(item)
    elif isinstance(value, list):
        for item in value:
            yield from _references(item)


LIMITS = {"maxLength", "minLength", "maxItems", "minItems", "maximum", "minimum", "pattern", "uniqueItems"}


def _worst(errors: list[ValidationError]) -> ValidationError | None:
    """The error to name: a broken limit (a length, a count) wherever it lies among the
    alternatives the schema offers, since a value of the right shape that is too long matches
    none of them; otherwise jsonschema's best match."""
    leaves = []
    stack = list(errors)
    while stack:
        error = stack.pop()
        stack.extend(error.context or ())
        if error.validator in LIMITS:
            leaves.append(error)
    if leaves:
        return max(leaves, key=lambda error: len(error.absolute_path))
    return best_match(errors)


def _said(error: ValidationError) -> str:
    """The schema's complaint, quoting at most the start of a long value."""
    value = error.instance
    if isinstance(value, str) and len(value) > 40:
        return f"{value[:40]!r}… ({len(value):,} characters) breaks {error.validator} {error.validator_value}"
    return error.message if len(error.message) <= 300 else error.message[:300] + "…"
