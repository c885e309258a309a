/* Per game: what lies on the table (drawn as it looks), how an action is entered, the grid. */
"use strict";

/* The entry in progress belongs to one state version: any change starts it afresh. */
function draft() {
  if (!S.draft || S.draft.version !== S.state.version) S.draft = {version: S.state.version};
  return S.draft;
}

/* A player changed the entry in progress (or the correction): drawn again, and kept until
   sent (the page does not load again meanwhile: reloadWhenUpgraded). */
function redraw(update) {
  update();
  if (S.draft) S.draft.touched = true;
  render();
}

/* A button showing a die (or a card): drawn bare, the die is its face. */
function faceButton(face, onclick, cls, attrs) {
  const shown = face instanceof Node ? face : String(face);
  const bare = shown instanceof Node && /\b(die|pip)\b/.test(shown.className || "");
  return button(shown, onclick, cls + (bare ? " bare" : ""), attrs);
}

/* A multiset of values: tap a key to add one, tap a chosen one to take it out. */
function picker(keys, chosen, max, onChange, face, keysClass) {
  const tray = chosen.map((id, i) => faceButton(face(id), () => onChange(chosen.filter((_, j) => j !== i)),
    "pick", {"aria-label": t("entry.remove", {what: labelOf(keys, id)})}));
  const full = chosen.length >= max;
  return el("div.picker", {},
    el("div.tray", {"aria-live": "polite"}, tray.length ? tray : el("span.muted", {text: t("entry.tap_to_add")}),
      el("span.count", {text: t("entry.count", {n: chosen.length, max})})),
    el("div.keys" + (keysClass ? "." + keysClass : ""), {}, keys.map((k) => faceButton(face(k.id), () => onChange([...chosen, k.id]), "key",
      {disabled: full, "aria-label": k.title || k.text}))));
}

function labelOf(keys, id) {
  const key = keys.find((k) => k.id === id);
  return key ? key.title || key.text : String(id);
}

/* Chosen positions among shown values. */
function toggles(values, chosen, allowed, onChange, face) {
  return el("div.tray", {}, values.map((value, i) => {
    const on = chosen.includes(i);
    return faceButton(face(value), () => onChange(on ? chosen.filter((j) => j !== i) : [...chosen, i]),
      "toggle" + (on ? " on" : ""), {"aria-pressed": on ? "true" : "false", disabled: !allowed(value, i)});
  }));
}

/* The grid of points per round and player (Dicy Cards, Dalek Dice). */
function scoreGrid(view, cell) {
  const rounds = Math.max(0, ...view.results.map((r) => r.round));
  if (!rounds) return null;
  const rows = [];
  for (let round = 1; round <= rounds; round++) {
    rows.push(el("tr", {}, el("th", {scope: "row", text: String(round)}), view.players.map((p) => {
      const result = view.results.find((r) => r.round === round && r.player === p);
      return result ? cell(result) : el("td.muted", {text: ""});
    })));
  }
  return el("div.scroll", {tabindex: 0, "aria-label": t("grid.title")}, el("table.grid", {},
    el("caption", {text: t("grid.title")}),
    el("thead", {}, el("tr", {}, el("th", {scope: "col", text: t("grid.round")}),
      view.players.map((p) => el("th", {scope: "col"}, swatch(p), " ", p)))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", {scope: "row", text: t("grid.total")}),
      view.players.map((p) => el("td", {text: String(view.scores[p])}))))));
}

/* ---------------- Dalek Dice ---------------- */

const FACES = ["H4", "H2", "D3", "D2", "DOC", "EXT"];
const FACE_LOOK = {H4: ["human", "4"], H2: ["human", "2"], D3: ["dalek", "3"], D2: ["dalek", "2"], DOC: ["doctor", ""], EXT: ["ext", ""]};
const faceKeys = () => FACES.map((f) => ({id: f, title: t("face." + f)}));

