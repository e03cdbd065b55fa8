// Provenance page: numbers the lines of each pane, marks the mapped ones
// (with a badge when a line maps to several), and on hover or click
// highlights related lines in the other panes (pre -> post -> code,
// post -> pre and code, code -> post -> pre). A click keeps the marks
// ("selected") until the line is clicked again or Esc. Keys: n/N next and
// previous mapped line, j/J the counterpart in the next/previous pane,
// 1/2/3 maximise a pane, ? help.
(function () {
  var maps = {}, error = "";
  try {
    maps = JSON.parse(document.getElementById("lineMappings").textContent || "{}") || {};
  } catch (e) {
    error = "The line mappings of this page could not be read (" + e.message + ").";
  }
  // The lines of one <pre> become numbered rows; the <pre> itself stays, so
  // that its pane keeps the heading and the monospace font.
  function rows(id) {
    var pre = document.getElementById(id);
    if (!pre) return [];
    var lines = pre.textContent.split("\n");
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    pre.textContent = "";
    return lines.map(function (text, i) {
      var row = document.createElement("div");
      row.className = "prov-row";
      row.dataset.line = String(i + 1);
      var num = document.createElement("span");
      num.className = "prov-num";
      num.textContent = String(i + 1);
      row.appendChild(num);
      row.appendChild(document.createTextNode(text));
      pre.appendChild(row);
      return row;
    });
  }
  var panes = {
    pre: rows("src-pre"), post: rows("src-post"), py: rows("code-py"), cpp: rows("code-cpp")
  };
  var paneOf = { pre: "pane-pre", post: "pane-post", py: "pane-code", cpp: "pane-code" };
  var order = ["pre", "post", "code"];
  var any = Object.keys(maps).some(function (k) { return maps[k] && Object.keys(maps[k]).length; });
  if (!error && !any)
    error = "This compile has no line mappings: the log holds no inductor_provenance_tracking_node_mappings artifact for it.";
  if (error) {
    var banner = document.getElementById("prov-error");
    banner.textContent = error;
    banner.hidden = false;
  }
  var cppText = document.getElementById("code-cpp").textContent;
  if (panes.cpp.length && cppText.indexOf("AOTInductorModel::run_impl") >= 0)
    for (var i = 0; i < panes.cpp.length; i++)
      if (panes.cpp[i].textContent.indexOf("::run_impl(") >= 0) { panes.cpp[i].scrollIntoView({block: "center"}); break; }

  function get(map, line) { return (maps[map] && maps[map][String(line)]) || []; }
  var links = {
    pre: function (l) { var post = get("preToPost", l); var code = { py: [], cpp: [] };
      post.forEach(function (p) { code.py = code.py.concat(get("postToPyCode", p)); code.cpp = code.cpp.concat(get("postToCppCode", p)); });
      return { post: post, py: code.py, cpp: code.cpp }; },
    post: function (l) { return { pre: get("postToPre", l), py: get("postToPyCode", l), cpp: get("postToCppCode", l) }; },
    py: function (l) { var post = get("pyCodeToPost", l); var pre = [];
      post.forEach(function (p) { pre = pre.concat(get("postToPre", p)); }); return { post: post, pre: pre }; },
    cpp: function (l) { var post = get("cppCodeToPost", l); var pre = [];
      post.forEach(function (p) { pre = pre.concat(get("postToPre", p)); }); return { post: post, pre: pre }; }
  };
  var mapOf = { pre: ["preToPost"], post: ["postToPre", "postToPyCode", "postToCppCode"], py: ["pyCodeToPost"], cpp: ["cppCodeToPost"] };

  var selected = null;  // {name, row} of the clicked line, or null
  var current = null;   // the line the keys move from
  function clear(cls) { document.querySelectorAll("." + cls).forEach(function (r) { r.classList.remove(cls); }); }
  // Marks `row` of pane `name` and its related lines with class `cls`.
  function mark(name, row, cls) {
    clear(cls);
    row.classList.add(cls);
    var rel = links[name](row.dataset.line);
    Object.keys(rel).forEach(function (other) {
      var hits = rel[other].map(function (n) { return panes[other][n - 1]; }).filter(Boolean);
      hits.forEach(function (r) { r.classList.add(cls); });
      if (hits.length) hits[Math.floor(hits.length / 2)].scrollIntoView({block: "center"});
    });
    current = { name: name, row: row };
  }
  Object.keys(panes).forEach(function (name) {
    var mapped = 0;
    panes[name].forEach(function (row) {
      var l = row.dataset.line;
      var targets = 0;
      mapOf[name].forEach(function (m) { targets += get(m, l).length; });
      if (targets) {
        row.classList.add("prov-mapped");
        mapped++;
      }
      if (targets > 1) {
        var badge = document.createElement("span");
        badge.className = "prov-badge";
        badge.textContent = String(targets);
        badge.title = targets + " mapped lines";
        row.appendChild(badge);
      }
      row.addEventListener("mouseenter", function () { if (!selected) mark(name, row, "prov-hl"); });
      row.addEventListener("click", function () {
        if (selected && selected.row === row) {
          selected = null;
          clear("selected");
          return;
        }
        clear("prov-hl");
        selected = { name: name, row: row };
        mark(name, row, "selected");
      });
    });
    panes[name].mapped = mapped;
  });
  // "<N> lines, <M> mapped" in each pane's heading.
  [["pane-pre", ["pre"]], ["pane-post", ["post"]], ["pane-code", ["py", "cpp"]]].forEach(function (p) {
    var lines = 0, mapped = 0;
    p[1].forEach(function (n) { lines += panes[n].length; mapped += panes[n].mapped; });
    var span = document.querySelector("#" + p[0] + " .prov-stats");
    if (span) span.textContent = lines + " lines, " + mapped + " mapped";
  });

  function maximise(k) {
    var id = "pane-" + order[k];
    var all = document.querySelector(".prov-panes");
    var on = all.dataset.max === id;
    document.querySelectorAll(".prov-pane").forEach(function (p) { p.hidden = !on && p.id !== id; });
    document.querySelectorAll(".prov-divider").forEach(function (d) { d.hidden = !on; });
    if (on) delete all.dataset.max;
    else all.dataset.max = id;
  }
  document.querySelectorAll(".prov-pane > h3").forEach(function (h, k) {
    h.addEventListener("dblclick", function () { maximise(k); });
  });
  // Double-click a line of generated code: go to the definition of the
  // first function it calls (builtins aside).
  var builtins = { print: 1, len: 1, range: 1, int: 1, float: 1, str: 1, tuple: 1, list: 1, dict: 1,
    empty_strided: 1, empty_strided_cuda: 1, empty_strided_cpu: 1, grid: 1, assert_size_stride: 1,
    reinterpret_tensor: 1, return: 1, if: 1, for: 1, while: 1, def: 1 };
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  ["py", "cpp"].forEach(function (name) {
    panes[name].forEach(function (row) {
      row.addEventListener("dblclick", function () {
        var text = row.textContent.replace(/^\d+/, ""), re = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\.run)?\s*\(/g;
        var m, target = null;
        while (!target && (m = re.exec(text))) if (!builtins[m[1]]) target = m[1];
        if (!target) return;
        var t = escapeRe(target);
        var defn = new RegExp("^\\s*(?:def\\s+" + t + "\\s*\\(|" + t + "\\s*=|\\S.*\\b" + t + "\\s*\\([^;]*\\)\\s*\\{\\s*$)");
        var hit = panes[name].find(function (r) {
          return r !== row && defn.test(r.textContent.replace(/^\d+/, ""));
        });
        if (!hit) return;
        clear("prov-jump");
        hit.classList.add("prov-jump");
        hit.scrollIntoView({block: "center"});
      });
    });
  });
  function step(dir) {
    var name = current ? current.name : "pre";
    var list = panes[name].filter(function (r) { return r.classList.contains("prov-mapped"); });
    if (!list.length) return;
    var at = current ? list.indexOf(current.row) : -1;
    var next = list[(at + dir + list.length) % list.length];
    if (at < 0 && dir < 0) next = list[list.length - 1];
    mark(name, next, selected ? "selected" : "prov-hl");
    if (selected) selected = { name: name, row: next };
    next.scrollIntoView({block: "center"});
  }
  function jump(dir) {
    if (!current) return;
    var names = ["pre", "post", current.name === "cpp" ? "cpp" : "py"];
    var at = Math.max(0, names.indexOf(current.name));
    var to = names[(at + dir + names.length) % names.length];
    var hit = document.querySelector("#" + paneOf[to] + " ." + (selected ? "selected" : "prov-hl"));
    if (hit) {
      var name = to === "py" || to === "cpp" ? (hit.closest("#code-cpp") ? "cpp" : "py") : to;
      current = { name: name, row: hit };
      hit.scrollIntoView({block: "center"});
    }
  }
  var help = document.getElementById("prov-help");
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "n") step(1);
    else if (e.key === "N") step(-1);
    else if (e.key === "j") jump(1);
    else if (e.key === "J") jump(-1);
    else if (e.key === "1" || e.key === "2" || e.key === "3") maximise(Number(e.key) - 1);
    else if (e.key === "?") help.hidden = !help.hidden;
    else if (e.key === "Escape") {
      selected = null;
      current = null;
      clear("selected");
      clear("prov-hl");
      help.hidden = true;
      var all = document.querySelector(".prov-panes");
      if (all.dataset.max) maximise(order.indexOf(all.dataset.max.slice(5)));
    }
  });
  // Draggable dividers between the panes.
  document.querySelectorAll(".prov-divider").forEach(function (div) {
    div.addEventListener("mousedown", function (e) {
      var left = div.previousElementSibling, startX = e.clientX, startW = left.getBoundingClientRect().width;
      function move(ev) { left.style.flex = "0 0 " + Math.max(80, startW + ev.clientX - startX) + "px"; }
      function up() { document.removeEventListener("mousemove", move); document.removeEventListener("mouseup", up); }
      document.addEventListener("mousemove", move);
      document.addEventListener("mouseup", up);
      e.preventDefault();
    });
  });
})();
