// Highlights the output code once the page is loaded; very large files are
// left plain so that the page stays responsive.
(function () {
  var block = document.querySelector("pre.code code");
  if (!block || typeof hljs === "undefined") return;
  if (block.textContent.length > 4000000) return;
  hljs.highlightBlock(block);
})();
