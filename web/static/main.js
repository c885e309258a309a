/* Drawing the score pad from the state, and starting up. */
"use strict";

const TALL_BOARD = 0.4;  // a score board taller than this share of the screen does not stay on top
const KIOSK = document.body.classList.contains("kiosk");  // a TV (/kiosk): it only watches

function render() {
  keepingFocus(drawPad);
}

function drawPad() {
  syncBack();
  const view = S.state.view;
  const game = view && GAMES[view.game];
  document.getElementById("title").textContent = view ? boot.facts[view.game].title : "dicetable";
  document.body.classList.toggle("my-turn", Boolean(view && view.turn && view.turn === S.me));
  document.body.classList.toggle("no-game", !view);
  sayTurn(view);
  if (document.getElementById("menu").hidden) renderMenu();
  renderLanguages();
  const main = document.getElementById("screen");
  const board = document.getElementById("board");
  const join = S.screen === "join";
  document.getElementById("join").hidden = !join;
  main.hidden = join;
  board.hidden = !(view && S.screen === "pad");
  main.className = "";
  if (join) renderJoin();
  if (KIOSK) storyBesideJoin(view && storyBox(view));
  const screen = join || typeof menuScreen === "function" && menuScreen(main);
  headingTakesKeyboard();
  if (screen) return;
  if (!view) {
    if (KIOSK) standStill();  // the game abandoned: nothing turns
    main.replaceChildren(...[notices(), noGame(), buttonsPanel(view), cameraShown()].filter(Boolean));
    return;
  }
  board.setAttribute("aria-label", t("board.scores"));  // a landmark: the page's every part is in one
  board.replaceChildren(scoreboard(view, game));
  if (KIOSK) namesWhole(board);
  main.className = "pad";
  const playing = !view.over;
  // A TV only watches: the score sheet takes the column a phone enters moves in; where the
  // players' cards fill a TV's column (Dicy), the end's summary and what lies under the cards
  // go above the sheet, which scrolls in what they leave.
  // Two columns on a landscape tablet; on a phone one, in the order of the "order" classes.
  const beside = KIOSK && game.underCards;
  const under = beside ? game.underCards(view) : [];
  main.replaceChildren(
    el("div.col.see", KIOSK ? {tabindex: 0} : {}, [  // a TV's column scrolls where it must: reached by keys too
      notices(),
      buttonsPanel(view),
      view.over && !beside ? summary(view, game) : null,
      cameraShown(),
      game.table(view),
      KIOSK ? null : storyBox(view),
      KIOSK ? null : game.grid(view)].filter(Boolean)),
    el("div.col.do", {}, [
      view.over && beside ? summary(view, game) : null,
      under.length ? el("div.under-cards", {}, under) : null,
      KIOSK ? game.grid(view) : null,
      playing && !KIOSK ? (S.auth ? entry(view, game) : watchOnly()) : null,
      hintsBox(view, game),
      KIOSK ? null : actionsList(view, game)].filter(Boolean)));
  if (KIOSK) fitTv();
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
  // A TV has no input: it says where a game is started, beside its join code (large).
  if (KIOSK) {
    return el("section.panel.welcome", {}, el("h2", {text: t("pad.no_game")}), el("p", {text: t("pad.start_on_phone")}));
  }
  return el("section.panel.welcome", {},
    el("h2", {text: t("pad.no_game")}),
    S.auth ? button(t("menu.new"), openSetup, "primary big") : button(t("menu.pin"), askPin, "primary big ask-pin"),
    el("div.row", {}, button(t("menu.rules"), () => openRules(), ""), button(t("menu.stats"), openStats, "")));
}

/* The board's first line: whose turn, or who won. */
function turnWords(view) {
  return view.over ? t(view.winners.length > 1 ? "banner.winners" : "banner.winner", {names: view.winners.join(", ")})
    : !view.turn ? t("banner.reveal") : t(view.turn === S.me ? "banner.your_turn" : "banner.turn", {name: view.turn});
}

/* It is said once as it changes (#said, a polite live region), not at each redraw. */
function sayTurn(view) {
  const said = document.getElementById("said"), words = view ? turnWords(view) : "";
  if (said.textContent !== words) said.textContent = words;
}

