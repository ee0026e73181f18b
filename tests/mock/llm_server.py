#!/usr/bin/env python3
"""llm_server.py — a mock OpenAI-compatible HTTP server for genie's tests.

Listens on 127.0.0.1 only, on a port the OS picks; prints the port on stdout
(and writes it atomically to --port-file) once it accepts connections.  Stops
cleanly on SIGTERM or SIGINT.  Python standard library only.

Routes (a dispatch table, ROUTES, maps a path suffix to a handler):

  POST .../embeddings      deterministic embeddings: a hashed bag of words,
                           so texts sharing words get similar vectors;
                           normalized; dimension --dim (default 32)
  GET  /_mock/state        the current settings and request counters (JSON)
  POST /_mock/config       merge a JSON object into the settings, e.g.
                           {"fault": "500"} or {"dim": 16}; lets a test change
                           behaviour without restarting (the port stays, so
                           the client's embedder id stays the same)
  POST /_mock/script       replace the scripted steps, same shape as the
                           --script file (below)

Every request to a non-/_mock route is appended to --log as one JSON line
{"seq", "time", "method", "path", "headers", "body", "json", "status",
"route"} *before* the reply is sent, so a client that has exited has always
been logged.  "json" is the parsed body or null.

Settings (flags, the script's "defaults", or /_mock/config):
  fault    null (normal), "500" (HTTP 500 with an OpenAI-style error),
           "garbage" (HTTP 200, body not JSON), "count" (one vector fewer
           than inputs), "index" (an item with an out-of-range index),
           "dim" (the last vector one dimension short), "401" (unauthorized)
  reverse  return the items of a reply in reverse order (with correct
           "index" fields): a client must place vectors by index
  dim      embedding dimension
  delay    seconds to wait before replying
  require_key  when set, requests without "Authorization: Bearer KEY" get 401

Script file (--script FILE, JSON):
  {"defaults": {SETTINGS...},
   "embeddings": [{SETTINGS...}, {SETTINGS...}, ...]}
Each request to a route consumes the next step of the list named after the
route (here "embeddings"); a step overrides the settings for that request
only; when the list is exhausted the settings apply unchanged.

Adding a route (e.g. /chat/completions with SSE streaming): write a handler
`def handle_x(state, req) -> Response`, add (suffix, method, name, handler)
to ROUTES.  A Response whose body is an iterable of (delay_seconds, bytes)
chunks is streamed with "Connection: close" and a flush after every chunk,
which is what an SSE reply needs; req["step"] is the route's scripted step.
"""

import argparse
import hashlib
import json
import math
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOST = "127.0.0.1"          # never anything else: tests must not be reachable
MAX_BODY = 64 << 20         # refuse larger request bodies

DEFAULT_SETTINGS = {
    "fault": None,
    "reverse": False,
    "dim": 32,
    "delay": 0.0,
    "require_key": None,
    "model": None,          # reply "model"; None echoes the request's
}

FAULTS = (None, "500", "garbage", "count", "index", "dim", "401")


class Response:
    """What a handler returns.  body: bytes, or an iterable of
    (delay_seconds, bytes) chunks to stream."""

    def __init__(self, status=200, body=b"", content_type="application/json",
                 headers=None):
        self.status = status
        self.body = body
        self.content_type = content_type
        self.headers = headers or {}


def json_response(obj, status=200):
    return Response(status, json.dumps(obj).encode())


def error_response(status, message, etype="invalid_request_error"):
    return json_response({"error": {"message": message, "type": etype,
                                     "code": status}}, status)


