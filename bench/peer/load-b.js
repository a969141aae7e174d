// Load generator for Referee (HTTP), the same shape as load-a.js: `--matches` slots in parallel,
// each playing one two-seat Scratch & Catch match after another, a seat sending its next move
// only after the answer or event that tells it what it may play.
//   --mode documented: per move GET /v1/matches/{id}/legal-moves?seat=N, then
//       POST /v1/matches/{id}/moves with moves[0] and If-Match: "<version>" (2 requests a move);
//       the seat to move is state.turn.player of the last answer.
//   --mode live: each seat follows GET /v1/matches/{id}/events?seat=N&include=legal_moves (its
//       secret in Authorization) and posts POST /v1/matches/{id}/moves?include=legal_moves with
//       If-Match (1 request a move). A seat acts on the first non-empty list of legal moves it
//       gets for a version newer than the one it last acted on, from its POST answer
//       (`legal_moves`, at the answer's `version`) or its stream (`event: legal_moves`, data
//       {"version": V, "moves": [...]}), and ignores the others. A match ends with the
//       stream's `end` event (or a finished state in an answer).
// Only POST /moves answered 200 with legal: true counts as a move; `requests` counts every
// request (a stream is one request per seat and match).
// Usage: node load-b.js --port 18960 --matches 32 --warmup 3 --seconds 15 --pids <gunicorn pids>
//        [--extra-pids <redis pid>] [--mode documented|live] [--label L] [--out f]
'use strict';
const { Pool } = require('undici');
const { args, timed } = require('./common');

const opts = args({ port: 18960, matches: 32, warmup: 3, seconds: 15, pids: '', 'extra-pids': '', mode: 'documented', out: '', label: '' });
const origin = `http://127.0.0.1:${opts.port}`;
// One connection per seat for requests; in live mode one more per seat for its stream.
const http = new Pool(origin, { connections: 2 * opts.matches, keepAliveTimeout: 4e3 });
const streams = new Pool(origin, { connections: 2 * opts.matches, keepAliveTimeout: 4e3, bodyTimeout: 0 });

const counters = { moves: 0, games: 0, requests: 0, posts: 0, gets: 0, creates: 0, streams: 0, events: 0, errors: 0, illegal: 0, stale: 0, stalled: 0 };
let running = true;
let reported = 0;

function complain(text) {
  if (reported++ < 5) console.error(text);
}

async function call(method, path, secret, body, ifMatch) {
  counters.requests++;
  const headers = {};
  if (secret) headers.authorization = `Bearer ${secret}`;
  if (body) headers['content-type'] = 'application/json';
  if (ifMatch !== undefined) headers['if-match'] = `"${ifMatch}"`;
  const r = await http.request({ method, path, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await r.body.text();
  if (r.statusCode >= 300) {
    counters.errors++;
    complain(`${method} ${path}: ${r.statusCode} ${text.slice(0, 300)}`);
    throw new Error(`status ${r.statusCode}`);
  }
  return JSON.parse(text);
}

async function createMatch() {
  counters.creates++;
  return call('POST', '/v1/matches', null, { game: 'scratch-and-catch', players: 2 });
}

// -- documented flow: legal-moves, then the move ------------------------------------------------

async function playDocumented() {
  const m = await createMatch();
  const secrets = m.seats.map((s) => s.secret);
  let seat = m.state.turn.player;
  let finished = m.state.finished;
  while (!finished && running) {
    counters.gets++;
    const lm = await call('GET', `/v1/matches/${m.id}/legal-moves?seat=${seat}`, secrets[seat]);
    counters.posts++;
    const v = await call('POST', `/v1/matches/${m.id}/moves`, secrets[seat], { move: lm.moves[0] }, lm.version);
    if (!v.legal) {
      counters.illegal++;
      complain(`illegal ${JSON.stringify(lm.moves[0])} ${JSON.stringify(v.violations)}`);
      continue;
    }
    counters.moves++;
    seat = v.state.turn.player;
    finished = v.state.finished || v.outcome.finished;
  }
  if (finished) counters.games++;
}

// -- live flow: each seat's stream and one request per move -------------------------------------

// Server-sent events of one response body, as {event, data} (data joined, comments skipped).
async function* sseEvents(body) {
  let buffer = '';
  for await (const chunk of body) {
    buffer += chunk.toString('utf8');
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer[end] === '\r' ? 4 : 2));
      let event = 'message';
      const data = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length || event !== 'message') yield { event, data: data.join('\n') };
    }
  }
}