/* The sticky score board: whose turn, every score, and how far each is from the target. */
function scoreboard(view, game) {
  const target = game.target(view);
  const who = view.over ? view.winners : view.turn ? [view.turn] : [];
  const turn = el("div.turn" + (view.over ? ".winner" : view.turn === S.me ? ".mine" : ""), {},
    who.map((w) => [swatch(w), " "]), turnWords(view));
  return el("div.board-in", {},
    el("div.board-top", {}, turn, el("span.status", {text: game.status(view) + " · " + t(view.game === "17" ? "c17.target" : "target", {n: target})})),
    el("ol.scores" + (view.game === "17" ? ".tokens" : ""), {}, view.players.map((p) => {
      const score = game.progress ? game.progress(view, p) : view.scores[p];
      const share = Math.max(0, Math.min(1, score / target));
      return el("li" + (p === view.turn ? ".turn" : ""), {"aria-current": p === view.turn ? "true" : null,
        style: {borderColor: p === view.turn ? "" : colourOf(p)}},
      el("span.name", {}, swatch(p), " ", p, p === S.me ? el("span.me", {text: t("pad.me")}) : null,
        view.winners.includes(p) ? el("span.crown", {text: " ★", role: "img", "aria-label": t("pad.won")}) : null),
      totalOf(view, game, p, "span.total"),
      el("span.meter", {"aria-hidden": "true"}, el("span", {style: {width: (share * 100).toFixed(0) + "%", background: colourOf(p)}})));
    })));
}

/* A TV's score board keeps each name whole on one line: its tiles as wide as its longest name
   (in rem: they keep it at any size of the TV), a name cut with "…" only where half the board
   cannot hold it (two tiles a row at least). */
function namesWhole(board) {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const widest = Math.max(...[...board.querySelectorAll(".scores .name")].map((e) => e.scrollWidth));
  board.style.setProperty("--name", (widest / rem).toFixed(2) + "rem");
}

/* A TV nobody scrolls: the score sheet keeps room for its heading, its names, its newest round
   and its totals. A column that cannot hold all it has by a line or less draws its parts closer
   (the sheet, at last, scrolls inside itself); one that cannot by more shows it all by itself,
   in turn: it rests where the sheet's newest round and totals are (its top where it has no
   sheet), at each new state at once, and turns half its height further, to its end and back.
   One timer turns them: PAN_MS after the state came, then every PAN_MS/2, the right column and
   the left one in turn (each only where it cannot hold all it has), so that the two never move
   at once, whenever each began to need it: a viewer reads one while the other stands still. */
const PAN_MS = 6000;
const turned = {see: 0, do: 0};  // how many times each column turned from its rest
let panning = null;  // the timer that turns them
let turnedFor = null;  // the state they turn for
function fitTv() {
  // a Dicy card's name wider than its card, a sheet's card name with a syllable wider than its
  // cell, a total wider than its cell: the short form, the sheet's names all at once (one
  // look), its numbers closer, measured all at once
  const cards = [...document.querySelectorAll(".dcard")];
  const sheetNames = [...document.querySelectorAll("main .grid td:has(> small.short) > small:not(.short)")];
  const grid = document.querySelector("main .grid");
  const totals = [...document.querySelectorAll("main .grid tfoot td")];
  cards.forEach((card) => card.classList.remove("narrow"));
  if (grid) grid.classList.remove("short-names", "dense", "denser");
  const wider = (e) => e.scrollWidth > e.clientWidth + 1;
  const narrow = cards.map((card) => wider(card.querySelector("b")));
  const shortNames = sheetNames.some(wider);
  const spills = (e) => e.scrollWidth > e.clientWidth;  // a digit past the cell's edge
  const dense = totals.some(spills);
  cards.forEach((card, i) => card.classList.toggle("narrow", narrow[i]));
  if (grid) grid.classList.toggle("short-names", shortNames);
  if (grid) grid.classList.toggle("dense", dense);
  if (dense) grid.classList.toggle("denser", totals.some(spills));  // measured again, closer
  if (S.state.version !== turnedFor) {  // a new move is seen where it lands
    turnedFor = S.state.version;
    standStill();
  }
  const sheet = document.querySelector("main .do > .scroll");
  const needed = sheet ? ["caption", "thead", "tbody tr:last-child", "tfoot"].map((part) => sheet.querySelector(part))
    .reduce((sum, e) => sum + (e ? e.getBoundingClientRect().height : 0), 2) : 0;
  if (sheet) sheet.style.minHeight = needed + "px";
  const line = 1.5 * parseFloat(getComputedStyle(document.documentElement).fontSize);
  const columns = [...document.querySelectorAll("main .col")];
  for (const column of columns) {
    column.classList.remove("tight");
    const over = () => column.scrollHeight - column.clientHeight;
    const before = over();
    if (before <= 1 || before > line) continue;
    column.classList.add("tight");
    const after = over();
    if (sheet && column.contains(sheet) && after > 1 && after <= line) sheet.style.minHeight = needed - after + "px";
  }
  const turns = columns.filter((column) => columnTurns(column, sheet).length > 1);
  const withSheet = turns.find((column) => column.contains(sheet));
  if (withSheet) restUncut(withSheet, sheet);
  const sides = turns.map(columnSide);
  for (const side of Object.keys(turned)) if (!sides.includes(side)) turned[side] = 0;
  if (!sides.length || document.hidden) standStill();
  else if (!panning) startTurning();
  turnColumns(false);
}

