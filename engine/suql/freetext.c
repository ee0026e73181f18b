/*
 * freetext.c — answer(), summary() and free-text filters (see freetext.h).
 *
 * The LLM's verify reply is read strictly: after trimming, its first line
 * must start with the word Yes or No (any case, markup, a label such as
 * "Answer:" and punctuation around it allowed), or, after a preamble, a
 * later line must be the verdict alone; anything else is a failed request,
 * reported, never guessed.  Answers and summaries are taken as the model
 * wrote them, trimmed ("no info" with markup or a period made plain); an
 * answer written as a bulleted list (maybe after a lead-in line ending in
 * ':') becomes the one comma-separated line the prompt asks for.
 *
 * A batched verify reply is read line by line (suql_ft_verdicts); a row it
 * leaves undecided costs one more call, alone, rather than a guess.
 *
 * Rejected: one LLM call per passage (the paper's answer() reads the row's
 * passages together); sending every passage of a long array (20 reviews of
 * 600 characters make a slow prompt; the few nearest the question carry
 * the answer); one verify call per row as the default (the paper's way, and
 * the optimizer's largest cost: rows checked together cost one call; a
 * model that judges lists poorly can still be given one row a call).
 */
#include "freetext.h"

#include "llm/offline.h"
#include "llm/prompt.h"
#include "retrieval/search.h"
#include "suql/passrank.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MEMO_BUCKETS 4096

typedef struct memo {
    char key[65];
    char *text;
    int yes, offline;
    struct memo *next;
} memo;

struct suql_ft {
    suql_ft_config cfg;
    memo *buckets[MEMO_BUCKETS];
    suql_ft_stats stats;
};

suql_ft *suql_ft_new(const suql_ft_config *cfg)
{
    suql_ft *ft = xcalloc(1, sizeof *ft);
    ft->cfg = *cfg;
    if (ft->cfg.offline_threshold <= 0) ft->cfg.offline_threshold = LLM_OFFLINE_THRESHOLD;
    if (ft->cfg.verify_batch <= 0) ft->cfg.verify_batch = SUQL_FT_BATCH;
    if (ft->cfg.verify_batch > SUQL_FT_BATCH_MAX) ft->cfg.verify_batch = SUQL_FT_BATCH_MAX;
    return ft;
}

void suql_ft_free(suql_ft *ft)
{
    if (!ft) return;
    for (int i = 0; i < MEMO_BUCKETS; i++)
        for (memo *m = ft->buckets[i], *n; m; m = n) {
            n = m->next;
            free(m->text);
            free(m);
        }
    free(ft);
}

int suql_ft_offline(const suql_ft *ft)
{
    return !ft->cfg.client;
}

int suql_ft_batch(const suql_ft *ft)
{
    return ft->cfg.client && ft->cfg.verify_rows_tpl ? ft->cfg.verify_batch : 1;
}

void suql_ft_get_stats(const suql_ft *ft, suql_ft_stats *out)
{
    *out = ft->stats;
}

int suql_ft_verifiable(const char *op, const char *rhs)
{
    if (!op || !rhs || (strcmp(op, "=") && strcmp(op, "<>") && strcmp(op, "!="))) return 0;
    return !strcasecmp(rhs, "'yes'") || !strcasecmp(rhs, "'no'");
}

/* ---- memo ------------------------------------------------------------------ */

static void key_of(const suql_ft_req *r, char out[65])
{
    gn_sha256 h;
    gn_sha256_init(&h);
    const char *parts[] = { r->kind == SUQL_FT_ANSWER ? "A" : r->kind == SUQL_FT_SUMMARY ? "S" : "V",
                            r->value, r->question, r->op, r->rhs, r->type_hint };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const char *p = parts[i] ? parts[i] : "";
        gn_sha256_update(&h, p, strlen(p) + 1);     /* NUL separates the parts */
    }
    gn_sha256_final_hex(&h, out);
}

/* A key's first 32 bits (the key is a hex SHA-256): its hash. */
static unsigned key_hash(const char *key)
{
    unsigned h = 0;
    for (int i = 0; i < 8; i++) h = h << 4 | (unsigned)(key[i] <= '9' ? key[i] - '0' : key[i] - 'a' + 10);
    return h;
}

static unsigned bucket(const char *key) { return key_hash(key) % MEMO_BUCKETS; }

static memo *memo_find(suql_ft *ft, const char *key)
{
    unsigned b = bucket(key);
    for (memo *m = ft->buckets[b]; m; m = m->next)
        if (!strcmp(m->key, key)) return m;
    return NULL;
}

