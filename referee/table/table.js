// The table page: create or join a match, show the table and the seat's hand, list the seat's
// legal moves, post one with If-Match and show the verdict, and follow the match live through
// its event stream. A client of the public API only (docs/guides/matches.md). Seat secrets stay in
// this page and in sessionStorage, never in a URL.
"use strict";

(function () {
  const STORE_KEY = "referee.table.current";
  const CREATED_KEY = "referee.table.created";
  const LANGUAGE_KEY = "referee.table.language";
  const RECONNECT_MS = 1000;

  const TEXT = {
    en: {
      "title": "Referee table",
      "skip": "Skip to the table",
      "create.heading": "New match",
      "create.game": "Game",
      "create.players": "Players",
      "create.options": "Options",
      "create.seed": "Seed (optional: whoever knows it can see every card, so leave it empty if you play)",
      "create.submit": "Create match",
      "create.json": "JSON; leave empty for the default",
      "option.chance": "Chance",
      "option.chance.seeded": "Seeded: the referee deals and draws",
      "option.chance.table": "Table: cards dealt and seen at a physical table",
      "created.heading": "Match created",
      "created.match": "Match id",
      "created.share": "Give each player their seat secret (keep them private): they join with the match id, their seat and its secret.",
      "created.secret": "secret",
      "created.sit": "Sit at seat {seat}",
      "created.spectate": "Watch as a spectator",
      "join.heading": "Join a match",
      "join.match": "Match id",
      "join.seat": "Seat (player number, from 0)",
      "join.secret": "Seat secret",
      "join.submit": "Sit at this seat",
      "join.spectate": "Watch as a spectator",
      "join.need": "Enter the match id (and, for a seat, its secret).",
      "match.seat": "{game}: player {seat} (you)",
      "match.spectator": "{game}: spectator",
      "turn.yours": "Your turn",
      "turn.player": "Player {player} to play",
      "turn.waiting": "Waiting for the other players",
      "connection.live": "Live: moves appear as they are made.",
      "connection.connecting": "Connecting to the match…",
      "connection.lost": "Connection lost; reconnecting…",
      "connection.ended": "The game is over.",
      "connection.gone": "This match no longer exists (it expired).",
      "outcome.over": "Game over.",
      "outcome.winners": "Winner: {players}",
      "outcome.draw": "No winner.",
      "outcome.tiebreak": "Tiebreak: {tiebreak}",
      "moves.heading": "Your moves",
      "moves.none": "No move for you now.",
      "moves.fill": "Fill in what the table shows",
      "moves.which_card": "which card? (the table shows it)",
      "moves.send": "Send move",
      "moves.cancel": "Cancel",
      "moves.empty": "(leave empty: none)",
      "custom.summary": "Propose another move (JSON)",
      "custom.label": "A move as JSON, for example one the page does not list",
      "custom.send": "Send this move",
      "custom.bad": "This is not a JSON object: {error}",
      "verdict.legal": "Legal move",
      "verdict.illegal": "Illegal move",
      "verdict.rule": "Rulebook: {rule}",
      "verdict.suggestions": "Play instead (one tap):",
      "verdict.stale": "The match moved on before your move arrived; here is the table now. Choose again.",
      "verdict.problem": "The referee refused the request ({status}): {detail}",
      "verdict.network": "The referee could not be reached: {error}",
      "hand.heading": "Your hand",
      "table.heading": "Table",
      "table.line": "Line",
      "table.draw_pile": "Draw pile",
      "table.cards": "{count} cards",
      "table.turn": "Turn",
      "table.players": "Players",
      "scores.heading": "Scores",
      "log.heading": "Moves so far",
      "log.none": "No move yet.",
      "log.entry": "#{version} player {player}: {move}",
      "log.hidden": "(hidden)",
      "leave": "Leave this match",
      "player": "Player {player}",
      "col.player": "Player",
      "col.fleas": "Fleas",
      "col.collected": "Collected",
      "col.hand": "Hand",
      "col.cards": "Cards",
      "col.flea_points": "Flea points",
      "col.total": "Total",
      "type.play": "Play",
      "type.draw": "Draw",
      "type.show": "Show the alpha card",
      "source.hand": "from the hand",
      "source.pile": "from the draw pile",
      "step.first": "first card",
      "step.second": "second card",
      "step.refill": "refilling the hand",
    },
    ja: {
      "title": "審判テーブル",
      "skip": "テーブルへ移動",
      "create.heading": "新しい対戦",
      "create.game": "ゲーム",
      "create.players": "人数",
      "create.options": "オプション",
      "create.seed": "シード（任意：知っている人には全部のカードが分かるので、自分も遊ぶなら空欄に）",
      "create.submit": "対戦を作る",
      "create.json": "JSON。空欄なら既定値",
      "option.chance": "偶然の扱い",
      "option.chance.seeded": "シード：審判が配り、引く",
      "option.chance.table": "卓上：実際のテーブルで配り、見たカード",
      "created.heading": "対戦を作りました",
      "created.match": "対戦ID",
      "created.share": "各プレイヤーに席の秘密鍵を渡してください（他の人には見せない）。対戦ID・席番号・秘密鍵で参加します。",
      "created.secret": "秘密鍵",
      "created.sit": "席{seat}に座る",
      "created.spectate": "観戦する",
      "join.heading": "対戦に参加",
      "join.match": "対戦ID",
      "join.seat": "席（プレイヤー番号、0から）",
      "join.secret": "席の秘密鍵",
      "join.submit": "この席に座る",
      "join.spectate": "観戦する",
      "join.need": "対戦IDを入力してください（席に座るには秘密鍵も）。",
      "match.seat": "{game}：プレイヤー{seat}（あなた）",
      "match.spectator": "{game}：観戦",
      "turn.yours": "あなたの手番です",
      "turn.player": "プレイヤー{player}の手番です",
      "turn.waiting": "他のプレイヤーを待っています",
      "connection.live": "ライブ：手はすぐに表示されます。",
      "connection.connecting": "対戦に接続中…",
      "connection.lost": "接続が切れました。再接続中…",
      "connection.ended": "ゲームは終了しました。",
      "connection.gone": "この対戦はもうありません（期限切れ）。",
      "outcome.over": "ゲーム終了。",
      "outcome.winners": "勝者：{players}",
      "outcome.draw": "勝者なし。",
      "outcome.tiebreak": "同点の決着：{tiebreak}",
      "moves.heading": "あなたの手",
      "moves.none": "今できる手はありません。",
      "moves.fill": "テーブルに見えているものを入力",
      "moves.which_card": "どのカード？（テーブルで確認）",
      "moves.send": "手を送る",
      "moves.cancel": "やめる",
      "moves.empty": "（空欄：なし）",
      "custom.summary": "別の手を提案する（JSON）",
      "custom.label": "JSONで書いた手（一覧にない手など）",
      "custom.send": "この手を送る",
      "custom.bad": "JSONオブジェクトではありません：{error}",
      "verdict.legal": "合法な手",
      "verdict.illegal": "反則の手",
      "verdict.rule": "ルールブック：{rule}",
      "verdict.suggestions": "代わりに指す手（タップで送信）：",
      "verdict.stale": "あなたの手が届く前に対戦が進みました。今のテーブルから選び直してください。",
      "verdict.problem": "審判が要求を受け付けませんでした（{status}）：{detail}",
      "verdict.network": "審判に接続できません：{error}",
      "hand.heading": "あなたの手札",
      "table.heading": "テーブル",
      "table.line": "列",
      "table.draw_pile": "山札",
      "table.cards": "{count}枚",
      "table.turn": "手番",
      "table.players": "プレイヤー",
      "scores.heading": "得点",
      "log.heading": "これまでの手",
      "log.none": "まだ手はありません。",
      "log.entry": "#{version} プレイヤー{player}：{move}",
      "log.hidden": "（非公開）",
      "leave": "この対戦を離れる",
      "player": "プレイヤー{player}",
      "col.player": "プレイヤー",
      "col.fleas": "ノミ",
      "col.collected": "獲得",
      "col.hand": "手札",
      "col.cards": "カード",
      "col.flea_points": "ノミの点",
      "col.total": "合計",
      "type.play": "出す",
      "type.draw": "引く",
      "type.show": "アルファカードを公開",
      "source.hand": "手札から",
      "source.pile": "山札から",
      "step.first": "1枚目",
      "step.second": "2枚目",
      "step.refill": "手札の補充",
    },
  };

  // -- state of the page -----------------------------------------------------------------

  const page = {
    language: "en",
    games: [],          // GET /v1/games
    catalogues: {},     // game id -> {catalogue key -> the card/cat ids and kinds under it} (pickers)
    current: null,      // {id, seat (null: spectator), secret}
    match: null,        // the last match answer
    moves: null,        // the last legal-moves answer
    log: [],            // log entries, as this reader sees them, oldest first
    lastEventId: 0,
    ended: false,
    generation: 0,      // bumped on join/leave: stale streams and answers are dropped
    stream: null,       // AbortController of the event stream
    verdict: null,      // {kind, answer|problem}
    refreshing: null,
    refreshAgain: false,
  };

  const $ = (id) => document.getElementById(id);

  function t(key, params) {
    const table = TEXT[page.language] || TEXT.en;
    let text = key in table ? table[key] : (key in TEXT.en ? TEXT.en[key] : key);
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function has(key) { return key in TEXT.en; }

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

  function compact(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "string") return value;
    return JSON.stringify(value);
  }

  function humanise(name) { return name.replace(/_/g, " "); }

  function gameTitle(id) {
    const game = page.games.find((g) => g.id === id);
    return game ? game.title : id;
  }

  // -- HTTP ------------------------------------------------------------------------------

  function headers(extra, withSecret) {
    const result = { "Accept-Language": page.language, ...(extra || {}) };
    if (withSecret && page.current && page.current.secret) {
      result.Authorization = "Bearer " + page.current.secret;
    }
    return result;
  }

  async function api(path, options) {
    const response = await fetch(path, { cache: "no-store", ...options });
    let body = null;
    const type = response.headers.get("Content-Type") || "";
    if (type.includes("json")) body = await response.json();
    return { status: response.status, ok: response.ok, body, etag: response.headers.get("ETag") };
  }

  function problemText(result) {
    const body = result.body || {};
    let detail = body.detail || body.title || String(result.status);
    if (Array.isArray(body.errors) && body.errors.length) {
      detail += " " + body.errors.map((e) => `${e.pointer}: ${e.detail}`).join("; ");
    }
    return detail;
  }

  function notice(message) {
    const box = $("notice");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function randomKey() {
    // crypto.getRandomValues works on plain http too (randomUUID needs a secure context).
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- language --------------------------------------------------------------------------

  function setLanguage(language) {
    page.language = TEXT[language] ? language : "en";
    try { localStorage.setItem(LANGUAGE_KEY, page.language); } catch (e) { /* private mode */ }
    document.documentElement.lang = page.language;
    document.title = t("title");
    for (const node of document.querySelectorAll("[data-i18n]")) {
      node.textContent = t(node.dataset.i18n);
    }
    for (const button of document.querySelectorAll(".lang")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === page.language));
    }
    renderOptions();
    renderCreated();
    if (page.current) renderAll();
  }

  // -- creating and joining --------------------------------------------------------------

  async function loadGames() {
    const result = await api("/v1/games", { headers: headers() });
    if (!result.ok) { notice(problemText(result)); return; }
    page.games = result.body.games;
    const select = $("create-game");
    select.replaceChildren(...page.games.map((g) => el("option", { value: g.id, text: g.title })));
    const preferred = page.games.find((g) => g.id === "scratch-and-catch");
    if (preferred) select.value = preferred.id;
    renderPlayers();
    renderOptions();
  }

  function selectedGame() { return page.games.find((g) => g.id === $("create-game").value); }

  function renderPlayers() {
    const game = selectedGame();
    if (!game) return;
    $("create-players").replaceChildren(...game.players.map((n) => el("option", { value: n, text: n })));
  }

  // One control per option of GET /v1/games: a choice list for an enum, a checkbox for a
  // yes/no, checkboxes for a set, a number, or JSON text for anything larger.
  function renderOptions() {
    const game = selectedGame();
    const box = $("create-options-fields");
    if (!game) { box.replaceChildren(); return; }
    const previous = readOptions(true);
    const fields = [];
    for (const [name, spec] of Object.entries(game.options)) {
      const id = "option-" + name;
      const label = name === "chance" ? t("option.chance") : humanise(name);
      const hint = spec.description ? el("span", { class: "hint", lang: "en", text: spec.description }) : null;
      const value = name in previous ? previous[name] : spec.default;
      if (Array.isArray(spec.enum)) {
        const select = el("select", { id, "data-option": name, "data-kind": "enum" },
          spec.enum.map((choice) => el("option", {
            value: choice, selected: choice === value,
            text: has(`option.${name}.${choice}`) ? t(`option.${name}.${choice}`) : choice,
          })));
        fields.push(el("div", { class: "field" }, el("label", { for: id, text: label }), select, hint));
      } else if (typeof spec.default === "boolean") {
        fields.push(el("div", { class: "field" },
          el("label", { class: "check", for: id },
            el("input", { type: "checkbox", id, "data-option": name, "data-kind": "boolean", checked: value === true }),
            label),
          hint));
      } else if (Array.isArray(spec.items)) {
        const chosen = Array.isArray(value) ? value : [];
        fields.push(el("fieldset", { class: "options" }, el("legend", { text: label }),
          el("div", { class: "choices" }, spec.items.map((item) => el("label", { class: "check" },
            el("input", { type: "checkbox", "data-option": name, "data-kind": "set", value: item,
                          checked: chosen.includes(item) }), item))),
          hint));
      } else if (typeof spec.default === "number") {
        fields.push(el("div", { class: "field" }, el("label", { for: id, text: label }),
          el("input", { type: "number", id, "data-option": name, "data-kind": "number", value, inputmode: "numeric" }),
          hint));
      } else {
        const text = name in previous ? JSON.stringify(previous[name]) : "";
        const area = el("textarea", { id, rows: 2, "data-option": name, "data-kind": "json", spellcheck: "false",
                                     placeholder: t("create.json") });
        area.value = text;
        fields.push(el("div", { class: "field" }, el("label", { for: id, text: label }), area, hint));
      }
    }
    box.replaceChildren(...fields);
  }

  function readOptions(lenient) {
    const options = {};
    for (const input of document.querySelectorAll("#create-options-fields [data-option]")) {
      const name = input.dataset.option;
      switch (input.dataset.kind) {
        case "enum": options[name] = input.value; break;
        case "boolean": options[name] = input.checked; break;
        case "number": if (input.value !== "") options[name] = Number(input.value); break;
        case "set":
          options[name] = options[name] || [];
          if (input.checked) options[name].push(input.value);
          break;
        case "json":
          if (input.value.trim() !== "") {
            try { options[name] = JSON.parse(input.value); } catch (error) {
              if (!lenient) throw new Error(`${name}: ${error.message}`);
            }
          }
          break;
      }
    }
    return options;
  }

  async function createMatch(event) {
    event.preventDefault();
    notice("");
    let options;
    try { options = readOptions(false); } catch (error) { notice(error.message); return; }
    const body = { game: $("create-game").value, players: Number($("create-players").value), options };
    const seed = $("create-seed").value.trim();
    if (seed) body.seed = seed;
    let result;
    try {
      result = await api("/v1/matches", {
        method: "POST", body: JSON.stringify(body),
        headers: headers({ "Content-Type": "application/json" }),
      });
    } catch (error) { notice(t("verdict.network", { error: error.message })); return; }
    if (!result.ok) { notice(t("verdict.problem", { status: result.status, detail: problemText(result) })); return; }
    const created = { id: result.body.id, game: result.body.game, seats: result.body.seats };
    try { sessionStorage.setItem(CREATED_KEY, JSON.stringify(created)); } catch (e) { /* private mode */ }
    renderCreated();
    $("created").querySelector("h3").focus();
  }

  function createdMatch() {
    try { return JSON.parse(sessionStorage.getItem(CREATED_KEY) || "null"); } catch (e) { return null; }
  }

  function renderCreated() {
    const created = createdMatch();
    const box = $("created");
    box.hidden = !created;
    if (!created) return;
    box.querySelector("h3").setAttribute("tabindex", "-1");
    $("created-id").textContent = created.id;
    $("created-seats").replaceChildren(...created.seats.map((seat) => el("li", { "data-seat": seat.seat },
      el("strong", { text: t("player", { player: seat.seat }) }),
      el("span", { class: "hint", text: t("created.secret") }),
      el("code", { class: "secret", text: seat.secret }),
      el("button", { type: "button", class: "primary sit", "data-seat": seat.seat,
                     text: t("created.sit", { seat: seat.seat }),
                     onclick: () => join({ id: created.id, seat: seat.seat, secret: seat.secret }) }))));
  }

  function joinFromForm(event, spectator) {
    if (event) event.preventDefault();
    notice("");
    const id = $("join-match").value.trim();
    const secret = $("join-secret").value.trim();
    const seat = Number($("join-seat").value);
    if (!id || (!spectator && (!secret || !Number.isInteger(seat) || seat < 0))) {
      notice(t("join.need"));
      return;
    }
    join(spectator ? { id, seat: null, secret: null } : { id, seat, secret });
  }

  // -- following a match -----------------------------------------------------------------

  function seatQuery() {
    return page.current.seat === null ? "" : `?seat=${page.current.seat}`;
  }

  function matchPath(suffix) {
    return `/v1/matches/${encodeURIComponent(page.current.id)}${suffix || ""}`;
  }

  async function join(current) {
    leave(false);
    const generation = ++page.generation;
    page.current = current;
    page.match = null;
    page.moves = null;
    page.log = [];
    page.verdict = null;
    page.ended = false;
    let log;
    try {
      log = await api(matchPath("/log") + seatQuery(), { headers: headers({}, true) });
    } catch (error) { notice(t("verdict.network", { error: error.message })); page.current = null; return; }
    if (generation !== page.generation) return;
    if (!log.ok) {
      notice(t("verdict.problem", { status: log.status, detail: problemText(log) }));
      page.current = null;
      return;
    }
    try { sessionStorage.setItem(STORE_KEY, JSON.stringify(current)); } catch (e) { /* private mode */ }
    page.log = log.body.entries.map((entry) => ({ ...entry, source: "log" }));
    page.lastEventId = log.body.version;
    $("start").hidden = true;
    $("match").hidden = false;
    renderAll();
    await refresh();
    if (generation !== page.generation) return;
    $("match-heading").setAttribute("tabindex", "-1");
    $("match-heading").focus();
    follow(generation);
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
      $("create-heading").setAttribute("tabindex", "-1");
      $("create-heading").focus();
    }
  }

  // GET the match (and the seat's legal moves); coalesces calls made while one runs.
  async function refresh() {
    if (page.refreshing) { page.refreshAgain = true; return page.refreshing; }
    page.refreshing = (async () => {
      do {
        page.refreshAgain = false;
        await refreshOnce();
      } while (page.refreshAgain);
    })();
    try { await page.refreshing; } finally { page.refreshing = null; }
  }

  async function refreshOnce() {
    const generation = page.generation;
    if (!page.current) return;
    try {
      const match = await api(matchPath() + seatQuery(), { headers: headers({}, true) });
      if (generation !== page.generation) return;
      if (!match.ok) { notice(t("verdict.problem", { status: match.status, detail: problemText(match) })); return; }
      page.match = { ...match.body, etag: match.etag };
      if (page.current.seat !== null) {
        const moves = await api(matchPath("/legal-moves") + seatQuery(), { headers: headers({}, true) });
        if (generation !== page.generation) return;
        if (moves.ok) page.moves = { ...moves.body, etag: moves.etag };
        else notice(t("verdict.problem", { status: moves.status, detail: problemText(moves) }));
      }
    } catch (error) {
      if (generation === page.generation) setConnection("lost");
      return;
    }
    renderAll();
  }

  // The event stream, read with fetch() so it can carry the seat's secret (EventSource cannot
  // send Authorization); reconnects after a drop with Last-Event-ID, until the game ends.
  async function follow(generation) {
    while (generation === page.generation && !page.ended) {
      const controller = new AbortController();
      page.stream = controller;
      setConnection("connecting");
      let retry = RECONNECT_MS;
      try {
        const response = await fetch(matchPath("/events") + seatQuery(), {
          cache: "no-store", signal: controller.signal,
          headers: headers({ Accept: "text/event-stream", "Last-Event-ID": String(page.lastEventId) }, true),
        });
        if (response.status === 404) { setConnection("gone"); return; }
        // 204: the game is over and this page has every event, its end included.
        if (response.status === 204) { page.ended = true; setConnection("ended"); return; }
        if (response.status === 401 || response.status === 403 || response.status === 422) {
          const body = await response.json().catch(() => ({}));
          notice(t("verdict.problem", { status: response.status, detail: body.detail || "" }));
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
          if (line === "" || line.startsWith(":")) continue;   // a comment: the heartbeat
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
      if (!page.log.some((entry) => entry.version === payload.version)) {
        page.log.push({ ...payload, source: "stream" });
        page.log.sort((a, b) => a.version - b.version);
      }
      renderLog();
      refresh();
    } else if (type === "end") {
      page.ended = true;
      setConnection("ended");
      refresh();
    } else if (type === "gone") {
      page.ended = true;
      setConnection("gone");
    }
  }

  function setConnection(kind) {
    const line = $("connection");
    line.dataset.state = kind;
    line.className = "connection" + (kind === "lost" || kind === "gone" ? " down" : "");
    line.textContent = t("connection." + kind);
  }

  // -- moves -----------------------------------------------------------------------------

  // ``etag``: the ETag of the answer the move was chosen from (the version it was chosen on).
  async function postMove(move, etag) {
    notice("");
    const generation = page.generation;
    const key = randomKey();
    const request = {
      method: "POST", body: JSON.stringify({ move }),
      headers: headers({ "Content-Type": "application/json", "If-Match": etag, "Idempotency-Key": key }, true),
    };
    for (const button of document.querySelectorAll("#moves button, #suggestions button, #custom-send")) {
      button.disabled = true;
    }
    let result;
    try {
      try {
        result = await api(matchPath("/moves"), request);
      } catch (error) {
        result = await api(matchPath("/moves"), request);   // the same key: a safe retry
      }
    } catch (error) {
      page.verdict = { kind: "network", error: error.message };
    }
    if (generation !== page.generation) return;
    if (result) {
      if (result.status === 200) page.verdict = { kind: "verdict", answer: result.body, move };
      else if (result.status === 412) page.verdict = { kind: "stale" };
      else page.verdict = { kind: "problem", status: result.status, detail: problemText(result) };
    }
    $("custom-send").disabled = false;
    renderVerdict();
    $("verdict").focus();
    await refresh();
  }

  // The fields of a listed move the table still has to name: those of ``table_fills`` left
  // null (a card kind or coin face it lists is already named). Any other null is a choice
  // not taken (CATATAC's pair, block, order), never asked.
  function tableFields(move) {
    if (!Array.isArray(move.table_fills)) return [];
    return move.table_fills.filter((name) => move[name] === null || move[name] === undefined);
  }

  function isTableChance() {
    const state = page.match && page.match.state;
    return !!(state && state.options && state.options.chance === "table");
  }

  function chooseMove(move, etag, button) {
    if (move.type === "contribute" && move.contribution == null) {
      // A jointly seeded match's contribution: 128 random bits of this device (docs/rng.md).
      postMove({ ...move, contribution: randomKey() }, etag);
      return;
    }
    const missing = isTableChance() ? tableFields(move) : [];
    if (!missing.length) { postMove(move, etag); return; }
    // At a table game a value only the table shows is null: ask for it.
    const old = $("picker");
    if (old) old.remove();
    const inputs = missing.map((name) => {
      const id = "pick-" + name;
      const list = "picker-ids-" + name;
      return el("div", { class: "field" },
        el("label", { for: id, text: `${humanise(name)} ${t("moves.empty")}` }),
        el("input", { id, "data-field": name, type: "text", list, autocomplete: "off", spellcheck: "false" }),
        el("datalist", { id: list }, suggestions(page.match.game, name).map((value) => el("option", { value }))));
    });
    const picker = el("div", { id: "picker", class: "picker", role: "group", "aria-label": t("moves.fill") },
      el("strong", { text: t("moves.fill") + ": " + describeMove(move, true) }),
      inputs,
      el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", text: t("moves.send"), onclick: () => {
          const filled = { ...move };
          for (const input of picker.querySelectorAll("[data-field]")) {
            const text = input.value.trim();
            let value = text === "" ? null : text;
            if (/^[[{\d-]/.test(text) || text === "true" || text === "false") {
              try { value = JSON.parse(text); } catch (e) { value = text; }
            }
            filled[input.dataset.field] = value;
          }
          postMove(filled, etag);
        } }),
        el("button", { type: "button", text: t("moves.cancel"), onclick: () => { picker.remove(); button.focus(); } })));
    button.after(picker);
    picker.querySelector("input").focus();
  }

  function sendCustom() {
    let move;
    try {
      move = JSON.parse($("custom-text").value);
      if (!move || typeof move !== "object" || Array.isArray(move)) throw new Error("{…}");
    } catch (error) {
      notice(t("custom.bad", { error: error.message }));
      return;
    }
    const etag = (page.moves && page.moves.etag) || (page.match && page.match.etag) || '"0"';
    postMove(move, etag);
  }

  async function loadCatalogue(game) {
    if (page.catalogues[game]) return;
    page.catalogues[game] = {};
    const result = await api(`/v1/games/${encodeURIComponent(game)}`, { headers: headers() }).catch(() => null);
    if (!result || !result.ok) return;
    const byKey = {};
    for (const [key, part] of Object.entries(result.body.catalogue || {})) {
      const ids = new Set();
      (function walk(value) {
        if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === "object") {
          for (const name of ["id", "kind"]) if (typeof value[name] === "string") ids.add(value[name]);
          Object.values(value).forEach(walk);
        }
      })(part);
      byKey[key] = Array.from(ids);
    }
    page.catalogues[game] = byKey;
  }

  // The catalogue parts a field of a move names (a points card is never a paw card).
  const FIELD_CATALOGUE = {
    points_card: ["points_cards"],
    cat: ["cats"],
    card: ["paw_cards", "alpha_cards", "cards", "kinds"],
  };

  function suggestions(game, field) {
    const byKey = page.catalogues[game] || {};
    const keys = FIELD_CATALOGUE[field] || Object.keys(byKey);
    return Array.from(new Set(keys.flatMap((key) => byKey[key] || [])));
  }

  // -- rendering -------------------------------------------------------------------------

  // ``listed``: a move of the legal-moves list, where a null at a table game is a value the
  // table names (shown as a question).
  function describeMove(move, listed) {
    if (!move) return t("log.hidden");
    const asked = listed && isTableChance() ? tableFields(move) : [];
    const parts = [];
    const type = has("type." + move.type) ? t("type." + move.type) : humanise(String(move.type));
    parts.push(type + (move.card !== undefined && move.card !== null ? " " + move.card : ""));
    if (typeof move.source === "string") parts.push(has("source." + move.source) ? t("source." + move.source) : move.source);
    for (const [name, value] of Object.entries(move)) {
      if (["type", "player", "source", "card", "table_fills"].includes(name)) continue;
      if (value === null || value === undefined) {
        if (asked.includes(name)) parts.push(`${humanise(name)}: ?`);
        continue;
      }
      parts.push(`${humanise(name)}: ${compact(value)}`);
    }
    if (move.card === null && asked.includes("card")) parts.push(t("moves.which_card"));
    return parts.join(" · ");
  }

  function describeEvent(event) {
    const fields = Object.entries(event).filter(([name]) => name !== "type" && name !== "player")
      .map(([name, value]) => `${humanise(name)} ${compact(value)}`);
    return humanise(String(event.type)) + (fields.length ? ": " + fields.join(", ") : "");
  }

  function cardItem(card) {
    const text = card === null ? "?" : String(card);
    return el("li", { class: "card" + (/^S/.test(text) ? " scratch" : ""), text });
  }

  function renderAll() {
    if (!page.current) return;
    const seat = page.current.seat;
    const match = page.match;
    const title = match ? gameTitle(match.game) : "";
    $("match-heading").textContent = seat === null ? t("match.spectator", { game: title })
      : t("match.seat", { game: title, seat });
    $("match-id").textContent = page.current.id;
    $("match").dataset.version = match ? match.version : "";
    if (match) loadCatalogue(match.game);
    renderTurn();
    renderOutcome();
    renderMoves();
    renderHand();
    renderTable();
    renderScores();
    renderLog();
    renderVerdict();
    const connection = $("connection");
    if (connection.dataset.state) setConnection(connection.dataset.state);
  }

  function renderTurn() {
    const line = $("turn");
    const match = page.match;
    line.className = "turn";
    if (!match || match.outcome.finished) { line.textContent = ""; return; }
    const mine = page.moves && page.moves.version === match.version && page.moves.moves.length > 0;
    const turn = match.state && match.state.turn;
    if (mine) { line.textContent = t("turn.yours"); line.classList.add("mine"); }
    else if (turn && typeof turn.player === "number") line.textContent = t("turn.player", { player: turn.player });
    else line.textContent = t("turn.waiting");
  }

  function renderOutcome() {
    const box = $("outcome");
    const match = page.match;
    if (!match || !match.outcome.finished) { box.hidden = true; return; }
    const outcome = match.outcome;
    const winners = outcome.winners.map((p) => t("player", { player: p })).join(", ");
    box.replaceChildren(el("span", { text: t("outcome.over") + " " }),
      el("span", { id: "winners", "data-winners": outcome.winners.join(","),
                   text: winners ? t("outcome.winners", { players: winners }) : t("outcome.draw") }),
      outcome.tiebreak ? el("span", { text: " " + t("outcome.tiebreak", { tiebreak: compact(outcome.tiebreak) }) }) : null);
    box.hidden = false;
  }

  function renderMoves() {
    const panel = $("moves-panel");
    const list = $("moves");
    const empty = $("moves-empty");
    const seat = page.current.seat;
    panel.hidden = seat === null;   // spectators do not move
    if (seat === null) {
      list.replaceChildren();
      list.dataset.version = page.match ? page.match.version : "";
      return;
    }
    const moves = page.moves;
    const custom = $("custom-text");
    if (!moves) return;
    list.dataset.version = moves.version;
    const buttons = moves.moves.map((move, index) => el("button", {
      type: "button", class: "move", "data-index": index, "data-move": JSON.stringify(move),
      text: describeMove(move, true),
      onclick: (event) => chooseMove(move, moves.etag, event.currentTarget),
    }));
    list.replaceChildren(...buttons);
    empty.textContent = page.match && page.match.outcome.finished ? t("connection.ended") : t("moves.none");
    empty.hidden = buttons.length > 0;
    if (!custom.value.trim()) {
      custom.value = JSON.stringify(moves.moves[0] || { type: "", player: seat });
    }
  }

  function renderHand() {
    const state = page.match && page.match.state;
    const seat = page.current.seat;
    const hand = state && Array.isArray(state.players) && seat !== null && state.players[seat]
      ? state.players[seat].hand : null;
    $("hand-panel").hidden = !Array.isArray(hand);
    if (Array.isArray(hand)) $("hand").replaceChildren(...hand.map(cardItem));
  }

  function renderTable() {
    const box = $("table-view");
    const state = page.match && page.match.state;
    if (!state) { box.replaceChildren(); return; }
    const parts = [];
    if (Array.isArray(state.line)) {     // Scratch & Catch: the line of piles
      parts.push(el("h3", { text: t("table.line") }),
        el("ul", { class: "line", id: "line" }, state.line.map((pile) => el("li", { class: "pile" },
          el("span", { class: "pile-value", text: pile.value }),
          el("ul", { class: "cards" }, pile.cards.map(cardItem))))));
    }
    const facts = [];
    for (const [name, value] of Object.entries(state)) {
      if (["game", "schema_version", "options", "players", "line", "finished", "rng"].includes(name)) continue;
      let shown = value;
      if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "size" in value) {
        shown = t("table.cards", { count: value.size });
      } else if (name === "turn" && value && typeof value.player === "number") {
        shown = t("player", { player: value.player }) + (value.step && has("step." + value.step) ? ` · ${t("step." + value.step)}` : "");
      } else {
        shown = compact(value);
      }
      facts.push(el("dt", { text: has("table." + name) ? t("table." + name) : humanise(name) }), el("dd", { text: shown }));
    }
    if (facts.length) parts.push(el("dl", { class: "facts" }, facts));
    if (Array.isArray(state.players)) {
      // One "hand" column: a count for every seat (the seat's own cards are shown above).
      const players = state.players.map((p) => {
        const row = { ...p };
        if (Array.isArray(row.hand)) { row.hand_size = row.hand.length; delete row.hand; }
        return row;
      });
      const keys = Array.from(new Set(players.flatMap((p) => Object.keys(p))));
      parts.push(el("h3", { text: t("table.players") }), el("div", { class: "table-scroll" }, el("table", { id: "players" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("col.player") }),
          keys.map((k) => el("th", { scope: "col", text: columnName(k) })))),
        el("tbody", {}, players.map((player, index) => el("tr", { "data-player": index },
          el("th", { scope: "row", text: index }),
          keys.map((k) => el("td", { "data-key": k, text: cell(k, player[k]) }))))))));
    }
    box.replaceChildren(...parts);
  }

  function columnName(key) {
    if (key === "hand_size") return t("col.hand");
    return has("col." + key) ? t("col." + key) : humanise(key);
  }

  function cell(key, value) {
    if (Array.isArray(value) && key === "collected") return String(value.length);
    if (Array.isArray(value)) return value.join(" ");
    return compact(value);
  }

  function renderScores() {
    const box = $("scores");
    const scores = page.match && page.match.scores;
    if (!scores) { box.replaceChildren(); return; }
    if (Array.isArray(scores.players) && scores.players.every((p) => p && typeof p === "object")) {
      const keys = Array.from(new Set(scores.players.flatMap((p) => Object.keys(p)))).filter((k) => k !== "player");
      box.replaceChildren(el("div", { class: "table-scroll" }, el("table", { id: "score-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("col.player") }),
          keys.map((k) => el("th", { scope: "col", text: columnName(k) })))),
        el("tbody", {}, scores.players.map((p, index) => el("tr", { "data-player": p.player ?? index },
          el("th", { scope: "row", text: p.player ?? index }),
          keys.map((k) => el("td", { "data-key": k, text: compact(p[k]) }))))))));
    } else {
      box.replaceChildren(el("pre", { text: JSON.stringify(scores, null, 1) }));
    }
  }

  function renderLog() {
    const list = $("log");
    if (!page.log.length) { list.replaceChildren(el("li", { class: "muted", text: t("log.none") })); return; }
    list.replaceChildren(...page.log.slice().reverse().map((entry) => el("li", {
      "data-version": entry.version, "data-source": entry.source, "data-player": entry.player,
    }, t("log.entry", { version: entry.version, player: entry.player, move: describeMove(entry.move) }),
    entry.redacted ? " " + t("log.hidden") : null,
    entry.events && entry.events.length
      ? el("span", { class: "events", text: entry.events.map(describeEvent).join("; ") }) : null)));
  }

  // The legal moves the referee suggests instead of an illegal one (the seat's own, closest
  // first), each played with one tap on the version the verdict names, as a listed move is.
  function renderSuggestions(answer) {
    const suggestions = Array.isArray(answer.suggestions) ? answer.suggestions : [];
    if (!suggestions.length) return null;
    const etag = `"${answer.version}"`;
    return el("div", { class: "suggested" },
      el("h3", { id: "suggestions-heading", text: t("verdict.suggestions") }),
      el("div", { id: "suggestions", class: "moves", role: "group", "aria-labelledby": "suggestions-heading" },
        suggestions.map((move, index) => el("button", {
          type: "button", class: "move suggestion", "data-index": index, "data-move": JSON.stringify(move),
          text: describeMove(move, true),
          onclick: (event) => chooseMove(move, etag, event.currentTarget),
        }))));
  }

  function renderVerdict() {
    const box = $("verdict");
    const verdict = page.verdict;
    if (!verdict) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    box.className = "panel verdict";
    if (verdict.kind === "verdict") {
      const answer = verdict.answer;
      box.classList.add(answer.legal ? "legal" : "illegal");
      box.dataset.legal = String(answer.legal);
      box.dataset.version = String(answer.version);
      // (replaceChildren writes null as the text "null": absent parts are left out first)
      box.replaceChildren(...[
        el("h2", { text: answer.legal ? t("verdict.legal") : t("verdict.illegal") }),
        el("p", { text: describeMove(verdict.move) }),
        answer.legal
          ? (answer.events.length ? el("ul", {}, answer.events.map((e) => el("li", { text: describeEvent(e) }))) : null)
          : el("ul", { class: "violations" }, answer.violations.map((v) => el("li", { "data-code": v.code },
              el("span", { class: "message", text: v.message }), " ",
              el("code", { text: v.code }),
              el("span", { class: "rule", text: t("verdict.rule", { rule: v.rule }) })))),
        answer.legal ? null : renderSuggestions(answer)].filter(Boolean));
    } else {
      box.classList.add("illegal");
      box.dataset.legal = "";
      box.dataset.version = "";
      const text = verdict.kind === "stale" ? t("verdict.stale")
        : verdict.kind === "network" ? t("verdict.network", { error: verdict.error })
        : t("verdict.problem", { status: verdict.status, detail: verdict.detail });
      box.replaceChildren(el("p", { class: "problem", text }));
    }
  }

  // -- start -----------------------------------------------------------------------------

  function start() {
    let language = "en";
    try { language = localStorage.getItem(LANGUAGE_KEY) || ""; } catch (e) { /* private mode */ }
    if (!TEXT[language]) language = (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
    for (const button of document.querySelectorAll(".lang")) {
      button.addEventListener("click", () => setLanguage(button.dataset.lang));
    }
    $("create-game").addEventListener("change", () => { renderPlayers(); renderOptions(); });
    $("create-form").addEventListener("submit", createMatch);
    $("join-form").addEventListener("submit", (event) => joinFromForm(event, false));
    $("join-spectate").addEventListener("click", () => joinFromForm(null, true));
    $("created-spectate").addEventListener("click", () => {
      const created = createdMatch();
      if (created) join({ id: created.id, seat: null, secret: null });
    });
    $("custom-send").addEventListener("click", sendCustom);
    $("leave").addEventListener("click", () => leave(true));
    setLanguage(language);
    loadGames().then(() => {
      setLanguage(page.language);
      let saved = null;
      try { saved = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null"); } catch (e) { saved = null; }
      if (saved && saved.id) join(saved);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
