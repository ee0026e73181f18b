/*
 * ground.c — values that name a knowledge-base row, checked against it.
 *
 * A task field whose type is a db worksheet (`restaurants`, or with the
 * naming field given, `courses.course_codes`) holds the name of one row.
 * Before such a value is stored it is looked up (ws_state_set calls
 * ag_ground through the state's hook), so the agent never confirms or
 * books a place the knowledge base lacks:
 *
 *   1. the naming field, compared without case, spaces or punctuation
 *      ("cs224n" is CS 224N): one row -> its own spelling is stored;
 *      several rows of that name -> refused, naming them by their context
 *      (Il Fiore (Palo Alto), Il Fiore (San Francisco)) so the user picks;
 *   2. the name followed by context words ("Il Fiore in Palo Alto",
 *      "Il Fiore (Palo Alto)"): the one row whose context has them;
 *   3. the context field itself (a course's title): that row's name;
 *   4. otherwise refused, with the closest names (shared words first, then
 *      edit distance) for the agent to offer.
 *
 * Several rows of one name, of which the latest search result showed one
 * (its _id, or its name and context), mean that one: "book the second
 * one" of a list of Palo Alto places.  A name several rows share is
 * stored with its context, "Il Fiore (Palo Alto)": it grounds again to the same row, and the API that books it
 * receives a text that says which one.  The context is the sheet's first
 * Required text field (the restaurant's location), else its name or title
 * field.  Names are read once per conversation and field (the table is
 * the knowledge base, which the agent never writes).  Rejected: a SQL
 * query per value (the fuzzy steps need every name anyway) and LIKE
 * (punctuation and spacing differ between what people type and what is
 * stored).
 */
#include "agent/turn_int.h"
#include "util/buf.h"
#include "util/strdist.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Names offered when a value matches no row. */
#define MAX_SUGGEST 3
/* Rows of one name shown when asking which (the rest are counted). */
#define MAX_HITS 8

typedef struct gname {
    long id;                  /* the row's _id */
    int pos;                  /* its place in a list field; 0 otherwise */
    char *name;               /* one value of the naming field */
    char *norm;               /* NAME without case, spaces or punctuation */
    char *ctx;                /* the row's context value, or NULL */
    int shared;               /* another row has the same NAME */
} gname;

struct ag_names {
    int sheet, col;
    const char *ctx_name;     /* the context field's name, or NULL */
    int ctx_names;            /* the context is a name (title), not a place */
    gname *v;
    int n;
    struct ag_names *next;
};

static const char *const stop[] = { "in", "at", "the", "on", "of", "one", "a", "an", "from", "near", NULL };

/* Lowercase alphanumeric words of S (bytes past ASCII kept in words), each
 * followed by a NUL, the list ended by an empty word. */
static char *words(const char *s)
{
    size_t n = strlen(s);
    char *w = xmalloc(2 * n + 2), *o = w;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (!isalnum(*p) && *p < 0x80) { p++; continue; }
        while (*p && (isalnum(*p) || *p >= 0x80)) *o++ = (char)tolower(*p++);
        *o++ = 0;
    }
    *o = 0;
    return w;
}

char *ag_letters(const char *s)
{
    char *w = words(s), *o = xmalloc(strlen(s) + 1), *q = o;
    for (const char *p = w; *p; p += strlen(p) + 1) q = stpcpy(q, p);
    *q = 0;
    free(w);
    return o;
}

static int has_word(const char *list, const char *word)
{
    for (const char *p = list; *p; p += strlen(p) + 1)
        if (!strcmp(p, word)) return 1;
    return 0;
}

static int is_stop(const char *w)
{
    for (const char *const *s = stop; *s; s++)
        if (!strcmp(*s, w)) return 1;
    return 0;
}

int ag_context_field(const ws_sheet *w, int col)
{
    for (int i = 0; i < w->nfields; i++)
        if (i != col && w->fields[i].required &&
            (w->fields[i].type.kind == WT_STR || w->fields[i].type.kind == WT_ENUM)) return i;
    for (int i = 0; i < w->nfields; i++)
        if (i != col && (!strcasecmp(w->fields[i].name, "name") || !strcasecmp(w->fields[i].name, "title")))
            return i;
    return -1;
}

