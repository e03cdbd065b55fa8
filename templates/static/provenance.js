// Provenance page: numbers the lines of each pane, marks the mapped ones, and
// on hover/click highlights related lines in the other panes
// (pre -> post -> code, post -> pre and code, code -> post -> pre).
(function () {
  var maps = JSON.parse(document.getElementById("lineMappings").textContent || "{}");
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
  var cppText = document.getElementById("code-cpp").textContent;
  if (!panes.cpp.length || cppText.indexOf("AOTInductorModel::run_impl") < 0) {
    // Nothing C++-specific to scroll to.
  } else {
    for (var i = 0; i < panes.cpp.length; i++)
      if (panes.cpp[i].textContent.indexOf("::run_impl(") >= 0) { panes.cpp[i].scrollIntoView({block: "center"}); break; }
  }
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
  Object.keys(panes).forEach(function (name) {
    panes[name].forEach(function (row) {
      var l = row.dataset.line;
      if (mapOf[name].some(function (m) { return get(m, l).length; })) row.classList.add("prov-mapped");
      function show() {
        document.querySelectorAll(".prov-hl").forEach(function (r) { r.classList.remove("prov-hl"); });
        row.classList.add("prov-hl");
        var rel = links[name](l);
        Object.keys(rel).forEach(function (other) {
          var hits = rel[other].map(function (n) { return panes[other][n - 1]; }).filter(Boolean);
          hits.forEach(function (r) { r.classList.add("prov-hl"); });
          if (hits.length) hits[Math.floor(hits.length / 2)].scrollIntoView({block: "center"});
        });
      }
      row.addEventListener("mouseenter", show);
      row.addEventListener("click", show);
    });
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
