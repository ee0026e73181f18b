/*
 * classify.c — mapping terms onto a column's vocabulary (see classify.h).
 *
 * Similarity of a term and a value: 0.7 x cosine of their word-vector
 * embeddings + 0.3 x the share of the term's content words found among the
 * value's words (plural 's' ignored), so 'coffee' is close to 'coffee & tea'
 * by both and 'burgers' to 'burger' by the second.  The vectors of a
 * column's values are computed once per classifier.
 *
 * Rejected: asking the LLM with every value of a large vocabulary (hundreds
 * of cuisines make a long, slow, expensive prompt for one term); guessing
 * from an unreadable reply.
 */
#include "classify.h"

#include "llm/prompt.h"
#include "retrieval/tokenize.h"
#include "util/buf.h"
#include "util/xmem.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VALUES 100000

typedef struct vocab {
    char *table, *column;
    char **vals;
    int n;
    float *vecs;               /* n x dim, computed on first use */
    int dim;
    struct vocab *next;
} vocab;

typedef struct memo {
    char *table, *column, *term;   /* term lower-cased, trimmed */
    char **vals;
    int n, exact, offline;
    struct memo *next;
} memo;

struct suql_classifier {
    sqlite3 *db;
    rt_embedder *em;
    llm_client *client;
    const llm_tpl *tpl;
    vocab *vocabs;
    memo *memos;
};

suql_classifier *suql_classifier_new(sqlite3 *db, rt_embedder *em, llm_client *client,
                                     const llm_tpl *tpl)
{
    suql_classifier *k = xcalloc(1, sizeof *k);
    k->db = db;
    k->em = em;
    k->client = client;
    k->tpl = tpl;
    return k;
}

static void free_strs(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

void suql_classifier_free(suql_classifier *k)
{
    if (!k) return;
    for (vocab *v = k->vocabs, *n; v; v = n) {
        n = v->next;
        free(v->table);
        free(v->column);
        free_strs(v->vals, v->n);
        free(v->vecs);
        free(v);
    }
    for (memo *m = k->memos, *n; m; m = n) {
        n = m->next;
        free(m->table);
        free(m->column);
        free(m->term);
        free_strs(m->vals, m->n);
        free(m);
    }
    free(k);
}

/* ---- vocabularies ---------------------------------------------------------- */

static int load_vocab(suql_classifier *k, const st_table *t, const st_column *col, vocab *v,
                      gn_err *e)
{
    if (col->nenum > 0) {
        v->vals = xcalloc((size_t)col->nenum, sizeof *v->vals);
        for (int i = 0; i < col->nenum; i++) v->vals[i] = xstrdup(col->enum_vals[i]);
        v->n = col->nenum;       /* in the declared order */
        return 0;
    }
    gn_buf q;
    gn_buf_init(&q);
    if (col->is_array && col->side) {
        /* The elements' side table: its index instead of every row's JSON
         * (at scale 100 the difference between 2 ms and 0.5 s). */
        char side[300];
        gn_buf_puts(&q, "SELECT DISTINCT value FROM ");
        st_ident(&q, st_side_table(t->name, col->name, side, sizeof side));
        gn_buf_puts(&q, " WHERE typeof(value) = 'text' ORDER BY 1");
    } else if (col->is_array) {
        gn_buf_puts(&q, "SELECT DISTINCT j.value FROM ");
        st_ident(&q, t->name);
        gn_buf_puts(&q, " AS t, json_each(t.");
        st_ident(&q, col->name);
        gn_buf_puts(&q, ") AS j WHERE j.type = 'text' ORDER BY 1");
    } else {
        gn_buf_puts(&q, "SELECT DISTINCT ");
        st_ident(&q, col->name);
        gn_buf_puts(&q, " FROM ");
        st_ident(&q, t->name);
        gn_buf_puts(&q, " WHERE typeof(");
        st_ident(&q, col->name);
        gn_buf_puts(&q, ") = 'text' ORDER BY 1");
    }
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(k->db, q.data, -1, &st, NULL);
    gn_buf_release(&q);
    if (rc != SQLITE_OK) return st_dberr(k->db, e, "reading the values of a column");
    int cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && v->n < MAX_VALUES) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 64;
            v->vals = xrealloc(v->vals, sizeof *v->vals * (size_t)cap);
        }
        v->vals[v->n++] = xstrdup((const char *)sqlite3_column_text(st, 0));
    }
    int bad = rc != SQLITE_ROW && rc != SQLITE_DONE;
    sqlite3_finalize(st);
    if (bad) return st_dberr(k->db, e, "reading the values of a column");
    return 0;
}

static vocab *find_vocab(suql_classifier *k, const st_table *t, const st_column *col)
{
    for (vocab *v = k->vocabs; v; v = v->next)
        if (!strcmp(v->table, t->name) && !strcmp(v->column, col->name)) return v;
    return NULL;
}

