/* dicetable score pad: the shared core (state, words, elements, server calls, live stream).
   Everything shown is built with textContent: nothing from the server is parsed as HTML. */
"use strict";

const boot = JSON.parse(document.getElementById("boot").textContent);

const S = {
  state: boot.state,        // the payload: version, game_id, header, view, hints, colours, wins
  auth: boot.auth,
  notices: boot.notices,    // what the host must be told since the table started
  csrf: boot.csrf,
  ui: boot.ui,
  lang: boot.lang,
  me: localStorage.getItem("me") || "",
  screen: "pad",
  draft: null,              // the entry in progress: {version, ...}
  record: null,             // standing actions of the game in progress, for corrections
  editing: null,            // {index, kind, value} of a correction being entered
  busy: false,
  seen: Date.now(),
  stream: null,
};

/* Words */
function t(key, params) {
  let text = S.ui[key];
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
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function button(label, onclick, cls, attrs) {
  return el("button" + (cls ? "." + cls : ""), Object.assign({type: "button", onclick}, attrs), label);
}

function colourOf(name) {
  const index = (S.state.colours || {})[name];
  return boot.palette[index === undefined ? 0 : index];
}

function swatch(name) {
  return el("span.swatch", {style: {background: colourOf(name)}, "aria-hidden": "true"});
}

function toast(message, kind) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = "toast " + (kind || "error");
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, kind === "ok" ? 2500 : 6000);
}

/* The server */
async function post(url, body) {
  if (S.busy) return null;
  S.busy = true;
  document.body.classList.add("busy");
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
      if (data.state) apply(data.state);
      return data;
    }
    if (response.status === 409 && data.state) apply(data.state);
    if (response.status === 401) { S.auth = false; askPin(); }
    if (response.status === 403 && !url.startsWith("/auth/")) refresh();
    toast(data.error || t("error.network"));
    return null;
  } catch (e) {
    toast(t("error.network"));
    return null;
  } finally {
    S.busy = false;
    document.body.classList.remove("busy");
  }
}

function change(path, body) {
  return post(path, Object.assign({base_version: S.state.version}, body));
}

function act(line) {
  return change("/api/action", {line});
}

async function refresh() {
  try {
    const response = await fetch("/api/state", {credentials: "same-origin", cache: "no-store"});
    if (!response.ok) return;
    const data = await response.json();
    S.auth = data.auth;
    S.notices = data.notices;
    S.csrf = data.csrf;
    apply(data.state, true);
  } catch (e) { /* the stream's retry brings the state back */ }
}

/* The live stream: the current state on every (re)connect, then every change. */
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

function showConnected(on) {
  const dot = document.getElementById("conn");
  dot.className = "conn " + (on ? "on" : "off");
  dot.title = on ? t("live.on") : t("live.off");
  dot.textContent = on ? "" : t("live.off");
}

/* Applying a new state: keep the newest, mark moments, draw again. */
function apply(payload, forced) {
  const old = S.state;
  // Every state the server makes has a larger "live" (camera news too, which keeps "version").
  if (!forced && old && (payload.live || 0) <= (old.live || 0)) return;
  S.state = payload;
  if (!old || old.version !== payload.version) {
    S.draft = null;
    if (S.record) loadRecord();
  }
  moments(old, payload);
  cameraMoments(old, payload);
  render();
}

function moments(old, now) {
  if (!old || !old.view || !now.view || old.game_id !== now.game_id) return;
  if (now.view.actions <= old.view.actions) return;
  for (const moment of GAMES[now.view.game].moments(old.view, now.view)) showMoment(moment);
  if (now.view.turn && now.view.turn === S.me && old.view.turn !== S.me && navigator.vibrate) {
    navigator.vibrate(150);
  }
}

function showMoment(words) {
  const box = document.getElementById("moment");
  box.textContent = words;
  box.hidden = false;
  clearTimeout(showMoment.timer);
  showMoment.timer = setTimeout(() => { box.hidden = true; }, 2500);
}

async function loadRecord() {
  try {
    const response = await fetch("/api/record", {credentials: "same-origin", cache: "no-store"});
    const data = await response.json();
    if (data.version >= S.state.version) S.record = data.actions;
    if (S.screen === "pad") render();
  } catch (e) { /* shown again on the next change */ }
}

/* The PIN */
function askPin() {
  const dialog = document.getElementById("pin-dialog");
  document.getElementById("pin-label").textContent = t("pin.ask");
  document.getElementById("pin-ok").textContent = t("pin.ok");
  document.getElementById("pin-cancel").textContent = t("cancel");
  document.getElementById("pin-error").textContent = "";
  document.getElementById("pin-input").value = "";
  if (!dialog.open) dialog.showModal();
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
    S.auth = true;
    S.csrf = data.csrf;
    document.getElementById("pin-dialog").close();
    toast(t("pin.welcome"), "ok");
    render();
  } else {
    document.getElementById("pin-error").textContent = data.error || t("error.network");
  }
}

async function lock() {
  if (await post("/auth/logout", {})) { S.auth = false; render(); }
}

async function switchLanguage(lang) {
  const response = await fetch("/i18n/" + lang + ".json").catch(() => null);
  if (!response || !response.ok) return;
  S.ui = await response.json();
  S.lang = lang;
  document.documentElement.lang = lang;
  document.cookie = "lang=" + lang + "; path=/; max-age=31536000; SameSite=Strict";
  render();
}
