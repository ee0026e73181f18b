#!/usr/bin/env python3
r"""run.py — differential test of genie's SUQL against a real PostgreSQL.

SUQL is PostgreSQL's SELECT (plus answer() and summary()), compiled to
SQLite.  This runs every query of the corpus (tests/pg/*.sql) twice: in
genie (`genie --suql ... --format json`, offline, --today 2026-11-26) and in
a private PostgreSQL server loaded with the same two sample databases, and
compares the outcomes.

The server: initdb into a fresh private directory (mode 0700, owned by the
`postgres` system user when run as root, since initdb refuses root), which
also holds the Unix socket; no TCP (listen_addresses = ''), fsync off,
time zone UTC.  Each database has collation C (text compares byte by
byte, as SQLite compares it) and ctype C.UTF-8 (upper(), lower(),
initcap() and ILIKE map the case of all of Unicode, as a deployment's
UTF-8 locale does; genie maps it the same way whatever its own locale).  It is always stopped (pg_ctl stop -m immediate) and the directory
removed when the run ends, also on an error or Ctrl-C.  The sample
databases are loaded from the SQLite files: each table of genie_columns with
its columns (_id the primary key), int -> integer (bigint when a value needs
it), real -> double precision, text and free text -> text, time -> time,
date -> date, boolean -> boolean, arrays -> text[] (free-text arrays too),
an enum -> CREATE TYPE <table>_<column> AS ENUM (its declared values, in
order; an enum array is that type's array), through COPY FROM STDIN.

A case runs in PostgreSQL as `SELECT row_to_json(r) FROM (QUERY) AS r`
(typed JSON values, the ORDER BY kept), then `QUERY \gdesc` for the column
names and types.  The cases of a database run in one psql session, told
apart by markers on both output streams (an error does not end the
session; the connection is read-only); a query whose text could disturb
that (a semicolon, a backslash or an unclosed quote outside its literals)
runs alone with ON_ERROR_STOP.  genie runs once per case (-j at a time),
with no configuration file and its own empty home directory.

Corpus format (one or more files tests/pg/*.sql; a file named after a
database, restaurants.sql or courses.sql, defaults to that database):

    -- case: time-literal-one-digit-hour
    -- db: courses                    (optional in a file named after a database)
    -- order: total                   (optional: ORDER BY is total; compare in order)
    -- expect: divergence: REASON     (optional; see the outcomes below)
    -- pg: SELECT ...                 (optional: the text PostgreSQL runs instead)
    -- candidates: SELECT ...         (a free-text query: PostgreSQL counts the rows
                                       of each conjunct's structured part, one row a
                                       conjunct; genie --explain's candidates must match)
    -- why: ...                       (optional comments, any number)
    SELECT ... ;

The query is the text up to the next `-- case:` line (trailing comment lines
and the final semicolon dropped).  `expect` is one of
    divergence: REASON   genie is allowed to differ from PostgreSQL here
                         (values differ, or PostgreSQL refuses and genie runs)
    unsupported: REASON  genie documents the construct as not supported:
                         genie refusing what PostgreSQL runs is a pass
    error: REASON        PostgreSQL must refuse this query (a check of the
                         corpus); genie must refuse it too
Outcomes: both ran and the values are equal (row by row with `order: total`,
as multisets otherwise) -> pass; both refused -> pass; PostgreSQL ran and
genie refused -> fail unless `unsupported`; PostgreSQL refused and genie ran,
or the values differ -> fail unless `divergence`; a marked case that now
matches exactly -> fail as a stale mark, so the marks stay honest.

Values: integers compare exactly; other numbers to about 1e-9 relative;
'HH:MM' equals 'HH:MM:00'; a boolean equals 1/0; an array equals its JSON
text; NULL equals only NULL.  Where the values are equal but their form
differs (column names, time without seconds, booleans as 1/0, arrays as
JSON text, integers as floats, numbers as text, timestamps without
row_to_json's 'T'), the case passes and is counted as a formatting
difference.

Prints one line per failing case, a summary, and last "N passed, N failed";
exits 1 when a case failed, 2 when the run itself could not be made, 130
when interrupted.
Usage: python3 tests/pg/run.py [-k PATTERN] [-v] [--show] [-j JOBS] [FILE.sql...]
  -k PATTERN  only the cases whose id contains PATTERN (a glob with * ? [)
  -v          a line for every case, not only the failing ones
  --show      both results of every case run (with -k, to look at a few)
  -j JOBS     genie processes at a time (default 2)
Environment: GENIE (the binary, default build/genie), PG_BINDIR (the
PostgreSQL programs, default: found under /usr/lib/postgresql).
Python standard library only.
"""
import argparse
import fnmatch
import glob
import json
import math
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DBS = {"restaurants": "sample_db/restaurants.db", "courses": "sample_db/courses.db"}
TODAY = "2026-11-26"
HIDDEN_TABLES = ("enrollments", "drops")
GENIE_TIMEOUT = 60
PG_TIMEOUT_MS = 20000


class SetupError(Exception):
    pass


# ---- corpus ----------------------------------------------------------------

class Case:
    def __init__(self, cid, path, line, db):
        self.id = cid
        self.path = path
        self.line = line
        self.db = db
        self.order = None
        self.expect = None          # (kind, reason)
        self.pg = None
        self.candidates = None      # a free-text case: PostgreSQL's counts
        self.body = []

    @property
    def sql(self):
        return strip_sql("\n".join(self.body))

    @property
    def pg_sql(self):
        if self.candidates:
            return strip_sql(self.candidates)
        return strip_sql(self.pg) if self.pg else self.sql


