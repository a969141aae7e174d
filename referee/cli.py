"""The ``referee`` command: serve over HTTP, or judge files at a desk with no server.

    referee serve [--bind HOST:PORT] [--workers N]
    referee adjudicate STATE.json MOVE.json [--lang ja]
    referee replay STATE.json MOVES.json [--lang ja]
    referee verify RECORD.json
    referee openapi [--output openapi.yaml]

``adjudicate`` and ``replay`` print the same JSON as the HTTP answers (exit 0 for a verdict,
legal or not; exit 2 with a problem+json document on stderr for bad input). STATE.json holds a
state, bare or as ``{"state": ...}`` (the answer of ``setup``); MOVE.json a move, bare or as
``{"move": ...}``; MOVES.json a list of moves, bare or as ``{"moves": [...]}``. With
``REFEREE_STATE_KEYS`` set, states are signed and checked as over HTTP: STATE.json carries its
signature as ``{"state": ..., "state_signature": ...}``.

``verify`` prints the verdict of ``POST /v1/records/verify`` on a match record
(docs/records.md): exit 0 when it is valid, 1 at the first discrepancy (its JSON pointer into
the record and what the replay has there), 2 with a problem+json document on stderr for a file
that is not a record.
"""

from __future__ import annotations

import os
import socket
import sys
from importlib import import_module

import click
from marshmallow import ValidationError

from referee.games import GAMES, PACKAGES
from referee.json_text import NumberTooLong, TooManyContainers, ascii_digits, dumps, strict_loads
from referee.schemas.bodies import game_schemas
from referee.schemas.pointers import pointer_errors
from referee.service import state_signing, stateless
from referee.service.errors import NotJson, Refused, number_too_long, problem_body, too_many_containers
from referee.service.texts import Text
from referee.settings import SettingError