/* A turning column rests on its sheet's foot with no line above the sheet cut in half (who
   must reactivate a card, at 1024x768 in Spanish): the sheet takes the room of what is cut. */
function restUncut(column, sheet) {
  const rest = columnTurns(column, sheet)[0], top = column.getBoundingClientRect().top - column.scrollTop;
  const parts = [...column.querySelectorAll(":scope > :not(.under-cards, .scroll), .under-cards > *")];
  const cut = Math.max(0, ...parts.map((e) => e.getBoundingClientRect())
    .filter((box) => box.top - top < rest - 1 && box.bottom - top > rest + 1)
    .map((box) => box.bottom - top - rest));
  if (cut) sheet.style.minHeight = parseFloat(sheet.style.minHeight) + cut + "px";
}

function columnSide(column) {
  return column.classList.contains("do") ? "do" : "see";
}

/* The timer: PAN_MS after the state came, then every PAN_MS/2, the right column ("do") and
   the left one ("see") in turn, each turned only where it cannot hold all it has. */
function startTurning() {
  let tick = 0;
  const next = (wait) => {
    panning = setTimeout(() => {
      const side = tick % 2 ? "see" : "do";
      tick += 1;
      const column = document.querySelector("main .col." + side);
      if (column && columnTurns(column, document.querySelector("main .do > .scroll")).length > 1) {
        turned[side] += 1;
        turnColumns(true, side);
      }
      next(PAN_MS / 2);
    }, wait);
  };
  next(PAN_MS);
}

/* The columns rest: no timer, each at its rest when next drawn (a new state, no game, the TV's
   page hidden). */
function standStill() {
  clearTimeout(panning);
  panning = null;
  turned.see = turned.do = 0;
}

/* The TV's columns (or the one of ``side``) turned to where they stand now (``smooth``: a turn
   of its timer, smooth where the TV does not ask for less motion); nothing is measured anew. */
function turnColumns(smooth, side) {
  const sheet = document.querySelector("main .do > .scroll");
  const behavior = smooth && !matchMedia("(prefers-reduced-motion: reduce)").matches ? "smooth" : "instant";
  for (const column of document.querySelectorAll("main .col")) {
    if (side && columnSide(column) !== side) continue;
    const turns = columnTurns(column, sheet);
    column.scrollTo({top: turns[turned[columnSide(column)] % turns.length], behavior});
  }
}

/* Where a TV's column stands in turn (its scrollTop): first its rest, where the score sheet's
   foot is in view (its top where it has no sheet), then every half of its height, to its end. */
function columnTurns(column, sheet) {
  const end = column.scrollHeight - column.clientHeight, step = column.clientHeight / 2;
  const stops = end > 1 ? [...Array(Math.ceil(end / step) + 1).keys()].map((i) => Math.min(end, i * step)) : [0];
  const foot = sheet && column.contains(sheet)
    ? sheet.getBoundingClientRect().bottom - column.getBoundingClientRect().top + column.scrollTop : 0;
  const rest = Math.min(end, Math.max(0, Math.ceil(foot - column.clientHeight)));
  return [rest, ...stops.filter((top) => Math.abs(top - rest) > 1)];
}

/* A score; one of pictures (★ ✖) said in words. */
function totalOf(view, game, p, spec) {
  const said = game.totalSaid && game.totalSaid(view, p);
  return el(spec, {text: game.total ? game.total(view, p) : String(view.scores[p]), role: said && "img", "aria-label": said});
}