/* A Dalek die as it looks: its picture and its number. */
function die(face) {
  const [look, value] = FACE_LOOK[face];
  return el("span.die.f-" + face, {title: t("face." + face), role: "img", "aria-label": t("face." + face)},
    icon(look), value ? el("b", {text: value}) : null);
}

function dice(faces) {
  return faces.length ? faces.map(die) : [el("span.muted", {text: t("none")})];
}

const dalek = {
  kinds: ["roll", "keep", "stop"],

  status(view) {
    return t("status.round", {round: view.round});
  },

  target(view) {
    return view.target;
  },

  table(view) {
    const area = view.table;
    if (!area) return null;
    const top = ["DOC", "EXT"].map((face) => el("span.top", {"aria-label": t("dalek.top_n", {what: t("face." + face), n: area.top[face]})},
      [0, 1, 2].map((i) => (i < area.top[face] ? die(face) : el("span.die.empty.f-" + face, {"aria-hidden": "true"}, icon(FACE_LOOK[face][0])))),
      el("span.of", {text: area.top[face] + "/3"})));
    return el("section.area", {"aria-label": t("table.title")},
      el("div.line", {}, el("span.label", {text: t("dalek.top")}), top),
      el("div.line", {}, el("span.label", {text: t("dalek.kept")}), dice(area.kept)),
      el("p.sums", {},
        el("span.sum.humans", {}, icon("human"), t("dalek.humans", {n: area.humans})),
        el("span.sum.daleks", {}, icon("dalek"), t("dalek.daleks", {n: area.daleks})),
        el("span", {text: t("dalek.pool", {n: area.pool})})),
      area.rolled ? el("div.line.rolled", {}, el("span.label", {text: t("dalek.rolled")}), dice(area.rolled)) : null);
  },

  hints(hints) {
    if (!hints || hints.stop_points === undefined) return null;
    return [t("hint.stop", {n: hints.stop_points}),
      t("hint.roll", {n: hints.roll_expected.toLocaleString(S.lang, {maximumFractionDigits: 1})}),
      t("hint.doctor", {n: Math.round(hints.doctor_chance * 100)})];
  },

  entry(view) {
    const area = view.table;
    const d = draft();
    const parts = [];
    if (view.expects.includes("keep")) {
      d.keep = d.keep || [];
      const keepable = (f) => f !== "DOC" && f !== "EXT";
      const chosen = d.keep.map((i) => area.rolled[i]);
      const some = area.rolled.some(keepable);
      parts.push(el("h3", {text: t(some ? "dalek.keep_which" : "dalek.keep_nothing")}),
        some && toggles(area.rolled, d.keep, keepable, (keep) => redraw(() => { d.keep = keep; }), die),
        el("div.row", {},
          some && button(t("dalek.keep_all"), () => redraw(() => {
            d.keep = area.rolled.map((f, i) => i).filter((i) => keepable(area.rolled[i]));
          })),
          button(some ? t("dalek.keep_n", {n: chosen.length}) : t("dalek.go_on"), () => act({keep: chosen}), "primary")));
    }
    if (view.expects.includes("roll")) {
      d.roll = d.roll || [];
      parts.push(el("h3", {text: t("dalek.roll_what", {n: area.pool})}),
        picker(faceKeys(), d.roll, area.pool, (roll) => redraw(() => { d.roll = roll; }), die),
        el("div.row", {},
          button(t("entry.clear"), () => redraw(() => { d.roll = []; }), "", {disabled: !d.roll.length}),
          button(t("dalek.roll_n", {n: area.pool}), () => act({roll: d.roll}), "primary",
            {disabled: d.roll.length !== area.pool})));
    }
    if (view.expects.includes("stop")) parts.push(stopButton(area));
    return parts;
  },

  grid(view) {
    const mark = {"no-dice": () => el("small", {text: "+5"}), exterminate: () => icon("ext", t("ending.exterminate")),
      doctor: () => icon("doctor", t("ending.doctor"))};
    return scoreGrid(view, (r) => el("td.end-" + r.ending, {title: t("ending." + r.ending)},
      String(r.points), mark[r.ending] ? [" ", mark[r.ending]()] : null));
  },

  editor(kind, value, onChange) {
    if (kind === "stop") return null;
    const keys = faceKeys().filter((k) => kind === "roll" || (k.id !== "DOC" && k.id !== "EXT"));
    return picker(keys, Array.isArray(value) ? value : [], 10, onChange, die);
  },

  blank(kind) {
    return kind === "stop" ? {} : [];
  },
};

