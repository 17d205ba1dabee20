// The contact form's proof of work (ALTCHA v1), solved off the page's thread: finds the number n
// (0 to maxnumber) whose SHA-256 of salt + n is the challenge. Started by contact.js as a Worker;
// answers {number} (null when no number fits) and how long it took.
//
// SHA-256 is computed here, not with Web Crypto: crypto.subtle.digest answers each call through a
// promise, and a hundred thousand small hashes ran 20 times slower that way in Chromium (it is
// also missing from pages not served over HTTPS). This is FIPS 180-4's SHA-256, for messages
// held in a byte array; the service checks every answer with Python's hashlib.
"use strict";
var K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
var W = new Int32Array(64);
var H = new Int32Array(8);

// The hash of bytes[0 .. length) into H.
function sha256(bytes, length) {
  var blocks = ((length + 8) >> 6) + 1;
  H[0] = 0x6a09e667; H[1] = 0xbb67ae85; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a;
  H[4] = 0x510e527f; H[5] = 0x9b05688c; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
  for (var block = 0; block < blocks; block++) {
    for (var i = 0; i < 16; i++) {
      var word = 0;
      for (var j = 0; j < 4; j++) {
        var at = block * 64 + i * 4 + j;
        var byte = at < length ? bytes[at] : at === length ? 0x80 : 0;
        word = (word << 8) | byte;
      }
      W[i] = word;
    }
    if (block === blocks - 1) { W[14] = (length / 0x20000000) | 0; W[15] = length << 3; }
    for (i = 16; i < 64; i++) {
      var a15 = W[i - 15], a2 = W[i - 2];
      var s0 = ((a15 >>> 7) | (a15 << 25)) ^ ((a15 >>> 18) | (a15 << 14)) ^ (a15 >>> 3);
      var s1 = ((a2 >>> 17) | (a2 << 15)) ^ ((a2 >>> 19) | (a2 << 13)) ^ (a2 >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
    }
    var a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (i = 0; i < 64; i++) {
      var t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
        ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
      var t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) +
        ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    H[0] = (H[0] + a) | 0; H[1] = (H[1] + b) | 0; H[2] = (H[2] + c) | 0; H[3] = (H[3] + d) | 0;
    H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + h) | 0;
  }
}

// The number whose hash is the challenge (compared as eight 32-bit words), or null.
function solve(task) {
  var expected = new Int32Array(8);
  for (var i = 0; i < 8; i++) expected[i] = parseInt(task.challenge.substr(i * 8, 8), 16) | 0;
  var bytes = new Uint8Array(task.salt.length + 16);
  for (i = 0; i < task.salt.length; i++) bytes[i] = task.salt.charCodeAt(i);
  for (var n = 0; n <= task.maxnumber; n++) {
    var digits = String(n), length = task.salt.length;
    for (i = 0; i < digits.length; i++) bytes[length++] = digits.charCodeAt(i);
    sha256(bytes, length);
    if (H[0] === expected[0] && H[1] === expected[1] && H[2] === expected[2] && H[3] === expected[3] &&
        H[4] === expected[4] && H[5] === expected[5] && H[6] === expected[6] && H[7] === expected[7]) return n;
  }
  return null;
}

self.onmessage = function (event) {
  var started = Date.now();
  self.postMessage({ number: solve(event.data), took: Date.now() - started });
};
