#!/usr/bin/env python3
"""llm_server.py — a mock OpenAI-compatible HTTP server for genie's tests.

Listens on 127.0.0.1 only, on a port the OS picks (or --port); prints the port on stdout
(and writes it atomically to --port-file) once it accepts connections.  Stops
cleanly on SIGTERM or SIGINT.  Python standard library only.

Routes (a dispatch table, ROUTES, maps a path suffix to a handler):

  POST .../embeddings      deterministic embeddings: a hashed bag of words,
                           so texts sharing words get similar vectors;
                           normalized; dimension --dim (default 32)
  POST .../chat/completions  scripted replies (see "Chat script" below), as
                           one chat.completion object, or streamed as SSE
                           chat.completion.chunk events when the request has
                           "stream": true; with fault modes per rule
  GET  /_mock/state        the current settings, request counters and what
                           is left of the scripts (JSON)
  POST /_mock/config       merge a JSON object into the settings, e.g.
                           {"fault": "500"} or {"dim": 16}; lets a test change
                           behaviour without restarting (the port stays, so
                           the client's embedder id stays the same)
  POST /_mock/script       replace the whole script (embedding steps and chat
                           rules), same shape as the --script file (below);
                           its "defaults" are merged into the settings

Every request to a non-/_mock route is appended to --log as one JSON line
{"seq", "time", "method", "path", "headers", "body", "json", "status",
"route"} *before* the reply is sent (and before any delay), so a client that
has exited has always been logged.  "json" is the parsed body or null; a chat
request's line also has "rule": the name of the rule that answered it (its
"name", else "rules[I]", else "default").

Settings (flags, the script's "defaults", or /_mock/config):
  fault    embeddings only: null (normal), "500" (HTTP 500 with an
           OpenAI-style error), "garbage" (HTTP 200, body not JSON), "count"
           (one vector fewer than inputs), "index" (an item with an
           out-of-range index), "dim" (the last vector one dimension short),
           "401" (unauthorized)
  reverse  return the items of a reply in reverse order (with correct
           "index" fields): a client must place vectors by index
  dim      embedding dimension
  delay    seconds to wait before replying (every route)
  require_key  when set, requests without "Authorization: Bearer KEY" get 401
           (every route)
  chunk    chat: characters of content per streamed delta (default 8)
  chunk_delay  chat: seconds between streamed events (default 0)
  truth    a truth file path: requests of stage "verify" are answered Yes or
           No by an oracle over it (see oracle()) instead of by the rules

Script file (--script FILE, JSON):
  {"defaults": {SETTINGS...},
   "embeddings": [{SETTINGS...}, {SETTINGS...}, ...],
   "chat": {"rules": [RULE, ...], "default": RULE}}
Each request to the embeddings route consumes the next step of the list
"embeddings"; a step overrides the settings for that request only; when the
list is exhausted the settings apply unchanged.  "chat" may also be a bare
list of rules (no default rule).

Chat script.  A chat request is answered by the first rule that matches it
and is not used up, else by the default rule, else by the built-in default
(the reply "mock reply").  A rule matches when all its match keys do:
  stage     the request header X-Genie-Stage equals this (case-insensitive
            compare), or one of a list of them: "parse", "kb_parse",
            "answer", "summary", "verify", "classify", "respond", "repair"...
  contains  a substring (case-sensitive) of the last "user" message (its
            text parts joined when its content is a list of parts)
  times     the rule answers at most this many requests, then is skipped:
            {"times": 1, "status": 500} before a rule that succeeds scripts
            "500 then success"; absent: unlimited
  name      not a match key: the name logged as "rule"
A rule without stage and contains matches every request.
A batched verify request (stage "verify", its prompt listing rows as
"Row N, text of FIELD:" sections) is answered row by row: each row is
matched as the one-row verify prompt of that row would be (and by the
truth oracle when set), and the reply is one "N: REPLY" line a row; a
row's rule with a status or a fault answers the whole request instead.
What a rule replies (all optional):
  reply          the answer text (default "mock reply")
  reasoning      reasoning text, sent before the answer as
                 "reasoning_content" deltas (in "message" when not streamed)
  think          inline reasoning: the answer becomes
                 "<think>\nTHINK\n</think>\n\n" + reply, split like any text
  huge           N: the answer is N bytes of ASCII filler (words and
                 newlines) instead of reply; streamed 1024 characters per
                 delta unless the rule sets chunk
  finish_reason  default "stop"
  model          the reply's "model" (default: the request's)
  usage          an object merged into the computed usage (its token
                 counts are word counts, +3 per prompt message)
  no_usage       true: no usage at all, neither in the reply object nor
                 as the stream's last chunk (as some servers do)
  headers        extra response headers, {"Name": "value"}
  ignore_stream  true: reply one chat.completion object even when the
                 request asked for a stream
Streaming (the request has "stream": true):
  Events are "data: JSON" lines each followed by a blank line: a chunk with
  delta {"role": "assistant", "content": "", "refusal": null}, then the
  reasoning deltas, then the content deltas, then a chunk with an empty
  delta and finish_reason, then (only when the request has
  "stream_options": {"include_usage": true}) a chunk with "choices": [] and
  "usage", then "data: [DONE]".  The body is sent with
  "Transfer-Encoding: chunked" and "Connection: close".
  chunk          characters per delta (default: the setting chunk)
  chunk_delay    seconds before each event after the first (default: the
                 setting chunk_delay); [DONE] follows the last event at once
  stall          seconds after the headers before the first event
  ping           send a keep-alive comment ": ping" (and a blank line) every
                 this many seconds during stall and chunk_delay waits
  keepalive      what a ping is: "comment" (default), "empty" (a data event
                 with an empty delta) or "unknown" (a data event with only
                 fields a client does not know)
  crlf           true: every line ends with CRLF instead of LF
  no_done        true: end without "data: [DONE]"
  linger         seconds the connection stays open after the last event
                 (pinging every "ping" seconds), as servers that are slow
                 to close do
  framing        "chunked" (default) or "close": no chunked encoding, the
                 body ends when the connection closes (a drop then looks
                 like a clean end to HTTP)
Faults (N counts data events already sent; the role chunk is the first, so
N=1 means right after it; N larger than the stream means before [DONE]):
  status         an HTTP status other than 200: an OpenAI-style error body
                 {"error": {"message", "type", "param", "code"}}
  error_message  the message of any error this rule sends
  retry_after    the Retry-After header (seconds; any JSON value, sent as text)
  retry_after_ms the retry-after-ms header
  first_byte_delay  seconds before the status line (no ping is possible)
  head_trickle   seconds between pieces of the status line and headers,
                 sent 16 bytes a piece (a slow but live server or proxy)
  error_200      true: HTTP 200 with a JSON error body, even for a stream
  html_200       true: HTTP 200 with an HTML page (a captive portal, a
                 proxy's sign-in), even for a stream
  drop_after     N: close the connection after N events, without [DONE] and
                 without the final empty chunk (curl: "transfer closed with
                 outstanding read data remaining", exit 18); on a reply that
                 is not streamed, N bytes of the body are sent, then it closes
  garbage_after  N: after N events, one event whose data is not JSON
                 (data: {"choices": [{"delta": {"content": "cut), then the
                 stream goes on
  error_after    N: after N events, data: {"error": {...}} and the stream
                 ends (with [DONE] unless no_done)
  error_event    true, with error_after: the error is sent as
                 "event: error" followed by its data line

Example (a test's --script file, or the body of POST /_mock/script):
  {"chat": {
     "rules": [
       {"name": "parse-busy", "stage": "parse", "times": 1, "status": 429,
        "retry_after": 1, "retry_after_ms": 250},
       {"name": "parse", "stage": ["parse", "kb_parse"],
        "reply": "SELECT * FROM places WHERE city = 'north'"},
       {"stage": "answer", "times": 1, "status": 500},
       {"stage": "answer", "contains": "parking", "reasoning": "Lot Diner.",
        "reply": "Lot Diner has a big lot.", "chunk": 4, "chunk_delay": 0.01},
       {"stage": "summary", "drop_after": 3},
       {"contains": "slow", "stall": 2, "ping": 0.5, "reply": "finally"}
     ],
     "default": {"reply": "I don't know."}}}

Adding a route: write a handler `def handle_x(state, req) -> Response`, add
(suffix, method, name, handler) to ROUTES.  A Response whose body is an
iterable of (delay_seconds, bytes) chunks is streamed with "Connection:
close" (chunked unless framing="close") and a flush after every chunk; a
chunk of DROP instead of bytes closes the connection at once; req["step"] is
the route's scripted step (the settings for this request).
"""