function entry(view, game) {
  const parts = game.entry(view) || [];
  return el("section.entry", {"aria-labelledby": "entry-title"},
    el("h2.sr", {id: "entry-title", text: t("entry.title")}),  // its questions' headings (h3) come under one
    parts,
    el("div.row.undo", {}, button(t("entry.undo"), undo, "quiet", {disabled: !view.actions})));
}

function watchOnly() {
  return el("p.watch", {}, t("pad.watching"), " ", button(t("menu.pin"), askPin, "ask-pin"));
}

function hintsBox(view, game) {
  if (!S.state.hints_on || !S.state.hints || view.over || !game.hints) return null;
  const lines = game.hints(S.state.hints, view);
  if (!lines || !lines.length) return null;
  return el("aside.hints", {"aria-label": t("hint.title")}, el("b", {text: t("hint.title")}),
    el("ul", {}, lines.map((line) => el("li", {}, line))));
}

/* What happened, in plain words: the last few actions, newest first. */
function storyBox(view) {
  const log = S.record && S.record.game_id === S.state.game_id ? S.record.log : [];
  if (!log.length) return null;
  return el("section.story", {"aria-label": t("story.title")},
    el("h2", {text: t("story.title")}),
    el("ol", {reversed: true}, log.slice(-4).reverse().map((e) => el("li", {},
      e.player ? swatch(e.player) : null, " ", shownSaid(e.text, e.said, KIOSK ? namesApart(e.text, view.players) : undefined)))));
}

/* A line's words with each player's name in a span.who of its own: a TV's narrow story keeps a
   long name on one line, shortened with "…" (whole on the score board), not broken inside;
   a name only as a whole word ("Dal", not the start of "Daleks"). */
function namesApart(text, players) {
  return text.split(namesFinder(players)).map((part, i) => (i % 2 ? el("span.who", {text: part}) : part));
}

/* The pattern that finds the players' names as whole words (the longest first), made once
   for a list of players. */
let finder = {players: "", pattern: null};
function namesFinder(players) {
  const key = JSON.stringify(players);
  if (finder.players !== key) {
    const names = players.slice().sort((a, b) => b.length - a.length).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    finder = {players: key, pattern: new RegExp("(?<![\\p{L}\\p{N}\\p{M}])(" + names.join("|") + ")(?![\\p{L}\\p{N}\\p{M}])", "u")};
  }
  return finder.pattern;
}

function summary(view, game) {
  const ranked = view.players.slice().sort((a, b) => (game.rank ? game.rank(view, b) - game.rank(view, a)
    : view.scores[b] - view.scores[a]));
  const wins = S.state.wins || {};
  return el("section.summary", {},
    el("h2", {text: t("summary.title")}),
    el("ol", {}, ranked.map((p) => el("li", {}, swatch(p), el("b", {text: p}), " ", totalOf(view, game, p, "span"),
      wins[p] ? el("small", {text: " · " + t("summary.wins", {n: wins[p]})}) : null))),
    el("div.row", {}, exportLinks(S.state.game_id)),
    S.auth ? el("div.row", {}, button(t("summary.rematch"), rematch, "primary big"),
      button(t("menu.new"), openSetup)) : null);
}

/* Every standing action, in words, each one correctable. */
function actionsList(view, game) {
  const details = el("details.actions", {ontoggle: (e) => {
    if (S.showActions !== e.target.open) { S.showActions = e.target.open; render(); }
  }},
    el("summary", {text: t("actions.title", {n: view.actions})}));
  details.open = Boolean(S.showActions) || Boolean(S.editing);
  if (!details.open) return details;
  const log = S.record && S.record.game_id === S.state.game_id ? S.record.log : null;
  if (!log) { details.append(el("p.muted", {text: t("loading")})); return details; }
  details.append(el("ol.lines", {}, log.map((entry, i) => el("li", {},
    el("span", {}, shownSaid(entry.text, entry.said)),
    S.auth && !S.editing ? button(t("actions.edit"), () => startCorrection(i), "small") : null,
    S.editing && S.editing.index === i ? corrector(game) : null))));
  return details;
}

function startCorrection(index, chain) {
  S.editing = {index, chain: chain || [], stands: standingUpTo(S.record, index)};
  render();
}

