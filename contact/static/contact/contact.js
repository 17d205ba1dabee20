// The contact form with JavaScript: sends it with fetch and shows the answer in the page.
// Without JavaScript the form still works: a plain POST, then the thank-you page.
(function () {
  "use strict";

  function start(form) {
    var button = form.querySelector("button[type=submit]");
    var status = form.querySelector("[data-status]");

    function clearErrors() {
      form.querySelectorAll("[data-error-for]").forEach(function (slot) {
        slot.textContent = "";
        var input = form.elements[slot.getAttribute("data-error-for")];
        if (input) input.removeAttribute("aria-invalid");
      });
    }

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
      status.textContent = "Sending…";
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
                status.textContent = "Thank you: your message was sent.";
                return;
              }
              var error = body.error || {};
              if (error.fields) showFieldErrors(error.fields);
              if (response.status === 429) {
                var wait = Math.ceil(Number(response.headers.get("Retry-After") || 60) / 60);
                status.textContent = "Too many messages. Please try again in " + wait + " minute(s).";
              } else {
                status.textContent = "Your message was not sent. " + (error.message || "Please try again later.");
              }
            });
        })
        .catch(function () {
          status.textContent = "Your message was not sent: the network failed. Please try again.";
        })
        .then(function () {
          button.disabled = false;
        });
    });
  }

  document.querySelectorAll("[data-contact-form]").forEach(start);
})();
