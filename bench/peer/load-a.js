// Load generator for server A (boardgame.io), speaking its socket.io protocol directly
// (node_modules/boardgame.io/dist/cjs/socketio-*.js, master-*.js, server.js):
//   client -> server  'sync'   (matchID, playerID, credentials, numPlayers)
//   client -> server  'update' (action, stateID, matchID, playerID), credentials in action.payload
//   server -> client  'sync' (matchID, syncInfo) | 'update' (matchID, state, deltalog) | 'matchData'
// Matches come from the Lobby REST API: POST /games/cards/create, then /games/cards/<id>/join
// per seat (credentials). `--matches` slots play in parallel, one websocket per seat (forceNew:
// no multiplexing), the seat to move sending its move when the state update naming it arrives;
// a finished match is replaced by a new one on the same two sockets (a new 'sync').
// A move counts as accepted when its state update reaches seat 0 (one per processed action).
// Usage: node load-a.js --port 18950 --matches 32 --warmup 3 --seconds 15 --pids <server pid> [--out f]
'use strict';
const { io } = require('socket.io-client');
const { Pool } = require('undici');
const { args, timed } = require('./common');

const opts = args({ port: 18950, matches: 32, warmup: 3, seconds: 15, pids: '', out: '', show: '' });
const origin = `http://127.0.0.1:${opts.port}`;
const http = new Pool(origin, { connections: 8, keepAliveTimeout: 30e3 });

// requests: Lobby REST requests + socket messages to the server ('sync', 'update');
// received: state messages from the server ('sync', 'update').
const counters = { moves: 0, sent: 0, games: 0, requests: 0, rest: 0, received: 0 };
let running = true;
let shown = 0;

async function post(path, body) {
  counters.requests++;
  counters.rest++;
  const r = await http.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${text}`);
  return JSON.parse(text);
}

function connect() {
  return new Promise((resolve, reject) => {
    const s = io(`${origin}/cards`, { transports: ['websocket'], forceNew: true, reconnection: false });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

class Slot {
  constructor(sockets) {
    this.seats = sockets.map((socket, i) => ({ id: String(i), socket, cred: null, lastSent: -1, synced: false }));
    this.matchID = null;
    this.lastUpdate = Date.now();
    for (const seat of this.seats) {
      seat.socket.on('sync', (matchID, info) => this.onSync(seat, matchID, info.state));
      seat.socket.on('update', (matchID, state) => this.onState(seat, matchID, state, true));
    }
  }

  async newMatch() {
    if (!running) return;
    const { matchID } = await post('/games/cards/create', { numPlayers: 2 });
    for (const seat of this.seats) {
      const j = await post(`/games/cards/${matchID}/join`, { playerID: seat.id, playerName: `p${seat.id}` });
      Object.assign(seat, { cred: j.playerCredentials, lastSent: -1, synced: false, state: null });
    }
    this.matchID = matchID;
    for (const seat of this.seats) { counters.requests++; seat.socket.emit('sync', matchID, seat.id, seat.cred, 2); }
  }

  onSync(seat, matchID, state) {
    if (matchID !== this.matchID) return;
    counters.received++;
    if (opts.show && seat.id === '1' && !shown++) console.error('seat 1 sync view:', JSON.stringify(state.G));
    seat.synced = true;
    seat.state = state;
    // Start only when both seats follow the match (no update can be missed).
    if (this.seats.every((s) => s.synced)) for (const s of this.seats) this.maybeMove(s, s.state);
  }

  onState(seat, matchID, state) {
    if (matchID !== this.matchID) return;
    counters.received++;
    this.lastUpdate = Date.now();
    if (seat.id === '0') counters.moves++;
    seat.state = state;
    if (state.ctx.gameover !== undefined) {
      if (seat.id === '0') {
        counters.games++;
        this.matchID = null;
        this.newMatch().catch((e) => { if (running) console.error('newMatch', e.message); });
      }
      return;
    }
    if (this.seats.every((s) => s.synced)) this.maybeMove(seat, state);
  }

  maybeMove(seat, state) {
    if (!running || state.ctx.gameover !== undefined) return;
    if (state.ctx.currentPlayer !== seat.id || state._stateID <= seat.lastSent) return;
    seat.lastSent = state._stateID;
    const card = state.G.players[seat.id].hand[0];
    const action = { type: 'MAKE_MOVE', payload: { type: 'play', args: [card], playerID: seat.id, credentials: seat.cred } };
    counters.sent++;
    counters.requests++;
    seat.socket.emit('update', action, state._stateID, this.matchID, seat.id);
  }
}

const slots = [];
timed(opts, 'boardgame.io', async () => {
  for (let i = 0; i < opts.matches; i++) slots.push(new Slot(await Promise.all([connect(), connect()])));
  await Promise.all(slots.map((s) => s.newMatch()));
  return () => ({ ...counters });
}, async () => {
  running = false;
  const now = Date.now();
  const stalled = slots.filter((s) => now - s.lastUpdate > 2000).length;
  if (stalled) console.error(`stalled slots: ${stalled}`);
  for (const s of slots) for (const seat of s.seats) seat.socket.close();
  await http.close();
}).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
