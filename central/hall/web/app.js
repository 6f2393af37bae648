// Hall jackpot display: renders the view the server formats, live from
// server-sent events. No external resources; EventSource reconnects itself.
"use strict";
(function () {
  const pools = document.getElementById("pools");
  const rows = document.getElementById("fixed-rows");
  const hits = new Map();

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function card(p) {
    let c = pools.querySelector('[data-pool="' + CSS.escape(p.id) + '"]');
    if (!c) {
      c = el("article", "pool");
      c.dataset.pool = p.id;
      c.append(el("h2", "name"), el("div", "czk"), el("div", "eur"), el("div", "won", "JACKPOT!"));
      pools.append(c);
    }
    return c;
  }

  function render(v) {
    document.getElementById("title").textContent = v.title;
    document.title = v.title;
    const seen = new Set();
    for (const p of v.pools) {
      const c = card(p);
      seen.add(p.id);
      c.querySelector(".name").textContent = p.name;
      const czk = c.querySelector(".czk");
      if (czk.textContent !== p.czk) {
        czk.textContent = p.czk;
        c.classList.remove("changed");
        void c.offsetWidth; // restart the glow
        c.classList.add("changed");
      }
      c.querySelector(".eur").textContent = p.eur || "";
      const before = hits.get(p.id);
      if (before !== undefined && p.hits > before) {
        c.classList.add("hit");
        setTimeout(() => c.classList.remove("hit"), 15000);
      }
      hits.set(p.id, p.hits);
    }
    for (const c of [...pools.children]) {
      if (!seen.has(c.dataset.pool)) c.remove();
    }
    rows.replaceChildren(...v.fixed.map((f) => {
      const tr = el("tr");
      for (const k of ["stake", "mini", "minor", "major", "grand"]) tr.append(el(k === "stake" ? "th" : "td", k, f[k]));
      return tr;
    }));
    document.getElementById("fixed").hidden = v.fixed.length === 0;
    document.getElementById("at").textContent = v.at;
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  }

  const es = new EventSource("events" + location.search);
  es.addEventListener("open", () => { document.body.dataset.state = "live"; });
  es.addEventListener("error", () => { document.body.dataset.state = "reconnecting"; });
  es.addEventListener("board", (e) => {
    document.body.dataset.state = "live";
    render(JSON.parse(e.data));
  });
})();
