"""A recorded run of every operation of openapi.yaml, compared with the contract both ways.

The service runs as it is deployed: gunicorn with gevent workers (gunicorn.conf.py), one
server on a redis-server (stopped at the end of its run, for the 503s), one on the in-process
store with a short body deadline and one waiting request allowed (408, and the 503 of too many
waiting requests), and one with REFEREE_STATE_KEYS (signed states, and the 422 of a signature
that does not match: answered only by a server holding keys, declared on every operation
taking a state). Each operation is asked for every answer it documents: its successes
(with their optional headers: a long-poll that waited, an idempotent replay), 304, and each
problem (the request of each problem example among them). Then:

- every status code an operation answered is declared for it (not through ``default``), and
  every code it declares was answered;
- every header of an answer is declared on that response, and every declared header is sent:
  on every answer when ``required``, on at least one answer of the run otherwise. The rule of
  what is declared: every header the service writes for a client, not the transport's (Date,
  Server, Content-Length, Connection, Transfer-Encoding, Keep-Alive: how the message travels),
  nor CORS's (answered only to the browsers of the origins in REFEREE_CORS_ORIGINS, unset here);
  Content-Type is checked against the response's media types;
- every JSON body fits its schema (required fields present), and every field in it is declared
  (tests/support/contract_run.py says how);
- every problem example of the contract is the answer to its request (type, title, status,
  detail, pointers); the two whose words name a setting (the body deadline, the waiting limit)
  are built again by their builder with the run's setting;
- a method the contract does not name on a path is 405, and ``Allow`` names the contract's
  methods of that path (with HEAD and OPTIONS, which every route answers).
"""

from __future__ import annotations

import copy
import http.client
import json
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import redis

from referee.api.contract import problem_examples
from referee.api.contract.examples import MATCH_ID, SHORT_DECK
from referee.api.http import problems
from referee.api.ops.live import WaitingSlots
from referee.limits import MAX_MATCH_MOVES
from tests.edge.support import raw_request
from tests.support.contract_run import JSON_TYPES, TRANSPORT_HEADERS, Contract, Exchange
from tests.support.documents import load_yaml
from tests.support.matches_support import Gunicorn, RedisServer, have, wait_for

pytestmark = pytest.mark.skipif(not have("redis-server"), reason="needs redis-server")

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = Contract(load_yaml((ROOT / "openapi.yaml").read_text(encoding="utf-8")))
GAME = "scratch-and-catch"
BODY_TIMEOUT = 0.3   # seconds, on the server of the limits
MAX_BODY = 1024 * 1024
STATELESS = ("setup", "legal-moves", "adjudicate", "score", "view", "replay")
UNFIT = {"setup": "SetupUnfit", "legal-moves": "StateMissing", "adjudicate": "AdjudicateUnfit",
         "score": "StateMissing", "view": "ViewUnfit", "replay": "ReplayUnfit"}


# -- the run ----------------------------------------------------------------------------------

class Recorder:
    """Sends requests to one server and keeps each answer as an Exchange."""

    def __init__(self, port: int, exchanges: list[Exchange]):
        self.port = port
        self.exchanges = exchanges
        self._lock = threading.Lock()

    def send(self, method: str, template: str, path: str | None = None, body=None, headers: dict | None = None, *,
             data: bytes | None = None, example: str | None = None, note: str = "", stream: bool = False) -> Exchange:
        sent = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            connection.request(method.upper(), path or template, body=data, headers=sent)
            answer = connection.getresponse()
            exchange = Exchange(method.lower(), template, path or template, answer.status, answer.getheaders(),
                                b"" if stream else answer.read(), example, note)
        finally:
            connection.close()
        return self.keep(exchange)

    def raw(self, method: str, template: str, head: bytes, *, example: str | None = None, note: str = "") -> Exchange:
        """A request written as bytes (a body announced and not sent whole)."""
        status, headers, body = raw_request(self.port, head, timeout=10)
        return self.keep(Exchange(method, template, template, status, list(headers.items()), body, example, note))

    def keep(self, exchange: Exchange) -> Exchange:
        with self._lock:
            self.exchanges.append(exchange)
        return exchange

    def json(self, *args, **kwargs):
        exchange = self.send(*args, **kwargs)
        return exchange, json.loads(exchange.body or b"null")