static void add_name(struct ag_names *t, int *cap, long id, int pos, const char *name,
                     const char *ctx)
{
    if (!name || !*name) return;
    if (t->n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        t->v = xrealloc(t->v, (size_t)*cap * sizeof *t->v);
    }
    t->v[t->n++] = (gname){ id, pos, xstrdup(name), ag_letters(name), ctx && *ctx ? xstrdup(ctx) : NULL, 0 };
}

static int by_norm(const void *a, const void *b)
{
    const gname *x = a, *y = b;
    int c = strcmp(x->norm, y->norm);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Read the names of T's sheet and field from DB: 0, or -1 with ERR (room
 * for NERR bytes) saying why they could not be read. */
static int load(sqlite3 *db, const ws_spec *spec, struct ag_names *t, char *err, size_t nerr)
{
    const ws_sheet *w = &spec->sheets[t->sheet];
    const ws_field *f = &w->fields[t->col];
    int cx = ag_context_field(w, t->col), cap = 0;
    t->ctx_name = cx >= 0 ? w->fields[cx].name : NULL;
    t->ctx_names = cx >= 0 && (!strcasecmp(w->fields[cx].name, "name") ||
                               !strcasecmp(w->fields[cx].name, "title"));
    char *sql = xasprintf("SELECT _id, \"%s\", %s%s%s FROM \"%s\"", f->name, cx >= 0 ? "\"" : "",
                          cx >= 0 ? w->fields[cx].name : "NULL", cx >= 0 ? "\"" : "", w->name);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            long id = (long)sqlite3_column_int64(st, 0);
            const char *v = (const char *)sqlite3_column_text(st, 1);
            const char *ctx = (const char *)sqlite3_column_text(st, 2);
            cJSON *arr = f->type.kind == WT_LIST && v ? cJSON_Parse(v) : NULL;
            int pos = 0;
            if (cJSON_IsArray(arr)) {
                for (cJSON *it = arr->child; it; it = it->next)
                    if (cJSON_IsString(it)) add_name(t, &cap, id, pos++, it->valuestring, ctx);
            } else {
                add_name(t, &cap, id, 0, v, ctx);
            }
            cJSON_Delete(arr);
        }
    }
    if (rc != SQLITE_DONE) snprintf(err, nerr, "%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    free(sql);
    if (rc != SQLITE_DONE) return -1;
    if (t->n > 1) qsort(t->v, (size_t)t->n, sizeof *t->v, by_norm);   /* (v is NULL when empty) */
    for (int i = 1; i < t->n; i++)
        if (!strcmp(t->v[i].norm, t->v[i - 1].norm) && t->v[i].id != t->v[i - 1].id)
            t->v[i].shared = t->v[i - 1].shared = 1;
    return 0;
}

/* The names of TY's sheet and field, read once; NULL with ERR set when
 * the knowledge base could not be read (tried again next time: a locked
 * database must not make every name "not in the restaurants I know"). */
static struct ag_names *names_of(ag_conv *cv, const ws_spec *spec, const ws_type *ty, char *err, size_t nerr)
{
    struct ag_names *t;
    for (t = cv->names; t; t = t->next)
        if (t->sheet == ty->sheet && t->col == ty->col) return t;
    t = xcalloc(1, sizeof *t);
    t->sheet = ty->sheet;
    t->col = ty->col;
    if (load(cv->cfg.wdb, spec, t, err, nerr)) {
        ag_names_free(t);
        return NULL;
    }
    t->next = cv->names;
    cv->names = t;
    return t;
}

void ag_names_free(struct ag_names *t)
{
    while (t) {
        struct ag_names *next = t->next;
        for (int i = 0; i < t->n; i++) {
            free(t->v[i].name);
            free(t->v[i].norm);
            free(t->v[i].ctx);
        }
        free(t->v);
        free(t);
        t = next;
    }
}

/* Add G to the hits unless its row is there already (a row has several
 * names in a list field); past MAX_HITS rows *MORE counts the rest. */
static void add_hit(const gname **hit, int *n, int *more, const gname *g)
{
    for (int i = 0; i < *n; i++)
        if (hit[i]->id == g->id) return;
    if (*n < MAX_HITS) hit[(*n)++] = g;
    else (*more)++;
}

/* Does ROW, a result row, name entry G's name (its naming column)? */
static int row_names(const ws_val *row, const char *name_col, const gname *g)
{
    const ws_val *nm = ws_dict_get(row, name_col);
    if (!nm || nm->kind != WV_STR) return 0;
    char *a = ag_letters(nm->u.s);
    int same = !strcmp(a, g->norm);
    free(a);
    return same;
}