class State:
    """Settings, scripted steps, counters and the request log; shared by the
    handler threads, guarded by one lock."""

    def __init__(self, settings, script, log_path):
        self.lock = threading.Lock()
        self.settings = dict(DEFAULT_SETTINGS)
        self.settings.update(settings)
        self.steps = {}
        self.counts = {}
        self.seq = 0
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        if script:
            self.load_script(script)

    def load_script(self, script):
        if not isinstance(script, dict):
            raise ValueError("a script is a JSON object")
        with self.lock:
            self.settings.update(check_settings(script.get("defaults", {})))
            self.steps = {}
            for route, steps in script.items():
                if route == "defaults":
                    continue
                if not isinstance(steps, list):
                    raise ValueError("script: %r must be a list of steps" % route)
                self.steps[route] = [check_settings(s) for s in steps]

    def configure(self, changes):
        changes = check_settings(changes)
        with self.lock:
            self.settings.update(changes)

    def next_step(self, route):
        """The settings for one request of ROUTE: the next scripted step over
        the current settings."""
        with self.lock:
            self.counts[route] = self.counts.get(route, 0) + 1
            s = dict(self.settings)
            queue = self.steps.get(route)
            if queue:
                s.update(queue.pop(0))
            return s

    def snapshot(self):
        with self.lock:
            return {"settings": dict(self.settings), "counts": dict(self.counts),
                    "pending_steps": {k: len(v) for k, v in self.steps.items()}}

    def record(self, entry):
        if not self.log:
            return
        with self.lock:
            self.seq += 1
            entry = dict(entry, seq=self.seq, time=time.time())
            self.log.write(json.dumps(entry) + "\n")
            self.log.flush()


def check_settings(d):
    if not isinstance(d, dict):
        raise ValueError("settings must be a JSON object")
    for k, v in d.items():
        if k not in DEFAULT_SETTINGS:
            raise ValueError("unknown setting %r" % k)
        if k == "fault" and v not in FAULTS:
            raise ValueError("unknown fault %r (one of %s)" % (v, FAULTS))
        if k == "dim" and (not isinstance(v, int) or v < 1 or v > 65536):
            raise ValueError("dim must be an integer in 1..65536")
    return dict(d)


# ---- embeddings -------------------------------------------------------

STOP = frozenset("a an and are as at be but by for from has have i in is it its "
                 "of on or our so that the this to was we were with".split())


def words(text):
    out = []
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if w in STOP:
            continue
        if len(w) > 4 and w.endswith("s"):      # crude plural folding
            w = w[:-1]
        out.append(w)
    return out


def embed(text, dim):
    """A normalized hashed bag of words: each word adds +-1 to one
    coordinate chosen by a stable hash (hashlib, not hash(): that is salted
    per process)."""
    v = [0.0] * dim
    for w in words(text):
        h = hashlib.blake2b(w.encode(), digest_size=8).digest()
        i = int.from_bytes(h[:4], "little") % dim
        v[i] += 1.0 if h[4] & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in v))
    if norm == 0:
        v[0] = 1.0                              # no words: a fixed unit vector
        return v
    return [round(x / norm, 6) for x in v]


def handle_embeddings(state, req):
    s = req["step"]
    body = req["json"]
    if not isinstance(body, dict):
        return error_response(400, "request body is not a JSON object")
    inputs = body.get("input")
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list) or not inputs or \
            not all(isinstance(t, str) for t in inputs):
        return error_response(400, "'input' must be a string or a non-empty "
                                   "list of strings")
    model = s["model"] or body.get("model") or "mock-embedding"
    fault = s["fault"]
    if fault == "500":
        return error_response(500, "mock server failure (fault 500)", "server_error")
    if fault == "401":
        return error_response(401, "invalid API key (fault 401)")
    if fault == "garbage":
        return Response(200, b"<html>this is { not json", "text/html")
    items = [{"object": "embedding", "index": i, "embedding": embed(t, s["dim"])}
             for i, t in enumerate(inputs)]
    if fault == "count":
        items = items[:-1]
    elif fault == "index":
        items[-1]["index"] = len(inputs) + 5
    elif fault == "dim":
        items[-1]["embedding"] = items[-1]["embedding"][:-1]
    if s["reverse"]:
        items.reverse()
    ntok = sum(len(t.split()) for t in inputs)
    return json_response({"object": "list", "data": items, "model": model,
                          "usage": {"prompt_tokens": ntok, "total_tokens": ntok}})


# ---- control routes (not logged) --------------------------------------

def handle_state(state, req):
    return json_response(state.snapshot())


def handle_config(state, req):
    try:
        state.configure(req["json"])
    except ValueError as ex:
        return error_response(400, str(ex))
    return json_response(state.snapshot())


def handle_script(state, req):
    try:
        state.load_script(req["json"])
    except ValueError as ex:
        return error_response(400, str(ex))
    return json_response(state.snapshot())