def _request_examples(method: str, template: str) -> list[dict]:
    body = CONTRACT.document["paths"][template][method].get("requestBody")
    return [] if body is None else [CONTRACT.resolve(example)["value"]
                                    for example in body["content"]["application/json"]["examples"].values()]


def _impossible(game: str, state: dict) -> dict:
    """``state`` with one card (a cat in Call of Katulhu) in two places: a state no game reaches."""
    state = copy.deepcopy(state)
    if game == "call-of-katulhu":
        state["table"][0] = state["cat_deck"][0]
    else:
        state["players"][0]["hand"][0] = state["players"][1]["hand"][0]
    return state


def _body_problems(rec: Recorder, method: str, template: str, path: str | None = None) -> None:
    """400, 413 and 415 of an operation taking a body (408: :func:`_limits`); the body over
    the limit is announced, not sent (the answer comes before it is read)."""
    path = path or template
    rec.send(method, template, path, data=b"{", headers={"Content-Type": "application/json"}, example="BodyNotJson")
    rec.send(method, template, path, data=b"{}", headers={"Content-Type": "text/plain"}, example="BodyNotJsonMedia")
    head = (f"{method.upper()} {path} HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
            f"Content-Length: {MAX_BODY + 1}\r\n\r\n").encode()
    rec.raw(method, template, head, example="BodyTooLarge").path = path


def _stateless(rec: Recorder) -> None:
    for template in ("/healthz", "/readyz", "/metrics", "/v1/games"):
        rec.send("GET", template)
    for game in ("scratch-and-catch", "call-of-katulhu", "catatac"):
        rec.send("GET", f"/v1/games/{game}")
        rec.send("GET", f"/v1/games/{game}", headers={"Accept-Language": "ja"})
        for operation in STATELESS:
            template = f"/v1/games/{game}/{operation}"
            for body in _request_examples("post", template):
                rec.send("POST", template, body=body)
                if operation in ("adjudicate", "replay"):
                    rec.send("POST", template, body=body, headers={"Accept-Language": "ja"})
                    rec.send("POST", template, body={**body, "state": _impossible(game, body["state"])},
                             note="impossible state")
            rec.send("POST", template, body={}, example=UNFIT[operation])
            _body_problems(rec, "post", template)


def _next_move(rec: Recorder, match: dict) -> tuple[int, dict]:
    """A seat that may move now and its first listed move."""
    for seat, secret in enumerate(match["seats"]):
        _, listed = rec.json("GET", "/v1/matches/{match_id}/legal-moves", f"/v1/matches/{match['id']}/legal-moves"
                             f"?seat={seat}", headers={"Authorization": f"Bearer {secret['secret']}"})
        if listed["moves"]:
            return seat, listed["moves"][0]
    raise AssertionError("nobody may move")


