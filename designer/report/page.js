/* The interactive study report: filters, ranking, fairness map, details.
 *
 * Reads the study's stored rows from <script id="report-data"> (written by
 * designer/report/interactive.py) and redoes in the browser what
 * designer/search/ranking.py does in Python: filter, rank, best per cell.
 * Formats match designer/report/content.py's format_value.
 */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var C = D.cols, N = D.n;
  var Z = 1.96;
  var CONFIG = {responsive: true, displaylogo: false};
  var state = {lo: {}, hi: {}, color: "fairness", selected: null};
  var byKey = {};  // policy key -> row indices (all rows of that design and goal)

  // ---- formats (as content.format_value) ----------------------------------
  function stripZeros(s) {
    return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, "");
  }
  function fmtG(x, p) {  // Python's format(x, ".pg")
    if (x === null || !isFinite(x)) return String(x);
    if (x === 0) return "0";
    var e = x.toExponential(p - 1);
    var exp = parseInt(e.split("e")[1], 10);
    if (exp < -4 || exp >= p) {
      var m = stripZeros(e.split("e")[0]);
      return m + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }
    return stripZeros(x.toFixed(Math.max(0, p - 1 - exp)));
  }
  function fmt(f, v, se) {
    if (v === null || v === undefined) return "";
    switch (f) {
      case "pct3": return (100 * v).toFixed(3) + "%";
      case "edge": var e = 100 * (v - 0.5); return (e >= 0 ? "+" : "") + e.toFixed(3);
      case "pct4": return (100 * v).toFixed(4) + "%";
      case "f1": return v.toFixed(1);
      case "pct2": return (100 * v).toFixed(2) + "%";
      case "se": return fmtG(v, 3) + " \u00b1 " + fmtG(1.96 * se, 1);
      case "int": return String(Math.trunc(v));
      case "tied": return v ? "tied" : "";
      case "g4": return fmtG(v, 4);
      default: return String(v);
    }
  }
  function points(k) { return k + (k === 1 ? " point" : " points"); }
  window.reportFormat = fmt;  // for the tests: the same formats as Python's format_value
  function num(n) { return n.toLocaleString("en-US"); }
  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  }

  // ---- words (as the Family.sentence of designer/search/families.py) ------
  function sentence(i) {
    if (D.sentences) return D.sentences[i];
    var k = C.komi[i];
    return D.designs[D.design[i]] + ", goal " + C.goal[i] + ", second player starts with " +
      k + " " + (k === 1 ? "point" : "points") + ": first player wins " +
      (100 * C.first_player_win[i]).toFixed(3) + "%, games last " +
      C.expected_actions[i].toFixed(1) + " actions";
  }
  function edgeWords(w) {
    var e = 100 * (w - 0.5);
    var who = e > 0 ? "the first player wins more often" :
      e < 0 ? "the second player wins more often" : "neither seat is favoured";
    return (e >= 0 ? "+" : "") + e.toFixed(3) + " percentage points (" + who + ")";
  }
  function keyOf(i) {
    var parts = D.design_columns.map(function (c) { return String(C[c][i]); });
    if (C.goal) parts.push(String(C.goal[i]));
    return parts.join("|");
  }

  // ---- filter and rank (as designer/search/ranking.py) ---------------------
  function passes(i) {
    for (var f = 0; f < D.filters.length; f++) {
      var F = D.filters[f], lo = state.lo[F.metric], hi = state.hi[F.metric];
      var v = C[F.metric][i];
      if (v === null) {
        if (lo > 0 || hi < F.values.length - 1) return false;
        continue;
      }
      if (v < F.values[lo] || v > F.values[hi]) return false;
    }
    return true;
  }
  function cmpVal(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function rankRows(idx) {
    var obj = D.objectives, first = obj[0], seCol = D.se[first.metric];
    var srank = null;
    if (seCol && idx.length) {
      var v = idx.map(function (i) { return C[first.metric][i]; });
      var e = idx.map(function (i) { return C[seCol][i]; });
      srank = {};
      for (var r = 0; r < idx.length; r++) {
        var better = 0;
        for (var o = 0; o < idx.length; o++) {
          var diff = first.direction === "min" ? v[o] - v[r] : v[r] - v[o];
          if (diff < -Z * Math.sqrt(e[r] * e[r] + e[o] * e[o])) better++;
        }
        srank[idx[r]] = 1 + better;
      }
    }
    var order = [];
    if (srank) order.push({get: function (i) { return srank[i]; }, sign: 1});
    var rest = srank ? obj.slice(1).concat(obj.slice(0, 1)) : obj;
    rest.forEach(function (o) {
      order.push({get: function (i) { return C[o.metric][i]; },
                  sign: o.direction === "min" ? 1 : -1});
    });
    D.tiekeys.forEach(function (k) {
      order.push({get: function (i) { return C[k][i]; }, sign: 1});
    });
    var out = idx.slice().sort(function (a, b) {  // stable, as pandas' mergesort
      for (var t = 0; t < order.length; t++) {
        var c = cmpVal(order[t].get(a), order[t].get(b));
        if (c) return order[t].sign * c;
      }
      return 0;
    });
    var ranks = [], tied = [];
    if (srank) {
      var count = {};
      out.forEach(function (i) { count[srank[i]] = (count[srank[i]] || 0) + 1; });
      out.forEach(function (i) { ranks.push(srank[i]); tied.push(count[srank[i]] > 1); });
    } else {
      out.forEach(function (i, n) { ranks.push(n + 1); tied.push(false); });
    }
    return {idx: out, rank: ranks, tied: tied};
  }

  // ---- the ranked table and the recommendation ------------------------------
  function drawTable(R) {
    var h = ["<table class=\"dataframe\"><thead><tr>"];
    D.table.forEach(function (t) { h.push("<th>" + esc(t.head) + "</th>"); });
    h.push("</tr></thead><tbody>");
    for (var n = 0; n < Math.min(D.n_table, R.idx.length); n++) {
      var i = R.idx[n];
      h.push("<tr data-row=\"" + i + "\">");
      D.table.forEach(function (t) {
        var v = t.col === "rank" ? R.rank[n] : t.col === "tied" ? R.tied[n] : C[t.col][i];
        h.push("<td>" + esc(fmt(t.fmt, v, t.se ? C[t.se][i] : null)) + "</td>");
      });
      h.push("</tr>");
    }
    h.push("</tbody></table>");
    var box = document.getElementById("ranked-table");
    box.innerHTML = h.join("");
    var title = document.getElementById("ranked-title");
    if (title) title.textContent = "Top " + Math.min(D.n_table, R.idx.length) + " designs";
    Array.prototype.forEach.call(box.querySelectorAll("tbody tr"), function (tr) {
      tr.addEventListener("click", function () { select(+tr.getAttribute("data-row")); });
    });
  }
  function setText(id, text) {
    var el = document.getElementById(id);
    if (el) el.textContent = text;
  }
  function drawSummary(R) {
    var n = R.idx.length;
    if (!n) {
      setText("recommendation", "No design passes these filters: widen them.");
      setText("recommendation-edge", "");
    } else {
      var b = R.idx[0];
      setText("recommendation", "Recommended: " + sentence(b) + ".");
      if (C.first_player_win) {
        setText("recommendation-edge", "First-player edge: " + edgeWords(C.first_player_win[b]) +
          ". The second player starts with " + points(C.komi[b]) + " (komi); the fair komi " +
          "of this design at goal " + C.goal[b] + " is " + points(C.fair_komi[b]) +
          " for the second player.");
      }
    }
    setText("recommendation-why", D.why + " among " + num(n) + " feasible designs (" + num(N) +
      " computed) over " + D.space + ".");
    setText("filter-count", num(n) + " of " + num(N) + " designs pass the filters.");
  }

  // ---- the fairness map -----------------------------------------------------
  var grid = null;  // {xs, ys, best[iy][ix]}
  function uniqueSorted(col) {
    var seen = {}, out = [];
    C[col].forEach(function (v) { if (!seen[v]) { seen[v] = 1; out.push(v); } });
    return out.sort(function (a, b) { return a - b; });
  }
  function cellBest(pass) {
    var ax = D.axes, xs = grid.xs, ys = grid.ys;
    var xi = {}, yi = {};
    xs.forEach(function (v, k) { xi[v] = k; });
    ys.forEach(function (v, k) { yi[v] = k; });
    var best = ys.map(function () { return xs.map(function () { return -1; }); });
    for (var i = 0; i < N; i++) {
      if (!pass[i]) continue;
      var a = yi[C[ax.y][i]], b = xi[C[ax.x][i]], cur = best[a][b];
      if (cur < 0 || C.fairness[i] < C.fairness[cur]) best[a][b] = i;
    }
    return best;
  }
  function hover(i, x, y) {
    var ax = D.axes;
    if (i < 0) {
      return ax.xlabel + " " + x + ", " + ax.ylabel + " " + y +
        "<br>no design here passes the filters";
    }
    var t = ["<b>" + esc(D.designs[D.design[i]]) + "</b>"];
    if (C.komi) {
      t.push("goal " + C.goal[i] + ", second player starts with " + points(C.komi[i]));
      t.push("fair komi: " + points(C.fair_komi[i]) + " for the second player");
      t.push("first-player win: " + fmt("pct3", C.first_player_win[i]) + " (edge " +
             fmt("edge", C.first_player_win[i]) + " points of %)");
      t.push("expected length: " + C.expected_actions[i].toFixed(1) + " actions");
    } else {
      t.push("fairness: " + fmt("g4", C.fairness[i]));
    }
    if (C.skill_gap) t.push("skill gap: " + fmt("pct2", C.skill_gap[i]));
    t.push("<i>click for its komi curve and policy</i>");
    return t.join("<br>");
  }
  function mapTraces(best) {
    var xs = grid.xs, ys = grid.ys, colour = state.color;
    var z = [], text = [], hv = [];
    ys.forEach(function (y, a) {
      var zr = [], tr = [], hr = [];
      xs.forEach(function (x, b) {
        var i = best[a][b];
        if (i < 0) { zr.push(null); tr.push(""); }
        else if (colour === "fairness") {
          zr.push(-Math.log10(Math.max(C.fairness[i], 1e-9)));
          tr.push(C.komi ? String(C.komi[i]) : "");
        } else { zr.push(100 * C[colour][i]); tr.push(""); }
        hr.push(hover(i, x, y));
      });
      z.push(zr); text.push(tr); hv.push(hr);
    });
    var cb;
    if (colour === "fairness") {
      var lo = grid.zmin, hi = grid.zmax, vals = [], labels = [];
      for (var k = Math.ceil(lo); k <= Math.floor(hi); k++) vals.push(k);
      if (!vals.length) vals = [lo];
      vals.forEach(function (k, n) {
        var s = fmtG(100 * Math.pow(10, -k), 3) + "%";
        if (n === vals.length - 1) s = "\u2264" + s + " fairer";
        if (n === 0 && vals.length > 1) s = "\u2265" + s + " less fair";
        labels.push(s);
      });
      cb = {title: {text: "first-player<br>edge (size)<br>\u25b2 fairer"}, tickvals: vals,
            ticktext: labels};
    } else {
      cb = {title: {text: "skill gap (%)<br>\u25b2 skill matters<br>more"}, ticksuffix: "%"};
    }
    var heat = {
      type: "heatmap", x: xs.map(String), y: ys.map(String), z: z, text: text,
      texttemplate: "%{text}", textfont: {size: 12}, hovertext: hv,
      hovertemplate: "%{hovertext}<extra></extra>", colorscale: "Cividis",
      zmin: colour === "fairness" ? grid.zmin : undefined,
      zmax: colour === "fairness" ? grid.zmax : undefined,
      colorbar: cb, xgap: 1, ygap: 1
    };
    return [heat];
  }
  function mapLayout(best, R) {
    var ax = D.axes, shapes = [];
    var mark = function (i, dash) {
      var a = grid.ys.indexOf(C[ax.y][i]), b = grid.xs.indexOf(C[ax.x][i]);
      shapes.push({type: "rect", x0: b - 0.5, x1: b + 0.5, y0: a - 0.5, y1: a + 0.5,
                   line: {color: "#000", width: 3, dash: dash}});
      shapes.push({type: "rect", x0: b - 0.42, x1: b + 0.42, y0: a - 0.42, y1: a + 0.42,
                   line: {color: "#fff", width: 1.5, dash: dash}});
    };
    if (R.idx.length) mark(R.idx[0], "solid");
    if (state.selected !== null) mark(state.selected, "dot");
    return {
      title: {x: 0, xanchor: "left", text: state.color === "fairness" ?
        "Fairest design per cell (number: komi, points to the 2nd player)" :
        "Skill gap of the fairest design in each cell"},
      xaxis: {title: {text: ax.xlabel}, type: "category"},
      yaxis: {title: {text: ax.ylabel}, type: "category"},
      height: Math.max(380, 120 + 19 * grid.ys.length), margin: {t: 50, r: 10},
      shapes: shapes
    };
  }

  // ---- details of one design -------------------------------------------------
  function select(i) {
    state.selected = i;
    drawDetails(i);
    if (grid) Plotly.relayout("fairness-map", {shapes: mapLayout(null, lastR).shapes});
  }
  function drawDetails(i) {
    var key = keyOf(i), same = (byKey[key] || [i]).slice();
    var head = document.getElementById("detail-title");
    head.textContent = D.designs[D.design[i]] + (C.goal ? ", goal " + C.goal[i] : "");
    var info = document.getElementById("detail-text");
    info.innerHTML = esc(sentence(i)) + ".";
    var promises = [];
    if (C.komi) {
      same.sort(function (a, b) { return C.komi[a] - C.komi[b]; });
      var ks = same.map(function (j) { return C.komi[j]; });
      var ws = same.map(function (j) { return 100 * C.first_player_win[j]; });
      var ok = same.map(function (j) { return passes(j) ? "passes the filters" : "filtered out"; });
      promises.push(Plotly.react("komi-curve", [
        {x: ks, y: ws, mode: "lines+markers", name: "first-player win", customdata: ok,
         hovertemplate: "komi %{x}: first player wins %{y:.3f}% (%{customdata})<extra></extra>",
         line: {color: "#2c3e70"}, marker: {size: 8}},
        {x: [C.komi[i]], y: [100 * C.first_player_win[i]], mode: "markers", name: "this design",
         marker: {size: 14, symbol: "circle-open", color: "#000", line: {width: 3}},
         hoverinfo: "skip"}
      ], {
        title: {x: 0, xanchor: "left",
                text: "First-player win vs komi (fair: " + C.fair_komi[i] + ")"},
        xaxis: {title: {text: "komi (points given to the second player)"}, dtick: 1},
        yaxis: {title: {text: "first-player win (%)"}},
        shapes: [{type: "line", xref: "paper", x0: 0, x1: 1, y0: 50, y1: 50,
                  line: {color: "#888", dash: "dash"}}],
        height: 340, margin: {t: 50}, showlegend: false
      }, CONFIG));
    }
    var pol = D.policies[key], note = document.getElementById("policy-note");
    var box = document.getElementById("policy-picture");
    if (pol) {
      note.textContent = pol.title + ", " + pol.panel + ".";
      box.style.display = "";
      promises.push(Plotly.react("policy-picture", [{
        type: "heatmap", z: pol.z, colorscale: "Cividis",
        colorbar: {title: {text: pol.label}},
        hovertemplate: "own score %{x}, opponent %{y}: %{z}<extra></extra>"
      }], {
        xaxis: {title: {text: "own score (points)"}, constrain: "domain"},
        yaxis: {title: {text: "opponent score (points)"}, scaleanchor: "x", constrain: "domain"},
        height: 400, margin: {t: 20}
      }, CONFIG));
    } else {
      box.style.display = "none";
      var pos = D.policy_order.indexOf(key);
      var n = pos >= 0 ? String(pos + 1) : "all";
      note.innerHTML = D.policy_order.length ?
        "The optimal-policy picture of this design is not in this page: the report solves " +
        "again only the best designs of the study's ranking (" + Object.keys(D.policies).length +
        " here). To include it, run <code>designer report " + esc(D.study_file) +
        " --policies " + n + "</code>." : "";
    }
    return Promise.all(promises);
  }

  // ---- filters ----------------------------------------------------------------
  function buildFilters() {
    var box = document.getElementById("filters");
    D.filters.forEach(function (F) {
      state.lo[F.metric] = F.lo;
      state.hi[F.metric] = F.hi;
      var row = document.createElement("div");
      row.className = "filter";
      var last = F.values.length - 1;
      row.innerHTML = "<span class=\"flabel\">" + esc(F.label) +
        (F.constraint ? " <small>(a constraint of the study)</small>" : "") + "</span>" +
        "<label>at least <input type=\"range\" min=\"0\" max=\"" + last + "\" step=\"1\" " +
        "value=\"" + F.lo + "\" data-metric=\"" + F.metric + "\" data-side=\"lo\" " +
        "aria-label=\"" + esc(F.label) + " at least\"> <output></output></label>" +
        "<label>at most <input type=\"range\" min=\"0\" max=\"" + last + "\" step=\"1\" " +
        "value=\"" + F.hi + "\" data-metric=\"" + F.metric + "\" data-side=\"hi\" " +
        "aria-label=\"" + esc(F.label) + " at most\"> <output></output></label>";
      box.appendChild(row);
    });
    Array.prototype.forEach.call(box.querySelectorAll("input[type=range]"), function (inp) {
      inp.addEventListener("input", function () {
        var m = inp.getAttribute("data-metric"), side = inp.getAttribute("data-side");
        var v = +inp.value;
        if (side === "lo" && v > state.hi[m]) v = state.hi[m];
        if (side === "hi" && v < state.lo[m]) v = state.lo[m];
        inp.value = v;
        state[side][m] = v;
        schedule();
      });
    });
    var reset = document.getElementById("filters-reset");
    reset.addEventListener("click", function () {
      D.filters.forEach(function (F) { state.lo[F.metric] = F.lo; state.hi[F.metric] = F.hi; });
      syncInputs();
      schedule();
    });
    Array.prototype.forEach.call(document.querySelectorAll("input[name=colour]"), function (r) {
      r.addEventListener("change", function () { state.color = r.value; schedule(); });
    });
    syncInputs();
  }
  function syncInputs() {
    Array.prototype.forEach.call(document.querySelectorAll("#filters input[type=range]"),
      function (inp) {
        var m = inp.getAttribute("data-metric"), side = inp.getAttribute("data-side");
        var F = D.filters.filter(function (f) { return f.metric === m; })[0];
        inp.value = state[side][m];
        inp.parentNode.querySelector("output").textContent = fmt(F.fmt, F.values[state[side][m]]);
      });
  }

  // ---- update everything --------------------------------------------------------
  var lastR = null, pending = false;
  function update() {
    pending = false;
    syncInputs();
    var pass = new Array(N), idx = [];
    for (var i = 0; i < N; i++) { pass[i] = passes(i); if (pass[i]) idx.push(i); }
    var R = rankRows(idx);
    lastR = R;
    drawTable(R);
    drawSummary(R);
    var promises = [];
    if (grid) {
      var best = cellBest(pass);
      promises.push(Plotly.react("fairness-map", mapTraces(best), mapLayout(best, R),
                                 CONFIG));
    }
    return Promise.all(promises);
  }
  function schedule() {
    if (!pending) { pending = true; window.requestAnimationFrame(update); }
  }

  function start() {
    for (var i = 0; i < N; i++) {
      var k = keyOf(i);
      (byKey[k] = byKey[k] || []).push(i);
    }
    if (D.axes) {
      grid = {xs: uniqueSorted(D.axes.x), ys: uniqueSorted(D.axes.y)};
      var all = new Array(N).fill(true), best = cellBest(all), lo = Infinity, hi = -Infinity;
      for (var j = 0; j < N; j++) {
        var z = -Math.log10(Math.max(C.fairness[j], 1e-9));
        if (z < lo) lo = z;
        if (z > hi) hi = z;
      }
      // an edge of 10% or more is as unfair as it gets here, 0.001% or less
      // as fair: the colours spread over the range a designer cares about
      if (C.first_player_win) { lo = 1; hi = 5; }
      grid.zmin = lo;
      grid.zmax = hi;
      void best;
    } else {
      var m = document.getElementById("map-box");
      if (m) m.style.display = "none";
    }
    if (!C.skill_gap) {
      var sw = document.getElementById("colour-switch");
      if (sw) sw.style.display = "none";
    }
    buildFilters();
    var first = update().then(function () {
      if (grid) {
        document.getElementById("fairness-map").on("plotly_click", function (ev) {
          var p = ev.points[0], a = grid.ys.indexOf(+p.y), b = grid.xs.indexOf(+p.x);
          if (a < 0) a = grid.ys.map(String).indexOf(String(p.y));
          if (b < 0) b = grid.xs.map(String).indexOf(String(p.x));
          var pass = new Array(N);
          for (var i = 0; i < N; i++) pass[i] = passes(i);
          var i2 = cellBest(pass)[a][b];
          if (i2 >= 0) select(i2);
        });
      }
      return lastR.idx.length ? drawDetails(lastR.idx[0]) : null;
    });
    first.then(function () {
      window.reportDrawn = performance.now();
      document.documentElement.setAttribute("data-drawn", "yes");
    }, function (err) {
      document.documentElement.setAttribute("data-drawn", "error");
      throw err;
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
