#!/usr/bin/env python3
"""api_server.py — a mock backend for the agent's HTTP APIs (apis.ini url=).

Listens on 127.0.0.1 only, on a port the OS picks, and prints the port on
stdout (one line) once it accepts connections.  Exits when its stdin
reaches end of file (the test process that spawned it holding the other end
of a pipe has exited, however it ended) or on SIGTERM.  Python standard
library only; one thread per request, so a slow route does not hold up the
others.

Routes:
  POST /echo   200 {"echo": <the JSON body>, "x_api_key": <X-Api-Key header
               or null>, "content_type": <Content-Type>}
  GET  /echo   200 {"echo": {query parameter: value}} (last value wins)
  GET  /fail   503, body "backend unavailable\\n" (any method)
  *    /slow   sleeps 3 s, then 200 {"ok": true}
  *    /text   200 text/plain "plain words"
  *    /list   200 [1, 2, 3]
  *    /big    200, 2 MiB of "x"
  *    /flaky?tag=T&status=S&times=N[&retry_after=R]
               the first N requests with tag T (counted across methods)
               get status S, body "flaky failure K" (K: the request's
               number) and, with retry_after, that Retry-After header;
               later ones 200 {"attempt": K}.  Lets a test see how many
               times a client sent a request.
  anything else: 404
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit


COUNTS = {}                 # /flaky: requests seen per tag
COUNT_LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet
        pass

    def reply(self, status, body, ctype="application/json", headers=None):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeouts)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def route(self, method):
        url = urlsplit(self.path)
        raw = self.body() if method == "POST" else b""
        path = url.path
        if path == "/echo" and method == "POST":
            try:
                data = json.loads(raw or b"null")
            except ValueError:
                data = raw.decode("utf-8", "replace")
            self.reply(200, {"echo": data, "x_api_key": self.headers.get("X-Api-Key"),
                             "content_type": self.headers.get("Content-Type")})
        elif path == "/echo":
            self.reply(200, {"echo": dict(parse_qsl(url.query, keep_blank_values=True))})
        elif path == "/fail":
            self.reply(503, b"backend unavailable\n", "text/plain")
        elif path == "/slow":
            time.sleep(3)
            self.reply(200, {"ok": True})
        elif path == "/text":
            self.reply(200, b"plain words", "text/plain")
        elif path == "/list":
            self.reply(200, [1, 2, 3])
        elif path == "/big":
            self.reply(200, b"x" * (2 << 20), "text/plain")
        elif path == "/flaky":
            q = dict(parse_qsl(url.query, keep_blank_values=True))
            with COUNT_LOCK:
                COUNTS[q.get("tag", "")] = k = COUNTS.get(q.get("tag", ""), 0) + 1
            if k <= int(q.get("times", "1")):
                extra = {"Retry-After": q["retry_after"]} if "retry_after" in q else None
                self.reply(int(q.get("status", "500")), b"flaky failure %d\n" % k,
                           "text/plain", extra)
            else:
                self.reply(200, {"attempt": k})
        else:
            self.reply(404, {"error": "no route " + path})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients that time out or stop reading reset the connection


def main():
    server = Server(("127.0.0.1", 0), Handler)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

    def watch_stdin():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
