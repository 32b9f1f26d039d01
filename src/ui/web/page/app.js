// castellan's page: plain JavaScript over the JSON API of `castellan serve`.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// The pause before a bot plays, so people can follow (?pause=MS changes it).
const PAUSE = Number(new URLSearchParams(location.search).get("pause") ?? 700);

let game = null; // the game shown, as the server sent it
let rotation = 0; // the drawn tile's rotation on the page
let botTimer = null;
let replay = { id: null, upto: 0, total: 0 };

async function api(method, url, body) {
  const options = { method, headers: Net.headers(url) }; // net.js: the game's token
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    offline(true);
    throw { error: "", offline: true };
  }
  offline(false);
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { error: response.status === 413
      ? "the upload is too large for this server"
      : `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    if (!answer.error) answer = { error: `${response.status} ${response.statusText}` };
    answer.status = response.status;
    throw answer;
  }
  Net.learn(answer); // net.js: keep the host's token of a game just made
  return answer;
}

function say(text) {
  $("message").textContent = text || "";
}

// The banner shown while the server cannot be reached; Retry loads the view again.
function offline(gone) {
  $("offline").hidden = !gone;
}

$("retry").onclick = () => route();

function svgEl(name, attrs) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function text(tag, content, attrs = {}) {
  const e = document.createElement(tag);
  e.textContent = content;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

async function readFiles(input) {
  return Promise.all([...input.files].map(async (f) => ({ name: f.name, text: await f.text() })));
}

// ---- views ----

function show(view) {
  for (const v of document.querySelectorAll(".view")) v.classList.toggle("shown", v.id === `view-${view}`);
}

async function route() {
  clearTimeout(botTimer);
  // net.js: a join link, and no following of a game left
  Net.join();
  Net.stop();
  say("");
  const [, view, id] = location.hash.split("/");
  try {
    if (view === "play" && id) {
      show("play");
      game = null;
      draw(await api("GET", `/api/games/${id}`));
      Net.follow(() => game, (change) => {
        // net.js: server push; a change this page already shows (its own move) is not drawn
        // again, so the board under the player's pointer stays as it is.
        if (change.same || (change.id === game.id && change.version <= game.version)) return;
        draw(Net.merge(game, change));
      });
    } else if (view === "replay" && id) {
      show("replay");
      await openReplay(id);
    } else if (view === "games") {
      show("games");
      await listGames();
    } else if (view === "tiles") {
      show("tiles");
      await listTileSets();
    } else {
      show("new");
    }
  } catch (e) {
    if (!e.offline) say(e.error || String(e));
  }
}

// ---- new game ----

async function loadRulesets() {
  const [rulesets, bots] = await Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/bots")]);
  const select = $("ruleset");
  for (const r of rulesets) {
    const o = text("option", `${r.name} — ${r.title}`, { value: r.name });
    o.dataset.description = `${r.description} (${r.players[0]} to ${r.players[1]} players)`;
    select.append(o);
  }
  select.value = rulesets.some((r) => r.name === "hig") ? "hig" : select.value;
  const describe = () => {
    const o = select.selectedOptions[0];
    $("ruleset-description").textContent = o ? o.dataset.description : "";
  };
  select.onchange = describe;
  describe();
  $("bot-names").textContent = bots.join(", ");
}

$("rules-files").onchange = () => {
  document.querySelector('input[name=source][value=upload]').checked = true;
};

$("new-form").onsubmit = async (event) => {
  event.preventDefault();
  $("new-errors").textContent = "";
  const upload = document.querySelector('input[name=source]:checked').value === "upload";
  const body = {
    ruleset: upload ? "" : $("ruleset").value,
    files: upload ? await readFiles($("rules-files")) : [],
    players: $("players").value.split(",").map((p) => p.trim()),
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("end-after").value !== "") body.end_after = Number($("end-after").value);
  if ($("no-undo").checked) body.no_undo = true;
  try {
    const g = await api("POST", "/api/games", body);
    location.hash = `#/play/${g.id}`;
  } catch (e) {
    $("new-errors").textContent = [e.error, ...(e.diagnostics || [])].join("\n\n");
  }
};