static int get_vocab(suql_classifier *k, const st_table *t, const st_column *col, vocab **out,
                     gn_err *e)
{
    vocab *v = find_vocab(k, t, col);
    if (!v) {
        v = xcalloc(1, sizeof *v);
        v->table = xstrdup(t->name);
        v->column = xstrdup(col->name);
        int rc = load_vocab(k, t, col, v, e);
        if (rc) {
            free_strs(v->vals, v->n);
            free(v->table);
            free(v->column);
            free(v);
            return rc;
        }
        v->next = k->vocabs;
        k->vocabs = v;
    }
    *out = v;
    return 0;
}

int suql_column_values(suql_classifier *k, const st_table *t, const st_column *col,
                       const char *const **vals, int *n, gn_err *e)
{
    vocab *v;
    int rc = get_vocab(k, t, col, &v, e);
    if (rc) return rc;
    *vals = (const char *const *)v->vals;
    *n = v->n;
    return 0;
}

/* ---- similarity ------------------------------------------------------------------ */

typedef struct { char w[32][64]; int n; } words;

static void add_word(const char *w, int len, void *ud)
{
    words *ws = ud;
    if (ws->n >= 32 || rt_is_stopword(w, len)) return;
    if (len > 3 && w[len - 1] == 's') len--;          /* burgers ~ burger */
    snprintf(ws->w[ws->n++], 64, "%.*s", len, w);
}

static double overlap(const words *term, const char *value)
{
    if (!term->n) return 0;
    words v = { .n = 0 };
    rt_tokenize(value, add_word, &v);
    int hit = 0;
    for (int i = 0; i < term->n; i++)
        for (int j = 0; j < v.n; j++)
            if (!strcmp(term->w[i], v.w[j])) {
                hit++;
                break;
            }
    return (double)hit / term->n;
}

static int embed_vocab(suql_classifier *k, vocab *v, gn_err *e)
{
    if (v->vecs || !v->n) return 0;
    float *vecs;
    int rc = rt_embed_alloc(k->em, (const char *const *)v->vals, v->n, &vecs, e);
    if (rc) return rc;
    v->vecs = vecs;
    v->dim = rt_embedder_dim(k->em);
    return 0;
}

typedef struct { int i; double s; } scored;

static int by_score(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    return x->s < y->s ? 1 : x->s > y->s ? -1 : x->i - y->i;
}

/* All values of V scored against TERM, best first (caller frees). */
static int rank(suql_classifier *k, vocab *v, const char *term, scored **out, gn_err *e)
{
    int rc = embed_vocab(k, v, e);
    if (rc) return rc;
    float *q;
    const char *texts[1] = { term };
    rc = rt_embed_alloc(k->em, texts, 1, &q, e);
    if (rc) return rc;
    words tw = { .n = 0 };
    rt_tokenize(term, add_word, &tw);
    scored *s = xcalloc((size_t)v->n + 1, sizeof *s);
    for (int i = 0; i < v->n; i++) {
        s[i].i = i;
        s[i].s = 0.7 * rt_dot(q, v->vecs + (size_t)i * (size_t)v->dim, v->dim) +
                 0.3 * overlap(&tw, v->vals[i]);
    }
    free(q);
    qsort(s, (size_t)v->n, sizeof *s, by_score);
    *out = s;
    return 0;
}

/* ---- the LLM's reply ------------------------------------------------------------------ */

static int strict_reply(const char *reply, int n, int *picked)
{
    const char *p = reply;
    while (isspace((unsigned char)*p)) p++;
    size_t len = strlen(p);
    while (len && (isspace((unsigned char)p[len - 1]) || p[len - 1] == '.')) len--;
    if (len == 4 && !strncasecmp(p, "none", 4)) return 0;
    int count = 0;
    const char *end = p + len;
    while (p < end) {
        if (!isdigit((unsigned char)*p)) return -1;
        long x = 0;
        while (p < end && isdigit((unsigned char)*p)) {
            x = x * 10 + (*p++ - '0');
            if (x > n) return -1;
        }
        if (x < 1) return -1;
        int dup = 0;
        for (int i = 0; i < count; i++) dup |= picked[i] == x - 1;
        if (!dup) picked[count++] = (int)x - 1;
        /* One separator: a comma and/or spaces. */
        const char *q = p;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        if (p < end && *p == ',') p++;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        if (p < end && p == q) return -1;
    }
    return count ? count : -1;
}

/* LINE[0..len) without markdown emphasis and code marks, into OUT (a
 * buffer of at least len + 1). */
static void plain_line(const char *line, size_t len, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        if (line[i] != '*' && line[i] != '`' && line[i] != '_') out[k++] = line[i];
    out[k] = 0;
}