function playLive() {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(stalled);
      for (const s of seats) if (s.body) s.body.destroy();
      if (error) reject(error); else resolve();
    };
    const seats = [];
    let id = null;
    // A match with no move for 10 s (a lost event would be a bug of the server) is given up.
    let moved = false;
    let stalled = null;
    const arm = () => {
      clearTimeout(stalled);
      stalled = setTimeout(() => {
        counters.stalled++;
        if (!moved) complain(`no legal moves came in 10 s for match ${id} (does the server take include=legal_moves?)`);
        finish(new Error('stalled'));
      }, 10e3);
    };
    arm();

    // Act on `moves` at `version` if they are the first non-empty moves newer than the last act.
    const offer = (seat, version, moves) => {
      if (done || !running) return finish();
      if (!moves || !moves.length || version <= seat.acted) { if (moves && moves.length) counters.stale++; return; }
      seat.acted = version;
      counters.posts++;
      call('POST', `/v1/matches/${id}/moves?include=legal_moves`, seat.secret, { move: moves[0] }, version)
        .then((v) => {
          if (!v.legal) {
            counters.illegal++;
            complain(`illegal ${JSON.stringify(moves[0])} ${JSON.stringify(v.violations)}`);
            return;
          }
          counters.moves++;
          if (done) return;   // the match ended on a stream's `end` while this answer was on its way
          moved = true;
          arm();
          if (v.state.finished || v.outcome.finished) { counters.games++; return finish(); }
          offer(seat, v.version, v.legal_moves);
        }, finish);
    };

    const follow = async (seat) => {
      counters.requests++;
      counters.streams++;
      const r = await streams.request({
        method: 'GET', path: `/v1/matches/${id}/events?seat=${seat.n}&include=legal_moves`,
        headers: { authorization: `Bearer ${seat.secret}`, accept: 'text/event-stream' },
      });
      seat.body = r.body;
      if (r.statusCode !== 200) {
        counters.errors++;
        const text = await r.body.text();
        complain(`GET events: ${r.statusCode} ${text.slice(0, 300)}`);
        throw new Error(`status ${r.statusCode}`);
      }
      for await (const e of sseEvents(r.body)) {
        counters.events++;
        if (e.event === 'legal_moves') {
          const d = JSON.parse(e.data);
          offer(seat, d.version, d.moves);
        } else if (e.event === 'end') {
          if (!done) counters.games++;
          return finish();
        } else if (e.event === 'gone' || e.event === 'unavailable') {
          complain(`stream: ${e.event}`);
          return finish(new Error(`stream: ${e.event}`));
        }
        if (done) return;
      }
    };

    createMatch().then((m) => {
      id = m.id;
      m.seats.forEach((s, n) => seats.push({ n, secret: s.secret, acted: -1, body: null }));
      for (const seat of seats) follow(seat).catch((e) => { if (!done) finish(e); });
    }, finish);
  });
}

async function slot() {
  const play = opts.mode === 'live' ? playLive : playDocumented;
  while (running) {
    try {
      await play();
    } catch (e) {
      if (running) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

let loops = [];
timed(opts, opts.label || `B referee (${opts.mode})`, async () => {
  loops = Array.from({ length: opts.matches }, () => slot());
  return () => ({ ...counters });
}, async () => {
  running = false;
  await Promise.race([Promise.allSettled(loops), new Promise((r) => setTimeout(r, 3000))]);
  await Promise.allSettled([http.destroy(), streams.destroy()]);
}).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
