/*
 * test_locale.c — gn_locale_init in a comma-decimal locale: characters
 * follow the user's locale, numbers and dates stay in the C form for the
 * library's strtod, printf and strptime (the options' defaults, Retry-After
 * dates).  The locales come from scripts/setup.sh; a missing one fails the
 * test, since genie would silently run in C and prove nothing.
 */
#include "harness.h"

#include "config/config.h"
#include "util/retry.h"
#include "util/locale.h"

#include <locale.h>
#include <stdlib.h>

static const char *const comma_locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8" };

/* gn_locale_init with LC_ALL=NAME in the environment, then the checks;
 * the environment and the locale in force are restored after. */
static void check_locale(const char *name)
{
    char saved[1024], *old_env = getenv("LC_ALL") ? strdup(getenv("LC_ALL")) : NULL;
    snprintf(saved, sizeof saved, "%s", setlocale(LC_ALL, NULL));
    setenv("LC_ALL", name, 1);
    gn_locale_init();
    const char *ctype = setlocale(LC_CTYPE, NULL);
    if (strcmp(ctype, name)) {
        th_fail(__FILE__, __LINE__, "%s: no such locale (scripts/setup.sh generates it)", name);
    } else {
        CHECK_STR(setlocale(LC_NUMERIC, NULL), "C");
        CHECK_STR(setlocale(LC_TIME, NULL), "C");
        CHECK(MB_CUR_MAX > 1);
        char num[32];
        snprintf(num, sizeof num, "%.1f %g", 4.5, 0.25);
        CHECK_STR(num, "4.5 0.25");
        CHECK(strtod("0.5", NULL) == 0.5);
        /* Mon, 02 Mar 2026 08:49:37 GMT is 1772441377. */
        CHECK(gn_retry_after(NULL, "Mon, 02 Mar 2026 08:49:37 GMT", 1772441375) == 2);
        cfg_t *c = cfg_new();
        char *argv[] = { (char *)"genie", (char *)"--version", NULL };
        gn_err e;
        CHECK_INT(cfg_load(c, 2, argv, &e), 0);
        CHECK(cfg_double(c, OPT_FUSION_DENSE_WEIGHT) == 0.5);
        CHECK_STR(cfg_text(c, OPT_OFFLINE_THRESHOLD), "0.88");
        cfg_free(c);
    }
    if (old_env) setenv("LC_ALL", old_env, 1);
    else unsetenv("LC_ALL");
    free(old_env);
    setlocale(LC_ALL, saved);
}

TEST(locale_numbers_and_dates_stay_c)
{
    for (size_t i = 0; i < sizeof comma_locales / sizeof comma_locales[0]; i++)
        check_locale(comma_locales[i]);
}