/* Stop says what it banks; it is the big button only when it banks something. */
function stopButton(area) {
  const banks = area.daleks >= area.humans ? area.humans : 0;
  const label = banks || !area.humans ? t("dalek.stop_bank", {n: banks})
    : t("dalek.stop_nothing", {humans: area.humans, daleks: area.daleks});
  return el("div.row.stop", {}, button(label, () => act({stop: {}}), banks ? "primary big" : "quiet"));
}

const GAMES = {dalek};

/* ---------------- Dicy Cards ---------------- */

const PIPS = [1, 2, 3, 4, 5, 6];
const pipKeys = () => PIPS.map((n) => ({id: n, text: String(n)}));
const pip = (n) => el("span.pip", {text: String(n)});
const cardName = (id) => t("card." + id);

/* Soft hyphens between the syllables (roughly: V-CV, VC-CV) of a long word, so that a card's
   name breaks cleanly in its narrow box. */
const VOWEL = "aeiouyáéíóúâêôãõàèìòù";
const SYLLABLE = new RegExp(`([${VOWEL}][^${VOWEL}\\s]?)(?=[^${VOWEL}\\s][${VOWEL}])`, "gi");
function breakable(name) {
  return name.split(" ").map((w) => (w.length < 7 ? w : w.replace(SYLLABLE, "$1\u00ad"))).join(" ");
}

/* A Dicy card as it lies on the table: its name, what it needs and scores; active or frozen. */
function dicyCard(id, state, owner) {
  const frozen = state === "frozen";
  return button([el("b", {text: breakable(cardName(id))}), KIOSK ? el("b.short", {text: t("cardshort." + id)}) : null,
    el("small", {text: breakable(t("cardinfo." + id))})],  // a TV's card too narrow for the name: its short form
    () => cardInfo(id), "dcard" + (frozen ? " frozen" : ""),
    {style: frozen ? null : {borderColor: colourOf(owner)},
      "aria-label": cardName(id) + " · " + t("dicy." + state) + " · " + t("cardinfo." + id)});
}

async function cardInfo(id) {
  let full = t("cardinfo." + id);
  try { full = (await rulesText()).cards[id]; } catch (e) { /* the short text is shown */ }
  showInfo(cardName(id), [full]);
}

function cardButtons(cards, chosen, onPick, extra) {
  return el("div.tray.cards", {}, cards.map((c) => button(cardName(c) + (extra ? extra(c) : ""), () => onPick(c),
    "toggle card" + (c === chosen ? " on" : ""), {"aria-pressed": c === chosen ? "true" : "false"})));
}

function activeCards(view, player) {
  return view.cards.filter((c) => view.rows[player][c] === "active");
}

function owedText(o) {
  return t("dicy.owes." + o.choice, {name: o.player, because: o.because === "skip" ? t("act.skip") : cardName(o.because)});
}