def _matches(rec: Recorder, redis_server: RedisServer) -> dict:
    """Every answer of the match operations but 503 and 408; the match made."""
    create = "/v1/matches"
    created = [rec.json("POST", create, body=body)[1] for body in _request_examples("post", create)]
    rec.send("POST", create, body={"game": "chess", "players": 2}, example="UnknownGame")
    rec.send("POST", create, body={"game": GAME, "players": 2, "names": ["Ana"]}, example="NamesNotOnePerSeat")
    rec.send("POST", create, body={"game": GAME, "players": 2, "names": ["Ana", " "]}, example="NameBlank")
    _body_problems(rec, "post", create)
    named = next(match for match in created if match["names"][0] is not None)   # (the seeded example names seats)
    rec.send("GET", "/v1/matches/{match_id}/log", f"/v1/matches/{named['id']}/log")
    match = created[0]
    base = f"/v1/matches/{match['id']}"
    auth = [{"Authorization": f"Bearer {seat['secret']}"} for seat in match["seats"]]
    reads = {"/v1/matches/{match_id}": base, "/v1/matches/{match_id}/log": f"{base}/log",
             "/v1/matches/{match_id}/events": f"{base}/events",
             "/v1/matches/{match_id}/legal-moves": f"{base}/legal-moves",
             "/v1/matches/{match_id}/record": f"{base}/record"}
    for template, path in reads.items():
        stream = template.endswith("/events")
        if not template.endswith("/legal-moves"):
            rec.send("GET", template, path, stream=stream)
            rec.send("GET", template, f"{path}?seat=x", example="SeatNotANumber")
        else:
            rec.send("GET", template, path, headers=auth[0], example="SeatMissing")
        rec.send("GET", template, f"{path}?seat=0", headers=auth[0], stream=stream)
        rec.send("GET", template, f"{path}?seat=0", example="SeatSecretMissing")
        rec.send("GET", template, f"{path}?seat=0", headers=auth[1], example="OtherSeatsSecret")
        rec.send("GET", template, path.replace(match["id"], MATCH_ID) + "?seat=0", headers=auth[0],
                 example="NoSuchMatch")
    rec.send("GET", "/v1/matches/{match_id}/events", f"{base}/events", headers={"Last-Event-ID": "x"},
             example="LastEventIdNotAVersion")
    _includes(rec, base, auth)
    for template in ("/v1/matches/{match_id}", "/v1/matches/{match_id}/log", "/v1/matches/{match_id}/record"):
        rec.send("GET", template, reads[template], headers={"If-None-Match": '"0"'})
    rec.send("GET", "/v1/matches/{match_id}/legal-moves", f"{base}/legal-moves?seat=0",
             headers={**auth[0], "If-None-Match": '"0"'})
    _seeding(rec, redis_server)
    _records(rec)

    moves = "/v1/matches/{match_id}/moves"
    _, listed = rec.json("GET", "/v1/matches/{match_id}/legal-moves", f"{base}/legal-moves?seat=0",
                         headers=auth[0])
    move, other = listed["moves"][:2]   # (Scratch & Catch: seat 0 plays first)
    at_0 = {"If-Match": '"0"'}
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers=auth[0], example="IfMatchMissing")
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers={**auth[0], "If-Match": "0"},
             example="IfMatchMalformed")
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers=at_0, example="SeatSecretMissing")
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers={**auth[1], **at_0},
             example="OtherSeatsSecret")
    rec.send("POST", moves, f"/v1/matches/{MATCH_ID}/moves", body={"move": move}, headers={**auth[0], **at_0},
             example="NoSuchMatch")
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers={**auth[0], "If-Match": '"1"'},
             example="StaleVersion")
    _body_problems(rec, "post", moves, f"{base}/moves")
    rec.send("POST", moves, f"{base}/moves", body={"move": {**move, "player": 1}}, headers={**auth[1], **at_0},
             note="illegal")
    rec.send("POST", moves, f"{base}/moves?include=legal_moves", body={"move": {**move, "player": 1}},
             headers={**auth[1], **at_0}, note="illegal, with legal moves")
    for query, example in (("include=everything", "IncludeUnknown"),
                           ("include=legal_moves&include=legal_moves", "IncludeRepeated")):
        rec.send("POST", moves, f"{base}/moves?{query}", body={"move": move}, headers={**auth[0], **at_0},
                 example=example)
    keyed = {**auth[0], **at_0, "Idempotency-Key": "move-1"}
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers=keyed)
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers=keyed, note="replayed")
    rec.send("POST", moves, f"{base}/moves?include=legal_moves", body={"move": move}, headers=keyed,
             note="replayed, with legal moves")
    rec.send("POST", moves, f"{base}/moves", body={"move": other}, headers=keyed, example="IdempotencyKeyReused")
    seat, move = _next_move(rec, match)

    # Long-polls: one waited out (304), one woken by a move (200); both say Preference-Applied.
    version = json.loads(rec.send("GET", "/v1/matches/{match_id}", base).body)["version"]
    rec.send("GET", "/v1/matches/{match_id}", base, headers={"If-None-Match": f'"{version}"', "Prefer": "wait=1"})
    waiting = threading.Thread(target=rec.send, args=("GET", "/v1/matches/{match_id}", base),
                               kwargs={"headers": {"If-None-Match": f'"{version}"', "Prefer": "wait=10"}})
    # The move once the long-poll waits: a blocking read in Redis's client list on a connection
    # no earlier one held (the event streams asked above still wait on theirs).
    store = redis.Redis(port=redis_server.port)

    def blocked() -> set[str]:
        return {client["id"] for client in store.client_list() if client["cmd"] == "xread" and "b" in client["flags"]}

    before = blocked()
    waiting.start()
    wait_for(lambda: blocked() - before, what="the long-poll to wait")
    rec.send("POST", moves, f"{base}/moves", body={"move": move}, headers={**auth[seat], "If-Match": f'"{version}"'})
    waiting.join(20)
    # A seat's long-poll with its legal moves, woken by its own next move (posted with them).
    version += 1
    seat, move = _next_move(rec, match)
    waiting = threading.Thread(target=rec.send, args=("GET", "/v1/matches/{match_id}",
                                                      f"{base}?seat={seat}&include=legal_moves"),
                               kwargs={"headers": {**auth[seat], "If-None-Match": f'"{version}"',
                                                   "Prefer": "wait=10"}})
    before = blocked()
    waiting.start()
    wait_for(lambda: blocked() - before, what="the seat's long-poll to wait")
    rec.send("POST", moves, f"{base}/moves?include=legal_moves", body={"move": move},
             headers={**auth[seat], "If-Match": f'"{version}"'})
    waiting.join(20)
    store.close()
    return match


