/* dicetable score pad: the shared core (state, words, elements, server calls, live stream).
   Everything shown is built with textContent: nothing from the server is parsed as HTML. */
"use strict";

const boot = JSON.parse(document.getElementById("boot").textContent);

const S = {
  state: boot.state,        // the payload: version, live, run, game_id, header, view, hints, colours, wins, camera, buttons, notices_version
  auth: boot.auth,
  notices: boot.notices,    // what the host must be told since the table started
  csrf: boot.csrf,
  ui: boot.ui,
  lang: boot.lang,
  me: localStorage.getItem("me") || "",
  sound: localStorage.getItem("sound") === "on",
  screen: "pad",
  draft: null,              // the entry in progress: {version, touched, ...}
  record: null,             // {version, actions, log} of the game in progress (corrections, the log)
  editing: null,            // a correction being entered: {index, kind, value, chain, refused}
  posting: null,            // the answer of the change on its way (made on busyState, asking busyKey)
  busyState: null,
  busyKey: "",
  pressed: false,           // a finger is down: held, drawLater wait
  pressTimer: 0,
  held: null,
  drawLater: false,
  seen: Date.now(),
  stream: null,
  why: null,                // why the camera is out and why its last picture could not be read,
                            // with their values (the host's): {why, unreadable, ...} (camera.js)
};

/* Words: t(KEY, {n: 1}) takes KEY + ".one" when n is 1 and the catalog has it. */
function t(key, params) {
  let text = params && params.n === 1 && S.ui[key + ".one"] !== undefined ? S.ui[key + ".one"] : S.ui[key];
  if (text === undefined) text = key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }
  return text;
}

/* Elements: el("button.primary", {onclick: f}, "text", child, ...) */
function el(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  const node = document.createElement(tag || "div");
  if (classes.length) node.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") Object.assign(node.style, value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/* Words shown with pictures (17's ★ ✖), said as the server put them in words where it did;
   shown as given in ``shown`` (the same words, in parts) where given. */
function shownSaid(text, said, shown = [text]) {
  return said ? [el("span", {"aria-hidden": "true"}, shown), el("span.sr", {text: said})] : shown;
}

/* An icon of the page's sprite (Dalek faces), said as its label if given. */
function icon(name, label) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "ic");
  if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); } else svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", "#i-" + name);
  svg.append(use);
  return svg;
}

function button(label, onclick, cls, attrs) {
  return el("button" + (cls ? "." + cls.split(" ").join(".") : ""), Object.assign({type: "button", onclick}, attrs), label);
}

/* Draw again with f(), the keyboard kept where it was. */
function keepingFocus(f) {
  const back = focusMark(document.activeElement);
  f();
  if (!document.activeElement || document.activeElement === document.body) back();
}

/* Gives the keyboard back to ``had`` or, drawn anew, its like (same words, kind, place). */
function focusMark(had) {
  const area = document.getElementById("screen");
  const key = (e) => [e.tagName, e.getAttribute("aria-label") || e.textContent.trim(),
    e.className.replace(/\bon\b/, "").trim()].join("|");
  const likes = (k) => [...area.querySelectorAll("button, select, input, summary, a[href], [tabindex]")]
    .filter((e) => key(e) === k);
  if (!had || had === document.body || !area.contains(had)) return () => {};
  const kept = key(had), place = likes(kept).indexOf(had);
  const caret = typeof had.selectionStart === "number" ? [had.selectionStart, had.selectionEnd] : null;
  return () => {
    const again = likes(kept), found = again[Math.min(place, again.length - 1)];
    if (!found) return;
    found.focus({preventScroll: true});
    if (caret && typeof found.selectionStart === "number") found.setSelectionRange(...caret);  // typing goes on where it was
  };
}

/* Closed, a dialog gives the keyboard back to what opened it, drawn anew or not. */
function showDialog(dialog) {
  if (!dialog.open) {
    const back = focusMark(document.activeElement);
    dialog.addEventListener("close", () => {
      if (document.activeElement === document.body || dialog.contains(document.activeElement)) back();
    }, {once: true});
    dialog.showModal();
  }
  syncBack();
}

function colourOf(name) {
  const index = (S.state.colours || {})[name];
  return boot.palette[index === undefined ? 0 : index];
}

