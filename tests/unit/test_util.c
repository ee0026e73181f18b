/* test_util.c — gn_err rendering and gn_buf growth. */
#include "harness.h"
#include "../../engine/util/buf.h"
#include "../../engine/util/err.h"
#include "../../engine/util/xmem.h"

#include <stdlib.h>

TEST(err_render_with_position)
{
    gn_err e;
    char out[1024];
    gn_err_setpos(&e, GN_EPARSE, "a.ini", 3, 7, "bad %s", "value");
    CHECK_INT(e.code, GN_EPARSE);
    CHECK_STR(gn_err_str(&e, out, sizeof out), "a.ini:3:7: bad value");
    gn_err_set(&e, GN_EIO, "plain");
    CHECK_STR(gn_err_str(&e, out, sizeof out), "plain");
    gn_err_prefix(&e, "opening %s: ", "x");
    CHECK_STR(e.msg, "opening x: plain");
    CHECK_INT(gn_err_set(NULL, GN_EDB, "dropped"), GN_EDB);
}

TEST(buf_grows_and_detaches)
{
    gn_buf b;
    gn_buf_init(&b);
    for (int i = 0; i < 1000; i++) gn_buf_printf(&b, "%d,", i % 10);
    CHECK_INT(b.len, 2000);
    CHECK(strncmp(b.data, "0,1,2,", 6) == 0);
    char *s = gn_buf_detach(&b);
    CHECK_INT(strlen(s), 2000);
    CHECK_INT(b.len, 0);
    CHECK(b.data == NULL);
    free(s);
    gn_buf_release(&b);
    char *t = xasprintf("%s-%d", "a", 5);
    CHECK_STR(t, "a-5");
    free(t);
}

/* vsnprintf's -1 (here: a wide character no locale can write) adds
 * nothing, rather than a length of SIZE_MAX. */
TEST(printf_helpers_survive_an_encoding_error)
{
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "kept");
    static const wchar_t bad[] = { 0xD800, 0 };      /* a lone surrogate: no locale writes it */
    gn_buf_printf(&b, "%ls", bad);
    CHECK_STR(b.data, "kept");
    CHECK_INT((int)b.len, 4);
    gn_buf_release(&b);
    char *s = xasprintf("%ls", bad);
    CHECK_STR(s, "");
    free(s);
}
