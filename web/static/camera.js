/* The camera on the score pad: its state, what it saw (the picture, each read drawn on it),
   and its questions, answered with one tap. Fetched once the table has a camera. */
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function cameraPanel() {
  const camera = S.state.camera;
  if (!camera) return null;
  const teach = teachReady(camera) ? camera.teach : null;
  const status = cameraStatus(camera);
  const parts = [statusLine(status), ...troubleLines(camera, status)];
  if (teach && teach.lesson) {  // the camera's trouble too (the lesson's photos wait for it), its state unless well
    const trouble = status === "ok" ? parts.slice(1) : parts;
    return el("section.camera", {"aria-label": t("teach.title")}, teachPanel(teach.lesson, camera, trouble));
  }
  if (camera.note) parts.push(el("p.camera-note", {text: noteText(camera.note)}));
  if (camera.note && ["camera.no_sheet", "camera.covered", "camera.glare", "camera.flat"].includes(camera.note.key)) parts.push(sheetLinks(camera.note.params.game));
  if (camera.note && ["camera.moved", "camera.moved_dice", "camera.no_sheet", "camera.far", "camera.small", "camera.skewed", "camera.covered", "camera.glare", "camera.flat"].includes(camera.note.key) && S.auth) {
    parts.push(button(t("camera.recalibrate"), () => change("/api/camera/recalibrate", {}), "primary"));
  }
  if (camera.held) parts.push(el("p.camera-note", {text: t("camera.held", {player: camera.held.player})}));
  if (camera.reaching) parts.push(el("p.camera-note", {text: t("camera.reaching")}));
  if (camera.ask) parts.push(question(camera.ask));
  if (camera.seen) parts.push(picture(camera));
  if (teach && !(S.state.view && !S.state.view.over)) parts.push(teachEntry(teach));
  return el("section.camera", {"aria-label": t("camera.title")}, parts);
}

/* The camera's state as the pad says it: only pictures that cannot be read so far, it has
   started and says so. */
function cameraStatus(camera) {
  return camera.status === "starting" && camera.unreadable_why ? "sends_unreadable" : camera.status;
}

function statusLine(status) {
  return el("p.camera-status." + status, {role: "status"},
    el("span.dot", {"aria-hidden": "true"}), t("camera." + status));
}

/* What is wrong with the camera beside its state: why it is out, for the host to mend (it may
   name a folder the host gave the table); which picture could not be read and why, for the
   host (it names the picture's file), else that one could not be. */
function troubleLines(camera, status = cameraStatus(camera)) {
  const reasons = hostReasons(camera);
  const lines = reasonLines(reasons.why, "p.camera-why");
  const named = reasonLines(reasons.unreadable, "p.camera-unreadable");
  lines.push(...named);
  if (!named.length && camera.unreadable_why && status !== "sends_unreadable") lines.push(el("p.muted", {text: t("camera.unreadable")}));
  return lines;
}

/* Why the camera is out and why its last picture could not be read, with the folder, device
   or picture they name: the host's alone. The state every phone gets has only their keys, and
   a digest of their values; the values of both come in one GET /api/camera/why, asked when
   either is new or has new values; asked once more a second after a failed answer, and not
   while the PIN is asked for (getJSON: the table no longer knows this phone). A reason gone is
   forgotten (out again: asked again). A camera silent for some seconds (a stall) is counted on
   here each second from the answer. Gives each reason as known ({key, values, params}, params
   null until told), none while this phone has no PIN. */
function hostReasons(camera) {
  const known = S.why;
  const why = reasonNow(known && known.why, camera.status === "out" ? camera.why : null);
  const unreadable = reasonNow(known && known.unreadable, camera.unreadable_why);
  const same = known && known.why === why && known.unreadable === unreadable;
  const reasons = same ? known : {why, unreadable, asked: false, again: false, tries: 0};
  S.why = reasons;
  if (!S.auth) return {why: null, unreadable: null};
  const untold = [why, unreadable].some((reason) => reason && !reason.params);
  if (untold && (!reasons.asked || reasons.again)) askReasons(reasons);
  return reasons;
}

/* The reason the state gives (``given``), as it is known where it is the same (key and
   values), else not told yet; null without one. */
function reasonNow(known, given) {
  if (!given) return null;
  if (known && known.key === given.key && known.values === given.values) return known;
  return {key: given.key, values: given.values, params: null};
}