static memo *memo_add(suql_ft *ft, const char *key, const char *text, int yes, int offline)
{
    unsigned b = bucket(key);
    memo *m = xcalloc(1, sizeof *m);
    memcpy(m->key, key, 65);
    m->text = text ? xstrdup(text) : NULL;
    m->yes = yes;
    m->offline = offline;
    m->next = ft->buckets[b];
    ft->buckets[b] = m;
    return m;
}

int suql_ft_known(suql_ft *ft, const suql_ft_req *r)
{
    if (!r->value) return 1;
    char key[65];
    key_of(r, key);
    return memo_find(ft, key) != NULL;
}

/* ---- passages ---------------------------------------------------------------- */

typedef struct { char **v; int n; } texts;

static void texts_free(texts *t)
{
    for (int i = 0; i < t->n; i++) free(t->v[i]);
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

/* The passages of VALUE: the strings of a JSON array, else the text. */
static void passages(const char *value, texts *out)
{
    out->v = NULL;
    out->n = 0;
    const char *p = value + strspn(value, " \t\r\n");
    cJSON *j = *p == '[' ? cJSON_Parse(p) : NULL;
    if (cJSON_IsArray(j)) {
        const cJSON *it;
        out->v = xcalloc((size_t)cJSON_GetArraySize(j) + 1, sizeof *out->v);
        cJSON_ArrayForEach(it, j) {
            if (cJSON_IsString(it) && it->valuestring[0]) out->v[out->n++] = xstrdup(it->valuestring);
        }
    } else if (*p) {
        out->v = xcalloc(1, sizeof *out->v);
        out->v[out->n++] = xstrdup(value);
    }
    cJSON_Delete(j);
}

typedef struct { int i; float s; } ranked;

static int by_sim(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->s < y->s ? 1 : x->s > y->s ? -1 : x->i - y->i;
}

/* The stored vectors of R's passages PS, where the index has them
 * (rt_row_vectors): *VEC and *HAVE (caller frees), or NULLs (every
 * passage is then embedded; an index that cannot say is no error). */
static void stored_vectors(suql_ft *ft, const suql_ft_req *r, const texts *ps, float **vec,
                           unsigned char **have)
{
    *vec = NULL;
    *have = NULL;
    int dim = rt_embedder_dim(ft->cfg.em);
    if (!ft->cfg.ix || !r->tbl || r->row <= 0 || !r->field || dim <= 0) return;
    float *v = xcalloc((size_t)ps->n * (size_t)dim + 1, sizeof *v);
    unsigned char *h = xcalloc((size_t)ps->n + 1, 1);
    gn_err e;
    if (rt_row_vectors(ft->cfg.ix, r->tbl, r->field, r->row, (const char *const *)ps->v, ps->n, dim,
                       v, h, &e)) {
        free(v);
        free(h);
        return;
    }
    *vec = v;
    *have = h;
}

/* The documents for a prompt, into DOCS (an object): "documents", up to
 * SUQL_FT_DOCS passages most relevant to QUESTION (passrank.h; all, in
 * order, when QUESTION is NULL, up to the summary size bound), each cut at
 * SUQL_FT_DOC_CHARS; and "excerpt", null when the prompt shows them all
 * whole, else {shown, total, cut}, so the model is told it reads part of
 * the row and a question the excerpt does not address is not taken for
 * one the row does not. */
static int documents(suql_ft *ft, const suql_ft_req *r, const texts *ps, const char *question,
                     cJSON *docs, gn_err *e)
{
    cJSON *arr = cJSON_AddArrayToObject(docs, "documents");
    ranked *rk = xcalloc((size_t)ps->n + 1, sizeof *rk);
    for (int i = 0; i < ps->n; i++) rk[i].i = i;
    int take = ps->n, cut = 0;
    if (question && ps->n > SUQL_FT_DOCS) {
        float *score = xcalloc((size_t)ps->n, sizeof *score), *vec;
        unsigned char *have;
        stored_vectors(ft, r, ps, &vec, &have);
        int rc = suql_passage_scores(ft->cfg.em, question, (const char *const *)ps->v, ps->n, vec,
                                     have, score, e);
        for (int i = 0; !rc && i < ps->n; i++) rk[i].s = score[i];
        free(score);
        free(vec);
        free(have);
        if (rc) {
            free(rk);
            return rc;
        }
        qsort(rk, (size_t)ps->n, sizeof *rk, by_sim);
        take = SUQL_FT_DOCS;
    }
    size_t total = 0;
    int shown = 0;
    for (int i = 0; i < take; i++) {
        const char *s = ps->v[rk[i].i];
        size_t len = strlen(s);
        if (len > SUQL_FT_DOC_CHARS) {
            len = SUQL_FT_DOC_CHARS;
            cut = 1;
        }
        if (!question && total + len > SUQL_FT_SUMMARY_CHARS && i > 0) break;
        total += len;
        char *c = xstrndup(s, len);
        cJSON_AddItemToArray(arr, cJSON_CreateString(c));
        free(c);
        shown++;
    }
    free(rk);
    if (shown < ps->n || cut) {
        cJSON *x = cJSON_AddObjectToObject(docs, "excerpt");
        cJSON_AddNumberToObject(x, "shown", shown);
        cJSON_AddNumberToObject(x, "total", ps->n);
        cJSON_AddBoolToObject(x, "cut", cut);
    } else {
        cJSON_AddNullToObject(docs, "excerpt");
    }
    return 0;
}

/* ---- offline ----------------------------------------------------------------- */

/* Does the filter hold given that the answer "is Yes" (MATCH)? */
static int holds(const char *op, const char *rhs, int match)
{
    int want_yes = !strcasecmp(rhs, "'yes'");
    int eq = !strcmp(op, "=");
    return eq == (want_yes == match);
}

static int run_offline(suql_ft *ft, suql_ft_req *r, const texts *ps, gn_err *e)
{
    gn_buf b;
    gn_buf_init(&b);
    int rc = 0;
    const char *const *pv = (const char *const *)ps->v;
    if (r->kind == SUQL_FT_ANSWER) {
        rc = llm_offline_answer(ft->cfg.em, r->question, pv, ps->n, LLM_OFFLINE_ANSWER_THRESHOLD, &b,
                                NULL, e);
    } else if (r->kind == SUQL_FT_SUMMARY) {
        rc = llm_offline_summary(ft->cfg.em, pv, ps->n, LLM_OFFLINE_SUMMARY_MAX, &b, e);
    } else {
        int m = ft->cfg.verdict ? ft->cfg.verdict(ft->cfg.verdict_ud, r->value, r->question) != 0
                                : llm_offline_match(ft->cfg.em, r->question, pv, ps->n,
                                                    ft->cfg.offline_threshold, NULL, e);
        if (m < 0) rc = e->code ? e->code : GN_EUSAGE;
        else r->yes = holds(r->op, r->rhs, m);
    }
    if (!rc) {
        char key[65];
        key_of(r, key);
        memo *m = memo_add(ft, key, r->kind == SUQL_FT_VERIFY ? NULL : (b.data ? b.data : ""),
                           r->yes, 1);
        r->text = m->text;
        r->offline = 1;
        ft->stats.offline++;
    }
    gn_buf_release(&b);
    return rc;
}

/* ---- online ------------------------------------------------------------------- */

/* The documents of R's value for its prompt, into *OUT (a new array). */
static int docs_of(suql_ft *ft, const suql_ft_req *r, const texts *ps, cJSON **out, gn_err *e)
{
    *out = cJSON_CreateObject();
    int rc = documents(ft, r, ps, r->kind == SUQL_FT_SUMMARY ? NULL : r->question, *out, e);
    if (rc) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    return rc;
}

/* The condition of a verify request, as both verify prompts show it. */
static void add_condition(cJSON *d, const suql_ft_req *r)
{
    cJSON_AddStringToObject(d, "field", r->field ? r->field : "text");
    cJSON_AddStringToObject(d, "question", r->question);
    cJSON_AddStringToObject(d, "operator", r->op);
    cJSON_AddStringToObject(d, "value", r->rhs);
}

/* The prompt of R alone, over DOCS (borrowed). */
static int render(suql_ft *ft, const suql_ft_req *r, const cJSON *docs, llm_prompt *p, gn_err *e)
{
    cJSON *d = cJSON_CreateObject();
    const cJSON *m;
    cJSON_ArrayForEach(m, docs) cJSON_AddItemToObject(d, m->string, cJSON_Duplicate(m, 1));
    const llm_tpl *t;
    if (r->kind == SUQL_FT_ANSWER) {
        t = ft->cfg.answer_tpl;
        cJSON_AddStringToObject(d, "question", r->question);
        if (r->type_hint) cJSON_AddStringToObject(d, "type_hint", r->type_hint);
        else cJSON_AddNullToObject(d, "type_hint");
    } else if (r->kind == SUQL_FT_SUMMARY) {
        t = ft->cfg.summary_tpl;
        cJSON_AddStringToObject(d, "field", r->field ? r->field : "text");
        cJSON_AddNumberToObject(d, "max_words", SUQL_FT_SUMMARY_WORDS);
    } else {
        t = ft->cfg.verify_tpl;
        add_condition(d, r);
    }
    int rc = t ? llm_prompt_render(t, d, p, e) : gn_err_set(e, GN_EUSAGE, "no prompt template");
    cJSON_Delete(d);
    return rc;
}

/* Yes/No at the start of a verify reply: 1, 0, or -1. */
/* The verdict a line starts with (after markup and a label such as
 * "Answer:"), 1 or 0; -1 when it starts with neither.  ALONE: the word must
 * end the line's words too (what follows it is punctuation, markup or a
 * reason after a dash or a period), so prose such as "No review mentions
 * it" is not read as a verdict. */
static int line_verdict(const char *s, const char *end, int alone)
{
    static const char *const labels[] = { "final answer", "answer", "verdict", "result" };
    while (s < end && !isalpha((unsigned char)*s)) s++;
    for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) {
        size_t n = strlen(labels[i]);
        if ((size_t)(end - s) > n && !strncasecmp(s, labels[i], n) && s[n] == ':') {
            s += n + 1;
            while (s < end && !isalpha((unsigned char)*s)) s++;
            break;
        }
    }
    int v = (end - s >= 3 && !strncasecmp(s, "yes", 3)) ? 1 : (end - s >= 2 && !strncasecmp(s, "no", 2)) ? 0 : -1;
    if (v < 0) return -1;
    const char *p = s + (v ? 3 : 2);
    if (p < end && isalnum((unsigned char)*p)) return -1;        /* "Nope", "Yesterday" */
    if (!alone) return v;
    while (p < end && *p == ' ') p++;
    return p == end || !isalnum((unsigned char)*p) ? v : -1;
}

