/* The screens opened from the menu (fetched when first opened): set-up (game, players from the
   roster, order, colours, options), the games the table remembers (finished, abandoned),
   statistics and rules. */
"use strict";

/* The screen of the menu that is up, drawn in main; false when none is. Its words come with
   this script; a phone that switched language as they came says so until they are in. */
function menuScreen(main) {
  const draw = {setup: redrawSetup, history: renderHistory, abandoned: renderAbandoned, stats: renderStats}[S.screen];
  if (!draw) return false;
  if (laterIn(true)) draw(main);
  else main.replaceChildren(el("p.muted", {text: t("loading")}));
  return true;
}

function freshSetup() {
  const header = S.state.header;
  const names = header ? header.players : JSON.parse(localStorage.getItem("players") || "[]");
  const game = header ? header.game : "dalek";
  const players = (names.length ? names : ["", ""]).map((name) => ({name, colour: null}));
  const setup = {game, players, target: {}, mode: "glacial", cards: [], first: "", drawFirst: false, deck: {},
    palette: -1, roster: []};
  if (header) {
    if (header.target !== undefined) setup.target[game] = header.target;
    if (header.mode) setup.mode = header.mode;
    if (header.cards && !header.mode) { setup.mode = "custom"; setup.cards = header.cards.slice(); }
    if (header.deck) setup.deck = Object.assign({}, header.deck);
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

async function setupScreen() {
  S.setup = freshSetup();
  S.screen = "setup";
  render();
  try {
    S.setup.roster = (await getJSON("/api/stats")).players;
    if (S.screen === "setup") keepingFocus(() => renderSetup(document.getElementById("screen")));  // a name may be being typed
  } catch (e) { /* set-up works without the roster */ }
}

/* The set-up form, drawn again only when what it shows changed (a name may be being typed). */
function redrawSetup(main) {
  const form = main.querySelector(".setup");
  if (!form || form.dataset.drawn !== setupDrawn()) renderSetup(main);
}

function renderSetup(main) {
  const s = S.setup;
  const facts = boot.facts[s.game];
  const [least, most] = facts.players;
  const again = () => keepingFocus(() => renderSetup(main));
  const rows = s.players.map((p, i) => el("li.player-row", {},
    button("", () => { s.palette = s.palette === i ? -1 : i; again(); }, "swatch-button",
      {style: {background: boot.palette[p.colour]}, "aria-label": t("setup.colour_of", {n: i + 1})}),
    el("input", {value: p.name, maxlength: 24, placeholder: t("setup.player_n", {n: i + 1}),
      "aria-label": t("setup.player_n", {n: i + 1}), oninput: (e) => { p.name = e.target.value; renderFirst(s); markRoster(s); }}),
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
      oninput: (e) => { s.target[s.game] = e.target.value === "" ? undefined : Number(e.target.value); }})));
  if (s.game === "dicy") options.push(dicySetup(s, facts, again));
  if (s.game === "17") options.push(seventeenSetup(s, facts));

  const playing = S.state.view && !S.state.view.over;
  const named = new Set(s.players.map((p) => p.name.trim()));
  const known = s.roster.filter((p) => !named.has(p.name));
  main.replaceChildren(el("section.setup", {"data-drawn": setupDrawn()},
    el("h2", {text: t("setup.title"), tabindex: "-1"}),  // (drawn again with the roster: kept)
    el("div.choices", {role: "radiogroup", "aria-label": t("setup.game")}, boot.games.map((g) => button(boot.facts[g].title, () => {
      s.game = g;
      s.players.length = Math.min(Math.max(s.players.length, boot.facts[g].players[0]), boot.facts[g].players[1]);
      for (let i = 0; i < s.players.length; i++) s.players[i] = s.players[i] || {name: "", colour: null};
      fixColours(s);
      again();
    }, "choice" + (g === s.game ? " on" : ""), {role: "radio", "aria-checked": g === s.game ? "true" : "false", tabindex: g === s.game ? null : -1}))),
    el("h3", {text: t("setup.players", {min: least, max: most})}),
    el("ol.players-setup", {}, rows),
    button(t("setup.add"), () => { s.players.push({name: "", colour: null}); fixColours(s); again(); }, "",
      {disabled: s.players.length >= most}),
    known.length ? el("div.roster", {}, el("h3", {text: t("setup.roster")}),
      el("div.tray", {}, known.map((p) => button([el("span.swatch", {style: {background: boot.palette[p.colour]}, "aria-hidden": "true"}), " ", p.name],
        () => { addFromRoster(s, p); again(); }, "toggle", {"data-name": p.name,
        disabled: !s.players.some((q) => !q.name.trim()) && s.players.length >= most})))) : null,
    el("div.options", {}, options),
    playing ? el("p.warning", {text: t("setup.abandons")}) : null,
    el("div.row", {},
      button(t("cancel"), () => { S.screen = "pad"; render(); }),
      button(t("setup.start"), () => startGame(s), "primary big"))));
  renderFirst(s);
}