CASE_RE = re.compile(r"^--\s*case:\s*(\S+)\s*$")
HEADER_RE = re.compile(r"^--\s*([a-z][a-z-]*):\s?(.*?)\s*$")
EXPECT_KINDS = ("divergence", "unsupported", "error")


def strip_sql(text):
    lines = text.strip("\n").split("\n")
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("--")):
        lines.pop()
    s = "\n".join(lines).strip()
    while s.endswith(";"):
        s = s[:-1].rstrip()
    return s


def load_corpus(paths):
    cases, errors, seen = [], [], {}
    for path in paths:
        rel = os.path.relpath(path, TOP)
        stem = os.path.splitext(os.path.basename(path))[0]
        default_db = stem if stem in DBS else None
        cur, in_header = None, False
        with open(path, encoding="utf-8") as f:
            for n, raw in enumerate(f, 1):
                line = raw.rstrip("\n")
                m = CASE_RE.match(line)
                if m:
                    if cur:
                        cases.append(cur)
                    cur, in_header = Case(m.group(1), rel, n, default_db), True
                    if cur.id in seen:
                        errors.append("%s:%d: case %s already defined at %s" % (rel, n, cur.id, seen[cur.id]))
                    seen[cur.id] = "%s:%d" % (rel, n)
                    continue
                if cur is None:
                    m = HEADER_RE.match(line)
                    if m and m.group(1) == "db":
                        default_db = m.group(2)
                    continue
                if in_header:
                    m = HEADER_RE.match(line)
                    if m:
                        key, val = m.group(1), m.group(2)
                        if key == "db":
                            cur.db = val
                        elif key == "order":
                            if val != "total":
                                errors.append("%s:%d: order must be 'total'" % (rel, n))
                            cur.order = val
                        elif key == "expect":
                            kind, _, reason = val.partition(":")
                            kind, reason = kind.strip(), reason.strip()
                            if kind not in EXPECT_KINDS or not reason:
                                errors.append("%s:%d: expect must be one of %s followed by ': reason'"
                                              % (rel, n, ", ".join(EXPECT_KINDS)))
                            cur.expect = (kind, reason)
                        elif key == "pg":
                            cur.pg = val
                        elif key == "candidates":
                            cur.candidates = val
                        # any other key (why, note, ...) is a comment
                        continue
                    if not line.strip() or line.lstrip().startswith("--"):
                        continue
                    in_header = False
                cur.body.append(line)
        if cur:
            cases.append(cur)
    for c in cases:
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", c.id) or c.id == "end":
            errors.append("%s:%d: case id %r: letters, digits, _ . - only" % (c.path, c.line, c.id))
        if c.db not in DBS:
            errors.append("%s:%d: case %s: unknown or missing db %r" % (c.path, c.line, c.id, c.db))
        if not c.sql:
            errors.append("%s:%d: case %s has no query" % (c.path, c.line, c.id))
    return cases, errors


# ---- the PostgreSQL server ---------------------------------------------------

def version_key(path):
    m = re.search(r"/postgresql/(\d+)(?:\.(\d+))?/", path + "/")
    return (int(m.group(1)), int(m.group(2) or 0)) if m else (0, 0)


def find_bindir():
    env = os.environ.get("PG_BINDIR")
    if env:
        if not os.path.exists(os.path.join(env, "initdb")):
            raise SetupError("PG_BINDIR=%s has no initdb" % env)
        return env
    cands = [d for d in glob.glob("/usr/lib/postgresql/*/bin") if os.path.exists(os.path.join(d, "initdb"))]
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10)
        d = out.stdout.strip()
        if out.returncode == 0 and d and os.path.exists(os.path.join(d, "initdb")):
            cands.append(d)
    except (OSError, subprocess.SubprocessError):
        pass
    if not cands:
        raise SetupError("PostgreSQL not found (no /usr/lib/postgresql/*/bin/initdb); "
                         "scripts/setup.sh installs Debian's postgresql")
    # PostgreSQL 15 is the reference; another version only when 15 is absent.
    fifteen = [d for d in cands if version_key(d)[0] == 15]
    return (fifteen or sorted(cands, key=version_key))[-1]


