"""A contract and the answers of a recorded run, compared: which response of the contract
declares an answer, its headers, and the fields of its JSON body (tests/api/test_contract_run.py).

Header names compare without case (RFC 9110 section 5.1). A field of a JSON body is declared
when the schema of its object names it (``properties``, ``patternProperties``) or says what
other fields may be (``additionalProperties`` true or a schema, as the contract's maps and
events do: docs/reference/events.md lists each event's fields); an object whose schema names fields and
says nothing of others has none. A value whose schema says nothing of its shape (``{}``: any
JSON value, such as an option's default) is declared whole. ``$ref``, ``allOf``,
``oneOf``/``anyOf`` (the branches the value fits) and ``items`` are followed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs

# Headers of the transport, not of the contract: how the message is framed and sent (RFC 9110
# sections 6.6.1, 10.2.4, 8.6; RFC 9112 sections 6.1 and 9.6). Content-Type is declared by the
# media types of a response's content, and checked against them.
TRANSPORT_HEADERS = frozenset({"date", "server", "content-length", "connection", "transfer-encoding",
                               "keep-alive"})
JSON_TYPES = ("application/json", "application/problem+json")


@dataclass
class Exchange:
    """One request of the run and its answer."""

    method: str           # as the contract writes it: "get", "post"...
    template: str         # the contract's path (with {match_id}) of the operation asked
    path: str             # the path asked
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    example: str | None = None   # the problem example this request is the request of
    note: str = ""

    @property
    def names(self) -> set[str]:
        return {name.lower() for name, _ in self.headers}

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    @property
    def media_type(self) -> str | None:
        value = self.header("Content-Type")
        return None if value is None else value.split(";", 1)[0].strip().lower()

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path} -> {self.status}{' (' + self.note + ')' if self.note else ''}"


@dataclass
class Contract:
    """An OpenAPI 3.1 document, read as the run needs it."""

    document: dict
    _validators: dict = field(default_factory=dict)

    def operations(self) -> list[tuple[str, str]]:
        return [(method, path) for path, item in self.document["paths"].items() for method in item
                if method in ("get", "put", "post", "delete", "patch")]

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            *_, kind, name = node["$ref"].split("/")
            node = self.document["components"][kind][name]
        return node

    def responses(self, method: str, template: str) -> dict[str, dict]:
        """The responses of an operation by status code ("default" left out), resolved."""
        declared = self.document["paths"][template][method]["responses"]
        return {status: self.resolve(response) for status, response in declared.items() if status != "default"}

    def headers(self, response: dict) -> dict[str, bool]:
        """The headers a response declares: lowercased name -> required."""
        return {name.lower(): bool(self.resolve(header).get("required")) for name, header in
                response.get("headers", {}).items()}

    def valid(self, schema: dict, value: Any) -> bool:
        return self._validator(schema).is_valid(value)

    def errors(self, schema: dict, value: Any) -> list[str]:
        return [f"{error.instance_path}: {error.message}" for error in self._validator(schema).iter_errors(value)]

    def _validator(self, schema: dict):
        key = repr(schema)
        if key not in self._validators:
            self._validators[key] = jsonschema_rs.validator_for({**schema, "components": self.document["components"]})
        return self._validators[key]

    def undeclared(self, value: Any, schema: dict, pointer: str = "") -> set[str]:
        """JSON pointers of the fields of ``value`` that ``schema`` does not declare: a field
        is declared when the schema's own keywords declare it, or one of its ``allOf``
        branches, or one of the ``oneOf``/``anyOf`` branches the value fits."""
        schema = self.resolve(schema)
        if schema is True or not _STRUCTURE & set(schema):
            return set()   # any JSON value, as the contract says: nothing beneath is undeclared
        branches = list(schema.get("allOf", []))
        for key in ("oneOf", "anyOf"):
            branches += [branch for branch in schema.get(key, []) if self.valid(branch, value)]
        results = [self.undeclared(value, branch, pointer) for branch in branches]
        if not branches or _OWN & set(schema):
            results.append(self._own_undeclared(value, schema, pointer))
        return set.intersection(*results)

    def _own_undeclared(self, value: Any, schema: dict, pointer: str) -> set[str]:
        found: set[str] = set()
        if isinstance(value, dict):
            properties = schema.get("properties", {})
            # absent: the contract says nothing of other fields (JSON Schema would admit any)
            extra = schema.get("additionalProperties", False)
            for name, item in value.items():
                at = f"{pointer}/{_escape(name)}"
                matched = [sub for pattern, sub in schema.get("patternProperties", {}).items()
                           if re.search(pattern, name)]
                if name in properties:
                    matched = [properties[name]]
                elif not matched and extra is not False:
                    matched = [extra] if isinstance(extra, dict) else []
                elif not matched:
                    found.add(at)
                    continue
                for sub in matched:
                    found |= self.undeclared(item, sub, at)
        elif isinstance(value, list):
            prefix = schema.get("prefixItems", [])
            for index, item in enumerate(value):
                sub = prefix[index] if index < len(prefix) else schema.get("items")
                if isinstance(sub, dict):
                    found |= self.undeclared(item, sub, f"{pointer}/{index}")
        return found


# Keywords that say something of a value's shape (a schema without any admits every value).
_STRUCTURE = {"type", "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "allOf",
              "oneOf", "anyOf", "enum", "const"}
# Keywords by which a schema declares fields or items of its own.
_OWN = {"properties", "patternProperties", "additionalProperties", "items", "prefixItems"}


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")