import argparse
import hashlib
import json
import math
import os
import re
import signal
import socket
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
    "truth": None,          # verify oracle: path of a truth file (below)
    "chunk": 8,             # chat: characters per streamed delta
    "chunk_delay": 0.0,     # chat: seconds between streamed events
}

FAULTS = (None, "500", "garbage", "count", "index", "dim", "401")

DROP = object()             # a streamed "chunk" that closes the connection


class Response:
    """What a handler returns.  body: bytes, or an iterable of
    (delay_seconds, bytes or DROP) chunks to stream.  delay: seconds before
    the status line.  framing: how a streamed body is delimited, "chunked"
    or "close".  cut: for a bytes body, send only this many bytes of it
    (with the full Content-Length), then close."""

    def __init__(self, status=200, body=b"", content_type="application/json",
                 headers=None, delay=0.0, framing="chunked", cut=None):
        self.status = status
        self.body = body
        self.content_type = content_type
        self.headers = headers or {}
        self.delay = delay
        self.framing = framing
        self.cut = cut
        self.trickle = 0.0      # seconds between 16-byte pieces of the head


def json_response(obj, status=200):
    return Response(status, json.dumps(obj).encode())


def error_response(status, message, etype="invalid_request_error"):
    return json_response({"error": {"message": message, "type": etype,
                                     "code": status}}, status)