function askReasons(reasons) {
  reasons.asked = true;
  reasons.again = false;
  reasons.tries += 1;
  getJSON("/api/camera/why").then((data) => {
    if (S.why !== reasons) return;
    const told = [reasonTold(reasons.why, data.why), reasonTold(reasons.unreadable, data.unreadable)];
    if (told.some(Boolean)) render();
  }).catch(() => {
    if (S.why !== reasons) return;
    if (!S.auth) { S.why = null; return; }  // asked anew once the PIN is entered
    if (reasons.tries < 2) setTimeout(() => { if (S.why === reasons) { reasons.again = true; render(); } }, 1000);
  });
}

/* A reason's values as the table told them, where it is still the reason known and not yet
   told; true if so. */
function reasonTold(known, told) {
  if (!known || known.params || !told || told.key !== known.key) return false;
  known.params = told.params;
  // (the phone's clock of the day: its clock of the page stops while it sleeps; the seconds
  // are counted from its own now, whatever the table's clock says)
  if (typeof told.silent_s === "number") known.silentFrom = Date.now() - told.silent_s * 1000;
  return true;
}

/* A reason the host reads, once told: its line (``tag``), then the system's own words, in its
   language, where it gives them (an OS error, a picture the reader refused). */
function reasonLines(reason, tag) {
  if (!reason || !reason.params) return [];
  const lines = [el(tag, {text: whyWords(reason)})];
  const detail = reason.params.detail;
  if (detail) lines.push(el("p.camera-detail.muted", {text: t("camera.system_words", {detail})}));
  return lines;
}

/* The words of a known reason, the seconds of a silent camera counted to now; while they
   are shown, they are counted on each second. */
function whyWords(known) {
  if (known.silentFrom === undefined) return sentence(t(known.key, known.params));
  if (!S.whyTicker) S.whyTicker = setInterval(countSilence, 1000);
  const seconds = Math.floor((Date.now() - known.silentFrom) / 1000);
  return sentence(t(known.key, Object.assign({}, known.params, {seconds})));
}

function countSilence() {
  const shown = document.querySelector(".camera-why");
  const known = S.why && S.why.why;
  if (shown && known && known.params && known.silentFrom !== undefined) { shown.textContent = whyWords(known); return; }
  clearInterval(S.whyTicker);
  S.whyTicker = null;
}

function noteText(note) {
  const params = Object.assign({}, note.params);
  if (params.game) params.game = boot.facts[params.game] ? boot.facts[params.game].title : params.game;
  if (params.face) params.face = t("face." + params.face);
  return t(note.key, params);
}

/* Links to the game's printed sheet (PDF), on A4 and on US Letter paper. */
function sheetLinks(game) {
  const link = (paper, name) => el("a", {href: `/print/${game}-${paper}.pdf?lang=${S.lang}`, target: "_blank", rel: "noopener", text: name});
  return el("p.camera-note", {}, t("camera.sheet_print"), " ", link("a4", "A4"), " · ", link("letter", "Letter"));
}

/* What the camera saw: the picture, with a circle and the value of each die read (a die
   the camera is asked about is drawn orange with a "?"). Tap to enlarge. */
function picture(camera) {
  const seen = camera.seen;
  const asked = camera.ask ? camera.ask.circled : [];
  const overlay = svg("svg", {viewBox: `0 0 ${seen.width} ${seen.height}`, "aria-hidden": "true"});
  const view = S.state.view;
  const pips = !view || view.game === "dicy";  // Dalek faces and 17 cards are marks, not pips
  (pips ? seen.dice : []).forEach((die, i) => {
    const r = Math.max(14, (die.size || 40) * 0.8);
    const unsure = die.value === null || asked.includes(i);
    overlay.append(svg("circle", {cx: die.x, cy: die.y, r, class: unsure ? "unsure" : "sure"}));
    overlay.append(svg("text", {x: die.x + r * 0.75, y: die.y - r * 0.75, class: unsure ? "unsure" : "sure"},
      die.value === null ? "?" : String(die.value)));
  });
  (seen.marks || []).forEach((mark) => {
    const r = Math.max(14, mark.size * 0.7);
    const unsure = mark.text === null;
    overlay.append(svg("circle", {cx: mark.x, cy: mark.y, r, class: unsure ? "unsure" : "sure"}));
    overlay.append(svg("text", {x: mark.x + r * 0.75, y: mark.y - r * 0.75, class: unsure ? "unsure" : "sure"},
      unsure ? "?" : mark.text));
  });
  const values = sortedDice(seen.dice.map((d) => d.value));
  const figure = el("figure.seen" + (S.enlarged ? ".large" : ""), {
    role: "button", tabindex: "0", "aria-expanded": S.enlarged ? "true" : "false",
    onclick: () => { S.enlarged = !S.enlarged; render(); },
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); S.enlarged = !S.enlarged; render(); } },
  },
  el("div.frame", {},
    el("img", {src: "/api/camera/picture.jpg?n=" + camera.picture, alt: pips ? t("camera.picture_alt", {dice: values || t("none")}) : t("camera.saw_table")}),
    overlay),
  el("figcaption", {text: !pips ? t("camera.saw_table") : !seen.dice.length ? t("camera.saw_nothing")
    : S.enlarged ? t("camera.picture_alt", {dice: values}) : t("camera.saw", {dice: values})}));
  return figure;
}

