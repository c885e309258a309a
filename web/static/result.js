/* The result picture (fetched when first asked for): a finished game's final score sheet drawn
   on a canvas and saved (or shared, where the phone can) as a PNG. */
"use strict";

const SHEET_WIDTH = 720;

async function shareResult(id) {
  const data = await getJSON("/api/games/" + id);
  const canvas = drawSheet(data.view, data.colours);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  const file = new File([blob], "dicetable-" + id + ".png", {type: "image/png"});
  if (navigator.canShare && navigator.canShare({files: [file]})) {
    try { await navigator.share({files: [file], title: boot.facts[data.view.game].title}); return; } catch (e) { /* saved below */ }
  }
  const link = el("a", {href: URL.createObjectURL(blob), download: file.name});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/* Title, the players ranked with their totals (winners starred), and the rounds. */
function drawSheet(view, colours) {
  const game = GAMES[view.game];
  const ranked = view.players.slice().sort((a, b) => (game.rank ? game.rank(view, b) - game.rank(view, a)
    : view.scores[b] - view.scores[a]));
  const rounds = roundLines(view);
  const canvas = document.createElement("canvas");
  canvas.width = SHEET_WIDTH;
  canvas.height = 150 + ranked.length * 56 + rounds.length * 30 + (rounds.length ? 60 : 0);
  const g = canvas.getContext("2d");
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "#111111";
  g.font = "bold 40px system-ui, sans-serif";
  g.fillText(boot.facts[view.game].title, 32, 64);
  g.font = "24px system-ui, sans-serif";
  g.fillText(t(view.winners.length > 1 ? "banner.winners" : "banner.winner", {names: view.winners.join(", ")}), 32, 104);
  let y = 150;
  for (const p of ranked) {
    g.fillStyle = boot.palette[colours[p] || 0];  // the game's players, not the table's
    g.beginPath();
    g.arc(48, y - 10, 14, 0, 2 * Math.PI);
    g.fill();
    g.strokeStyle = "#111111";
    g.stroke();
    g.fillStyle = "#111111";
    g.font = (view.winners.includes(p) ? "bold " : "") + "30px system-ui, sans-serif";
    g.fillText((view.winners.includes(p) ? "★ " : "") + p, 76, y);
    const total = game.total ? game.total(view, p) : String(view.scores[p]);
    g.textAlign = "right";
    g.fillText(total, SHEET_WIDTH - 32, y);
    g.textAlign = "left";
    y += 56;
  }
  if (rounds.length) {
    g.fillRect(32, y - 20, SHEET_WIDTH - 64, 3);
    y += 20;
    g.font = "20px system-ui, sans-serif";
    for (const line of rounds) {
      g.fillText(line, 32, y);
      y += 30;
    }
  }
  return canvas;
}

/* One line per round: the points of each player, or the 17 round's summary. */
function roundLines(view) {
  if (view.game === "17") {
    return view.results.map((r) => t("grid.round") + " " + r.round + ": " + r.total + (r.reached_17 ? " ≥ 17 → " : " < 17 → ") +
      r.given.map((x) => x.player + " " + (x.token === "victory" ? "★" : "✖")).join(", "));
  }
  const rounds = Math.max(0, ...view.results.map((r) => r.round));
  const lines = [];
  for (let round = 1; round <= rounds; round++) {
    lines.push(t("grid.round") + " " + round + ": " + view.results.filter((r) => r.round === round)
      .map((r) => r.player + " " + r.points).join(" · "));
  }
  return lines;
}
