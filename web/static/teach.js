/* Teach mode on the score pad: the camera learns the table's own dice and cards from photos of
   the printed sheet, step by step (dice one face a step, cards up to 5 a step in named places);
   checked on a fresh photo before it is saved. */
"use strict";

const teachStep = (what, extra, options) => change("/api/camera/teach", Object.assign({do: what}, extra), options);

/* A photo of the step (pictures: of d6 dice with pictures, kept though their pips look like
   another number). A d6 photo whose dice look like another number is asked about on every
   phone (the lesson's doubt, in the state the refusal brings; with none there, the refusal is
   told as any); a photo kept as pictures is said, and can be taken back. */
async function teachPhoto(lesson, pictures) {
  const face = lesson.steps[lesson.step][0].face;
  const refused = (data) => {
    const teach = data.state && data.state.camera && data.state.camera.teach;
    return Boolean(teach && teach.lesson && teach.lesson.doubt);
  };
  const taken = await teachStep("photo", pictures ? {pictures: true} : {}, {refused});
  if (taken && pictures) toast(t("teach.kept_pictures", {face: faceName(lesson.kind, face)}), "ok");
}

/* The step's last photo taken back (one kept by mistake). */
async function teachUndo() {
  if (await teachStep("undo")) toast(t("teach.undone"), "ok");
}

/* What the camera saw in a d6 photo refused for looking like another number, and the two ways
   on: lay the dice again and take another photo, or keep this one (dice with pictures). */
function teachDoubtBox(lesson, doubt) {
  return el("div.refused.teach-doubt", {role: "alert"},
    el("p", {text: sentence(doubt.reason[S.lang] || doubt.reason.en)}),
    el("div.row.wrap", {},
      button(t("teach.doubt_again"), () => teachPhoto(lesson, false), "primary"),
      button(t("teach.doubt_pictures", {face: faceName(lesson.kind, doubt.face)}), () => teachPhoto(lesson, true))));
}

/* The way into teach mode (a phone with the PIN, no game being played): the dice and cards of
   the game on the table first, the other games' behind a chooser; and the taught profiles to
   download. */
function teachEntry(teach) {
  const start = (kind) => button(t("teach.start." + kind), () => teachStep("start", {kind}));
  const mine = teach.game ? teach.kinds.filter((k) => teach.games[k] === teach.game) : teach.kinds;
  const others = teach.kinds.filter((k) => !mine.includes(k));
  const saved = teach.saved.map((kind) => el("a", {href: `/api/camera/profile-${kind}.npz`, download: "", text: t("teach.download." + kind)}));
  return el("details.teach-entry", {open: Boolean(S.teachOpen), ontoggle: (e) => { S.teachOpen = e.target.open; }},
    el("summary", {text: t("teach.title")}),
    el("p.muted", {text: t("teach.about")}),
    el("div.row.wrap", {}, mine.map(start)),
    others.length ? el("details.teach-entry", {open: Boolean(S.teachOthers), ontoggle: (e) => { S.teachOthers = e.target.open; }},
      el("summary", {text: t("teach.other")}),
      el("div.row.wrap", {}, others.map(start))) : null,
    saved.length ? el("p", {}, saved.map((a) => el("span", {style: {display: "block"}}, a))) : null);
}

/* The lesson going on: the camera's trouble where it has one (``trouble``: its lines, as the
   camera panel words them; the photos wait for it; a picture that could not be read, with
   what to do: no photo is taken of it), what to lay and its photos, then the check, then
   save; and what the camera sees now (the photo asked about, while one is).
   ``trouble`` may be left out: a page loaded before the panel told it (a kiosk never reloaded)
   has a camera.js that asks teachPanel(lesson, camera), and loads this file afresh. */
function teachPanel(lesson, camera, trouble = []) {
  const parts = [el("h3", {text: t("teach.heading." + lesson.kind)})];
  const unread = camera.unreadable_why ? el("p.teach-unreadable", {text: t(lesson.cards ? "teach.unreadable_cards" : "teach.unreadable")}) : null;
  if (trouble.length || unread) parts.push(el("div.teach-camera", {}, trouble, unread));
  if (lesson.step < lesson.steps.length) parts.push(...teachTaking(lesson));
  else parts.push(...teachChecking(lesson));
  parts.push(button(t("teach.cancel"), () => teachStep("cancel"), "small"));
  const doubted = lesson.doubt && lesson.doubt.picture !== null;
  if (doubted || camera.seen) {
    const [src, words] = doubted ? ["/api/camera/doubted.jpg?n=" + lesson.doubt.picture, t("teach.doubted_alt")]
      : ["/api/camera/picture.jpg?n=" + camera.picture, t("teach.picture_alt")];
    parts.push(el("figure.seen", {}, el("div.frame", {}, el("img", {src, alt: ""})),
      el("figcaption", {text: words})));  // said once: the caption names the picture
  }
  return el("div.teach", {}, parts);
}