/* Dice values high to low, "?" for a die the camera is not sure of. */
function sortedDice(values) {
  return values.slice().sort((a, b) => (b === null ? -1 : a === null ? 1 : b - a))
    .map((v) => (v === null ? "?" : v)).join(" ");
}

/* The camera's question: the words, and one button per answer (for a phone with the PIN). */
function question(ask) {
  const dice = sortedDice(ask.dice);
  const words = {
    values: t("camera.ask.values", {n: ask.circled.length}),
    freeze: t("camera.ask.freeze", {player: ask.player, dice}),
    nudge: t("camera.ask.nudge", {dice, was: sortedDice(ask.was || [])}),
    whose: t("camera.ask.whose", {player: ask.player, next: ask.next_player, dice}),
    correct: t("camera.ask.correct", {dice, reason: ask.reason ? (ask.reason[S.lang] || ask.reason.en) : ""}),
  }[ask.kind];
  const card = el("div.camera-ask", {role: "alert"}, el("p", {text: words}));
  if (!S.auth) {
    card.append(el("p.muted", {text: t("camera.ask.pin")}));
    return card;
  }
  const reply = (answer) => change("/api/camera/answer", {question: ask.id, answer});
  const choices = [];
  if (ask.kind === "values") choices.push(valueKeys(ask, reply));
  if (ask.kind === "freeze") {
    for (const c of ask.cards) choices.push(button(cardName(c), () => reply({card: c}), "primary"));
  }
  if ((ask.kind === "freeze" || ask.kind === "whose") && ask.next_player) {
    choices.push(button(t("camera.answer.next_roll", {player: ask.next_player}), () => reply({next_roll: true})));
  }
  if (ask.kind === "nudge") choices.push(button(t("camera.answer.rolled"), () => reply({rolled: true}), "primary"));
  choices.push(button(t(ask.kind === "nudge" ? "camera.answer.nudged" : "camera.answer.ignore"),
    () => reply({ignore: true})));
  card.append(el("div.row.wrap", {}, choices));
  return card;
}

/* One row of keys 1–6 per circled die; the answer goes once every circled die has a value. */
function valueKeys(ask, reply) {
  const d = draft();
  if (!d.values || d.values.length !== ask.circled.length) d.values = ask.circled.map(() => null);
  return el("div.values", {}, ask.circled.map((_, i) => el("div.row", {},
    el("span.label", {text: t("camera.die", {n: i + 1})}),
    [1, 2, 3, 4, 5, 6].map((v) => button(String(v), () => {
      d.values[i] = v;
      if (d.values.every((x) => x !== null)) reply({values: d.values.slice()});
      else render();
    }, "key" + (d.values[i] === v ? " on" : ""), {"aria-pressed": d.values[i] === v ? "true" : "false"})))));
}

/* Teach mode's script and words load the first time a phone with the PIN may use it. */
function teachReady(camera) {
  if (!camera.teach || !S.auth) return false;
  if (S.teachLang === S.lang && S.ui["teach.title"] !== undefined) return true;
  if (!S.teachLoading) loadTeach();
  return false;
}

async function loadTeach() {
  S.teachLoading = true;
  try {
    const lang = S.lang;
    await loadLater();
    if (typeof teachPanel === "undefined") {
      await new Promise((done, failed) => document.head.append(el("script", {src: "/static/teach.js", onload: done, onerror: failed})));
    }
    S.teachLang = lang;
    drawWhenFree();
  } catch (e) { /* tried again on the next update */ } finally { S.teachLoading = false; }
}
