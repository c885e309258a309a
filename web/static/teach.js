/* Teach mode on the score pad: the camera learns the table's own dice, one face at a time,
   from photos of the printed sheet; checked on a fresh photo before it is saved. */
"use strict";

const teachStep = (what, extra) => change("/api/camera/teach", Object.assign({do: what}, extra));

/* The way into teach mode (a phone with the PIN, no game being played), and the taught profiles
   to download. */
function teachEntry(teach) {
  const kinds = teach.kinds.map((kind) => button(t("teach.start." + kind), () => teachStep("start", {kind})));
  const saved = teach.saved.map((kind) => el("a", {href: `/api/camera/profile-${kind}.npz`, download: "", text: t("teach.download." + kind)}));
  return el("details.teach-entry", {open: Boolean(S.teachOpen), ontoggle: (e) => { S.teachOpen = e.target.open; }},
    el("summary", {text: t("teach.title")}),
    el("p.muted", {text: t("teach.about")}),
    el("div.row.wrap", {}, kinds),
    saved.length ? el("p", {}, saved) : null);
}

/* The lesson going on: the face to lay and its photos, then the check, then save; and what
   the camera sees now. */
function teachPanel(lesson, camera) {
  const faces = lesson.faces;
  const box = t("teach.box." + lesson.box);
  const parts = [el("h3", {text: t("teach.heading." + lesson.kind)})];
  if (lesson.face) {
    const n = lesson.photos[lesson.step];
    parts.push(el("p.muted", {text: t("teach.progress", {n: lesson.step + 1, of: faces.length})}));
    parts.push(el("p.teach-ask", {text: t("teach.lay", {face: t("face." + lesson.face), box})}));
    parts.push(el("p", {text: t("teach.photos", {n, most: lesson.most})}));
    const last = lesson.step === faces.length - 1;
    parts.push(el("div.row.wrap", {},
      button(t("teach.take"), () => teachStep("photo"), n >= lesson.most ? "" : "primary", {disabled: n >= lesson.most}),
      button(t(last ? "teach.to_check" : "teach.next"), () => teachStep("next"), n >= lesson.most ? "primary" : "", {disabled: n === 0})));
  } else {
    parts.push(el("p.teach-ask", {text: t("teach.check_lay", {box})}));
    parts.push(el("ol.teach-order", {}, faces.map((f) => el("li", {text: t("face." + f)}))));
    if (lesson.checked) parts.push(checkedList(lesson));
    parts.push(el("div.row.wrap", {},
      button(t(lesson.checked ? "teach.check_again" : "teach.check"), () => teachStep("check"), lesson.checked ? "" : "primary"),
      lesson.checked ? button(t("teach.save"), () => teachStep("save"), "primary") : null));
  }
  parts.push(button(t("teach.cancel"), () => teachStep("cancel"), "small"));
  if (camera.seen) {
    parts.push(el("figure.seen", {}, el("div.frame", {},
      el("img", {src: "/api/camera/picture.jpg?n=" + camera.picture, alt: t("teach.picture_alt")})),
      el("figcaption", {text: t("teach.picture_alt")})));
  }
  return el("div.teach", {}, parts);
}

/* What the check photo was read as: each face, right or wrong. */
function checkedList(lesson) {
  const checked = lesson.checked;
  const words = checked.found !== lesson.faces.length
    ? t("teach.found", {n: checked.found, need: lesson.faces.length})
    : t("teach.right", {n: checked.right, of: lesson.faces.length});
  return el("div.teach-checked", {role: "status"},
    el("p", {text: words}),
    el("ul", {}, checked.reads.map((r) => el("li." + (r.face === r.read ? "right" : "wrong"), {},
      t(r.face === r.read ? "teach.read_right" : "teach.read_wrong",
        {face: t("face." + r.face), read: r.read ? t("face." + r.read) : t("teach.not_sure")})))),
    el("p.muted", {text: t(checked.right === lesson.faces.length ? "teach.all_right" : "teach.some_wrong")}));
}
