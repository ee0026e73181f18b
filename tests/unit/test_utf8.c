/*
 * test_utf8.c — repairing text that is not UTF-8 (util/utf8.h): each
 * ill-formed byte one U+FFFD, well-formed text untouched.
 */
#include "harness.h"
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>

static void fixes(const char *in, size_t n, const char *want, int want_changed)
{
    int changed = -1;
    char *out = gn_utf8_fix(in, n, &changed);
    CHECK_STR(out, want);
    CHECK_INT(changed, want_changed);
    CHECK(gn_utf8_valid(out, strlen(out)));
    free(out);
}

#define R "\xEF\xBF\xBD"

TEST(utf8_fix_replaces_each_bad_byte)
{
    fixes("caf\xc3\xa9 \xe6\x9d\xb1 \xf0\x9f\x8d\xa3", 14, "caf\xc3\xa9 \xe6\x9d\xb1 \xf0\x9f\x8d\xa3", 0);
    fixes("caf\xe9!", 5, "caf" R "!", 1);                      /* Latin-1 */
    fixes("\xc0\xaf", 2, R R, 1);                              /* overlong '/' */
    fixes("\xed\xa0\x80", 3, R R R, 1);                        /* a surrogate */
    fixes("\xf4\x90\x80\x80", 4, R R R R, 1);                  /* past U+10FFFF */
    fixes("ab\xe6\x9d", 4, "ab" R R, 1);                       /* cut short */
    fixes("a\0b", 3, "a" R "b", 1);                            /* a NUL */
    fixes("", 0, "", 0);
    fixes(NULL, 5, "", 0);
    CHECK(!gn_utf8_valid("abcdefgh\xff", 9));
    CHECK(!gn_utf8_valid("abcdefghij\0kl", 13));
    CHECK(gn_utf8_valid("abcdefghijklmnop\xc3\xa9", 18));
}

/* The code point at a position: one, two, three and four bytes; an
 * ill-formed byte (overlong, surrogate, stray continuation, truncated by the
 * NUL) is GN_UTF8_BAD with length 1. */
TEST(utf8_next_decodes_or_marks_bad)
{
    uint32_t cp;
    CHECK_INT(gn_utf8_next("a", &cp), 1);
    CHECK(cp == 'a');
    CHECK_INT(gn_utf8_next("\xc3\xa9", &cp), 2);
    CHECK(cp == 0xE9);
    CHECK_INT(gn_utf8_next("\xe2\x80\x99", &cp), 3);
    CHECK(cp == 0x2019);
    CHECK_INT(gn_utf8_next("\xf0\x9f\x8d\xa3", &cp), 4);
    CHECK(cp == 0x1F363);
    const char *bad[] = { "\xc0\xaf", "\xed\xa0\x80", "\x80", "\xe2\x80", "\xf4\x90\x80\x80" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_INT(gn_utf8_next(bad[i], &cp), 1);
        CHECK(cp == GN_UTF8_BAD);
    }
}
