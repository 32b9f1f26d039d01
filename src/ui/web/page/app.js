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
  const response = await fetch(url, options);
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
      Net.follow(() => game, (change) => draw(Net.merge(game, change))); // net.js: server push
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
    say(e.error || String(e));
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

async function act(index) {
  clearTimeout(botTimer);
  try {
    draw(Net.merge(game, await api("POST", `/api/games/${game.id}/act`,
      { index, expect: game.standing.history, ...Net.since(game) })));
  } catch (e) {
    say(e.error);
    if (e.status === 409) draw(await api("GET", `/api/games/${game.id}`));
  }
}

async function botPlays() {
  try {
    draw(Net.merge(game, await api("POST", `/api/games/${game.id}/bot`,
      { expect: game.standing.history, ...Net.since(game) })));
  } catch (e) {
    // Another player's page moved the bot first (net.js pushes the move): nothing to say.
    if (e.status !== 409) say(e.error);
  }
}

// net.js: takes back this page's last step of the turn.
async function undo() {
  clearTimeout(botTimer);
  try {
    draw(Net.merge(game, await api("POST", `/api/games/${game.id}/undo`,
      { expect: game.standing.history, ...Net.since(game) })));
  } catch (e) {
    say(e.error);
    if (e.status === 409) draw(await api("GET", `/api/games/${game.id}`));
  }
}

function origin(frame, x, y) {
  return [frame.left + (x - frame.x0) * frame.tile, frame.top + (y - frame.y0) * frame.tile];
}

function drawStanding(tbody, s, active) {
  tbody.replaceChildren();
  s.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    if (seat === active) row.className = "active";
    const dot = text("span", "", { class: "dot", style: `background:${s.colours[seat]}` });
    const cell = document.createElement("td");
    cell.append(dot);
    const figures = Object.values(s.figures[seat]).join(" + ");
    row.append(cell, text("td", name), text("td", String(s.scores[seat]), { class: "score" }),
      text("td", figures));
    tbody.append(row);
  });
}

function drawLog(list, lines, before) {
  list.replaceChildren(...lines.map((l, i) => text("li", l, i >= before ? { class: "new" } : {})));
  list.scrollTop = list.scrollHeight;
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
  for (const a of game.actions) {
    if (a.x === null || a.rotation !== null) continue;
    const [ox, oy] = origin(frame, a.x, a.y);
    const target = a.px !== null
      ? svgEl("circle", { cx: ox + a.px * frame.tile, cy: oy + a.py * frame.tile, r: 11,
          class: "target spot", id: `spot-${a.x}-${a.y}-${a.spot}-${a.index}` })
      : svgEl("rect", { x: ox + 8, y: oy + 8, width: frame.tile - 16, height: frame.tile - 16,
          class: "target tile", id: `tile-${a.x}-${a.y}-${a.index}` });
    target.dataset.index = a.index;
    target.append(svgEl("title", {}));
    target.firstChild.textContent = a.text;
    target.onclick = () => act(a.index);
    layer.append(target);
  }
  svg.append(layer);
}

// Draws the board half as large again as its natural size (the picture scales).
function enlarge(svg) {
  for (const side of ["width", "height"]) svg.setAttribute(side, Number(svg.getAttribute(side)) * 1.5);
}

function draw(next) {
  const before = game && game.id === next.id ? game.log.length : next.log.length;
  game = next;
  const d = game.decision;
  const mine = d && !d.bot && Net.mayAct(game, d.player); // net.js: this page's seat
  // The drawn tile, turned to a rotation that fits.
  const fits = new Set(placeActions().map((a) => a.rotation));
  if (fits.size > 0 && !fits.has(rotation)) rotation = [...fits][0];
  $("board").innerHTML = game.board;
  const svg = $("board").querySelector("svg");
  enlarge(svg);
  if (mine) drawTargets(svg);
  const s = game.standing;
  $("turn").textContent = s.over
    ? `The game is over after ${s.turn} turns.`
    : `Turn ${s.turn}: ${s.names[d.player]} ${d.bot ? "(bot) is thinking…" : `to choose (${d.kind.replace("_", " ")})`}`;
  drawStanding($("standing").tBodies[0], s, d ? d.player : -1);
  $("tiles-left").textContent = `${s.tiles_left} tiles left to draw · ${game.ruleset.name}`;
  $("drawn-box").style.visibility = game.drawn ? "visible" : "hidden";
  if (game.drawn) {
    $("drawn").innerHTML = game.drawn.rotations[rotation / 90];
    $("drawn-id").textContent = `${game.drawn.id}, turned ${rotation}°`;
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
  drawLog($("log"), game.log, before);
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
  drawStanding($("replay-standing").tBodies[0], r.standing, -1);
  drawLog($("replay-log"), r.log, r.log.length);
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