/* A step: the dice's face and box, or the cards and their places; its photos. */
function teachTaking(lesson) {
  const steps = lesson.steps;
  const step = steps[lesson.step];
  const n = lesson.photos[lesson.step];
  const most = n >= lesson.most;
  const parts = [el("p.muted", {text: t(lesson.cards ? "teach.step" : "teach.progress", {n: lesson.step + 1, of: steps.length})})];
  if (lesson.cards) {
    parts.push(el("p.teach-ask", {text: t("teach.lay_cards")}), placeList(lesson.kind, step));
  } else {
    const words = {face: faceName(lesson.kind, step[0].face), box: t("teach.box." + step[0].place)};
    parts.push(el("p.teach-ask", {text: t(lesson.optional ? "teach.lay_d6" : "teach.lay", words)}));
  }
  const photos = lesson.kind === "dicy-card" ? "teach.photos_dicy" : lesson.cards ? "teach.photos_cards" : "teach.photos";
  parts.push(el("p", {text: t(photos, {n, most: lesson.most})}));
  const next = lesson.step === steps.length - 1 ? "teach.to_check"
    : lesson.optional && n === 0 ? "teach.skip" : lesson.cards ? "teach.next_cards" : "teach.next";
  if (lesson.doubt) {
    parts.push(teachDoubtBox(lesson, lesson.doubt));
    return parts;
  }
  parts.push(el("div.row.wrap", {},
    button(t("teach.take"), () => teachPhoto(lesson, false), most ? "" : "primary", {disabled: most}),
    button(t(next), () => teachStep("next"), most ? "primary" : "", {disabled: n === 0 && !lesson.optional})));
  if (n > 0) parts.push(button(t("teach.undo"), teachUndo, "small"));
  return parts;
}

/* The check: what to lay (dice in a row, in order; cards in their places), what was read. */
function teachChecking(lesson) {
  const plan = lesson.check;
  const parts = lesson.cards
    ? [el("p.teach-ask", {text: t("teach.check_cards")}), placeList(lesson.kind, plan)]
    : [el("p.teach-ask", {text: t("teach.check_lay", {box: t("teach.box." + plan[0].place)})}),
      el("ol.teach-order", {}, plan.map((p) => el("li", {text: faceName(lesson.kind, p.face)})))];
  if (lesson.checked) parts.push(checkedList(lesson));
  parts.push(el("div.row.wrap", {},
    button(t(lesson.checked ? "teach.check_again" : "teach.check"), () => teachStep("check"), lesson.checked ? "" : "primary"),
    lesson.checked ? button(t("teach.save"), () => teachStep("save"), "primary") : null));
  return parts;
}

/* Cards and where each goes. */
function placeList(kind, laid) {
  return el("ul.teach-places", {}, laid.map((p) => el("li", {},
    el("b", {text: placeName(p.place) + ": "}), faceName(kind, p.face))));
}

/* A card place of the sheet in words: a row of Dicy Cards, or the 17 row. */
function placeName(place) {
  const [row, n] = place.split("-");
  return row === "row" ? t("teach.place.row", {n}) : t("teach.place.dicy", {player: row.slice(1), n});
}

/* A face of a die or card in words. */
function faceName(kind, face) {
  if (kind === "dalek") return t("face." + face);
  if (kind === "dicy-card") {
    const [card, side] = face.split("/");
    return t("teach.dicy_face", {card: t("card." + card), side: t("teach.side." + side)});
  }
  if (kind === "17-card") {
    if (face === "back") return t("teach.c17_back");
    if (face.endsWith("d")) return t("teach.c17_numbered", {n: face[0]});
    return t("teach.c17_up", {card: t("c17." + face)});
  }
  return face;
}

/* What the check photo was read as: each face or card, right or wrong. */
function checkedList(lesson) {
  const checked = lesson.checked;
  const need = lesson.check.length;
  const all = checked.right === need;
  const words = checked.found !== need
    ? t(lesson.cards ? "teach.found_cards" : "teach.found", {n: checked.found, need})
    : t("teach.right", {n: checked.right, of: need});
  const read = (r) => (r === null ? t("teach.not_sure") : r === "empty" ? t("teach.no_card") : faceName(lesson.kind, r));
  return el("div.teach-checked", {role: "status"},
    el("p", {text: words}),
    el("ul", {}, checked.reads.map((r) => el("li." + (r.face === r.read ? "right" : "wrong"), {},
      t(r.face === r.read ? "teach.read_right" : "teach.read_wrong", {face: faceName(lesson.kind, r.face), read: read(r.read)})))),
    el("p.muted", {text: t(all ? (lesson.cards ? "teach.all_right_cards" : "teach.all_right")
      : (lesson.cards ? "teach.some_wrong_cards" : "teach.some_wrong"))}));
}