// ---- game list and records ----

async function listGames() {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const g of await api("GET", "/api/games")) {
    const row = document.createElement("tr");
    row.append(text("td", g.id), text("td", g.ruleset), text("td", g.players.join(", ")),
      text("td", g.scores.join(" : ")), text("td", `${g.actions}${g.over ? " (over)" : ""}`));
    const links = document.createElement("td");
    links.append(text("a", g.over ? "Look" : "Play", { href: `#/play/${g.id}` }), " ",
      text("a", "Replay", { href: `#/replay/${g.id}` }), " ",
      text("a", "Download", { href: `/api/games/${g.id}/record` }), " ",
      removeButton(g));
    row.append(links);
    body.append(row);
  }
}

// The server keeps a limited number of games: finished ones can be removed (after a question).
function removeButton(g) {
  const button = text("button", "Remove", { type: "button", class: "remove" });
  button.onclick = async () => {
    const what = `${g.id} (${g.players.join(", ")}${g.over ? ", over" : ", not over"})`;
    if (!confirm(`Remove game ${what} from the server? Download its record first to keep it.`)) return;
    try {
      await api("DELETE", `/api/games/${g.id}`);
      await listGames();
    } catch (e) {
      say(e.error || String(e));
    }
  };
  return button;
}

$("open-record").onclick = async () => {
  $("open-errors").textContent = "";
  try {
    const g = await api("POST", "/api/open", { files: await readFiles($("record-files")) });
    location.hash = `#/play/${g.id}`;
  } catch (e) {
    $("open-errors").textContent = [e.error, ...(e.diagnostics || [])].join("\n\n");
  }
};

// ---- playing ----

function placeActions() {
  return game.actions.filter((a) => a.rotation !== null && a.x !== null);
}

// Turns the drawn tile to the next rotation that fits somewhere.
function rotate() {
  const fits = new Set(placeActions().map((a) => a.rotation));
  for (let i = 1; i <= 4; i++) {
    const r = (rotation + 90 * i) % 360;
    if (fits.size === 0 || fits.has(r)) {
      rotation = r;
      break;
    }
  }
  draw(game);
}

// One request for the game at a time: a second click while one is on its way (a double
// click) is ignored, and an answer older than the game shown is dropped without a word.
let inFlight = false;

async function send(url, body) {
  if (inFlight) return;
  inFlight = true;
  document.body.classList.add("busy");
  const asked = game.standing.history;
  const id = game.id;
  try {
    const next = Net.merge(game, await api("POST", url, { ...body, ...Net.since(game) }));
    if (game.id === id && next.standing.history >= asked) draw(next);
  } catch (e) {
    if (e.offline) {
      clearTimeout(botTimer);
    } else if (e.status === 409) {
      // Someone (another tab, a bot) moved first: show the game as it is now, quietly.
      draw(await api("GET", `/api/games/${id}`).catch(() => game));
    } else {
      say(e.error);
    }
  } finally {
    inFlight = false;
    document.body.classList.remove("busy");
  }
}

async function act(index) {
  clearTimeout(botTimer);
  await send(`/api/games/${game.id}/act`, { index, expect: game.standing.history });
}

async function botPlays() {
  await send(`/api/games/${game.id}/bot`, { expect: game.standing.history });
}

// net.js: takes back this page's last step of the turn.
async function undo() {
  clearTimeout(botTimer);
  await send(`/api/games/${game.id}/undo`, { expect: game.standing.history });
}

function origin(frame, x, y) {
  return [frame.left + (x - frame.x0) * frame.tile, frame.top + (y - frame.y0) * frame.tile];
}

function drawStanding(tbody, s, active) {
  tbody.replaceChildren();
  s.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    if (seat === active) row.className = "active";
    // Through the style object, not a style attribute: the server's CSP allows no inline style.
    const dot = text("span", "", { class: "dot" });
    dot.style.background = s.colours[seat];
    const cell = document.createElement("td");
    cell.append(dot);
    // Figures left, then the tokens the player holds (as its families and scripts word them).
    const tokens = s.tokens && s.tokens[seat] ? ` · ${s.tokens[seat]}` : "";
    const figures = Object.values(s.figures[seat]).join(" + ") + tokens;
    row.append(cell, text("td", name), text("td", String(s.scores[seat]), { class: "score" }),
      text("td", figures));
    tbody.append(row);
  });
}