/* The verdict of a verify reply: its first line's, or else (a preamble
 * such as "Sure! Based on the reviews, the answer is:") the first later
 * line that is a verdict alone; -1 when there is none. */
static int yes_no(const char *s)
{
    const char *nl = strchr(s, '\n');
    int v = line_verdict(s, nl ? nl : s + strlen(s), 0);
    while (v < 0 && nl) {
        s = nl + 1;
        nl = strchr(s, '\n');
        v = line_verdict(s, nl ? nl : s + strlen(s), 1);
    }
    return v;
}

/* An answer() reply that says "no info" with markup or a period ("No
 * info.", "**no info**") is the plain "no info" the prompt asks for. */
static void plain_no_info(char *t)
{
    const char *s = t;
    while (*s && !isalnum((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && !isalnum((unsigned char)s[n - 1])) n--;
    if (n == 7 && !strncasecmp(s, "no info", 7)) strcpy(t, "no info");
}

/* Length of the list marker at S ("- ", "* ", "• ", "3. ", "3) "), or 0. */
static size_t bullet(const char *s)
{
    const char *p = s;
    if (!strncmp(p, "\xe2\x80\xa2", 3)) p += 3;
    else if (*p == '-' || *p == '*') p++;
    else {
        while (isdigit((unsigned char)*p)) p++;
        if (p == s || (*p != '.' && *p != ')')) return 0;
        p++;
    }
    if (*p != ' ' && *p != '\t') return 0;
    return (size_t)(p - s) + strspn(p, " \t");
}

/* An answer() reply written as a list, one item a line with markers (and
 * maybe a lead-in line ending in ':'), becomes the one line the prompt asks
 * for, items separated by ", ".  Anything else is left as it is. */
static void list_on_one_line(char *t)
{
    if (!strchr(t, '\n')) return;
    gn_buf out;
    gn_buf_init(&out);
    int items = 0, ok = 1;
    for (char *line = t; line && ok;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        while (n && isspace((unsigned char)*line)) line++, n--;
        while (n && isspace((unsigned char)line[n - 1])) n--;
        size_t b = n ? bullet(line) : 0;
        if (b) {
            const char *item = line + b;
            size_t k = n - b, m = strspn(item, "*`_");
            if (m < k && strspn(item + k - m, "*`_") == m) item += m, k -= 2 * m;
            if (items++) gn_buf_puts(&out, ", ");
            gn_buf_add(&out, item, k);
        } else if (n && (items || line[n - 1] != ':')) ok = 0;
        line = nl ? nl + 1 : NULL;
    }
    if (ok && items) strcpy(t, out.data);    /* never longer than T */
    gn_buf_release(&out);
}

static char *trimmed(const char *s)
{
    s += strspn(s, " \t\r\n");
    char *t = xstrdup(s);
    size_t n = strlen(t);
    while (n && isspace((unsigned char)t[n - 1])) t[--n] = 0;
    return t;
}

/* Take the LLM's reply for R, whose prompt showed SHOWN of its TOTAL
 * passages (0 of 0: all): an answer of "no info" from some of them says
 * so, since the others may hold it. */
static void accept(suql_ft *ft, suql_ft_req *r, llm_call *k, int shown, int total)
{
    gn_err ce;
    if ((r->status = llm_call_status(k, &ce))) {
        r->err = ce;
        ft->stats.failures++;
        return;
    }
    char *text = trimmed(llm_call_text(k));
    if (r->kind == SUQL_FT_VERIFY) {
        int yn = yes_no(text);
        if (yn < 0) {
            r->status = gn_err_set(&r->err, GN_EPARSE, "verify: the LLM's reply \"%.80s\" is "
                                   "neither Yes nor No", text);
            ft->stats.failures++;
            free(text);
            return;
        }
        r->yes = yn;
    } else if (r->kind == SUQL_FT_ANSWER) {
        list_on_one_line(text);
        plain_no_info(text);
        if (!strcmp(text, "no info") && shown < total) {
            free(text);
            text = xasprintf("no info in the %d of %d passages read", shown, total);
        }
    }
    char key[65];
    key_of(r, key);
    memo *m = memo_add(ft, key, r->kind == SUQL_FT_VERIFY ? NULL : text, r->yes, 0);
    r->text = m->text;
    free(text);
}

static const int stage_of[] = {
    [SUQL_FT_ANSWER] = LLM_STAGE_ANSWER,
    [SUQL_FT_SUMMARY] = LLM_STAGE_SUMMARY,
    [SUQL_FT_VERIFY] = LLM_STAGE_VERIFY,
};

/* ---- verdicts of several rows ------------------------------------------------- */

/* The verdict of one reply line [S, END): 1 or 0 with *ROW set, or -1. */
static int verdict_line(const char *s, const char *end, long *row)
{
    while (s < end && strchr(" \t*-#>_`[", *s)) s++;
    if (end - s >= 3 && !strncasecmp(s, "row", 3)) {
        s += 3;
        while (s < end && (*s == ' ' || *s == '\t')) s++;
    }
    if (s >= end || !isdigit((unsigned char)*s)) return -1;
    long k = 0;
    while (s < end && isdigit((unsigned char)*s) && k < 1000000) k = k * 10 + (*s++ - '0');
    while (s < end && strchr(" \t:.)]-*=", *s)) s++;
    int yes;
    if (end - s >= 3 && !strncasecmp(s, "yes", 3) && (end - s == 3 || !isalpha((unsigned char)s[3])))
        yes = 1;
    else if (end - s >= 2 && !strncasecmp(s, "no", 2) && (end - s == 2 || !isalpha((unsigned char)s[2])))
        yes = 0;
    else
        return -1;
    *row = k;
    return yes;
}

/* A verdict as JSON gives it: "Yes"/"No" (any case), or true/false. */
static int json_verdict(const cJSON *v)
{
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    if (!cJSON_IsString(v)) return -1;
    const char *s = v->valuestring;
    return !strcasecmp(s, "yes") ? 1 : !strcasecmp(s, "no") ? 0 : -1;
}

/* The verdicts of a reply written as JSON: {"1": "Yes", "2": "No"}, an
 * array of N verdicts in row order, or an array of objects with a row
 * number and a verdict ({"row": 1, "answer": "Yes"}).  Returns how many
 * rows it decided (OUT as suql_ft_verdicts), 0 when it is not that. */
static int json_verdicts(const char *reply, int n, int *out)
{
    const char *a = strpbrk(reply, "{[");
    if (!a) return 0;
    const char *z = strrchr(reply, *a == '{' ? '}' : ']');
    if (!z || z < a) return 0;
    cJSON *j = cJSON_ParseWithLength(a, (size_t)(z - a + 1));
    int decided = 0;
    if (cJSON_IsObject(j)) {
        for (cJSON *k = j->child; k; k = k->next) {
            long row = k->string ? strtol(k->string + strspn(k->string, "Row row#"), NULL, 10) : 0;
            int v = json_verdict(k);
            if (row >= 1 && row <= n && v >= 0 && out[row - 1] < 0) out[row - 1] = v, decided++;
        }
    } else if (cJSON_IsArray(j) && cJSON_GetArraySize(j) == n && json_verdict(j->child) >= 0) {
        int i = 0;
        for (cJSON *k = j->child; k; k = k->next, i++) {
            int v = json_verdict(k);
            if (v >= 0) out[i] = v, decided++;
        }
    } else if (cJSON_IsArray(j)) {
        for (cJSON *k = j->child; k; k = k->next) {
            const cJSON *row = NULL, *v = NULL;
            for (cJSON *f = k->child; f; f = f->next) {
                if (cJSON_IsNumber(f) && !row) row = f;
                else if (json_verdict(f) >= 0 && !v) v = f;
            }
            long r = row ? (long)row->valuedouble : 0;
            if (r >= 1 && r <= n && v && out[r - 1] < 0) out[r - 1] = json_verdict(v), decided++;
        }
    }
    cJSON_Delete(j);
    return decided;
}

/* N lines each a verdict alone, without row numbers: in row order. */
static int ordered_verdicts(const char *reply, int n, int *out)
{
    int k = 0, v[64];
    for (const char *p = reply; p && *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p);
        int x = line_verdict(p, end, 1);
        if (x >= 0) {
            if (k == n || k == 64) return 0;
            v[k++] = x;
        }
        p = eol ? eol + 1 : end;
    }
    if (k != n) return 0;
    for (int i = 0; i < n; i++) out[i] = v[i];
    return n;
}

static int numbered_verdicts(const char *reply, int n, int *out)
{
    enum { NONE = -2, BOTH = -3 };
    for (int i = 0; i < n; i++) out[i] = NONE;
    for (const char *p = reply; p && *p;) {
        const char *eol = strchr(p, '\n');
        const char *end = eol ? eol : p + strlen(p);
        long row;
        int v = verdict_line(p, end, &row);
        if (v >= 0 && row >= 1 && row <= n) {
            int *o = &out[row - 1];
            *o = *o == NONE ? v : *o == v ? v : BOTH;
        }
        p = eol ? eol + 1 : end;
    }
    int decided = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] < 0) out[i] = -1;
        else decided++;
    }
    return decided;
}

