// A "Copy" button on every code block of a body (.prose pre): copies the block's text and says so,
// on the button and through a polite live region for screen readers. A file, not inline code (the
// site's CSP allows no inline script); without JavaScript there is no button, and no dead control.
(function () {
  "use strict";
  var SHOWN_MS = 2000;

  // The page's words (words.js); the English here is the fallback.
  var words = siteWords.of;
  var tr = siteWords.tr;

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    // Plain http on another host than localhost: the older way, through a selected text area.
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      document.body.appendChild(area);
      area.select();
      var done = document.execCommand("copy");
      area.remove();
      if (done) resolve();
      else reject(new Error("copy refused"));
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var blocks = document.querySelectorAll(".prose pre");
    if (!blocks.length) return;
    var table = words(document.body);
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("data-copy-status", "");
    document.body.appendChild(status);

    Array.prototype.forEach.call(blocks, function (pre) {
      var box = pre.parentNode;
      if (!box.classList.contains("highlight")) {
        // A block without the highlighter's box gets one, so the button is not inside <pre>.
        box = document.createElement("div");
        pre.parentNode.insertBefore(box, pre);
        box.appendChild(pre);
      }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-code";
      button.textContent = tr(table, "Copy");
      button.setAttribute("aria-label", tr(table, "Copy code"));
      var timer = null;
      button.addEventListener("click", function () {
        var text = (pre.querySelector("code") || pre).textContent.replace(/\n$/, "");
        copyText(text).then(
          function () {
            say(button, status, tr(table, "Copied"), tr(table, "Code copied to the clipboard"));
          },
          function () {
            say(
              button,
              status,
              tr(table, "Copy failed"),
              tr(table, "The code could not be copied: select it and copy it by hand"),
            );
          }
        );
        clearTimeout(timer);
        timer = setTimeout(function () {
          button.textContent = tr(table, "Copy");
          status.textContent = "";
        }, SHOWN_MS);
      });
      box.classList.add("has-copy");
      box.insertBefore(button, box.firstChild);
    });
  });

  function say(button, status, label, message) {
    button.textContent = label;
    // Emptied first, so the same message twice in a row is announced twice.
    status.textContent = "";
    setTimeout(function () {
      status.textContent = message;
    }, 50);
  }
})();
