/* The statistics page (fetched when first opened): per game, a bar chart of wins drawn as
   inline SVG, and a table of games, wins, best and average scores per player. */
"use strict";

const CHART_NS = "http://www.w3.org/2000/svg";

function chartNode(tag, attrs, ...children) {
  const node = document.createElementNS(CHART_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

/* Horizontal bars, one per player: the value, labelled with the name and the number. */
function barChart(rows, title) {
  const height = 30 * rows.length + 8;
  const most = Math.max(1, ...rows.map((r) => r.value));
  const chart = chartNode("svg", {viewBox: "0 0 320 " + height, width: "100%", role: "img", "aria-label": title, class: "chart"},
    chartNode("title", {}, title));
  rows.forEach((r, i) => {
    const y = 4 + i * 30;
    const width = Math.round((r.value / most) * 170);
    chart.append(
      chartNode("text", {x: 0, y: y + 18, class: "chart-name"}, r.name.length > 14 ? r.name.slice(0, 13) + "…" : r.name),
      chartNode("rect", {x: 110, y: y + 4, width: Math.max(width, 2), height: 20, rx: 4, fill: r.colour, stroke: "currentColor", "stroke-width": 1}),
      chartNode("text", {x: 116 + width, y: y + 19, class: "chart-value"}, String(r.value)));
  });
  return chart;
}

function statsPage(stats) {
  const colour = {};
  for (const p of stats.players) colour[p.name] = boot.palette[p.colour];
  const kinds = boot.games.filter((g) => stats.games[g]);
  return el("section.stats", {},
    el("h2", {text: t("stats.title")}),
    kinds.length ? null : el("p.muted", {text: t("history.none")}),
    kinds.map((g) => {
      const kind = stats.games[g];
      const players = Object.entries(kind.players).sort((a, b) => b[1].wins - a[1].wins || b[1].average - a[1].average);
      const unit = g === "17" ? t("stats.tokens") : t("stats.points");
      return el("section.panel", {},
        el("h3", {text: boot.facts[g].title + " · " + t("stats.played", {n: kind.played})}),
        barChart(players.map(([name, p]) => ({name, value: p.wins, colour: colour[name] || boot.palette[0]})),
          t("stats.wins_chart", {game: boot.facts[g].title})),
        el("div.scroll", {tabindex: 0, "aria-label": t("stats.table", {game: boot.facts[g].title})}, el("table.grid", {},
          el("thead", {}, el("tr", {}, ["stats.player", "stats.games", "stats.wins", "stats.best", "stats.average"]
            .map((k) => el("th", {scope: "col", text: breakable(t(k, {unit}))})))),
          el("tbody", {}, players.map(([name, p]) => el("tr", {},
            el("th", {scope: "row"}, el("span.swatch", {style: {background: colour[name]}, "aria-hidden": "true"}), " ", name),
            el("td", {text: String(p.games)}), el("td", {text: String(p.wins)}),
            el("td", {text: String(p.best)}), el("td", {text: p.average.toLocaleString(S.lang)})))))));
    }));
}