/* Does ROW, naming G, show G's own row: its _id, or its context? */
static int row_shows(const ws_val *row, const struct ag_names *t, const gname *g)
{
    const ws_val *id = ws_dict_get(row, "_id");
    if (id && id->kind == WV_INT) return id->u.i == g->id;
    const ws_val *cx = t->ctx_name ? ws_dict_get(row, t->ctx_name) : NULL;
    return cx && cx->kind == WV_STR && g->ctx && !strcasecmp(cx->u.s, g->ctx);
}

/* Of the HITS rows sharing a name, those the conversation showed last:
 * the latest knowledge result whose rows name them decides ("book the
 * second one" of a list of Palo Alto places means the Palo Alto one), and
 * only when its rows tell which (an _id, or the context); a result that
 * names them without telling decides nothing, and the user is asked.
 * Returns the new count (the hits kept first), or N. */
static int shown(ag_conv *cv, const struct ag_names *t, const ws_spec *spec, const gname **hit, int n)
{
    const char *name_col = spec->sheets[t->sheet].fields[t->col].name;
    for (int i = cv->st->n - 1; i >= 0; i--) {
        const ws_record *r = cv->st->recs[i];
        if (r->kind != WR_KB || !r->result || r->result->kind != WV_LIST) continue;
        const gname *keep[MAX_HITS];
        int k = 0, named = 0;
        for (int h = 0; h < n; h++)
            for (int j = 0; j < r->result->u.c.n; j++) {
                const ws_val *row = r->result->u.c.items[j];
                if (!row_names(row, name_col, hit[h])) continue;
                named = 1;
                if (row_shows(row, t, hit[h])) {
                    keep[k++] = hit[h];
                    break;
                }
            }
        if (!named) continue;
        if (k) memcpy(hit, keep, (size_t)k * sizeof *hit);
        return k ? k : n;
    }
    return n;
}

/* The name to store for entry G: its own, with the context when shared. */
static char *stored(const gname *g)
{
    return g->shared && g->ctx ? xasprintf("%s (%s)", g->name, g->ctx) : xstrdup(g->name);
}

/* Step 2: VALUE is a name followed by words of its row's context. */
static int with_context(const gname *g, const char *vwords)
{
    if (!g->ctx) return 0;
    char *nw = words(g->name), *cw = words(g->ctx);
    const char *p = vwords, *q = nw;
    for (; *q && *p && !strcmp(p, q); p += strlen(p) + 1, q += strlen(q) + 1) {}
    int ok = !*q && *p && g->pos == 0;      /* the whole name, then more */
    for (; ok && *p; p += strlen(p) + 1)
        if (!is_stop(p) && !has_word(cw, p)) ok = 0;
    free(nw);
    free(cw);
    return ok;
}

/* How close entry G is to VALUE (words VW, normal form VN): shared words
 * weigh most; 0 when not close at all. */
static int closeness(const gname *g, const char *vw, const char *vn)
{
    char *gw = words(g->name);
    int shared = 0;
    for (const char *p = vw; *p; p += strlen(p) + 1)
        if (!is_stop(p) && strlen(p) > 2 && has_word(gw, p)) shared++;
    free(gw);
    size_t a = strlen(g->norm), b = strlen(vn);
    int d = 99;
    if ((a > b ? a - b : b - a) <= 3) d = gn_edit_distance(g->norm, vn);
    int near = d <= (int)(b / 4) + 1;
    return shared ? 100 * shared - (d < 99 ? d : 50) : near ? 50 - d : 0;
}

static void say_candidates(gn_buf *b, const gname *const *c, int n)
{
    for (int i = 0; i < n; i++) {
        gn_buf_puts(b, i ? (i + 1 == n ? " or " : ", ") : "");
        if (c[i]->ctx) gn_buf_printf(b, "%s (%s)", c[i]->name, c[i]->ctx);
        else gn_buf_puts(b, c[i]->name);
    }
}

static int refuse(gn_buf *b, char *why, size_t nwhy)
{
    snprintf(why, nwhy, "%s", b->data);
    gn_buf_release(b);
    return -1;
}