function swatch(name) {
  return el("span.swatch", {style: {background: colourOf(name)}, "aria-hidden": "true"});
}

/* A message at the top: an error stays until the next success, a tap or 8 s; "ok" goes after 3.5 s. */
function toast(message, kind) {
  const box = document.getElementById("toast");
  box.textContent = sentence(message);
  box.className = "toast " + (kind || "error");
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, kind === "ok" ? 3500 : 8000);
}

/* A message of the engine starts in lower case: shown alone, it starts with a capital. */
function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/* The message at the top goes where it is still ``message`` (one shown since stays) or, with
   none given, where it is an error (a success takes those down, not an "ok"). */
function untoast(message) {
  const box = document.getElementById("toast");
  const still = message === undefined ? box.classList.contains("error") : box.textContent === sentence(message);
  if (!box.hidden && still) { box.hidden = true; clearTimeout(toast.timer); }
}

/* The server, one change at a time: a tap made on the screen of the change on its way, or
   asking the same again, is a double tap (dropped); one on a screen drawn since waits its turn. */
async function post(url, body, options) {
  const key = url + " " + JSON.stringify(body || {});
  while (S.posting) {
    if (!newer(S.state, S.busyState) || key === S.busyKey) return null;
    await S.posting;
  }
  S.busyState = S.state;
  S.busyKey = key;
  document.body.classList.add("busy");
  S.posting = send(url, body, options);
  try {
    return await S.posting;
  } finally {
    S.posting = null;
    document.body.classList.remove("busy");
  }
}

/* One POST: its answer applied, a refusal told (with the table's state where it brings it: a
   stale change, a doubted teach photo); null unless taken. Never throws. A refusal naming what
   to fix (``refused``: a correction's later action, a doubted teach photo) goes to
   options.refused, which returns true where it shows it itself. */
async function send(url, body, options) {
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": S.csrf},
      body: JSON.stringify(body || {}),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (data.csrf) S.csrf = data.csrf;
    if (response.ok) {
      untoast();  // a success: the error up goes
      if (data.state) apply(data.state);
      return data;
    }
    if (data.state) apply(data.state);  // the table's as it refused, whatever the status
    if (response.status === 401) signedOut();
    if (response.status === 403 && !url.startsWith("/auth/")) refresh();
    if (options && options.refused && data.refused && options.refused(data)) return null;
    toast(data.error || t(response.status === 413 ? "error.http413" : "error.http500"));
    return null;
  } catch (e) {  // no answer: did the table take it? The state it has now tells
    const base = body && body.base_version;
    const moved = await refresh(3000) && base !== undefined && S.state.version !== base;
    toast(t(moved ? "error.network_unsure" : "error.network"));
    return null;
  }
}

function change(path, body, options) {
  return post(path, Object.assign({base_version: S.state.version}, body), options);
}

function act(line) {
  return change("/api/action", {line});
}

/* Undo, confirmed with what it took back. */
async function undo() {
  const log = S.record && S.record.game_id === S.state.game_id ? S.record.log : [];
  const last = log[log.length - 1];
  if (await act({undo: {}})) toast(last ? t("undo.done", {what: last.said || last.text}) : t("undo.done_plain"), "ok");
}

/* One GET's answer; throws on a refusal (its status as the message) or no answer. A 401 asks
   for the PIN, as a POST's does (send). */