/* The game's actions up to ``index``, as one text: a correction holds while they stand. */
function standingUpTo(record, index) {
  return JSON.stringify([record.game_id, record.actions.slice(0, index + 1)]);
}

/* Another phone (or this one) undid or corrected what a correction was made on: it is closed,
   and says so, rather than replace an action its player never saw. */
function correctionStillStands(record) {
  const e = S.editing;
  if (!e || e.sending || standingUpTo(record, e.index) === e.stands) return;
  S.editing = null;
  toast(t("actions.changed_meanwhile"), "error");
}

function corrector(game) {
  const e = S.editing;
  if (!e.kind) {
    const line = S.record.actions[e.index];
    [e.kind] = Object.keys(line);
    e.value = game.editable ? game.editable(e.kind, line[e.kind]) : line[e.kind];
  }
  const value = game.editor(e.kind, e.value, (v) => redraw(() => { e.value = v; }), e);
  const ready = !game.ready || game.ready(e.kind, e.value);
  const chained = e.chain.length ? el("p.muted", {text: t("actions.fixing", {n: e.index + 1})}) : null;
  return el("div.corrector", {},
    chained,
    el("label", {}, t("actions.kind"), el("select", {onchange: (ev) => redraw(() => {
      e.kind = ev.target.value;
      e.value = game.blank(e.kind);
    })}, game.kinds.map((k) => el("option", {value: k, selected: k === e.kind, text: t("act." + k)})))),
    value,
    e.refused ? refusedBox(e) : null,
    el("div.row", {},
      button(t("cancel"), () => { S.editing = null; render(); }),
      button(t("actions.replace"), () => sendCorrection(), "primary", {disabled: !ready})));
}

/* The first change is the one the player made; the chain holds the later ones fixed in turn. */
async function sendCorrection(dropFrom) {
  const e = S.editing;
  const changes = [...e.chain, {index: e.index, line: {[e.kind]: e.value}}];
  const [first, ...then] = changes;
  const before = S.record.log.map((entry) => entry.text);
  const body = {index: first.index, line: first.line, then};
  if (dropFrom !== undefined) body.drop_from = dropFrom;
  e.sending = true;  // the change this correction makes is not one made meanwhile
  const done = await change("/api/correct", body, {refused: (data) => {
    e.refused = {index: data.refused.index, error: data.error};
    render();
    return true;
  }});
  e.sending = false;
  if (!done) { correctionStillStands(S.record); return; }  // a change that came meanwhile
  S.editing = null;
  const dropped = dropFrom === undefined ? "" : t("actions.dropped", {n: before.length - dropFrom});
  toast(t("actions.corrected", {n: first.index + 1, was: before[first.index]}) + dropped, "ok");
  render();
}

/* A correction made a later action illegal: fix that one in turn, or drop it and what follows. */
function refusedBox(e) {
  const r = e.refused;
  const later = S.record.log.slice(r.index);
  return el("div.refused", {role: "alert"},
    el("p", {text: sentence(r.error)}),
    el("p", {text: t("actions.refused_later", {n: r.index + 1})}),
    el("details", {}, el("summary", {text: t("actions.would_drop", {n: later.length})}),
      el("ol", {start: r.index + 1}, later.map((entry) => el("li", {}, shownSaid(entry.text, entry.said))))),
    el("div.row", {},
      button(t("actions.fix_next", {n: r.index + 1}), () => {
        const chain = [...e.chain, {index: e.index, line: {[e.kind]: e.value}}];
        startCorrection(r.index, chain);
      }, "primary"),
      button(t("actions.drop_from", {n: r.index + 1}), () => sendCorrection(r.index), "danger")));
}

/* The camera's part of the page: camera.js, fetched once the table has a camera. */
function cameraShown() {
  return S.state.camera && laterIn(self.cameraPanel, () => loadScript("camera.js")) ? cameraPanel() : null;
}

/* Opened from the menu, a screen takes the keyboard to its heading; closed, gives it to the menu's button. */
let keyboardIn = "pad";  // the screen whose heading has it
function headingTakesKeyboard() {
  const heading = document.querySelector(S.screen === "join" ? "#join h2" : "#screen h2");
  if (S.screen === "pad") { if (keyboardIn !== "pad") document.getElementById("menu-button").focus(); }
  else if (!heading) return;
  else { heading.tabIndex = -1; if (keyboardIn !== S.screen) heading.focus(); }  // (drawn again, it keeps it: keepingFocus)
  keyboardIn = S.screen;
}

