/*
 * programs.c — degree programs whose requirement texts name real courses of
 * the generated catalog (CS BS, CS minor, CS MS tracks).
 *
 * Every code a requirement names exists in the catalog: lists are built from
 * the catalog itself (classics first, so the texts read like a real bulletin)
 * and a fixed code is dropped when a small scale did not generate it.  The
 * number of programs does not grow with the scale.  The BS and minor texts
 * are tables of parts (text, codes, fallback) rather than code, so adding a
 * program is adding data.
 */
#include <stdio.h>
#include <string.h>

#include "course.h"
#include "dbwrite.h"
#include "engine/util/buf.h"

typedef struct track {
    const char *name;       /* program name */
    const char *label;      /* "Artificial Intelligence" */
    const char *core;       /* '|' codes; "a/b" means one of them */
    const char *areas;      /* ' '-separated area keys for electives */
    int electives;
} track;

static const track TRACKS[] = {
    {"CS MS AI track", "Artificial Intelligence", "CS 221|CS 229|CS 228/CS 234",
     " ai ml nlp vision robotics ", 3},
    {"CS MS Systems track", "Systems", "CS 140E/CS 111|CS 244B|CS 245/CS 144",
     " systems networking databases architecture security pl ", 3},
    {"CS MS Theory track", "Theoretical Computer Science", "CS 154|CS 261|CS 265",
     " theory ", 3},
    {"CS MS HCI track", "Human-Computer Interaction", "CS 147|CS 347|CS 247A",
     " hci society ", 3},
    {"CS MS Visual Computing track", "Visual Computing", "CS 148|CS 131|CS 231N/CS 248A",
     " graphics vision ", 3},
};

static const gen_course *find(const gen_course *cs, long n, const char *code)
{
    for (long i = 0; i < n; i++)
        if (!strcmp(cs[i].codes[0], code)) return &cs[i];
    return NULL;
}

/* Append the codes of a '|' list that exist, "a/b" as "a or b". */
static int put_codes(gn_buf *b, const gen_course *cs, long n, const char *list)
{
    char tmp[256], *save = NULL;
    int k = 0;
    snprintf(tmp, sizeof tmp, "%s", list);
    for (char *item = strtok_r(tmp, "|", &save); item; item = strtok_r(NULL, "|", &save)) {
        char alt[64], *s2 = NULL;
        int m = 0;
        snprintf(alt, sizeof alt, "%s", item);
        for (char *c = strtok_r(alt, "/", &s2); c; c = strtok_r(NULL, "/", &s2)) {
            if (!find(cs, n, c)) continue;
            gn_buf_printf(b, "%s%s", m ? " or " : k ? ", " : "", c);
            m++;
        }
        k += m > 0;
    }
    return k;
}

static int in_areas(const gen_course *c, const char *areas)
{
    char key[40];
    snprintf(key, sizeof key, " %s ", gen_area_table[c->area].key);
    return strstr(areas, key) != NULL;
}

/* Up to max courses of the areas, above intro level, not in the core. */
static const char FOUNDATIONS[] = "CS 103|CS 109|CS 161|CS 107|CS 110/CS 111";

/* Does the '|'/'/' code list contain exactly this code? */
static int listed(const char *list, const char *code)
{
    size_t n = strlen(code);
    for (const char *p = strstr(list, code); p; p = strstr(p + 1, code))
        if ((p == list || p[-1] == '|' || p[-1] == '/') && (!p[n] || p[n] == '|' || p[n] == '/')) return 1;
    return 0;
}

/* Up to max courses of the areas, above intro level, not in the core or
 * the foundations. */
static int put_electives(gn_buf *b, const gen_course *cs, long n, const track *t, int max)
{
    int k = 0;
    for (long i = 0; i < n && k < max; i++) {
        const gen_course *c = &cs[i];
        if (c->level == GEN_LEVEL_INTRO || !in_areas(c, t->areas) || listed(t->core, c->codes[0]) ||
            listed(FOUNDATIONS, c->codes[0]))
            continue;
        gn_buf_printf(b, "%s%s (%s)", k ? "; " : "", c->codes[0], c->title);
        k++;
    }
    return k;
}

