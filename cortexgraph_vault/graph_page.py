"""The page `graph --html` writes: HTML, CSS and a small script of our own, no network.

`__TITLE__` and `__DATA__` are filled in by graph_html.render_page. The script lays the graph
out once (force-directed, seeded), then draws it on a canvas: drag to pan, wheel to zoom,
hover for a tooltip, drag a node to move it, `0` or the Fit button to see everything.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>__TITLE__</title>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; background: #f6f8fa;
    font: 13px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; }
  #graph { display: block; width: 100vw; height: 100vh; cursor: grab; }
  #graph.panning { cursor: grabbing; }
  header { position: absolute; top: 10px; left: 12px; right: 12px; display: flex; gap: 10px;
    align-items: center; pointer-events: none; }
  header h1 { font-size: 15px; margin: 0; background: rgba(255,255,255,.9); padding: 4px 8px;
    border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  header .count { color: #57606a; font-weight: normal; }
  header button { pointer-events: auto; border: 1px solid #d0d7de; background: #fff; border-radius: 6px;
    padding: 3px 9px; cursor: pointer; font: inherit; }
  #legend { position: absolute; left: 12px; bottom: 12px; background: rgba(255,255,255,.92);
    border-radius: 6px; padding: 8px 10px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  #legend div { display: flex; align-items: center; gap: 6px; margin: 2px 0; }
  #legend .dot { width: 11px; height: 11px; border-radius: 50%; display: inline-block; }
  #legend .bar { width: 18px; height: 3px; display: inline-block; }
  #legend h2 { font-size: 11px; text-transform: uppercase; color: #57606a; margin: 6px 0 2px; }
  #legend h2:first-child { margin-top: 0; }
  #tip { position: absolute; display: none; max-width: 340px; background: #fff; border-radius: 6px;
    padding: 8px 10px; box-shadow: 0 3px 12px rgba(0,0,0,.2); pointer-events: none; }
  #tip .t { font-weight: 600; }
  #tip .m { color: #57606a; font-size: 12px; margin: 2px 0 4px; }
  #tip .g { color: #0969da; font-size: 12px; }
  #empty { position: absolute; top: 45%; width: 100%; text-align: center; color: #57606a; }
</style>
</head>
<body>
<canvas id="graph"></canvas>
<header><h1 id="title"></h1><button id="fit" title="Show everything (0)">Fit</button>
<button id="zin" title="Zoom in (+)">+</button><button id="zout" title="Zoom out (-)">−</button></header>
<div id="legend"></div>
<div id="tip"></div>
<div id="empty" hidden>This vault has no memories yet.</div>
<script id="graph-data" type="application/json">__DATA__</script>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const canvas = document.getElementById("graph");
  const ctx = canvas.getContext("2d");
  const tip = document.getElementById("tip");
  const statusColour = (k) => data.statusColours[k] || "#999";
  const relationColour = (t) => data.relationColours[t] || "#bf3989";

  const nodes = data.nodes.map((n) => Object.assign({}, n, {
    x: 0, y: 0, vx: 0, vy: 0, r: n.kind === "note" ? 4.5 : 5 + 2.6 * Math.sqrt(Math.max(1, n.uses || 1)),
  }));
  const at = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = data.edges.map((e) => ({ s: at.get(e.source), t: at.get(e.target), type: e.type }))
    .filter((e) => e.s !== undefined && e.t !== undefined);

  // Start on a sunflower spiral (no randomness needed), then relax with forces.
  nodes.forEach((n, i) => { const a = i * 2.39996, d = 14 * Math.sqrt(i + 0.5);
    n.x = d * Math.cos(a); n.y = d * Math.sin(a); });

  // Repulsion only between nodes in neighbouring grid cells: O(n) a round, not O(n²), so a
  // vault of ten thousand memories still opens in seconds.
  const REACH = nodes.length > 2000 ? 160 : 400;
  const cellOf = (x, y) => (Math.floor(x / REACH) + 32768) * 65536 + (Math.floor(y / REACH) + 32768);
  function repel() {
    const grid = new Map();
    for (let i = 0; i < nodes.length; i++) {
      const key = cellOf(nodes[i].x, nodes[i].y);
      const cell = grid.get(key); if (cell) cell.push(i); else grid.set(key, [i]);
    }
    for (let i = 0; i < nodes.length; i++) {
      const a = nodes[i], home = cellOf(a.x, a.y);
      for (let gx = -1; gx <= 1; gx++) for (let gy = -1; gy <= 1; gy++) {
        const cell = grid.get(home + gx * 65536 + gy); if (!cell) continue;
        for (const j of cell) {
          if (j <= i) continue;
          const b = nodes[j];
          let dx = a.x - b.x, dy = a.y - b.y, d2 = dx * dx + dy * dy;
          if (d2 < 0.01) { dx = (i % 7) - 3 + 0.1; dy = (j % 5) - 2 + 0.1; d2 = dx * dx + dy * dy; }
          if (d2 > REACH * REACH) continue;
          const d = Math.sqrt(d2), f = (70 * 70) / d2 * 0.9;
          a.vx += dx / d * f; a.vy += dy / d * f; b.vx -= dx / d * f; b.vy -= dy / d * f;
        }
      }
    }
  }
  const ROUNDS = nodes.length <= 1000 ? 350 : Math.max(60, Math.floor(350 * 1000 / nodes.length));
  let round = 0;
  function relaxOnce(heat) {
    const ideal = 70;
    repel();
    for (const e of edges) {
      const a = nodes[e.s], b = nodes[e.t];
      const dx = b.x - a.x, dy = b.y - a.y, d = Math.sqrt(dx * dx + dy * dy) || 1;
      const f = (d - ideal) * 0.06;
      a.vx += dx / d * f; a.vy += dy / d * f; b.vx -= dx / d * f; b.vy -= dy / d * f;
    }
    const cap = 4 + 40 * heat;
    for (const p of nodes) {
      p.vx -= p.x * 0.012; p.vy -= p.y * 0.012;
      const v = Math.sqrt(p.vx * p.vx + p.vy * p.vy);
      const s = v > cap ? cap / v : 1;
      p.x += p.vx * s; p.y += p.vy * s; p.vx *= 0.5; p.vy *= 0.5;
    }
  }
  // Relax for at most `budget` ms; true once the layout has settled.
  function relax(budget) {
    const end = performance.now() + budget;
    while (round < ROUNDS && performance.now() < end) { relaxOnce(1 - round / ROUNDS); round++; }
    return round >= ROUNDS;
  }

  let dpr = 1, width = 0, height = 0;
  const view = { x: 0, y: 0, k: 1 };
  function resize() {
    dpr = window.devicePixelRatio || 1; width = window.innerWidth; height = window.innerHeight;
    canvas.width = Math.round(width * dpr); canvas.height = Math.round(height * dpr); draw();
  }
  function fit() {
    if (!nodes.length) { view.x = width / 2; view.y = height / 2; view.k = 1; draw(); return; }
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const n of nodes) { x0 = Math.min(x0, n.x - n.r); y0 = Math.min(y0, n.y - n.r);
      x1 = Math.max(x1, n.x + n.r); y1 = Math.max(y1, n.y + n.r); }
    const k = Math.min((width - 80) / Math.max(1, x1 - x0), (height - 110) / Math.max(1, y1 - y0), 2.5);
    view.k = k; view.x = width / 2 - k * (x0 + x1) / 2; view.y = 25 + height / 2 - k * (y0 + y1) / 2; draw();
  }
  const toWorld = (sx, sy) => [(sx - view.x) / view.k, (sy - view.y) / view.k];
  let hover = null;

  function arrow(a, b, colour) {
    const dx = b.x - a.x, dy = b.y - a.y, d = Math.sqrt(dx * dx + dy * dy) || 1;
    const ux = dx / d, uy = dy / d, ex = b.x - ux * (b.r + 2), ey = b.y - uy * (b.r + 2);
    ctx.strokeStyle = colour; ctx.beginPath(); ctx.moveTo(a.x + ux * a.r, a.y + uy * a.r);
    ctx.lineTo(ex, ey); ctx.stroke();
    const h = 7 / Math.sqrt(view.k);
    ctx.fillStyle = colour; ctx.beginPath(); ctx.moveTo(ex, ey);
    ctx.lineTo(ex - ux * h - uy * h * 0.5, ey - uy * h + ux * h * 0.5);
    ctx.lineTo(ex - ux * h + uy * h * 0.5, ey - uy * h - ux * h * 0.5); ctx.closePath(); ctx.fill();
  }
  function draw() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0); ctx.clearRect(0, 0, width, height);
    ctx.setTransform(dpr * view.k, 0, 0, dpr * view.k, dpr * view.x, dpr * view.y);
    ctx.lineWidth = 1.4 / view.k;
    for (const e of edges) {
      const a = nodes[e.s], b = nodes[e.t];
      const lit = hover && (a === hover || b === hover);
      ctx.globalAlpha = hover && !lit ? 0.25 : 0.9;
      arrow(a, b, relationColour(e.type));
    }
    ctx.globalAlpha = 1;
    for (const n of nodes) {
      ctx.beginPath(); ctx.arc(n.x, n.y, n.r, 0, 2 * Math.PI);
      ctx.fillStyle = statusColour(n.kind); ctx.fill();
      ctx.lineWidth = (n === hover ? 3 : 1.5) / view.k; ctx.strokeStyle = n === hover ? "#1f2328" : "#fff"; ctx.stroke();
    }
    ctx.fillStyle = "#1f2328"; ctx.textAlign = "center"; ctx.textBaseline = "top";
    ctx.font = `${12 / view.k}px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif`;
    for (const n of nodes) {
      if (n === hover || view.k * n.r > 9 || view.k > 1.1 || (n.kind === "note" && view.k > 0.45)) {
        const label = n.title.length > 34 ? n.title.slice(0, 33) + "…" : n.title;
        ctx.fillStyle = n.kind === "note" ? "#6e7781" : "#1f2328";
        ctx.fillText(label, n.x, n.y + n.r + 3 / view.k);
      }
    }
  }
  function nodeAt(sx, sy) {
    const [wx, wy] = toWorld(sx, sy); let best = null, bestD = Infinity;
    for (const n of nodes) { const d = Math.hypot(n.x - wx, n.y - wy);
      if (d <= n.r + 4 / view.k && d < bestD) { best = n; bestD = d; } }
    return best;
  }
  function line(cls, text) { const el = document.createElement("div"); el.className = cls; el.textContent = text; return el; }
  function showTip(n, sx, sy) {
    tip.replaceChildren(line("t", n.title));
    const facts = n.kind === "note" ? ["note", n.id] :
      [n.kind, `score ${n.score}`, `${n.uses} use${n.uses === 1 ? "" : "s"}`, `strength ${n.strength}`];
    tip.appendChild(line("m", facts.join(" · ")));
    if (n.tags && n.tags.length) tip.appendChild(line("g", n.tags.map((t) => "#" + t).join(" ")));
    if (n.preview) tip.appendChild(line("p", n.preview));
    tip.style.display = "block";
    const w = tip.offsetWidth, h = tip.offsetHeight;
    tip.style.left = Math.min(sx + 14, width - w - 8) + "px"; tip.style.top = Math.min(sy + 14, height - h - 8) + "px";
  }

  let drag = null;
  canvas.addEventListener("mousedown", (ev) => {
    const n = nodeAt(ev.offsetX, ev.offsetY);
    drag = { node: n, sx: ev.offsetX, sy: ev.offsetY, vx: view.x, vy: view.y };
    if (!n) canvas.classList.add("panning");
  });
  window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("panning"); });
  canvas.addEventListener("mousemove", (ev) => {
    if (drag) {
      if (drag.node) { const [wx, wy] = toWorld(ev.offsetX, ev.offsetY); drag.node.x = wx; drag.node.y = wy; }
      else { view.x = drag.vx + ev.offsetX - drag.sx; view.y = drag.vy + ev.offsetY - drag.sy; }
      tip.style.display = "none"; draw(); return;
    }
    const n = nodeAt(ev.offsetX, ev.offsetY);
    if (n !== hover) { hover = n; draw(); }
    if (n) showTip(n, ev.offsetX, ev.offsetY); else tip.style.display = "none";
  });
  canvas.addEventListener("mouseleave", () => { hover = null; tip.style.display = "none"; draw(); });
  function zoom(factor, sx, sy) {
    moved = true;
    const k = Math.min(12, Math.max(0.05, view.k * factor)); const f = k / view.k;
    view.x = sx - (sx - view.x) * f; view.y = sy - (sy - view.y) * f; view.k = k; draw();
  }
  canvas.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(Math.exp(-ev.deltaY * 0.0015), ev.offsetX, ev.offsetY); }, { passive: false });
  document.getElementById("fit").onclick = fit;
  document.getElementById("zin").onclick = () => zoom(1.25, width / 2, height / 2);
  document.getElementById("zout").onclick = () => zoom(0.8, width / 2, height / 2);
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "0") fit(); else if (ev.key === "+" || ev.key === "=") zoom(1.25, width / 2, height / 2);
    else if (ev.key === "-") zoom(0.8, width / 2, height / 2);
  });

  function legend() {
    const box = document.getElementById("legend");
    const kinds = new Set(nodes.map((n) => n.kind));
    const add = (cls, colour, text) => { const row = document.createElement("div");
      const mark = document.createElement("span"); mark.className = cls; mark.style.background = colour;
      row.append(mark, document.createTextNode(text)); box.appendChild(row); };
    const h = (t) => { const el = document.createElement("h2"); el.textContent = t; box.appendChild(el); };
    h("Nodes (size: uses)");
    for (const k of ["active", "promoted", "archived", "note"]) if (kinds.has(k)) add("dot", statusColour(k), k === "note" ? "note" : k + " memory");
    const types = Object.keys(data.relationColours);
    if (types.length) { h("Links"); for (const t of types) add("bar", relationColour(t), t.replace(/_/g, " ")); }
  }

  const memories = nodes.filter((n) => n.kind !== "note").length;
  document.getElementById("title").textContent = data.title;
  const count = document.createElement("span"); count.className = "count";
  count.textContent = ` · ${memories} memories, ${nodes.length - memories} notes, ${edges.length} links · ${data.generated}`;
  document.getElementById("title").appendChild(count);
  document.getElementById("empty").hidden = nodes.length > 0;
  legend();
  let moved = false;  // once a person pans or zooms, the view is theirs
  canvas.addEventListener("wheel", () => { moved = true; });
  canvas.addEventListener("mousedown", () => { moved = true; });
  window.addEventListener("resize", () => { resize(); if (!moved) fit(); });
  function ready() {
    if (!moved) fit();
    // `graph.html#node=PATH` opens with that note highlighted and its tooltip shown.
    const wanted = decodeURIComponent((location.hash.match(/^#node=(.*)$/) || [])[1] || "");
    if (wanted && at.has(wanted)) { hover = nodes[at.get(wanted)]; draw();
      showTip(hover, hover.x * view.k + view.x, hover.y * view.k + view.y); }
    document.body.dataset.ready = "true";
  }
  resize();
  if (nodes.length <= 1500) { relax(Infinity); ready(); }
  else {
    // A big vault: draw at once and let the picture settle frame by frame, still usable.
    (function frame() { const done = relax(35); if (!moved) fit(); else draw();
      if (done) ready(); else requestAnimationFrame(frame); })();
  }
})();
</script>
</body>
</html>
"""