async function getJSON(url, timeoutMs) {
  const response = await fetch(url, {credentials: "same-origin", cache: "no-store",
    signal: timeoutMs ? abortedAfter(timeoutMs) : undefined});
  if (response.status === 401) signedOut();
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

/* A signal that aborts after ms, as AbortSignal.timeout's (which Safari 15 and Chrome 90 lack). */
function abortedAfter(ms) {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

/* The table's state fetched and applied (within timeoutMs, when given); false when the table
   cannot be reached. */
async function refresh(timeoutMs) {
  try {
    const data = await getJSON("/api/state", timeoutMs);
    S.auth = data.auth;
    S.notices = data.notices;
    S.csrf = data.csrf;
    apply(data.state, true);
    return true;
  } catch (e) {
    return false;  // the stream's retry brings the state back
  }
}

/* The live stream: the current state on every (re)connect, then every change; and the join
   code at every (re)connect and whenever the table's address changes. */
function connect() {
  if (S.stream) S.stream.close();
  const stream = new EventSource("/events");
  S.stream = stream;
  stream.addEventListener("state", (e) => {
    S.seen = Date.now();
    setConnected(true);
    apply(JSON.parse(e.data));
  });
  stream.addEventListener("beat", () => { S.seen = Date.now(); setConnected(true); });
  stream.addEventListener("join", (e) => showJoin(JSON.parse(e.data)));
  stream.onopen = () => { S.seen = Date.now(); setConnected(true); };
  stream.onerror = () => {
    setConnected(false);
    if (stream.readyState === EventSource.CLOSED && S.stream === stream) {
      setTimeout(() => { if (S.stream === stream) connect(); }, 3000);
    }
  };
}

function watchStream() {
  const quiet = Date.now() - S.seen;
  if (quiet > boot.heartbeat * 2500 || !S.stream || S.stream.readyState === EventSource.CLOSED) {
    S.seen = Date.now();
    connect();
  }
}

/* A stream that ends and comes back within a few seconds (its lifetime, a blip) is not shown. */
function setConnected(on) {
  if (!on) {
    if (!setConnected.timer) {
      setConnected.timer = setTimeout(() => { setConnected.timer = null; showConnected(false); }, 2500);
    }
    return;
  }
  clearTimeout(setConnected.timer);
  setConnected.timer = null;
  showConnected(true);
}

/* A screen drawn between press and release would swallow the tap: while a finger is down (up
   to 2 s; not while a change is on its way), new states wait until the tap has gone. */
function press(e) {
  if (!e.isPrimary || S.posting) return;
  S.pressed = true;
  clearTimeout(S.pressTimer);
  S.pressTimer = setTimeout(release, 2000);
}

function lift(e) {
  if (!e.isPrimary || !S.pressed) return;
  clearTimeout(S.pressTimer);
  S.pressTimer = setTimeout(release, 300);  // after its click
}

function release() {
  clearTimeout(S.pressTimer);
  S.pressed = false;
  const held = S.held, later = S.drawLater;
  S.held = null;
  S.drawLater = false;
  if (held) apply(held.payload, held.forced);  // drawn when newer
  if (later) render();
}

function drawWhenFree() {
  if (S.pressed) S.drawLater = true;
  else render();
}

function showConnected(on) {
  const dot = document.getElementById("conn");
  dot.className = "conn " + (on ? "on" : "off");
  dot.title = on ? t("live.on") : t("live.off");
  dot.textContent = on ? "" : t("live.off");
}

/* Every state a table makes has a larger "live" (camera news too, which keeps "version"); a
   table started anew (another "run") may count from less: its clock may have gone back. */
function newer(payload, than) {
  return payload.run !== than.run || (payload.live || 0) > (than.live || 0);
}

/* Applying a new state: keep the newest, fetch the game's story, draw again. */
function apply(payload, forced) {
  if (S.pressed) {
    const held = S.held;
    if (forced || !held || newer(payload, held.payload)) {
      S.held = {payload, forced: Boolean(forced || (held && held.forced))};
    }
    return;
  }
  const old = S.state;
  if (!forced && old && !newer(payload, old)) return;
  S.state = payload;
  if (!old || old.version !== payload.version) {
    S.draft = null;
    loadRecord();
  }
  if (payload.view && payload.view.turn && payload.view.turn === S.me && (!old || !old.view || old.view.turn !== S.me)) {
    if (navigator.vibrate) navigator.vibrate(150);
    cue("turn");
  }
  cameraMoments(old, payload);
  keepAwake();
  buttonMoments(old, payload);
  noticesMoments(old, payload, forced);
  render();
  const ended = payload.view && payload.view.over && !(old && old.view && old.view.over);
  if (ended && S.screen === "pad") window.scrollTo(0, 0);  // the result and Rematch, in view
}

/* The standing actions and the story of the game in progress; new moments are shown big. */
async function loadRecord() {
  if (!S.state.game_id) { S.record = null; S.editing = null; return; }
  try {
    const data = await getJSON("/api/record");
    if (data.version < S.state.version) return;
    const old = S.record;
    S.record = data;
    correctionStillStands(data);
    if (old && old.game_id === data.game_id && data.log.length > old.log.length) {
      for (const entry of data.log.slice(old.log.length)) if (entry.moment) showMoment(entry.moment, entry.moment_said);
    }
    if (S.screen === "pad") drawWhenFree();
  } catch (e) { /* shown again on the next change */ }
}

function showMoment(words, said) {
  const box = document.getElementById("moment");
  box.replaceChildren(...shownSaid(words, said));
  box.hidden = false;
  cue("moment");
  clearTimeout(showMoment.timer);
  showMoment.timer = setTimeout(() => { box.hidden = true; }, 3000);
}

/* Sound cues (off unless chosen): a short tone for a moment, two for your turn. */
function cue(kind) {
  if (!S.sound || !window.AudioContext) return;
  cue.ctx = cue.ctx || new AudioContext();
  const notes = kind === "turn" ? [660, 880] : [440];
  notes.forEach((hz, i) => {
    const osc = cue.ctx.createOscillator();
    const gain = cue.ctx.createGain();
    osc.frequency.value = hz;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(cue.ctx.destination);
    const at = cue.ctx.currentTime + i * 0.18;
    osc.start(at);
    osc.stop(at + 0.14);
  });
}

/* The screen stays on while a game is played, where the phone allows it. */
async function keepAwake() {
  const playing = Boolean(S.state.view && !S.state.view.over) && !document.hidden;
  if (!("wakeLock" in navigator)) return;
  if (playing && !keepAwake.lock) {
    try {
      keepAwake.lock = await navigator.wakeLock.request("screen");
      keepAwake.lock.addEventListener("release", () => { keepAwake.lock = null; });
    } catch (e) { keepAwake.lock = null; }
  } else if (!playing && keepAwake.lock) {
    keepAwake.lock.release();
    keepAwake.lock = null;
  }
}

/* The words of camera.js and setup.js (camera, teach mode, menu screens) in the phone's
   language or lang. */
function loadLater(lang = S.lang) {
  if (!S.later || S.later.lang !== lang) {
    const done = getJSON(`/i18n/${lang}/later.json`).then((words) => {
      if (S.lang === lang) { Object.assign(S.ui, words); S.laterLang = lang; }
      return words;
    }, (e) => { S.later = null; throw e; });
    S.later = {lang, done};
  }
  return S.later.done;
}

/* True if they are in (and ready), else fetched with load() and drawn. */
function laterIn(ready, load) {
  if (ready && S.laterLang === S.lang) return true;
  Promise.all([load && load(), loadLater()]).then(() => S.laterLang === S.lang && render(), () => {});
}

/* Scripts only some screens need, fetched when first opened (again, if that failed), with the
   style sheet of those screens (later.css). */
function loadScript(name) {
  const done = loadScript.done = loadScript.done || {};
  const css = name.endsWith("css"), at = "/static/" + name;
  done[name] = done[name] || new Promise((resolve, reject) => {
    document.head.append(el(css ? "link" : "script", {src: !css && at, href: css && at, rel: css && "stylesheet",
      onload: resolve, onerror: (e) => { delete done[name]; reject(e); }}));
  });
  return css ? done[name] : Promise.all([done[name], loadScript("later.css")]);
}

/* Tell the table when the camera goes out and when it is back. */
function cameraMoments(old, now) {
  const was = old && old.camera ? old.camera.status : null;
  const is = now.camera ? now.camera.status : null;
  if (was === "ok" && is === "out") showMoment(t("camera.moment.out"));
  if (was === "out" && is === "ok") showMoment(t("camera.moment.back"));
}

/* The host's notices changed (one told, all read on a phone), or the table started again with
   its own: they are asked again, in this page's language and as this phone reads them (a state
   refresh() brought came with them). */
function noticesMoments(old, now, forced) {
  if (forced) return;
  if (old && (now.run !== old.run || now.notices_version !== old.notices_version)) refresh();
}

/* The table was upgraded: it serves another build (web/build.py) than this page was made of,
   and these scripts may no longer understand its state. The page loads again, once for each
   build, at a moment a reload loses nothing: looked at every few seconds (start), which sees
   both the new build come and the moment nothing is being entered. */
const BUILD = boot.state.build;
function reloadWhenUpgraded() {
  const build = S.state.build;
  if (!build || build === BUILD || !nothingEntered()) return;
  if (sessionStorage.getItem("reloaded-for") === build) return;  // served the old page again
  sessionStorage.setItem("reloaded-for", build);
  location.reload();
}

/* Nothing a player is doing on the page would be lost: the pad is shown, with no menu or
   dialog open, no field in use, no entry or correction begun and no change on its way. */
function nothingEntered() {
  const field = document.activeElement;
  return S.screen === "pad" && document.getElementById("menu").hidden
    && ![...document.querySelectorAll("dialog")].some((d) => d.open)
    && !(field && field.matches("input, textarea, select"))
    && !(S.draft && S.draft.touched) && !S.editing && !S.posting && !S.pressed;
}

/* The PIN */

/* The table no longer knows this phone (logged out on another copy of it, a new PIN, a grant
   expired): it is drawn as watching, and the PIN is asked. The control used, gone with the
   drawing, leaves the keyboard to the page's Enter PIN, where the dialog gives it back. */
function signedOut() {
  pinStateChanged(false);
  const lost = !document.activeElement || document.activeElement === document.body;
  const enterPin = document.querySelector("#screen .ask-pin");
  if (lost && enterPin) enterPin.focus({preventScroll: true});
  askPin();
}

function askPin() {
  const dialog = document.getElementById("pin-dialog");
  document.getElementById("pin-label").textContent = t("pin.ask");
  document.getElementById("pin-ok").textContent = t("pin.ok");
  document.getElementById("pin-cancel").textContent = t("cancel");
  document.getElementById("pin-error").textContent = "";
  document.getElementById("pin-input").value = "";
  showDialog(dialog);
}

async function sendPin(event) {
  event.preventDefault();
  const pin = document.getElementById("pin-input").value;
  const response = await fetch("/auth/pin", {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": S.csrf},
    body: JSON.stringify({pin}),
  }).catch(() => null);
  const data = response ? await response.json().catch(() => ({})) : {};
  if (response && response.ok) {
    S.csrf = data.csrf;
    document.getElementById("pin-dialog").close();
    toast(t("pin.welcome"), "ok");
    pinStateChanged(true, data.notices);
  } else {
    document.getElementById("pin-error").textContent = data.error || t("error.network");
  }
}

async function lock() {
  const done = await post("/auth/logout", {});
  if (done) pinStateChanged(false, done.notices);
}

/* The phone entered the PIN (auth) or is a guest's again: drawn so at once, with the notices
   as it now reads them (the host's name the config file; a guest reads some of them shorter):
   those the answer brought, or, told it is signed out, the state's asked anew. */
function pinStateChanged(auth, notices) {
  S.auth = auth;
  if (notices) S.notices = notices;
  render();
  if (!notices) refresh();
}

/* The page in another language; a message up in the old one goes. If the words do not come,
   the page stays in its language and says why. */
async function switchLanguage(lang) {
  const hadLater = S.laterLang === S.lang;  // the words loaded later come too, in the same go
  const [words, laterWords] = await Promise.all([getJSON(`/i18n/${lang}.json`),
    hadLater && loadLater(lang)]).catch(() => []);
  if (!words) { render(); toast(t("error.network")); return; }
  document.getElementById("toast").hidden = true;
  S.ui = Object.assign(words, laterWords);
  S.lang = lang;
  if (!hadLater) S.later = null;
  S.laterLang = hadLater ? lang : null;
  S.teachLang = null;
  S.rules = null;
  document.documentElement.lang = lang;
  document.cookie = "lang=" + lang + "; path=/; max-age=31536000; SameSite=Strict";
  S.record = null;
  loadRecord();
  render();
}

/* A dialog with a title and paragraphs (a card's full text, the rules). */
function showInfo(title, paragraphs) {
  document.getElementById("info-title").textContent = title;
  document.getElementById("info-body").replaceChildren(...paragraphs.map((p) => (p instanceof Node ? p : el("p", {text: p}))));
  document.getElementById("info-close").textContent = t("close");
  showDialog(document.getElementById("info-dialog"));
}

async function rulesText() {
  if (!S.rules) S.rules = await getJSON("/i18n/" + S.lang + "/rules.json");
  return S.rules;
}