/* What the form's words depend on beyond its own fields: drawn again when it changes (only
   then, so that a name being typed keeps its place). */
function setupDrawn() {
  return S.lang + (S.state.view && !S.state.view.over ? " playing" : "");
}

/* A name typed is no longer offered by the roster. */
function markRoster(s) {
  const named = new Set(s.players.map((p) => p.name.trim()));
  for (const chip of document.querySelectorAll(".roster [data-name]")) chip.hidden = named.has(chip.dataset.name);
}

/* A name of the roster fills the first empty place, else a new one (with its colour if free). */
function addFromRoster(s, known) {
  let place = s.players.find((q) => !q.name.trim());
  if (!place) { place = {name: "", colour: null}; s.players.push(place); }
  place.name = known.name;
  const other = s.players.find((q) => q !== place && q.colour === known.colour);
  if (other) other.colour = place.colour;
  place.colour = known.colour;
  fixColours(s);
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
  if (shown) parts.push(el("div.cardline", {}, shown.map((c) => dicyCard(c, "active", null))));
  if (s.mode === "interglacial") parts.push(el("p.muted", {text: t("dicy.drawn")}));
  if (s.mode === "custom") {
    parts.push(el("div.tray.cards", {}, facts.cards.map((c) => {
      const on = s.cards.includes(c);
      return button(cardName(c), () => {
        s.cards = on ? s.cards.filter((x) => x !== c) : [...s.cards, c].slice(-5);
        again();
      }, "toggle card" + (on ? " on" : ""), {"aria-pressed": on ? "true" : "false"});
    })), el("p.count", {text: t("entry.count", {n: s.cards.length, max: 5})}));
  }
  return el("div", {}, parts);
}

/* 17's first player: chosen by name among the names typed now (or drawn by lot). */
function seventeenSetup(s, facts) {
  return el("div", {},
    el("label", {}, t("seventeen.first"), el("select", {id: "first", onchange: (e) => {
      const value = e.target.value;
      s.drawFirst = value === "\u0001draw";
      s.first = value.startsWith("\u0001") ? "" : value;
    }})),
    el("details", {}, el("summary", {text: t("seventeen.deck")}),
      el("div.deck", {}, Object.entries(facts.deck).map(([card, count]) => el("label.count-input", {},
        cardName17(card),
        el("input", {type: "number", min: 0, max: 99, inputmode: "numeric",
          value: s.deck[card] === undefined ? count : s.deck[card],
          oninput: (e) => { s.deck[card] = Number(e.target.value); }}))))));
}

/* Fill the first-player list with the names as they are typed; a choice whose name is gone
   goes back to "the first listed". */