int suql_ft_verdicts(const char *reply, int n, int *out)
{
    int d = numbered_verdicts(reply, n, out);
    if (d) return d;
    /* Models also answer as JSON, or one verdict a line without the row
     * numbers the prompt asks for. */
    if ((d = json_verdicts(reply, n, out))) return d;
    return n > 1 ? ordered_verdicts(reply, n, out) : 0;
}

/* ---- the LLM calls of a run ----------------------------------------------------- */

/* A verification waiting to be batched: its request and its documents. */
typedef struct { suql_ft_req *r; cJSON *docs; } pending;

/* One call: a request alone, or the rows (indexes into the pending list)
 * of a batched verification. */
typedef struct {
    suql_ft_req *one;
    int *rows, nrows;
    int shown, total;         /* ONE: passages its prompt showed, of all */
    llm_prompt prompt;
} flight;

static void fail_flight(suql_ft *ft, flight *f, const pending *pv, const gn_err *err)
{
    for (int i = 0; i < (f->one ? 1 : f->nrows); i++) {
        suql_ft_req *r = f->one ? f->one : pv[f->rows[i]].r;
        r->status = err->code;
        r->err = *err;
        ft->stats.failures++;
    }
}

/* Submit F, whose prompt is rendered, into *G (made on first use). */
static void launch(suql_ft *ft, llm_group **g, flight *f, int stage, const pending *pv)
{
    if (!*g) *g = llm_group_new(ft->cfg.client);
    llm_call_opts o = { .stage = stage, .msgs = f->prompt.msgs, .nmsgs = f->prompt.n, .tag = f };
    gn_err err;
    if (llm_group_submit(*g, &o, NULL, &err)) fail_flight(ft, f, pv, &err);
}

