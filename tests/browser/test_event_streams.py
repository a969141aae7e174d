"""Event streams in headless Chromium, as browser apps read them.

- A plain ``EventSource`` on a finished match, from the service's own origin and from another:
  it gets ``end`` once, reconnects once (the stream sends ``retry: 1000``), is answered 204 and
  stops (HTML standard, "Server-sent events": a 204 fails the connection, without reconnecting).
- A stream polyfill's request from another origin: ``fetch`` with the seat's secret in
  ``Authorization`` and the request headers the polyfills send, which the CORS preflight must
  allow before the stream opens.
- The table page joining a finished match stops at the 204 too.

The service runs in a real HTTP server on a free port, behind a recorder of the requests it
receives; the app's pages come from a second server on another port (another origin).
"""

from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

from referee.app import create_app
from referee.games import GAMES
from referee.store.memory import MemoryStore
from tests.browser.test_table_page import Watch, join
from tests.support.matches_support import play_first_moves
from tests.support.serving import serving

GAME = GAMES["scratch-and-catch"]
TIMEOUT_MS = 10_000
RETRY_MS = 1000           # the stream's ``retry:`` (referee/api/ops/live.py)
WATCH_SECONDS = 3.2       # three reconnection times and a little more


class Recorder:
    """WSGI middleware: each request to an event stream (method, Last-Event-ID, the
    preflight's Access-Control-Request-Headers, Cache-Control, status), in arrival order."""

    def __init__(self, app):
        self.app = app
        self.streams: list[dict] = []
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        if not environ.get("PATH_INFO", "").endswith("/events"):
            return self.app(environ, start_response)
        seen = {"method": environ["REQUEST_METHOD"], "last_event_id": environ.get("HTTP_LAST_EVENT_ID"),
                "asked": environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS"),
                "cache_control": environ.get("HTTP_CACHE_CONTROL"), "status": None}
        with self._lock:
            self.streams.append(seen)

        def recording(status, headers, exc_info=None):
            seen["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        return self.app(environ, recording)

    def since(self, count: int) -> list[dict]:
        with self._lock:
            return self.streams[count:]


class _Page(http.server.BaseHTTPRequestHandler):
    """The app's origin: one empty HTML page at every path."""

    def do_GET(self):
        body = b"<!doctype html><html lang='en'><title>app</title><p>app</p></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def app_origin():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def service(app_origin):
    """(service URL, recorder, test client, store): the service, with CORS for ``app_origin``."""
    store = MemoryStore(ttl=3600)
    app = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_CORS_ORIGINS": app_origin})
    recorder = Recorder(app)
    with serving(recorder) as port:
        yield f"http://127.0.0.1:{port}", recorder, app.test_client(), store


def _create(client, seed: str) -> tuple[dict, list[str]]:
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": seed}).get_json()
    return match, [seat["secret"] for seat in match["seats"]]


# A plain EventSource: what it dispatched, and its state after ``seconds``.
EVENT_SOURCE = """async ([url, seconds]) => {
  const source = new EventSource(url);
  const seen = {ends: [], errors: []};
  source.addEventListener('end', (event) => seen.ends.push({id: event.lastEventId, data: JSON.parse(event.data)}));
  source.addEventListener('error', () => seen.errors.push(source.readyState));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  seen.readyState = source.readyState;
  source.close();
  return seen;
}"""


@pytest.mark.parametrize("where", ["same-origin", "cross-origin"])
def test_an_event_source_on_a_finished_match_gets_end_once_and_stops(service, app_origin, browser, where):
    base, recorder, client, store = service
    match, secrets = _create(client, f"event-source-{where}")
    final = play_first_moves(client, store, match, secrets)
    outcome = client.get(f"/v1/matches/{match['id']}").get_json()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{base}/healthz" if where == "same-origin" else f"{app_origin}/spectator")
        before = len(recorder.streams)
        seen = page.evaluate(EVENT_SOURCE, [f"{base}/v1/matches/{match['id']}/events", WATCH_SECONDS])
        time.sleep(0.2)   # (a request sent at the last moment would still be recorded)
        streams = recorder.since(before)
    finally:
        context.close()
    # One request without Last-Event-ID gets end; the reconnection, with the end's id, gets 204.
    assert [(s["method"], s["last_event_id"], s["status"]) for s in streams] == \
        [("GET", None, 200), ("GET", str(final), 204)]
    assert seen["ends"] == [{"id": str(final), "data": {"outcome": outcome["outcome"], "scores": outcome["scores"]}}]
    # EventSource.readyState: CONNECTING (0) after the stream closed, CLOSED (2) after the 204.
    assert seen["errors"] == [0, 2] and seen["readyState"] == 2


# A stream polyfill's request, inline: fetch with the headers react-native-sse sends (Accept,
# Cache-Control: no-cache, X-Requested-With, Last-Event-ID; npm eventsource 1 and 2 and
# LaunchDarkly's js-eventsource send the same but X-Requested-With) and the seat's secret in
# Authorization; the body read as a text/event-stream. Events land in window.received.
POLYFILL = """([url, secret, lastEventId]) => {
  window.received = [];
  window.failure = null;
  (async () => {
    const response = await fetch(url, {headers: {
      'Accept': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Requested-With': 'XMLHttpRequest',
      'Last-Event-ID': lastEventId, 'Authorization': `Bearer ${secret}`}});
    window.answered = [response.status, response.headers.get('content-type')];
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\\n\\n')) >= 0) {
        const event = {};
        for (const line of buffer.slice(0, end).split('\\n')) {
          const [field, ...rest] = line.split(': ');
          if (field === 'id' || field === 'event' || field === 'data') event[field] = rest.join(': ');
        }
        buffer = buffer.slice(end + 2);
        if (event.data !== undefined) window.received.push(event);
      }
    }
  })().catch((error) => { window.failure = String(error); });
}"""


def test_a_stream_polyfill_with_a_seat_secret_reads_the_stream_from_another_origin(service, app_origin, browser):
    base, recorder, client, store = service
    match, secrets = _create(client, "polyfill")
    play_first_moves(client, store, match, secrets, 2)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        watch = Watch(page, app_origin)
        page.goto(f"{app_origin}/table-app")
        before = len(recorder.streams)
        url = f"{base}/v1/matches/{match['id']}/events?seat=0"
        page.evaluate(POLYFILL, [url, secrets[0], "0"])
        page.wait_for_function("window.failure !== null || window.received.length >= 2")
        assert page.evaluate("window.failure") is None, "the stream did not open (CORS preflight refused?)"
        play_first_moves(client, store, match, secrets, 1)   # a move while the page listens
        page.wait_for_function("window.failure !== null || window.received.length >= 3")
        received = page.evaluate("window.received")
        assert page.evaluate("window.answered") == [200, "text/event-stream; charset=utf-8"]
        streams = recorder.since(before)
    finally:
        context.close()
    log = client.get(f"/v1/matches/{match['id']}/log?seat=0",
                     headers={"Authorization": f"Bearer {secrets[0]}"}).get_json()["entries"]
    assert [(e["id"], e["event"], json.loads(e["data"])) for e in received] == \
        [(str(entry["version"]), "move", entry) for entry in log]
    # The browser asked first (a preflight naming the polyfill's headers), then sent them.
    preflight, stream = streams[0], streams[1]
    assert preflight["method"] == "OPTIONS" and preflight["status"] == 200
    assert set(preflight["asked"].lower().split(",")) == \
        {"authorization", "cache-control", "last-event-id", "x-requested-with"}
    assert (stream["method"], stream["last_event_id"], stream["cache_control"]) == ("GET", "0", "no-cache")
    # The secret travelled in Authorization only, never in a URL.
    assert not [u for u in watch.urls if secrets[0] in u]


def test_the_table_page_joining_a_finished_match_stops_at_the_204(service, browser):
    base, recorder, client, store = service
    match, secrets = _create(client, "table-finished")
    final = play_first_moves(client, store, match, secrets)
    context = browser.new_context(locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        watch = Watch(page, base)
        page.goto(f"{base}/table")
        page.wait_for_selector("#create-game option[value='scratch-and-catch']", state="attached")
        before = len(recorder.streams)
        join(page, match["id"], secrets[1], seat=1)
        page.wait_for_selector("#connection[data-state='ended']")
        page.wait_for_selector("#outcome:not([hidden])")
        time.sleep(2.5 * RETRY_MS / 1000)   # long enough for two reconnections
        assert page.get_attribute("#connection", "data-state") == "ended"
        streams = recorder.since(before)
        assert watch.errors == []
    finally:
        context.close()
    # The page joined at the final version (its log), so its one request is answered 204.
    assert [(s["method"], s["last_event_id"], s["status"]) for s in streams] == [("GET", str(final), 204)]
