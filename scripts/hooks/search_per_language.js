/* Search per language, fetched on first use (inlined by scripts/hooks/search_per_language.py).
 *
 * Material fetches <base>search/search_index.json with XMLHttpRequest as soon as a page loads, where
 * <base> is the site root (kept, so mike's versions.json and version folders still resolve). This
 * sends that one request to the page's own language index instead, and holds it until the search
 * box is first used: focused (click, Tab, or Material's s / f / "/" keys) or opened on mobile.
 * It also hands the search worker a word after leading dashes as the word: in Material's query syntax a
 * leading "-" excludes a term, so a pasted flag "--lenient" or error code "ret is -8005" would otherwise
 * find nothing (or everything but the page that answers it); and "key:" as a word, since
 * lunr reads "device: npu" as a field "device" and drops it.
 *
 * And it segments Chinese queries into the index's own words before the worker sees them. jieba cut the
 * pages into words at build time; a query is typed as one run ("能否支持断点续训", "端口和ip占用冲突"), and
 * Material's experimental segmenter never matches a word that ends the run, so such a query found
 * nothing. Here each Han run is cut by dynamic programming into the fewest words of the index (from the
 * index Material hands its worker), Latin letters inside Chinese become words of their own, and question
 * words (能否, 怎么, 是什么 …) and single characters beside words are dropped: "能否支持断点续训" is searched
 * as "支持 断点续训", "端口和ip占用冲突" as "端口 ip 占用 冲突".
 * A typed word also searches the pages' word for it (SYNONYMS, matched inside the run; WORD_SYNONYMS, only when
 * the piece is that whole word, so 检查 adds 确认 while 检查点 "checkpoint" adds nothing).
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

  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var QUESTION = /^(?:能否|可否|是否|能不能|可不可以|怎么样?|怎样|如何|为什么|为何|什么|是什么|哪些|哪个|哪里|吗|呢|吧|啊|呀|了|请问|有没有)$/;
  // what readers type for what the pages write: the page's word is searched too
  var SYNONYMS = { "能用": "可用", "装": "安装", "配": "配置", "扩容": "扩缩容", "缩容": "扩缩容", "报错": "错误",
    // 恢复训练 / 从检查点恢复 is how readers ask for resuming; the pages say 断点续训 (users28 R4')
    "恢复训练": "断点续训", "从检查点恢复": "断点续训" };
  // the same for a whole word of the query only (检查 "check" is also the start of 检查点 "checkpoint")
  var WORD_SYNONYMS = { "检查": "确认" };
  var words = null;  // the index's Han words
  var longest = 1;

  function learn(index) {
    words = Object.create(null);
    var separator = new RegExp(index.config && index.config.separator || "[\\s\\u200b]+", "g");
    (index.docs || []).forEach(function (doc) {
      ((doc.title || "") + " " + (doc.text || "")).replace(/<[^>]+>/g, " ").split(separator).forEach(function (w) {
        if (w && w.length <= 12 && HAN.test(w)) {
          words[w] = true;
          if (w.length > longest) longest = w.length;
        }
      });
    });
  }

  function cut(run) {  // fewest pieces, each an index word or a single character
    var best = [0];
    var from = [0];
    for (var end = 1; end <= run.length; end++) {
      best[end] = Infinity;
      for (var start = Math.max(0, end - longest); start < end; start++) {
        var piece = run.slice(start, end);
        if (end - start > 1 && !words[piece]) continue;
        var cost = best[start] + (words[piece] ? 1 : 3);  // an unknown character costs more than a word
        if (cost < best[end]) { best[end] = cost; from[end] = start; }
      }
    }
    var out = [];
    for (var at = run.length; at > 0; at = from[at]) out.unshift(run.slice(from[at], at));
    return out;
  }

  function segment(query) {
    if (!words) return query;
    return query
      .replace(/([\u3400-\u9fff])(?=[A-Za-z0-9])|([A-Za-z0-9])(?=[\u3400-\u9fff])/g, "$1$2 ")
      .replace(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g, function (run) {
        var pieces = cut(run);
        var several = pieces.some(function (w) { return w.length > 1; });
        // a single character beside words is a particle or a verb (上, 能, 用, 和): it matches everything
        var kept = pieces.filter(function (w) { return !QUESTION.test(w) && !(several && w.length === 1); });
        Object.keys(SYNONYMS).forEach(function (typed) {
          if (run.indexOf(typed) >= 0 && kept.indexOf(SYNONYMS[typed]) < 0) kept.push(SYNONYMS[typed]);
        });
        Object.keys(WORD_SYNONYMS).forEach(function (typed) {
          if (kept.indexOf(typed) >= 0 && kept.indexOf(WORD_SYNONYMS[typed]) < 0) kept.push(WORD_SYNONYMS[typed]);
        });
        return " " + (kept.length ? kept.join(" ") : run) + " ";
      })
      .replace(/\s+/g, " ").trim();
  }

  // English function words (from lunr's stop list). The index
  // keeps them (its pipeline is empty, see mkdocs.yml), so in a pasted error or a question they matched nearly every
  // section and outweighed the one rare word that names the answer: "/etc/hccn.conf can not be found" ranked pages
  // on "can", "not", "be" and missed the hccn.conf pages (users39b). Dropped from a query that has other words.
  var STOP = /^(?:a|an|and|are|as|at|be|been|but|by|can|cannot|could|did|do|does|for|from|had|has|have|how|i|if|in|into|is|it|its|me|my|no|nor|not|of|on|or|so|than|that|the|their|them|then|there|these|they|this|to|too|was|we|were|what|when|where|which|while|who|why|will|with|would|you|your)$/i;

  function dropStopWords(query) {
    var kept = query.split(" ").filter(function (w) { return w && !STOP.test(w); });
    return kept.length ? kept.join(" ") : query;
  }

  // A pasted file or folder name with numbers also searches its shape, as identifier_shapes in
  // search_per_language.py makes it for the index: model_world_size_2_rank_0.pt → model_world_size_n_rank_n.pt,
  // global_step_100 → global_step_n, which is how the pages write them ({W}, {r}, N are placeholders).
  var NAME = /[A-Za-z0-9{}]+(?:(?:_+|\.)[A-Za-z0-9{}]+)+/g;

  function shapeOf(name) {
    var pieces = name.split(/(_+|\.)/);
    var changed = false;
    for (var i = 0; i < pieces.length; i += 2) {
      var byUnderscore = (pieces[i - 1] || "").charAt(0) === "_" || (pieces[i + 1] || "").charAt(0) === "_";
      if (/^\{\w+\}$/.test(pieces[i]) || (byUnderscore && /^(?:\d+|[A-Z])$/.test(pieces[i]))) {
        pieces[i] = "n";
        changed = true;
      } else {
        pieces[i] = pieces[i].toLowerCase();
      }
    }
    return changed ? pieces.join("") : "";
  }

  function addShapes(query) {
    var extra = [];
    (query.match(NAME) || []).forEach(function (name) {
      var shaped = shapeOf(name);
      if (shaped && extra.indexOf(shaped) < 0) extra.push(shaped);
    });
    return extra.length ? query + " " + extra.join(" ") : query;
  }

  var post = window.Worker && Worker.prototype.postMessage;
  if (post) {
    Worker.prototype.postMessage = function (message) {
      var args = Array.prototype.slice.call(arguments);
      if (message && message.type === 0 && message.data) learn(message.data);  // SearchMessageType.SETUP
      if (message && message.type === 2 && typeof message.data === "string") {  // SearchMessageType.QUERY
        // "device: npu" pasted from a config: lunr reads "device:" as a field name and drops the word
        var query = addShapes(dropStopWords(segment(message.data.replace(/(^|\s)-+(?=\w)/g, "$1").replace(/(\w):(?=\s|$)/g, "$1 "))));
        args[0] = Object.assign({}, message, { data: query });
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
