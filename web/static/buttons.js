/* The table's buttons on the score pad: a refused press and why, "17! Who called?" for the
   table's one shout button, the Dalek's shout, the PIN while stop and a shout were held, and
   the shutdown (or the Pi staying on: the host's notices say why). The state's "buttons" part
   is the latest news; "n" counts the news. */
"use strict";

function buttonMoments(old, now) {
  const news = now.buttons;
  if (!old || !news || (old.buttons && old.buttons.n === news.n)) return;
  if (news.kind === "refused") {
    const reason = news.reason ? (news.reason[S.lang] || news.reason.en) : "";
    const key = news.player ? "buttons.refused.seat" : "buttons.refused." + news.button;
    toast(t(key, {player: news.player, reason}), "error");
    if (navigator.vibrate) navigator.vibrate([60, 60, 60]);
  } else if (news.kind === "exterminate") {
    showMoment(t("buttons.exterminate"));
  } else if (news.kind === "who") {
    showMoment(t("buttons.who"));
  } else if (news.kind === "shutdown") {
    toast(t("buttons.shutdown"), "error");
  } else if (news.kind === "shutdown_refused") {
    // the Pi stayed on: "shutting down" goes (a toast shown since stays); the host's
    // notice told with it says why
    untoast(t("buttons.shutdown"));
  }
}

/* What stays on the page: the PIN (for its minute), or the question of who called 17. */
function buttonsPanel(view) {
  const news = S.state.buttons;
  if (!news) return null;
  if (news.kind === "pin" && news.pin) {
    return el("section.button-news", {role: "status"},
      el("p.pin", {text: t("buttons.pin", {pin: news.pin})}),
      el("p.muted", {text: t("buttons.pin_hint")}));
  }
  if (news.kind !== "who" || !view || view.game !== "17" || !view.call_allowed
      || view.actions !== news.actions) return null;
  return el("section.button-news", {role: "alert"},
    el("p", {text: t("buttons.who")}),
    el("p.muted", {text: t("buttons.who_hint")}),
    S.auth ? el("div.row.wrap", {}, view.may_call.map((p) => button(p, () => act({call: [p]}), "primary")))
      : el("p.muted", {text: t("camera.ask.pin")}));
}
