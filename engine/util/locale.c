/*
 * locale.c — gn_locale_init (see locale.h).
 *
 * The user's locale decides what a character is (UTF-8 input, the width
 * of what the screen draws) and the language of the system's messages.
 * It must not decide how numbers and dates are written or read: they go
 * into worksheet values, SQL, JSON, prompts and HTTP headers, where a
 * German LC_NUMERIC made 4.5 "4,5" (and strtod stop at the '.' of "0.5"),
 * and a French LC_TIME would make strptime miss the "Mon" and "Mar" of an
 * HTTP date.  So the process keeps LC_NUMERIC and LC_TIME at C, and the
 * library calls strtod, printf and strptime as they are.
 *
 * Rejected: the user's LC_ALL with locale-free copies (strtod_l, a
 * localeconv patch of printf's output) at each place that reads or writes
 * data: every new place had to know, and the value printers, the result
 * cells and the option defaults did not; uselocale per thread: the LLM
 * pool's threads would each need it too.
 */
#include "util/locale.h"

#include <langinfo.h>
#include <locale.h>
#include <string.h>

void gn_locale_init(void)
{
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    setlocale(LC_TIME, "C");
}

int gn_locale_utf8(void)
{
    return !strcmp(nl_langinfo(CODESET), "UTF-8");
}
