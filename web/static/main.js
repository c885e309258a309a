/* Drawing the score pad from the state, and starting up. */
"use strict";

function render() {
  const view = S.state.view;
  const game = view && GAMES[view.game];
  document.getElementById("title").textContent = view ? boot.facts[view.game].title : "dicetable";
  document.body.classList.toggle("my-turn", Boolean(view && view.turn && view.turn === S.me));
  renderMenu();
  renderLanguages();
  const main = document.getElementById("screen");
  document.getElementById("join").hidden = S.screen !== "join";
  main.hidden = S.screen === "join";
  if (S.screen === "setup") {
    if (!main.querySelector(".setup")) renderSetup(main);
    return;
  }
  if (S.screen === "history") { renderHistory(main); return; }
  if (!view) { main.replaceChildren(...[notices(), noGame(), cameraPanel()].filter(Boolean)); return; }
  main.replaceChildren(...[
    notices(),
    banner(view),
    el("p.status", {text: game.status(view)}),
    players(view, game),
    game.table(view),
    cameraPanel(),
    S.auth ? entry(view, game) : watchOnly(view),
    hintsBox(view, game),
    game.grid(view),
    view.over ? summary(view, game) : null,
    actionsList(view, game)].flat().filter(Boolean));
}

/* What the host must be told (a damaged journal, a new PIN); a phone with the PIN dismisses it. */
function notices() {
  if (!S.notices || !S.notices.length) return null;
  return el("section.notices", {role: "alert"},
    S.notices.map((text) => el("p", {text})),
    S.auth ? button(t("notice.dismiss"), async () => {
      if (await post("/api/notices/dismiss", {})) { S.notices = []; render(); }
    }, "small") : null);
}

function noGame() {
  return el("section.card", {},
    el("p", {text: t("pad.no_game")}),
    S.auth ? button(t("menu.new"), openSetup, "primary big") : button(t("menu.pin"), askPin, "primary big"));
}

function banner(view) {
  if (view.over) {
    return el("div.banner.winner", {role: "status"},
      view.winners.map((w) => swatch(w)),
      t(view.winners.length > 1 ? "banner.winners" : "banner.winner", {names: view.winners.join(", ")}));
  }
  if (!view.turn) return null;
  const mine = view.turn === S.me;
  return el("div.banner" + (mine ? ".mine" : ""), {role: "status", style: {borderColor: colourOf(view.turn)}},
    swatch(view.turn), mine ? t("banner.your_turn", {name: view.turn}) : t("banner.turn", {name: view.turn}));
}

function players(view, game) {
  return el("ol.players", {}, view.players.map((p) => el("li" + (p === view.turn ? ".turn" : ""),
    {style: {borderLeftColor: colourOf(p)}, "aria-current": p === view.turn ? "true" : null},
    swatch(p),
    el("span.name", {text: p}),
    p === S.me ? el("span.me", {text: t("pad.me")}) : null,
    view.winners.includes(p) ? el("span.crown", {text: "★", title: t("pad.won")}) : null,
    el("span.total", {}, game.total ? game.total(view, p) : String(view.scores[p])))));
}

function entry(view, game) {
  if (view.over) return null;
  const parts = game.entry(view) || [];
  return el("section.entry", {"aria-label": t("entry.title")},
    parts,
    el("div.row.undo", {}, button(t("entry.undo"), () => act({undo: {}}), "", {disabled: !view.actions})));
}

function watchOnly(view) {
  if (view.over) return null;
  return el("p.watch", {}, t("pad.watching"), " ", button(t("menu.pin"), askPin));
}

function hintsBox(view, game) {
  if (!S.state.hints_on || !S.state.hints || view.over || !game.hints) return null;
  const lines = game.hints(S.state.hints, view);
  if (!lines || !lines.length) return null;
  return el("aside.hints", {"aria-label": t("hint.title")}, el("b", {text: t("hint.title")}),
    el("ul", {}, lines.map((line) => el("li", {}, line))));
}

function summary(view, game) {
  const ranked = view.players.slice().sort((a, b) => (game.rank ? game.rank(view, b) - game.rank(view, a)
    : view.scores[b] - view.scores[a]));
  const wins = S.state.wins || {};
  return el("section.summary", {},
    el("h2", {text: t("summary.title")}),
    el("ol", {}, ranked.map((p) => el("li", {}, swatch(p), el("b", {text: p}), " ",
      game.total ? game.total(view, p) : String(view.scores[p]),
      wins[p] ? el("small", {text: " · " + t("summary.wins", {n: wins[p]})}) : null))),
    el("div.row", {}, exportLinks(S.state.game_id)),
    S.auth ? el("div.row", {}, button(t("summary.rematch"), rematch, "primary big"),
      button(t("menu.new"), openSetup)) : null);
}

function actionsList(view, game) {
  const details = el("details.actions", {ontoggle: (e) => {
    S.showActions = e.target.open;
    if (e.target.open && !S.record) loadRecord();
  }}, el("summary", {text: t("actions.title", {n: view.actions})}));
  details.open = Boolean(S.showActions);
  if (!S.showActions) return details;
  if (!S.record) { details.append(el("p.muted", {text: t("loading")})); return details; }
  details.append(el("ol.lines", {}, S.record.map((line, i) => el("li", {},
    el("span", {text: describeLine(line)}),
    S.auth ? button(t("actions.edit"), () => { S.editing = {index: i, line}; render(); }, "small") : null,
    S.editing && S.editing.index === i ? corrector(game, i, line) : null))));
  return details;
}

function corrector(game, index, line) {
  const e = S.editing;
  if (!e.kind) {
    [e.kind] = Object.keys(line);
    e.value = game.editable ? game.editable(e.kind, line[e.kind]) : line[e.kind];
  }
  const value = game.editor(e.kind, e.value, (v) => redraw(() => { e.value = v; }), e);
  const ready = !game.ready || game.ready(e.kind, e.value);
  return el("div.corrector", {},
    el("label", {}, t("actions.kind"), el("select", {onchange: (ev) => redraw(() => {
      e.kind = ev.target.value;
      e.value = game.blank(e.kind);
    })}, game.kinds.map((k) => el("option", {value: k, selected: k === e.kind, text: t("act." + k)})))),
    value,
    el("div.row", {},
      button(t("cancel"), () => { S.editing = null; render(); }),
      button(t("actions.replace"), async () => {
        if (await change("/api/correct", {index, line: {[e.kind]: e.value}})) S.editing = null;
        render();
      }, "primary", {disabled: !ready})));
}

function renderLanguages() {
  const select = document.getElementById("lang");
  if (select.options.length) { select.value = S.lang; return; }
  for (const lang of boot.languages) select.append(el("option", {value: lang, text: lang.toUpperCase()}));
  select.value = S.lang;
  select.addEventListener("change", (e) => switchLanguage(e.target.value));
}

function start() {
  document.getElementById("menu-button").addEventListener("click", (e) => {
    const menu = document.getElementById("menu");
    menu.hidden = !menu.hidden;
    e.currentTarget.setAttribute("aria-expanded", menu.hidden ? "false" : "true");
  });
  document.getElementById("pin-form").addEventListener("submit", sendPin);
  document.getElementById("pin-cancel").addEventListener("click", () => document.getElementById("pin-dialog").close());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { watchStream(); refresh(); } });
  window.addEventListener("online", () => { connect(); refresh(); });
  setInterval(watchStream, 5000);
  render();
  connect();
}

start();
