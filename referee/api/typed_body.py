"""A request envelope decoded and checked in one pass, by msgspec types made from the contract.

The fast path of :mod:`referee.api.fast_nested` parses a body (orjson, after a screen for
floats) and then checks the value with jsonschema-rs: two passes over the data and a third over
the bytes. Here the same JSON Schema, the one apispec writes for the contract, becomes msgspec
types (Structs that refuse unknown fields, ``Literal`` for enums, ``Meta`` for bounds), and
``msgspec.json.Decoder`` parses and checks in one pass: about three times faster (docs/
benchmarks.md, seventeenth pass).

Only acceptance is taken from here. A body the decoder refuses, for whatever reason, goes the
usual way (the compiled check, then marshmallow), which answers it exactly as before, errors
and pointers included; so the types only need to be at least as strict as the schema, never
looser. Where msgspec would be looser they are made stricter:

- a pattern is applied with ``re.search`` by msgspec, where ``$`` also matches before a final
  newline; each anchored ``^...$`` pattern is applied as ``^(?:...)\\Z``, and a pattern whose
  language is finite (card ids: 130 to 2,000 strings) becomes a ``Literal`` of its strings,
  a hash lookup instead of a regular expression;
- an open pattern (Call of Katulhu's ids, which a caller's catalogue chooses) is a regular
  expression per string, most of a body's decoding. Where the envelope names the strings that
  pattern commonly takes (``common_strings``: the default catalogue's ids), a first decoder
  takes a ``Literal`` of them instead, each checked against the pattern when the decoder is
  built: it accepts a subset of what the regular expression accepts, so a body it refuses is
  decoded again with the pattern (a caller's catalogue), and a body both refuse goes the
  usual way;
- an integer without bounds is bounded to 64 bits (Python reads longer ones, the schema takes
  them, and they go the usual way);
- no type admits a float, so a float anywhere refuses the body (as the fast path's screen did).

Anything in a schema this module does not know (another keyword, an untyped value) gives no
decoder, and the usual path serves that envelope.
"""

from __future__ import annotations

import itertools
import re
import re._constants as sre_constants
import re._parser as sre_parse
from functools import lru_cache
from types import MappingProxyType
from typing import Annotated, Any, Literal, Mapping, Union

import msgspec
from marshmallow import Schema, ValidationError

from referee.api.fast_nested import envelope_fields, plain_json_schema, required_fields, schema_checks

# A pattern whose language has at most this many strings becomes a Literal of them.
MAX_LITERAL_STRINGS = 5000
# Longer bodies go the usual way. msgspec checks a list's items before its length bound: at
# 64 KiB, 16,000 ids of an open pattern (Call of Katulhu's, a regular expression each) in a hand
# of at most 6 cost it 5 ms before the usual path answered in 0.7; at 8 KiB under 1 ms. A game's
# state is 1 to 3 KB; larger ones (with a caller's catalogue) are read the usual way. Being under
# MAX_JSON_CONTAINERS bytes, a body decoded here also holds fewer brackets than the usual path
# refuses (its 400, which copies of a duplicated key could otherwise hide from the decoder).
MAX_DECODED_BYTES = 8 * 1024
_INT64 = {"ge": -(2 ** 63), "le": 2 ** 63 - 1}
_KEYWORDS = {"type", "description", "enum", "minimum", "maximum", "minItems", "maxItems", "items", "required",
             "additionalProperties", "properties", "pattern", "minLength", "maxLength", "maxProperties",
             "propertyNames"}
_PYTHON_TYPES = {"string": str, "integer": int, "boolean": bool}
_NONE: Mapping[str, frozenset[str]] = MappingProxyType({})


class Unsupported(Exception):
    """A JSON Schema construct with no msgspec type here."""


def pattern_language(pattern: str, limit: int = MAX_LITERAL_STRINGS) -> frozenset[str] | None:
    """The strings that match the anchored ``pattern`` (``^...$``) whole, when they are at most
    ``limit``; None when there are more, or the pattern uses anything but literals, character
    sets of ranges and literals, groups, alternations and bounded repeats (``\\d``, ``.``,
    ``*``, flags and the like)."""
    try:
        items = list(sre_parse.parse(pattern))
    except re.error:
        return None
    if (len(items) < 2 or items[0] != (sre_constants.AT, sre_constants.AT_BEGINNING)
            or items[-1] != (sre_constants.AT, sre_constants.AT_END)):
        return None
    found = _sequence(items[1:-1], limit)
    return None if found is None else frozenset(found)


def _sequence(items: list, limit: int) -> set[str] | None:
    strings = {""}
    for operator, argument in items:
        part = _element(operator, argument, limit)
        if part is None or len(strings) * len(part) > limit:
            return None
        strings = {head + tail for head in strings for tail in part}
    return strings


