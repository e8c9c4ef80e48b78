/* Course site: language switch that keeps the page and the section, remembered in localStorage. */
(function () {
  "use strict";
  var KEY = "course-lang";  // course_tools.publish.site_pages.STORAGE_KEY: the root page reads it too
  var lang = document.documentElement.lang || "en";

  function store(value) {
    try { localStorage.setItem(KEY, value); } catch (e) { /* storage off: the switch still works */ }
  }

  // Arrived at page.html#sec-N (a switch, a link): until the reader scrolls, N is the section read,
  // wherever late layout (widgets, formulas, fonts) has moved it since; measuring it again once landed
  // one section earlier on each switch. A click or a key on the switch itself is not a scroll.
  var arrived = /^#sec-\d+$/.test(location.hash) ? parseInt(location.hash.slice(5), 10) : -1;
  var moved = false;
  function reading(event) {
    if (event.target && event.target.closest && event.target.closest("a.course-lang-switch")) return;
    moved = true;
  }
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (ev) {
    window.addEventListener(ev, reading, { passive: true, capture: true });
  });

  // Focusing the switch (Tab, or a click) made the browser scroll the sticky header's link "into view":
  // the page jumped up by half a screen, and the switch then read an earlier section. The scroll
  // position as the last frame left it (scroll events come once per frame, after the focus) is put
  // back, so the page stays where the reader was.
  var settledX = window.scrollX, settledY = window.scrollY;
  window.addEventListener("scroll", function () { settledX = window.scrollX; settledY = window.scrollY; }, { passive: true });
  document.addEventListener("focusin", function (event) {
    if (!event.target.closest || !event.target.closest("a.course-lang-switch")) return;
    if (window.scrollY !== settledY || window.scrollX !== settledX) window.scrollTo(settledX, settledY);
  }, true);

  // Index of the section being read: the section arrived at, if the reader has not moved since; else
  // the last numbered section whose top is above 1/4 of the window.
  function currentSection() {
    if (arrived >= 0 && !moved) return arrived;
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
      var box = section.getBoundingClientRect();
      // a section folded away in a closed deep dive has no box (its top reads 0): not one being read
      if (box.width === 0 && box.height === 0) continue;
      if (box.top <= limit) best = parseInt(marks[i].id.slice(4), 10);
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
  // target at the top whenever the page's size changes (late on a slow machine as well).
  if (location.hash && window.ResizeObserver) {
    var keep = new ResizeObserver(function () {
      var t = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (!moved && t) t.scrollIntoView();
      if (moved) keep.disconnect();
    });
    document.addEventListener("DOMContentLoaded", function () { keep.observe(document.body); });
  }

  // Sphinx's search page fetches every hit to show a snippet; a file:// page may not fetch (CORS), so
  // there it lists the hits without snippets instead of logging one error per hit.
  if (location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined")
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;

  // Reading a page in one language counts as choosing it, so the root page opens it next time.
  store(lang);

  // A link into a deep dive (the table of contents, a search hit, #sec-N from the other language)
  // opens it: its section holds the <details>, anything inside it lies within.
  function openDeepDive() {
    if (!location.hash) return;
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    var section = target.closest("section");
    var fold = target.closest("details.course-deep-dive") ||
      (section && section.querySelector(":scope > details.course-deep-dive"));
    while (fold) {
      fold.open = true;
      fold = fold.parentElement && fold.parentElement.closest("details.course-deep-dive");
    }
    if (!moved) target.scrollIntoView();
  }
  window.addEventListener("hashchange", openDeepDive);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", openDeepDive);
  else openDeepDive();
})();
