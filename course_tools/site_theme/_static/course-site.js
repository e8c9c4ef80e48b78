/* Course site: language switch that keeps the page and the section, remembered in localStorage. */
(function () {
  "use strict";
  var KEY = "course-lang";  // course_tools.site_pages.STORAGE_KEY: the root page reads it too
  var lang = document.documentElement.lang || "en";

  function store(value) {
    try { localStorage.setItem(KEY, value); } catch (e) { /* storage off: the switch still works */ }
  }

  // Index of the section being read: the last numbered section whose top is above 1/4 of the window.
  function currentSection() {
    var marks = document.querySelectorAll("article [id^='sec-']");
    var best = -1;
    var limit = window.innerHeight / 4;
    if (location.hash) {
      var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      var sec = target && target.closest("section");
      if (sec && sec.getBoundingClientRect().top <= limit && sec.getBoundingClientRect().bottom > 0) {
        var m = sec.querySelector(":scope > span[id^='sec-']") || (sec.id.indexOf("sec-") === 0 ? sec : null);
        if (m) return parseInt(m.id.slice(4), 10);
      }
    }
    for (var i = 0; i < marks.length; i++) {
      var section = marks[i].closest("section") || marks[i];
      if (section.getBoundingClientRect().top <= limit) best = parseInt(marks[i].id.slice(4), 10);
    }
    return best;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.course-lang-switch");
    if (!link) return;
    store(link.dataset.lang);
    if (/\/search\.html$/.test(location.pathname) && location.search) {
      event.preventDefault();  // the search page: run the same query in the other language
      location.href = link.getAttribute("href").split("#")[0] + location.search;
      return;
    }
    var n = currentSection();
    if (n > 0) {
      event.preventDefault();
      location.href = link.getAttribute("href").split("#")[0] + "#sec-" + n;
    }
  });

  // Arriving at page.html#sec-N: figures, formulas and above all the widgets (rendered on "load")
  // change the layout after the browser has jumped to the anchor. Until the reader scrolls, keep the
  // target at the top while the page settles (at most 5 s).
  if (location.hash && window.ResizeObserver) {
    var moved = false;
    ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (ev) {
      window.addEventListener(ev, function () { moved = true; }, { once: true, passive: true });
    });
    var keep = new ResizeObserver(function () {
      var t = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (t && !moved) t.scrollIntoView();
    });
    document.addEventListener("DOMContentLoaded", function () { keep.observe(document.body); });
    setTimeout(function () { keep.disconnect(); }, 5000);
  }

  // Sphinx's search page fetches every hit to show a snippet; a file:// page may not fetch (CORS), so
  // there it lists the hits without snippets instead of logging one error per hit.
  if (location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined")
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;

  // Reading a page in one language counts as choosing it, so the root page opens it next time.
  store(lang);
})();
