#!/usr/bin/env python3
"""examples.py — the shell examples of the README and the man pages, for
tests/cli/examples.sh.

  examples.py extract DOC OUTDIR
      Finds the examples of DOC (a Markdown file, or an mdoc page: its name
      ends in .1 to .9) and writes, for the Nth one (from 1, in document
      order), OUTDIR/N.cmd (the command, exactly as a reader types it:
      prompt dropped, continuation lines kept, mdoc escapes resolved),
      OUTDIR/N.key (the command on one line: continuations joined, blank
      runs collapsed; what examples.sh's patterns match), OUTDIR/N.line
      (its line in DOC) and, when the document shows what follows the
      command, OUTDIR/N.shown (those lines, as written).  Markdown fenced
      blocks that hold no command are written as OUTDIR/bN.txt, for
      examples.sh to name as the input of a command.  Prints the count.

      What is an example:
        Markdown: every line of a ```sh, ```bash, ```shell or ```console
        block (a command runs on over following lines until it is a
        complete shell command: `\\`, `|`, an open quote, a here-document;
        blank and comment-only lines are skipped; a leading "$ " is
        dropped), and every "$ " line of any other fenced block.  The lines
        after a "$ " command in its block, or the fenced block right after
        a shell block (nothing but blank lines between), are what that
        command shows.
        mdoc: every "$ " line of a literal display (.Bd -literal ... .Ed,
        or .Dl), anywhere in the page, with the lines after it in the
        display, up to the next "$ " line, as what it shows.

  examples.py input DOC SHOWN
      The lines a conversation transcript SHOWN (from DOC) types: in
      Markdown the lines after a "> " prompt; in mdoc the lines that start
      in the first column (a line indented by one to three blanks goes on
      the previous one).  Prints them, one a line.

  examples.py match DOC SHOWN OUT ERR [conv] [today]
      Whether OUT and ERR (what the command printed) show what SHOWN says,
      in order, with any text between: each shown chunk (a line; in an mdoc
      conversation, a reply: its lines indented by four blanks or more,
      joined) is found after the previous one, in ERR when it starts with
      "genie:", else in OUT.  Blank runs match any blank run; a "..."
      word matches any text; a random id of 10 upper-case letters and
      digits matches any such id, and, without "today" (the command has no
      --today), a date YYYY-MM-DD any date.  With "conv", SHOWN is a
      transcript and its typed lines are not looked for.  Exit status 1
      with the first chunk not found on stdout.
"""
import os
import re
import subprocess
import sys

SHELL_LANGS = {"sh", "bash", "shell", "console", "zsh"}

# mdoc escapes that may appear in a literal display, and their text.
ESCAPES = {"e": "\\", "-": "-", "&": "", " ": " ", "(dq": '"', "(aq": "'",
           "(ga": "`", "(ti": "~", "(ha": "^", "(rs": "\\", "(em": "\u2014",
           "(en": "\u2013"}
ESC_RE = re.compile(r"\\(\([a-z]{2}|.)")


def unescape(line, where):
    def sub(m):
        if m.group(1) not in ESCAPES:
            sys.exit("%s: unknown mdoc escape \\%s in an example" % (where, m.group(1)))
        return ESCAPES[m.group(1)]
    return ESC_RE.sub(sub, line)


def complete(cmd):
    """Is CMD a whole shell command (bash -n, and no unfinished here-doc)?"""
    if cmd.endswith("\\"):
        return False
    p = subprocess.run(["bash", "-n", "-c", cmd], capture_output=True, text=True)
    return p.returncode == 0 and not p.stderr.strip()


def one_line(cmd):
    return " ".join(cmd.replace("\\\n", " ").split())


def commands(lines, prompt):
    """(index, command, shown) for LINES, a list of (lineno, text).  With
    PROMPT only "$ " lines start commands and other lines are shown output;
    without, every line that is not blank or a comment does."""
    out, i = [], 0
    while i < len(lines):
        no, text = lines[i]
        if prompt and not text.startswith("$ "):
            if out:
                out[-1][2].append(text)
            i += 1
            continue
        if not prompt and (not text.strip() or text.lstrip().startswith("#")):
            i += 1
            continue
        cmd = text[2:] if text.startswith("$ ") else text
        j = i + 1
        while not complete(cmd) and j < len(lines):
            cmd += "\n" + lines[j][1]
            j += 1
        out.append((no, cmd, []))
        i = j
    return out