def _element(operator, argument, limit: int) -> set[str] | None:
    if operator is sre_constants.LITERAL:
        return {chr(argument)}
    if operator is sre_constants.IN:
        characters: set[str] = set()
        for item_operator, item in argument:
            if item_operator is sre_constants.LITERAL:
                characters.add(chr(item))
            elif item_operator is sre_constants.RANGE and item[1] - item[0] < limit:
                characters.update(chr(code) for code in range(item[0], item[1] + 1))
            else:  # a negated set, a category (\d), ...
                return None
        return characters if len(characters) <= limit else None
    if operator is sre_constants.SUBPATTERN:
        _group, add_flags, del_flags, inner = argument
        return None if add_flags or del_flags else _sequence(list(inner), limit)
    if operator is sre_constants.BRANCH:
        strings: set[str] = set()
        for branch in argument[1]:
            part = _sequence(list(branch), limit)
            if part is None or len(strings) + len(part) > limit:
                return None
            strings |= part
        return strings
    if operator in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
        least, most, inner = argument
        if most is sre_constants.MAXREPEAT or most > limit:
            return None
        part = _sequence(list(inner), limit)
        if part is None:
            return None
        strings = set()
        for count in range(least, most + 1):
            if len(part) ** count > limit:
                return None
            strings.update("".join(chosen) for chosen in itertools.product(sorted(part), repeat=count))
            if len(strings) > limit:
                return None
        return strings
    return None


def _whole_string_pattern(pattern: str) -> str:
    if not (pattern.startswith("^") and pattern.endswith("$")):
        raise Unsupported(f"pattern {pattern!r} is not anchored")
    return rf"^(?:{pattern[1:-1]})\Z"


def _string_bounds(schema: dict) -> dict:
    bounds = {}
    if "minLength" in schema:
        bounds["min_length"] = schema["minLength"]
    if "maxLength" in schema:
        bounds["max_length"] = schema["maxLength"]
    return bounds


def msgspec_type(schema: dict, names: itertools.count | None = None, common: Mapping[str, frozenset[str]] = _NONE) -> Any:
    """A msgspec type that accepts no JSON value the JSON Schema ``schema`` refuses (the subset
    apispec writes for plain marshmallow fields: types, possibly nullable, enums, bounds,
    anchored patterns, objects without additional properties, maps with ``propertyNames``).
    ``common``: pattern -> strings each string of that pattern must be one of (a stricter type,
    see the module's docstring). Raises Unsupported for anything else, ValueError for a common
    string the pattern refuses."""
    names = itertools.count() if names is None else names
    if set(schema) - _KEYWORDS:
        raise Unsupported(f"keywords {sorted(set(schema) - _KEYWORDS)}")
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else list(declared or ())
    nullable = "null" in types
    types = [name for name in types if name != "null"]
    if len(types) != 1:
        raise Unsupported(f"type {declared!r}")
    kind = types[0]
    found = _nullable_free_type(kind, schema, names, common)
    return Union[found, None] if nullable or None in schema.get("enum", ()) else found


def _nullable_free_type(kind: str, schema: dict, names: itertools.count, common: Mapping[str, frozenset[str]]) -> Any:
    if "enum" in schema:
        values = tuple(value for value in schema["enum"] if value is not None)
        if kind not in _PYTHON_TYPES or any(type(value) is not _PYTHON_TYPES[kind] for value in values) or not values:
            raise Unsupported(f"enum {schema['enum']!r} of {kind}")
        return Literal[values]
    bounds: dict = {}
    if kind == "string":
        language = pattern_language(schema["pattern"]) if "pattern" in schema else None
        if language is not None:
            least, most = schema.get("minLength", 0), schema.get("maxLength", float("inf"))
            strings = tuple(sorted(text for text in language if least <= len(text) <= most))
            if not strings:
                raise Unsupported("a pattern that no string of the allowed lengths matches")
            return Literal[strings]
        if "pattern" in schema:
            bounds["pattern"] = _whole_string_pattern(schema["pattern"])
            if schema["pattern"] in common:
                strings = _common_strings(common[schema["pattern"]], bounds["pattern"], schema)
                if strings:
                    return Literal[strings]
        bounds.update(_string_bounds(schema))
        found: Any = str
    elif kind == "integer":
        bounds = {"ge": max(schema.get("minimum", _INT64["ge"]), _INT64["ge"]),
                  "le": min(schema.get("maximum", _INT64["le"]), _INT64["le"])}
        found = int
    elif kind == "boolean":
        found = bool
    elif kind == "array":
        if "items" not in schema:
            raise Unsupported("an array of any items")
        if "minItems" in schema:
            bounds["min_length"] = schema["minItems"]
        if "maxItems" in schema:
            bounds["max_length"] = schema["maxItems"]
        found = list[msgspec_type(schema["items"], names, common)]
    elif kind == "object":
        found, bounds = _object_type(schema, names, common)
    else:
        raise Unsupported(f"type {kind!r}")
    return Annotated[found, msgspec.Meta(**bounds)] if bounds else found


