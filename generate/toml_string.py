"""TOML basic strings, as every generated file writes them.

JSON's escapes are TOML's, and JSON escapes every control character TOML
forbids in a basic string but one: DEL (U+007F), which JSON leaves as it is.
"""

from __future__ import annotations

import json


def basic_string(text: str) -> str:
    """`text` as a TOML basic string (non-ASCII characters kept as they are)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
