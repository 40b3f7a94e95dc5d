"""The study server against hostile requests: other participants' tokens,
missing and forged tokens, forged request keys and actions, path traversal,
oversized bodies and request floods, each generated in many variants. Every
response is also scanned for what must never leave the server (the world
file, references, expected outputs, token digests, another participant's
probes). The terminal summary counts the cases and how many held."""

import json
import random
import string
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from alienworlds.episode.metrics import compute_report
from alienworlds.episode.trace import read_trace
from alienworlds.serve import tokens
from alienworlds.serve.app import MAX_TEXT, ServerLimits, application
from alienworlds.serve.limits import Rate
from alienworlds.serve.store import Store, StoreError
from serve_participant import ScriptedParticipant
from serve_testing import act, make_study, wait_view
from starlette.testclient import TestClient

FAST = ServerLimits(client_rate=Rate(1000.0, 100_000), action_rate=Rate(1000.0, 100_000))
RNG_SEED = 29
PARTICIPANT_ROUTES = ("/p/{}", "/api/p/{}/state", "/api/p/{}/briefing")
RESEARCHER_ROUTES = ("/r/{}", "/api/r/{}/status")


def raw(client, method: str, path: str, body: bytes = b"", headers=(), address="10.9.8.7"):
    """One request straight into the ASGI app, the path exactly as given
    (no client-side normalisation of dot segments or escapes)."""

    async def go():
        raw_path = path.encode("latin-1", "replace")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": unquote(path.split("?")[0]),
            "raw_path": raw_path,
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"testserver"), *headers],
            "client": (address, 40000),
            "server": ("testserver", 80),
        }
        chunks = [body[i : i + 4096] for i in range(0, len(body), 4096)] or [b""]
        sent = {"status": None, "body": b""}

        async def receive():
            if chunks:
                chunk = chunks.pop(0)
                return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
            elif message["type"] == "http.response.body":
                sent["body"] += message.get("body", b"")

        await client.app(scope, receive, send)
        return sent["status"], sent["body"]

    return client.portal.call(go)


def secrets_of(env, made) -> list[str]:
    """Texts that must never appear in a response."""
    world_text = Path(env.world.source).read_text(encoding="utf-8")
    out = [line.strip() for line in world_text.splitlines() if "actual" in line]
    out += [r.actual for r in env.world.rules if len(r.actual) >= 8 and r.actual != "IDENTITY"]
    for task in env.bank.tasks:
        if task.kind != "prediction" and len(task.reference.strip()) >= 12:
            out.append(task.reference.strip())
        elif task.kind == "prediction":
            expected = env.expected_output(task.id)
            if len(expected) >= 12:
                out.append(expected)
    registry = (made.data / "registry.json").read_text()
    out += list(json.loads(registry)["tokens"])  # the digests
    # what the system prompt shows (a worked example may be a task's reference) is public
    public = env.system_prompt()
    return [s for s in out if s and s not in public]


@pytest.fixture()
def server(tmp_path):
    made = make_study(tmp_path / "data", count=4)
    made_b = Store(made.data).create("aliencode", "demo", None, "autonomous", 3, 0, 2, "other")
    with TestClient(application(made.data, FAST)) as client:
        yield made, made_b, client


def _trace_len(made, participant):
    path = made.data / "studies" / made.study.id / participant / "trace.jsonl"
    return len(read_trace(path)) if path.exists() else 0