class State:
    """Settings, scripted steps and chat rules, counters and the request log;
    shared by the handler threads, guarded by one lock."""

    def __init__(self, settings, script, log_path):
        self.lock = threading.Lock()
        self.settings = dict(DEFAULT_SETTINGS)
        self.settings.update(settings)
        self.steps = {}
        self.rules = []         # [rule, uses left or None], in order
        self.chat_default = None
        self.counts = {}
        self.seq = 0
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        if script:
            self.load_script(script)

    def load_script(self, script):
        if not isinstance(script, dict):
            raise ValueError("a script is a JSON object")
        defaults = check_settings(script.get("defaults", {}))
        steps, rules, default = {}, [], None
        for route, value in script.items():
            if route == "defaults":
                continue
            if route == "chat":
                rules, default = check_chat_script(value)
                continue
            if not isinstance(value, list):
                raise ValueError("script: %r must be a list of steps" % route)
            steps[route] = [check_settings(s) for s in value]
        with self.lock:
            self.settings.update(defaults)
            self.steps = steps
            self.rules = [[r, r.get("times")] for r in rules]
            self.chat_default = default

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

    def pick_rule(self, stage, user_text):
        """The chat rule answering a request, and the name to log: the first
        matching rule with uses left (one use is taken), else the default."""
        with self.lock:
            for i, entry in enumerate(self.rules):
                rule, left = entry
                if left is not None and left <= 0:
                    continue
                if not rule_matches(rule, stage, user_text):
                    continue
                if left is not None:
                    entry[1] = left - 1
                return rule, rule.get("name") or "rules[%d]" % i
            if self.chat_default is not None:
                return self.chat_default, self.chat_default.get("name") or "default"
            return {}, "default"

    def snapshot(self):
        with self.lock:
            return {"settings": dict(self.settings), "counts": dict(self.counts),
                    "pending_steps": {k: len(v) for k, v in self.steps.items()},
                    "chat_rules": [{"name": r.get("name") or "rules[%d]" % i,
                                    "left": left}
                                   for i, (r, left) in enumerate(self.rules)]}

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
        if k == "chunk" and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            raise ValueError("chunk must be a positive integer")
        if k in ("delay", "chunk_delay") and not is_seconds(v):
            raise ValueError("%s must be a number of seconds >= 0" % k)
        if k == "truth" and v is not None and not isinstance(v, str):
            raise ValueError("truth must be the path of a truth file, or null")
    return dict(d)


