// The comments (templates/includes/comments.html): giscus' client.js is added only when the
// reader presses the button, so nothing is fetched from giscus before. Its theme is the site's
// as the reader picked it (theme.js sets <html data-theme>: light, dark, or system, the device's),
// and follows it when it changes.
(function () {
  "use strict";
  var root = document.documentElement;

  // giscus' language: the page's (<html lang>), in giscus' names (its zh-CN is Django's zh-hans).
  var GISCUS_NAMES = { "zh-hans": "zh-CN", "zh-hant": "zh-TW" };
  function language() {
    var lang = (root.getAttribute("lang") || "en").toLowerCase();
    return GISCUS_NAMES[lang] || lang;
  }

  function theme() {
    var picked = root.getAttribute("data-theme");
    if (picked === "light" || picked === "dark") return picked;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  document.addEventListener("DOMContentLoaded", function () {
    var section = document.querySelector("[data-comments]");
    if (!section) return;
    var button = section.querySelector("[data-comments-load]");
    var data = section.dataset;
    button.addEventListener("click", function () {
      var script = document.createElement("script");
      script.src = data.origin + "/client.js";
      var settings = {
        "data-repo": data.repo,
        "data-repo-id": data.repoId,
        "data-category": data.category,
        "data-category-id": data.categoryId,
        "data-mapping": data.mapping,
        "data-strict": "0",
        "data-reactions-enabled": "1",
        "data-emit-metadata": "0",
        "data-input-position": "bottom",
        "data-theme": theme(),
        "data-lang": language(),
      };
      Object.keys(settings).forEach(function (name) {
        script.setAttribute(name, settings[name]);
      });
      script.crossOrigin = "anonymous";
      script.async = true;
      section.querySelector(".giscus").parentNode.appendChild(script);
      button.hidden = true;
      section.setAttribute("data-comments-loaded", "");
      // A later change of theme (the toggle, or the device's while on system) reaches the thread.
      function follow() {
        var frame = section.querySelector("iframe.giscus-frame");
        if (frame && frame.contentWindow) {
          frame.contentWindow.postMessage({ giscus: { setConfig: { theme: theme() } } }, data.origin);
        }
      }
      new MutationObserver(follow).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
      if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", follow);
    });
  });
})();