def _common_strings(strings: frozenset[str], whole_pattern: str, schema: dict) -> tuple[str, ...]:
    """The common ``strings`` of a pattern within the string schema's length bounds, each checked
    against the pattern (``whole_pattern``, anchored with ``\\Z``). Raises ValueError for a
    string the pattern refuses: the type would then accept what the schema refuses."""
    refused = sorted(text for text in strings if re.match(whole_pattern, text) is None)
    if refused:
        raise ValueError(f"common strings {refused!r} do not match {whole_pattern!r}")
    least, most = schema.get("minLength", 0), schema.get("maxLength", float("inf"))
    return tuple(sorted(text for text in strings if least <= len(text) <= most))


def _object_type(schema: dict, names: itertools.count, common: Mapping[str, frozenset[str]]) -> tuple[Any, dict]:
    extra = schema.get("additionalProperties")
    if extra is False:
        if "propertyNames" in schema or "maxProperties" in schema:
            raise Unsupported("bounds on an object's names")
        return struct_type(schema.get("properties", {}), set(schema.get("required", ())), names, common), {}
    if "properties" in schema or not isinstance(extra, dict):
        raise Unsupported("an object open to any member")
    key: Any = str
    names_schema = schema.get("propertyNames", {})
    if set(names_schema) - {"pattern", "minLength", "maxLength"}:
        raise Unsupported(f"propertyNames {names_schema!r}")
    key_bounds = _string_bounds(names_schema)
    if "pattern" in names_schema:
        key_bounds["pattern"] = _whole_string_pattern(names_schema["pattern"])
    if key_bounds:
        key = Annotated[str, msgspec.Meta(**key_bounds)]
    bounds = {"max_length": schema["maxProperties"]} if "maxProperties" in schema else {}
    return dict[key, msgspec_type(extra, names, common)], bounds


def struct_type(properties: dict, required: set[str], names: itertools.count,
                common: Mapping[str, frozenset[str]] = _NONE) -> type[msgspec.Struct]:
    """A Struct of ``properties`` (JSON Schemas by member name) that refuses unknown members;
    members not in ``required`` may be left out (and are left out of its builtins)."""
    fields: list[tuple] = []
    rename: dict[str, str] = {}
    for index, (name, member) in enumerate(sorted(properties.items(), key=lambda item: item[0] not in required)):
        attribute = f"m{index}"  # member names need not be Python identifiers
        rename[attribute] = name
        member_type = msgspec_type(member, names, common)
        fields.append((attribute, member_type) if name in required
                      else (attribute, Union[member_type, msgspec.UnsetType], msgspec.UNSET))
    return msgspec.defstruct(f"Checked{next(names)}", fields, forbid_unknown_fields=True, rename=rename)


def _patterns(schema: Any) -> set[str]:
    """Every pattern of a JSON Schema, at any depth."""
    if isinstance(schema, dict):
        found = {schema["pattern"]} if isinstance(schema.get("pattern"), str) else set()
        for value in schema.values():
            found |= _patterns(value)
        return found
    if isinstance(schema, list):
        return set().union(*map(_patterns, schema)) if schema else set()
    return set()


@lru_cache(maxsize=None)
def envelope_decoder(envelope_class: type[Schema]) -> tuple[tuple[msgspec.json.Decoder, ...], tuple] | None:
    """``(decoders, checks)`` for a FastEnvelope class whose every field is a FastNested of a plain
    schema: the decoders of the whole body, to try in turn (first the one of the envelope's
    ``common_strings``, pattern -> strings, when it names a pattern of the schema), and ``(field
    name, validates_schema checks)`` to run on the decoded value. None for any other envelope.
    Raises ValueError for a common string its pattern refuses."""
    fields = envelope_fields(envelope_class)
    if not fields or any(nested is None for nested in fields.values()):
        return None
    required = set(required_fields(envelope_class))
    properties = {}
    for name, nested in fields.items():
        found = plain_json_schema(nested)
        if found is None:
            return None
        properties[name] = found
    common = {pattern: frozenset(strings) for pattern, strings in
              (getattr(envelope_class, "common_strings", None) or {}).items() if pattern in _patterns(properties)}
    try:
        envelopes = [struct_type(properties, required, itertools.count())]
        if common:
            envelopes.insert(0, struct_type(properties, required, itertools.count(), common))
    except Unsupported:
        return None
    checks = tuple((name, found) for name, nested in fields.items() if (found := schema_checks(nested)))
    return tuple(msgspec.json.Decoder(envelope) for envelope in envelopes), checks


def typed_load(envelope_class: type[Schema], data: bytes) -> dict | None:
    """What ``envelope_class().load(json)`` answers for the body ``data`` (bytes of JSON), when
    one of the envelope's decoders and the schemas' own checks accept it; None when not (the body
    then goes the usual way, which answers it) or when the envelope has no decoder."""
    found = envelope_decoder(envelope_class)
    if found is None or len(data) > MAX_DECODED_BYTES:
        return None
    decoders, checks = found
    for decoder in decoders:
        try:
            value = msgspec.to_builtins(decoder.decode(data))
            break
        except msgspec.DecodeError:  # (not JSON, or refused by a type: ValidationError is one too)
            continue
    else:
        return None
    try:
        for name, field_checks in checks:
            if name in value:
                for check in field_checks:
                    check(value[name], partial=None, many=False, unknown=None)
    except ValidationError:
        return None
    return value