function drawLog(list, lines, before, notes = []) {
  list.replaceChildren(...lines.map((l, i) => {
    const attrs = i >= before ? { class: "new" } : {};
    if (notes[i]) attrs.title = `rule ${notes[i]}`;
    return text("li", l, attrs);
  }));
  list.scrollTop = list.scrollHeight;
}

// ---- the board: pan and zoom ----

// How the board is looked at: `scale` screen pixels per SVG unit, the SVG point (cx, cy) at
// the middle of the board's box; `focus` names what it was last centred on.
const look = { scale: 0, cx: 0, cy: 0, focus: "", id: "" };
const ZOOM = { min: 0.2, max: 3, step: 1.25 };

function applyLook() {
  const box = $("board");
  const svg = box.querySelector("svg");
  if (!svg) return;
  const w = box.clientWidth, h = box.clientHeight;
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("viewBox", `${look.cx - w / 2 / look.scale} ${look.cy - h / 2 / look.scale} ${w / look.scale} ${h / look.scale}`);
}

function zoom(factor, px, py) {
  const box = $("board");
  const w = box.clientWidth, h = box.clientHeight;
  // Keeps the SVG point under the screen point (px, py) in place.
  const [sx, sy] = [px ?? w / 2, py ?? h / 2];
  const before = look.scale;
  look.scale = Math.min(ZOOM.max, Math.max(ZOOM.min, look.scale * factor));
  look.cx += (sx - w / 2) * (1 / before - 1 / look.scale);
  look.cy += (sy - h / 2) * (1 / before - 1 / look.scale);
  applyLook();
}

// Centres the board on the tiles at `positions` (board coordinates), zooming out if they do
// not fit and, the first time, in to fit them with a tile to spare around.
function centreOn(positions, first, close = false) {
  const frame = game.frame;
  const box = $("board");
  const w = box.clientWidth, h = box.clientHeight;
  if (positions.length === 0 || w === 0) return;
  const xs = positions.map(([x]) => origin(frame, x, 0)[0]);
  const ys = positions.map(([, y]) => origin(frame, 0, y)[1]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs) + frame.tile];
  const [y0, y1] = [Math.min(...ys), Math.max(...ys) + frame.tile];
  const margin = close ? 0.6 : 2;
  const fit = Math.min(w / (x1 - x0 + margin * frame.tile), h / (y1 - y0 + margin * frame.tile));
  if (first || close || look.scale > fit) look.scale = Math.min(close ? 2.2 : 1.2, Math.max(ZOOM.min, fit));
  look.cx = (x0 + x1) / 2;
  look.cy = (y0 + y1) / 2;
}

// What the board centres on: the whole board once the game is over; where the drawn tile may
// go; else the positions the choices name and the last move; else the whole board.
function action() {
  if (game.standing.over) return allTiles();
  const places = placeActions().map((a) => [a.x, a.y]);
  if (places.length > 0) return places;
  if (deploying()) return [[game.last.x, game.last.y]];
  const at = game.actions.filter((a) => a.x !== null).map((a) => [a.x, a.y]);
  if (game.last) at.push([game.last.x, game.last.y]);
  return at.length > 0 ? at : allTiles();
}

// Whether the person deploys on the tile just laid: the board comes close to its spots.
function deploying() {
  const last = game.last;
  return !!last && game.actions.some((a) => a.px !== null && a.x === last.x && a.y === last.y);
}

function allTiles() {
  return [...document.querySelectorAll("#board g.tile")].map((t) => [Number(t.dataset.x), Number(t.dataset.y)]);
}