const dicy = {
  kinds: ["roll", "reroll", "score", "skip", "effect"],

  status(view) {
    const mode = view.mode ? (S.ui["dicy.mode." + view.mode] || view.mode) + " · " : "";
    return mode + t("status.round", {round: view.round});
  },

  target(view) {
    return view.target;
  },

  table(view) {
    return el("section.area", {"aria-label": t("table.title")},
      view.players.map((p) => el("div.cards-row" + (p === view.turn ? ".current" : ""), {},
        el("div.who", {}, swatch(p), " ", p),
        el("div.cardline", {}, view.cards.map((c) => dicyCard(c, view.rows[p][c], p))))),
      KIOSK ? null : dicy.underCards(view));
  },

  /* The dice, the rerolls and who must change a card: under the cards on a phone; above the
     score sheet on a TV, whose column the players' cards fill, the dice and the rerolls next to
     the sheet (a column that cannot hold all rests on its newest round: the dice in view too). */
  underCards(view) {
    const area = view.table;
    const dice = [area && area.dice ? el("div.line", {}, el("span.label", {text: t("dicy.dice")}), area.dice.map(pip)) : null,
      area && area.rerolls ? el("p", {text: t("dicy.rerolls", {n: area.rerolls,
        cards: area.frozen_to_reroll.map(cardName).join(", ")})}) : null];
    const owed = view.pending.map((o) => el("p.owed", {}, swatch(o.player), " ", KIOSK ? namesApart(owedText(o), view.players) : owedText(o)));
    return (KIOSK ? [...owed, ...dice] : [...dice, ...owed]).filter(Boolean);
  },

  hints(hints) {
    if (!hints || !hints.cards) return null;
    return Object.entries(hints.cards).map(([card, best]) => (best
      ? t("hint.card", {card: cardName(card), n: best.points, dice: best.dice.join(" ")})
      : t("hint.card_none", {card: cardName(card)})));
  },

  entry(view) {
    const d = draft();
    const area = view.table;
    const player = view.turn;
    if (view.expects.includes("effect")) {
      return view.pending.map((o) => el("div", {},
        el("h3", {}, swatch(o.player), " " + owedText(o)),
        cardButtons(o.eligible, null, (card) => act({effect: {player: o.player, card}}))));
    }
    if (view.expects.includes("roll")) {
      d.roll = d.roll || [];
      return [el("h3", {text: t("dicy.roll_what")}),
        picker(pipKeys(), d.roll, 6, (roll) => redraw(() => { d.roll = roll; }), pip),
        el("div.row", {},
          button(t("entry.clear"), () => redraw(() => { d.roll = []; }), "", {disabled: !d.roll.length}),
          button(t("dicy.roll"), () => act({roll: d.roll}), "primary", {disabled: d.roll.length !== 6}))];
    }
    const parts = [];  // the chosen tab's panel
    const can = (k) => view.expects.includes(k);
    const tabs = Boolean(area && area.dice);  // score, reroll or skip; with no dice, only skip
    d.tab = tabs ? d.tab || (can("score") ? "score" : can("reroll") ? "reroll" : "skip") : "skip";
    const active = activeCards(view, player);
    const best = (S.state.hints && S.state.hints.cards) || {};
    if (d.tab === "score") {
      d.pick = d.pick || [];
      parts.push(el("h3", {text: t("dicy.which_card")}),
        cardButtons(active, d.card, (card) => redraw(() => {
          d.card = card;
          const hint = best[card];
          d.pick = hint ? matchDice(area.dice, hint.dice) : [];
        }), (c) => (best[c] ? " · " + best[c].points : "")),
        el("h3", {text: t("dicy.which_dice")}),
        toggles(area.dice, d.pick, () => true, (pick) => redraw(() => { d.pick = pick; }), pip),
        button(d.card ? t("dicy.score_with", {card: cardName(d.card), n: d.pick.length}) : t("dicy.pick_card"),
          () => act({score: {card: d.card, dice: d.pick.map((i) => area.dice[i])}}), "primary big",
          {disabled: !d.card || !d.pick.length}));
    }
    if (d.tab === "reroll") {
      d.pick = d.pick || [];
      d.fresh = d.fresh || [];
      const kept = area.dice.filter((_, i) => !d.pick.includes(i));
      parts.push(el("h3", {text: t("dicy.freeze_which")}),
        cardButtons(active, d.card, (card) => redraw(() => { d.card = card; })),
        el("h3", {text: t("dicy.reroll_which")}),
        toggles(area.dice, d.pick, () => true, (pick) => redraw(() => { d.pick = pick; d.fresh = d.fresh.slice(0, pick.length); }), pip),
        d.pick.length ? el("h3", {text: t("dicy.reroll_what", {n: d.pick.length})}) : null,
        d.pick.length ? picker(pipKeys(), d.fresh, d.pick.length, (fresh) => redraw(() => { d.fresh = fresh; }), pip) : null,
        button(t("act.reroll"), () => act({reroll: {freeze: d.card, dice: [...kept, ...d.fresh]}}), "primary big",
          {disabled: !d.card || !d.pick.length || d.fresh.length !== d.pick.length}));
    }
    if (d.tab === "skip" && can("skip")) {
      parts.push(el("p", {text: tabs ? t("dicy.skip_explain") : t("dicy.skip_forced")}),
        button(t("act.skip"), () => act({skip: {}}), tabs ? "" : "primary big"));
    }
    return tabs ? [el("div.choices", {role: "tablist"}, ["score", "reroll", "skip"].filter(can).map((k) => button(t("act." + k),
      () => redraw(() => { d.tab = k; }), "choice" + (d.tab === k ? " on" : ""), {role: "tab", id: "dicy-" + k, "aria-controls": "dicy-panel",
        "aria-selected": d.tab === k ? "true" : "false", tabindex: d.tab === k ? null : -1}))),
    el("div", {role: "tabpanel", id: "dicy-panel", "aria-labelledby": "dicy-" + d.tab}, parts)] : parts;
  },

  grid(view) {
    return scoreGrid(view, (r) => {
      const name = r.what === "skip" ? t("act.skip") : cardName(r.card);
      return el("td", {title: name}, String(r.points), " ", el("small", {text: breakable(name)}),
        KIOSK ? el("small.short", {text: t("cardshort." + (r.what === "skip" ? "skip" : r.card))}) : null);  // a TV's column too narrow for the name
    });
  },

  rank(view, p) {
    return view.scores[p] * 10 + view.active[p];
  },

  editor(kind, value, onChange) {
    const facts = boot.facts.dicy;
    const v = value && typeof value === "object" ? value : {};
    const cards = (S.state.view && S.state.view.cards) || facts.cards;
    if (kind === "roll") return picker(pipKeys(), Array.isArray(value) ? value : [], 6, onChange, pip);
    if (kind === "skip") return null;
    if (kind === "effect") {
      return el("div", {},
        el("div.tray", {}, S.state.view.players.map((p) => button(p, () => onChange({...v, player: p}),
          "toggle" + (v.player === p ? " on" : ""), {"aria-pressed": v.player === p ? "true" : "false"}))),
        cardButtons(cards, v.card, (card) => onChange({...v, card})));
    }
    const key = kind === "reroll" ? "freeze" : "card";
    return el("div", {},
      cardButtons(cards, v[key], (card) => onChange({...v, [key]: card})),
      picker(pipKeys(), v.dice || [], 6, (chosen) => onChange({...v, dice: chosen}), pip));
  },

  blank(kind) {
    return {roll: [], reroll: {freeze: null, dice: []}, score: {card: null, dice: []}, skip: {},
      effect: {player: null, card: null}}[kind];
  },
};