/* F asks R alone, about DOCS. */
static void launch_one(suql_ft *ft, llm_group **g, flight *f, suql_ft_req *r, const cJSON *docs)
{
    f->one = r;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(docs, "excerpt");
    f->shown = cJSON_IsObject(x) ? cJSON_GetObjectItemCaseSensitive(x, "shown")->valueint : 0;
    f->total = cJSON_IsObject(x) ? cJSON_GetObjectItemCaseSensitive(x, "total")->valueint : 0;
    if ((r->status = render(ft, r, docs, &f->prompt, &r->err))) ft->stats.failures++;
    else launch(ft, g, f, stage_of[r->kind], NULL);
}

/* F asks the verifications PV[ROWS[N]] (one filter) together. */
static void launch_rows(suql_ft *ft, llm_group **g, flight *f, const pending *pv, int *rows, int n)
{
    f->rows = rows;
    f->nrows = n;
    cJSON *d = cJSON_CreateObject();
    add_condition(d, pv[rows[0]].r);
    cJSON_AddNumberToObject(d, "count", n);
    cJSON *arr = cJSON_AddArrayToObject(d, "rows");
    for (int i = 0; i < n; i++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddNumberToObject(row, "n", i + 1);
        const cJSON *m;
        cJSON_ArrayForEach(m, pv[rows[i]].docs) cJSON_AddItemToObject(row, m->string, cJSON_Duplicate(m, 1));
        cJSON_AddItemToArray(arr, row);
    }
    gn_err err;
    if (llm_prompt_render(ft->cfg.verify_rows_tpl, d, &f->prompt, &err)) fail_flight(ft, f, pv, &err);
    else launch(ft, g, f, LLM_STAGE_VERIFY, pv);
    cJSON_Delete(d);
}

