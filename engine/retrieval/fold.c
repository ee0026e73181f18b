/*
 * fold.c — what a code point is to the tokenizer, and its folded form
 * (fold.h).
 *
 * Folding is lowercasing plus removing diacritics, for matching only: the
 * text shown is never folded.  Latin-1 Supplement, Latin Extended-A, the
 * Vietnamese letters of Latin Extended Additional, Greek and basic Cyrillic
 * are folded by small tables and arithmetic; letters of other scripts are
 * word characters kept as they are.  Combining marks (U+0300..U+036F, as in
 * a decomposed "é") are dropped inside a word without splitting it.  What
 * separates words is a list of ranges (controls, punctuation and symbol
 * blocks); every other code point is taken as a letter, so a script this
 * file knows nothing about still makes words rather than vanishing.
 * Rejected: ICU or libunistring (a large dependency for three tables), and
 * a full Unicode case-folding table (the scripts the knowledge bases are
 * written in are the ones above; the rest are kept whole, which is what
 * matching needs).
 */
#include "fold.h"

#include "util/utf8.h"

#include <string.h>

/* U+00C0..U+00FF and U+0100..U+017F, one ASCII letter each; '?' marks a
 * letter folded to two ('ae', 'th', 'ss', 'ij', 'oe'), '*' a symbol. */
static const char latin1[] = "aaaaaa?ceeeeiiiidnooooo*ouuuuy??aaaaaa?ceeeeiiiidnooooo*ouuuuy?y";
static const char latin_a[] =
    "aaaaaaccccccccdd" "ddeeeeeeeeeegggg" "gggghhhhiiiiiiii" "ii??jjkkklllllll"
    "lllnnnnnnnnnoooo" "oo??rrrrrrssssss" "sstttttt" "uuuuuuuu" "uuuuwwyyyzzzzzzs";

_Static_assert(sizeof latin1 == 64 + 1, "latin1 covers U+00C0..U+00FF");
_Static_assert(sizeof latin_a == 128 + 1, "latin_a covers U+0100..U+017F");

static int two(uint32_t cp, char *out)
{
    static const struct { uint32_t cp; char s[3]; } t[] = {
        { 0xC6, "ae" }, { 0xE6, "ae" }, { 0xDE, "th" }, { 0xFE, "th" }, { 0xDF, "ss" },
        { 0x132, "ij" }, { 0x133, "ij" }, { 0x152, "oe" }, { 0x153, "oe" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].cp == cp) { memcpy(out, t[i].s, 2); return 2; }
    return 0;
}

/* Code points that separate words (sorted, inclusive). */
static const struct { uint32_t lo, hi; } seps[] = {
    { 0x80, 0xA9 }, { 0xAB, 0xB4 }, { 0xB6, 0xB9 }, { 0xBB, 0xBF }, { 0xD7, 0xD7 },
    { 0xF7, 0xF7 }, { 0x2B9, 0x2FF }, { 0x37E, 0x37E }, { 0x384, 0x385 }, { 0x387, 0x387 },
    { 0x55A, 0x55F }, { 0x589, 0x58A }, { 0x5BE, 0x5BE }, { 0x5C0, 0x5C0 }, { 0x5F3, 0x5F4 },
    { 0x600, 0x60F }, { 0x61B, 0x61F }, { 0x66A, 0x66D }, { 0x6D4, 0x6D4 }, { 0x964, 0x965 },
    { 0xE3F, 0xE3F }, { 0x1680, 0x1680 }, { 0x2000, 0x2BFF }, { 0x2E00, 0x2E7F },
    { 0x3000, 0x303F }, { 0xD800, 0xF8FF }, { 0xFD3E, 0xFD3F }, { 0xFE10, 0xFE6F },
    { 0xFEFF, 0xFEFF }, { 0xFF00, 0xFF0F }, { 0xFF1A, 0xFF20 }, { 0xFF3B, 0xFF40 },
    { 0xFF5B, 0xFF65 }, { 0xFFF0, 0xFFFF }, { 0x1F000, 0x1FAFF }, { 0xE0000, 0x10FFFF },
};