/* Positions of ``wanted`` values among ``dice`` (each die used once). */
function matchDice(dice, wanted) {
  const free = dice.map((n, i) => i);
  return wanted.map((n) => {
    const at = free.findIndex((i) => dice[i] === n);
    return at < 0 ? -1 : free.splice(at, 1)[0];
  }).filter((i) => i >= 0);
}

/* ---------------- 17 ---------------- */

function cardName17(id) {
  return S.ui["c17." + id] || id;
}

/* A 17 card as it lies in the row: face up, face down (its number if it has one on the back),
   or a plain back while hidden. */
function rowCard(card) {
  const label = card.hidden ? "" : cardName17(card.card);
  const what = card.hidden ? t("c17.hidden") : label;
  return el("span.card17" + (card.face === "down" ? ".down" : "") + (card.hidden ? ".hidden" : ""),
    {style: {borderBottomColor: colourOf(card.player)}, role: "img",
      "aria-label": what + " · " + t("face17." + card.face) + " · " + t("c17.played_by", {name: card.player})},
    el("b", {text: card.hidden ? "?" : label}), el("small", {text: card.player}));
}

function tokens(view, p) {
  const tk = view.tokens[p];
  return "★" + tk.victory + " ✖" + tk.penalty;
}

/* ★ and ✖ said in words */
const tokenWords = (n, token) => t("c17." + token + "_n", {n});

