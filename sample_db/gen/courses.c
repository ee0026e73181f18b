/* courses.c — placeholder while the restaurants part is tested. */
#include "gen.h"
int gen_courses(sqlite3 *db, const gen_opts *o, gn_err *e)
{
    (void)db; (void)o;
    return gn_err_set(e, GN_EUSAGE, "not yet");
}
