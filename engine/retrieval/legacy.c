/*
 * legacy.c — the tokenizer and stemmer before issue 18 (legacy.h), the
 * retrieval benchmark's baseline.
 *
 * Kept verbatim in behaviour: "Mélisse" is the two words "m" and "lisse"
 * here, "crème brûlée" is "cr me br l e".  Only rt_tokenize and rt_stem
 * call into this file, and only while rt_tokenizer_set_legacy(1) is in
 * force (the benchmark sets it before building a baseline index).
 */
#include "legacy.h"

#include <ctype.h>
#include <string.h>

static int wordch(int c) { return c < 128 && isalnum(c); }
static int joiner(int c) { return c == '\'' || c == '-' || c == '&'; }

int rt_legacy_tokenize(const char *text, rt_word_fn fn, void *ud)
{
    char w[64];
    int n = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        while (*p && !wordch(*p)) p++;
        if (!*p) break;
        int len = 0, skip = 0;
        while (*p && (wordch(*p) || (joiner(*p) && wordch(p[1])))) {
            if (len < 63) w[len++] = (char)tolower(*p);
            else skip = 1;
            p++;
        }
        if (!skip) {
            w[len] = 0;
            fn(w, len, ud);
            n++;
        }
    }
    return n;
}

static int ends(const char *w, int len, const char *suf)
{
    int n = (int)strlen(suf);
    return len > n && memcmp(w + len - n, suf, (size_t)n) == 0;
}

int rt_legacy_stem(const char *w, int len, char *out)
{
    memcpy(out, w, (size_t)len);
    if (len > 4 && ends(w, len, "ies")) { len -= 2; out[len - 1] = 'y'; }
    else if (len > 4 && ends(w, len, "sses")) len -= 2;
    else if (len > 3 && w[len - 1] == 's' && !ends(w, len, "ss") && !ends(w, len, "us") &&
             !ends(w, len, "is")) len -= 1;
    if (len > 5 && ends(out, len, "ing")) len -= 3;
    else if (len > 4 && ends(out, len, "ed") && !ends(out, len, "eed")) len -= 2;
    out[len] = 0;
    return len;
}