class Server:
    """A private, throw-away PostgreSQL server."""

    def __init__(self):
        self.bindir = find_bindir()
        self.dir = None
        self.started = False
        self.prefix = []
        self.uid = self.gid = None
        if os.geteuid() == 0:
            import pwd
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise SetupError("running as root needs the 'postgres' system user (Debian's postgresql creates it)")
            self.uid, self.gid = pw.pw_uid, pw.pw_gid
            if shutil.which("runuser"):
                self.prefix = ["runuser", "-u", "postgres", "--"]
            elif shutil.which("setpriv"):
                self.prefix = ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid, "--init-groups"]
            else:
                raise SetupError("running as root needs runuser or setpriv (util-linux)")

    @property
    def data(self):
        return os.path.join(self.dir, "data")

    def server_env(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C")
        return env

    def as_server(self, argv, **kw):
        return subprocess.run(self.prefix + argv, cwd=self.dir, env=self.server_env(),
                              capture_output=True, text=True, **kw)

    def start(self):
        self.dir = tempfile.mkdtemp(prefix="genie-pg.")
        os.chmod(self.dir, 0o700)
        if self.uid is not None:
            os.chown(self.dir, self.uid, self.gid)
        r = self.as_server([os.path.join(self.bindir, "initdb"), "-D", self.data, "-U", "postgres",
                            "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], timeout=120)
        if r.returncode != 0:
            raise SetupError("initdb failed:\n" + r.stdout + r.stderr)
        with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
            f.write("\n# tests/pg/run.py\n"
                    "listen_addresses = ''\n"
                    "unix_socket_directories = '%s'\n"
                    "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                    "timezone = 'UTC'\nlog_timezone = 'UTC'\n"
                    "lc_messages = 'C'\ndatestyle = 'ISO, YMD'\n"
                    "max_connections = 20\nshared_buffers = 64MB\n" % self.dir)
        self.started = True   # from here on, stop() tries to stop it
        r = self.as_server([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-l",
                            os.path.join(self.dir, "server.log"), "-w", "-t", "60", "start"], timeout=90)
        if r.returncode != 0:
            log = ""
            try:
                with open(os.path.join(self.dir, "server.log")) as f:
                    log = f.read()[-2000:]
            except OSError:
                pass
            raise SetupError("pg_ctl start failed:\n" + r.stdout + r.stderr + log)

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data, "postmaster.pid")) as f:
                return int(f.readline().strip())
        except (OSError, ValueError):
            return None

    def stop(self):
        if not self.dir:
            return
        if self.started:
            pid = self.postmaster_pid()
            try:
                self.as_server([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m", "immediate",
                                "-w", "-t", "30", "stop"], timeout=60)
            except (OSError, subprocess.SubprocessError):
                pass
            if pid:
                # pg_ctl could not stop it: the postmaster of this directory only.
                for _ in range(50):
                    try:
                        os.kill(pid, 0)
                    except OSError:
                        break
                    try:
                        os.kill(pid, signal.SIGQUIT)
                    except OSError:
                        break
                    time.sleep(0.1)
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    def client_env(self, db, readonly):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        opts = "-c statement_timeout=%d" % PG_TIMEOUT_MS
        if readonly:
            opts += " -c default_transaction_read_only=on"
        env.update(PGHOST=self.dir, PGUSER="postgres", PGDATABASE=db, PGCLIENTENCODING="UTF8",
                   PGOPTIONS=opts, LC_ALL="C")
        return env

    def psql(self, db, script, readonly=True, timeout=120):
        """Runs script (psql input) in db: (exit status, stdout, stderr)."""
        argv = [os.path.join(self.bindir, "psql"), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1",
                "-h", self.dir, "-U", "postgres", "-d", db, "-F", "\x1f", "-f", "-"]
        r = subprocess.run(argv, input=script.encode("utf-8"), capture_output=True,
                           env=self.client_env(db, readonly), timeout=timeout)
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")

    def version(self):
        rc, out, _ = self.psql("postgres", "SHOW server_version;")
        return out.strip() if rc == 0 else "?"


# ---- loading the sample databases -------------------------------------------

def qi(name):
    return '"' + name.replace('"', '""') + '"'


def ql(s):
    return "'" + s.replace("'", "''") + "'"


def copy_escape(s):
    return (s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))