def _includes(rec: Recorder, base: str, auth: list[dict]) -> None:
    """Seat 0's view and event stream with its legal moves (the stream read to its first
    legal_moves event), and the refusals of ``include``."""
    rec.send("GET", "/v1/matches/{match_id}", f"{base}?seat=0&include=legal_moves", headers=auth[0])
    connection = http.client.HTTPConnection("127.0.0.1", rec.port, timeout=20)
    try:
        connection.request("GET", f"{base}/events?seat=0&include=legal_moves", headers=auth[0])
        answer = connection.getresponse()
        text = b""
        while b"event: legal_moves" not in text or not text.endswith(b"\n\n"):
            text += answer.readline()
        rec.keep(Exchange("get", "/v1/matches/{match_id}/events", f"{base}/events?seat=0&include=legal_moves",
                          answer.status, answer.getheaders(), text, None, "with legal moves"))
    finally:
        connection.close()
    for template, path in (("/v1/matches/{match_id}", base), ("/v1/matches/{match_id}/events", f"{base}/events")):
        rec.send("GET", template, f"{path}?seat=0&include=everything", headers=auth[0], example="IncludeUnknown")
        rec.send("GET", template, f"{path}?seat=0&include=legal_moves&include=legal_moves", headers=auth[0],
                 example="IncludeRepeated")
        rec.send("GET", template, f"{path}?include=legal_moves", example="IncludeWithoutSeat")


def _seeding(rec: Recorder, redis_server: RedisServer) -> None:
    """A jointly seeded match, its seat's contribution (scores null: no card dealt yet), the
    refusal of a seeding beside a seed, and the record of a match stored without its seeding."""
    body = {"game": GAME, "players": 2, "seeding": "joint"}
    joint = rec.json("POST", "/v1/matches", body=body)[1]
    rec.send("POST", "/v1/matches", body={**body, "seed": "s"}, example="SeedingWithSeed")
    contribution = {"type": "contribute", "player": 0, "contribution": "seat 0's"}
    rec.send("POST", "/v1/matches/{match_id}/moves", f"/v1/matches/{joint['id']}/moves", body={"move": contribution},
             headers={"Authorization": f"Bearer {joint['seats'][0]['secret']}", "If-Match": '"0"'}, note="contribute")
    # A match as an earlier version of the service stored it: its meta without the seeding.
    store = redis.Redis(port=redis_server.port)
    snap = store.hgetall(f"match:{{{joint['id']}}}:snap")
    meta = json.loads(snap[b"meta"])
    del meta["seeding"]
    store.hset(f"match:{{{MATCH_ID}}}:snap", mapping={**snap, b"meta": json.dumps(meta)})
    rec.send("GET", "/v1/matches/{match_id}/record", f"/v1/matches/{MATCH_ID}/record", example="NoRecord")
    store.delete(f"match:{{{MATCH_ID}}}:snap")
    store.close()


def _records(rec: Recorder) -> None:
    """A match played to its end: its record, its stream's 204 to a reader that has its end;
    records verified (valid, altered), and the refusals of verification."""
    match = rec.json("POST", "/v1/matches", body={"game": GAME, "players": 2, "options": SHORT_DECK})[1]
    base = f"/v1/matches/{match['id']}"
    auth = [{"Authorization": f"Bearer {seat['secret']}"} for seat in match["seats"]]
    version = 0
    while True:
        try:
            seat, move = _next_move(rec, match)
        except AssertionError:
            break
        rec.send("POST", "/v1/matches/{match_id}/moves", f"{base}/moves", body={"move": move},
                 headers={**auth[seat], "If-Match": f'"{version}"'})
        version += 1
    record = rec.json("GET", "/v1/matches/{match_id}/record", f"{base}/record?seat=1", headers=auth[1])[1]
    assert record["complete"] and record["version"] == version
    rec.send("GET", "/v1/matches/{match_id}/events", f"{base}/events", headers={"Last-Event-ID": str(version)},
             note="has the end")
    verify = "/v1/records/verify"
    for body in _request_examples("post", verify):
        rec.send("POST", verify, body=body)
    rec.send("POST", verify, body=record, note="a record of the run")
    rec.send("POST", verify, body={}, example="RecordUnfit")
    entry = min(record["moves"], key=lambda move: len(json.dumps(move)))   # (within the body limit)
    long = {**record, "moves": [{**entry, "events": []}] * (MAX_MATCH_MOVES + 1)}
    rec.send("POST", verify, body=long, example="RecordTooLong")
    _body_problems(rec, "post", verify)