/* Take the reply to the rows of F; rows without a clear verdict are
 * appended to RETRY. */
static void accept_rows(suql_ft *ft, flight *f, const pending *pv, llm_call *k, int *retry,
                        int *nretry)
{
    gn_err ce;
    if (llm_call_status(k, &ce)) {
        fail_flight(ft, f, pv, &ce);
        return;
    }
    int *v = xcalloc((size_t)f->nrows, sizeof *v);
    suql_ft_verdicts(llm_call_text(k), f->nrows, v);
    for (int i = 0; i < f->nrows; i++) {
        suql_ft_req *r = pv[f->rows[i]].r;
        if (v[i] < 0) {
            retry[(*nretry)++] = f->rows[i];
            continue;
        }
        r->yes = v[i];
        char key[65];
        key_of(r, key);
        memo_add(ft, key, NULL, r->yes, 0);
        ft->stats.batched++;
    }
    free(v);
}

static int same_filter(const suql_ft_req *a, const suql_ft_req *b)
{
    return !strcmp(a->field ? a->field : "text", b->field ? b->field : "text") &&
           !strcmp(a->question, b->question) && !strcmp(a->op, b->op) && !strcmp(a->rhs, b->rhs);
}

/* Wait for the calls of G (freed), taking each reply. */
static void drain(suql_ft *ft, llm_group *g, const pending *pv, int *retry, int *nretry)
{
    if (!g) return;
    for (llm_call *k; (k = llm_group_next(g));) {
        flight *f = llm_call_tag(k);
        llm_call_info info;
        llm_call_info_get(k, &info);
        if (info.cached) ft->stats.cache_hits++;
        else if (info.sent) ft->stats.llm_calls++;
        if (f->one) accept(ft, f->one, k, f->shown, f->total);
        else accept_rows(ft, f, pv, k, retry, nretry);
    }
    llm_group_free(g);
}

