#!/usr/bin/env python3
"""run.py — scripted whole conversations with a genie agent.

Each tests/agent/*.json file is one conversation: the agent, the date the
agent takes as today, SQL run on the database copy first ("setup_sql",
after the agent's init.sql), and turns.  A turn has the user's words, the LLM
replies scripted for it (mock server rules, consumed in order per stage),
and what must hold after it: the agent acts, the dialogue state, refused
statements, stage errors, the reply ("response": a string or a list of
strings it holds; "no_response": strings it must not hold), and what its
prompts hold ("prompt_contains": {stage: [strings]}, read from the mock
server's log).  After the last turn, SQL checks read the rows the
agent's APIs wrote.  genie runs once per conversation in line mode with --format json against a copy of the agent's database; events
are split into turns at each "timings" event.

Usage: run.py GENIE TOP FILE...   Prints "ok - ..."/"not ok - ..." lines
and "N passed, N failed" last; with GENIE_CONV_STDERR=1 also genie's
standard error, for debugging a conversation.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def start_mock(top, tmp, rules):
    script = os.path.join(tmp, "script.json")
    with open(script, "w") as f:
        json.dump({"chat": {"rules": rules, "default": {"reply": "mock reply"}}}, f)
    port_file = os.path.join(tmp, "mock.port")
    p = subprocess.Popen([sys.executable, os.path.join(top, "tests/mock/llm_server.py"),
                          "--port-file", port_file, "--script", script,
                          "--log", os.path.join(tmp, "mock.log")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return p, int(open(port_file).read())
        time.sleep(0.05)
    p.kill()
    raise RuntimeError("mock server did not start")


def copy_db(top, agent, tmp, setup=()):
    src = os.path.join(top, "sample_db", agent + ".db")
    dst = os.path.join(tmp, agent + ".db")
    for ext in ("", ".faiss", ".vec", ".lex"):
        if os.path.exists(src + ext):
            shutil.copy(src + ext, dst + ext)
    # The sample database is the one `genie` books into by default: start
    # from no reservations, whatever a person booked there before.
    con = sqlite3.connect(dst)
    try:
        if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'reservations'").fetchone():
            con.execute("DELETE FROM reservations")
        # A conversation may start from rows of its own (a booking to
        # cancel), in the tables the agent's init.sql makes.
        if setup:
            con.executescript(open(os.path.join(top, "sample_db", agent, "init.sql")).read())
        for sql in setup:
            con.executescript(sql)
        con.commit()
    finally:
        con.close()
    return dst


def genie_cmd(genie, conv, tmp, db, port):
    cmd = [genie, "--plain", "--format", "json", "--agent", conv["agent"],
           "--today", conv.get("today", "2026-03-13"), "--db", db,
           "--sessions", os.path.join(tmp, "sessions.db"), "--no-cache", "-q",
           "--retries", "0", "--stall-timeout", "5"]
    if port:
        cmd += ["--llm-url", "http://127.0.0.1:%d/v1" % port, "--model", "mock"]
    else:
        cmd += ["--offline"]
    return cmd + conv.get("args", [])


def split_turns(out):
    turns, cur = [], []
    for line in out.splitlines():
        if not line.strip():
            continue
        ev = json.loads(line)
        cur.append(ev)
        if ev["event"] == "timings":
            turns.append(cur)
            cur = []
    return turns


def state_of(events):
    for ev in events:
        if ev["event"] == "state":
            return ev["data"]
    return None


def lookup(state, path):
    """'book_restaurant.date' -> the field's value; 'answer_1.rows' -> count;
    'book_restaurant.done' -> bool; missing field -> None."""
    var, _, attr = path.partition(".")
    for r in state["records"]:
        if r["var"] != var:
            continue
        if attr in ("done", "abandoned"):
            return r.get(attr, False)
        if attr == "rows":
            return len(r.get("result") or [])
        if attr in ("missing", "error", "suql"):
            return r.get(attr)
        f = r.get("fields", {}).get(attr)
        return f["value"] if f and f.get("set") else None
    return "<no record %s>" % var


def turn_prompts(log_path, turns):
    """Each turn's prompts by stage, from the mock server's log: a stage's
    requests in order, as many to a turn as its timings count."""
    by_stage = {}
    if os.path.exists(log_path):
        for line in open(log_path, encoding="utf-8"):
            e = json.loads(line)
            stage = next((v for k, v in (e.get("headers") or {}).items() if k.lower() == "x-genie-stage"), None)
            body = e.get("json") or {}
            if stage and isinstance(body, dict):
                text = "\n".join(str(m.get("content")) for m in body.get("messages", []))
                by_stage.setdefault(stage, []).append(text)
    out, used = [], {}
    for evs in turns:
        timings = next((ev["data"] for ev in evs if ev["event"] == "timings"), {})
        mine = {}
        for stage, n in timings.get("calls_by_stage", {}).items():
            k = used.get(stage, 0)
            mine[stage] = by_stage.get(stage, [])[k:k + n]
            used[stage] = k + n
        out.append(mine)
    return out


def check_turn(i, turn, events, prev_state):
    problems = []
    exp = turn.get("expect", {})
    acts = next((ev["data"] for ev in events if ev["event"] == "acts"), [])
    pos = 0
    for want in exp.get("acts", []):
        k = next((j for j in range(pos, len(acts)) if want in acts[j]), None)
        if k is None:
            problems.append("act %r not found (in order) in %r" % (want, acts))
        else:
            pos = k + 1
    if "nacts" in exp and len(acts) != exp["nacts"]:
        problems.append("%d acts, expected %d: %r" % (len(acts), exp["nacts"], acts))
    for bad in exp.get("no_acts", []):
        if any(bad in a for a in acts):
            problems.append("act %r should not be there: %r" % (bad, acts))
    state = state_of(events)
    for path, want in exp.get("state", {}).items():
        got = lookup(state, path) if state else "<no state>"
        if got != want:
            problems.append("%s = %r, expected %r" % (path, got, want))
    refused = [ev for ev in events if ev["event"] == "refused"]
    if len(refused) != exp.get("refused", 0):
        problems.append("%d refused statements, expected %d: %r" %
                        (len(refused), exp.get("refused", 0), [r.get("error") for r in refused]))
    errors = sorted(ev.get("stage", "") for ev in events if ev["event"] == "error")
    if errors != sorted(exp.get("errors", [])):
        problems.append("errors in stages %r, expected %r: %r" %
                        (errors, exp.get("errors", []),
                         [ev.get("error") for ev in events if ev["event"] == "error"]))
    resp = next((ev for ev in events if ev["event"] == "response"), None)
    if resp is None:
        problems.append("no response")
    else:
        want = exp.get("response", [])
        for w in [want] if isinstance(want, str) else want:
            if w not in resp["text"]:
                problems.append("response %r lacks %r" % (resp["text"], w))
        for w in exp.get("no_response", []):
            if w in resp["text"]:
                problems.append("response %r should not hold %r" % (resp["text"], w))
    if exp.get("fallback") is not None and resp is not None and \
            resp["data"]["fallback"] != exp["fallback"]:
        problems.append("response fallback %r, expected %r" % (resp["data"]["fallback"], exp["fallback"]))
    if exp.get("state_unchanged") and prev_state is not None and state is not None:
        strip = lambda s: [r for r in s["records"]]
        if json.dumps(strip(state), sort_keys=True) != json.dumps(strip(prev_state), sort_keys=True):
            problems.append("the state changed")
    timings = next((ev["data"] for ev in events if ev["event"] == "timings"), {})
    by = timings.get("calls_by_stage", {})
    for stage, n in exp.get("calls", {}).items():
        if by.get(stage, 0) != n:
            problems.append("%d %s calls, expected %d: %r" % (by.get(stage, 0), stage, n, by))
    for w in exp.get("suql_contains", []):
        if not any(ev["event"] == "suql" and w in ev.get("text", "") for ev in events):
            problems.append("no SUQL event containing %r" % w)
    return problems, state


def run(genie, top, path):
    conv = json.load(open(path))
    name = conv.get("name", os.path.basename(path))
    tmp = tempfile.mkdtemp(prefix="genie-conv.")
    mock = None
    results = []
    try:
        rules = []
        for t in conv["turns"]:
            llm = list(t.get("llm", []))
            # Every turn answers its own respond call, so a turn's scripted
            # reply (or fault) is never consumed by an earlier turn.
            if not any(r.get("stage") == "respond" for r in llm):
                llm.append({"stage": "respond", "reply": "mock reply"})
            for r in llm:
                r = dict(r)
                r.setdefault("times", 1)
                rules.append(r)
        port = None
        if not conv.get("offline"):
            mock, port = start_mock(top, tmp, rules)
        db = copy_db(top, conv["agent"], tmp, conv.get("setup_sql", []))
        env = dict(os.environ, HOME=tmp, XDG_CONFIG_HOME=os.path.join(tmp, "config"),
                   XDG_DATA_HOME=os.path.join(tmp, "data"), XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        for k in list(env):
            if (k.startswith("GENIE_") and k not in ("GENIE_TOP", "GENIE_BIN")) or k.startswith("OPENAI_"):
                del env[k]
        stdin = "".join(t["user"] + "\n" for t in conv["turns"])
        p = subprocess.run(genie_cmd(genie, conv, tmp, db, port), input=stdin, env=env,
                           capture_output=True, text=True, timeout=120)
        if os.environ.get("GENIE_CONV_STDERR"):
            sys.stderr.write(p.stderr)
        if p.returncode != 0:
            results.append((name + ": genie exits 0", ["exit %d: %s" % (p.returncode, p.stderr[-800:])]))
            return results
        turns = split_turns(p.stdout)
        if len(turns) != len(conv["turns"]):
            results.append((name + ": one reply per turn",
                            ["%d turns, expected %d; stderr: %s" % (len(turns), len(conv["turns"]), p.stderr[-600:])]))
            return results
        prev = None
        prompts = turn_prompts(os.path.join(tmp, "mock.log"), turns)
        for i, (t, evs) in enumerate(zip(conv["turns"], turns)):
            probs, prev = check_turn(i, t, evs, prev)
            for stage, wants in t.get("expect", {}).get("prompt_contains", {}).items():
                text = "\n".join(prompts[i].get(stage, []))
                for w in wants:
                    if w not in text:
                        probs.append("no %s prompt of the turn holds %r" % (stage, w))
            results.append(("%s: turn %d %r" % (name, i + 1, t["user"][:40]), probs))
        con = sqlite3.connect(db)
        for chk in conv.get("db", []):
            rows = [list(r) for r in con.execute(chk["sql"]).fetchall()]
            probs = [] if rows == chk["rows"] else ["rows %r, expected %r" % (rows, chk["rows"])]
            results.append(("%s: %s" % (name, chk.get("name", chk["sql"][:50])), probs))
        con.close()
    finally:
        if mock:
            mock.terminate()
            mock.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main():
    genie, top, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    passed = failed = 0
    for f in files:
        try:
            res = run(genie, top, f)
        except Exception as ex:  # a broken test file is a failure, not a crash
            res = [(os.path.basename(f), ["runner error: %r" % ex])]
        for name, probs in res:
            if probs:
                failed += 1
                print("not ok - " + name)
                for p in probs:
                    print("#   " + p)
            else:
                passed += 1
                print("ok - " + name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
