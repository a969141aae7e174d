"""Request bodies read as strict JSON (referee/json_text.py) once per request, and the
Blueprint whose views take them: a body that is not JSON is answered 400."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import flask
import flask_smorest
from marshmallow import missing
from webargs.flaskparser import FlaskParser, abort, is_json_request

from referee.api.body.transport import BODY_KEY
from referee.api.http.problems import wrapper_hint
from referee.json_text import strict_loads
from referee.schemas.compiled import BODY_HOLDS_FLOAT
from referee.service.errors import NotJson

# The environ key of the body read by read_json_body, once per request.
_READ_KEY = "referee.json_body"


def read_json_body(req: flask.Request) -> tuple[Any, bool]:
    """``(value, holds_float)`` of a JSON request body (``missing`` when the request is not
    JSON), read with :func:`strict_loads` from the bytes transport.read_body kept, once per
    request (the fast path and the parser ask in turn). Raises ValueError (``json.JSONDecodeError``,
    ``UnicodeDecodeError``) for a body that is not JSON."""
    if not is_json_request(req):
        return missing, False
    environ = req.environ
    read = environ.get(_READ_KEY)
    if read is not None:   # (a body the fast path refused is read again by the parser)
        return read
    floats: list = []
    data = environ.get(BODY_KEY)  # the body transport.read_body read, without werkzeug's stream again
    value = strict_loads(req.get_data(cache=True) if data is None else data, on_float=lambda: floats.append(True))
    read = environ[_READ_KEY] = (value, bool(floats))
    return read


class StrictJsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`strict_loads`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        value, holds_float = read_json_body(req)
        BODY_HOLDS_FLOAT.set(holds_float)  # read by FastNested: no float, no need to look
        return value

    def _handle_invalid_json_error(self, error, req: flask.Request, *args, **kwargs):
        """A body that is not JSON: 400, told by line, column and byte offset (NotJson)."""
        raise NotJson(error)

    def handle_error(self, error, req: flask.Request, schema, *, error_status_code, error_headers):
        """webargs' 422 (FlaskParser.handle_error), with the detail for a body that holds what
        belongs inside one of its fields (problems.wrapper_hint) in the exception's data."""
        hint = None
        if isinstance(error.messages, dict) and "json" in error.messages:
            try:
                hint = wrapper_hint(error.messages, read_json_body(req)[0])
            except ValueError:  # (a body that is not JSON is answered 400 before any field is checked)
                hint = None
        abort(error_status_code or self.DEFAULT_VALIDATION_STATUS, exc=error, messages=error.messages,
              schema=schema, headers=error_headers, hint=hint)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with strict JSON bodies."""

    ARGUMENTS_PARSER = StrictJsonParser()


def with_fast_body(schema, documented: Callable, view: Callable[..., flask.Response]) -> Callable:
    """The view to route for ``documented`` (``view`` wrapped by ``Blueprint.arguments(schema)``
    and ``Blueprint.response``; its documentation is kept): a JSON body that ``schema`` takes
    whole through the compiled fast path (``schema.fast_load``, FastEnvelope) is handed to
    ``view`` directly, without the wrappers' work per request; any other body (one that does
    not parse, holds a float, or fails a check) goes through ``documented``, which answers as
    it always did. ``view`` must answer a Response (the response wrapper passes those through
    unchanged)."""

    @functools.wraps(documented)
    def routed(*args: Any, **kwargs: Any) -> flask.Response:
        req = flask.request._get_current_object()   # (one context look-up, not one per read)
        try:
            value, holds_float = read_json_body(req)  # what the parser reads
        except ValueError:  # not JSON, or not UTF-8: the full path answers the 400
            value, holds_float = missing, True
        BODY_HOLDS_FLOAT.set(holds_float)  # for the view's own loads (a match move's move)
        loaded = schema.fast_load(value, holds_float=holds_float) if value is not missing else None
        if loaded is None:
            return documented(*args, **kwargs)
        return view(*args, loaded, **kwargs)

    return routed


def fast_body(schema) -> Callable[[Callable], Callable]:
    """Decorator form of :func:`with_fast_body`, placed between ``Blueprint.route`` and the
    documenting decorators (``arguments`` with ``schema``, ``response``, ``doc``): the view they
    wrap is found through ``__wrapped__``."""
    def decorate(documented: Callable) -> Callable:
        return with_fast_body(schema, documented, inspect.unwrap(documented))
    return decorate