def is_seconds(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def is_text(v):
    return isinstance(v, str)


def is_flag(v):
    return isinstance(v, bool)


def is_stage(v):
    return isinstance(v, str) or (isinstance(v, list) and v and
                                  all(isinstance(x, str) for x in v))


# Every key a chat rule may have, with its check.
RULE_KEYS = {
    # matching
    "name": is_text, "stage": is_stage, "contains": is_text, "times": is_count,
    # the reply
    "reply": is_text, "reasoning": is_text, "think": is_text, "huge": is_count,
    "finish_reason": is_text, "model": is_text,
    "usage": lambda v: isinstance(v, dict), "no_usage": is_flag,
    "headers": lambda v: isinstance(v, dict) and
        all(isinstance(k, str) and isinstance(x, (str, int, float))
            for k, x in v.items()),
    "ignore_stream": is_flag,
    # streaming
    "chunk": lambda v: is_count(v) and v >= 1, "chunk_delay": is_seconds,
    "stall": is_seconds, "ping": lambda v: is_seconds(v) and v > 0,
    "keepalive": lambda v: v in ("comment", "empty", "unknown"),
    "crlf": is_flag, "no_done": is_flag, "linger": is_seconds,
    "framing": lambda v: v in ("chunked", "close"),
    # faults
    "status": lambda v: is_count(v) and 100 <= v <= 599,
    "error_message": is_text,
    "retry_after": lambda v: isinstance(v, (str, int, float)) and not is_flag(v),
    "retry_after_ms": lambda v: isinstance(v, (str, int, float)) and not is_flag(v),
    "first_byte_delay": is_seconds, "head_trickle": is_seconds,
    "error_200": is_flag, "html_200": is_flag,
    "drop_after": is_count, "garbage_after": is_count, "error_after": is_count,
    "error_event": is_flag,
}
MATCH_KEYS = ("stage", "contains", "times")


def check_rule(rule, where, default=False):
    if not isinstance(rule, dict):
        raise ValueError("%s: a chat rule is a JSON object" % where)
    for k, v in rule.items():
        check = RULE_KEYS.get(k)
        if check is None:
            raise ValueError("%s: unknown chat rule key %r" % (where, k))
        if not check(v):
            raise ValueError("%s: bad value for %r: %s" % (where, k, json.dumps(v)))
        if default and k in MATCH_KEYS:
            raise ValueError("%s: the default rule cannot have %r" % (where, k))
    return dict(rule)


def check_chat_script(value):
    """(rules, default) from the script's "chat": a list of rules, or
    {"rules": [...], "default": RULE}."""
    if isinstance(value, list):
        value = {"rules": value}
    if not isinstance(value, dict):
        raise ValueError('script: "chat" must be a list of rules or '
                         '{"rules": [...], "default": {...}}')
    extra = set(value) - {"rules", "default"}
    if extra:
        raise ValueError('script: unknown key(s) in "chat": %s' % sorted(extra))
    rules = value.get("rules", [])
    if not isinstance(rules, list):
        raise ValueError('script: "chat" "rules" must be a list')
    rules = [check_rule(r, "chat rules[%d]" % i) for i, r in enumerate(rules)]
    default = value.get("default")
    if default is not None:
        default = check_rule(default, "chat default", default=True)
    return rules, default


def rule_matches(rule, stage, user_text):
    want = rule.get("stage")
    if want is not None:
        if isinstance(want, str):
            want = [want]
        if stage is None or stage.lower() not in [w.lower() for w in want]:
            return False
    sub = rule.get("contains")
    if sub is not None and (user_text is None or sub not in user_text):
        return False
    return True


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


# ---- chat completions --------------------------------------------------

FILLER = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do "
          "eiusmod tempor incididunt ut labore et dolore magna aliqua\n")


