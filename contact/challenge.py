"""The proof of work the form's script solves before it posts: an ALTCHA v1 challenge.

The service hands out `{algorithm, challenge, salt, signature, maxnumber}`: `challenge` is the
SHA-256 of `salt` followed by a secret number up to `maxnumber`, `signature` the HMAC of
`challenge` with a key only the service knows, and the salt carries its expiry (`?expires=<unix
time>&`). The browser tries numbers until the hash matches (contact/static/contact/solver.js) and
sends back the base64 JSON of the challenge with the number: proof that it spent the work, and
that the challenge is ours (signed) and fresh. The service stores nothing to hand one out; a
solution is used once (`UsedChallenge`, recorded with the message it came with).
"""

import base64
import binascii
import hashlib
import json
import time
from datetime import UTC, datetime, timedelta

import altcha
from django.conf import settings
from django.utils.crypto import salted_hmac

ALGORITHM = "SHA-256"

# Why a post is spam (ContactMessage.spam_reason); "" when it is not.
MISSING, INVALID, EXPIRED, REPLAYED = "missing", "invalid", "expired", "replayed"
HONEYPOT, MARKED = "honeypot", "marked"

# A base64 JSON payload is a few hundred bytes; anything far longer is not one.
MAX_PAYLOAD_CHARS = 2000


def hmac_key():
    """CONTACT_CHALLENGE_HMAC_KEY, or a key derived from SECRET_KEY (never SECRET_KEY itself)."""
    return settings.CONTACT_CHALLENGE_HMAC_KEY or salted_hmac("contact.challenge", "key").hexdigest()


def create(now=None):
    """A new challenge as the JSON the form's script reads."""
    now = time.time() if now is None else now
    expires = datetime.fromtimestamp(now, UTC) + timedelta(seconds=settings.CONTACT_CHALLENGE_EXPIRY)
    made = altcha.create_challenge_v1(
        altcha.ChallengeOptionsV1(
            algorithm=ALGORITHM,
            max_number=settings.CONTACT_CHALLENGE_MAXNUMBER,
            hmac_key=hmac_key(),
            expires=expires,
        )
    )
    return {
        "algorithm": made.algorithm,
        "challenge": made.challenge,
        "salt": made.salt,
        "signature": made.signature,
        "maxnumber": made.max_number,
    }


class Verdict:
    """What a post's `altcha` field proves: `reason` is "" for a valid solution, else why not;
    `key` and `expires` name a valid solution's challenge, to record it as used."""

    def __init__(self, reason, key=None, expires=None):
        self.reason, self.key, self.expires = reason, key, expires


def verify(payload, now=None):
    """The Verdict on the `altcha` field's value (None or "" when the post had none). Replays are
    found when the message is stored (contact/dedupe.py), in the same transaction."""
    if not payload:
        return Verdict(MISSING)
    now = time.time() if now is None else now
    try:
        if len(payload) > MAX_PAYLOAD_CHARS:
            raise ValueError("too long")
        data = json.loads(base64.b64decode(payload, validate=True))
        if not isinstance(data, dict) or data.get("algorithm") != ALGORITHM:
            raise ValueError("not an ALTCHA SHA-256 payload")
        if not all(isinstance(data.get(key), str) for key in ("challenge", "salt", "signature")):
            raise ValueError("fields of the wrong type")
        if not isinstance(data.get("number"), int) or isinstance(data["number"], bool):
            raise ValueError("number is not an integer")
        expires = altcha.extract_params_v1(data).get("expires")
        expires = int(expires[0]) if expires else None
    except (ValueError, TypeError, binascii.Error, RecursionError):
        return Verdict(INVALID)
    # The signature first: an expiry is only worth believing in a challenge we signed.
    valid, _ = altcha.verify_solution_v1(data, hmac_key(), check_expires=False)
    if not valid or expires is None:
        return Verdict(INVALID)
    if expires < now:
        return Verdict(EXPIRED)
    key = hashlib.sha256(data["signature"].encode()).hexdigest()
    return Verdict("", key=key, expires=datetime.fromtimestamp(expires, UTC))
