// Stack trie folding, and forwarding of the page's query parameters (e.g. an
// access token) onto relative links so that they survive navigation.
function toggleList(marker) {
  var list = marker.parentNode.querySelector("ul");
  if (!list) return;
  list.classList.toggle("collapsed-list");
  marker.classList.toggle("collapsed");
}
(function () {
  var query = window.location.search;
  if (!query || query.length < 2) return;
  var params = new URLSearchParams(query);
  document.querySelectorAll("a[href]").forEach(function (a) {
    var href = a.getAttribute("href");
    if (!href || /^(https?:|#|mailto:)/.test(href)) return;
    try {
      var url = new URL(href, window.location.href);
      params.forEach(function (v, k) { if (!url.searchParams.has(k)) url.searchParams.set(k, v); });
      a.setAttribute("href", url.href);
    } catch (e) { /* leave the link as it is */ }
  });
})();