def test_tokens_open_only_their_own_session(server, tally, demo_env):
    made, (other_study, other_researcher, other_links), client = server
    markers = {}
    bodies = []
    for pid, token in made.tokens.items():
        view = wait_view(client, token)
        # reach exploration: answer M0 with nothing
        while view["phase"] != "explore":
            view = act(client, token, view, "answer", "").json()
            view = wait_view(client, token) if view["phase"] == "working" else view
        markers[pid] = f'EMIT("secret-probe-of-{pid}")'
        response = act(client, token, view, "probe", markers[pid])
        bodies.append((pid, response.text))
    for pid, token in made.tokens.items():
        for route in PARTICIPANT_ROUTES:
            bodies.append((pid, client.get(route.format(token)).text))
    for pid, body in bodies:
        for other, marker in markers.items():
            if other != pid:
                tally.check(
                    "another participant's data",
                    json.dumps(marker)[1:-1] not in body and marker not in body,
                    f"{other} in {pid}",
                )
    # every participant's key replayed from every other participant's token acts on the
    # token's own session only: the other's trace never changes
    for token in made.tokens.values():
        wait_view(client, token)
    for pid, token in made.tokens.items():
        for other in made.tokens:
            if other == pid:
                continue
            before = _trace_len(made, other)
            act(client, token, {"key": "r9/turn99"}, "probe", "EMIT(1)")
            tally.check(
                "another participant's token",
                _trace_len(made, other) == before,
                f"{pid} -> {other}",
            )
    # researcher and participant tokens, of this study and the other, on each other's routes
    crossed = [(t, RESEARCHER_ROUTES) for t in made.tokens.values()]
    crossed += [(made.researcher, PARTICIPANT_ROUTES), (made.researcher, ("/api/p/{}/act",))]
    crossed += [(t, RESEARCHER_ROUTES) for _, t in other_links]
    for token, routes in crossed:
        for route in routes:
            method = "POST" if route.endswith("act") else "GET"
            status, _ = raw(client, method, route.format(token), b"{}")
            tally.check("token used out of its scope", status == 404, f"{route} -> {status}")
    status = client.get(f"/api/r/{other_researcher}/status").json()
    tally.check(
        "token used out of its scope",
        status["study"]["id"] == "other"
        and all(r["participant"] in ("p1", "p2") for r in status["participants"]),
    )


def _forged_tokens(real: str, rng: random.Random) -> list[str]:
    alphabet = string.ascii_letters + string.digits + "-_"
    out = ["".join(rng.choice(alphabet) for _ in range(43)) for _ in range(40)]
    for position in range(len(real)):  # every single-character change of a real token
        replacement = alphabet[(alphabet.index(real[position]) + 1) % len(alphabet)]
        out.append(real[:position] + replacement + real[position + 1 :])
    out += [real[:-1], real + "A", real.upper(), real.lower(), real[::-1], " " + real, real + " "]
    out += [tokens.digest(real), quote(real + "/"), real + "%00", "%2e%2e", "null", "undefined"]
    out += ["é" * 43, "A" * 10_000, "0", "-" * 43]
    return [t for t in out if t != real]


def test_missing_and_forged_tokens_get_the_same_404(server, tally):
    made, _, client = server
    rng = random.Random(RNG_SEED)
    real = made.tokens["p1"]
    for route in (*PARTICIPANT_ROUTES, *RESEARCHER_ROUTES, "/api/p/{}/act"):
        method = "POST" if route.endswith("act") else "GET"
        for missing in ("", "/", "//"):
            status, _ = raw(client, method, route.format("").replace("//", missing or "/"))
            tally.check("missing token", status in (404, 405), f"{route} {missing!r} -> {status}")
        for forged in _forged_tokens(real, rng):
            status, body = raw(client, method, route.format(quote(forged, safe="")), b"{}")
            tally.check(
                "forged token",
                status in (404, 405) and real.encode() not in body,
                f"{route} {forged[:50]!r} -> {status}",
            )
    for pid in made.tokens:  # participant ids and study ids are not tokens
        for name in (pid, f"st-{pid}", "st", made.study.id):
            status, _ = raw(client, "GET", f"/api/p/{name}/state")
            tally.check("forged token", status == 404, name)


def test_forged_request_keys_and_actions_change_nothing(server, tally, demo_env):
    made, _, client = server
    token = made.tokens["p1"]
    rng = random.Random(RNG_SEED)
    view = wait_view(client, token)
    past = []
    while view["phase"] != "explore":
        past.append(view["key"])
        view = act(client, token, view, "answer", "").json()
        view = wait_view(client, token) if view["phase"] == "working" else view
    act(client, token, view, "probe", "EMIT(1)")
    past.append(view["key"])
    view = wait_view(client, token)
    keys = past + [
        "r1/turn9",
        "r4/turn1",
        "M4/rules",
        "M1/T1/1",
        "header",
        "end",
        "",
        "/",
        "../../x",
    ]
    keys += [
        "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 80))) for _ in range(30)
    ]
    keys += [view["key"] + suffix for suffix in (" ", "/", "\x00", "é")]
    for key in keys:
        for action in ("probe", "end-round", "answer"):
            before = _trace_len(made, "p1")
            response = act(client, token, {"key": key}, action, "EMIT(2)")
            held = response.status_code == 409 and _trace_len(made, "p1") == before
            tally.check("forged request key", held, f"{key!r} {action} -> {response.status_code}")
    bad_bodies = [
        {"action": "probe"},
        {"action": "probe", "key": view["key"], "text": 5},
        {"action": "probe", "key": 7, "text": ""},
        {"action": ["probe"], "key": view["key"]},
        {"action": "probe", "key": view["key"], "refuse": "yes"},
        {"action": "answer", "key": view["key"], "text": "x"},  # nothing is asked in a round
        {"action": "answer", "key": view["key"], "refuse": True},
        {"action": "shutdown", "key": view["key"]},
        {"action": "probe", "key": view["key"], "text": "x" * (MAX_TEXT + 1)},
        [],
        "probe",
        None,
    ]
    for body in bad_bodies:
        before = _trace_len(made, "p1")
        response = client.post(f"/api/p/{token}/act", content=json.dumps(body))
        tally.check(
            "forged action",
            400 <= response.status_code < 500 and _trace_len(made, "p1") == before,
            f"{body!r:.80} -> {response.status_code}",
        )
    for junk in (b"not json", b"\xff\xfe", b"{" * 5000, b'{"a":' * 3000):
        response = client.post(f"/api/p/{token}/act", content=junk)
        tally.check(
            "forged action", response.status_code == 400, f"{junk[:20]!r} -> {response.status_code}"
        )
    tally.check(
        "forged action",
        wait_view(client, token)["key"] == view["key"],
        "the session still waits on its own request",
    )


