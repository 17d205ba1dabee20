// The contact form with JavaScript: proves some work (an ALTCHA v1 challenge from the service,
// solved by solver.js in a worker), then sends the message with fetch and shows the answer in the
// page. Without JavaScript the form still works: a plain POST, then the thank-you page (the
// message, unproven, waits with the spam for review). When the proof fails, the message is sent
// all the same and the sender is told it waits for review: nothing typed is lost.
(function () {
  "use strict";

  // A solve should take about a second on a phone; one that takes far longer (a slow device, a
  // misconfigured difficulty) is given up and the message sent unverified, for review.
  var SOLVE_LIMIT_MS = 60000;

  // The page's words (words.js); the English here is the fallback.
  var words = siteWords.of;
  var tr = siteWords.tr;

  function start(form) {
    var button = form.querySelector("button[type=submit]");
    var status = form.querySelector("[data-status]");
    var table = words(form);

    // The status line's text and look (site.css styles [data-state]): verifying, sending, sent or
    // error.
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

    function tooMany(response) {
      var wait = Math.ceil(Number(response.headers.get("Retry-After") || 60) / 60);
      say("error", tr(table, "Too many messages. Please try again in %(minutes)s minute(s).", { minutes: wait }));
    }

    // The proof of work: the solution (base64 JSON, the `altcha` field), or null when it could
    // not be made (no challenge, no worker, or no answer in time). A 429 rejects with the response.
    function prove() {
      return fetch(form.getAttribute("data-challenge"), {
        headers: { Accept: "application/json" },
        cache: "no-store",
      })
        .then(function (response) {
          if (response.status === 429) throw response;
          if (!response.ok) return null;
          return response.json().then(function (challenge) {
            return solve(challenge).then(function (number) {
              if (number === null) return null;
              return btoa(
                JSON.stringify({
                  algorithm: challenge.algorithm,
                  challenge: challenge.challenge,
                  number: number,
                  salt: challenge.salt,
                  signature: challenge.signature,
                }),
              );
            });
          });
        })
        .catch(function (error) {
          if (error instanceof Response) throw error;
          return null;
        });
    }

    // The number the worker found, or null (none, a failure, or past the solver's time limit).
    function solve(challenge) {
      return new Promise(function (resolve) {
        var worker = new Worker(form.getAttribute("data-solver"));
        function done(number) {
          clearTimeout(timer);
          worker.terminate();
          resolve(number);
        }
        var timer = setTimeout(done, SOLVE_LIMIT_MS, null);
        worker.onmessage = function (event) {
          done(typeof event.data.number === "number" ? event.data.number : null);
        };
        worker.onerror = function () {
          done(null);
        };
        worker.postMessage(challenge);
      });
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
      say("verifying", tr(table, "Verifying that a person is sending this…"));
      var proven = true;
      prove()
        .then(function (solution) {
          if (solution) data.altcha = solution;
          else proven = false;
          say("sending", tr(table, "Sending…"));
          return fetch(form.action, {
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "application/json" },
            body: JSON.stringify(data),
          });
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
                say(
                  "sent",
                  proven
                    ? tr(table, "Thank you: your message was sent.")
                    : tr(
                        table,
                        "Thank you: your message was sent. Your browser could not verify it, so it " +
                          "waits for review and may be read later.",
                      ),
                );
                return;
              }
              var error = body.error || {};
              if (error.fields) showFieldErrors(error.fields);
              if (response.status === 429) {
                tooMany(response);
              } else {
                say(
                  "error",
                  tr(table, "Your message was not sent. %(reason)s", {
                    reason: error.message || tr(table, "Please try again later."),
                  }),
                );
              }
            });
        })
        .catch(function (failure) {
          if (failure instanceof Response) tooMany(failure);
          else say("error", tr(table, "Your message was not sent: the network failed. Please try again."));
        })
        .then(function () {
          button.disabled = false;
          form.removeAttribute("aria-busy");
        });
    });
  }

  document.querySelectorAll("[data-contact-form]").forEach(start);
})();
