#!/usr/bin/env python3
"""gen_man_env.py — the list of GENIE_<KEY> variables in genie(1)'s
ENVIRONMENT section, generated from the one option table.

The table (config/options.c) drives `genie --help`, which prints each
option's variable; this script reads those names from the help of the
binary given, in table order, and writes them into man/genie.1 between the
line "These variables are" and the ".It Ev NO_COLOR" entry.  With --check
it changes nothing and exits 1 (printing the difference) when the page is
not what it would write.

Usage: gen_man_env.py BINARY MANPAGE [--check]
"""
import re
import subprocess
import sys


def variables(binary):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    seen = []
    for name in re.findall(r"\bGENIE_[A-Z0-9_]*[A-Z0-9]\b", out):
        # GENIE_CONFIG names the file itself and has an entry of its own.
        if name not in seen and name != "GENIE_CONFIG":
            seen.append(name)
    return seen


def render(names):
    lines = [".Ev %s ," % n for n in names[:-2]]
    lines.append(".Ev %s" % names[-2])
    lines.append("and")
    lines.append(".Ev %s ." % names[-1])
    return lines


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, page = sys.argv[1], sys.argv[2]
    check = "--check" in sys.argv[3:]
    text = open(page, encoding="utf-8").read().split("\n")
    try:
        start = next(i for i, l in enumerate(text) if l == "These variables are") + 1
        end = next(i for i in range(start, len(text)) if text[i].startswith(".It Ev NO_COLOR"))
    except StopIteration:
        sys.exit("%s: no 'These variables are' list before '.It Ev NO_COLOR'" % page)
    want = render(variables(binary))
    have = text[start:end]
    if have == want:
        return 0
    if check:
        missing = [l for l in want if l not in have]
        extra = [l for l in have if l not in want]
        print("%s: the ENVIRONMENT list is not the option table's "
              "(tools/gen_man_env.py %s %s rewrites it)" % (page, binary, page))
        for l in missing:
            print("  missing: %s" % l)
        for l in extra:
            print("  extra:   %s" % l)
        if not missing and not extra:
            print("  (the order differs)")
        return 1
    text[start:end] = want
    open(page, "w", encoding="utf-8").write("\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