def _signed(rec: Recorder) -> None:
    """On a server with REFEREE_STATE_KEYS: every stateless operation's examples (their states
    signed), each sent again with its state's signature, and with a signature of another state."""
    for game in ("scratch-and-catch", "call-of-katulhu", "catatac"):
        for operation in STATELESS:
            template = f"/v1/games/{game}/{operation}"
            for body in _request_examples("post", template):
                rec.send("POST", template, body=body)
            if operation == "setup":
                continue
            setup = _request_examples("post", f"/v1/games/{game}/setup")[0]
            signed = rec.json("POST", f"/v1/games/{game}/setup", body=setup)[1]
            body = _request_examples("post", template)[0]
            if body["state"] == signed["state"]:
                rec.send("POST", template, body={**body, "state_signature": signed["state_signature"]})
            other = {**body, "state": _impossible(game, body["state"]), "state_signature": signed["state_signature"]}
            rec.send("POST", template, body=other, example="UnsignedState")


def _store_down(rec: Recorder, match: dict, redis_server: RedisServer) -> None:
    """Every match operation, and readiness, while the store does not answer."""
    redis_server.stop()
    base = f"/v1/matches/{match['id']}"
    rec.send("GET", "/readyz")
    rec.send("POST", "/v1/matches", body={"game": GAME, "players": 2}, example="StoreUnavailable")
    for template, path in (("/v1/matches/{match_id}", base), ("/v1/matches/{match_id}/log", f"{base}/log"),
                           ("/v1/matches/{match_id}/events", f"{base}/events"),
                           ("/v1/matches/{match_id}/record", f"{base}/record"),
                           ("/v1/matches/{match_id}/legal-moves", f"{base}/legal-moves?seat=0")):
        rec.send("GET", template, path, example="StoreUnavailable")
    rec.send("POST", "/v1/matches/{match_id}/moves", f"{base}/moves", body={"move": {"type": "play", "player": 0}},
             headers={"If-Match": '"9"'}, example="StoreUnavailable")


def _limits(rec: Recorder) -> None:
    """408 on every operation taking a body (at once, each waits out the deadline), and the
    503 of too many waiting requests (one allowed)."""
    templates = [(method, template) for method, template in CONTRACT.operations()
                 if "requestBody" in CONTRACT.document["paths"][template][method]]
    match = json.loads(rec.send("POST", "/v1/matches", body={"game": GAME, "players": 2}).body)

    def slow(operation):
        method, template = operation
        path = template.replace("{match_id}", match["id"])
        head = (f"{method.upper()} {path} HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
                f"If-Match: \"0\"\r\nContent-Length: 100\r\n\r\n{{").encode()
        exchange = rec.raw(method, template, head, example="BodyTooSlow")
        exchange.path = path

    with ThreadPoolExecutor(len(templates)) as pool:
        list(pool.map(slow, templates))
    base = f"/v1/matches/{match['id']}"
    connection = http.client.HTTPConnection("127.0.0.1", rec.port, timeout=20)
    connection.request("GET", f"{base}/events")
    held = connection.getresponse()   # this stream holds the one waiting slot
    try:
        assert held.status == 200
        rec.send("GET", "/v1/matches/{match_id}/events", f"{base}/events", example="TooManyWaiting")
        rec.send("GET", "/v1/matches/{match_id}", base, headers={"If-None-Match": '"0"', "Prefer": "wait=5"},
                 example="TooManyWaiting")
    finally:
        connection.close()