/* The screens of the menu live in setup.js, fetched with their words when one is first opened. */
function later(name) {
  return async (...args) => {
    try {
      await Promise.all([loadScript("setup.js"), loadLater()]);
    } catch (e) { toast(t("error.network")); return; }
    return window[name](...args);
  };
}
const openSetup = later("setupScreen");
const openHistory = later("historyScreen");
const openAbandoned = later("abandonedScreen");
const openStats = later("statsScreen");
const openRules = later("rulesScreen");

function rematch() {
  return change("/api/game", {header: S.state.header, colours: S.state.colours});
}

async function abandonGame() {
  if (window.confirm(t("menu.abandon_confirm"))) await change("/api/abandon", {});
}

/* The join code (the QR, drawn by the server) and its title and way back, made once. */
function renderJoin() {
  const join = document.getElementById("join");
  if (!join.querySelector("h2")) { join.prepend(el("h2")); join.append(back()); }
  join.querySelector("h2").textContent = t("join.title");
  join.querySelector("button").textContent = t("back");
}

/* A TV's story, under its join code: in view whatever the game's columns hold. */
function storyBesideJoin(story) {
  const join = document.getElementById("join");
  const shown = join.querySelector(".story");
  if (shown) shown.remove();
  if (story) join.append(story);
}

/* The join code the table gives now ({url, qr}: its address and QR code, drawn by the server),
   in place of the one shown (a TV's kiosk page is never reloaded; the Pi's address changes). */
function showJoin(code) {
  const url = document.getElementById("join-url");
  if (url.textContent === code.url) return;
  url.textContent = code.url;
  document.querySelector("#join .qr").innerHTML = code.qr;
}

function back() {
  return el("div.row", {}, button(t("back"), () => { S.screen = "pad"; render(); }));
}

function exportLinks(id) {
  return [button(t("export.png"), () => resultPicture(id), "primary"),
    el("a.button", {href: "/export/" + id + ".csv", download: "", text: t("export.csv")}),
    el("a.button", {href: "/export/" + id + ".jsonl", download: "", text: t("export.jsonl")})];
}

async function resultPicture(id) {
  try {
    await loadScript("result.js");
    await shareResult(id);
  } catch (e) { toast(t("error.network")); }
}

/* The menu: drawn over the page below the bar, wherever the page is scrolled. */
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
    S.auth ? null : button(t("menu.pin"), then(askPin), "primary"),
    S.auth ? button(t("menu.new"), then(openSetup)) : null,
    S.auth && view && view.over ? button(t("summary.rematch"), then(rematch)) : null,
    button(t("menu.resume"), then(openAbandoned)),
    button(t("menu.rules"), then(() => openRules())),
    button(t("menu.stats"), then(openStats)),
    button(t("menu.history"), then(openHistory)),
    S.auth && view ? button(S.state.hints_on ? t("menu.hints_off") : t("menu.hints_on"),
      then(() => change("/api/hints", {on: !S.state.hints_on}))) : null,
    button(S.sound ? t("menu.sound_off") : t("menu.sound_on"), then(() => {
      S.sound = !S.sound;
      localStorage.setItem("sound", S.sound ? "on" : "off");
      cue("moment");
    })),
    button(t("menu.join"), go("join")),
    S.auth && boot.wifi_card ? el("a.button", {href: "/print/wifi-card.pdf?lang=" + S.lang, target: "_blank",
      rel: "noopener", text: t("menu.wifi_card"), onclick: closeMenu}) : null,
    S.auth ? button(t("menu.lock"), then(lock)) : null,
    S.auth && view && !view.over ? button(t("menu.abandon"), then(abandonGame), "danger") : null,
  ];
  menu.replaceChildren(...items.filter(Boolean));
}

function toggleMenu() {
  const menu = document.getElementById("menu");
  if (menu.hidden) renderMenu();
  menu.hidden = !menu.hidden;
  document.getElementById("menu-button").setAttribute("aria-expanded", menu.hidden ? "false" : "true");
  if (!menu.hidden) menu.querySelector("button, select").focus();
  syncBack();
}

/* Closed with the keyboard in it, the menu gives it to its button. */
function closeMenu() {
  const menu = document.getElementById("menu"), button = document.getElementById("menu-button");
  const had = menu.contains(document.activeElement);
  menu.hidden = true;
  button.setAttribute("aria-expanded", "false");
  if (had) button.focus();
}