const seventeen = {
  kinds: ["play", "call", "reveal"],

  status(view) {
    return t("status.round", {round: view.round}) + " · " + t("c17." + view.direction);
  },

  target(view) {
    return view.target;
  },

  total: tokens,

  totalSaid: (view, p) => tokenWords(view.tokens[p].victory, "victory") + ", " + tokenWords(view.tokens[p].penalty, "penalty"),

  progress(view, p) {
    return view.tokens[p].victory;
  },

  rank(view, p) {
    return view.tokens[p].victory * 100 - view.tokens[p].penalty;
  },

  table(view) {
    if (view.over) return null;
    const sum = view.row.reduce((s, c) => s + (c.hidden ? 0 : c.value), 0);
    const hidden = view.row.filter((c) => c.hidden).length;
    return el("section.area", {"aria-label": t("table.title")},
      el("div.line.row17", {}, view.row.length ? view.row.map(rowCard) : el("span.muted", {text: t("c17.row_empty")})),
      view.row.length ? el("p.sums", {text: hidden ? t("c17.shows_hidden", {n: sum, hidden}) : t("c17.shows", {n: sum})}) : null,
      view.trashed.length ? el("div.line.trashed", {}, el("span.label", {text: t("c17.trashed")}),
        view.trashed.map(rowCard)) : null,
      view.call ? el("p.sums", {}, el("b", {text: t("c17.called", {name: view.call.caller})})) : null,
      view.turn && view.plays_left > 1 ? el("p", {text: t("c17.plays_left", {name: view.turn, n: view.plays_left})}) : null);
  },

  hints(hints) {
    if (!hints || hints.known_sum === undefined) return null;
    return [t("hint.known_sum", {n: hints.known_sum, hidden: hints.hidden}),
      t("hint.chance_17", {n: Math.round(hints.chance_17 * 100)}),
      t("hint.trap", {n: Math.round(hints.trap_chance * 100)})];
  },

  entry(view) {
    const d = draft();
    const parts = [];
    const facts = boot.facts["17"];
    if (view.expects.includes("reveal")) {
      d.reveal = d.reveal || [];
      const n = view.call.to_reveal.length;
      parts.push(el("h3", {text: t("c17.reveal_what", {n})}),
        picker(facts.plain.map((c) => ({id: c, text: cardName17(c)})), d.reveal, n,
          (reveal) => redraw(() => { d.reveal = reveal; }), (c) => cardName17(c), "keys17"),
        button(t("act.reveal"), () => act({reveal: d.reveal}), "primary big", {disabled: d.reveal.length !== n}));
    }
    if (view.expects.includes("call")) {
      d.callers = d.callers || [];
      parts.push(el("div.call17", {},
        el("h3", {text: t("c17.who_called")}),
        el("div.tray", {}, view.may_call.map((p) => {
          const on = d.callers.includes(p);
          return button([swatch(p), " ", p], () => redraw(() => { d.callers = on ? d.callers.filter((q) => q !== p) : [...d.callers, p]; }),
            "toggle" + (on ? " on" : ""), {"aria-pressed": on ? "true" : "false"});
        })),
        el("div.row.end", {}, button(t("c17.call"), () => act({call: d.callers}), "primary shout", {disabled: !d.callers.length}))));
    }
    if (view.expects.includes("play")) {
      d.face = d.face || "up";
      const cards = Object.keys(facts.deck);
      parts.push(el("div.play17", {},
        el("h3", {text: t("c17.play_what", {name: view.turn})}),
        el("div.choices", {role: "radiogroup", "aria-label": t("c17.face")}, ["up", "down"].map((f) => button(t("c17.face_" + f),
          () => redraw(() => { d.face = f; }), "choice" + (d.face === f ? " on" : ""),
          {role: "radio", "aria-checked": d.face === f ? "true" : "false", tabindex: d.face === f ? null : -1}))),
        el("div.keys.keys17", {}, [
          d.face === "down" ? button(t("c17.unknown"), () => act({play: {face: "down"}}), "key unknown") : null,
          ...cards.map((c) => button(cardName17(c), () => act({play: {card: c, face: d.face}}), "key")),
        ])));
    }
    return parts;
  },

  grid(view) {
    if (!view.results.length) return null;
    // a name in a span of its own: on a TV a long one is shortened, its token kept
    const given = (r) => r.given.map((g, i) => [i ? ", " : "", el("span", {role: "img", "aria-label": g.player + ": " + tokenWords(1, g.token)},
      el("span", {text: g.player}), " " + (g.token === "victory" ? "★" : "✖"))]);
    return el("div.scroll", {tabindex: 0, "aria-label": t("grid.title")}, el("table.grid.grid17", {},
      el("caption", {text: t("grid.title")}),
      el("thead", {}, el("tr", {}, ["grid.round", "c17.caller", "c17.total", "c17.given"]
        .map((k) => el("th", {scope: "col", text: t(k)})))),
      el("tbody", {}, view.results.map((r) => el("tr", {},
        el("th", {scope: "row", text: String(r.round)}), el("td", {}, el("span", {text: r.caller})),
        el("td" + (r.reached_17 ? ".end-exterminate" : ""), {text: r.total + (r.reached_17 ? " ≥ 17" : " < 17")}),
        el("td.wrap", {}, given(r)))))));
  },

  editor(kind, value, onChange) {
    const facts = boot.facts["17"];
    if (kind === "call") {
      const chosen = Array.isArray(value) ? value : [];
      return el("div.tray", {}, S.state.view.players.map((p) => {
        const on = chosen.includes(p);
        return button(p, () => onChange(on ? chosen.filter((q) => q !== p) : [...chosen, p]),
          "toggle" + (on ? " on" : ""), {"aria-pressed": on ? "true" : "false"});
      }));
    }
    if (kind === "reveal") {
      return picker(facts.plain.map((c) => ({id: c, text: cardName17(c)})), Array.isArray(value) ? value : [], 20,
        onChange, (c) => cardName17(c), "keys17");
    }
    const v = value && typeof value === "object" ? value : {face: "up"};
    return el("div", {},
      v.card === null ? el("p.muted", {text: t("c17.enter_again")}) : null,
      el("div.choices", {}, ["up", "down"].map((f) => button(t("c17.face_" + f), () => onChange({...v, face: f}),
        "choice" + (v.face === f ? " on" : ""), {"aria-pressed": v.face === f ? "true" : "false"}))),
      el("div.keys.keys17", {}, [v.face === "down" ? button(t("c17.unknown"), () => onChange({face: "down"}),
        "key unknown" + (v.card === undefined ? " on" : "")) : null,
      ...Object.keys(facts.deck).map((c) => button(cardName17(c), () => onChange({...v, card: c}),
        "key" + (v.card === c ? " on" : ""), {"aria-pressed": v.card === c ? "true" : "false"}))]));
  },

  blank(kind) {
    return {play: {face: "up"}, call: [], reveal: []}[kind];
  },

  /* The table's record leaves out a face-down card that is still hidden: card null until it is entered again. */
  editable(kind, value) {
    return kind === "play" && value.face === "down" && !("card" in value) ? {face: "down", card: null} : value;
  },

  ready(kind, value) {
    return !(kind === "play" && value.card === null);
  },
};

GAMES.dicy = dicy;
GAMES["17"] = seventeen;
