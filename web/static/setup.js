/* Set-up (game, players, order, colours, options), rematch, history and the menu. */
"use strict";

function freshSetup() {
  const header = S.state.header;
  const names = header ? header.players : JSON.parse(localStorage.getItem("players") || "[]");
  const game = header ? header.game : "dalek";
  const players = (names.length ? names : ["", ""]).map((name) => ({name, colour: null}));
  const setup = {game, players, target: {}, mode: "glacial", cards: [], first: "", drawFirst: false, deck: {},
    palette: -1};
  if (header) {
    if (header.target !== undefined) setup.target[game] = header.target;
    if (header.mode) setup.mode = header.mode;
    if (header.cards && !header.mode) { setup.mode = "custom"; setup.cards = header.cards.slice(); }
    if (header.deck) setup.deck = Object.assign({}, header.deck);
    if (header.first) setup.first = header.first;
  }
  players.forEach((p) => { p.colour = (S.state.colours || {})[p.name]; });
  fixColours(setup);
  return setup;
}

function fixColours(setup) {
  const taken = new Set();
  for (const p of setup.players) {
    if (p.colour === undefined || p.colour === null || taken.has(p.colour)) {
      p.colour = boot.palette.findIndex((c, i) => !taken.has(i));
    }
    taken.add(p.colour);
  }
}

function openSetup() {
  S.setup = freshSetup();
  S.screen = "setup";
  render();
}

function renderSetup(main) {
  const s = S.setup;
  const facts = boot.facts[s.game];
  const [least, most] = facts.players;
  const again = () => renderSetup(main);
  const rows = s.players.map((p, i) => el("li.player-row", {},
    button("", () => { s.palette = s.palette === i ? -1 : i; again(); }, "swatch-button",
      {style: {background: boot.palette[p.colour]}, "aria-label": t("setup.colour_of", {n: i + 1})}),
    el("input", {value: p.name, maxlength: 24, placeholder: t("setup.player_n", {n: i + 1}),
      "aria-label": t("setup.player_n", {n: i + 1}), oninput: (e) => { p.name = e.target.value; }}),
    button("↑", () => { move(s.players, i, -1); again(); }, "icon", {disabled: i === 0, "aria-label": t("setup.up")}),
    button("↓", () => { move(s.players, i, 1); again(); }, "icon",
      {disabled: i === s.players.length - 1, "aria-label": t("setup.down")}),
    button("✕", () => { s.players.splice(i, 1); s.palette = -1; again(); }, "icon",
      {disabled: s.players.length <= least, "aria-label": t("setup.remove")}),
    s.palette === i ? el("div.palette", {}, boot.palette.map((c, k) => button("", () => {
      const other = s.players.find((q) => q !== p && q.colour === k);
      if (other) other.colour = p.colour;
      p.colour = k;
      s.palette = -1;
      again();
    }, "swatch-button" + (k === p.colour ? " on" : ""), {style: {background: c}, "aria-label": t("colour." + k)}))) : null));

  const options = [];
  const target = s.target[s.game] === undefined ? facts.target : s.target[s.game];
  options.push(el("label", {}, t(s.game === "17" ? "setup.target_tokens" : "setup.target"),
    el("input", {type: "number", min: 1, max: 10000, value: target, inputmode: "numeric",
      oninput: (e) => { s.target[s.game] = Number(e.target.value); }})));
  if (s.game === "dicy") options.push(dicySetup(s, facts, again));
  if (s.game === "17") options.push(seventeenSetup(s, facts, again));

  const playing = S.state.view && !S.state.view.over;
  main.replaceChildren(el("section.setup", {},
    el("h2", {text: t("setup.title")}),
    el("div.choices", {role: "radiogroup"}, boot.games.map((g) => button(boot.facts[g].title, () => {
      s.game = g;
      s.players.length = Math.min(Math.max(s.players.length, boot.facts[g].players[0]), boot.facts[g].players[1]);
      for (let i = 0; i < s.players.length; i++) s.players[i] = s.players[i] || {name: "", colour: null};
      fixColours(s);
      again();
    }, "choice" + (g === s.game ? " on" : ""), {role: "radio", "aria-checked": g === s.game ? "true" : "false"}))),
    el("h3", {text: t("setup.players", {min: least, max: most})}),
    el("ol.players-setup", {}, rows),
    button(t("setup.add"), () => { s.players.push({name: "", colour: null}); fixColours(s); again(); }, "",
      {disabled: s.players.length >= most}),
    el("div.options", {}, options),
    playing ? el("p.warning", {text: t("setup.abandons")}) : null,
    el("div.row", {},
      button(t("cancel"), () => { S.screen = "pad"; render(); }),
      button(t("setup.start"), () => startGame(s), "primary big"))));
}