int suql_ft_run(suql_ft *ft, suql_ft_req *reqs, int n, gn_err *e)
{
    for (int i = 0; i < n; i++) {
        suql_ft_req *r = &reqs[i];
        if ((r->kind != SUQL_FT_SUMMARY && !r->question) ||
            (r->kind == SUQL_FT_VERIFY && (!r->op || !r->rhs || !suql_ft_verifiable(r->op, r->rhs))))
            return gn_err_set(e, GN_EUSAGE, "malformed free-text request %d", i);
    }
    int batch = suql_ft_batch(ft);
    llm_group *g = NULL;
    flight *fl = xcalloc((size_t)n + 1, sizeof *fl);
    pending *pv = xcalloc((size_t)n + 1, sizeof *pv);
    int nfl = 0, npv = 0;
    /* A request asked twice in one run (the same question of the same text
     * in two columns) is asked once: the second is its first's twin, a
     * memo hit, given the first's answer when it comes. */
    char (*keys)[65] = xcalloc((size_t)n + 1, sizeof *keys);
    int *twin = xcalloc((size_t)n + 1, sizeof *twin);   /* 1 + the first's index, or 0 */
    size_t cap = 16;
    while (cap < 2 * (size_t)n) cap *= 2;
    int *asked = xcalloc(cap, sizeof *asked);           /* open addressing: 1 + index */
    for (int i = 0; i < n; i++) {
        suql_ft_req *r = &reqs[i];
        r->text = NULL;
        r->yes = r->offline = r->memo = r->status = 0;
        gn_err_clear(&r->err);
        ft->stats.requests++;
        if (!r->value) continue;                      /* NULL in, NULL out */
        char *key = keys[i];
        key_of(r, key);
        memo *m = memo_find(ft, key);
        if (m) {
            r->text = m->text;
            r->yes = m->yes;
            r->offline = m->offline;
            r->memo = 1;
            ft->stats.memo_hits++;
            continue;
        }
        size_t h = key_hash(key) & (cap - 1);
        while (asked[h] && strcmp(keys[asked[h] - 1], key)) h = (h + 1) & (cap - 1);
        if (asked[h]) twin[i] = asked[h];
        else asked[h] = i + 1;
        if (twin[i]) {
            r->memo = 1;
            ft->stats.memo_hits++;
            continue;
        }
        texts ps;
        passages(r->value, &ps);
        cJSON *docs = NULL;
        if (!ft->cfg.client || (r->kind == SUQL_FT_SUMMARY && ft->cfg.summary_extractive)) {
            r->status = run_offline(ft, r, &ps, &r->err);
            if (r->status) ft->stats.failures++;
        } else if (!ps.n && r->kind != SUQL_FT_VERIFY) {
            memo *mm = memo_add(ft, key, LLM_OFFLINE_NO_INFO, 0, 0);   /* nothing to read */
            r->text = mm->text;
        } else if (!ps.n) {
            /* Nothing to read: judged as offline judges it, the text says
             * no "Yes" (so `<> 'Yes'` holds and `= 'Yes'` does not). */
            r->yes = holds(r->op, r->rhs, 0);
            memo_add(ft, key, NULL, r->yes, 0);
        } else if ((r->status = docs_of(ft, r, &ps, &docs, &r->err))) {
            ft->stats.failures++;
        } else if (r->kind == SUQL_FT_VERIFY && batch > 1) {
            pv[npv++] = (pending){ r, docs };
            docs = NULL;
        } else {
            launch_one(ft, &g, &fl[nfl++], r, docs);
        }
        cJSON_Delete(docs);
        texts_free(&ps);
    }
    /* The verifications: rows of the same filter, up to BATCH a call. */
    int *taken = xcalloc((size_t)npv + 1, sizeof *taken);
    for (int i = 0; i < npv; i++) {
        if (taken[i]) continue;
        int *rows = xcalloc((size_t)batch, sizeof *rows), nr = 0;
        for (int j = i; j < npv && nr < batch; j++)
            if (!taken[j] && same_filter(pv[i].r, pv[j].r)) {
                taken[j] = 1;
                rows[nr++] = j;
            }
        if (nr == 1) {
            launch_one(ft, &g, &fl[nfl++], pv[i].r, pv[i].docs);
            free(rows);
        } else {
            launch_rows(ft, &g, &fl[nfl++], pv, rows, nr);
        }
    }
    free(taken);
    int *retry = xcalloc((size_t)npv + 1, sizeof *retry), nretry = 0;
    drain(ft, g, pv, retry, &nretry);
    /* Rows a batched reply left undecided: each asked alone. */
    flight *again = xcalloc((size_t)nretry + 1, sizeof *again);
    g = NULL;
    for (int i = 0; i < nretry; i++) launch_one(ft, &g, &again[i], pv[retry[i]].r, pv[retry[i]].docs);
    drain(ft, g, pv, NULL, NULL);
    for (int i = 0; i < n; i++) {
        if (!twin[i]) continue;
        const suql_ft_req *f = &reqs[twin[i] - 1];
        reqs[i].text = f->text;
        reqs[i].yes = f->yes;
        reqs[i].offline = f->offline;
        reqs[i].status = f->status;
        reqs[i].err = f->err;
    }
    free(twin);
    free(asked);
    free(keys);
    for (int i = 0; i < nretry; i++) llm_prompt_release(&again[i].prompt);
    for (int i = 0; i < nfl; i++) {
        llm_prompt_release(&fl[i].prompt);
        free(fl[i].rows);
    }
    for (int i = 0; i < npv; i++) cJSON_Delete(pv[i].docs);
    free(again);
    free(retry);
    free(fl);
    free(pv);
    return 0;
}