// Pans with one finger or the mouse, pinches with two, zooms with the wheel; a drag is not
// a click.
function panAndZoom(box) {
  const pointers = new Map();
  let moved = 0, spread = 0;
  box.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    moved = 0;
    if (pointers.size === 2) spread = distance();
  });
  box.addEventListener("pointermove", (e) => {
    const was = pointers.get(e.pointerId);
    if (!was) return;
    const now = [e.clientX, e.clientY];
    pointers.set(e.pointerId, now);
    if (pointers.size === 1) {
      moved += Math.abs(now[0] - was[0]) + Math.abs(now[1] - was[1]);
      if (moved > 6) {
        look.cx -= (now[0] - was[0]) / look.scale;
        look.cy -= (now[1] - was[1]) / look.scale;
        applyLook();
      }
    } else if (pointers.size === 2) {
      moved = 100;
      const d = distance();
      const r = box.getBoundingClientRect();
      const [[ax, ay], [bx, by]] = [...pointers.values()];
      if (spread > 0) zoom(d / spread, (ax + bx) / 2 - r.left, (ay + by) / 2 - r.top);
      spread = d;
    }
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    spread = 0;
  };
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  box.addEventListener("pointerleave", up);
  // A drag ends in a click on what is under the pointer: it is not one.
  box.addEventListener("click", (e) => {
    if (moved > 6) e.stopPropagation();
  }, true);
  box.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = box.getBoundingClientRect();
    zoom(e.deltaY < 0 ? ZOOM.step : 1 / ZOOM.step, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  function distance() {
    const [[ax, ay], [bx, by]] = [...pointers.values()];
    return Math.hypot(ax - bx, ay - by);
  }
}

panAndZoom($("board"));
$("zoom-in").onclick = () => zoom(ZOOM.step);
$("zoom-out").onclick = () => zoom(1 / ZOOM.step);
$("zoom-fit").onclick = () => {
  centreOn(allTiles(), true);
  applyLook();
};
window.addEventListener("resize", () => game && applyLook());

// ---- the board: what explains it ----

// The last move: the tile outlined in its player's colour, and a ring round the figure put on it.
function drawLast(svg, shown) {
  const last = shown.last;
  if (!last) return;
  const frame = shown.frame;
  const colour = shown.standing.colours[last.player];
  const layer = svgEl("g", { class: "last-move" });
  const [ox, oy] = origin(frame, last.x, last.y);
  layer.append(svgEl("rect", { x: ox + 2, y: oy + 2, width: frame.tile - 4, height: frame.tile - 4,
    class: "last-tile", stroke: colour, id: "last-tile" }));
  if (last.figure) {
    const [fx, fy] = origin(frame, last.figure.x, last.figure.y);
    layer.append(svgEl("circle", { cx: fx + last.figure.px * frame.tile, cy: fy + last.figure.py * frame.tile,
      r: 16, class: "last-figure", stroke: colour, id: "last-figure" }));
  }
  svg.append(layer);
}

// Every feature answers the pointer at its spots: it is outlined, and a note says who holds
// it and what it is worth now.
function drawFeatures(svg) {
  const frame = game.frame;
  const layer = svgEl("g", { class: "features" });
  const outline = svgEl("g", { class: "feature-outline" });
  game.features.forEach((f) => {
    for (const [x, y, px, py] of f.parts) {
      const [ox, oy] = origin(frame, x, y);
      const spot = svgEl("circle", { cx: ox + px * frame.tile, cy: oy + py * frame.tile, r: 13,
        class: `feature-spot ${f.kind}` });
      spot.append(svgEl("title", {}));
      spot.firstChild.textContent = f.text;
      spot.addEventListener("pointerenter", () => showFeature(f, outline));
      // A finger's tap keeps the note until the next tap; the mouse's goes when it leaves.
      spot.addEventListener("pointerleave", (e) => e.pointerType === "mouse" && showFeature(null, outline));
      layer.append(spot);
    }
  });
  svg.append(outline, layer);
}

function showFeature(f, outline) {
  outline.replaceChildren();
  $("feature-note").textContent = f ? f.text : "";
  if (!f) return;
  const frame = game.frame;
  const seen = new Set();
  for (const [x, y, px, py] of f.parts) {
    const [ox, oy] = origin(frame, x, y);
    if (!seen.has(`${x},${y}`)) {
      seen.add(`${x},${y}`);
      outline.append(svgEl("rect", { x: ox + 1, y: oy + 1, width: frame.tile - 2, height: frame.tile - 2 }));
    }
    outline.append(svgEl("circle", { cx: ox + px * frame.tile, cy: oy + py * frame.tile, r: 6 }));
  }
}

// Places the overlay of clickable targets on the board for the person who decides.
function drawTargets(svg) {
  const frame = game.frame;
  const layer = svgEl("g", { class: "targets" });
  const places = placeActions();
  const byPos = new Map();
  for (const a of places) {
    const key = `${a.x},${a.y}`;
    if (!byPos.has(key)) byPos.set(key, []);
    byPos.get(key).push(a);
  }
  for (const [key, list] of byPos) {
    const [x, y] = key.split(",").map(Number);
    const [ox, oy] = origin(frame, x, y);
    const here = list.find((a) => a.rotation === rotation);
    const rect = svgEl("rect", {
      x: ox + 3, y: oy + 3, width: frame.tile - 6, height: frame.tile - 6,
      class: `target place ${here ? "ok" : "other"}`, "data-x": x, "data-y": y,
      id: `place-${x}-${y}`,
    });
    rect.append(svgEl("title", {}));
    rect.firstChild.textContent = here ? here.text : `${list.length} way(s) fit here: click to turn the tile`;
    rect.onmouseenter = () => {
      if (!here) return;
      const preview = svgEl("g", { class: "preview", transform: `translate(${ox},${oy})` });
      preview.innerHTML = game.drawn.rotations[rotation / 90];
      layer.insertBefore(preview, layer.firstChild);
      rect.onmouseleave = () => preview.remove();
    };
    rect.onclick = () => {
      if (here) act(here.index);
      else {
        rotation = list[0].rotation;
        draw(game);
      }
    };
    layer.append(rect);
  }
  const labels = svgEl("g", { class: "labels" });
  for (const a of game.actions) {
    if (a.x === null || a.rotation !== null) continue;
    const [ox, oy] = origin(frame, a.x, a.y);
    let target;
    if (a.px !== null) {
      const [cx, cy] = [ox + a.px * frame.tile, oy + a.py * frame.tile];
      target = svgEl("circle", { cx, cy, r: 8, class: "target spot", id: `spot-${a.x}-${a.y}-${a.spot}-${a.index}` });
      if (a.label) labels.append(spotLabel(a.label, cx, cy, a.index));
    } else {
      target = svgEl("rect", { x: ox + 8, y: oy + 8, width: frame.tile - 16, height: frame.tile - 16,
        class: "target tile", id: `tile-${a.x}-${a.y}-${a.index}` });
    }
    target.dataset.index = a.index;
    target.append(svgEl("title", {}));
    target.firstChild.textContent = a.text;
    target.onclick = () => act(a.index);
    layer.append(target);
  }
  svg.append(labels, layer);
}

// A deploy spot's label ("knight – city") just below it (the spot above it takes the click).
function spotLabel(words, cx, cy, index) {
  const g = svgEl("g", { class: "spot-label", transform: `translate(${cx},${cy + 9})`, "data-index": index });
  const width = 3.7 * words.length + 4;
  g.append(svgEl("rect", { x: -width / 2, y: 0, width, height: 8.5, rx: 2 }));
  const t = svgEl("text", { x: 0, y: 6.6, "text-anchor": "middle" });
  t.textContent = words;
  g.append(t);
  return g;
}

// The tiles still to come, by type.
function drawToCome() {
  const total = game.to_come.reduce((n, t) => n + t.count, 0);
  $("to-come-count").textContent = `Tiles to come, by type: ${total} (the drawn one and any set aside too)`;
  $("to-come").replaceChildren(...game.to_come.map((t) => text("li", `${t.count} × ${t.words}`)));
}

// The end: the winner, each player's points by source, and the scores turn by turn.
function drawEnd() {
  const end = game.end;
  $("end").hidden = !end;
  if (!end) return;
  const s = game.standing;
  const names = end.winners.map((w) => s.names[w]);
  $("winner").textContent = names.length === 1
    ? `${names[0]} ${names[0] === "You" ? "win" : "wins"} with ${s.scores[end.winners[0]]} points`
    : `${names.join(" and ")} share the win with ${s.scores[end.winners[0]]} points`;
  const table = $("breakdown");
  const head = document.createElement("tr");
  head.append(text("th", "Player"), ...end.sources.map((k) => text("th", k)), text("th", "total"));
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren(...s.names.map((name, seat) => {
    const row = document.createElement("tr");
    if (end.winners.includes(seat)) row.className = "winner";
    row.append(text("td", name), ...end.breakdown[seat].map((p) => text("td", String(p))),
      text("td", String(s.scores[seat]), { class: "total" }));
    return row;
  }));
  drawChart($("chart"), end.timeline, s);
}

// The scores turn by turn as lines, one per player in their colour.
function drawChart(svg, rows, s) {
  const [w, h, pad] = [320, 160, 28];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const top = Math.max(1, ...rows.flat());
  const x = (i) => pad + (i * (w - pad - 8)) / Math.max(1, rows.length - 1);
  const y = (v) => h - pad + 8 - (v * (h - pad - 8)) / top;
  const parts = [svgEl("line", { x1: pad, y1: y(0), x2: w - 8, y2: y(0), class: "axis" }),
    svgEl("line", { x1: pad, y1: y(0), x2: pad, y2: y(top), class: "axis" })];
  const label = (content, attrs) => {
    const t = svgEl("text", attrs);
    t.textContent = content;
    return t;
  };
  parts.push(label(String(top), { x: pad - 4, y: y(top) + 4, "text-anchor": "end" }),
    label("0", { x: pad - 4, y: y(0) + 4, "text-anchor": "end" }),
    label("turns →", { x: w - 8, y: h - 4, "text-anchor": "end" }));
  s.names.forEach((name, seat) => {
    const points = rows.map((r, i) => `${x(i)},${y(r[seat])}`).join(" ");
    const line = svgEl("polyline", { points, fill: "none", stroke: s.colours[seat], "stroke-width": 2.5 });
    line.append(svgEl("title", {}));
    line.firstChild.textContent = `${name}: ${s.scores[seat]}`;
    parts.push(line);
  });
  svg.replaceChildren(...parts);
}

function draw(next) {
  const before = game && game.id === next.id ? game.log.length : next.log.length;
  const first = !game || game.id !== next.id || look.id !== next.id;
  game = next;
  const d = game.decision;
  const mine = d && !d.bot && Net.mayAct(game, d.player); // net.js: this page's seat
  // The drawn tile, turned to a rotation that fits.
  const fits = new Set(placeActions().map((a) => a.rotation));
  if (fits.size > 0 && !fits.has(rotation)) rotation = [...fits][0];
  $("board").innerHTML = game.board;
  const svg = $("board").querySelector("svg");
  drawLast(svg, game);
  drawFeatures(svg);
  if (mine) drawTargets(svg);
  // Centre on the action when it changes; otherwise the board stays as the player left it.
  const focus = JSON.stringify(action());
  if (first || focus !== look.focus) {
    centreOn(action(), first, deploying());
    look.focus = focus;
    look.id = game.id;
  }
  applyLook();
  const s = game.standing;
  $("turn").textContent = s.over
    ? `The game is over after ${s.turn} turns.`
    : `Turn ${s.turn}: ${s.names[d.player]} ${d.bot ? "(bot) is thinking…" : `to choose (${d.kind.replace("_", " ")})`}`;
  drawStanding($("standing").tBodies[0], s, d ? d.player : -1);
  $("tiles-left").textContent = `${s.tiles_left} tiles left to draw · ${game.ruleset.name}`;
  $("drawn-box").hidden = !game.drawn;
  if (game.drawn) {
    $("drawn").innerHTML = game.drawn.rotations[rotation / 90];
    $("drawn-id").textContent = `turned ${rotation}°`;
  }
  $("rotate").disabled = !(mine && game.drawn);
  // Choices that are not on the board, and every choice in words.
  $("choices").replaceChildren();
  $("choice-list").replaceChildren();
  if (mine) {
    for (const a of game.actions) {
      const button = text("button", a.text);
      button.onclick = () => act(a.index);
      if (a.x === null) {
        if ("pass" in a.record) button.id = "pass";
        $("choices").append(button);
      } else {
        $("choice-list").append(button);
      }
    }
  }
  $("all-choices").hidden = !mine;
  drawToCome();
  drawEnd();
  drawLog($("log"), game.log, before, game.notes);
  $("download").href = `/api/games/${game.id}/record`;
  $("to-replay").href = `#/replay/${game.id}`;
  clearTimeout(botTimer);
  // net.js: who this page is, undo, the host's join links; spectators never move bots.
  Net.decorate(game, undo);
  if (d && d.bot && !Net.watching(game)) botTimer = setTimeout(botPlays, PAUSE);
}

$("rotate").onclick = rotate;

// ---- replay ----

async function openReplay(id) {
  replay = { id, upto: 0, total: 0 };
  const last = await api("GET", `/api/games/${id}/replay`);
  replay.total = last.total;
  $("slider").max = last.total;
  await step(last.total);
}

async function step(upto) {
  upto = Math.max(0, Math.min(replay.total, upto));
  const r = await api("GET", `/api/games/${replay.id}/replay?upto=${upto}`);
  replay.upto = r.upto;
  $("slider").value = r.upto;
  $("step").textContent = `${r.upto} / ${r.total} actions`;
  $("replay-title").textContent = `Game ${replay.id}`;
  $("replay-board").innerHTML = r.board;
  drawLast($("replay-board").querySelector("svg"), r);
  drawStanding($("replay-standing").tBodies[0], r.standing, -1);
  drawLog($("replay-log"), r.log, r.log.length, r.notes);
}

$("slider").oninput = () => step(Number($("slider").value));
$("prev").onclick = () => step(replay.upto - 1);
$("next").onclick = () => step(replay.upto + 1);

// ---- tile sets ----

async function listTileSets() {
  const select = $("tileset");
  if (select.options.length === 0) {
    for (const name of await api("GET", "/api/tilesets")) select.append(text("option", name, { value: name }));
  }
  await showTileSet(api("GET", `/api/tilesets/${select.value}`));
}

async function showTileSet(request) {
  $("tiles-errors").textContent = "";
  $("tiles").replaceChildren();
  try {
    const set = await request;
    $("tileset-description").textContent = `${set.name}: ${set.description} (${set.tiles.length} types, ${set.tiles.reduce((n, t) => n + t.count, 0)} tiles)`;
    for (const t of set.tiles) {
      const figure = document.createElement("figure");
      figure.className = "tile-card";
      figure.innerHTML = `<svg xmlns="${SVG}" viewBox="0 0 100 100">${t.svg}</svg>`;
      const caption = document.createElement("figcaption");
      caption.append(text("strong", t.id), text("div", t.alias ? `alias ${t.alias}` : ""),
        text("div", `× ${t.count}`), text("div", t.tags.join(" ")));
      figure.append(caption);
      $("tiles").append(figure);
    }
  } catch (e) {
    $("tiles-errors").textContent = [e.error, ...(e.diagnostics || [])].join("\n\n");
  }
}

$("tileset").onchange = () => showTileSet(api("GET", `/api/tilesets/${$("tileset").value}`));
$("tileset-file").onchange = async () =>
  showTileSet(api("POST", "/api/tilesets", { files: await readFiles($("tileset-file")) }));

// ---- keys ----

document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const view = location.hash.split("/")[1];
  if (view === "play" && event.key === "r" && game && game.drawn) rotate();
  if (view === "replay" && event.key === "ArrowLeft") { event.preventDefault(); step(replay.upto - 1); }
  if (view === "replay" && event.key === "ArrowRight") { event.preventDefault(); step(replay.upto + 1); }
});

window.addEventListener("hashchange", route);
loadRulesets().catch((e) => say(e.error || String(e)));
route();