TRAVERSALS = [
    "../registry.json",
    "..%2fregistry.json",
    "..%2f..%2fregistry.json",
    "%2e%2e/%2e%2e/registry.json",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "..%5c..%5cregistry.json",
    "..\\..\\registry.json",
    "....//....//etc/passwd",
    "%252e%252e%252fregistry.json",
    "studies/st/p1/trace.jsonl",
    "../studies/st/p1/trace.jsonl",
    "/etc/passwd",
    "..%00/registry.json",
    "%c0%ae%c0%ae/registry.json",
    ".%2e/.%2e/registry.json",
    "play.js/../../registry.json",
]
PREFIXES = [
    "/",
    "/static/",
    "/static/..",
    "/p/",
    "/api/p/",
    "/r/",
    "/api/r/",
    "/api/p/{t}/",
    "/p/{t}/",
]


def test_no_path_escapes_the_data_directory(server, tally):
    made, _, client = server
    secrets = [
        (made.data / "registry.json").read_text()[:40],
        "root:x:0:0",
        '"type":"header"',
        next(iter(json.loads((made.data / "registry.json").read_text())["tokens"])),
    ]
    wait_view(client, made.tokens["p1"])  # a trace exists
    for prefix in PREFIXES:
        for payload in TRAVERSALS:
            path = prefix.replace("{t}", made.tokens["p1"]) + payload
            for method in ("GET", "POST"):
                status, body = raw(client, method, path, b"{}")
                text = body.decode("utf-8", "replace")
                held = status in (404, 405) and not any(s in text for s in secrets)
                tally.check("path traversal", held, f"{method} {path} -> {status}")
    store = Store(made.data)
    for name in ("..", "../x", "a/b", ".hidden", "", "A", "x" * 41, "p1\x00", "/etc", "%2e%2e"):
        for build in (lambda n: store.participant_dir("st", n), lambda n: store.study_dir(n)):
            try:
                build(name)
                held = False
            except StoreError:
                held = True
            tally.check("path traversal", held, f"identifier {name!r}")


def test_tampered_data_files_cannot_point_outside(tmp_path, tally):
    made = make_study(tmp_path / "data", count=1)
    study_file = made.data / "studies" / "st" / "study.json"
    good = json.loads(study_file.read_text())
    for bad in ("../../..", "../other", "p1/../../x", "/tmp", "P1"):
        study_file.write_text(json.dumps({**good, "participants": [bad]}))
        try:
            Store(made.data).study("st")
            held = False
        except StoreError:
            held = True
        tally.check("path traversal", held, f"study.json participant {bad!r}")
    study_file.write_text(json.dumps(good))
    registry = made.data / "registry.json"
    original = json.loads(registry.read_text())
    for field, bad in (("study", "../.."), ("participant", "../../etc"), ("role", "admin")):
        entries = {k: {**v, field: bad} for k, v in original["tokens"].items()}
        registry.write_text(json.dumps({**original, "tokens": entries}))
        try:
            Store(made.data).grant(made.tokens["p1"])
            held = False
        except StoreError:
            held = True
        tally.check("path traversal", held, f"registry {field}={bad!r}")
    registry.write_text(json.dumps(original))
    outside = tmp_path / "outside"
    outside.mkdir()
    (made.data / "studies" / "st" / "p1").rmdir()
    (made.data / "studies" / "st" / "p1").symlink_to(outside)
    try:
        Store(made.data).participant_dir("st", "p1")
        held = False
    except StoreError:
        held = True
    tally.check("path traversal", held, "a participant folder linked outside")