static int is_sep(uint32_t cp)
{
    int lo = 0, hi = (int)(sizeof seps / sizeof seps[0]) - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (cp < seps[mid].lo) hi = mid - 1;
        else if (cp > seps[mid].hi) lo = mid + 1;
        else return 1;
    }
    return 0;
}

/* Greek: the accented vowels to their plain lowercase letters. */
static uint32_t greek(uint32_t cp)
{
    static const struct { uint32_t from, to; } t[] = {
        { 0x386, 0x3B1 }, { 0x388, 0x3B5 }, { 0x389, 0x3B7 }, { 0x38A, 0x3B9 }, { 0x38C, 0x3BF },
        { 0x38E, 0x3C5 }, { 0x38F, 0x3C9 }, { 0x390, 0x3B9 }, { 0x3AA, 0x3B9 }, { 0x3AB, 0x3C5 },
        { 0x3AC, 0x3B1 }, { 0x3AD, 0x3B5 }, { 0x3AE, 0x3B7 }, { 0x3AF, 0x3B9 }, { 0x3B0, 0x3C5 },
        { 0x3C2, 0x3C3 }, { 0x3CA, 0x3B9 }, { 0x3CB, 0x3C5 }, { 0x3CC, 0x3BF }, { 0x3CD, 0x3C5 },
        { 0x3CE, 0x3C9 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].from == cp) return t[i].to;
    if (cp >= 0x391 && cp <= 0x3A9) return cp + 0x20;
    return cp;
}

static uint32_t cyrillic(uint32_t cp)
{
    if (cp == 0x401 || cp == 0x451) return 0x435;          /* ё -> е */
    if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
    if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;
    return cp;
}

/* Latin Extended Additional's Vietnamese block: runs of upper/lower pairs
 * of one base letter each. */
static char vietnamese(uint32_t cp)
{
    static const struct { uint32_t hi; char base; } t[] = {
        { 0x1EB7, 'a' }, { 0x1EC7, 'e' }, { 0x1ECB, 'i' }, { 0x1EE3, 'o' }, { 0x1EF1, 'u' },
        { 0x1EF9, 'y' },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (cp <= t[i].hi) return t[i].base;
    return 0;
}

static int latin_b(uint32_t cp)
{
    switch (cp) {
    case 0x180: case 0x183: case 0x182: return 'b';
    case 0x189: case 0x18A: return 'd';
    case 0x191: case 0x192: return 'f';
    case 0x1A0: case 0x1A1: return 'o';
    case 0x1AF: case 0x1B0: return 'u';
    case 0x1CD: case 0x1CE: return 'a';
    case 0x1CF: case 0x1D0: return 'i';
    case 0x1D1: case 0x1D2: return 'o';
    case 0x1D3: case 0x1D4: return 'u';
    case 0x218: case 0x219: return 's';
    case 0x21A: case 0x21B: return 't';
    default: return 0;
    }
}

int rt_fold_cp(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        if (cp >= 'A' && cp <= 'Z') { out[0] = (char)(cp + 32); return 1; }
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) { out[0] = (char)cp; return 1; }
        return -1;
    }
    if (cp >= 0x300 && cp <= 0x36F) return 0;              /* combining marks */
    if (cp == 0xAA) { out[0] = 'a'; return 1; }
    if (cp == 0xBA) { out[0] = 'o'; return 1; }
    if (cp == 0xB5) return gn_utf8_put(0x3BC, out);           /* micro sign -> mu */
    if (is_sep(cp)) return -1;
    if (cp >= 0xC0 && cp <= 0x17F) {
        char c = cp < 0x100 ? latin1[cp - 0xC0] : latin_a[cp - 0x100];
        if (c == '?') return two(cp, out);
        out[0] = c;
        return 1;
    }
    int b = cp < 0x250 ? latin_b(cp) : 0;
    if (b) { out[0] = (char)b; return 1; }
    if (cp >= 0x1EA0 && cp <= 0x1EF9) { out[0] = vietnamese(cp); return 1; }
    if (cp >= 0x370 && cp <= 0x3FF) return gn_utf8_put(greek(cp), out);
    if (cp >= 0x400 && cp <= 0x4FF) return gn_utf8_put(cyrillic(cp), out);
    return gn_utf8_put(cp, out);
}
