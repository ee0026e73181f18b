#!/usr/bin/env python3
"""load.py — many scripted turns in one genie session, measuring memory
and time per turn.

Drives the real binary in line mode (--plain --format json) through a pipe,
against the mock LLM server, for --turns turns in one session.  The turns
follow a 13-turn cycle: book a table (parse -> worksheet), confirm it (the
booking API writes a reservation), then eleven questions to the knowledge
base (parse -> kb_parse -> SUQL -> respond).  Eleven turns between bookings
let the finished booking be forgotten, so each cycle's booking is again
`book_restaurant`, which is the name the scripted parser uses.

After each turn (its "timings" event) it reads the process's VmRSS from
/proc.  It prints one line per turn in --report, a summary line, and with
--json FILE writes every figure for a test to check:
  {"turns", "replies", "bookings", "errors", "rss_kb": {"10": ...},
   "ms": [per-turn wall ms...], "sessions_bytes", "state_bytes"}
Python standard library only.
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request

CYCLE = 13


def script():
    """The mock's rules: the parser's reply picked by a word of the
    utterance, the knowledge parser's and the response writer's by stage."""
    return {"chat": {"rules": [
        {"stage": "parse", "contains": "Book ",
         "reply": "Book_Restaurant(restaurant=\"Papa Nino's Trattoria\", num_people=2, "
                  "date=\"2026-03-20\", time=\"19:00\")"},
        {"stage": "parse", "contains": "Yes, book",
         "reply": "book_restaurant.confirm = True"},
        {"stage": "parse",
         "reply": "answer(\"Italian restaurants in Palo Alto\")"},
        {"stage": "kb_parse",
         "reply": "SELECT name, rating, price FROM restaurants WHERE 'italian' = ANY (cuisines) "
                  "AND location = 'Palo Alto' ORDER BY rating DESC LIMIT 3;"},
        {"stage": "respond", "reply": "Here is what I found; shall I book one of them?"},
    ]}}


def utterance(i):
    k = (i - 1) % CYCLE
    if k == 0:
        return "Book Papa Nino's for two next Friday at 7pm"
    if k == 1:
        return "Yes, book it"
    return "Which Italian places in Palo Alto are good? (%d)" % i


def reservations(path):
    """Rows of the reservations table (0 before the agent creates it)."""
    db = sqlite3.connect(path)
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'reservations'").fetchone():
            return 0
        return db.execute("SELECT count(*) FROM reservations").fetchone()[0]
    finally:
        db.close()


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--url", required=True, help="the mock server's /v1 base")
    ap.add_argument("--agent", default="restaurants")
    ap.add_argument("--db", required=True, help="a copy of the agent's database")
    ap.add_argument("--sessions", required=True)
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--report", default="10,100,1000")
    ap.add_argument("--json")
    a = ap.parse_args()
    report = {int(x) for x in a.report.split(",") if x}

    booked0 = reservations(a.db)

    req = urllib.request.Request(a.url.rsplit("/v1", 1)[0] + "/_mock/script",
                                 data=json.dumps(script()).encode(),
                                 headers={"Content-Type": "application/json"})
    urllib.request.urlopen(req).read()

    cmd = [a.bin, "--plain", "--format", "json", "--agent", a.agent, "--db", a.db,
           "--today", "2026-03-13", "--sessions", a.sessions, "--llm-url", a.url,
           "-m", "mock", "-q", "--retries", "0", "--no-cache"]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, bufsize=1)
    out = {"turns": a.turns, "replies": 0, "bookings": 0, "errors": 0,
           "rss_kb": {}, "ms": []}
    for i in range(1, a.turns + 1):
        t0 = time.perf_counter()
        p.stdin.write(utterance(i) + "\n")
        p.stdin.flush()
        done = False
        while not done:
            line = p.stdout.readline()
            if not line:
                sys.stderr.write("genie exited at turn %d: %s\n" % (i, p.stderr.read()[-2000:]))
                return 1
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("event")
            if kind == "error":
                out["errors"] += 1
            elif kind == "response":
                out["replies"] += 1
            elif kind == "timings":
                done = True
        out["ms"].append((time.perf_counter() - t0) * 1000.0)
        if i in report:
            kb = rss_kb(p.pid)
            out["rss_kb"][str(i)] = kb
            last = out["ms"][-min(i, 10):]
            print("turn %5d: RSS %.1f MB, %.2f ms per turn (mean of the last %d)"
                  % (i, kb / 1024.0, sum(last) / len(last), len(last)), flush=True)
    p.stdin.close()
    p.wait(timeout=30)

    out["bookings"] = reservations(a.db) - booked0
    out["sessions_bytes"] = os.path.getsize(a.sessions)
    s = sqlite3.connect(a.sessions)
    try:
        row = s.execute("SELECT length(state) FROM turns ORDER BY session DESC, n DESC LIMIT 1").fetchone()
        out["state_bytes"] = row[0] if row else 0
    finally:
        s.close()
    n = len(out["ms"])
    w = max(1, min(100, n // 10))
    first, last = out["ms"][:w], out["ms"][-w:]
    print("%d turns, %d replies, %d bookings, %d errors; first %d turns %.2f ms/turn, "
          "last %d %.2f ms/turn (x%.2f); sessions %.1f MB, last state %d bytes"
          % (n, out["replies"], out["bookings"], out["errors"], w, sum(first) / w, w,
             sum(last) / w, (sum(last) / w) / (sum(first) / w), out["sessions_bytes"] / 1048576.0,
             out["state_bytes"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