static void ms_track(gn_buf *b, const gen_course *cs, long n, const track *t)
{
    gn_buf_reset(b);
    gn_buf_printf(b, "The %s track of the MS in Computer Science requires 45 units. ", t->label);
    gn_buf_puts(b, "Foundations (or equivalent preparation): ");
    put_codes(b, cs, n, FOUNDATIONS);
    gn_buf_puts(b, ". Track core, all of: ");
    if (!put_codes(b, cs, n, t->core)) gn_buf_puts(b, "to be chosen with the advisor");
    gn_buf_printf(b, ". Track electives, at least %d of: ", t->electives);
    if (!put_electives(b, cs, n, t, 10)) gn_buf_puts(b, "courses approved by the track advisor");
    gn_buf_puts(b, ". General electives: any CS course numbered 100 or above, with at most 3 units of "
                   "seminars. At least 36 units must be taken for a letter grade; courses offered only "
                   "Credit/No Credit may count toward the remaining units. A GPA of 3.0 is required.");
}

/* A requirement text as data: each part is literal text, then the codes of
 * a '|' list that exist, else the fallback when none does. */
typedef struct part {
    const char *text, *codes, *fallback;
} part;

static const part BS[] = {
    {"The BS in Computer Science. Introductory programming: ", "CS 106A|CS 106B", NULL},
    {". Core: ", "CS 103|CS 107|CS 109|CS 110/CS 111|CS 161", NULL},
    {". Mathematics: MATH 19, MATH 20 and MATH 21 (or MATH 41 and MATH 42), and MATH 51. "
     "Depth: a track (Artificial Intelligence, Systems, Theory, Human-Computer Interaction, "
     "Visual Computing, or Computational Biology) with its track core and four electives, e.g. ",
     "CS 221|CS 229|CS 145|CS 144|CS 154|CS 147|CS 148", NULL},
    {". Senior project: ", "CS 191/CS 194", "an approved capstone"},
    {". Writing in the major and ethics: ", "CS 181/CS 182", "an approved course"},
    {". All courses for the major must be taken for a letter grade where offered; "
     "at least 60 units in total.", NULL, NULL},
    {NULL, NULL, NULL},
};

static const part MINOR[] = {
    {"The minor in Computer Science requires six courses: ", "CS 106B|CS 107|CS 103/CS 109", NULL},
    {", and three more CS courses numbered 100 or above, at least one of them from ",
     "CS 110|CS 161|CS 221|CS 147", NULL},
    {". Courses must be taken for a letter grade; no more than one course may be "
     "shared with the major.", NULL, NULL},
    {NULL, NULL, NULL},
};

/* Programs whose text does not depend on a track. */
static const struct {
    const char *name;
    const part *parts;
} FIXED[] = {{"CS BS", BS}, {"CS Minor", MINOR}};

static void put_parts(gn_buf *b, const gen_course *cs, long n, const part *p)
{
    gn_buf_reset(b);
    for (; p->text; p++) {
        gn_buf_puts(b, p->text);
        if (p->codes && !put_codes(b, cs, n, p->codes) && p->fallback) gn_buf_puts(b, p->fallback);
    }
}

static int insert(sqlite3 *db, sqlite3_stmt *st, long id, const char *name, const char *text, gn_err *e)
{
    gen_db_bind_int(st, 1, id);
    gen_db_bind_text(st, 2, name);
    gen_db_bind_text(st, 3, text);
    return gen_db_run(db, st, e);
}

int gen_programs_write(sqlite3 *db, const gen_course *cs, long n, gn_err *e)
{
    sqlite3_stmt *st;
    gn_buf b;
    int rc = gen_db_prepare(db, &st, "INSERT INTO programs(_id,name,requirements) VALUES(?,?,?)", e);
    if (rc) return rc;
    gn_buf_init(&b);
    long id = 0;
    for (size_t i = 0; !rc && i < sizeof FIXED / sizeof FIXED[0]; i++) {
        put_parts(&b, cs, n, FIXED[i].parts);
        rc = insert(db, st, ++id, FIXED[i].name, b.data, e);
    }
    for (size_t i = 0; !rc && i < sizeof TRACKS / sizeof TRACKS[0]; i++) {
        ms_track(&b, cs, n, &TRACKS[i]);
        rc = insert(db, st, ++id, TRACKS[i].name, b.data, e);
    }
    gn_buf_release(&b);
    sqlite3_finalize(st);
    return rc;
}
