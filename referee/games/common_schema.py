"""Schema pieces shared by every game: strict JSON types and the generator's position."""

import re

from marshmallow import Schema, ValidationError, fields, validate, validates_schema


class StrictBoolean(fields.Boolean):
    """A JSON boolean only: marshmallow's Boolean would also take 1, "yes" or "true"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean (true or false).")
        return value


class RngState(Schema):
    """The seeded generator's position (docs/rng.md): seed and blocks used so far."""

    seed = fields.String(required=True, validate=validate.Length(max=200))
    counter = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=2**53))


class FullMatch(validate.Regexp):
    """``validate.Regexp`` over the whole string, as a JSON Schema ``pattern`` reads ``^...$``:
    marshmallow uses ``re.match``, where ``$`` also matches before a final newline ("C7-7\\n")."""

    def __call__(self, value):
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


class MaxKeys(validate.Validator):
    """At most ``maximum`` members in an object (JSON Schema ``maxProperties``; marshmallow's
    ``Length`` would be documented as ``maxLength``, which bounds strings only)."""

    def __init__(self, maximum: int):
        self.maximum = maximum

    def __call__(self, value):
        if len(value) > self.maximum:
            raise ValidationError(f"At most {self.maximum} members.")
        return value


class IdList(fields.List):
    """A list of id strings matching ``pattern`` (or null, with ``null_items``: a card the
    table has not seen): documented like
    ``List(String(validate=Regexp(pattern)))``, validated in one loop (states carry dozens of
    card ids; one marshmallow field per item costs more than judging the move)."""

    def __init__(self, pattern: str, error: str = "not a valid id", *, null_items: bool = False, **kwargs):
        self._regex = re.compile(pattern)
        self._error = error
        self._null_items = null_items
        super().__init__(fields.String(validate=FullMatch(pattern, error=error), allow_none=null_items), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        match = self._regex.fullmatch
        nulls = self._null_items
        errors = {index: [self._error if isinstance(item, str) else "Not a valid string."]
                  for index, item in enumerate(value)
                  if not ((isinstance(item, str) and match(item)) or (nulls and item is None))}
        if errors:
            raise ValidationError(errors, valid_data=[])
        return list(value)


class IntList(fields.List):
    """A list of integers in ``[low, high]`` (JSON integers only, never booleans or floats):
    documented like ``List(Integer(strict=True, validate=Range(low, high)))``, validated in one loop."""

    def __init__(self, low: int, high: int, **kwargs):
        self._low, self._high = low, high
        super().__init__(fields.Integer(strict=True, validate=validate.Range(low, high)), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        low, high = self._low, self._high
        errors = {index: [f"Must be an integer from {low} to {high}."] for index, item in enumerate(value)
                  if type(item) is not int or not low <= item <= high}
        if errors:
            raise ValidationError(errors, valid_data=[])
        return list(value)


class MemberDict(fields.Dict):
    """``fields.Dict`` whose errors are placed at the member they concern. marshmallow nests a
    dict's errors under ``"key"`` and ``"value"`` (``{"a": {"value": {2: [...]}}}``), which as
    JSON pointers name places the body does not have (``/beats/a/value/2``); here a value's
    errors sit at the member (``/beats/a/2``), and a bad key's at the member it names."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ValidationError as error:
            messages = error.messages
            if not isinstance(messages, dict):
                raise
            raise ValidationError({member: _at_member(found) for member, found in messages.items()},
                                  valid_data=error.valid_data) from None


def _at_member(found):
    """One member's errors, marshmallow's ``{"key": [...], "value": ...}`` merged into one place."""
    if not isinstance(found, dict) or not set(found) <= {"key", "value"}:
        return found
    key_messages = [f"its name: {message}" for message in found.get("key", [])]
    value_messages = found.get("value", [])
    if isinstance(value_messages, dict):   # errors of the value's items: the key's beside them
        return {**value_messages, "_schema": key_messages} if key_messages else value_messages
    return key_messages + list(value_messages)


class CheckedSchema(Schema):
    """A schema with checks across its fields (a move's fields that depend on its type).

    ``check(data)`` raises ValidationError; marshmallow runs it after loading, and the API's
    compiled check of a body (referee/api/body) runs it after the JSON Schema has passed. A
    request schema has no other hook: what the JSON Schema cannot say is said here."""

    def check(self, data: dict) -> None:
        """Raise ValidationError when ``data`` (loaded, or passed by the JSON Schema) breaks a
        rule across fields."""

    @validates_schema
    def _run_check(self, data, **kwargs):
        self.check(data)


class OneOfSchemas(fields.Dict):
    """A JSON object that fits one of ``schemas``: documented as ``oneOf`` (or ``anyOf`` with
    ``combine="anyOf"``) of their components, with a ``discriminator`` on the property
    ``discriminator`` when given (``values``: its value for each schema, in order). Loaded as a
    plain object: the caller loads it with the right schema once it knows which one applies."""

    def __init__(self, schemas, *, combine: str = "oneOf", discriminator: str | None = None,
                 values=(), **kwargs):
        super().__init__(**kwargs)
        self.schemas = tuple(schemas)
        self.combine = combine
        self.discriminator = discriminator
        self.values = tuple(values)


class PileSize(Schema):
    """A face-down pile or hidden set of cards, as a view shows it: its size only."""

    size = fields.Integer(required=True, metadata={"description": "how many cards"})


def view_schema(state: type[Schema], name: str, replaced: dict, dropped=("rng",)) -> type[Schema]:
    """The schema of a seat's (or a spectator's) view of ``state``: the state's fields less
    ``dropped``, with ``replaced`` (name -> field) for what the view shows differently."""
    kept = {key: field for key, field in state._declared_fields.items() if key not in dropped and key not in replaced}
    return Schema.from_dict({**kept, **replaced}, name=name)
