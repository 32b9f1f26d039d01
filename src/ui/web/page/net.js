// castellan's page, playing over the network: which seat this browser holds in each game (its
// secret token, from a join link or from making the game), server push with a polling
// fallback, answers that carry only what changed, undo and the host's join links.
"use strict";

const Net = (() => {
  const KEY = "castellan-tokens";
  // How long to wait between polls when server push is not available (ms).
  const POLL = 2000;
  let source = null;
  let pollTimer = null;
  // Tokens of this page, also when storage is refused.
  const memory = {};

  function tokens() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || {};
    } catch {
      return {};
    }
  }

  function remember(id, token) {
    const all = tokens();
    all[id] = token;
    try {
      localStorage.setItem(KEY, JSON.stringify(all));
    } catch {
      // Private windows may refuse storage: the token then lasts as long as the page.
    }
    memory[id] = token;
  }

  function tokenFor(id) {
    return memory[id] || tokens()[id] || "";
  }

  // A join link (`#game=ID&token=T`, the token in the fragment, never sent to the server by
  // the browser): remember the token and show the game.
  function join() {
    const p = new URLSearchParams(location.hash.slice(1));
    const id = p.get("game");
    const token = p.get("token");
    if (!id || !token) return;
    remember(id, token);
    history.replaceState(null, "", `#/play/${id}`);
  }

  // The headers of a request to the API: the token of the game it is about, if any.
  function headers(url) {
    const m = url.match(/^\/api\/games\/([a-z0-9]+)/);
    const token = m ? tokenFor(m[1]) : "";
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  // Keeps the host's token of a game this page made.
  function learn(answer) {
    if (answer && answer.you === "host" && answer.links) {
      remember(answer.id, new URLSearchParams(answer.links.host.split("#")[1]).get("token"));
    }
  }

  // What the page sends so that an answer carries only what changed.
  function since(game) {
    return { since: game.version, log: game.log.length };
  }

  // The game shown with a change applied: the new state, the log cut to what the server says
  // the page may keep, then the new lines.
  function merge(game, change) {
    if (change.same) return game;
    if (!game || game.id !== change.id) return change;
    const kept = (lines) => (lines || []).slice(0, change.log_from);
    return {
      ...change,
      log: kept(game.log).concat(change.log),
      notes: kept(game.notes).concat(change.notes || []),
    };
  }

  // Follows the game: server-sent events, or polling when they fail; `current` gives the game
  // shown, `apply` gets each change.
  function follow(current, apply) {
    stop();
    const game = current();
    if (!game) return;
    const { since: v, log } = since(game);
    const token = encodeURIComponent(tokenFor(game.id));
    if (window.EventSource) {
      source = new EventSource(`/api/games/${game.id}/events?token=${token}&since=${v}&log=${log}`);
      source.onmessage = (e) => {
        Net.online(true);
        apply(JSON.parse(e.data));
      };
      source.onerror = () => {
        // Closed or unreachable: poll, and try the push again once the server answers.
        source.close();
        source = null;
        pollTimer = setTimeout(() => poll(current, apply), POLL);
      };
    } else {
      pollTimer = setTimeout(() => poll(current, apply), POLL);
    }
  }

  async function poll(current, apply) {
    const game = current();
    if (!game) return;
    const { since: v, log } = since(game);
    try {
      const response = await fetch(`/api/games/${game.id}?since=${v}&log=${log}`, { headers: headers(`/api/games/${game.id}`) });
      if (!response.ok) throw new Error(`${response.status}`);
      Net.online(true);
      apply(await response.json());
      if (window.EventSource) return follow(current, apply);
    } catch {
      Net.online(false);
    }
    pollTimer = setTimeout(() => poll(current, apply), POLL);
  }

  function stop() {
    if (source) source.close();
    source = null;
    clearTimeout(pollTimer);
  }

  // Whether this page may act for `seat`.
  function mayAct(game, seat) {
    return game.you === "host" || game.you === seat;
  }

  // Whether this page only watches.
  function watching(game) {
    return game.you === "spectator";
  }

  // The networked part of the play view: who this page is, undo, and the host's links.
  function decorate(game, undo) {
    let box = document.getElementById("net");
    if (!box) {
      box = document.createElement("div");
      box.id = "net";
      document.getElementById("turn").after(box);
    }
    box.replaceChildren();
    const you = game.you === "host" ? "You host this game (you may play any seat)."
      : game.you === "spectator" ? "You are watching."
      : `You play ${game.standing.names[game.you]}.`;
    box.append(Object.assign(document.createElement("p"), { id: "you", textContent: you }));
    const d = game.decision;
    if (game.can_undo && d && mayAct(game, d.player)) {
      const b = Object.assign(document.createElement("button"), { id: "undo", textContent: "Undo my last step" });
      b.onclick = undo;
      box.append(b);
    }
    if (game.links) box.append(links(game));
  }

  // The host's join links, each with a copy button.
  function links(game) {
    const details = document.createElement("details");
    details.id = "links";
    const summary = document.createElement("summary");
    summary.textContent = "Invite players (join links)";
    details.append(summary);
    const rows = game.links.seats.map((l, seat) => [`${game.standing.names[seat]}`, l]);
    rows.push(["Spectators", game.links.spectator]);
    rows.forEach(([who, path], i) => {
      const url = new URL(path, location.href).href;
      const p = document.createElement("p");
      const field = Object.assign(document.createElement("input"), { value: url, readOnly: true, size: 40 });
      field.id = i < game.links.seats.length ? `link-${i}` : "link-spectator";
      const copy = Object.assign(document.createElement("button"), { textContent: "Copy" });
      copy.onclick = () => {
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => document.execCommand("copy"));
        else document.execCommand("copy");
      };
      p.append(`${who}: `, field, " ", copy);
      details.append(p);
    });
    return details;
  }

  // Says on the page whether the server answers (the page's own banner, with its Retry).
  function online(up) {
    const banner = document.getElementById("offline");
    if (banner) banner.hidden = up;
  }

  return { join, headers, learn, since, merge, follow, stop, mayAct, watching, decorate, online };
})();