def array_literal(items, elem):
    out = []
    for v in items:
        if v is None:
            out.append("NULL")
        elif isinstance(v, bool):
            out.append("t" if v else "f")
        elif elem in ("int", "real") and isinstance(v, (int, float)):
            out.append(repr(v))
        else:
            s = v if isinstance(v, str) else json.dumps(v)
            out.append('"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "{" + ",".join(out) + "}"


def column_meta(con):
    have = [r[1] for r in con.execute("PRAGMA table_info(genie_columns)")]

    def pick(*names):
        for n in names:
            if n in have:
                return n
        raise SetupError("genie_columns has none of %s (columns: %s)" % (names, have))
    cols = [pick("tbl", "tab", "table_name"), pick("col", "name", "column_name"), pick("pos", "position"),
            pick("type"), pick("is_array"), pick("free_text", "is_freetext"), pick("enum_values")]
    rows = con.execute("SELECT %s FROM genie_columns ORDER BY 1, 3" % ", ".join(cols)).fetchall()
    tables = {}
    for tbl, col, pos, typ, is_array, free, enum_values in rows:
        if tbl.startswith("genie_") or tbl.startswith("_truth_") or tbl in HIDDEN_TABLES:
            continue
        tables.setdefault(tbl, []).append({
            "name": col, "type": (typ or "text").lower(), "array": bool(is_array),
            "enum": json.loads(enum_values) if enum_values else None})
    return tables


def load_script(dbfile):
    """The SQL (with inline COPY data) that makes the sample database."""
    con = sqlite3.connect("file:%s?mode=ro" % dbfile, uri=True)
    con.text_factory = lambda b: b.decode("utf-8", "replace")
    tables = column_meta(con)
    parts = ["SET client_min_messages = warning;\nBEGIN;\n"]
    for tbl, cols in tables.items():
        defs = []
        for c in cols:
            t = c["type"]
            if t == "enum" or c["enum"]:
                tname = "%s_%s" % (tbl, c["name"])
                parts.append("CREATE TYPE %s AS ENUM (%s);\n" % (qi(tname), ", ".join(ql(v) for v in c["enum"])))
                pgt = qi(tname)
                c["kind"] = "enum"
            elif t in ("int", "integer"):
                big = con.execute("SELECT max(abs(%s)) FROM %s" % (qi(c["name"]), qi(tbl))).fetchone()[0] \
                    if not c["array"] else None
                pgt = "bigint" if big is not None and big > 2147483647 else "integer"
                c["kind"] = "int"
            elif t in ("real", "float", "double"):
                pgt, c["kind"] = "double precision", "real"
            elif t in ("time", "date"):
                pgt, c["kind"] = t, t
            elif t in ("boolean", "bool"):
                pgt, c["kind"] = "boolean", "bool"
            else:
                pgt, c["kind"] = "text", "text"
            if c["array"]:
                pgt += "[]"
            defs.append("%s %s%s" % (qi(c["name"]), pgt, " PRIMARY KEY" if c["name"] == "_id" else ""))
        parts.append("CREATE TABLE %s (\n    %s\n);\n" % (qi(tbl), ",\n    ".join(defs)))
    for tbl, cols in tables.items():
        names = [c["name"] for c in cols]
        parts.append("COPY %s (%s) FROM STDIN;\n" % (qi(tbl), ", ".join(qi(n) for n in names)))
        lines = []
        for row in con.execute("SELECT %s FROM %s" % (", ".join(qi(n) for n in names), qi(tbl))):
            fields = []
            for c, v in zip(cols, row):
                if v is None:
                    fields.append("\\N")
                    continue
                if c["array"]:
                    try:
                        items = json.loads(v) if isinstance(v, str) else [v]
                    except ValueError:
                        raise SetupError("%s.%s: not a JSON array: %r" % (tbl, c["name"], v[:80]))
                    if not isinstance(items, list):
                        items = [items]
                    s = array_literal(items, c["kind"])
                elif c["kind"] == "int":
                    s = str(int(v))
                elif c["kind"] == "real":
                    s = repr(float(v))
                elif c["kind"] == "bool":
                    s = "t" if v in (1, "1", "t", "true", "TRUE", True) else "f"
                else:
                    s = v if isinstance(v, str) else str(v)
                fields.append(copy_escape(s))
            lines.append("\t".join(fields))
        parts.append("\n".join(lines) + ("\n" if lines else "") + "\\.\n")
    parts.append("COMMIT;\nANALYZE;\n")
    # The loaded row counts, checked against SQLite's by load_databases().
    counts = []
    for tbl in tables:
        parts.append("SELECT count(*) FROM %s;\n" % qi(tbl))
        counts.append((tbl, con.execute("SELECT count(*) FROM %s" % qi(tbl)).fetchone()[0]))
    con.close()
    return "".join(parts), counts


# The ctype of the test databases (see the top of the file).
CTYPE = "C.UTF-8"


def load_databases(server):
    for name, rel in DBS.items():
        path = os.path.join(TOP, rel)
        if not os.path.exists(path):
            raise SetupError("%s is missing (make samples builds it)" % rel)
        rc, out, err = server.psql("postgres", "CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' "
                                   "LC_COLLATE 'C' LC_CTYPE '%s';" % (qi(name), CTYPE), readonly=False)
        if rc != 0:
            raise SetupError("CREATE DATABASE %s failed: %s" % (name, err.strip()))
        script, counts = load_script(path)
        rc, out, err = server.psql(name, script, readonly=False, timeout=300)
        if rc != 0:
            raise SetupError("loading %s failed: %s" % (rel, err.strip()[:2000]))
        got = [l.strip() for l in out.splitlines() if l.strip()]
        want = [str(n) for _, n in counts]
        if got != want:
            raise SetupError("loading %s: row counts %s in PostgreSQL, %s in SQLite (tables %s)"
                             % (rel, got, want, [t for t, _ in counts]))


# ---- running one case ----------------------------------------------------------

GDESC_MARK = "@@gdesc@@"
CASE_MARK = "@@case@@"


def first_error_line(text, prefix):
    lines = [l for l in text.splitlines() if l.strip()]
    for l in lines:
        m = re.search(r"\b(ERROR|FATAL|PANIC):\s+(.*)", l)
        if m:
            return "%s: %s" % (m.group(1), m.group(2).strip())
    return lines[0] if lines else prefix


def parse_pg_output(out, err):
    """(ok, rows, columns, types, error) from the output of pg_script()."""
    errors = [l for l in err.splitlines() if re.search(r"\b(ERROR|FATAL|PANIC):", l)]
    if errors:
        return False, None, None, None, first_error_line(errors[0], "error")
    head, sep, tail = out.partition(GDESC_MARK + "\n")
    if not sep:
        head, tail = out.replace(GDESC_MARK, ""), ""
    rows = []
    for line in head.splitlines():
        if line.strip():
            rows.append(json.loads(line, object_pairs_hook=list))
    names, types = [], []
    for line in tail.splitlines():
        if "\x1f" in line:
            n, _, t = line.partition("\x1f")
            names.append(n)
            types.append(t)
    return True, rows, names, types, None


def pg_script(q):
    """psql input giving the rows of q as JSON objects, then its columns."""
    return "SELECT row_to_json(_pg_diff_row) FROM (\n%s\n) AS _pg_diff_row;\n\\echo %s\n%s\n\\gdesc\n" % (q, GDESC_MARK, q)


def batchable(q):
    """True when q is safe to run among others in one psql session: its
    quotes and comments are closed, and it has no semicolon or backslash
    command outside them (else it runs alone)."""
    i, n = 0, len(q)
    while i < n:
        ch = q[i]
        if ch in "'\"":
            escapes = ch == "'" and i > 0 and q[i - 1] in "eE" and (i < 2 or not (q[i - 2].isalnum() or q[i - 2] == "_"))
            j = i + 1
            while True:
                if j >= n:
                    return False
                if escapes and q[j] == "\\":
                    j += 2
                    continue
                if q[j] == ch:
                    if j + 1 < n and q[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
        elif q.startswith("--", i):
            j = q.find("\n", i)
            i = n if j < 0 else j + 1
        elif q.startswith("/*", i):
            j = q.find("*/", i + 2)
            if j < 0:
                return False
            i = j + 2
        elif ch == "$":
            m = re.match(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$", q[i:])
            if m and (i == 0 or not (q[i - 1].isalnum() or q[i - 1] == "_")):
                j = q.find(m.group(0), i + len(m.group(0)))
                if j < 0:
                    return False
                i = j + len(m.group(0))
            else:
                i += 1
        elif ch in ";\\" or (ch == ":" and re.match(r":['\"A-Za-z_{]", q[i:]) and not q.startswith("::", i - 1)):
            return False
        else:
            i += 1
    return True


def run_pg_alone(server, case):
    try:
        rc, out, err = server.psql(case.db, pg_script(case.pg_sql), timeout=PG_TIMEOUT_MS / 1000 + 30)
    except subprocess.TimeoutExpired:
        return False, None, None, None, "psql timed out"
    if rc != 0 and not err.strip():
        return False, None, None, None, "psql exit %d" % rc
    return parse_pg_output(out, err)


def run_pg_batch(server, db, cases):
    """The PostgreSQL outcome of each case of db (by id): the cases that
    batchable() allows in one psql session (errors do not stop it; each
    case's stdout and stderr are told apart by markers), the others alone."""
    results, batch = {}, []
    for c in cases:
        (batch if batchable(c.pg_sql) else []).append(c)
    if batch:
        parts = ["\\set ON_ERROR_STOP 0\n"]
        for c in batch:
            parts.append("\\echo %s %s\n\\warn %s %s\n" % (CASE_MARK, c.id, CASE_MARK, c.id))
            parts.append(pg_script(c.pg_sql))
        parts.append("\\echo %s end\n\\warn %s end\n" % (CASE_MARK, CASE_MARK))
        try:
            rc, out, err = server.psql(db, "".join(parts), timeout=PG_TIMEOUT_MS / 1000 * len(batch) + 60)
        except subprocess.TimeoutExpired:
            out = err = ""

        def split(text):
            seg, cur = {}, None
            for line in text.splitlines(keepends=True):
                m = re.match(re.escape(CASE_MARK) + r" (\S+)\n?$", line)
                if m:
                    cur = m.group(1)
                    seg[cur] = []
                elif cur is not None:
                    seg[cur].append(line)
            return {k: "".join(v) for k, v in seg.items()}
        so, se = split(out), split(err)
        ended = "end" in so and "end" in se
        for c in batch:
            if ended and c.id in so and c.id in se:
                results[c.id] = parse_pg_output(so[c.id], se[c.id])
    for c in cases:
        if c.id not in results:
            results[c.id] = run_pg_alone(server, c)
    return results


def genie_env(home):
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("GENIE_") or k.startswith("OPENAI_"))}
    env.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_DATA_HOME=os.path.join(home, "data"), XDG_STATE_HOME=os.path.join(home, "state"),
               XDG_CACHE_HOME=os.path.join(home, "cache"), LC_ALL="C")
    return env


