// Creating a match on the table page: the form (game, players, their names, options in
// players' words; a deal's JSON only under "Advanced" when the table deals its own cards), then
// one invitation per seat (QR code, link, copy) and one for a shared screen. ``kit`` gives
// what table.js shares: page, $, t, el, has, humanise, api, headers, showError, gameInfo,
// problemText, selectedGame, selectedGameId, join.
"use strict";

window.TableCreate = function (kit) {
  const { page, $, t, el, has, humanise, api, headers, showError, gameInfo, problemText, selectedGame, selectedGameId, join } = kit;
  const J = window.TableJoin;
  const CREATED_KEY = "referee.table.created";

  function renderCreateForm() {
    const game = selectedGame();
    if (!game) return;
    const players = $("create-players");
    const chosen = players.value;
    players.replaceChildren(...game.players.map((n) => el("option", { value: n, text: n })));
    if (game.players.map(String).includes(chosen)) players.value = chosen;
    renderNames();
    renderOptions();
  }

  function renderNames() {
    const box = $("create-names");
    const count = Number($("create-players").value) || 0;
    const previous = Array.from(box.querySelectorAll("input"), (input) => input.value);
    box.replaceChildren(...Array.from({ length: count }, (_, seat) => el("div", { class: "field", "data-pointer": `/names/${seat}` },
      el("label", { for: `create-name-${seat}`, text: t("create.name", { seat: seat + 1 }) }),
      el("input", { id: `create-name-${seat}`, type: "text", maxlength: 32, autocomplete: "off",
                    value: previous[seat] || "", "data-seat": seat }))));
  }

  // One control per option of GET /v1/games: known options in players' words; options given
  // as JSON (a deal, a deck) only under "Advanced", when the table deals its own cards.
  function renderOptions() {
    const game = selectedGame();
    if (!game) return;
    const previous = readOptions(true).options;
    const fields = [];
    const json = [];
    for (const [name, spec] of Object.entries(game.options)) {
      const id = "option-" + name;
      const label = has("option." + name) ? t("option." + name) : humanise(name);
      const value = name in previous ? previous[name] : spec.default;
      const pointer = "/options/" + name;
      if (Array.isArray(spec.enum)) {
        // Radio buttons: their labels wrap on a narrow phone, where a select cuts them short.
        fields.push(el("fieldset", { class: "options", "data-pointer": pointer }, el("legend", { text: label }),
          spec.enum.map((choice) => el("label", { class: "check", for: `${id}-${choice}` },
            el("input", { type: "radio", id: `${id}-${choice}`, name: id, value: choice, checked: choice === value,
                          "data-option": name, "data-kind": "enum", onchange: updateOwnCards }),
            has(`option.${name}.${choice}`) ? t(`option.${name}.${choice}`) : humanise(choice)))));
      } else if (typeof spec.default === "boolean") {
        fields.push(el("div", { class: "field", "data-pointer": pointer }, el("label", { class: "check", for: id },
          el("input", { type: "checkbox", id, "data-option": name, "data-kind": "boolean", checked: value === true }), label)));
      } else if (Array.isArray(spec.items)) {
        const chosen = Array.isArray(value) ? value : [];
        fields.push(el("fieldset", { class: "options", "data-pointer": pointer }, el("legend", { text: label }),
          el("div", { class: "choices" }, spec.items.map((item) => el("label", { class: "check" },
            el("input", { type: "checkbox", "data-option": name, "data-kind": "set", value: item, checked: chosen.includes(item) }),
            has(`option.${name}.${item}`) ? t(`option.${name}.${item}`) : humanise(item))))));
      } else if (name === "first_player") {
        const count = Number($("create-players").value) || 2;
        fields.push(el("div", { class: "field", "data-pointer": pointer }, el("label", { for: id, text: label }),
          el("select", { id, "data-option": name, "data-kind": "number" }, Array.from({ length: count }, (_, seat) =>
            el("option", { value: seat, selected: seat === value, text: t("seat", { seat: seat + 1 }) })))));
      } else if (typeof spec.default === "number") {
        fields.push(el("div", { class: "field", "data-pointer": pointer }, el("label", { for: id, text: label }),
          el("input", { type: "number", id, "data-option": name, "data-kind": "number", value, inputmode: "numeric" })));
      } else {
        const area = el("textarea", { id, rows: 2, "data-option": name, "data-kind": "json", spellcheck: "false",
                                     placeholder: t("create.json") });
        area.value = name in previous ? JSON.stringify(previous[name]) : "";
        json.push(el("div", { class: "field", "data-pointer": pointer }, el("label", { for: id, text: humanise(name) }), area));
      }
    }
    $("create-options-fields").replaceChildren(...fields);
    $("create-json-fields").replaceChildren(...json);
    updateOwnCards();
  }

  // The deal's JSON fields exist only at a table that deals its own cards.
  function updateOwnCards() {
    const chance = document.querySelector("input[name='option-chance']:checked");
    const table = !!chance && chance.value === "table";
    $("create-own-line").hidden = !table;
    $("create-json-fields").hidden = !(table && $("create-own").checked);
    // Secret hands need real cards: the referee cannot deal cards it must not know.
    const unseen = $("option-hands-unseen");
    if (unseen) {
      unseen.disabled = !table;
      if (!table && unseen.checked && $("option-hands-seen")) $("option-hands-seen").checked = true;
    }
  }

  function readOptions(lenient) {
    const options = {};
    let bad = null;
    for (const input of document.querySelectorAll("#create-options-fields [data-option], #create-json-fields [data-option]")) {
      const name = input.dataset.option;
      switch (input.dataset.kind) {
        case "enum": if (input.checked) options[name] = input.value; break;
        case "boolean": options[name] = input.checked; break;
        case "number": if (input.value !== "") options[name] = Number(input.value); break;
        case "set":
          options[name] = options[name] || [];
          if (input.checked) options[name].push(input.value);
          break;
        case "json":
          if ($("create-json-fields").hidden && !lenient) break;
          if (input.value.trim() !== "") {
            try { options[name] = JSON.parse(input.value); } catch (error) { bad = bad || name; }
          }
          break;
      }
    }
    return { options, bad };
  }

  function clearFieldErrors(form) {
    for (const node of form.querySelectorAll(".field-error")) node.remove();
    showError("create-error", "");
  }

  // An error beside the field its JSON pointer names (else under the form).
  function fieldError(pointer, message) {
    const fields = Array.from(document.querySelectorAll("#create-form [data-pointer]"));
    const field = fields.find((f) => pointer === f.dataset.pointer || (pointer || "").startsWith(f.dataset.pointer + "/"));
    if (!field || field.closest("[hidden]") || (field.closest("details") && !field.closest("details").open)) {
      showError("create-error", message);
      return;
    }
    const note = el("p", { class: "error field-error", role: "alert", text: message });
    field.append(note);
    note.scrollIntoView({ block: "center" });
  }

  async function createMatch(event) {
    event.preventDefault();
    const form = $("create-form");
    clearFieldErrors(form);
    const { options, bad } = readOptions(false);
    if (bad) { fieldError("/options/" + bad, t("create.bad_json", { option: humanise(bad) })); return; }
    const game = selectedGameId();
    const players = Number($("create-players").value);
    const body = { game, players, options };
    const seed = $("create-seed").value.trim();
    if (seed) body.seed = seed;
    const names = Array.from($("create-names").querySelectorAll("input"), (input) => input.value.trim() || null);
    const info = gameInfo(game, "en");
    // Names go to the referee when it keeps them (its game description names the cards).
    if (info && info.cards && names.some((n) => n)) body.names = names.map((n, seat) => n || t("seat", { seat: seat + 1 }));
    let result;
    try {
      result = await api("/v1/matches", { method: "POST", body: JSON.stringify(body),
                                          headers: headers({ "Content-Type": "application/json" }) });
    } catch (error) { showError("create-error", t("verdict.network")); return; }
    if (!result.ok) {
      const errors = (result.body && Array.isArray(result.body.errors)) ? result.body.errors : [];
      if (errors.length) errors.forEach((e) => fieldError(e.pointer, t("create.failed", { detail: e.detail })));
      else showError("create-error", t("create.failed", { detail: problemText(result) }));
      return;
    }
    const created = { id: result.body.id, game: result.body.game, seats: result.body.seats,
                      names: result.body.names || names };
    try { sessionStorage.setItem(CREATED_KEY, JSON.stringify(created)); } catch (e) { /* private mode */ }
    renderCreated();
    $("created-heading").focus({ preventScroll: true });
    $("created-heading").scrollIntoView({ block: "start" });
  }

  function createdMatch() {
    try { return JSON.parse(sessionStorage.getItem(CREATED_KEY) || "null"); } catch (e) { return null; }
  }

  function inviteItem(attributes, title, link, alt, button) {
    const status = el("span", { class: "copied", role: "status" });
    return el("li", attributes,
      el("strong", { class: "who", text: title }),
      J.qrImage(link, alt),
      el("div", { class: "actions" },
        el("a", { class: "button link", href: link, text: t("created.open") }),
        el("button", { type: "button", class: "copy", "data-link": link, text: t("created.copy"), onclick: () => {
          J.copy(link).then(() => { status.textContent = t("created.copied"); })
            .catch(() => { status.textContent = t("created.copy_failed"); });
        } }),
        button),
      status);
  }

  function renderCreated() {
    const created = createdMatch();
    $("created").hidden = !created;
    if (!created) return;
    const name = (seat) => (created.names && created.names[seat]) || t("seat", { seat: seat + 1 });
    $("created-id").textContent = created.id;
    $("created-seats").replaceChildren(
      ...created.seats.map((seat) => inviteItem({ "data-seat": seat.seat, class: "invite" }, name(seat.seat),
        J.seatLink(created.id, seat.seat, seat.secret), t("created.qr", { name: name(seat.seat) }),
        el("button", { type: "button", class: "primary sit", "data-seat": seat.seat, text: t("created.sit", { name: name(seat.seat) }),
                       onclick: () => join({ id: created.id, seat: seat.seat, secret: seat.secret }) }))),
      inviteItem({ "data-seat": "spectator", class: "invite" }, t("created.spectator"), J.spectatorLink(created.id),
        t("created.qr_spectator"),
        el("button", { type: "button", id: "created-spectate", text: t("created.spectate"),
                       onclick: () => join({ id: created.id, seat: null, secret: null }) })));
    $("created-secrets").replaceChildren(...created.seats.map((seat) => el("li", {},
      `${t("advanced.secret")} ${seat.seat}: `, el("code", { class: "secret", text: seat.secret }))));
  }

  return { renderCreateForm, renderNames, renderOptions, updateOwnCards, createMatch, createdMatch, renderCreated };
};