DEFAULT_BIND = "127.0.0.1:8000"  # as referee/gunicorn_conf.py


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a HOST:PORT address; None for anything else, such as unix:PATH."""
    host, _, port = address.rpartition(":")
    if not host or not ascii_digits(port) or address.startswith("unix:"):
        return None
    return host, int(port)


def _cannot_listen(address: str) -> str | None:
    """Why gunicorn could not listen on ``address`` (HOST:PORT), or None if it can (or the
    address is not HOST:PORT, such as unix:PATH: gunicorn then says what is wrong)."""
    parts = _host_port(address)
    if parts is None:
        return None
    host, port = parts
    try:
        family, kind, proto, _, sockaddr = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as error:
        return str(error)
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
        try:
            probe.bind(sockaddr)
        except OSError as error:
            return error.strerror or str(error)
    return None


def _free_neighbour(address: str, tries: int = 20) -> str | None:
    """The first of the next ``tries`` ports on the host of ``address`` (HOST:PORT) that can be
    listened on now, as HOST:PORT; None when none is, or the address is not HOST:PORT."""
    parts = _host_port(address)
    if parts is None:
        return None
    host, port = parts
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        if _cannot_listen(f"{host}:{candidate}") is None:
            return f"{host}:{candidate}"
    return None


def _fail(body: dict) -> None:
    click.echo(dumps(body), err=True)
    sys.exit(2)


def _read_json(path: str, pointer: str, lang: str):
    """The JSON value of the file ``path``; else the problem (its pointer ``pointer``, its words
    in ``lang``) on standard error and exit 2."""
    try:
        with open(path, "rb") as handle:
            return strict_loads(handle.read())  # as strict as the HTTP service: no NaN, no lone surrogate
    except OSError as error:
        _fail(problem_body(400, Text("Cannot read {path}: {reason}. Name a file that exists and can be read.",
                                     path=path, reason=error.strerror or str(error)),
                           [(pointer, Text("file cannot be read"))], title="Cannot read an input file",
                           slug="unreadable-file", language=lang))
    except NumberTooLong as error:
        _fail(problem_body(400, number_too_long(error, path), [(pointer, Text("an integer of more than {limit} digits",
                                                                              limit=error.limit))],
                           title="An input file holds a number too long to read", language=lang))
    except TooManyContainers as error:
        _fail(problem_body(400, too_many_containers(error, path),
                           [(pointer, Text("more than {limit:,} arrays and objects", limit=error.limit))],
                           title="An input file holds too many arrays and objects", language=lang))
    except RecursionError:
        _fail(problem_body(400, Text("{path} is nested too deeply to read: no input takes more than a few levels.",
                                     path=path), [(pointer, Text("nested too deeply to parse"))],
                           title="An input file is not valid JSON", language=lang))
    except ValueError as error:
        _fail(NotJson(error, pointer, path).problem(lang))


def _unwrap(value, key: str, beside: frozenset[str] = frozenset()):
    """``{"state": S}`` -> ``S`` (the answer of setup can be used as it is; ``beside``: other
    keys the envelope may hold); bare values pass."""
    if isinstance(value, dict) and key in value and set(value) <= {key} | beside:
        return value[key]
    return value


def _signature(value):
    """The ``state_signature`` beside the state of a ``{"state", "state_signature"}`` file."""
    if isinstance(value, dict) and "state" in value and set(value) <= {"state", state_signing.FIELD}:
        return value.get(state_signing.FIELD)
    return None


def _judge(kind: str, state_path: str, moves_path: str, lang: str, include_states: bool = False) -> None:
    state_file = _read_json(state_path, "/state", lang)
    state = _unwrap(state_file, "state", frozenset({state_signing.FIELD}))
    key = "moves" if kind == "replay" else "move"
    second = _unwrap(_read_json(moves_path, f"/{key}", lang), key)
    game_id = state.get("game") if isinstance(state, dict) else None
    game = GAMES.get(game_id)
    if game is None:
        games = ", ".join(sorted(GAMES))
        _fail(problem_body(422, Text('The state names no game this referee knows: its "game" must be one of {games}.',
                                     games=games), [("/state/game", Text("one of {games}", games=games))],
                           language=lang))
    schemas = game_schemas(game.id, import_module(f"referee.games.{PACKAGES[game.id]}.schema"), game.player_counts)
    if kind == "replay":
        schema, raw = schemas.replay_request(), {"state": state, "moves": second, "include_states": include_states}
    else:
        schema, raw = schemas.adjudicate_request(), {"state": state, "move": second}
    if _signature(state_file) is not None:
        raw[state_signing.FIELD] = _signature(state_file)
    try:
        body = schema.load(raw)
    except ValidationError as error:
        _fail(problem_body(422, Text("The input does not fit the schema: correct the fields the errors point at "
                                     "(/state/... in STATE.json, /move/... or /moves/... in the other file)."),
                           pointer_errors(error.messages), language=lang))
    try:
        keys = state_signing.StateKeys.from_environ()
    except SettingError as error:   # as the service, which stops at start with this line
        click.echo(f"Referee: {error}", err=True)
        sys.exit(2)
    try:
        vouched = state_signing.check(keys, game.id, body)
        if kind == "replay":
            answer = stateless.replay(game, body, lang)
        else:
            answer = stateless.adjudicate(game, body, lang)
    except Refused as error:
        _fail(error.problem(lang))
    answer = state_signing.signed(keys, game.id, kind, answer, vouched)
    click.echo(dumps(answer))


@click.group()
def main() -> None:
    """Referee: rules referee for CATATAC, Call of Katulhu and Scratch & Catch."""


@main.command()
@click.option("--bind", default=None, help="HOST:PORT (default: $BIND or 127.0.0.1:8000)")
@click.option("--workers", type=int, default=None, help="worker processes (default: $WEB_CONCURRENCY or 1)")
def serve(bind: str | None, workers: int | None) -> None:
    """Start the HTTP service under gunicorn (settings: referee/gunicorn_conf.py, which the
    repository's gunicorn.conf.py, used by the container, loads too)."""
    if bind:
        os.environ["BIND"] = bind
    address = os.environ.get("BIND", DEFAULT_BIND)
    reason = _cannot_listen(address)
    if reason:
        free = _free_neighbour(address)
        example = f", e.g. BIND={free} (free now)" if free else ""
        click.echo(f"referee serve: cannot listen on {address} ({reason}). Set BIND (or --bind HOST:PORT) to a "
                   f"free address{example}.", err=True)
        sys.exit(1)
    if workers:
        os.environ["WEB_CONCURRENCY"] = str(workers)
    # gunicorn puts the current directory first on sys.path before it loads its configuration,
    # so started inside a checkout it would import the checkout's sources instead of the
    # installed package. Imported first, with -P (no
    # current directory on sys.path), the installed package is the one every import finds.
    start = "import referee, sys; from gunicorn.app.wsgiapp import run; sys.argv[0] = 'gunicorn'; run()"
    os.execvp(sys.executable, [sys.executable, "-P", "-c", start, "-c", "python:referee.gunicorn_conf"])


@main.command()
@click.argument("state_path", metavar="STATE.json")
@click.argument("move_path", metavar="MOVE.json")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", help="language of messages")
def adjudicate(state_path: str, move_path: str, lang: str) -> None:
    """Judge one move; prints the verdict JSON of POST /v1/games/{game}/adjudicate.

    Bad input exits 2 with problem+json on standard error; pointers start /state (STATE.json)
    or /move (MOVE.json), as in the HTTP request."""
    _judge("adjudicate", state_path, move_path, lang)


@main.command()
@click.argument("state_path", metavar="STATE.json")
@click.argument("moves_path", metavar="MOVES.json")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", help="language of messages")
@click.option("--include-states", is_flag=True, help="give the state after every step (as include_states: true)")
def replay(state_path: str, moves_path: str, lang: str, include_states: bool) -> None:
    """Replay moves; prints the JSON of POST /v1/games/{game}/replay.

    Bad input exits 2 with problem+json on standard error; pointers start /state (STATE.json)
    or /moves (MOVES.json), as in the HTTP request."""
    _judge("replay", state_path, moves_path, lang, include_states)


@main.command()
@click.argument("record_path", metavar="RECORD.json")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", help="language of messages")
def verify(record_path: str, lang: str) -> None:
    """Verify a complete match record offline (docs/records.md); prints the verdict JSON of
    POST /v1/records/verify: exit 0 valid, 1 invalid (the first discrepancy's pointer into the
    record), 2 for a file that is not a record (problem+json on standard error)."""
    from referee.schemas.records import Record
    from referee.service import verify as verification

    raw = _read_json(record_path, "", lang)
    try:
        record = Record().load(raw)
    except ValidationError as error:
        _fail(problem_body(422, Text("The file is not a match record: correct the fields the errors point at, or "
                                     "download the record again (GET /v1/matches/{id}/record)."),
                           pointer_errors(error.messages), language=lang))
    try:
        with open(record_path, "rb") as handle:
            verification.refuse_repeated_names(handle.read())
    except Refused as error:
        _fail(error.problem(lang))
    verdict = verification.verify(record)
    click.echo(dumps(verdict.to_json()))
    sys.exit(0 if verdict.valid else 1)


@main.command()
@click.option("--output", "-o", default="-", help="file to write (default: standard output)")
def openapi(output: str) -> None:
    """Write the OpenAPI contract generated from the code, as YAML."""
    from referee.app import create_app

    text = create_app().test_client().get("/openapi.yaml").get_data(as_text=True)
    if output == "-":
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