static int not_found(const struct ag_names *t, const char *sheet, const char *value, char *why,
                     size_t nwhy)
{
    const gname *best[MAX_SUGGEST] = { 0 };
    int score[MAX_SUGGEST] = { 0 }, n = 0;
    char *vw = words(value), *vn = ag_letters(value);
    for (int i = 0; i < t->n; i++) {
        int s = closeness(&t->v[i], vw, vn);
        if (s <= 0) continue;
        int k = n < MAX_SUGGEST ? n++ : MAX_SUGGEST - 1;
        if (k == MAX_SUGGEST - 1 && n == MAX_SUGGEST && s <= score[k]) continue;
        for (; k > 0 && score[k - 1] < s; k--) best[k] = best[k - 1], score[k] = score[k - 1];
        best[k] = &t->v[i];
        score[k] = s;
    }
    free(vw);
    free(vn);
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_printf(&b, "\"%s\" is not in the %s I know", value, sheet);
    if (n) {
        gn_buf_puts(&b, n == 1 ? "; the closest is " : "; the closest are ");
        say_candidates(&b, best, n);
    }
    return refuse(&b, why, nwhy);
}

/* The rows VALUE names (at most MAX_HITS in HIT, *MORE counting the
 * rest), by the first step that finds any. */
static int match(const struct ag_names *t, const char *value, const gname **hit, int *more)
{
    char *vn = ag_letters(value), *vw = words(value);
    int nhit = 0;
    /* 1: the name itself */
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].norm, vn)) add_hit(hit, &nhit, more, &t->v[i]);
    /* 2: the name and its context */
    for (int i = 0; i < t->n && !nhit; i++)
        if (with_context(&t->v[i], vw)) add_hit(hit, &nhit, more, &t->v[i]);
    /* 3: a name field as context (a course's title): the row's first name;
     * a context like the city names no row */
    for (int i = 0; i < t->n && !nhit && *vn && t->ctx_names; i++) {
        if (!t->v[i].ctx || t->v[i].pos) continue;
        char *cn = ag_letters(t->v[i].ctx);
        if (!strcmp(cn, vn)) add_hit(hit, &nhit, more, &t->v[i]);
        free(cn);
    }
    free(vn);
    free(vw);
    return nhit;
}

int ag_ground(void *ud, const ws_spec *spec, const ws_type *ty, const char *value, char **out,
              char *why, size_t nwhy)
{
    ag_conv *cv = ud;
    if (!cv->cfg.wdb) {                         /* no knowledge base to ask */
        *out = xstrdup(value);
        return 0;
    }
    const char *sheet = spec->sheets[ty->sheet].name;
    char err[256];
    struct ag_names *t = names_of(cv, spec, ty, err, sizeof err);
    if (!t) {
        snprintf(why, nwhy, "I could not check \"%s\" against the %s: reading them failed (%s)", value,
                 sheet, err);
        return -1;
    }
    const gname *hit[MAX_HITS];
    int more = 0, rc = -1, nhit = match(t, value, hit, &more);
    int told = 0;                                 /* can contexts tell them apart? */
    for (int i = 0; i < nhit; i++) told |= hit[i]->ctx != NULL;
    if (nhit > 1 && !told) nhit = 1;              /* nothing tells them apart */
    if (nhit > 1 && !more) nhit = shown(cv, t, spec, hit, nhit);
    if (nhit == 1) {
        *out = stored(hit[0]);
        rc = 0;
    } else if (nhit > 1) {
        gn_buf b;
        gn_buf_init(&b);
        gn_buf_printf(&b, "there are several %s called \"%s\": ", sheet, value);
        say_candidates(&b, hit, nhit);
        if (more) gn_buf_printf(&b, ", and %d more", more);
        rc = refuse(&b, why, nwhy);
    } else {
        rc = not_found(t, sheet, value, why, nwhy);
    }
    return rc;
}

ws_val *ag_row(void *ud, const ws_spec *spec, const ws_type *ty, const char *value)
{
    ag_conv *cv = ud;
    if (!cv->cfg.wdb) return NULL;
    char err[256];
    struct ag_names *t = names_of(cv, spec, ty, err, sizeof err);
    if (!t) return NULL;
    const gname *hit[MAX_HITS];
    int more = 0, nhit = match(t, value, hit, &more);
    if (nhit != 1 || more) return NULL;   /* the stored value names one row */
    const ws_sheet *w = &spec->sheets[ty->sheet];
    ws_val *d = ws_dict();
    ws_dict_set(d, "_id", ws_int(hit[0]->id));
    ws_dict_set(d, w->fields[ty->col].name, ws_str(hit[0]->name));
    if (t->ctx_name) ws_dict_set(d, t->ctx_name, hit[0]->ctx ? ws_str(hit[0]->ctx) : ws_none());
    return d;
}
