"""A Nested field that checks large, plain bodies (game states) with a compiled JSON Schema.

marshmallow spends about 20 times longer than the referee's rules on a state of 76 cards. For
schemas made only of plain fields (strings, strict integers, strict booleans, lists, nested
objects) and of validators that JSON Schema expresses exactly (ranges, lengths, enums, anchored
patterns), the JSON Schema that apispec writes for the contract says the same thing; we compile
it once with jsonschema-rs. A valid body is taken as it is; anything else (an invalid body, a
float anywhere, an unsupported schema) goes through marshmallow as usual, so errors and their
JSON pointers are marshmallow's. A CheckedSchema's checks across fields (a move's fields
that depend on its type) run on the value once the compiled check passed; a check that fails
sends the value through marshmallow too.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache

import jsonschema_rs
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate

from referee.games.common_schema import (
    CheckedSchema,
    FullMatch,
    IdList,
    IntList,
    MaxKeys,
    MemberDict,
    OneOfSchemas,
    StrictBoolean,
)
from referee.limits import MAX_PROBLEM_ERRORS

_PLAIN_FIELDS = (fields.String, fields.Integer, StrictBoolean, fields.List, fields.Nested, fields.Dict, MemberDict,
                 IdList, IntList)
_EXACT_VALIDATORS = (validate.Range, validate.Length, validate.OneOf, validate.Equal, validate.Regexp, FullMatch,
                     MaxKeys)


def dict_key_names(self, field: fields.Field, ret=None, **kwargs) -> dict:
    """apispec attribute function: a Dict's key validators as JSON Schema ``propertyNames``
    (apispec documents a Dict's values only), its MaxKeys as ``maxProperties``. Used for the
    contract and the fast check."""
    if not isinstance(field, fields.Dict):
        return {}
    bound = {"maxProperties": v.maximum for v in field.validators if isinstance(v, MaxKeys)}
    if field.key_field is None:
        return bound
    names: dict = {}
    for validator in field.key_field.validators:
        if isinstance(validator, validate.Regexp):
            names["pattern"] = validator.regex.pattern
        elif isinstance(validator, validate.Length):
            if validator.min is not None:
                names["minLength"] = validator.min
            if validator.max is not None:
                names["maxLength"] = validator.max
        elif isinstance(validator, validate.OneOf):
            names["enum"] = list(validator.choices)
    return {**bound, "propertyNames": names} if names else bound


def _plain_field(field: fields.Field) -> bool:
    if type(field) not in _PLAIN_FIELDS or field.load_default is not missing or field.data_key:
        return False
    if isinstance(field, fields.Integer) and not field.strict:
        return False
    if not _exact_validators(field):
        return False
    if isinstance(field, fields.List):
        return _plain_field(field.inner)
    if isinstance(field, fields.Dict):
        # Keys: JSON object keys are strings; their validators become propertyNames.
        keys_plain = field.key_field is None or (type(field.key_field) is fields.String
                                                 and _exact_validators(field.key_field))
        return keys_plain and field.value_field is not None and _plain_field(field.value_field)
    if isinstance(field, fields.Nested):
        return _plain_schema(field.schema)
    return True


def _exact_validators(field: fields.Field) -> bool:
    for validator in field.validators:
        if type(validator) not in _EXACT_VALIDATORS:
            return False
        if isinstance(validator, validate.Regexp) and not (validator.regex.pattern.startswith("^")
                                                            and validator.regex.pattern.endswith("$")):
            return False
    return True


def _plain_schema(schema: Schema) -> bool:
    """Plain fields only (a CheckedSchema's ``check`` runs after the compiled check)."""
    if schema.many or schema.unknown != "raise":
        return False
    return all(_plain_field(field) for field in schema.fields.values())


@lru_cache(maxsize=None)
def schema_checks(schema_class: type[Schema]) -> tuple:
    """The checks across fields of ``schema_class`` (CheckedSchema.check of one instance), or none."""
    return (schema_class().check,) if issubclass(schema_class, CheckedSchema) else ()


@lru_cache(maxsize=None)
def plain_json_schema(schema_class: type[Schema]) -> dict | None:
    """The JSON Schema (nested schemas inline) equivalent to the fields of ``schema_class`` (its
    checks across fields are :func:`schema_checks`), or None when not plain."""
    schema = schema_class()
    if not _plain_schema(schema):
        return None
    plugin = MarshmallowPlugin(schema_name_resolver=lambda _schema: None)  # inline nested schemas
    APISpec("fast", "1", "3.1.0", plugins=[plugin])
    plugin.converter.add_attribute_function(dict_key_names)
    return plugin.converter.schema2jsonschema(schema)


@lru_cache(maxsize=None)
def compiled_validator(schema_class: type[Schema]):
    """A jsonschema-rs validator of :func:`plain_json_schema`, or None when not plain."""
    found = plain_json_schema(schema_class)
    return None if found is None else jsonschema_rs.validator_for(found)


def _has_float(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is float:
            return True
    return False


# Whether the body being loaded holds a float anywhere, when its reader knows (the API's JSON
# reader, once per request; None: look). Per request: the reader sets it before any load.
BODY_HOLDS_FLOAT: ContextVar[bool | None] = ContextVar("referee_body_holds_float", default=None)


def _body_has_float(value) -> bool:
    """Whether ``value`` may hold a float: what BODY_HOLDS_FLOAT says of the whole body, else
    look."""
    found = BODY_HOLDS_FLOAT.get()
    return _has_float(value) if found is None else found


def _fast_accepts(schema_class: type[Schema], value: dict, float_free: bool = False) -> bool:
    """Whether the compiled check and the schema's own checks accept ``value`` (no float in it;
    ``float_free``: the caller knows there is none)."""
    validator = compiled_validator(schema_class)
    if validator is None or not validator.is_valid(value) or (not float_free and _body_has_float(value)):
        return False
    try:
        for check in schema_checks(schema_class):
            check(value)
    except ValidationError:
        return False  # marshmallow reports it, with its pointer
    return True


def _overlong_lists(schema: Schema, value) -> dict:
    """marshmallow's messages for the lists of ``value`` longer than a ``Length`` validator of
    their field allows (through nested schemas too), found without loading any item.

    marshmallow loads every item of a list before it checks the list's length, and a body
    within the limit holds 300,000 items: 1.4 s of CPU and one error per item, for a list
    allowed a few hundred. Such a body is answered with the length errors alone (and an
    object of more than ``MAX_PROBLEM_ERRORS`` unknown fields with those, which the problem
    counts and lists the first of)."""
    errors: dict = {}
    if type(value) is not dict:
        return errors
    if schema.unknown == RAISE and len(value) > MAX_PROBLEM_ERRORS:
        # Likewise for unknown fields: marshmallow makes one error per field (0.3 s for 80,000).
        known = {field.data_key or name for name, field in schema.load_fields.items()}
        unknown = [key for key in value if key not in known]
        if len(unknown) > MAX_PROBLEM_ERRORS:
            # (one list for all: pointer_errors counts them and keeps the first)
            return dict.fromkeys(unknown, ["Unknown field."])
    for name, field in schema.fields.items():
        key = field.data_key or name
        item = value.get(key)
        if type(item) is list and isinstance(field, fields.List):
            messages = _messages_of(field, item, lambda validator: isinstance(validator, validate.Length)
                                    and _longest(validator) is not None and len(item) > _longest(validator))
            if messages:
                errors[key] = messages
            elif isinstance(field.inner, fields.Nested) and not field.inner.many:
                nested = {index: found for index, element in enumerate(item)
                          if (found := _overlong_lists(field.inner.schema, element))}
                if nested:
                    errors[key] = nested
        elif type(item) is dict and isinstance(field, fields.Dict):
            messages = _messages_of(field, item, lambda validator: isinstance(validator, MaxKeys)
                                    and len(item) > validator.maximum)
            if messages:
                errors[key] = messages
        elif found := _in_nested(field, item, _overlong_lists):
            errors[key] = found
    return errors


def _in_nested(field: fields.Field, item, errors_of) -> dict:
    """``errors_of(schema, item)`` when ``field`` nests one object of ``schema`` and ``item`` is
    an object, else none."""
    if type(item) is dict and isinstance(field, fields.Nested) and not field.many:
        return errors_of(field.schema, item)
    return {}


def _longest(length: validate.Length) -> int | None:
    return length.max if length.equal is None else length.equal


def _messages_of(field: fields.Field, item, exceeded) -> list:
    """The messages of the validators of ``field`` that ``exceeded(validator)`` picks, run on
    ``item`` alone (its elements are not loaded)."""
    messages: list = []
    for validator in field.validators:
        if exceeded(validator):
            try:
                validator(item)
            except ValidationError as error:
                messages.extend(error.messages)
    return messages


_CONSTANT_TYPES = {fields.String: str, fields.Integer: int}


def _other_constants(schema: Schema, value) -> dict:
    """marshmallow's messages for the constants (fields with an ``Equal`` validator, such as a
    state's ``game`` and ``schema_version``) that ``value`` gives another value of their type,
    through nested schemas too. A body of another kind (another game's state, a later schema
    version) is answered with that alone, not with every field the two kinds do not share."""
    errors: dict = {}
    if type(value) is not dict:
        return errors
    for name, field in schema.fields.items():
        key = field.data_key or name
        if key not in value:
            continue
        item = value[key]
        if type(item) is _CONSTANT_TYPES.get(type(field)):
            messages = _messages_of(field, item, lambda validator: isinstance(validator, validate.Equal))
            if messages:
                errors[key] = messages
        elif found := _in_nested(field, item, _other_constants):
            errors[key] = found
    return errors


def _refuse_before_loading(schema: Schema, value) -> None:
    """Before marshmallow loads ``value``: raise ValidationError with the errors of
    :func:`_other_constants`, if any, else with the length errors of :func:`_overlong_lists`,
    if any."""
    errors = _other_constants(schema, value) or _overlong_lists(schema, value)
    if errors:
        raise ValidationError(errors)


def fast_load(schema: Schema, value):
    """``schema.load(value)`` for a schema instance with default settings, through the compiled
    fast path first. Raises marshmallow's ValidationError."""
    if type(value) is dict and _fast_accepts(type(schema), value):
        return value
    _refuse_before_loading(schema, value)
    return schema.load(value)


class FastNested(fields.Nested):
    """``fields.Nested(schema_class)``, with the compiled fast path described above."""

    def _deserialize(self, value, attr, data, partial=None, **kwargs):
        nested = self.nested
        if isinstance(nested, type) and partial is None and type(value) is dict and _fast_accepts(nested, value):
            return value
        if not self.many:
            _refuse_before_loading(self.schema, value)
        return super()._deserialize(value, attr, data, partial=partial, **kwargs)


class FastEnvelope(Schema):
    """A request envelope (``{"state": ..., "move": ...}``) whose fields are all plain
    FastNested fields: a body holding only its fields, each taking the fast path, is taken as
    it is, without marshmallow's walk over the envelope; anything else is loaded as usual."""

    def load(self, data, *, many=None, partial=None, unknown=None):
        if many is None and partial is None and unknown is None:
            loaded = self.fast_load(data)
            if loaded is not None:
                return loaded
        if many is None:
            _refuse_before_loading(self, data)
        return super().load(data, many=many, partial=partial, unknown=unknown)

    def fast_load(self, data, holds_float: bool | None = None) -> dict | None:
        """What ``load(data)`` answers when ``data`` takes the fast path (a copy of it), else None.
        ``holds_float``: whether ``data`` holds a float, when the caller knows (None: look)."""
        fast = envelope_fields(type(self))
        if (fast is not None and type(data) is dict
                and data.keys() <= fast.keys() and all(name in data for name in required_fields(type(self)))
                and not (_body_has_float(data) if holds_float is None else holds_float)  # once for the envelope
                and all(type(value) is str if fast[name] is str else
                        type(value) is dict
                        and (fast[name] is None or _fast_accepts(fast[name], value, float_free=True))
                        for name, value in data.items())):
            return dict(data)
        return None


@lru_cache(maxsize=None)
def envelope_fields(schema_class: type[Schema]) -> dict | None:
    """``{field name: nested schema class}`` when every field of the envelope is a FastNested of a
    schema class, or a OneOfSchemas object that the view loads itself once it knows the game
    (``None`` then: any JSON object), or a plain string (``str``: a state's signature), with no
    validator, data key or default, and the envelope is not loaded with other settings."""
    schema = schema_class()
    if schema.many or schema.unknown != "raise":
        return None
    found = {}
    for name, field in schema.fields.items():
        if (field.validators or field.data_key or field.load_default is not missing or field.allow_none):
            return None
        if type(field) is OneOfSchemas and field.key_field is None and field.value_field is None:
            found[name] = None
        elif type(field) is FastNested and isinstance(field.nested, type):
            found[name] = field.nested
        elif type(field) is fields.String:
            found[name] = str
        else:
            return None
    return found


@lru_cache(maxsize=None)
def required_fields(schema_class: type[Schema]) -> tuple[str, ...]:
    return tuple(name for name, field in schema_class().fields.items() if field.required)