def message_text(content):
    """The text of a message's content: a string, or a list of parts whose
    "text" fields are joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content
                       if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def last_user_text(messages):
    for m in reversed(messages):
        if isinstance(m, dict) and m.get("role") == "user":
            return message_text(m.get("content"))
    return None


def ntokens(text):
    """A deterministic stand-in for a token count: words."""
    return len(text.split())


def chat_error(rule, status, default_message):
    etype = {400: "invalid_request_error", 401: "invalid_request_error",
             403: "permission_error", 404: "not_found_error",
             429: "rate_limit_exceeded"}.get(status, "server_error")
    code = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(status, status)
    return {"error": {"message": rule.get("error_message") or default_message,
                      "type": etype, "param": None, "code": code}}


def handle_chat(state, req):
    s = req["step"]
    body = req["json"]
    if not isinstance(body, dict):
        return error_response(400, "request body is not a JSON object")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return error_response(400, "'messages' must be a non-empty list")
    stage = {k.lower(): v for k, v in req["headers"].items()}.get("x-genie-stage")
    rows = split_rows(last_user_text(messages)) if (stage or "").lower() == "verify" else None
    if rows:
        rule, req["rule"] = verify_rows_rule(state, s, stage, rows)
    else:
        rule, req["rule"] = state.pick_rule(stage, last_user_text(messages))
    if s.get("truth") and (stage or "").lower() == "verify" and not rows:
        rule = dict(rule, reply=oracle(s["truth"], last_user_text(messages)))
        req["rule"] = "truth"

    headers = {str(k): str(v) for k, v in rule.get("headers", {}).items()}
    if "retry_after" in rule:
        headers["Retry-After"] = str(rule["retry_after"])
    if "retry_after_ms" in rule:
        headers["retry-after-ms"] = str(rule["retry_after_ms"])
    delay = rule.get("first_byte_delay", 0.0)

    status = rule.get("status", 200)
    if status != 200:
        resp = json_response(chat_error(rule, status, "mock error (HTTP %d)" % status),
                             status)
    elif rule.get("error_200"):
        resp = json_response(chat_error(rule, 500, "mock error sent with HTTP 200"))
    elif rule.get("html_200"):
        resp = Response(200, b"<!DOCTYPE html><html><head><title>Sign in to the gateway</title>"
                             b"</head><body>Please sign in.</body></html>", "text/html")
    else:
        resp = chat_reply(s, rule, body, messages)
    resp.headers.update(headers)
    resp.delay = delay
    resp.trickle = rule.get("head_trickle", 0.0)
    return resp


ROW_HEAD = re.compile(r"^Row (\d+), text of ([^\n]*):\n", re.M)
# What a rule does besides replying: such a rule answers a whole request.
EFFECTS = ("status", "error_200", "html_200", "drop_after", "garbage_after", "error_after", "huge",
           "first_byte_delay", "stall", "no_done", "framing")


def split_rows(text):
    """A verify_rows prompt ("Row N, text of FIELD:" sections after the
    condition) as the verify prompts of its rows, one each, [(N, TEXT)];
    None for any other text."""
    if not text:
        return None
    heads = list(ROW_HEAD.finditer(text))
    if not heads:
        return None
    condition = text[:heads[0].start()]
    rows = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = "\n".join(l for l in text[h.end():end].split("\n") if l.startswith("- "))
        rows.append((int(h.group(1)), "%sText of %s for this row:\n%s\n" %
                     (condition, h.group(2), body)))
    return rows


def verify_rows_rule(state, s, stage, rows):
    """The rule answering a batched verify: each row is matched against the
    rules (or the truth oracle) as if it had been asked alone, and the
    reply is one "N: REPLY" line a row; a matched rule with an effect
    other than its reply (an HTTP status, a fault) answers the whole
    request instead."""
    lines, names = [], []
    for n, text in rows:
        rule, name = state.pick_rule(stage, text)
        if any(k in rule for k in EFFECTS):
            return rule, name
        reply = oracle(s["truth"], text) if s.get("truth") else rule.get("reply", "mock reply")
        lines.append("%d: %s" % (n, reply))
        names.append("truth" if s.get("truth") else name)
    return {"reply": "\n".join(lines)}, "rows(%s)" % ",".join(names)


_TRUTH = {}
_TRUTH_LOCK = threading.Lock()


def oracle(path, text):
    """The verify oracle: Yes when the condition's question names an
    attribute of the truth file (by one of its keywords) and one of the
    passages shown ("- " lines) is a passage that has that attribute; No
    otherwise.  The file: {"attributes": {ATTR: {"keywords": [...],
    "passages": [...]}}}, loaded again whenever it changes."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    with _TRUTH_LOCK:          # concurrent verifications: one load, no half-made cache
        if key not in _TRUTH:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            _TRUTH.clear()
            _TRUTH[key] = {a: (v["keywords"], set(v["passages"]))
                           for a, v in data["attributes"].items()}
        truth = _TRUTH[key]
    m = re.search(r"answer\([^,]*, '((?:[^']|'')*)'\)", text)
    question = (m.group(1) if m else "").lower()
    shown = [line[2:] for line in text.split("\n") if line.startswith("- ")]
    for keywords, passages in truth.values():
        if any(k in question for k in keywords):
            if any(p in passages for p in shown):
                return "Yes"
    return "No"


