"""The data directory of the study server.

    DATA/registry.json                  token digests -> what each token opens
    DATA/studies/STUDY/study.json       world, bank, condition, passes, seed, participants
    DATA/studies/STUDY/PARTICIPANT/     the participant's episode: trace.jsonl, report.json

Every path the server opens is built from identifiers it generated and
checked (`ID_PATTERN`), and is resolved and confirmed to lie inside the data
directory before use: nothing a request carries ever becomes a path, and a
registry or study file edited to point elsewhere is refused.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from . import tokens

FORMAT = 1
REGISTRY = "registry.json"
STUDY_FILE = "study.json"
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
MAX_PARTICIPANTS = 1000
MAX_CONSENT = 20_000  # characters
CONSENT_FILE = "consent.json"  # in a participant's folder, once they agreed
ROLES = ("participant", "researcher")


class StoreError(Exception):
    """A data directory, study or identifier that cannot be used; the
    message names the path or the identifier."""


@dataclass(frozen=True)
class Study:
    id: str
    language: str
    world: str  # a shipped world's name, or an absolute path to a world file
    bank: str | None  # an absolute path, or None for the world's own bank
    condition: str
    passes: int
    seed: int
    participants: tuple[str, ...]
    consent: str | None = None  # shown before the episode; the participant must agree

    def as_dict(self) -> dict[str, object]:
        out = asdict(self)
        out["participants"] = list(self.participants)
        return out


@dataclass(frozen=True)
class Grant:
    """What one token opens: a researcher's study, or one participant's session."""

    role: str
    study: str
    participant: str | None = None


def check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or ID_PATTERN.fullmatch(value) is None:
        raise StoreError(
            f"{what} {value!r} is not an identifier (lower-case letters, digits and '-', "
            "at most 40, starting with a letter or digit)"
        )
    return value


def write_atomic(path: Path, data: object) -> None:
    """Write JSON so that a crash leaves the old file or the new one, never half."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StoreError(f"{path}: missing") from None
    except (OSError, ValueError) as exc:
        raise StoreError(f"{path}: unreadable ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoreError(f"{path}: not a format-{FORMAT} file of the study server")
    return data


class Store:
    """One data directory. Safe to share between the server's threads."""

    def __init__(self, root: str | Path, create: bool = False) -> None:
        root = Path(root)
        if create:
            root.mkdir(parents=True, exist_ok=True)
        if not root.is_dir():
            raise StoreError(f"{root}: no such data directory (make one with `alienworlds create`)")
        self.root = root.resolve()
        self._lock = threading.Lock()
        self._grants: dict[str, Grant] = {}
        self._stamp: tuple[int, int] | None = None

    # -- paths ----------------------------------------------------------------
    def inside(self, *parts: str) -> Path:
        """root/parts..., refused unless it resolves inside the data directory."""
        path = self.root.joinpath(*parts).resolve()
        if not path.is_relative_to(self.root) or path == self.root:
            raise StoreError(f"{'/'.join(parts)}: outside the data directory")
        return path

    def study_dir(self, study_id: str) -> Path:
        return self.inside("studies", check_id(study_id, "study"))

    def participant_dir(self, study_id: str, participant: str) -> Path:
        return self.inside(
            "studies", check_id(study_id, "study"), check_id(participant, "participant")
        )

    # -- studies --------------------------------------------------------------
    def study(self, study_id: str) -> Study:
        data = _read_json(self.study_dir(study_id) / STUDY_FILE)
        try:
            study = Study(
                id=check_id(data["id"], "study"),
                language=str(data["language"]),
                world=str(data["world"]),
                bank=None if data.get("bank") is None else str(data["bank"]),
                condition=str(data["condition"]),
                passes=int(data["passes"]),
                seed=int(data["seed"]),
                participants=tuple(check_id(p, "participant") for p in data["participants"]),
                consent=None if data.get("consent") is None else str(data["consent"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"{self.study_dir(study_id) / STUDY_FILE}: {exc}") from None
        if study.id != study_id:
            raise StoreError(f"study {study_id!r}: its file names another study ({study.id!r})")
        return study

    def studies(self) -> list[Study]:
        folder = self.root / "studies"
        if not folder.is_dir():
            return []
        return [
            self.study(p.name)
            for p in sorted(folder.iterdir())
            if ID_PATTERN.fullmatch(p.name) and (p / STUDY_FILE).is_file()
        ]

    def create(
        self,
        language: str,
        world: str,
        bank: str | None,
        condition: str,
        passes: int,
        seed: int,
        count: int,
        study_id: str | None = None,
        consent: str | None = None,
    ) -> tuple[Study, str, list[tuple[str, str]]]:
        """A new study of `count` participants: the study, the researcher's
        token, and (participant id, token) pairs. Tokens are returned once
        and kept only as digests."""
        if not 1 <= count <= MAX_PARTICIPANTS:
            raise StoreError(f"participants: {count} is not between 1 and {MAX_PARTICIPANTS}")
        study_id = check_id(study_id or "s" + secrets.token_hex(4), "study")
        folder = self.study_dir(study_id)
        ids = [f"p{n:0{len(str(count))}d}" for n in range(1, count + 1)]
        if consent is not None and not 0 < len(consent) <= MAX_CONSENT:
            raise StoreError(f"the consent text must have 1 to {MAX_CONSENT} characters")
        study = Study(study_id, language, world, bank, condition, passes, seed, tuple(ids), consent)
        with self._lock:
            try:
                folder.mkdir(parents=True)
            except FileExistsError:
                raise StoreError(f"study {study_id!r} already exists in {self.root}") from None
            for pid in ids:
                self.participant_dir(study_id, pid).mkdir()
            write_atomic(folder / STUDY_FILE, {"format": FORMAT, **study.as_dict()})
            researcher = tokens.new_token()
            links = [(pid, tokens.new_token()) for pid in ids]
            grants = self._load_registry()
            grants[tokens.digest(researcher)] = Grant("researcher", study_id)
            for pid, token in links:
                grants[tokens.digest(token)] = Grant("participant", study_id, pid)
            write_atomic(
                self.root / REGISTRY,
                {"format": FORMAT, "tokens": {d: asdict(g) for d, g in grants.items()}},
            )
            self._grants, self._stamp = grants, self._registry_stamp()
        return study, researcher, links

    # -- tokens ---------------------------------------------------------------
    def _registry_stamp(self) -> tuple[int, int] | None:
        try:
            st = (self.root / REGISTRY).stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _load_registry(self) -> dict[str, Grant]:
        path = self.root / REGISTRY
        if not path.exists():
            return {}
        grants = {}
        for key, value in (_read_json(path).get("tokens") or {}).items():
            try:
                grant = Grant(**value)
            except TypeError:
                raise StoreError(f"{path}: a token entry is malformed") from None
            if grant.role not in ROLES or not re.fullmatch(r"[0-9a-f]{64}", key):
                raise StoreError(f"{path}: a token entry is malformed")
            check_id(grant.study, "study")
            if grant.participant is not None:
                check_id(grant.participant, "participant")
            grants[key] = grant
        return grants

    def grant(self, token: str) -> Grant | None:
        """What `token` opens, or None. The registry is read again when it
        changed on disk (a study created while the server runs)."""
        if not tokens.well_formed(token):
            return None
        with self._lock:
            stamp = self._registry_stamp()
            if stamp != self._stamp:
                self._grants, self._stamp = self._load_registry(), stamp
            return self._grants.get(tokens.digest(token))