def test_oversized_bodies_are_refused_before_they_are_read(tmp_path, tally):
    made = make_study(tmp_path / "data", count=1)
    limit = 4096
    limits = ServerLimits(
        body_bytes=limit, client_rate=FAST.client_rate, action_rate=FAST.action_rate
    )
    with TestClient(application(made.data, limits)) as client:
        token = made.tokens["p1"]
        view = wait_view(client, token)
        path = f"/api/p/{token}/act"
        for size in (limit + 1, limit + 2, 2 * limit, 10 * limit, 2**20, 8 * 2**20):
            padding = "x" * size
            body = json.dumps({"action": "answer", "key": view["key"], "text": padding}).encode()
            declared = [(b"content-length", str(len(body)).encode())]
            status, _ = raw(client, "POST", path, body, declared)
            tally.check("oversized body", status == 413, f"{size} declared -> {status}")
            status, _ = raw(client, "POST", path, body)  # streamed, no length
            tally.check("oversized body", status == 413, f"{size} streamed -> {status}")
            status, _ = raw(client, "POST", path, body, [(b"content-length", b"10")])  # a lie
            tally.check("oversized body", status == 413, f"{size} under-declared -> {status}")
        for value in (b"-1", b"abc", b"99999999999999999999", b"1e9"):
            status, _ = raw(client, "POST", path, b"{}", [(b"content-length", value)])
            tally.check(
                "oversized body", status in (400, 413), f"content-length {value!r} -> {status}"
            )
        tally.check(
            "oversized body",
            wait_view(client, token)["key"] == view["key"],
            "nothing was delivered",
        )
        response = act(client, token, view, "answer", "x" * 100)
        tally.check(
            "oversized body",
            response.status_code == 200,
            "a body under the limit still goes through",
        )


def test_floods_are_refused_and_do_not_starve_other_clients(tmp_path, tally):
    made = make_study(tmp_path / "data", count=2)
    burst = 25
    # no refill: the verdicts do not depend on how fast this machine sends
    limits = ServerLimits(client_rate=Rate(0.0, burst), action_rate=Rate(0.0, 6))
    with TestClient(application(made.data, limits)) as client:
        token = made.tokens["p1"]
        for address_no in range(4):
            address = f"10.0.0.{address_no + 1}"
            statuses = [
                raw(client, "GET", f"/api/p/{token}/state", address=address)[0]
                for _ in range(3 * burst)
            ]
            tally.check(
                "request flood",
                statuses[:burst] == [200] * burst,
                f"{address}: the first {burst} pass",
            )
            tally.check(
                "request flood", set(statuses[burst:]) == {429}, f"{address}: the rest are refused"
            )
        for path in ("/api/p/x/state", "/static/play.js", "/", "/api/p/../x"):
            status, _ = raw(client, "GET", path, address="10.0.0.1")
            tally.check("request flood", status == 429, f"{path} from a flooding address")
        # a session's actions: the first 6 are taken, the rest refused, from any address
        view = None
        statuses = []
        for n in range(20):
            address = f"10.1.0.{n + 1}"
            if view is None or view["phase"] == "working":
                status, body = raw(client, "GET", f"/api/p/{token}/state", address=address)
                view = json.loads(body)
                if view["phase"] in ("starting", "working"):
                    continue
            body = json.dumps({"action": "answer", "key": view["key"], "text": ""}).encode()
            status, reply = raw(client, "POST", f"/api/p/{token}/act", body, address=address)
            statuses.append(status)
            if status == 200:
                view = json.loads(reply)
        tally.check(
            "request flood", statuses.count(200) == 6 and set(statuses[6:]) == {429}, str(statuses)
        )
        other = made.tokens["p2"]
        status, _ = raw(client, "GET", f"/api/p/{other}/state", address="10.2.0.1")
        tally.check("request flood", status == 200, "another session is unaffected")