def chat_reply(s, rule, body, messages):
    model = rule.get("model") or s["model"] or body.get("model") or "mock-chat"
    if "huge" in rule:
        n = rule["huge"]
        content = (FILLER * (n // len(FILLER) + 1))[:n]
    else:
        content = rule.get("reply", "mock reply")
    if "think" in rule:
        content = "<think>\n%s\n</think>\n\n%s" % (rule["think"], content)
    reasoning = rule.get("reasoning")
    finish = rule.get("finish_reason", "stop")
    prompt = sum(ntokens(message_text(m.get("content"))) + 3
                 for m in messages if isinstance(m, dict))
    completion = ntokens(content) + ntokens(reasoning or "")
    usage = {"prompt_tokens": prompt, "completion_tokens": completion,
             "total_tokens": prompt + completion,
             "completion_tokens_details": {"reasoning_tokens": ntokens(reasoning or "")}}
    usage.update(rule.get("usage", {}))
    cid = "chatcmpl-mock%d" % (int(time.time() * 1000) % 1000000000)
    created = int(time.time())

    if body.get("stream") is not True or rule.get("ignore_stream"):
        msg = {"role": "assistant", "content": content, "refusal": None}
        if reasoning is not None:
            msg["reasoning_content"] = reasoning
        obj = {"id": cid, "object": "chat.completion", "created": created,
               "model": model, "system_fingerprint": "fp_mock",
               "choices": [{"index": 0, "message": msg, "logprobs": None,
                            "finish_reason": finish}],
               "usage": usage}
        if rule.get("no_usage"):
            del obj["usage"]
        resp = json_response(obj)
        if "drop_after" in rule:
            resp.cut = min(rule["drop_after"], len(resp.body))
        return resp

    def chunk(delta, finish_reason=None):
        return {"id": cid, "object": "chat.completion.chunk", "created": created,
                "model": model, "system_fingerprint": "fp_mock",
                "choices": [{"index": 0, "delta": delta, "logprobs": None,
                             "finish_reason": finish_reason}]}

    size = rule.get("chunk") or (1024 if "huge" in rule else s["chunk"])
    events = [chunk({"role": "assistant", "content": "", "refusal": None})]
    for field, text in (("reasoning_content", reasoning or ""), ("content", content)):
        for i in range(0, len(text), size):
            events.append(chunk({field: text[i:i + size]}))
    events.append(chunk({}, finish))
    opts = body.get("stream_options")
    if isinstance(opts, dict) and opts.get("include_usage") is True and not rule.get("no_usage"):
        events.append({"id": cid, "object": "chat.completion.chunk",
                       "created": created, "model": model,
                       "system_fingerprint": "fp_mock", "choices": [],
                       "usage": usage})
    return Response(200, sse_stream(s, rule, events), "text/event-stream",
                    {"Cache-Control": "no-cache"},
                    framing=rule.get("framing", "chunked"))


def sse_stream(s, rule, events):
    """The (delay, bytes) chunks of a streamed reply: EVENTS (JSON objects)
    as data events, with the rule's waits, pings and faults."""
    eol = "\r\n" if rule.get("crlf") else "\n"

    def event(data, etype=None):
        text = ("event: %s%s" % (etype, eol) if etype else "") + \
               "data: %s%s%s" % (data, eol, eol)
        return text.encode()

    ping = rule.get("ping")
    # What a keep-alive is: a comment, or (rule "keepalive") an event that
    # carries no content, as a server stuck in a loop might send.
    ping_bytes = {
        "comment": (": ping" + eol + eol).encode(),
        "empty": event('{"choices": [{"index": 0, "delta": {}}]}'),
        "unknown": event('{"mock_heartbeat": true, "choices": []}'),
    }[rule.get("keepalive", "comment")]

    def wait(seconds):
        """Chunks that wait SECONDS in all, pinging every PING seconds; the
        last (delay, b"") carries the remainder, or is (0, b"")."""
        out = []
        if ping:
            while seconds >= ping:
                out.append((ping, ping_bytes))
                seconds -= ping
        out.append((seconds, b""))
        return out

    n = len(events)
    at = {k: min(rule[k], n) for k in ("drop_after", "garbage_after", "error_after")
          if k in rule}
    gap = rule.get("chunk_delay", s["chunk_delay"])
    for i in range(n + 1):
        # before event I (I events sent so far)
        pause = wait(rule.get("stall", 0.0) if i == 0 else gap)
        if at.get("garbage_after") == i:
            yield from pause
            pause = [(0, b"")]
            yield (0, event('{"choices": [{"delta": {"content": "cut'))
        if at.get("drop_after") == i:
            yield from pause
            yield (0, DROP)
            return
        if at.get("error_after") == i:
            yield from pause
            err = chat_error(rule, 500, "mock error in the middle of a stream")
            yield (0, event(json.dumps(err, separators=(",", ":")),
                            "error" if rule.get("error_event") else None))
            if not rule.get("no_done"):
                yield (0, event("[DONE]"))
            return
        if i == n:
            # no wait before [DONE]: it follows the last event at once
            if not rule.get("no_done"):
                yield (0, event("[DONE]"))
            if rule.get("linger"):
                yield from wait(rule["linger"])
            return
        yield from pause
        yield (0, event(json.dumps(events[i], separators=(",", ":"))))


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
    ("/chat/completions", "POST", "chat", handle_chat),
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
               "body": text, "json": parsed, "route": name, "step": None}
        if fn is None:
            resp = error_response(404 if name == "_404" else 405,
                                  "no route for %s %s" % (method, self.path))
        else:
            req["step"] = state.next_step(name) if not name.startswith("_") else None
            resp = self.auth_failure(req) or fn(state, req)
        if not name.startswith("_") or name in ("_404", "_405"):
            entry = {k: req[k] for k in ("method", "path", "headers", "body",
                                         "json", "route")}
            if "rule" in req:
                entry["rule"] = req["rule"]
            entry["status"] = resp.status
            state.record(entry)
        delay = (req["step"] or {}).get("delay") or 0
        delay += resp.delay or 0
        if delay:
            time.sleep(delay)
        self.send(resp)

    def auth_failure(self, req):
        key = (req["step"] or {}).get("require_key")
        if key and self.headers.get("Authorization") != "Bearer " + key:
            return error_response(401, "missing or wrong API key")
        return None

    def drop(self):
        """Close the connection now, mid-reply."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def end_head(self, resp):
        """end_headers, or, for a trickled head, the head 16 bytes a piece
        with resp.trickle seconds between pieces."""
        if not resp.trickle:
            self.end_headers()
            return
        self._headers_buffer.append(b"\r\n")
        head = b"".join(self._headers_buffer)
        self._headers_buffer = []
        for i in range(0, len(head), 16):
            if i:
                time.sleep(resp.trickle)
            self.wfile.write(head[i:i + 16])
            self.wfile.flush()

    def send(self, resp):
        try:
            self.send_response(resp.status)
            self.send_header("Content-Type", resp.content_type)
            for k, v in resp.headers.items():
                self.send_header(k, v)
            if isinstance(resp.body, (bytes, bytearray)):
                self.send_header("Content-Length", str(len(resp.body)))
                self.end_head(resp)
                if resp.cut is not None:
                    self.wfile.write(resp.body[:resp.cut])
                    self.drop()
                else:
                    self.wfile.write(resp.body)
                return
            # Streamed: chunked, or ended by the end of the connection.
            chunked = resp.framing == "chunked"
            if chunked:
                self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_head(resp)
            for delay, chunk in resp.body:
                if delay:
                    time.sleep(delay)
                if chunk is DROP:
                    self.drop()
                    return
                if not chunk:
                    continue            # an empty chunk would end the body
                if chunked:
                    chunk = b"%x\r\n%s\r\n" % (len(chunk), chunk)
                self.wfile.write(chunk)
                self.wfile.flush()
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True    # the client hung up (cancelled)


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
    ap.add_argument("--port", type=int, default=0,
                    help="listen on this port (default: one the OS picks), e.g. to "
                         "come back where a stopped server was")
    ap.add_argument("--log", help="append every request as a JSON line here")
    ap.add_argument("--dim", type=int, default=32, help="embedding dimension")
    ap.add_argument("--reverse", action="store_true",
                    help="return embedding items in reverse order")
    ap.add_argument("--fault", choices=[f for f in FAULTS if f],
                    help="embeddings: answer every request with this fault")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds to wait before each reply")
    ap.add_argument("--require-key", help="reject requests without this bearer key")
    ap.add_argument("--chunk", type=int, default=8,
                    help="chat: characters of content per streamed delta")
    ap.add_argument("--chunk-delay", type=float, default=0.0,
                    help="chat: seconds between streamed events")
    ap.add_argument("--script", help="JSON file of defaults, embedding steps "
                                     "and chat rules")
    a = ap.parse_args(argv)

    settings = {"dim": a.dim, "reverse": a.reverse, "fault": a.fault,
                "delay": a.delay, "require_key": a.require_key,
                "chunk": a.chunk, "chunk_delay": a.chunk_delay}
    try:
        script = None
        if a.script:
            with open(a.script, encoding="utf-8") as f:
                script = json.load(f)
        state = State(check_settings(settings), script, a.log)
    except (OSError, ValueError) as ex:
        print("llm_server: %s" % ex, file=sys.stderr)
        return 2

    srv = Server((HOST, a.port), Handler)
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
