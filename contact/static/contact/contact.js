// The contact form with JavaScript: sends it with fetch and shows the answer in the page.
// Without JavaScript the form still works: a plain POST, then the thank-you page.
(function () {
  "use strict";

  function start(form) {
    var button = form.querySelector("button[type=submit]");
    var status = form.querySelector("[data-status]");

    // The status line's text and look (site.css styles [data-state]): sending, sent or error.
    function say(state, text) {
      status.setAttribute("data-state", state);
      status.textContent = text;
    }

    function clearErrors() {
      form.querySelectorAll("[data-error-for]").forEach(function (slot) {
        slot.textContent = "";
        var input = form.elements[slot.getAttribute("data-error-for")];
        if (input) input.removeAttribute("aria-invalid");
      });
    }

    // An error stays until its field is edited.
    form.addEventListener("input", function (event) {
      var slot = form.querySelector('[data-error-for="' + event.target.name + '"]');
      if (slot && event.target.hasAttribute("aria-invalid")) {
        slot.textContent = "";
        event.target.removeAttribute("aria-invalid");
      }
    });

    function showFieldErrors(fields) {
      var first = null;
      Object.keys(fields).forEach(function (name) {
        var slot = form.querySelector('[data-error-for="' + name + '"]');
        var input = form.elements[name];
        if (!slot || !input) return;
        slot.textContent = fields[name].join(" ");
        input.setAttribute("aria-invalid", "true");
        first = first || input;
      });
      if (first) first.focus();
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearErrors();
      var data = {};
      new FormData(form).forEach(function (value, name) {
        data[name] = value;
      });
      button.disabled = true;
      form.setAttribute("aria-busy", "true");
      say("sending", "Sending…");
      fetch(form.action, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(data),
      })
        .then(function (response) {
          return response
            .json()
            .catch(function () {
              return {};
            })
            .then(function (body) {
              if (response.ok) {
                form.reset();
                say("sent", "Thank you: your message was sent.");
                return;
              }
              var error = body.error || {};
              if (error.fields) showFieldErrors(error.fields);
              if (response.status === 429) {
                var wait = Math.ceil(Number(response.headers.get("Retry-After") || 60) / 60);
                say("error", "Too many messages. Please try again in " + wait + " minute(s).");
              } else {
                say("error", "Your message was not sent. " + (error.message || "Please try again later."));
              }
            });
        })
        .catch(function () {
          say("error", "Your message was not sent: the network failed. Please try again.");
        })
        .then(function () {
          button.disabled = false;
          form.removeAttribute("aria-busy");
        });
    });
  }

  document.querySelectorAll("[data-contact-form]").forEach(start);
})();
