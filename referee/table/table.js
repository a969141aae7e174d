// The table page: create a match and invite its players by QR code or link, or join one; show
// the table, the seat's hand and its moves in the players' words; post one request per move
// (If-Match, Idempotency-Key) and show the verdict beside it; follow the match live through its
// event stream. A client of the public API only (docs/guides/matches.md). A seat's secret comes from
// a link's fragment or the create answer and stays in this page and sessionStorage.
"use strict";

(function () {
  const STORE_KEY = "referee.table.current";
  const LANGUAGE_KEY = "referee.table.language";
  const RECONNECT_MS = 1000;
  const W = window.TableWords;
  const S = window.TableSentences;
  const J = window.TableJoin;
  const fromLink = J.takeFragment();   // first: the secret leaves the address bar at once

  const page = {
    language: "en",
    games: [],          // GET /v1/games
    info: {},           // language -> game id -> GET /v1/games/{game}
    current: null,      // {id, seat (null: spectator), secret}
    names: [],          // display names per seat (null: none given)
    match: null,        // the last match view (with its etag)
    moves: null,        // {version, moves, etag}: the seat's legal moves
    liveLegal: false,   // the stream sends legal_moves (include=legal_moves)
    log: [],            // the log entries shown, oldest first (``redacted``: values hidden from this reader)
    logReading: null,   // the generation whose /log is being read again
    logAgain: false,    // a move with events came while it was read
    lastEventId: 0,
    ended: false,
    generation: 0,      // bumped on join/leave: stale streams and answers are dropped
    stream: null,
    verdict: null,
    refreshing: null,
    refreshAgain: false,
  };

  const $ = (id) => document.getElementById(id);

  function t(key, params) {
    const table = W.TEXT[page.language] || W.TEXT.en;
    return W.fill(key in table ? table[key] : (W.TEXT.en[key] ?? key), params);
  }

  function s(key, params) {
    const table = W.SENTENCES[page.language] || W.SENTENCES.en;
    return W.fill(key in table ? table[key] : (W.SENTENCES.en[key] ?? key), params);
  }

  function has(key) { return key in W.TEXT.en; }

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function humanise(name) { return name.replace(/_/g, " "); }

  function gameTitle(id) {
    const game = page.games.find((g) => g.id === id);
    return game ? game.title : "";
  }

  // -- words of the match: seats, cards, sentences -----------------------------------------

  function gameInfo(game, language) { return (page.info[language || page.language] || {})[game] || null; }

  function seatName(seat) {
    const name = page.names[seat];
    return typeof name === "string" && name ? name : t("seat", { seat: seat + 1 });
  }

  function cardName(id, game) {
    const g = game || (page.match && page.match.game) || (createdMatch() || {}).game;
    const info = gameInfo(g) || gameInfo(g, "en");
    const named = info && info.cards && info.cards[id];
    if (named && named.name) return named.name;
    return W.fallbackCardName(page.language, g, id, info && info.catalogue);
  }

  function context() {
    return { t, s, seat: seatName, card: (id) => cardName(id), game: page.match && page.match.game };
  }

  // A referee message with card ids and "player N" put in players' words.
  function playersWords(text) {
    const unknown = t("unknown");
    let result = String(text || "").replace(/\b([A-Za-z][A-Za-z]*-\d+|[CSP]\d+(?:-\d+)?)\b/g, (token) => {
      const name = cardName(token);
      return name === unknown ? token : name;
    });
    result = result.replace(/\b[Pp]layer (\d+)/g, (_, n) => seatName(Number(n)));
    return result.replace(/プレイヤー(\d+)/g, (_, n) => seatName(Number(n)));
  }

  // -- HTTP ------------------------------------------------------------------------------

  function headers(extra, withSecret) {
    const result = { "Accept-Language": page.language, ...(extra || {}) };
    if (withSecret && page.current && page.current.secret) result.Authorization = "Bearer " + page.current.secret;
    return result;
  }

  async function api(path, options) {
    const response = await fetch(path, { cache: "no-store", ...options });
    let body = null;
    if ((response.headers.get("Content-Type") || "").includes("json")) body = await response.json();
    return { status: response.status, ok: response.ok, body, etag: response.headers.get("ETag") };
  }

  // The referee's words for a refusal, without the status code.
  function problemText(result) {
    const body = result.body || {};
    return playersWords(body.detail || body.title || "");
  }

  // An error shown next to what caused it, and scrolled into view.
  function showError(id, message) {
    const box = $(id);
    box.textContent = message || "";
    box.hidden = !message;
    if (message) box.scrollIntoView({ block: "center" });
  }

  function randomKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- language --------------------------------------------------------------------------

  async function loadInfo(game, language) {
    page.info[language] = page.info[language] || {};
    if (page.info[language][game]) return page.info[language][game];
    const result = await api(`/v1/games/${encodeURIComponent(game)}`, { headers: { "Accept-Language": language } })
      .catch(() => null);
    if (result && result.ok) page.info[language][game] = result.body;
    return page.info[language][game] || null;
  }

  function setLanguage(language) {
    page.language = W.TEXT[language] ? language : "en";
    try { localStorage.setItem(LANGUAGE_KEY, page.language); } catch (e) { /* private mode */ }
    document.documentElement.lang = page.language;
    document.title = t("title");
    for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const button of document.querySelectorAll(".lang")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === page.language));
    }
    renderCreateForm();
    renderCreated();
    const game = page.match ? page.match.game : selectedGameId();
    if (game) loadInfo(game, page.language).then(() => { renderCreated(); if (page.current) renderAll(); });
    if (page.current) renderAll();
  }

  // -- creating a match ------------------------------------------------------------------

  function selectedGameId() { return $("create-game").value; }

  function selectedGame() { return page.games.find((g) => g.id === selectedGameId()); }

  const create = window.TableCreate({
    page, $, t, el, has, humanise, api, headers, showError, gameInfo, problemText, selectedGame, selectedGameId,
    join: (current) => join(current),
  });
  const { renderCreateForm, renderNames, renderOptions, updateOwnCards, createMatch, createdMatch, renderCreated } = create;
  const { postMove, chooseMove, sendCustom, tableFields, isTableChance } = window.TableMoves({
    page, $, t, el, api, headers, showError, gameInfo, problemText, matchPath, randomKey, context, cardName,
    renderAll: () => renderAll(), refresh: () => refresh(),
  });

  async function loadGames() {
    const result = await api("/v1/games", { headers: headers() }).catch(() => null);
    if (!result || !result.ok) { showError("create-error", t("verdict.network")); return; }
    page.games = result.body.games;
    const select = $("create-game");
    select.replaceChildren(...page.games.map((g) => el("option", { value: g.id, text: g.title })));
    if (page.games.some((g) => g.id === "scratch-and-catch")) select.value = "scratch-and-catch";
    await Promise.all(page.games.map((g) => loadInfo(g.id, "en")));
    renderCreateForm();
  }

  function joinFromForm(event, spectator) {
    if (event) event.preventDefault();
    showError("join-error", "");
    const id = $("join-match").value.trim();
    const secret = $("join-secret").value.trim();
    const seat = Number($("join-seat").value) - 1;
    if (!id || (!spectator && (!secret || !Number.isInteger(seat) || seat < 0))) { showError("join-error", t("join.need")); return; }
    join(spectator ? { id, seat: null, secret: null } : { id, seat, secret });
  }

  // -- following a match -----------------------------------------------------------------

  function seatQuery(extra) {
    const parts = [];
    if (page.current.seat !== null) parts.push(`seat=${page.current.seat}`);
    if (extra) parts.push(extra);
    return parts.length ? "?" + parts.join("&") : "";
  }

  function matchPath(suffix) { return `/v1/matches/${encodeURIComponent(page.current.id)}${suffix || ""}`; }

  async function join(current) {
    leave(false);
    const generation = ++page.generation;
    page.current = current;
    Object.assign(page, { match: null, moves: null, log: [], verdict: null, ended: false, liveLegal: false });
    const created = createdMatch();
    page.names = created && created.id === current.id && Array.isArray(created.names) ? created.names.slice() : [];
    let log;
    try {
      log = await api(matchPath("/log") + seatQuery(), { headers: headers({}, true) });
    } catch (error) { page.current = null; showError("join-error", t("verdict.network")); return; }
    if (generation !== page.generation) return;
    if (!log.ok) { page.current = null; showError("join-error", t("join.failed")); return; }
    try { sessionStorage.setItem(STORE_KEY, JSON.stringify(current)); } catch (e) { /* private mode */ }
    page.log = log.body.entries.map((entry) => ({ ...entry, source: "log" }));
    takeNames(log.body.names);
    for (const entry of page.log) {
      if (typeof entry.player_name === "string" && entry.player_name) page.names[entry.player] = entry.player_name;
    }
    page.lastEventId = log.body.version;
    $("start").hidden = true;
    $("match").hidden = false;
    renderAll();
    await refresh();
    if (generation !== page.generation) return;
    if (page.match) await loadInfo(page.match.game, page.language);
    renderAll();
    $("match-heading").focus({ preventScroll: true });
    $("match-heading").scrollIntoView({ block: "start" });
    follow(generation);
  }

  function takeNames(names) {
    if (!Array.isArray(names)) return;
    names.forEach((name, seat) => { if (typeof name === "string" && name) page.names[seat] = name; });
  }

  function leave(showStart) {
    page.generation++;
    if (page.stream) page.stream.abort();
    page.stream = null;
    page.current = null;
    try { sessionStorage.removeItem(STORE_KEY); } catch (e) { /* private mode */ }
    if (showStart) {
      $("match").hidden = true;
      $("start").hidden = false;
      $("verdict").hidden = true;
      renderCreated();
      $("join-heading").focus();
    }
  }

  // GET the match (and, when the stream does not send them, the seat's legal moves);
  // coalesces calls made while one runs.
  async function refresh() {
    if (page.refreshing) { page.refreshAgain = true; return page.refreshing; }
    page.refreshing = (async () => {
      do { page.refreshAgain = false; await refreshOnce(); } while (page.refreshAgain);
    })();
    try { await page.refreshing; } finally { page.refreshing = null; }
  }

  async function refreshOnce() {
    const generation = page.generation;
    if (!page.current) return;
    const seat = page.current.seat;
    try {
      // A seat's view carries its legal moves with include=legal_moves (a referee that does not
      // offer it ignores the parameter: the moves are then asked for once more).
      const match = await api(matchPath() + seatQuery(seat === null ? "" : "include=legal_moves"), { headers: headers({}, true) });
      if (generation !== page.generation) return;
      if (!match.ok) { showError("match-error", t("connection.refused")); return; }
      page.match = { ...match.body, etag: match.etag };
      takeNames(match.body.names);
      const version = match.body.version;
      const newer = !page.moves || version >= page.moves.version;
      if (seat !== null && Array.isArray(match.body.legal_moves)) {
        if (newer) page.moves = { version, moves: match.body.legal_moves, etag: `"${version}"` };
      } else if (seat !== null && match.body.outcome && match.body.outcome.finished) {
        page.moves = { version, moves: [], etag: `"${version}"` };   // nothing to do once the game is over
      } else if (seat !== null && !page.liveLegal) {
        const moves = await api(matchPath("/legal-moves") + seatQuery(), { headers: headers({}, true) });
        if (generation !== page.generation) return;
        if (moves.ok && !page.liveLegal) page.moves = { version: moves.body.version, moves: moves.body.moves, etag: moves.etag };
      }
    } catch (error) {
      if (generation === page.generation) setConnection("lost");
      return;
    }
    renderAll();
  }

  // The event stream, read with fetch() so it can carry the seat's secret; with
  // include=legal_moves it also brings the seat's legal moves. Reconnects after a drop with
  // Last-Event-ID, until the game ends.
  async function follow(generation) {
    while (generation === page.generation && !page.ended) {
      const controller = new AbortController();
      page.stream = controller;
      setConnection("connecting");
      let retry = RECONNECT_MS;
      try {
        const response = await fetch(matchPath("/events") + seatQuery(page.current.seat === null ? "" : "include=legal_moves"), {
          cache: "no-store", signal: controller.signal,
          headers: headers({ Accept: "text/event-stream", "Last-Event-ID": String(page.lastEventId) }, true),
        });
        if (response.status === 404) { setConnection("gone"); return; }
        if (response.status === 204) { page.ended = true; setConnection("ended"); return; }
        if (response.status === 401 || response.status === 403 || response.status === 422) {
          showError("match-error", t("connection.refused"));
          return;
        }
        if (response.ok && response.body) {
          setConnection("live");
          retry = await readEvents(response.body, generation);
        }
      } catch (error) {
        if (controller.signal.aborted || generation !== page.generation) return;
      }
      if (generation !== page.generation || page.ended) return;
      setConnection("lost");
      await new Promise((resolve) => setTimeout(resolve, retry));
    }
  }

  async function readEvents(body, generation) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let retry = RECONNECT_MS;
    for (;;) {
      const { value, done } = await reader.read();
      if (done || generation !== page.generation) return retry;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = { type: "message", data: [], id: null };
        for (const line of block.split("\n")) {
          if (line === "" || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          let text = colon < 0 ? "" : line.slice(colon + 1);
          if (text.startsWith(" ")) text = text.slice(1);
          if (field === "event") event.type = text;
          else if (field === "data") event.data.push(text);
          else if (field === "id") event.id = text;
          else if (field === "retry" && /^\d+$/.test(text)) retry = Number(text);
        }
        if (event.data.length) onEvent(event.type, event.id, event.data.join("\n"));
      }
    }
  }

  function onEvent(type, id, data) {
    let payload;
    try { payload = JSON.parse(data); } catch (e) { return; }
    if (type === "move") {
      if (id !== null && /^\d+$/.test(id)) page.lastEventId = Number(id);
      if (typeof payload.player_name === "string" && typeof payload.player === "number") {
        page.names[payload.player] = payload.player_name;
      }
      const revealing = revealsEarlier(payload);
      if (!page.log.some((entry) => entry.version === payload.version)) {
        page.log.push({ ...payload, source: "stream" });
        page.log.sort((a, b) => a.version - b.version);
      }
      renderLog();
      if (revealing) rereadLog();
      if (!page.match || payload.version > page.match.version) refresh();
    } else if (type === "legal_moves") {
      page.liveLegal = true;
      if (!page.moves || payload.version >= page.moves.version) {
        page.moves = { version: payload.version, moves: payload.moves || [], etag: `"${payload.version}"` };
        renderMoves();
        renderTurn();
      }
    } else if (type === "end") {
      page.ended = true;
      setConnection("ended");
      refresh();
    } else if (type === "gone") {
      page.ended = true;
      setConnection("gone");
    }
  }

  // The event types that turn hidden values face up, per game (docs/reference/events.md, "What
  // each reader sees"; a test keeps them equal to the games' declarations). A value hidden for
  // good (a card drawn at a table game) is never read again.
  const REVEALING = {
    catatac: ["game_over"],
    "call-of-katulhu": ["toys_revealed", "cat_discarded"],
    "scratch-and-catch": [],
  };

  // Whether a stream entry may show a value an earlier entry hid from this reader.
  function revealsEarlier(entry) {
    const types = REVEALING[page.match && page.match.game] || [];
    return Array.isArray(entry.events) && entry.events.some((e) => e && types.includes(e.type))
      && page.log.some((earlier) => earlier.redacted === true && earlier.version < entry.version);
  }

  // GET /log renders every entry as the reader may read it now, with the values the game has
  // revealed since the stream sent it (docs/guides/matches.md, "Reading the log"). Its entries
  // replace those of the same versions; the stream's newer ones stay. Coalesces calls made while
  // one runs; an answer for a match the page has left is dropped.
  async function rereadLog() {
    const generation = page.generation;
    if (page.logReading === generation) { page.logAgain = true; return; }
    page.logReading = generation;
    try {
      do {
        page.logAgain = false;
        const log = await api(matchPath("/log") + seatQuery(), { headers: headers({}, true) });
        if (generation !== page.generation || !log.ok) return;
        const newer = page.log.filter((entry) => entry.version > log.body.version);
        page.log = [...log.body.entries.map((entry) => ({ ...entry, source: "log" })), ...newer];
        takeNames(log.body.names);
        renderLog();
      } while (page.logAgain);
    } catch (error) {
      // The entries stay as the stream sent them; the next move with events reads /log again.
    } finally {
      if (page.logReading === generation) page.logReading = null;
    }
  }

  function setConnection(kind) {
    const line = $("connection");
    line.dataset.state = kind;
    line.className = "connection" + (kind === "lost" || kind === "gone" ? " down" : "");
    line.textContent = t("connection." + kind);
  }

  // -- rendering -------------------------------------------------------------------------

  function renderAll() {
    if (!page.current) return;
    const match = page.match;
    const title = match ? gameTitle(match.game) : "";
    $("match-heading").textContent = page.current.seat === null ? t("match.spectator", { game: title })
      : t("match.seat", { game: title, name: seatName(page.current.seat) });
    $("match-id").textContent = page.current.id;
    $("match").dataset.version = match ? match.version : "";
    $("raw-match").textContent = match ? JSON.stringify({ match, moves: page.moves }, null, 1) : "";
    renderTurn();
    renderOutcome();
    renderGuide();
    renderMoves();
    renderHand();
    window.TableView.renderTable(view());
    window.TableView.renderScores(view());
    renderLog();
    renderVerdict();
    const connection = $("connection");
    if (connection.dataset.state) setConnection(connection.dataset.state);
  }

  // What the table and score renderers need.
  function view() {
    return { page, el, t, seatName, cardName, has };
  }

  function myTurn() {
    return !!(page.moves && page.match && page.moves.version === page.match.version && page.moves.moves.length);
  }

  function renderTurn() {
    const line = $("turn");
    const match = page.match;
    line.className = "turn";
    if (!match || match.outcome.finished) { line.textContent = ""; return; }
    const turn = match.state && match.state.turn;
    if (myTurn()) {
      line.textContent = turn && turn.step === "second" ? t("turn.you_again") : t("turn.yours");
      line.classList.add("mine");
    } else if (turn && typeof turn.player === "number") line.textContent = t("turn.player", { name: seatName(turn.player) });
    else line.textContent = t("turn.waiting");
  }

  function renderOutcome() {
    const box = $("outcome");
    const match = page.match;
    if (!match || !match.outcome.finished) { box.hidden = true; return; }
    const outcome = match.outcome;
    const winners = S.list(context(), outcome.winners.map(seatName));
    // (replaceChildren writes null as the text "null": absent parts are left out first)
    box.replaceChildren(...[el("span", { text: t("outcome.over") + " " }),
      el("span", { id: "winners", "data-winners": outcome.winners.join(","),
                   text: winners ? t("outcome.winners", { players: winners }) : t("outcome.draw") }),
      outcome.tiebreak && has("tiebreak." + outcome.tiebreak) ? el("span", { text: " " + t("tiebreak." + outcome.tiebreak) }) : null,
      el("a", { id: "record-link", class: "button link", href: matchPath("/record"), download: "match-record.json",
                text: t("outcome.record") })].filter(Boolean));
    box.hidden = false;
  }

  function renderGuide() {
    const game = page.match && page.match.game;
    const guide = game && W.GUIDES[game];
    $("guide").hidden = !guide;
    if (guide) $("guide-lines").replaceChildren(...(guide[page.language] || guide.en).map((line) => el("li", { text: line })));
  }

  function moveButton(move, index, etag, extraClass) {
    const asked = isTableChance() ? tableFields(move) : [];
    return el("button", { type: "button", class: "move" + (extraClass || ""), "data-index": index, "data-move": JSON.stringify(move),
                          text: S.move(context(), move, asked), onclick: (event) => chooseMove(move, etag, event.currentTarget) });
  }

  function renderMoves() {
    const panel = $("moves-panel");
    const list = $("moves");
    const seat = page.current.seat;
    panel.hidden = seat === null;
    if (seat === null) { list.replaceChildren(); list.dataset.version = page.match ? page.match.version : ""; return; }
    const moves = page.moves;
    if (!moves) return;
    list.dataset.version = moves.version;
    const placing = moves.moves.length > 1 && moves.moves.every((m) => m.type === "place" && Array.isArray(m.toys));
    const content = placing ? window.TableView.placement(view(), moves, (move) => postMove(move, moves.etag))
      : moves.moves.map((move, index) => moveButton(move, index, moves.etag));
    list.replaceChildren(...content);
    const empty = $("moves-empty");
    empty.textContent = page.match && page.match.outcome.finished ? t("connection.ended") : t("moves.none");
    empty.hidden = moves.moves.length > 0;
    const custom = $("custom-text");
    if (!custom.value.trim()) custom.value = JSON.stringify(moves.moves[0] || { type: "", player: seat });
  }

  function renderHand() {
    const state = page.match && page.match.state;
    const seat = page.current.seat;
    const hand = state && Array.isArray(state.players) && seat !== null && state.players[seat] ? state.players[seat].hand : null;
    $("hand-panel").hidden = !Array.isArray(hand);
    if (Array.isArray(hand)) $("hand").replaceChildren(...hand.map((card) => window.TableView.cardItem(view(), card)));
  }

  function renderLog() {
    const list = $("log");
    if (!page.log.length) { list.replaceChildren(el("li", { class: "muted", text: t("log.none") })); return; }
    const ctx = context();
    list.replaceChildren(...page.log.slice().reverse().map((entry) => el("li", {
      "data-version": entry.version, "data-source": entry.source, "data-player": entry.player,
    }, el("span", { class: "entry", text: s("log.move", { player: seatName(entry.player), move: S.move(ctx, entry.move, [], true) }) }),
    entry.events && entry.events.length
      ? el("ul", { class: "events" }, entry.events.map((e) => el("li", { text: S.event(ctx, e) }))) : null)));
  }

  // The legal moves the referee suggests instead of an illegal one, each one tap away.
  function renderSuggestions(answer) {
    const suggestions = Array.isArray(answer.suggestions) ? answer.suggestions : [];
    if (!suggestions.length) return null;
    const etag = `"${answer.version}"`;
    return el("div", { class: "suggested" },
      el("h3", { id: "suggestions-heading", text: t("verdict.suggestions") }),
      el("div", { id: "suggestions", class: "moves", role: "group", "aria-labelledby": "suggestions-heading" },
        suggestions.map((move, index) => moveButton(move, index, etag, " suggestion"))));
  }

  function ruleLine(violation) {
    const game = page.match && page.match.game;
    const english = gameInfo(game, "en");
    const entry = english && (english.violations || []).find((v) => v.code === violation.code);
    const section = entry && W.SECTIONS[entry.rule];
    const heading = t("verdict.rule", { rule: violation.rule });
    return el("span", { class: "rule" }, el("span", { class: "rule-name", text: heading }),
      section ? el("span", { class: "rule-text", text: " — " + (section[page.language] || section.en) }) : null);
  }

  function renderVerdict() {
    const box = $("verdict");
    const verdict = page.verdict;
    if (!verdict) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    box.className = "panel verdict";
    const ctx = context();
    if (verdict.kind === "verdict") {
      const answer = verdict.answer;
      box.classList.add(answer.legal ? "legal" : "illegal");
      box.dataset.legal = String(answer.legal);
      box.dataset.version = String(answer.version);
      box.replaceChildren(...[
        el("h2", { text: answer.legal ? t("verdict.legal") : t("verdict.illegal") }),
        el("p", { text: S.move(ctx, verdict.move) }),
        answer.legal
          ? (answer.events.length ? el("ul", {}, answer.events.map((e) => el("li", { text: S.event(ctx, e) }))) : null)
          : el("ul", { class: "violations" }, answer.violations.map((v) => el("li", { "data-code": v.code },
              el("span", { class: "message", text: playersWords(v.message) }), " ", ruleLine(v)))),
        answer.legal ? null : renderSuggestions(answer)].filter(Boolean));
    } else {
      box.classList.add("illegal");
      box.dataset.legal = "";
      box.dataset.version = "";
      const text = verdict.kind === "stale" ? t("verdict.stale") : verdict.kind === "network" ? t("verdict.network")
        : t("verdict.problem", { detail: verdict.detail });
      box.replaceChildren(el("p", { class: "problem", text }));
    }
  }

  // -- start -----------------------------------------------------------------------------

  function start() {
    let language = "";
    try { language = localStorage.getItem(LANGUAGE_KEY) || ""; } catch (e) { /* private mode */ }
    if (!W.TEXT[language]) language = (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
    for (const button of document.querySelectorAll(".lang")) button.addEventListener("click", () => setLanguage(button.dataset.lang));
    $("create-game").addEventListener("change", renderCreateForm);
    $("create-players").addEventListener("change", () => { renderNames(); renderOptions(); });
    $("create-own").addEventListener("change", updateOwnCards);
    $("create-form").addEventListener("submit", createMatch);
    $("join-form").addEventListener("submit", (event) => joinFromForm(event, false));
    $("join-spectate").addEventListener("click", () => joinFromForm(null, true));
    $("custom-send").addEventListener("click", sendCustom);
    $("leave").addEventListener("click", () => leave(true));
    // A link opened on a page already showing /table only changes the fragment.
    window.addEventListener("hashchange", () => {
      const found = J.takeFragment();
      if (found) join(found);
    });
    setLanguage(language);
    loadGames().then(() => {
      setLanguage(page.language);
      let saved = fromLink;
      if (!saved) {
        try { saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null"); } catch (e) { saved = null; }
      }
      if (saved && saved.id) join(saved);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