/* "2. Winter 2027", "- 3) Pizza": the number of a numbered line, or 0. */
static long numbered(const char *s, int n)
{
    while (*s == ' ' || *s == '\t' || *s == '-') s++;
    long x = 0;
    const char *d = s;
    while (isdigit((unsigned char)*s) && x <= n) x = x * 10 + (*s++ - '0');
    if (s == d || x < 1 || x > n || (*s != '.' && *s != ')') || s[1] != ' ' || !s[2]) return 0;
    return x;
}

/* A one-line reply that says no value fits, in words ("None of the
 * allowed values match CS 999."): it opens with none / no match / no
 * value / nothing, and names no exception (except, but, only, apart). */
static int says_none(const char *reply)
{
    static const char *const opens[] = { "none", "no match", "no value", "nothing", NULL };
    static const char *const exc[] = { "except", " but ", " only ", "apart", NULL };
    while (*reply && !isalnum((unsigned char)*reply)) reply++;      /* markup, quotes */
    int open = 0;
    for (int i = 0; opens[i] && !open; i++) {
        size_t k = strlen(opens[i]);
        open = !strncasecmp(reply, opens[i], k) && !isalnum((unsigned char)reply[k]);
    }
    for (int i = 0; open && exc[i]; i++)
        if (strcasestr(reply, exc[i])) open = 0;
    return open;
}

int suql_classify_reply(const char *reply, int n, int *picked)
{
    int got = strict_reply(reply, n, picked);
    if (got >= 0) return got;
    /* The forms models write around it: a preamble ending in a colon and
     * the answer on the last line ("...so the answer is:\n\n**1**"), or
     * the chosen values as a numbered list ("2. Winter 2027"). */
    size_t len = strlen(reply);
    char *buf = xmalloc(len + 1);
    const char *last = NULL;
    size_t lastlen = 0;
    int count = 0, listed = 1, lines = 0;
    for (const char *l = reply; *l;) {
        size_t k = strcspn(l, "\n");
        plain_line(l, k, buf);
        const char *t = buf;
        while (isspace((unsigned char)*t)) t++;
        if (*t) {
            last = l, lastlen = k, lines++;
            long x = numbered(t, n);
            if (!x) {
                listed = 0;
            } else {
                int dup = 0;
                for (int i = 0; i < count; i++) dup |= picked[i] == x - 1;
                if (!dup && count < n) picked[count++] = (int)x - 1;
            }
        }
        l += k;
        if (*l) l++;
    }
    got = -1;
    if (listed && count) {
        got = count;
    } else if (lines == 1 && says_none(reply)) {
        got = 0;
    } else if (last && lines > 1) {
        /* the line before the last must end the preamble with a colon */
        plain_line(last, lastlen, buf);
        const char *colon = last > reply ? last - 1 : reply;
        while (colon > reply && isspace((unsigned char)*colon)) colon--;
        if (*colon == ':') {
            got = strict_reply(buf, n, picked);
            const char *t = buf;
            while (isspace((unsigned char)*t)) t++;
            long x = got < 0 ? numbered(t, n) : 0;    /* "The best match is:\n2. moderate" */
            if (x) {
                picked[0] = (int)x - 1;
                got = 1;
            }
        }
    }
    free(buf);
    return got;
}

/* ---- mapping ----------------------------------------------------------------------------- */

static char *norm_term(const char *term)
{
    while (isspace((unsigned char)*term)) term++;
    char *t = xstrdup(term);
    size_t n = strlen(t);
    while (n && isspace((unsigned char)t[n - 1])) t[--n] = 0;
    for (char *p = t; *p; p++) *p = (char)tolower((unsigned char)*p);
    return t;
}

static memo *find_memo(suql_classifier *k, const st_table *t, const st_column *col,
                       const char *nterm)
{
    for (memo *m = k->memos; m; m = m->next)
        if (!strcmp(m->table, t->name) && !strcmp(m->column, col->name) && !strcmp(m->term, nterm))
            return m;
    return NULL;
}

static void fill(const memo *m, suql_mapping *out)
{
    out->values = (const char *const *)m->vals;
    out->nvalues = m->n;
    out->exact = m->exact;
    out->offline = m->offline;
}

int suql_classify_known(suql_classifier *k, const st_table *t, const st_column *col,
                        const char *term, suql_mapping *out)
{
    char *nt = norm_term(term);
    memo *m = find_memo(k, t, col, nt);
    free(nt);
    if (m) fill(m, out);
    return m != NULL;
}

int suql_classify_local(suql_classifier *k, const st_table *t, const st_column *col,
                        const char *term, suql_mapping *out, gn_err *e)
{
    if (suql_classify_known(k, t, col, term, out)) return 1;
    if (k->client && k->tpl) {
        vocab *v;
        if (get_vocab(k, t, col, &v, e)) return -e->code;
        char *nt = norm_term(term);
        int exact = 0;
        for (int i = 0; i < v->n && !exact; i++) exact = !strcasecmp(v->vals[i], nt);
        free(nt);
        if (!exact) return 0;                   /* the LLM would be asked */
    }
    return suql_classify(k, t, col, term, out, e) ? -e->code : 1;   /* asks nothing */
}