/* The phone's Back closes what is open over the pad (the menu, a dialog, a screen of the
   menu) rather than leaving the page: a history entry is added when something opens. Closed
   by a tap instead, the entry stays; Back then finds nothing open and goes on back. */
function openOverPad() {
  return !document.getElementById("menu").hidden || S.screen !== "pad"
    || [...document.querySelectorAll("dialog")].some((d) => d.open);
}

function syncBack() {
  if (openOverPad() && !(history.state && history.state.open)) history.pushState({open: true}, "");
}

function onBack() {
  if (!openOverPad()) { history.back(); return; }
  for (const dialog of document.querySelectorAll("dialog")) if (dialog.open) dialog.close();
  closeMenu();
  S.screen = "pad";
  render();
}

function renderLanguages() {
  const select = document.getElementById("lang");
  select.setAttribute("aria-label", t("bar.language"));
  document.getElementById("menu-button").setAttribute("aria-label", t("bar.menu"));
  if (select.options.length) { select.value = S.lang; return; }
  for (const lang of boot.languages) select.append(el("option", {value: lang, text: lang.toUpperCase()}));
  select.value = S.lang;
  select.addEventListener("change", (e) => switchLanguage(e.target.value));
}

/* A score board taller than TALL_BOARD of the screen (large text, many players, a small
   phone) scrolls away with the page rather than hide the entry under it. */
function fitBoard() {
  const board = document.getElementById("board");
  const share = board.offsetHeight / innerHeight;  // (the address bar coming and going: a margin)
  if (share > TALL_BOARD) board.classList.add("tall");
  else if (share < TALL_BOARD - 0.05) board.classList.remove("tall");
}

/* Radios and tabs (ARIA): Tab reaches the chosen one (tabindex), arrows choose (tabs: ← →). */
const ARROWS = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};
function moveChoice(e) {
  const role = e.target.getAttribute("role"), step = ARROWS[e.key];
  if (!step || !(role === "radio" || (role === "tab" && /Left|Right/.test(e.key)))) return;
  const all = [...e.target.parentElement.children];
  const next = all[(all.indexOf(e.target) + step + all.length) % all.length];
  e.preventDefault();
  next.focus();
  next.click();
}

function start() {
  new ResizeObserver(fitBoard).observe(document.getElementById("board"));
  addEventListener("resize", fitBoard);
  if (KIOSK) addEventListener("resize", () => fitTv());
  document.getElementById("menu-button").addEventListener("click", (e) => {
    e.stopPropagation();
    toggleMenu();
  });
  document.addEventListener("click", (e) => {
    const menu = document.getElementById("menu");
    if (!menu.hidden && !menu.contains(e.target)) closeMenu();
  });
  document.addEventListener("keydown", moveChoice);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || document.getElementById("menu").hidden) return;
    closeMenu();
    document.getElementById("menu-button").focus();
  });
  document.getElementById("menu").addEventListener("focusout", (e) => {  // tabbed out of it
    const to = e.relatedTarget;
    if (to && !e.currentTarget.contains(to) && to.id !== "menu-button") closeMenu();
  });
  document.addEventListener("pointerdown", press, true);
  document.addEventListener("pointerup", lift, true);
  document.addEventListener("pointercancel", release, true);
  document.addEventListener("click", () => setTimeout(release), true);
  document.getElementById("toast").addEventListener("click", (e) => { e.currentTarget.hidden = true; });
  document.getElementById("pin-form").addEventListener("submit", sendPin);
  document.getElementById("pin-cancel").addEventListener("click", () => document.getElementById("pin-dialog").close());
  document.addEventListener("visibilitychange", () => {
    keepAwake();
    if (KIOSK && document.hidden) standStill();  // the TV's columns rest, turned again when seen
    if (!document.hidden) { watchStream(); refresh(); }
  });
  window.addEventListener("online", () => { connect(); refresh(); });
  window.addEventListener("popstate", onBack);
  setInterval(watchStream, 5000);
  setInterval(reloadWhenUpgraded, 2000);  // a dialog closed, an entry sent: free to load again
  loadRecord();
  keepAwake();
  render();
  connect();
  if (location.search === "?join=refused") {  // from a host link that is not the table's
    history.replaceState(null, "", "/");
    toast(t("join.refused"));
  }
}

start();
