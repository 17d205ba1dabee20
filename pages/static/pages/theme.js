// The colour theme: "system" (follow the device), "light" or "dark", remembered in localStorage.
// Loaded synchronously in <head> (an external file: the site's CSP allows no inline script), so
// <html data-theme> is set before the first paint and no page flashes the wrong theme. Without
// JavaScript the attribute is absent, the CSS follows the device and the toggle stays hidden.
(function () {
  "use strict";
  var KEY = "theme";
  var THEMES = ["system", "light", "dark"];
  var root = document.documentElement;

  function apply(theme) {
    theme = THEMES.indexOf(theme) < 0 ? "system" : theme;
    root.setAttribute("data-theme", theme);
    return theme;
  }

  function stored() {
    try {
      return localStorage.getItem(KEY);
    } catch (error) {
      return null; // storage blocked: follow the device
    }
  }

  var current = apply(stored());

  // The page's words (words.js); the English here is the fallback.
  var words = siteWords.of;
  var tr = siteWords.tr;

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    var label = button.querySelector("[data-theme-label]");
    var table = words(document.body);
    var LABELS = { system: "Theme: system", light: "Theme: light", dark: "Theme: dark" };
    function show() {
      label.textContent = tr(table, LABELS[current]);
    }
    show();
    button.addEventListener("click", function () {
      current = apply(THEMES[(THEMES.indexOf(current) + 1) % THEMES.length]);
      try {
        if (current === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, current);
      } catch (error) {
        // not remembered, still applied
      }
      show();
    });
    // A choice made in another tab applies here too.
    window.addEventListener("storage", function (event) {
      if (event.key === KEY) {
        current = apply(event.newValue);
        show();
      }
    });
  });
})();