/* Ask the LLM which of the candidates CAND[NC] of V the term means. */
static int ask(suql_classifier *k, const st_table *t, const st_column *col, vocab *v,
               const char *term, const scored *cand, int nc, memo *m, int *cached, gn_err *e)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "table", t->name);
    cJSON_AddStringToObject(d, "column", col->name);
    if (col->desc && *col->desc) cJSON_AddStringToObject(d, "description", col->desc);
    else cJSON_AddNullToObject(d, "description");
    cJSON_AddStringToObject(d, "term", term);
    cJSON *ch = cJSON_AddArrayToObject(d, "choices");
    for (int i = 0; i < nc; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", i + 1);
        cJSON_AddStringToObject(o, "value", v->vals[cand[i].i]);
        cJSON_AddItemToArray(ch, o);
    }
    llm_prompt p;
    int rc = llm_prompt_render(k->tpl, d, &p, e);
    cJSON_Delete(d);
    if (rc) return rc;
    llm_call_opts o = { .stage = LLM_STAGE_CLASSIFY, .msgs = p.msgs, .nmsgs = p.n };
    llm_result r;
    llm_call_info info = { 0 };
    rc = llm_complete(k->client, &o, &r, &info, e);
    *cached = info.cached;
    llm_prompt_release(&p);
    if (!rc) {
        const char *text = r.nchoices && r.choices[0].content.data ? r.choices[0].content.data : "";
        int *picked = xcalloc((size_t)nc + 1, sizeof *picked);
        int np = suql_classify_reply(text, nc, picked);
        if (np < 0) {
            rc = gn_err_set(e, GN_EPARSE, "classify: the LLM's reply \"%.80s\" is neither "
                            "value numbers (1..%d) nor \"none\"", text, nc);
        } else {
            m->vals = xcalloc((size_t)np + 1, sizeof *m->vals);
            for (int i = 0; i < np; i++) m->vals[i] = xstrdup(v->vals[cand[picked[i]].i]);
            m->n = np;
        }
        free(picked);
    }
    llm_result_release(&r);
    return rc;
}

int suql_classify(suql_classifier *k, const st_table *t, const st_column *col, const char *term,
                  suql_mapping *out, gn_err *e)
{
    memset(out, 0, sizeof *out);
    char *nt = norm_term(term);
    memo *m = find_memo(k, t, col, nt);
    if (m) {
        free(nt);
        fill(m, out);
        return 0;
    }
    vocab *v;
    int rc = get_vocab(k, t, col, &v, e);
    if (rc) {
        free(nt);
        return rc;
    }
    m = xcalloc(1, sizeof *m);
    int asked = 0, cached = 0;
    for (int i = 0; i < v->n && !m->exact; i++)
        if (!strcasecmp(v->vals[i], nt)) {
            m->vals = xcalloc(1, sizeof *m->vals);
            m->vals[0] = xstrdup(v->vals[i]);
            m->n = 1;
            m->exact = 1;
        }
    if (!m->exact && v->n > 0) {
        scored *s = NULL;
        if (k->client && k->tpl && v->n <= LLM_CLASSIFY_SHORTLIST) {
            /* Few values: all of them, in their own order. */
            s = xcalloc((size_t)v->n, sizeof *s);
            for (int i = 0; i < v->n; i++) s[i].i = i;
        } else {
            rc = rank(k, v, nt, &s, e);
        }
        if (!rc && k->client && k->tpl) {
            asked = 1;
            rc = ask(k, t, col, v, term, s, v->n < LLM_CLASSIFY_SHORTLIST ? v->n
                                                                           : LLM_CLASSIFY_SHORTLIST,
                     m, &cached, e);
        } else if (!rc) {
            m->offline = 1;
            m->vals = xcalloc(LLM_CLASSIFY_OFFLINE_MAX, sizeof *m->vals);
            for (int i = 0; i < v->n && m->n < LLM_CLASSIFY_OFFLINE_MAX; i++)
                if (s[i].s >= LLM_CLASSIFY_OFFLINE_MIN) m->vals[m->n++] = xstrdup(v->vals[s[i].i]);
        }
        free(s);
    }
    if (rc) {
        free_strs(m->vals, m->n);
        free(m);
        free(nt);
        return rc;
    }
    m->table = xstrdup(t->name);
    m->column = xstrdup(col->name);
    m->term = nt;
    m->next = k->memos;
    k->memos = m;
    fill(m, out);
    out->asked = asked;
    out->cached = cached;
    return 0;
}
