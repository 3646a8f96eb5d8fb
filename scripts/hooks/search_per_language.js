/* Search per language, fetched on first use (inlined by scripts/hooks/search_per_language.py).
 *
 * Material fetches <base>search/search_index.json with XMLHttpRequest as soon as a page loads, where
 * <base> is the site root (kept, so mike's versions.json and version folders still resolve). This
 * sends that one request to the page's own language index instead, and holds it until the search
 * box is first used: focused (click, Tab, or Material's s / f / "/" keys) or opened on mobile.
 * It also hands the search worker a command-line flag as a word: in Material's query syntax a leading
 * "-" excludes a term, so a pasted "--lenient" would otherwise find nothing.
 */
(function (ownIndex) {
  var config = document.getElementById("__config");
  if (!config || !window.XMLHttpRequest || !window.URL) return;
  var base = new URL(JSON.parse(config.textContent).base, location.href);
  var shared = new URL("search/search_index.json", base).href;
  var own = new URL(ownIndex, base).href;
  var proto = XMLHttpRequest.prototype;
  var open = proto.open;
  var send = proto.send;
  var used = false;
  var held = [];

  function use() {
    if (used) return;
    used = true;
    held.splice(0).forEach(function (release) { release(); });
  }

  proto.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    this.__ownSearchIndex = String(method).toUpperCase() === "GET" && new URL(url, location.href).href === shared;
    if (this.__ownSearchIndex) args[1] = own;
    return open.apply(this, args);
  };
  proto.send = function () {
    var xhr = this;
    var args = arguments;
    if (!xhr.__ownSearchIndex || used) return send.apply(xhr, args);
    held.push(function () { send.apply(xhr, args); });
  };

  var post = window.Worker && Worker.prototype.postMessage;
  if (post) {
    Worker.prototype.postMessage = function (message) {
      var args = Array.prototype.slice.call(arguments);
      if (message && message.type === 2 && typeof message.data === "string") {  // SearchMessageType.QUERY
        args[0] = Object.assign({}, message, { data: message.data.replace(/(^|\s)--+(?=\w)/g, "$1") });
      }
      return post.apply(this, args);
    };
  }

  function isQuery(el) {
    return !!el && el.matches && el.matches("[data-md-component=search-query]");
  }
  document.addEventListener("focusin", function (ev) { if (isQuery(ev.target)) use(); });
  document.addEventListener("change", function (ev) {
    if (ev.target && ev.target.getAttribute("data-md-toggle") === "search" && ev.target.checked) use();
  });
  if (isQuery(document.activeElement)) use();
})(__OWN_INDEX__);
