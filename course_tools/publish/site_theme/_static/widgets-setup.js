/* Loaded before require.js and the widget renderer (nb_ipywidgets_js in conf.py).
   The renderer's file defines several AMD modules ("@jupyter-widgets/html-manager/dist/libembed-amd",
   "@jupyter-widgets/base", "@jupyter-widgets/controls", ...), and each one's CSS declares the icon fonts
   (Font Awesome 5) relative to the URL require.js gives that module — by default <page folder>/@jupyter-widgets/…,
   which does not exist. Whichever declaration the browser meets last wins, so with only libembed-amd mapped a
   page asked for the fonts at the missing address now and then (the theme's icons make the browser load the
   "Font Awesome 5 Free" face). Map every "@jupyter-widgets/..." name to the folder the fonts were copied to.
   require.js reads a plain `require` object defined before it loads as its configuration. */
(function () {
  var s = document.currentScript && document.currentScript.src;
  if (!s) return;
  var dir = s.replace(/widgets-setup\.js(\?.*)?$/, "");
  // anywidget (the explorers' widget class): the copy in _static/, not a CDN address built from its version.
  // waitSeconds 0: no time limit on a module's load. With require.js's default (7 s), a page loaded on a
  // busy machine gave up on anywidget, and the widget renderer then asked its "CDN" (no-widget-cdn/) for it
  window.require = {
    waitSeconds: 0,
    paths: {
      "@jupyter-widgets/html-manager/dist": dir + "html-manager",
      "@jupyter-widgets": dir + "html-manager",
      anywidget: dir + "anywidget/index",
    },
  };
})();

/* The widget renderer typesets labels with the MathJax 2 call MathJax.Hub.Queue(["Typeset", Hub, el]);
   the site runs MathJax 3, which has no Hub. Widgets render on window "load", after the deferred MathJax
   script has replaced window.MathJax, so adding the shim at DOMContentLoaded (and now) is enough. */
(function () {
  function shim() {
    var MJ = window.MathJax;
    if (!MJ || MJ.Hub) return;
    MJ.Hub = {
      Queue: function (job) {
        var el = job && job[2];
        var M = window.MathJax;
        if (el && M && M.typesetPromise && M.startup)
          M.startup.promise = M.startup.promise.then(function () { return M.typesetPromise([el]); });
      },
    };
  }
  shim();
  document.addEventListener("DOMContentLoaded", shim);
})();
