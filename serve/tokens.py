"""The secrets in the study links.

A link carries `secrets.token_urlsafe(TOKEN_BYTES)`: 256 random bits,
43 URL-safe characters. The data directory keeps only each token's SHA-256
digest, so a copy of the directory opens no session, and a lookup by digest
compares no secret byte by byte (no timing channel on the token).
"""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_BYTES = 32
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def well_formed(token: str) -> bool:
    """Whether `token` could be one of ours (checked before any lookup)."""
    return TOKEN_PATTERN.fullmatch(token) is not None