def test_no_response_carries_the_answer_key(server, tally, demo_env):
    made, _, client = server
    secrets = secrets_of(demo_env, made)
    assert len(secrets) >= 8
    token = made.tokens["p1"]
    responses = []
    view = wait_view(client, token)
    for _ in range(200):
        if view["phase"] == "finished":
            break
        if view["phase"] == "explore":
            action, text = (
                ("probe", "EMIT(PLUCK(STRAND(1, 2), 0))")
                if view["budget"]["round_used"] < 2
                else ("end-round", "")
            )
        else:
            action, text = "answer", "EMIT(0)"
        response = act(client, token, view, action, text)
        responses.append(response.text)
        view = response.json()
        if view["phase"] == "working":
            view = wait_view(client, token)
        for route in PARTICIPANT_ROUTES:
            responses.append(client.get(route.format(token)).text)
    assert view["phase"] == "finished"
    for path in ("/static/play.js", "/static/play.css"):
        responses.append(client.get(path).text)
    for body in responses:
        for secret in secrets:
            tally.check(
                "answer key never sent",
                secret not in body and json.dumps(secret)[1:-1] not in body,
                secret[:40],
            )
    for body in responses:
        tally.check("no verdict sent", '"passed"' not in body and '"accuracy"' not in body)


def test_a_text_is_refused_past_its_length_in_characters_not_bytes(tmp_path, tally):
    made = make_study(tmp_path / "data", count=1)
    limits = ServerLimits(
        body_bytes=16 * 2**20, client_rate=FAST.client_rate, action_rate=FAST.action_rate
    )
    with TestClient(application(made.data, limits)) as client:
        token = made.tokens["p1"]
        # one-byte, two-byte and four-byte characters, at and just past the bound
        for char in ("x", "é", "𝔸", "\u200b"):
            view = wait_view(client, token)
            over = act(client, token, view, "answer", char * (MAX_TEXT + 1))
            tally.check("oversized body", over.status_code == 413, f"{char!r} x {MAX_TEXT + 1}")
            tally.check("oversized body", wait_view(client, token)["key"] == view["key"], "kept")
            at = act(client, token, view, "answer", char * MAX_TEXT)
            tally.check("oversized body", at.status_code == 200, f"{char!r} x {MAX_TEXT}")
    events = read_trace(made.data / "studies" / "st" / "p1" / "trace.jsonl")
    # the person's replies (the rule report and first passes; later passes repeat them)
    typed = [
        e
        for e in events
        if e["type"] == "reply" and (e["key"].endswith("/rules") or e["key"].endswith("/1"))
    ]
    tally.check("oversized body", len(typed) == 4, "exactly the four texts at the bound were taken")


def _garbage(rng: random.Random, view: dict) -> dict:
    key = view.get("key") or "M0/rules"
    choices = [
        {"action": rng.choice(["probe", "answer", "end-round", "consent"]), "key": key + "x"},
        {"action": rng.choice(["fly", "", "PROBE"]), "key": key, "text": "x"},
        {"action": "probe", "key": key, "text": rng.choice([None, 3, [], {}])},
        {"action": "answer", "key": key, "refuse": rng.choice([1, "true", None])},
        {"key": key},
        {"action": "answer", "key": rng.choice(["r1/turn1", "M0/T1/1", "M4/rules", "end"])},
    ]
    if view["phase"] == "explore":
        choices.append({"action": "answer", "key": key, "text": "x"})
    else:
        choices.append({"action": "probe", "key": key, "text": "EMIT(1)"})
    return rng.choice(choices)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_garbage_between_real_actions_changes_nothing(tmp_path, tally, demo_env, seed):
    rng = random.Random(seed)
    made = make_study(tmp_path / "data", count=1)
    participant = ScriptedParticipant(demo_env, probes_per_round=3)
    with TestClient(application(made.data, FAST)) as client:
        token = made.tokens["p1"]
        view = wait_view(client, token)
        while view["phase"] != "finished":
            if rng.random() < 0.4:
                body = _garbage(rng, view)
                response = client.post(f"/api/p/{token}/act", json=body)
                held = response.status_code in (400, 409) and wait_view(client, token) == view
                tally.check("forged action", held, f"{body!r:.100} -> {response.status_code}")
                continue
            action, text, refuse = participant.decide(view)
            response = act(client, token, view, action, text, refuse)
            assert response.status_code == 200, response.text
            view = response.json()
            view = wait_view(client, token) if view["phase"] == "working" else view
    events = read_trace(made.data / "studies" / "st" / "p1" / "trace.jsonl")
    assert [m["accuracy"] for m in compute_report(events)["milestones"]] == [100.0] * 5
    probes = [json.loads(e["arguments"])["code"] for e in events if e["type"] == "tool"]
    assert probes == [p for batch in participant.sequence for p in batch[:3]]