# (path suffix, method, route name, handler).  First match wins; a route
# whose name starts with "_" is a control route and is not logged.
ROUTES = [
    ("/_mock/state", "GET", "_state", handle_state),
    ("/_mock/config", "POST", "_config", handle_config),
    ("/_mock/script", "POST", "_script", handle_script),
    ("/embeddings", "POST", "embeddings", handle_embeddings),
]


def find_route(method, path):
    path = path.split("?", 1)[0]
    allowed = False
    for suffix, m, name, fn in ROUTES:
        if path.endswith(suffix):
            if m == method:
                return name, fn
            allowed = True
    return ("_405" if allowed else "_404"), None


# ---- HTTP -------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # answers "Expect: 100-continue" at once
    server_version = "genie-mock/1"

    def log_message(self, fmt, *args):      # quiet: tests read --log instead
        pass

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n < 0 or n > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(n) if n else b""

    def dispatch(self, method):
        state = self.server.state
        name, fn = find_route(method, self.path)
        try:
            raw = self.read_body()
        except ValueError:
            self.send(error_response(413, "request body too large"))
            return
        text = raw.decode("utf-8", "replace")
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        req = {"method": method, "path": self.path, "headers": dict(self.headers),
               "body": text, "json": parsed, "route": name}
        if fn is None:
            resp = error_response(404 if name == "_404" else 405,
                                  "no route for %s %s" % (method, self.path))
        else:
            req["step"] = state.next_step(name) if not name.startswith("_") else None
            resp = self.auth_failure(req) or fn(state, req)
            delay = (req["step"] or {}).get("delay") or 0
            if delay:
                time.sleep(delay)
        if not name.startswith("_") or name in ("_404", "_405"):
            entry = {k: req[k] for k in ("method", "path", "headers", "body",
                                         "json", "route")}
            entry["status"] = resp.status
            state.record(entry)
        self.send(resp)

    def auth_failure(self, req):
        key = (req["step"] or {}).get("require_key")
        if key and self.headers.get("Authorization") != "Bearer " + key:
            return error_response(401, "missing or wrong API key")
        return None

    def send(self, resp):
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.content_type)
        for k, v in resp.headers.items():
            self.send_header(k, v)
        if isinstance(resp.body, (bytes, bytearray)):
            self.send_header("Content-Length", str(len(resp.body)))
            self.end_headers()
            self.wfile.write(resp.body)
            return
        # Streamed: no length, the end of the reply is the end of the
        # connection.
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        try:
            for delay, chunk in resp.body:
                if delay:
                    time.sleep(delay)
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass                        # the client hung up (e.g. cancelled)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64
    allow_reuse_address = True


def write_port_file(path, port):
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description="mock OpenAI-compatible server "
                                             "(127.0.0.1 only)")
    ap.add_argument("--port-file", help="write the port here once listening")
    ap.add_argument("--log", help="append every request as a JSON line here")
    ap.add_argument("--dim", type=int, default=32, help="embedding dimension")
    ap.add_argument("--reverse", action="store_true",
                    help="return embedding items in reverse order")
    ap.add_argument("--fault", choices=[f for f in FAULTS if f],
                    help="answer every request with this fault")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds to wait before each reply")
    ap.add_argument("--require-key", help="reject requests without this bearer key")
    ap.add_argument("--script", help="JSON file of defaults and per-request steps")
    a = ap.parse_args(argv)

    settings = {"dim": a.dim, "reverse": a.reverse, "fault": a.fault,
                "delay": a.delay, "require_key": a.require_key}
    try:
        script = None
        if a.script:
            with open(a.script, encoding="utf-8") as f:
                script = json.load(f)
        state = State(check_settings(settings), script, a.log)
    except (OSError, ValueError) as ex:
        print("llm_server: %s" % ex, file=sys.stderr)
        return 2

    srv = Server((HOST, 0), Handler)
    srv.state = state
    port = srv.server_address[1]

    def stop(signum, frame):
        # shutdown() waits for serve_forever() to return, which runs in this
        # (the main) thread: call it from another one.
        threading.Thread(target=srv.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if a.port_file:
        write_port_file(a.port_file, port)
    print(port, flush=True)
    try:
        srv.serve_forever(poll_interval=0.1)
    finally:
        srv.server_close()
        if state.log:
            state.log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
