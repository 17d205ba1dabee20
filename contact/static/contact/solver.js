// The contact form's proof of work (ALTCHA v1), solved off the page's thread: finds the number n
// (0 to maxnumber) whose SHA-256 of salt + n is the challenge. Started by contact.js as a Worker;
// answers {number} (null when no number fits) or {error}.
"use strict";

// Digests run this many at a time: one at a time, the wait for each answer dominates.
var BATCH = 256;

function bytesOf(hex) {
  var bytes = new Uint8Array(hex.length / 2);
  for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function same(buffer, expected) {
  var bytes = new Uint8Array(buffer);
  for (var i = 0; i < expected.length; i++) if (bytes[i] !== expected[i]) return false;
  return true;
}

async function solve(task) {
  var expected = bytesOf(task.challenge);
  var encoder = new TextEncoder();
  for (var start = 0; start <= task.maxnumber; start += BATCH) {
    var end = Math.min(start + BATCH - 1, task.maxnumber);
    var digests = [];
    for (var n = start; n <= end; n++) {
      digests.push(crypto.subtle.digest("SHA-256", encoder.encode(task.salt + n)));
    }
    var found = await Promise.all(digests);
    for (var i = 0; i < found.length; i++) if (same(found[i], expected)) return start + i;
  }
  return null;
}

self.onmessage = function (event) {
  var started = Date.now();
  solve(event.data).then(
    function (number) {
      self.postMessage({ number: number, took: Date.now() - started });
    },
    function (error) {
      self.postMessage({ error: String(error) });
    },
  );
};
