// Sending a move from the table page: one POST per move (If-Match, an Idempotency-Key that makes
// the one retry safe, include=legal_moves for the mover's next moves), and a picker for the values
// a table names itself (``table_fills``: the card taken from the pile, the cat turned up). ``kit``
// gives what table.js shares: page, $, t, el, api, headers, showError, gameInfo, problemText,
// matchPath, randomKey, context, cardName, renderAll, refresh.
"use strict";

window.TableMoves = function (kit) {
  const { page, $, t, el, api, headers, showError, gameInfo, problemText, matchPath, randomKey, context, cardName,
          renderAll, refresh } = kit;
  const S = window.TableSentences;

  // One request per move: the answer carries the verdict, the next state and (with
  // include=legal_moves) the mover's next legal moves. ``etag``: the version chosen on.
  async function postMove(move, etag) {
    const generation = page.generation;
    const request = {
      method: "POST", body: JSON.stringify({ move }),
      headers: headers({ "Content-Type": "application/json", "If-Match": etag, "Idempotency-Key": randomKey() }, true),
    };
    for (const button of document.querySelectorAll("#moves button, #suggestions button, #custom-send")) button.disabled = true;
    let result;
    try {
      try { result = await api(matchPath("/moves?include=legal_moves"), request); }
      catch (error) { result = await api(matchPath("/moves?include=legal_moves"), request); }   // same key: a safe retry
    } catch (error) {
      page.verdict = { kind: "network" };
    }
    if (generation !== page.generation) return;
    let again = true;
    if (result) {
      if (result.status === 200) {
        const answer = result.body;
        page.verdict = { kind: "verdict", answer, move };
        if (answer.legal && answer.state && page.match && answer.version > page.match.version) {
          page.match = { ...page.match, state: answer.state, scores: answer.scores, outcome: answer.outcome,
                         version: answer.version, etag: `"${answer.version}"` };
        }
        if (Array.isArray(answer.legal_moves)) {
          page.liveLegal = true;
          page.moves = { version: answer.version, moves: answer.legal_moves, etag: `"${answer.version}"` };
          again = !answer.state;
        } else if (!answer.legal) {
          again = false;
        }
      } else if (result.status === 412) {
        page.verdict = { kind: "stale" };
      } else {
        page.verdict = { kind: "problem", detail: problemText(result) };
      }
    }
    $("custom-send").disabled = false;
    renderAll();
    const box = $("verdict");
    box.focus({ preventScroll: true });
    box.scrollIntoView({ block: "start" });
    if (again) await refresh();
  }

  // Values a listed move leaves for the table to name (``table_fills`` left null).
  function tableFields(move) {
    if (!Array.isArray(move.table_fills)) return [];
    return move.table_fills.filter((name) => move[name] === null || move[name] === undefined);
  }

  function isTableChance() {
    const state = page.match && page.match.state;
    return !!(state && state.options && state.options.chance === "table");
  }

  // The cards (or cats) a value the table names may be: one choice per printed name, each
  // an id of that name the page has not seen face up.
  function choicesFor(field) {
    const info = gameInfo(page.match.game, "en");
    const catalogue = (info && info.catalogue) || {};
    const keys = { points_card: ["points_cards"], cat: ["cats"], card: ["paw_cards", "alpha_cards", "cards", "kinds"] }[field]
      || Object.keys(catalogue);
    const ids = [];
    for (const key of keys) {
      for (const item of catalogue[key] || []) {
        const value = typeof item === "string" ? item : (item.id || item.kind);
        if (typeof value === "string") ids.push(value);
      }
    }
    const seen = JSON.stringify(page.match.state);
    const byName = new Map();
    for (const value of ids) {
      const name = cardName(value);
      const unseen = !seen.includes(`"${value}"`);
      if (!byName.has(name) || (unseen && !byName.get(name).unseen)) byName.set(name, { value, unseen });
    }
    return Array.from(byName, ([name, { value }]) => ({ name, value }))
      .sort((a, b) => a.name.localeCompare(b.name, page.language, { numeric: true }));
  }

  function chooseMove(move, etag, button) {
    if (move.type === "contribute" && move.contribution == null) {
      postMove({ ...move, contribution: randomKey() }, etag);   // 128 random bits of this device (docs/rng.md)
      return;
    }
    const missing = isTableChance() ? tableFields(move) : [];
    if (!missing.length) { postMove(move, etag); return; }
    const old = $("picker");
    if (old) old.remove();
    const inputs = missing.map((name) => el("div", { class: "field" },
      el("label", { for: "pick-" + name, text: t("moves.which") }),
      el("select", { id: "pick-" + name, "data-field": name },
        el("option", { value: "", text: t("moves.choose") }),
        choicesFor(name).map((choice) => el("option", { value: choice.value, text: choice.name })))));
    const picker = el("div", { id: "picker", class: "picker", role: "group", "aria-label": t("moves.fill") },
      el("strong", { text: S.move(context(), move, missing) }),
      inputs,
      el("div", { class: "actions" },
        el("button", { type: "button", class: "primary", text: t("moves.send"), onclick: () => {
          const filled = { ...move };
          for (const input of picker.querySelectorAll("[data-field]")) {
            filled[input.dataset.field] = input.value === "" ? null : input.value;
          }
          postMove(filled, etag);
        } }),
        el("button", { type: "button", text: t("moves.cancel"), onclick: () => { picker.remove(); button.focus(); } })));
    button.after(picker);
    picker.querySelector("select").focus();
    picker.scrollIntoView({ block: "nearest" });
  }

  function sendCustom() {
    let move;
    showError("custom-error", "");
    try {
      move = JSON.parse($("custom-text").value);
      if (!move || typeof move !== "object" || Array.isArray(move)) throw new Error("object");
    } catch (error) { showError("custom-error", t("advanced.custom_bad")); return; }
    const etag = (page.moves && page.moves.etag) || (page.match && page.match.etag) || '"0"';
    postMove(move, etag);
  }

  return { postMove, chooseMove, sendCustom, tableFields, isTableChance };
};