function renderFirst(s) {
  const select = document.getElementById("first");
  if (!select) return;
  const names = [...new Set(s.players.map((p) => p.name.trim()).filter(Boolean))];
  if (s.first && !names.includes(s.first)) s.first = "";
  select.replaceChildren(
    el("option", {value: "\u0001listed", text: t("seventeen.first_listed")}),
    el("option", {value: "\u0001draw", selected: s.drawFirst, text: t("seventeen.first_drawn")}),
    ...names.map((n) => el("option", {value: n, selected: !s.drawFirst && n === s.first, text: n})));
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
  const playing = Boolean(S.state.view && !S.state.view.over);
  if (playing && !window.confirm(t("setup.abandon_confirm"))) return;
  // The game in progress is abandoned by the same change, only if the new one is taken.
  if (await change("/api/game", {header, colours, draw_first: s.game === "17" && s.drawFirst,
                                 abandon_current: playing})) {
    localStorage.setItem("players", JSON.stringify(header.players));
    S.screen = "pad";
    render();
  }
}

/* Finished games */
async function historyScreen() {
  S.screen = "history";
  S.history = null;
  render();
  try { S.history = await getJSON("/api/history"); } catch (e) { toast(t("error.network")); return; }
  render();
}

function renderHistory(main) {
  const data = S.history;
  const games = data ? data.games : [];
  main.replaceChildren(el("section.history", {},
    el("h2", {text: t("history.title")}),
    data ? null : el("p.muted", {text: t("loading")}),
    data && !games.length ? el("p.muted", {text: t("history.none")}) : null,
    el("ul.games", {}, games.map((g) => el("li", {},
      el("b", {text: (boot.facts[g.game] || {title: g.game}).title}), " · ", g.players.join(", "),
      el("br"), t("history.won", {names: g.winners.join(", ") || "—"}),
      g.ended_at ? " · " + new Date(g.ended_at).toLocaleString(S.lang) : "",
      el("div.row", {}, exportLinks(g.id))))),
    back()));
}

/* Abandoned games, to take up again */
async function abandonedScreen() {
  S.screen = "abandoned";
  S.abandoned = null;
  render();
  try { S.abandoned = (await getJSON("/api/abandoned")).games; } catch (e) { toast(t("error.network")); return; }
  render();
}

function renderAbandoned(main) {
  const games = S.abandoned;
  const playing = S.state.view && !S.state.view.over;
  main.replaceChildren(el("section.history", {},
    el("h2", {text: t("resume.title")}),
    games ? null : el("p.muted", {text: t("loading")}),
    games && !games.length ? el("p.muted", {text: t("resume.none")}) : null,
    playing ? el("p.warning", {text: t("resume.finish_first")}) : null,
    el("ul.games", {}, (games || []).map((g) => el("li", {},
      el("b", {text: (boot.facts[g.game] || {title: g.game}).title}), " · ",
      Object.entries(g.scores).map(([p, n]) => p + " " + n).join(", "),
      el("br"), t("resume.actions", {n: g.actions}),
      g.ended_at ? " · " + new Date(g.ended_at).toLocaleString(S.lang) : "",
      S.auth ? el("div.row", {}, button(t("resume.go"), async () => {
        if (await change("/api/resume", {game_id: g.id})) { S.screen = "pad"; render(); }
      }, "primary", {disabled: playing})) : null))),
    back()));
}

/* Statistics (drawn by stats.js, fetched when first opened) */
async function statsScreen() {
  S.screen = "stats";
  S.stats = null;
  render();
  try {
    await loadScript("stats.js");
    S.stats = await getJSON("/api/stats");
  } catch (e) { toast(t("error.network")); return; }
  render();
}

function renderStats(main) {
  if (!S.stats || typeof statsPage !== "function") {
    main.replaceChildren(el("p.muted", {text: t("loading")}));
    return;
  }
  main.replaceChildren(statsPage(S.stats), back());
}

/* Rules at hand */
async function rulesScreen(game) {
  const which = game || (S.state.view ? S.state.view.game : null);
  let rules;
  try { rules = await rulesText(); } catch (e) { toast(t("error.network")); return; }
  const games = which ? [which] : boot.games;
  showInfo(t("rules.title"), games.map((g) => el("section", {},
    el("h3", {text: boot.facts[g].title}),
    el("ul", {}, rules[g].map((line) => el("li", {text: line}))))));
}