# A node of --explain's plan tree: its branches ("|  |- ", or box lines
# in a UTF-8 locale), then "candidates: N rows".
CANDIDATES_RE = re.compile(r"^[\s|`\-\u2502\u251c\u2514\u2500]*candidates:\s*(\d+) rows", re.M)


def run_genie_candidates(genie, env, case):
    """A free-text case: the rows each conjunct's structured part selects,
    as genie --explain counts them (its optimizer's candidates), one row a
    conjunct, to compare with PostgreSQL's counts of the same conditions."""
    argv = [genie, "--offline", "--today=" + TODAY, "--config=", "-q",
            "--db", os.path.join(TOP, DBS[case.db]), "--explain=" + case.sql]
    try:
        r = subprocess.run(argv, capture_output=True, env=env, cwd=TOP, timeout=GENIE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, None, "genie timed out after %d s" % GENIE_TIMEOUT
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0:
        err = [l for l in r.stderr.decode("utf-8", "replace").splitlines() if l.strip()]
        return False, None, err[0] if err else "exit %d" % r.returncode
    counts = CANDIDATES_RE.findall(out)
    if not counts:
        return False, None, "--explain shows no candidates (not an optimized plan): " + out[:200]
    return True, [[("candidates", int(n))] for n in counts], None


def run_genie(genie, env, case):
    """(ok, rows, error): rows as lists of (key, value)."""
    if case.candidates:
        return run_genie_candidates(genie, env, case)
    argv = [genie, "--offline", "--today=" + TODAY, "--config=", "-q",
            "--db", os.path.join(TOP, DBS[case.db]), "--suql=" + case.sql, "--format", "json"]
    try:
        r = subprocess.run(argv, capture_output=True, env=env, cwd=TOP, timeout=GENIE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, None, "genie timed out after %d s" % GENIE_TIMEOUT
    except OSError as e:
        raise SetupError("cannot run %s: %s" % (genie, e))
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode != 0:
        lines = [l for l in err.splitlines() if l.strip() and not l.startswith("genie: offline")]
        msg = lines[0] if lines else "(no message)"
        if r.returncode < 0:
            msg = "CRASH (signal %d) %s" % (-r.returncode, msg)
        elif not lines:
            msg = "exit %d, no message" % r.returncode
        return False, None, msg
    try:
        rows = json.loads(out, object_pairs_hook=list)
    except ValueError as e:
        return False, None, "unparsable JSON output (%s): %s" % (e, out[:200])
    if not isinstance(rows, list) or not all(isinstance(x, list) for x in rows):
        return False, None, "JSON output is not an array of objects: %s" % out[:200]
    return True, rows, None


# ---- comparing ---------------------------------------------------------------------

INT_TYPES = ("integer", "bigint", "smallint")
NUM_TYPES = INT_TYPES + ("numeric", "double precision", "real")
TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?$")
TS_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?$")


def num_key(x):
    """A number as compared: an int stays exact, a float is compared to
    about 1e-9 relative (key_eq)."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return ("s", repr(x))
    return ("n", x)


def num_eq(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    # An integer against a whole float: exact (a big integer printed as a
    # float is a real difference).
    if isinstance(a, int) and b.is_integer():
        return a == int(b)
    if isinstance(b, int) and a.is_integer():
        return b == int(a)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def key_eq(a, b):
    """Whether two keys (from value_key) stand for equal values."""
    if a is None or b is None:
        return a is None and b is None
    if a[0] != b[0]:
        return False
    if a[0] == "n":
        return num_eq(a[1], b[1])
    if a[0] in ("a", "o", "row"):
        return len(a[1]) == len(b[1]) and all(key_eq(x, y) for x, y in zip(a[1], b[1]))
    return a == b


def sort_repr(k):
    """A text that equal keys (nearly always) share, to sort and bucket rows."""
    if k is None:
        return "null"
    if k[0] == "n":
        return "n:%.9g" % k[1] if isinstance(k[1], float) or abs(k[1]) < 10 ** 15 else "n:%.9g" % float(k[1])
    if k[0] in ("a", "o", "row"):
        return k[0] + "(" + ",".join(sort_repr(x) for x in k[1]) + ")"
    return json.dumps(k, default=str)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def time_key(s):
    m = TIME_RE.match(s) if isinstance(s, str) else None
    if not m:
        return None
    return ("t", "%02d:%s:%s%s" % (int(m.group(1)), m.group(2), m.group(3) or "00", (m.group(4) or "").rstrip("0").rstrip(".")))


def value_key(v, pgtype, notes, side):
    """The comparable form of a value; notes gathers formatting remarks."""
    if v is None:
        return None
    t = pgtype or ""
    if t.endswith("[]"):
        items = v
        if isinstance(v, str):
            try:
                items = json.loads(v)
                if side == "genie":
                    notes.add("array as JSON text")
            except ValueError:
                return ("s", v)
        if isinstance(items, list):
            return ("a", tuple(value_key(x, t[:-2], notes, side) for x in items))
        return ("s", json.dumps(items))
    if t in ("boolean",):
        if isinstance(v, bool):
            return ("b", v)
        if is_num(v) and v in (0, 1):
            if side == "genie":
                notes.add("boolean as 1/0")
            return ("b", bool(v))
        return generic_key(v)
    if t == "time with time zone":
        return generic_key(v)
    if t.startswith("time without") or t == "time":
        k = time_key(v)
        if k is None:
            return generic_key(v)
        if side == "genie" and isinstance(v, str) and v.count(":") == 1:
            notes.add("time without seconds")
        return k
    if t.startswith("timestamp"):
        m = TS_RE.match(v) if isinstance(v, str) else None
        if m:
            zone = m.group(3) or ""
            # The server runs in UTC: a timestamptz is +00:00 there, and
            # genie, which has no time zones, prints the same instant bare.
            if zone not in ("", "Z", "+00", "+00:00", "+0000"):
                return generic_key(v)
            if side == "genie" and "T" not in v:
                notes.add("timestamp with a space, not T")
            if side == "genie" and t.endswith("with time zone") and not zone:
                notes.add("timestamptz without +00:00")
            tk = time_key(m.group(2))
            return ("ts", m.group(1), tk[1] if tk else m.group(2))
        return generic_key(v)
    if t in NUM_TYPES:
        if is_num(v):
            if t in INT_TYPES and isinstance(v, float) and side == "genie":
                notes.add("integer printed as a float")
            return num_key(v)
        if isinstance(v, str) and side == "genie":
            try:
                x = int(v) if re.match(r"^-?\d+$", v) else float(v)
                notes.add("number printed as text")
                return num_key(x)
            except ValueError:
                pass
        return generic_key(v)
    if t == "text" or t.startswith("character") or t == "name":
        if isinstance(v, str):
            return ("s", v)
        if is_num(v) and side == "genie":
            notes.add("text printed as a number")
            return ("s", json.dumps(v))
        return generic_key(v)
    return generic_key(v)


def generic_key(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return ("b", v)
    if is_num(v):
        return num_key(v)
    if isinstance(v, str):
        return ("s", v)
    if isinstance(v, list):
        if v and all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) for x in v):
            return ("o", tuple(("s", k) if i % 2 == 0 else generic_key(x)
                               for k, x in v for i in (0, 1)))
        return ("a", tuple(generic_key(x) for x in v))
    return ("s", json.dumps(v))


def show_value(v):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 100 else s[:80] + "...(%d chars)" % len(s)


def show_row(row):
    return "[" + ", ".join(show_value(v) for _, v in row) + "]"


def rows_eq(a, b):
    return len(a) == len(b) and all(key_eq(x, y) for x, y in zip(a, b))


def compare(case, pg_rows, names, types, g_rows):
    """(equal, message, formatting notes)."""
    notes = set()
    width = len(names) if names else (len(pg_rows[0]) if pg_rows else None)
    if types and len(types) != width:
        types = None

    def keys(rows, side, into):
        return [tuple(value_key(v, (types[i] if types and i < len(types) else None), into, side)
                      for i, (_, v) in enumerate(r)) for r in rows]
    gk, pk = keys(g_rows, "genie", notes), keys(pg_rows, "pg", set())
    gwidth = len(g_rows[0]) if g_rows else None
    if width is not None and gwidth is not None and width != gwidth:
        return False, "column count: genie %d, pg %d (genie %s, pg %s)" % (
            gwidth, width, [k for k, _ in g_rows[0]], names or [k for k, _ in pg_rows[0]]), notes
    if case.order == "total":
        for i in range(max(len(gk), len(pk))):
            if i >= len(gk):
                return False, "genie has %d rows, pg %d; pg row %d: %s" % (
                    len(gk), len(pk), i + 1, show_row(pg_rows[i])), notes
            if i >= len(pk):
                return False, "genie has %d rows, pg %d; genie row %d: %s" % (
                    len(gk), len(pk), i + 1, show_row(g_rows[i])), notes
            if not rows_eq(gk[i], pk[i]):
                return False, "row %d: genie %s, pg %s" % (i + 1, show_row(g_rows[i]), show_row(pg_rows[i])), notes
    else:
        # Multisets: match each genie row with an equal PostgreSQL row, first
        # among those of the same sort text, then (rarely: numbers near a
        # rounding edge) among all the rows left.
        buckets = {}
        for j, k in enumerate(pk):
            buckets.setdefault(sort_repr(("row", k)), []).append(j)
        only_g = []
        for i, k in enumerate(gk):
            lst = buckets.get(sort_repr(("row", k)), [])
            for n, j in enumerate(lst):
                if rows_eq(k, pk[j]):
                    del lst[n]
                    break
            else:
                only_g.append(i)
        only_p = sorted(j for lst in buckets.values() for j in lst)
        if only_g and only_p and len(only_g) * len(only_p) <= 250000:
            for i in list(only_g):
                for j in only_p:
                    if rows_eq(gk[i], pk[j]):
                        only_g.remove(i)
                        only_p.remove(j)
                        break
        if only_g or only_p:
            msg = "genie has %d rows, pg %d" % (len(gk), len(pk))
            if only_g:
                msg += "; only genie: %s" % show_row(g_rows[only_g[0]])
            if only_p:
                msg += "; only pg: %s" % show_row(pg_rows[only_p[0]])
            return False, msg, notes
    # Equal values: compare the names too (a formatting matter).
    gnames = [re.sub(r":\d+$", "", k) for k, _ in g_rows[0]] if g_rows else None
    if gnames is not None and names and gnames != names:
        notes.add("column names")
    return True, None, notes


class Result:
    def __init__(self, case):
        self.case = case
        self.status = None      # equal, both-refuse, divergence, unsupported, fail
        self.message = ""
        self.notes = set()
        self.detail = ""


def judge(case, pg, g):
    res = Result(case)
    pg_ok, pg_rows, names, types, pg_err = pg
    g_ok, g_rows, g_err = g
    kind, reason = case.expect or (None, None)
    mark = "%s: %s" % (kind, reason) if kind else ""
    if kind == "error" and pg_ok:
        res.status, res.message = "fail", "corpus: marked as refused by PostgreSQL, but PostgreSQL ran it"
        return res
    if not pg_ok and not g_ok:
        if kind in ("divergence", "unsupported"):
            res.status, res.message = "fail", "stale mark (%s): both refuse now (genie: %s)" % (mark, g_err)
        else:
            res.status, res.detail = "both-refuse", "pg: %s | genie: %s" % (pg_err, g_err)
        return res
    if pg_ok and not g_ok:
        if kind == "unsupported":
            res.status, res.detail = "unsupported", g_err
        else:
            res.status = "fail"
            res.message = "genie refuses what PostgreSQL runs (%d rows): %s" % (len(pg_rows), g_err)
            if pg_rows:
                res.message += " | pg row 1: %s" % show_row(pg_rows[0])
        return res
    if not pg_ok and g_ok:
        if kind == "divergence":
            res.status, res.detail = "divergence", "pg: %s" % pg_err
        else:
            res.status = "fail"
            res.message = "genie runs what PostgreSQL refuses: pg: %s | genie: %d rows%s" % (
                pg_err, len(g_rows), (", row 1: " + show_row(g_rows[0])) if g_rows else "")
        return res
    equal, msg, notes = compare(case, pg_rows, names, types, g_rows)
    if equal:
        res.notes = notes
        if kind in ("divergence", "unsupported"):
            res.status, res.message = "fail", "stale mark (%s): the results match now" % mark
        else:
            res.status = "equal"
        return res
    if kind == "divergence":
        res.status, res.detail = "divergence", msg
    else:
        res.status = "fail"
        res.message = "values differ: " + msg
        if kind == "unsupported":
            res.message += " (marked unsupported, but genie ran it)"
    return res


# ---- main -------------------------------------------------------------------

class Interrupted(Exception):
    pass


def main():
    ap = argparse.ArgumentParser(description="differential test of genie's SUQL against PostgreSQL")
    ap.add_argument("-k", metavar="PATTERN", help="run only the cases whose id contains PATTERN "
                    "(or matches it as a glob when it has * ? [)")
    ap.add_argument("-v", action="store_true", help="print every case")
    ap.add_argument("--show", action="store_true", help="print both results of every case run "
                    "(with -k, to look at a few)")
    ap.add_argument("-j", type=int, default=2, metavar="JOBS", help="genie processes at a time (default 2)")
    ap.add_argument("corpus", nargs="*", help="corpus files (default: tests/pg/*.sql)")
    a = ap.parse_args()
    t0 = time.time()

    paths = a.corpus or sorted(glob.glob(os.path.join(HERE, "*.sql")))
    cases, errors = load_corpus(paths)
    if errors:
        for e in errors:
            print("corpus error: " + e)
        print("0 passed, %d failed" % len(errors))
        return 2
    corpus_size = len(cases)
    if a.k:
        pat = a.k
        if any(ch in pat for ch in "*?["):
            cases = [c for c in cases if fnmatch.fnmatchcase(c.id, pat)]
        else:
            cases = [c for c in cases if pat in c.id]
    genie = os.environ.get("GENIE") or os.path.join(TOP, "build", "genie")
    if not os.path.isabs(genie) and os.sep in genie:
        genie = os.path.join(os.getcwd(), genie)
    if not os.access(genie, os.X_OK):
        print("error: %s is not an executable (make builds it; GENIE=... names another)" % genie)
        print("0 passed, 1 failed")
        return 2

    # From here on the server and the home directory are removed whatever
    # happens: Ctrl-C, SIGTERM and SIGHUP end the run through finally.
    def on_signal(sig, frame):
        raise Interrupted("signal %d" % sig)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    server = None
    home = None
    results = []
    try:
        server = Server()
        server.start()
        load_databases(server)
        t_load = time.time() - t0
        home = tempfile.mkdtemp(prefix="genie-pg-home.")
        env = genie_env(home)
        # PostgreSQL answers each database's cases in one session, beside
        # the genie runs (one process per case, JOBS at a time).
        pg_res, pg_fail = {}, []

        t_run = time.time()
        t_pg = {}

        def pg_db(db):
            try:
                pg_res.update(run_pg_batch(server, db, [c for c in cases if c.db == db]))
                t_pg[db] = time.time() - t_run
            except Exception as e:  # reported below, after the threads end
                pg_fail.append("%s: %r" % (db, e))
        threads = [threading.Thread(target=pg_db, args=(db,), daemon=True) for db in DBS]
        for t in threads:
            t.start()
        ex = ThreadPoolExecutor(max_workers=max(1, a.j))
        try:
            g_res = list(ex.map(lambda c: run_genie(genie, env, c), cases))
        finally:
            ex.shutdown(wait=False, cancel_futures=True)
        t_genie = time.time() - t_run
        for t in threads:
            while t.is_alive():
                t.join(0.2)
        if pg_fail:
            raise SetupError("running the cases in PostgreSQL failed: " + "; ".join(pg_fail))
        version = server.version()
        for c, g in zip(cases, g_res):
            r = judge(c, pg_res[c.id], g)
            results.append(r)
            if a.show:
                pg = pg_res[c.id]
                print("== %s [%s]%s\n%s" % (c.id, c.db, " (PostgreSQL runs: %s)" % c.pg_sql if c.pg else "", c.sql))
                print("   pg:    " + (json.dumps([[v for _, v in row] for row in pg[1]], ensure_ascii=False)
                                      + "  columns %s types %s" % (pg[2], pg[3]) if pg[0] else pg[4]))
                print("   genie: " + (json.dumps([[v for _, v in row] for row in g[1]], ensure_ascii=False)
                                      + "  keys %s" % ([k for k, _ in g[1][0]] if g[1] else []) if g[0] else g[2]))
            if a.v:
                print("%-11s %s [%s]%s" % (r.status, c.id, c.db,
                                           (" " + (r.message or r.detail)) if (r.message or r.detail) else "")
                      + (" (formatting: %s)" % ", ".join(sorted(r.notes)) if r.notes else ""))
    except Interrupted as e:
        print("interrupted (%s)" % e, file=sys.stderr)
        print("0 passed, 1 failed")
        return 130
    except SetupError as e:
        print("error: %s" % e)
        print("0 passed, 1 failed")
        return 2
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if server:
            server.stop()
        if home:
            shutil.rmtree(home, ignore_errors=True)

    fails = [r for r in results if r.status == "fail"]
    for r in fails:
        print("FAIL %s [%s] %s" % (r.case.id, r.case.db, r.message))
    count = lambda s: sum(1 for r in results if r.status == s)
    fmt = [r for r in results if r.notes]
    kinds = {}
    for r in fmt:
        for n in r.notes:
            kinds[n] = kinds.get(n, 0) + 1
    by_db = {}
    for c in cases:
        by_db[c.db] = by_db.get(c.db, 0) + 1
    print()
    print("PostgreSQL %s; genie %s" % (version, os.path.relpath(genie, TOP) if genie.startswith(TOP) else genie))
    print("corpus:                  %d cases%s%s" % (
        corpus_size, (", %d run (-k)" % len(cases)) if len(cases) != corpus_size else "",
        " (" + ", ".join("%s %d" % kv for kv in sorted(by_db.items())) + ")"))
    print("equal:                   %d" % count("equal"))
    print("both refuse:             %d" % count("both-refuse"))
    print("documented divergences:  %d" % count("divergence"))
    print("unsupported:             %d" % count("unsupported"))
    print("formatting differences:  %d%s" % (len(fmt), (" (" + ", ".join(
        "%s %d" % (k, v) for k, v in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))) + ")") if kinds else ""))
    print("failures:                %d" % len(fails))
    print("time:                    %.1f s (server and load %.1f s; then PostgreSQL %s, genie %.1f s, %d at a time)"
          % (time.time() - t0, t_load, ", ".join("%s %.1f s" % kv for kv in sorted(t_pg.items())), t_genie, a.j))
    passed = len(results) - len(fails)
    print("%d passed, %d failed" % (passed, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