function move(list, i, step) {
  const [item] = list.splice(i, 1);
  list.splice(i + step, 0, item);
}

function dicySetup(s, facts, again) {
  const modes = [...facts.modes, "custom"];
  const parts = [el("label", {}, t("dicy.mode"), el("select", {onchange: (e) => { s.mode = e.target.value; again(); }},
    modes.map((m) => el("option", {value: m, selected: m === s.mode}, S.ui["dicy.mode." + m] || m))))];
  const shown = s.mode === "custom" ? null : s.mode === "glacial" ? facts.glacial : facts.presets[s.mode];
  if (shown) parts.push(el("p.muted", {text: shown.map((c) => t("card." + c)).join(", ")}));
  if (s.mode === "interglacial") parts.push(el("p.muted", {text: t("dicy.drawn")}));
  if (s.mode === "custom") {
    parts.push(el("div.tray", {}, facts.cards.map((c) => {
      const on = s.cards.includes(c);
      return button(t("card." + c), () => {
        s.cards = on ? s.cards.filter((x) => x !== c) : [...s.cards, c].slice(-5);
        again();
      }, "chip toggle" + (on ? " on" : ""), {"aria-pressed": on ? "true" : "false"});
    })), el("p.count", {text: t("entry.count", {n: s.cards.length, max: 5})}));
  }
  return el("div", {}, parts);
}

function seventeenSetup(s, facts, again) {
  const names = s.players.map((p) => p.name.trim()).filter(Boolean);
  return el("div", {},
    el("label", {}, t("seventeen.first"), el("select", {onchange: (e) => {
      const i = e.target.selectedIndex;
      s.drawFirst = i === 1;
      s.first = i > 1 ? names[i - 2] : "";
    }}, el("option", {text: t("seventeen.first_listed")}),
    el("option", {selected: s.drawFirst, text: t("seventeen.first_drawn")}),
    names.map((n) => el("option", {selected: !s.drawFirst && n === s.first, text: n})))),
    el("details", {}, el("summary", {text: t("seventeen.deck")}),
      el("div.deck", {}, Object.entries(facts.deck).map(([card, count]) => el("label.count-input", {},
        cardName17(card),
        el("input", {type: "number", min: 0, max: 99, inputmode: "numeric",
          value: s.deck[card] === undefined ? count : s.deck[card],
          oninput: (e) => { s.deck[card] = Number(e.target.value); }}))))));
}

function setupHeader(s) {
  const facts = boot.facts[s.game];
  const header = {game: s.game, players: s.players.map((p) => p.name.trim())};
  const target = s.target[s.game];
  if (target !== undefined && target !== facts.target) header.target = target;
  if (s.game === "dicy") {
    if (s.mode === "custom") header.cards = s.cards.slice();
    else header.mode = s.mode;
  }
  if (s.game === "17") {
    if (!s.drawFirst && s.first && header.players.includes(s.first)) header.first = s.first;
    const deck = {};
    for (const [card, count] of Object.entries(s.deck)) if (count !== facts.deck[card]) deck[card] = count;
    if (Object.keys(deck).length) header.deck = deck;
  }
  return header;
}