def extract_md(path):
    src = open(path, encoding="utf-8").read().split("\n")
    blocks, i = [], 0           # (lang, first line no, [(no, text)], end line no)
    while i < len(src):
        m = re.match(r"^```\s*([A-Za-z0-9_+-]*)\s*$", src[i])
        if not m:
            i += 1
            continue
        lang, body, j = m.group(1).lower(), [], i + 1
        while j < len(src) and not src[j].startswith("```"):
            body.append((j + 1, src[j]))
            j += 1
        blocks.append((lang, i + 1, body, j + 1))
        i = j + 1
    exs, plain = [], []
    prev_shell_end, prev_cmds = None, None
    for lang, start, body, end in blocks:
        first = next((t for _, t in body if t.strip()), "")
        if lang in SHELL_LANGS:
            cmds = commands(body, prompt=(lang == "console"))
            exs.extend(cmds)
            prev_shell_end, prev_cmds = end, cmds
            continue
        if first.startswith("$ "):
            exs.extend(commands(body, prompt=True))
        else:
            adjacent = (prev_shell_end is not None and prev_cmds and
                        all(not src[k - 1].strip() for k in range(prev_shell_end + 1, start)))
            if adjacent:
                prev_cmds[-1][2].extend(t for _, t in body)
            else:
                plain.append("\n".join(t for _, t in body) + "\n")
        prev_shell_end = None
    return exs, plain


def extract_man(path):
    src = open(path, encoding="utf-8").read().split("\n")
    exs, disp, i = [], None, 0
    for i, raw in enumerate(src, 1):
        where = "%s:%d" % (path, i)
        if disp is None:
            if re.match(r"^\.Bd\s+-literal\b", raw):
                disp = []
            elif raw.startswith(".Dl "):
                exs.extend(commands([(i, unescape(raw[4:], where))], prompt=True))
            continue
        if raw.startswith(".Ed"):
            exs.extend(commands(disp, prompt=True))
            disp = None
        elif not raw.startswith("."):
            disp.append((i, unescape(raw, where)))
    return exs, []


def extract(doc, outdir):
    is_man = re.search(r"\.[1-9]$", doc) is not None
    exs, plain = (extract_man if is_man else extract_md)(doc)
    os.makedirs(outdir, exist_ok=True)
    for n, (no, cmd, shown) in enumerate(exs, 1):
        base = os.path.join(outdir, str(n))
        open(base + ".cmd", "w").write(cmd + "\n")
        open(base + ".key", "w").write(one_line(cmd) + "\n")
        open(base + ".line", "w").write("%d\n" % no)
        while shown and not shown[-1].strip():
            shown.pop()
        if shown:
            open(base + ".shown", "w").write("\n".join(shown) + "\n")
    for n, text in enumerate(plain, 1):
        open(os.path.join(outdir, "b%d.txt" % n), "w").write(text)
    print(len(exs))


def transcript(doc, shown, conv):
    """([typed lines], [shown chunks]) of SHOWN."""
    is_man = re.search(r"\.[1-9]$", doc) is not None
    typed, chunks, reply = [], [], False
    for line in open(shown, encoding="utf-8").read().split("\n"):
        if not line.strip():
            reply = False
            continue
        if not conv:
            chunks.append(line)
        elif not is_man:
            if line.startswith("> "):
                typed.append(line[2:])
            else:
                chunks.append(line)
        else:
            indent = len(line) - len(line.lstrip(" "))
            if indent == 0:
                typed.append(line)
                reply = False
            elif indent < 4 and typed and not reply:
                typed[-1] += " " + line.strip()
            elif reply:
                chunks[-1] += " " + line.strip()
            else:
                chunks.append(line.strip())
                reply = True
    return typed, chunks


ID_RE = re.compile(r"(?<![A-Za-z0-9])(?=[A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]{10}(?![A-Za-z0-9])")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def chunk_re(chunk, today):
    rx, wild = "", True
    for word in chunk.split():
        if word in ("...", "\u2026"):
            rx += ".*?"
            wild = True
            continue
        pats = [ID_RE] + ([] if today else [DATE_RE])
        spans = sorted(m.span() for p in pats for m in p.finditer(word))
        piece, at = "", 0
        for a, b in spans:
            if a < at:
                continue
            piece += re.escape(word[at:a])
            piece += r"[A-Z0-9]{10}" if ID_RE.fullmatch(word[a:b]) else r"\d{4}-\d{2}-\d{2}"
            at = b
        piece += re.escape(word[at:])
        rx += ("" if wild else r"\s+") + piece
        wild = False
    return rx


def match(doc, shown, out, err, flags):
    conv, today = "conv" in flags, "today" in flags
    _, chunks = transcript(doc, shown, conv)
    text = {"out": open(out, encoding="utf-8", errors="replace").read(),
            "err": open(err, encoding="utf-8", errors="replace").read()}
    pos = {"out": 0, "err": 0}
    for c in chunks:
        rx = chunk_re(c, today)
        if rx.strip(".*?") == "":
            continue
        rx = r"(?<!\S)" + rx + r"(?!\S)"      # whole words
        s = "err" if c.lstrip().startswith("genie:") else "out"
        m = re.compile(rx, re.S).search(text[s], pos[s])
        if not m:
            print("not shown (on std%s): %s" % (s, c.strip()))
            return 1
        pos[s] = m.end()
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "extract":
        extract(argv[2], argv[3])
        return 0
    if len(argv) == 4 and argv[1] == "input":
        for t in transcript(argv[2], argv[3], True)[0]:
            print(t)
        return 0
    if len(argv) >= 6 and argv[1] == "match":
        return match(argv[2], argv[3], argv[4], argv[5], argv[6:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
