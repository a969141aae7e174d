// Moves and events of the three games told as sentences (docs/reference/events.md lists every event
// type, per game). ``ctx`` gives the words: s(key, params) a sentence, t(key) a label,
// seat(n) a seat's display name, card(id) a card as printed, game the game id.
"use strict";

window.TableSentences = (function () {
  function list(ctx, items) {
    if (items.length <= 1) return items.join("");
    return items.slice(0, -1).join(ctx.t("list")) + ctx.t("and") + items[items.length - 1];
  }

  // Cards named and grouped: "2 × Cat 7 and Cat 5".
  function cards(ctx, ids) {
    const counts = new Map();
    for (const id of ids || []) {
      const name = ctx.card(id);
      counts.set(name, (counts.get(name) || 0) + 1);
    }
    return list(ctx, Array.from(counts, ([name, count]) => (count > 1 ? `${count} × ${name}` : name)));
  }

  // The key suffix of a count: ".one" for 1, ".none" for 0 (unless ``noNone``).
  function plural(n, noNone) { return n === 1 ? ".one" : n === 0 && !noNone ? ".none" : ""; }

  function seats(ctx, numbers) { return list(ctx, (numbers || []).map((n) => ctx.seat(n))); }

  function clan(ctx, name) { return ctx.t("clan." + name); }

  function spot(ctx, name) { return ctx.t("spot." + name); }

  // A CATATAC play: the card, then the pair, the action block and their order as chosen.
  function catatacPlay(ctx, move, card) {
    const parts = [];
    const pair = move.pair;
    if (pair && pair.action) {
      parts.push(ctx.s("pair." + pair.action, { direction: pair.direction ? clan(ctx, pair.direction) : "" }));
    }
    const block = move.block;
    if (block) {
      const bars = Array.isArray(block.bars) ? block.bars : [];
      let text = bars.length ? ctx.s("block.bar", { bar: bars.map((b) => b + 1).join("/") }) : ctx.s("block");
      const directions = Array.isArray(block.directions) ? block.directions : [];
      if (directions.length) text += " " + ctx.s("block.toward", { directions: directions.map((d) => clan(ctx, d)).join(" → ") });
      parts.push(text);
    }
    if (move.order) parts.push(ctx.s("order." + move.order));
    if (!parts.length) return ctx.s("move.play.alone", { card });
    return ctx.s("move.play", { card }) + " · " + parts.join(" · ");
  }

  // A move as its button says it, to the seat that makes it; ``asked``: fields the table still
  // names. ``logged``: as the log says it after a seat's name, with no "your".
  function move(ctx, m, asked, logged) {
    if (!m || typeof m !== "object") return ctx.t("log.hidden");
    const own = (key) => (logged ? key + ".logged" : key);
    const known = (value) => value !== null && value !== undefined;
    const pending = (asked || []).length ? " " + ctx.t("pending") : "";
    switch (m.type) {
      case "play":
        if (ctx.game === "catatac") return catatacPlay(ctx, m, known(m.card) ? ctx.card(m.card) : ctx.t("unknown")) + pending;
        if (m.source === "pile") {
          return (known(m.card) ? ctx.s("move.play.pile_card", { card: ctx.card(m.card) }) : ctx.s("move.play.pile")) + pending;
        }
        return ctx.s(m.source === "hand" ? own("move.play.hand") : "move.play", { card: ctx.card(m.card) });
      case "draw":
        return (known(m.card) ? ctx.s("move.draw_card", { card: ctx.card(m.card) }) : ctx.s("move.draw")) + pending;
      case "decline": return ctx.s("move.decline");
      case "show": return ctx.s(own("move.show"), { card: known(m.card) ? ctx.card(m.card) : "" }).replace(/\s+$/, "");
      case "contribute": return ctx.s(own("move.contribute"));
      case "place":
        return Array.isArray(m.toys) ? ctx.s("move.place", { toys: m.toys.map((toy) => ctx.card(toy)).join(" · ") })
          : ctx.s("move.place_hidden");
      case "discard": return known(m.cat) ? ctx.s("move.discard", { cat: ctx.card(m.cat) }) : ctx.s("move.discard_hidden");
      case "reveal": return (known(m.cat) ? ctx.s("move.reveal", { cat: ctx.card(m.cat) }) : ctx.s("move.reveal_blank")) + pending;
      default: return ctx.s("move.other");
    }
  }

  function gameOver(ctx, e) {
    const winners = seats(ctx, e.winners);
    if (ctx.game === "catatac" && e.points) {
      const p = e.points;
      return ctx.s("ev.catatac.game_over", { game: e.game, white: p.white.points, white_sardines: p.white.sardines,
                                             black: p.black.points, black_sardines: p.black.sardines });
    }
    if (ctx.game === "call-of-katulhu" && e.reason) {
      return ctx.s("ev.katulhu.game_over." + e.reason, { winners: winners || "—" });
    }
    return winners ? ctx.s("ev.game_over.winners", { winners }) : ctx.s("ev.game_over.nobody");
  }

  // One event of docs/reference/events.md as a sentence.
  function event(ctx, e) {
    const player = typeof e.player === "number" ? ctx.seat(e.player) : "";
    switch (e.type) {
      case "card_played":
        if (ctx.game === "scratch-and-catch") {
          return ctx.s(e.source === "pile" ? "ev.sc.card_played.pile" : "ev.sc.card_played.hand", { player, card: ctx.card(e.card) });
        }
        return ctx.s(e.pair && e.block ? "ev.card_played.combo" : e.pair ? "ev.card_played.pair"
          : e.block ? "ev.card_played.block" : "ev.card_played", { player, card: ctx.card(e.card) });
      case "stack":
        return (e.collected || []).length ? ctx.s("ev.stack", { player, value: e.value, cards: cards(ctx, e.collected) })
          : ctx.s("ev.stack.none", { player, value: e.value });
      case "sequence":
        return ctx.s("ev.sequence" + plural(e.fleas_discarded), { player, length: e.length, fleas: e.fleas_discarded });
      case "scratch":
        // one player scratched "takes", several "each take"
        return ctx.s("ev.scratch" + ((e.players || []).length === 1 ? ".single" : "") + plural(e.fleas_each, true),
          { players: seats(ctx, e.players), fleas: e.fleas_each });
      case "cards_drawn": return ctx.s("ev.cards_drawn" + plural(e.count, true), { player, count: e.count });
      case "game_end_triggered": return ctx.s("ev.game_end_triggered." + e.reason, { player });
      case "turn_passed": return ctx.s("ev.turn_passed", { player });
      case "game_over": return gameOver(ctx, e);
      case "cooperation": return ctx.s("ev.cooperation", { player, skipped: ctx.seat(e.skipped) });
      case "ball_stolen": return ctx.s("ev.ball_stolen", { player, clan: clan(ctx, e.clan) });
      case "ball_moved": return ctx.s("ev.ball_moved", { player, from: spot(ctx, e.from), to: spot(ctx, e.to) });
      case "stash_attempt": return ctx.s("ev.stash_attempt", { player, clan: clan(ctx, e.clan) });
      case "countered": return ctx.s("ev.countered", { player, to: spot(ctx, e.to) });
      case "coin_flipped": return ctx.s("ev.coin_flipped", { colour: clan(ctx, e.colour), spot: spot(ctx, e.spot) });
      case "declined": return ctx.s("ev.declined", { player });
      case "stash_succeeded": return ctx.s("ev.stash_succeeded", { clan: clan(ctx, e.clan) });
      case "skip_played": case "skip_cancelled": case "turn_skipped": case "replay": case "replay_lost":
      case "pair_forfeited": case "toys_placed": case "discard_chosen": case "contributed":
        return ctx.s("ev." + e.type, { player });
      case "new_game": return ctx.s("ev.new_game", { game: e.game });
      case "alpha_cards_to_show": return ctx.s("ev.alpha_cards_to_show", { players: seats(ctx, e.players) });
      case "alpha_shown": return ctx.s("ev.alpha_shown", { player, card: ctx.card(e.card) });
      case "toys_revealed":
        return ctx.s("ev.toys_revealed", { slots: (e.slots || []).map((slot) => {
          const [blue, red] = (slot.toys || []).map((toy) => ctx.card(toy));
          const beaten = (slot.removed || []).map((seat) => ctx.seat(seat));
          return beaten.length ? ctx.s("ev.slot.removed", { slot: slot.slot, blue, red, beaten: list(ctx, beaten) })
            : ctx.s("ev.slot", { slot: slot.slot, blue, red });
        }).join("; ") });
      case "cat_attracted": return ctx.s("ev.cat_attracted", { player, cat: ctx.card(e.cat) });
      case "cat_discarded":
        return ctx.s(e.reason === "stall" ? "ev.cat_discarded.stall" : "ev.cat_discarded.attracted_by_both",
          { cat: ctx.card(e.cat), players: seats(ctx, e.players) });
      case "stall": return ctx.s("ev.stall", { rounds: e.quiet_rounds });
      case "discard_pile_reshuffled": return ctx.s("ev.discard_pile_reshuffled", { cats: e.cats });
      case "cats_turned_up": return ctx.s("ev.cats_turned_up", { cats: cards(ctx, e.cats) });
      case "dealt": return ctx.s("ev.dealt");
      default: return ctx.s("ev.other");
    }
  }

  return { move, event, list, cards, seats };
})();