async function startGame(s) {
  const header = setupHeader(s);
  const colours = {};
  s.players.forEach((p) => { colours[p.name.trim()] = p.colour; });
  if (S.state.view && !S.state.view.over) {
    if (!window.confirm(t("setup.abandon_confirm"))) return;
    if (!await change("/api/abandon", {})) return;
  }
  if (await change("/api/game", {header, colours, draw_first: s.game === "17" && s.drawFirst})) {
    localStorage.setItem("players", JSON.stringify(header.players));
    S.screen = "pad";
    render();
  }
}

function rematch() {
  return change("/api/game", {header: S.state.header, colours: S.state.colours});
}

async function abandonGame() {
  if (window.confirm(t("menu.abandon_confirm"))) await change("/api/abandon", {});
}

/* History */
async function openHistory() {
  S.screen = "history";
  render();
  const response = await fetch("/api/history", {credentials: "same-origin"}).catch(() => null);
  if (!response || !response.ok) { toast(t("error.network")); return; }
  S.history = await response.json();
  render();
}

function renderHistory(main) {
  const data = S.history;
  const games = data ? data.games.slice().reverse() : [];
  main.replaceChildren(el("section.history", {},
    el("h2", {text: t("history.title")}),
    data ? null : el("p.muted", {text: t("loading")}),
    data && !games.length ? el("p.muted", {text: t("history.none")}) : null,
    el("ul.games", {}, games.map((g) => el("li", {},
      el("b", {text: (boot.facts[g.game] || {title: g.game}).title}), " · ", g.players.join(", "),
      el("br"), t("history.won", {names: g.winners.join(", ") || "—"}),
      g.ended_at ? " · " + new Date(typeof g.ended_at === "number" ? g.ended_at * 1000 : g.ended_at).toLocaleString(S.lang) : "",
      el("div.row", {}, exportLinks(g.id))))),
    data && Object.keys(data.wins).length ? winsTable(data.wins) : null,
    el("div.row", {}, button(t("back"), () => { S.screen = "pad"; render(); }))));
}

function exportLinks(id) {
  return [el("a.button", {href: "/export/" + id + ".jsonl", download: "", text: t("export.jsonl")}),
    el("a.button", {href: "/export/" + id + ".csv", download: "", text: t("export.csv")})];
}

function winsTable(wins) {
  const names = Object.keys(wins).sort((a, b) => wins[b] - wins[a]);
  return el("div", {}, el("h3", {text: t("history.wins")}),
    el("ul.wins", {}, names.map((n) => el("li", {}, n + ": " + wins[n]))));
}

/* The menu */
function renderMenu() {
  const menu = document.getElementById("menu");
  const view = S.state.view;
  const players = view ? view.players : [];
  const go = (screen) => () => { closeMenu(); S.screen = screen; render(); };
  const then = (f) => () => { closeMenu(); f(); };
  const items = [
    el("label", {}, t("menu.me"), el("select", {id: "me", onchange: (e) => {
      S.me = e.target.value;
      localStorage.setItem("me", S.me);
      render();
    }}, el("option", {value: "", text: t("menu.nobody")}),
    players.map((p) => el("option", {value: p, selected: p === S.me, text: p})))),
    button(t("menu.pad"), go("pad")),
    S.auth ? button(t("menu.lock"), then(lock)) : button(t("menu.pin"), then(askPin)),
    S.auth ? button(t("menu.new"), then(openSetup)) : null,
    S.auth && view && view.over ? button(t("summary.rematch"), then(rematch)) : null,
    S.auth && view ? button(S.state.hints_on ? t("menu.hints_off") : t("menu.hints_on"),
      then(() => change("/api/hints", {on: !S.state.hints_on}))) : null,
    S.auth && view && !view.over ? button(t("menu.abandon"), then(abandonGame), "danger") : null,
    button(t("menu.history"), then(openHistory)),
    button(t("menu.join"), go("join")),
  ];
  menu.replaceChildren(...items.filter(Boolean));
}

function closeMenu() {
  document.getElementById("menu").hidden = true;
  document.getElementById("menu-button").setAttribute("aria-expanded", "false");
}
