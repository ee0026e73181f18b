/*
 * test_suql_casemap.c — SUQL's case mapping (casemap.c) against its
 * oracle: the C library's towupper(), towlower() and iswalnum() under the
 * C.UTF-8 ctype, which PostgreSQL calls for upper(), lower(), initcap()
 * and ILIKE in a database of that ctype.  Every code point is compared
 * when the locale is installed; the byte-level mapping and the SQL
 * functions are checked on text of several scripts either way.
 */
#include "harness.h"
#include "suql_fixture.h"

#include "suql/casemap.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

TEST(suql_casemap_every_code_point)
{
    locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!loc) {
        /* No oracle on this machine: the fixed cases below still run. */
        CHECK(suql_cp_upper(0xE9) == 0xC9);
        return;
    }
    long bad = 0;
    for (uint32_t cp = 0; cp < 0x110000; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF) continue;
        int ok = suql_cp_upper(cp) == (uint32_t)towupper_l((wint_t)cp, loc) &&
                 suql_cp_lower(cp) == (uint32_t)towlower_l((wint_t)cp, loc) &&
                 suql_cp_alnum(cp) == (iswalnum_l((wint_t)cp, loc) != 0);
        if (!ok && bad++ < 5) th_fail(__FILE__, __LINE__, "U+%04X differs from the C library's C.UTF-8", cp);
    }
    CHECK_INT(bad, 0);
    freelocale(loc);
}

static char *mapped(const char *s, suql_case how)
{
    char *out = NULL;
    size_t n;
    return suql_case_map(s, strlen(s), how, &out, &n) ? NULL : out;
}

TEST(suql_casemap_text)
{
    static const struct { const char *in, *upper, *lower, *initcap; } v[] = {
        { "Pâtisserie Étoile", "PÂTISSERIE ÉTOILE", "pâtisserie étoile", "Pâtisserie Étoile" },
        { "straße", "STRAßE", "straße", "Straße" },   /* ß has no one-character upper case */
        { "ΟΔΥΣΣΕΥΣ", "ΟΔΥΣΣΕΥΣ", "οδυσσευσ", "Οδυσσευσ" },         /* no final sigma */
        { "привет мир", "ПРИВЕТ МИР", "привет мир", "Привет Мир" },
        { "über-größe 3école", "ÜBER-GRÖßE 3ÉCOLE", "über-größe 3école", "Über-Größe 3école" },
        { "İ and ı", "İ AND I", "i and ı", "İ And I" },
        { "Ⱥ", "Ⱥ", "ⱥ", "Ⱥ" },                                     /* 2 bytes to 3 */
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char *u = mapped(v[i].in, SUQL_CASE_UPPER), *l = mapped(v[i].in, SUQL_CASE_LOWER),
             *c = mapped(v[i].in, SUQL_CASE_INITCAP);
        CHECK_STR(u, v[i].upper);
        CHECK_STR(l, v[i].lower);
        CHECK_STR(c, v[i].initcap);
        free(u), free(l), free(c);
    }
    /* Bytes that are not UTF-8, and NUL bytes, pass through unchanged. */
    char *out;
    size_t n;
    REQUIRE(suql_case_map("a\xff" "b\0c", 5, SUQL_CASE_UPPER, &out, &n) == 0);
    CHECK_INT(n, 5);
    CHECK(memcmp(out, "A\xff" "B\0C", 5) == 0);
    free(out);
}

TEST(suql_casemap_sql)
{
    th_suql_fx f;
    REQUIRE(th_suql_open(&f, "casemap.db", NULL, TH_SUQL_GUARD | TH_SUQL_NO_POSITION) == 0);
    TH_SUQL_ROWS(&f, "SELECT upper('crème brûlée'), lower('ÉCOLE'), initcap('élan vital'), "
                     "'Café Étoile' ILIKE '%étoile%', 'CAFÉ' ILIKE 'café', 'É' ILIKE '_', "
                     "'Étoile' NOT ILIKE 'é%', 'ÉTÉ' LIKE 'été'", NULL,
                 "CRÈME BRÛLÉE|école|Élan Vital|1|1|1|0|0");
    th_suql_close(&f);
}
