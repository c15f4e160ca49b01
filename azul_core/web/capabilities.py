"""Capability secrets: made by ``secrets``, stored only as hashes, compared in constant time.

A table's links are capabilities (W3C TAG, "Good Practices for Capability
URLs"): whoever holds a seat's secret plays that seat. A secret has 128 bits
or more, so one SHA-256 is enough to store it (no password stretching: it
can't be guessed), and a stolen database holds no usable link.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Bytes of randomness in table ids and secrets (128 bits; token_urlsafe gives 22 characters).
TOKEN_BYTES = 16


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(secret: str | None, stored_digest: str | None) -> bool:
    """Whether ``secret`` is the one whose digest is stored (constant time in the secret)."""
    if not secret or not stored_digest:
        return False
    return hmac.compare_digest(digest(secret), stored_digest)


def bearer(header: str | None) -> str | None:
    """The secret of an ``Authorization: Bearer SECRET`` header, or None."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