def _unnamed_methods(rec: Recorder, match: dict) -> list[Exchange]:
    answers = []
    for path, item in CONTRACT.document["paths"].items():
        method = "DELETE" if "delete" not in item else "PATCH"
        answers.append(rec.send(method, path, path.replace("{match_id}", match["id"]), note="method not named"))
    return answers


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    directory = tmp_path_factory.mktemp("contract-run")
    redis_server = RedisServer(directory / "redis").start()
    common = {"WEB_CONCURRENCY": "1", "REFEREE_CORS_ORIGINS": "", "PROMETHEUS_MULTIPROC_DIR": "",
              "GUNICORN_ACCESS_LOG": "", "HOME": str(directory)}
    main = Gunicorn({**common, "REDIS_URL": redis_server.url}, directory / "main.log")
    limits = Gunicorn({**common, "REDIS_URL": "", "REFEREE_MAX_WAITING": "1",
                       "REFEREE_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT)}, directory / "limits.log")
    keyed = Gunicorn({**common, "REDIS_URL": "", "REFEREE_STATE_KEYS": "a key of the contract run"},
                     directory / "keyed.log")
    servers = [main, limits, keyed]
    try:
        with ThreadPoolExecutor(len(servers)) as pool:
            list(pool.map(Gunicorn.start, servers))
        exchanges: list[Exchange] = []
        rec = Recorder(main.port, exchanges)
        _stateless(rec)
        match = _matches(rec, redis_server)
        unnamed = _unnamed_methods(Recorder(main.port, []), match)
        _store_down(rec, match, redis_server)
        _limits(Recorder(limits.port, exchanges))
        _signed(Recorder(keyed.port, exchanges))
        yield {"exchanges": exchanges, "unnamed": unnamed}
    finally:
        for server in servers:
            server.stop()
        redis_server.stop()


# -- the comparisons --------------------------------------------------------------------------

def test_every_operation_answers_every_status_it_declares_and_no_other(run):
    answered = defaultdict(set)
    for exchange in run["exchanges"]:
        answered[exchange.method, exchange.template].add(str(exchange.status))
    differ = {}
    for method, template in CONTRACT.operations():
        declared = set(CONTRACT.responses(method, template))
        if answered[method, template] != declared:
            differ[f"{method.upper()} {template}"] = {"undeclared": sorted(answered[method, template] - declared),
                                                     "never answered": sorted(declared - answered[method, template])}
    assert differ == {}


def header_faults(exchanges: list[Exchange]) -> list[str]:
    """What the answers' headers and the declarations say differently (see the module's docstring)."""
    faults = []
    seen = defaultdict(set)
    for exchange in exchanges:
        response = CONTRACT.responses(exchange.method, exchange.template).get(str(exchange.status))
        if response is None:
            continue   # (an undeclared status: reported by the test of statuses)
        declared = CONTRACT.headers(response)
        sent = exchange.names - TRANSPORT_HEADERS - {"content-type"}
        seen[exchange.method, exchange.template, str(exchange.status)] |= sent
        if sent - set(declared):
            faults.append(f"{exchange}: sends undeclared {sorted(sent - set(declared))}")
        missing = {name for name, required in declared.items() if required} - sent
        if missing:
            faults.append(f"{exchange}: lacks required {sorted(missing)}")
        media = response.get("content", {})
        if (exchange.media_type is None) != (not media) or exchange.media_type not in (*media, None):
            faults.append(f"{exchange}: Content-Type {exchange.media_type}, declared {sorted(media)}")
    for (method, template, status), sent in seen.items():
        declared = CONTRACT.headers(CONTRACT.responses(method, template)[status])
        never = {name for name, required in declared.items() if not required} - sent
        if never:
            faults.append(f"{method.upper()} {template} {status}: optional {sorted(never)} never sent in the run")
    return faults


def test_every_header_sent_is_declared_and_every_declared_header_is_sent(run):
    assert header_faults(run["exchanges"]) == []


def body_faults(exchanges: list[Exchange]) -> list[str]:
    """JSON bodies that do not fit their schema, or hold fields it does not declare."""
    faults = []
    for exchange in exchanges:
        response = CONTRACT.responses(exchange.method, exchange.template).get(str(exchange.status))
        if response is None or exchange.media_type not in JSON_TYPES:
            continue
        schema = response["content"][exchange.media_type]["schema"]
        value = json.loads(exchange.body)
        faults += [f"{exchange}: {error}" for error in CONTRACT.errors(schema, value)]
        faults += [f"{exchange}: undeclared field {pointer}" for pointer in sorted(CONTRACT.undeclared(value, schema))]
    return faults


def test_every_json_body_fits_its_schema_and_every_field_is_declared(run):
    assert body_faults(run["exchanges"]) == []
    assert sum(exchange.media_type in JSON_TYPES for exchange in run["exchanges"]) > 150


def _problem_examples() -> dict[tuple[str, str, str], list[str]]:
    """(method, template, status) -> the names of its problem examples."""
    found = {}
    for method, template in CONTRACT.operations():
        for status, response in CONTRACT.responses(method, template).items():
            media = response.get("content", {}).get("application/problem+json", {})
            names = [ref["$ref"].rsplit("/", 1)[1] for ref in media.get("examples", {}).values()]
            if media:
                found[method, template, status] = names
    return found


def query_faults(exchanges: list[Exchange]) -> list[str]:
    """Query parameters sent in a successful request that its operation does not declare, and
    declared ones no successful request of the run sent."""
    faults, sent = [], defaultdict(set)
    for exchange in exchanges:
        operation = CONTRACT.document["paths"].get(exchange.template, {}).get(exchange.method)
        if operation is None or not 200 <= exchange.status < 300:
            continue
        declared = {parameter["name"] for parameter in map(CONTRACT.resolve, operation.get("parameters", ()))
                    if parameter["in"] == "query"}
        names = {name for name, _ in parse_qsl(urlsplit(exchange.path).query, keep_blank_values=True)}
        sent[exchange.method, exchange.template] |= names
        if names - declared:
            faults.append(f"{exchange}: sends undeclared query parameters {sorted(names - declared)}")
    for method, template in CONTRACT.operations():
        operation = CONTRACT.document["paths"][template][method]
        for parameter in map(CONTRACT.resolve, operation.get("parameters", ())):
            if parameter["in"] == "query" and parameter["name"] not in sent[method, template]:
                faults.append(f"{method.upper()} {template}: query parameter {parameter['name']} never sent")
    return faults


def test_every_query_parameter_sent_is_declared_and_every_declared_one_is_sent(run):
    assert query_faults(run["exchanges"]) == []


def test_the_seats_legal_moves_come_when_asked_for_and_only_then(run):
    """``legal_moves`` (declared, not required) is in every successful answer of a request
    with ``include=legal_moves`` and in no other; the stream's ``legal_moves`` event has no
    ``id`` and the data the contract describes."""
    asked = defaultdict(list)
    for exchange in run["exchanges"]:
        if exchange.status == 200 and exchange.method in ("get", "post") and exchange.template in (
                "/v1/matches/{match_id}", "/v1/matches/{match_id}/moves") and exchange.body:
            carries = "legal_moves" in json.loads(exchange.body)
            asked[exchange.template, "include=legal_moves" in exchange.path].append(carries)
    for template in ("/v1/matches/{match_id}", "/v1/matches/{match_id}/moves"):
        assert asked[template, True] and all(asked[template, True]), template
        assert asked[template, False] and not any(asked[template, False]), template
    streams = [exchange for exchange in run["exchanges"] if exchange.note == "with legal moves"]
    assert len(streams) == 1 and streams[0].status == 200
    event = streams[0].body.decode().split("\n\n")[-2]
    lines = event.split("\n")
    assert lines[0] == "event: legal_moves" and len(lines) == 2   # (no id line)
    data = json.loads(lines[1].removeprefix("data: "))
    assert data["version"] == 0 and data["moves"] and set(data) == {"version", "moves"}
    schema = {"type": "array", "items": CONTRACT.document["components"]["schemas"]["Match"]["properties"][
        "legal_moves"]["items"]}
    assert CONTRACT.errors(schema, data["moves"]) == []


def test_every_problem_answer_has_a_real_example():
    """No problem answer is left to Swagger UI's "string" placeholders."""
    assert all(_problem_examples().values())
    default = CONTRACT.resolve({"$ref": "#/components/responses/DEFAULT_ERROR"})
    assert default["content"]["application/problem+json"]["examples"]


def _with_run_settings(name: str, value: dict) -> dict:
    """The example ``name`` (``value``, with the default settings) as the run's settings make it."""
    if name == "BodyTooSlow":
        return json.loads(problems.body_too_slow(BODY_TIMEOUT).get_data())
    if name == "TooManyWaiting":
        slots = WaitingSlots(1)
        slots.acquire()
        with pytest.raises(problems.ProblemError) as refused:
            slots.acquire()
        return json.loads(problems.from_problem_error(refused.value).get_data())
    return value


def test_every_problem_example_is_the_answer_to_its_request(run):
    examples = CONTRACT.document["components"]["examples"]
    faults = []
    for (method, template, status), names in _problem_examples().items():
        for name in names:
            value = examples[name]["value"]
            asked = [exchange for exchange in run["exchanges"] if exchange.example == name
                     and (exchange.method, exchange.template, str(exchange.status)) == (method, template, status)]
            if not asked:
                faults.append(f"{method.upper()} {template} {status}: example {name} was not asked")
            expected = _with_run_settings(name, value)
            for exchange in asked:
                # the run's match in place of the examples' (its id is drawn at random)
                match_id = exchange.path.split("/")[3] if exchange.path.startswith("/v1/matches/") else MATCH_ID
                got = json.loads(exchange.body.decode().replace(match_id, MATCH_ID))
                if got != expected:
                    faults.append(f"{exchange}: example {name} in referee/api/contract/problem_examples.py is "
                                  f"{json.dumps(expected)}; the service answers {json.dumps(got)}")
    assert faults == []


def test_every_problem_type_of_the_examples_is_described_at_its_url(tmp_path):
    from referee.app import create_app

    client = create_app({"TESTING": True}).test_client()
    for name in problem_examples.NAMES:
        kind = problem_examples.example(name)["value"]["type"]
        answer = client.get(kind)
        assert answer.status_code == 200 and answer.get_json()["type"] == kind, name


def test_a_method_the_contract_does_not_name_is_405_and_allow_names_the_contracts(run):
    for exchange in run["unnamed"]:
        assert exchange.status == 405, str(exchange)
        allowed = {method.strip().lower() for method in exchange.header("Allow").split(",")}
        named = {method for method in CONTRACT.document["paths"][exchange.template] if method != "parameters"}
        assert allowed - {"head", "options"} == named, str(exchange)
        assert exchange.media_type == "application/problem+json"


# -- the comparisons can fail -----------------------------------------------------------------

def _answer(status: int, headers: list[tuple[str, str]], body: dict | None = None,
            media: str = "application/json") -> Exchange:
    text = b"" if body is None else json.dumps(body).encode()
    return Exchange("get", "/healthz", "/healthz", status, [("Content-Type", media), *headers], text)


def test_an_undeclared_header_and_a_missing_required_one_are_reported():
    faults = header_faults([_answer(200, [("X-Request-ID", "a"), ("X-Powered-By", "flask")], {"status": "ok"}),
                            _answer(200, [], {"status": "ok"})])
    assert any("undeclared ['x-powered-by']" in fault for fault in faults)
    assert any("lacks required ['x-request-id']" in fault for fault in faults)


def test_an_optional_header_never_sent_is_reported():
    response = CONTRACT.responses("get", "/v1/matches/{match_id}")["304"]
    assert CONTRACT.headers(response)["preference-applied"] is False
    exchange = Exchange("get", "/v1/matches/{match_id}", "/v1/matches/x", 304,
                        [("X-Request-ID", "a"), ("ETag", '"0"'), ("Cache-Control", "private, no-cache"),
                         ("Vary", "Authorization")], b"")
    assert header_faults([exchange]) == ["GET /v1/matches/{match_id} 304: optional ['preference-applied'] never "
                                         "sent in the run"]


def test_an_undeclared_field_is_reported_deep_in_a_body():
    healthy = _answer(200, [("X-Request-ID", "a")], {"status": "ok", "uptime": 3})
    assert "GET /healthz -> 200: undeclared field /uptime" in body_faults([healthy])
    schema = {"$ref": "#/components/schemas/MatchLog"}
    log = {"id": "x", "game": GAME, "version": 1, "seat": None,
           "entries": [{"version": 1, "player": 0, "move": {"any": 1}, "events": [{"type": "t", "card": "C1"}],
                        "at": "t", "redacted": False, "secret": "s"}]}
    assert CONTRACT.undeclared(log, schema) == {"/entries/0/secret"}   # (move and events say they hold more)
    verdict = {"id": "x", "version": 1, "legal": False, "violations": [], "state": None, "events": [],
               "scores": {"players": [{"player": 0, "cards": 1, "fleas": 2, "bonus": 1}]},
               "outcome": {"finished": False, "winners": [], "tiebreak": None}}
    assert CONTRACT.errors({"$ref": "#/components/schemas/MatchVerdict"}, verdict) != []
