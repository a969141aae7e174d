// The table, the score sheet and the Call of Katulhu placement, per game, in players' words.
// ``v`` (from table.js) gives page, el, t, seatName, cardName, has.
"use strict";

window.TableView = (function () {
  function cardItem(v, card) {
    const text = card === null || card === undefined ? "?" : v.cardName(card);
    return v.el("li", { class: "card" + (/^S\d/.test(String(card)) ? " scratch" : ""), text });
  }

  function facts(v, pairs) {
    const items = pairs.filter(([, value]) => value !== null && value !== undefined && value !== "");
    return items.length ? v.el("dl", { class: "facts" }, items.flatMap(([label, value]) =>
      [v.el("dt", { text: label }), v.el("dd", { text: value })])) : null;
  }

  function size(pile) { return pile && typeof pile.size === "number" ? pile.size : Array.isArray(pile) ? pile.length : null; }

  function count(v, pile) {
    const n = size(pile);
    return n === null ? null : v.t("table.cards", { count: n });
  }

  function who(v, seat) {
    const name = v.seatName(seat);
    return seat === v.page.current.seat ? v.t("table.you", { name }) : name;
  }

  function handCount(player) {
    return Array.isArray(player.hand) ? player.hand.length : typeof player.hand_size === "number" ? player.hand_size : "—";
  }

  // A table of rows: ``columns`` [key, label], ``rows`` [{seat, values}] (key -> text).
  // (a region a keyboard can reach, as it may scroll sideways on a narrow phone)
  function grid(v, id, columns, rows) {
    const label = v.t(id === "score-table" ? "scores.heading" : "table.players");
    return v.el("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": label }, v.el("table", { id },
      v.el("thead", {}, v.el("tr", {}, columns.map(([, label]) => v.el("th", { scope: "col", text: label })))),
      v.el("tbody", {}, rows.map((row) => v.el("tr", { "data-player": row.key },
        columns.map(([key], index) => index === 0 ? v.el("th", { scope: "row", text: row.values[key] })
          : v.el("td", { "data-key": key, text: row.values[key] })))))));
  }

  function scratchTable(v, state) {
    const parts = [v.el("h3", { text: v.t("table.line") }),
      v.el("ul", { class: "line", id: "line" }, (state.line || []).map((pile) => v.el("li", { class: "pile" },
        v.el("span", { class: "pile-value", text: pile.value }),
        v.el("ul", { class: "cards" }, pile.cards.map((card) => cardItem(v, card))))))];
    parts.push(facts(v, [[v.t("table.draw_pile"), count(v, state.draw_pile)],
      [v.t("table.last_turns"), state.final_turns && !state.finished ? "✓" : null]]));
    parts.push(v.el("h3", { text: v.t("table.players") }), grid(v, "players",
      [["name", v.t("col.player")], ["hand", v.t("col.hand")], ["collected", v.t("col.collected")], ["fleas", v.t("col.fleas")]],
      state.players.map((p, seat) => ({ key: seat, values: { name: who(v, seat), hand: handCount(p),
        collected: Array.isArray(p.collected) ? p.collected.length : "—", fleas: p.fleas ?? "—" } }))));
    return parts;
  }

  function catSlots(v, id) {
    const info = (v.page.info.en || {})["call-of-katulhu"];
    const cat = info && info.catalogue && (info.catalogue.cats || []).find((c) => c.id === id);
    return cat ? cat.slots : null;
  }

  function katulhuTable(v, state) {
    const parts = [v.el("h3", { text: v.t("table.cats") }),
      v.el("ul", { class: "cats", id: "cats" }, (state.table || []).map((id) => {
        const slots = catSlots(v, id);
        return v.el("li", { class: "cat" }, v.el("strong", { text: v.cardName(id) }),
          slots ? v.el("span", { class: "slots", text: slots.map((toy) => (toy ? v.cardName(toy) : "—")).join(" · ") }) : null);
      }))];
    parts.push(facts(v, [[v.t("table.round"), state.round], [v.t("table.cat_deck"), count(v, state.cat_deck)],
      [v.t("table.discard_pile"), count(v, state.discard_pile)]]));
    parts.push(v.el("h3", { text: v.t("table.players") }), grid(v, "players",
      [["name", v.t("col.player")], ["deck", v.t("col.deck")], ["cats", v.t("col.cats")]],
      state.players.map((p, seat) => ({ key: seat, values: { name: who(v, seat), deck: v.t("colour." + p.deck),
        cats: (p.cats || []).map((id) => v.cardName(id)).join(", ") || "0" } }))));
    return parts;
  }

  function catatacTable(v, state) {
    const ball = state.ball;
    const discard = Array.isArray(state.discard) ? state.discard : [];
    const parts = [facts(v, [
      [v.t("table.ball"), ball ? v.t("table.ball_at", { clan: v.t("clan." + ball.colour), spot: v.t("spot." + ball.spot) }) : null],
      [v.t("table.discard_top"), discard.length
        ? `${v.cardName(discard[discard.length - 1])} (${v.t("table.cards", { count: discard.length })})` : null],
      [v.t("table.paw_deck"), count(v, state.paw_deck)],
      [v.t("table.points_deck"), count(v, state.points_deck)],
      [v.t("table.stash", { clan: state.stash && state.stash.clan ? v.t("clan." + state.stash.clan) : "" }),
       state.stash ? "✓" : null]])];
    parts.push(v.el("h3", { text: v.t("table.players") }), grid(v, "players",
      [["name", v.t("col.player")], ["clan", v.t("col.clan")], ["hand", v.t("col.hand")]],
      state.players.map((p, seat) => ({ key: seat,
        values: { name: who(v, seat), clan: v.t("clan." + p.clan), hand: handCount(p) } }))));
    return parts;
  }

  function renderTable(v) {
    const box = document.getElementById("table-view");
    const state = v.page.match && v.page.match.state;
    if (!state || !Array.isArray(state.players)) { box.replaceChildren(); return; }
    const render = { "scratch-and-catch": scratchTable, "call-of-katulhu": katulhuTable, "catatac": catatacTable }[v.page.match.game];
    box.replaceChildren(...(render ? render(v, state) : []).filter(Boolean));
  }

  function renderScores(v) {
    const box = document.getElementById("scores");
    const scores = v.page.match && v.page.match.scores;
    if (!scores) { box.replaceChildren(); return; }
    if (scores.clans) {
      const clans = Object.entries(scores.clans);
      box.replaceChildren(grid(v, "score-table",
        [["clan", v.t("col.clan")], ["seats", v.t("col.seats")], ["points_cards", v.t("col.points_cards")],
         ["points", v.t("col.points")], ["sardines", v.t("col.sardines")]],
        clans.map(([clan, c]) => ({ key: clan, values: { clan: v.t("clan." + clan), seats: (c.seats || []).map(v.seatName).join(", "),
          points_cards: c.points_cards, points: c.points ?? "—", sardines: c.sardines ?? "—" } }))));
      return;
    }
    if (!Array.isArray(scores.players)) { box.replaceChildren(); return; }
    const game = v.page.match.game;
    const columns = game === "call-of-katulhu"
      ? [["name", v.t("col.player")], ["cats", v.t("col.cats")], ["sets", v.t("col.sets")], ["total", v.t("col.total")]]
      : [["name", v.t("col.player")], ["cards", v.t("col.cards")], ["fleas", v.t("col.fleas")],
         ["flea_points", v.t("col.flea_points")], ["total", v.t("col.total")]];
    box.replaceChildren(grid(v, "score-table", columns, scores.players.map((row, index) => {
      const seat = row.player ?? index;
      const values = { ...row, name: v.seatName(seat) };
      if (row.sets) {
        values.sets = Object.entries(row.sets).filter(([, n]) => n > 0)
          .map(([colour, n]) => `${v.t("colour." + colour)} ${n}`).join(" · ") || "—";
      }
      return { key: seat, values };
    })));
  }

  // Call of Katulhu: four slots to fill with toys, "Aim for" a cat on the table, one button to
  // place. Only a placement the referee lists can be sent.
  function placement(v, moves, send) {
    const first = moves.moves[0].toys;
    const selects = first.map((_, slot) => {
      const toys = Array.from(new Set(moves.moves.map((m) => m.toys[slot])));
      return v.el("select", { id: `slot-${slot}`, "data-slot": slot, class: "slot" },
        toys.map((toy) => v.el("option", { value: toy, selected: toy === first[slot], text: v.cardName(toy) })));
    });
    const error = v.el("p", { id: "place-error", class: "error", role: "alert", hidden: true });
    const chosen = () => selects.map((select) => select.value);
    const listed = (toys) => moves.moves.find((m) => m.toys.every((toy, i) => toy === toys[i]));
    const state = v.page.match && v.page.match.state;
    const aims = ((state && state.table) || []).map((id, index) => {
      const slots = catSlots(v, id);
      if (!slots) return null;
      const fit = moves.moves.find((m) => slots.every((toy, i) => toy === null || toy === m.toys[i]));
      if (!fit) return null;
      return v.el("button", { type: "button", class: "aim", "data-cat": index, text: v.t("moves.lure", { cat: v.cardName(id) }),
        onclick: () => { fit.toys.forEach((toy, i) => { selects[i].value = toy; }); error.hidden = true; } });
    }).filter(Boolean);
    return [
      v.el("div", { class: "aims" }, aims),
      v.el("div", { class: "slots-row" }, selects.map((select, slot) => v.el("div", { class: "field" },
        v.el("label", { for: select.id, text: v.t("moves.slot", { slot: slot + 1 }) }), select))),
      error,
      v.el("button", { type: "button", class: "move primary", id: "place", text: v.t("moves.place"), onclick: () => {
        const move = listed(chosen());
        if (!move) {
          error.textContent = v.t("moves.place_bad");
          error.hidden = false;
          error.scrollIntoView({ block: "center" });
          return;
        }
        send(move);
      } }),
    ];
  }

  return { cardItem, renderTable, renderScores, placement };
})();
