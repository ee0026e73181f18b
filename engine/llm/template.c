/*
 * template.c — compiling and rendering prompt templates (template.h).
 *
 * What: the parser cuts the text into a flat array of nodes (text, variable,
 * section, inverted section) in document order; a section node records the
 * index one past its last child, so its body is the contiguous range after
 * it and rendering is a recursive walk over ranges with a stack of contexts.
 * Standalone lines and literal tags are resolved at compile time, so the
 * renderer only copies text and looks values up.
 *
 * Invariant: a compiled template is well-formed (every section closed, names
 * valid and pre-split into segments, nesting at most LLM_TPL_MAX_DEPTH), so
 * the context stack of a render never exceeds LLM_TPL_MAX_DEPTH + 1 and no
 * render-time error is syntactic; one render adds at most max_output bytes
 * and visits at most max_steps nodes, whatever the data.
 *
 * Rejected: full Mustache — partials (templates loading templates: file
 * access from template text, recursion), lambdas (data that runs code: a
 * prompt must never execute anything) and set-delimiter tags (a second
 * syntax for one need; the quoted literal tag covers literal braces);
 * HTML escaping (prompts are not HTML: escaping would corrupt them);
 * missing names rendering as "" as in Mustache (a typo would silently drop
 * part of a prompt); re-parsing the text on every render (positions and
 * syntax errors belong to load time; the node array is cheap to walk);
 * a backslash escape for braces (prompts quote code and LaTeX, where
 * backslashes are common).
 */
#include "llm/template.h"
#include "util/fs.h"
#include "util/xmem.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { N_TEXT, N_VAR, N_SECTION, N_INVERTED };

typedef struct node {
    enum kind kind;
    int line, col;     /* of the tag's first '{', or of the text's first byte */
    int end;           /* sections: index one past the last child */
    char *str;         /* text: the bytes; others: the dotted name */
    size_t len;        /* length of str */
    char *segs;        /* names: segments separated by NUL; NULL for "." */
    int nseg;
} node;

struct llm_tpl {
    char *name;
    node *v;
    int n, cap;
    size_t max_output;
    unsigned long max_steps;
};

/* ---- compiling ---------------------------------------------------------- */

typedef struct parser {
    llm_tpl *t;
    const char *s;
    size_t n;
    size_t pos;                   /* start of text not yet turned into nodes */
    size_t lc_at;                 /* offset whose line/col are lc_line/lc_col */
    int lc_line, lc_col;
    int open[LLM_TPL_MAX_DEPTH];  /* indices of the open section nodes */
    int depth;
    gn_err *e;
} parser;

/* One tag as scanned: [at, end) covers it from "{{" to "}}" inclusive. */
typedef struct tag {
    size_t at, end;
    char sigil;        /* 0 variable, '#', '^', '/', '!', or 'L' literal */
    const char *body;  /* name, or literal text */
    size_t blen;
    int line, col;
} tag;

static node *add_node(llm_tpl *t, enum kind k)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    node *nd = &t->v[t->n++];
    memset(nd, 0, sizeof *nd);
    nd->kind = k;
    return nd;
}

static void add_text(parser *p, const char *s, size_t len, int line, int col)
{
    if (len == 0) return;
    node *nd = add_node(p->t, N_TEXT);
    nd->str = xstrndup(s, len);
    nd->len = len;
    nd->line = line;
    nd->col = col;
}

/* Line and column of offset AT; offsets asked for never decrease. */
static void where(parser *p, size_t at, int *line, int *col)
{
    for (; p->lc_at < at; p->lc_at++) {
        unsigned char c = (unsigned char)p->s[p->lc_at];
        if (c == '\n') {
            p->lc_line++;
            p->lc_col = 1;
        } else if ((c & 0xC0) != 0x80) {
            p->lc_col++;
        }
    }
    *line = p->lc_line;
    *col = p->lc_col;
}

static int perr(parser *p, const tag *tg, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An error at TG's position. */
static int perr(parser *p, const tag *tg, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gn_err_setpos(p->e, code, p->t->name, tg->line, tg->col, "%s", msg);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static void trim(const char **s, size_t *len)
{
    while (*len && (is_blank(**s) || **s == '\n' || **s == '\r')) (*s)++, (*len)--;
    while (*len && (is_blank((*s)[*len - 1]) || (*s)[*len - 1] == '\n' ||
                    (*s)[*len - 1] == '\r')) (*len)--;
}

/* A name is "." or segments of bytes above ' ' other than '.', '{', '}',
 * joined by single dots. */
static int valid_name(const char *s, size_t len)
{
    if (len == 1 && s[0] == '.') return 1;
    int seg = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.') {
            if (!seg) return 0;
            seg = 0;
        } else if (c <= ' ' || c == '{' || c == '}' || c == 127) {
            return 0;
        } else {
            seg = 1;
        }
    }
    return seg;
}

/* {{'text'}} or {{"text"}}: Q is the offset of the opening quote. */
static int scan_literal(parser *p, tag *tg, size_t q)
{
    const char *close = strchr(p->s + q + 1, p->s[q]);
    if (!close) return perr(p, tg, GN_EPARSE, "unterminated literal: no closing %c", p->s[q]);
    size_t i = (size_t)(close - p->s) + 1;
    while (is_blank(p->s[i])) i++;
    if (p->s[i] != '}' || p->s[i + 1] != '}')
        return perr(p, tg, GN_EPARSE, "expected '}}' after the quoted literal");
    tg->sigil = 'L';
    tg->body = p->s + q + 1;
    tg->blen = (size_t)(close - p->s) - q - 1;
    tg->end = i + 2;
    return 0;
}

/* A comment ends at the first "}}", on any line. */
static int scan_comment(parser *p, tag *tg, size_t from)
{
    const char *close = strstr(p->s + from, "}}");
    if (!close) return perr(p, tg, GN_EPARSE, "unterminated comment: no '}}'");
    tg->sigil = '!';
    tg->end = (size_t)(close - p->s) + 2;
    return 0;
}

/* Any other tag ends on its own line, at "}}" ("}}}" after "{{{"). */
static int scan_plain(parser *p, tag *tg)
{
    size_t b = tg->at + 2;
    int triple = p->s[b] == '{';
    const char *closer = triple ? "}}}" : "}}";
    const char *eol = strchrnul(p->s + b, '\n');
    const char *close = memmem(p->s + b, (size_t)(eol - p->s) - b, closer, strlen(closer));
    if (!close)
        return perr(p, tg, GN_EPARSE, "unterminated tag: no '%s' on the same line", closer);
    tg->end = (size_t)(close - p->s) + strlen(closer);
    tg->body = p->s + b + triple;
    tg->blen = (size_t)(close - tg->body);
    trim(&tg->body, &tg->blen);
    tg->sigil = 0;
    if (!triple && tg->blen && strchr("#^/&>=", tg->body[0])) {
        tg->sigil = tg->body[0] == '&' ? 0 : tg->body[0];
        tg->body++, tg->blen--;
        trim(&tg->body, &tg->blen);
    }
    return 0;
}

static int scan_tag(parser *p, size_t at, tag *tg)
{
    memset(tg, 0, sizeof *tg);
    tg->at = at;
    where(p, at, &tg->line, &tg->col);
    size_t i = at + 2;
    while (is_blank(p->s[i])) i++;
    if (p->s[i] == '!') return scan_comment(p, tg, i + 1);
    if (p->s[i] == '\'' || p->s[i] == '"') return scan_literal(p, tg, i);
    return scan_plain(p, tg);
}

/* The standalone rule: a section, closing or comment tag alone on its line
 * (spaces and tabs aside) takes the whole line with it.  Sets *text_end to
 * where the preceding text stops and *next to where text resumes. */
static void standalone(const parser *p, const tag *tg, size_t *text_end, size_t *next)
{
    *text_end = tg->at;
    *next = tg->end;
    if (!tg->sigil || !strchr("#^/!", tg->sigil)) return;
    size_t k = tg->at;
    while (k > p->pos && is_blank(p->s[k - 1])) k--;
    if (k > 0 && p->s[k - 1] != '\n') return;
    size_t j = tg->end;
    while (is_blank(p->s[j])) j++;
    if (p->s[j] == '\r' && p->s[j + 1] == '\n') j += 2;
    else if (p->s[j] == '\n') j++;
    else if (p->s[j] != 0) return;
    *text_end = k;
    *next = j;
}

static int add_name(parser *p, const tag *tg, enum kind k)
{
    if (tg->blen == 0) return perr(p, tg, GN_EPARSE, "empty tag");
    char *name = xstrndup(tg->body, tg->blen);
    if (!valid_name(name, tg->blen)) {
        int rc = perr(p, tg, GN_EPARSE, "invalid name '%s'", name);
        free(name);
        return rc;
    }
    node *nd = add_node(p->t, k);
    nd->str = name;
    nd->len = tg->blen;
    nd->line = tg->line;
    nd->col = tg->col;
    if (strcmp(name, ".") == 0) return 0;
    nd->segs = xstrdup(name);
    nd->nseg = 1;
    for (char *c = nd->segs; *c; c++)
        if (*c == '.') *c = 0, nd->nseg++;
    return 0;
}

static int open_section(parser *p, const tag *tg)
{
    if (p->depth == LLM_TPL_MAX_DEPTH)
        return gn_err_setpos(p->e, GN_ELIMIT, p->t->name, tg->line, tg->col,
                             "sections nested deeper than %d", LLM_TPL_MAX_DEPTH);
    int rc = add_name(p, tg, tg->sigil == '#' ? N_SECTION : N_INVERTED);
    if (rc == 0) p->open[p->depth++] = p->t->n - 1;
    return rc;
}

static int close_section(parser *p, const tag *tg)
{
    if (tg->blen == 0) return perr(p, tg, GN_EPARSE, "empty tag");
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(tg->blen < 100 ? tg->blen : 100), tg->body);
    if (p->depth == 0)
        return perr(p, tg, GN_EPARSE, "'{{/%s}}' closes nothing: no section is open", name);
    node *o = &p->t->v[p->open[p->depth - 1]];
    if (o->len != tg->blen || memcmp(o->str, tg->body, tg->blen) != 0)
        return gn_err_setpos(p->e, GN_EPARSE, p->t->name, tg->line, tg->col,
                             "'{{/%s}}' does not match the open section '%s' (opened at %d:%d)",
                             name, o->str, o->line, o->col);
    o->end = p->t->n;
    p->depth--;
    return 0;
}

static int apply_tag(parser *p, const tag *tg)
{
    switch (tg->sigil) {
    case '#': case '^': return open_section(p, tg);
    case '/': return close_section(p, tg);
    case '!': return 0;
    case 'L': add_text(p, tg->body, tg->blen, tg->line, tg->col); return 0;
    case '>': return perr(p, tg, GN_EPARSE, "partials ('{{>') are not supported");
    case '=':
        return perr(p, tg, GN_EPARSE, "delimiter changes ('{{=') are not supported; "
                    "write {{'{{'}} for literal braces");
    default: return add_name(p, tg, N_VAR);
    }
}

static int parse_all(parser *p)
{
    const char *open;
    int line, col;
    while ((open = strstr(p->s + p->pos, "{{")) != NULL) {
        tag tg;
        size_t text_end, next;
        where(p, p->pos, &line, &col);
        int rc = scan_tag(p, (size_t)(open - p->s), &tg);
        if (rc) return rc;
        standalone(p, &tg, &text_end, &next);
        add_text(p, p->s + p->pos, text_end - p->pos, line, col);
        if ((rc = apply_tag(p, &tg)) != 0) return rc;
        p->pos = next;
    }
    where(p, p->pos, &line, &col);
    add_text(p, p->s + p->pos, p->n - p->pos, line, col);
    if (p->depth == 0) return 0;
    const node *o = &p->t->v[p->open[p->depth - 1]];
    return gn_err_setpos(p->e, GN_EPARSE, p->t->name, o->line, o->col,
                         "unclosed section '%s'", o->str);
}

int llm_tpl_parse(const char *name, const char *text, llm_tpl **out, gn_err *e)
{
    *out = NULL;
    llm_tpl *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(name ? name : "<template>");
    t->max_output = LLM_TPL_MAX_OUTPUT;
    t->max_steps = LLM_TPL_MAX_STEPS;
    parser p = { .t = t, .s = text ? text : "", .lc_line = 1, .lc_col = 1, .e = e };
    p.n = strlen(p.s);
    int rc = parse_all(&p);
    if (rc) {
        llm_tpl_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void llm_tpl_free(llm_tpl *t)
{
    if (!t) return;
    for (int i = 0; i < t->n; i++) {
        free(t->v[i].str);
        free(t->v[i].segs);
    }
    free(t->v);
    free(t->name);
    free(t);
}

const char *llm_tpl_name(const llm_tpl *t) { return t->name; }

void llm_tpl_set_limits(llm_tpl *t, size_t max_output, unsigned long max_steps)
{
    if (max_output) t->max_output = max_output;
    if (max_steps) t->max_steps = max_steps;
}

/* ---- rendering ---------------------------------------------------------- */

typedef struct rstate {
    const llm_tpl *t;
    const cJSON *ctx[LLM_TPL_MAX_DEPTH + 1];  /* ctx[0] is the data root */
    int depth;
    gn_buf *out;
    size_t start;              /* out->len when the render began */
    unsigned long steps;
    gn_err *e;
} rstate;

static int render_range(rstate *r, int from, int to);

/* Charge one step (a node visited or a section entered) to the budget, so
 * even loops with empty bodies are bounded. */
static int step(rstate *r, const node *nd)
{
    if (++r->steps <= r->t->max_steps) return 0;
    return gn_err_setpos(r->e, GN_ELIMIT, r->t->name, nd->line, nd->col,
                         "rendering exceeds the limit of %lu steps", r->t->max_steps);
}

static int emit(rstate *r, const node *nd, const char *s, size_t n)
{
    if (r->out->len - r->start + n > r->t->max_output)
        return gn_err_setpos(r->e, GN_ELIMIT, r->t->name, nd->line, nd->col,
                             "output exceeds the limit of %zu bytes", r->t->max_output);
    gn_buf_add(r->out, s, n);
    return 0;
}

/* Member SEG of V: an object key, or an index when V is an array. */
static const cJSON *member(const cJSON *v, const char *seg)
{
    if (cJSON_IsObject(v)) return cJSON_GetObjectItemCaseSensitive(v, seg);
    if (!cJSON_IsArray(v) || !seg[0] || strspn(seg, "0123456789") != strlen(seg) ||
        strlen(seg) > 9)
        return NULL;
    return cJSON_GetArrayItem(v, atoi(seg));
}

static int undefined(rstate *r, const node *nd, int seg)
{
    if (seg == 0)
        return gn_err_setpos(r->e, GN_ENOTFOUND, r->t->name, nd->line, nd->col,
                             "undefined variable '%s'", nd->str);
    const char *s = nd->segs;
    size_t prefix = 0;
    for (int i = 0; i < seg; i++) prefix += strlen(s + prefix) + 1;
    return gn_err_setpos(r->e, GN_ENOTFOUND, r->t->name, nd->line, nd->col,
                         "undefined variable '%s': '%.*s' has no member '%s'",
                         nd->str, (int)prefix - 1, nd->str, s + prefix);
}

/* The value ND names: the first segment from the innermost context that
 * has it, the others inside that value. */
static int resolve(rstate *r, const node *nd, const cJSON **out)
{
    if (!nd->segs) {
        if (r->depth == 0) return undefined(r, nd, 0);
        *out = r->ctx[r->depth - 1];
        return 0;
    }
    const cJSON *v = NULL;
    for (int i = r->depth - 1; i >= 0 && !v; i--)
        if (cJSON_IsObject(r->ctx[i])) v = member(r->ctx[i], nd->segs);
    if (!v) return undefined(r, nd, 0);
    const char *seg = nd->segs;
    for (int k = 1; k < nd->nseg; k++) {
        seg += strlen(seg) + 1;
        if (!(v = member(v, seg))) return undefined(r, nd, k);
    }
    *out = v;
    return 0;
}

/* Shortest "%.*g" that reads back as V. */
static void format_number(double v, char *s, size_t size)
{
    if (!isfinite(v)) {
        snprintf(s, size, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e18) {
        snprintf(s, size, "%lld", (long long)v);
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(s, size, "%.*g", prec, v);
        if (strtod(s, NULL) == v) break;
    }
}

static int emit_value(rstate *r, const node *nd, const cJSON *v)
{
    char num[64];
    if (cJSON_IsString(v) || cJSON_IsRaw(v))
        return v->valuestring ? emit(r, nd, v->valuestring, strlen(v->valuestring)) : 0;
    if (cJSON_IsNumber(v)) {
        format_number(v->valuedouble, num, sizeof num);
        return emit(r, nd, num, strlen(num));
    }
    if (cJSON_IsBool(v)) return emit(r, nd, cJSON_IsTrue(v) ? "true" : "false",
                                     cJSON_IsTrue(v) ? 4 : 5);
    if (cJSON_IsNull(v)) return 0;
    char *json = cJSON_PrintUnformatted(v);
    int rc = json ? emit(r, nd, json, strlen(json)) : 0;
    cJSON_free(json);
    return rc;
}

static int truthy(const cJSON *v)
{
    if (cJSON_IsFalse(v) || cJSON_IsNull(v)) return 0;
    if (cJSON_IsArray(v)) return v->child != NULL;
    if (cJSON_IsString(v)) return v->valuestring && v->valuestring[0];
    return 1;
}

static int r_text(rstate *r, int i)
{
    const node *nd = &r->t->v[i];
    return emit(r, nd, nd->str, nd->len);
}

static int r_var(rstate *r, int i)
{
    const cJSON *v;
    int rc = resolve(r, &r->t->v[i], &v);
    return rc ? rc : emit_value(r, &r->t->v[i], v);
}

/* The body of section I with V as the current context. */
static int body_with(rstate *r, int i, const cJSON *v)
{
    int rc = step(r, &r->t->v[i]);
    if (rc) return rc;
    r->ctx[r->depth++] = v;
    rc = render_range(r, i + 1, r->t->v[i].end);
    r->depth--;
    return rc;
}

static int r_section(rstate *r, int i)
{
    const cJSON *v;
    int rc = resolve(r, &r->t->v[i], &v);
    if (rc || !truthy(v)) return rc;
    if (!cJSON_IsArray(v)) return body_with(r, i, v);
    for (const cJSON *item = v->child; item; item = item->next)
        if ((rc = body_with(r, i, item)) != 0) return rc;
    return 0;
}

static int r_inverted(rstate *r, int i)
{
    const cJSON *v;
    int rc = resolve(r, &r->t->v[i], &v);
    if (rc || truthy(v)) return rc;
    return render_range(r, i + 1, r->t->v[i].end);
}

/* By node kind. */
static int (*const render_node[])(rstate *, int) = {
    [N_TEXT] = r_text, [N_VAR] = r_var, [N_SECTION] = r_section, [N_INVERTED] = r_inverted,
};

static int render_range(rstate *r, int from, int to)
{
    for (int i = from; i < to;) {
        const node *nd = &r->t->v[i];
        int rc = step(r, nd);
        if (rc || (rc = render_node[nd->kind](r, i)) != 0) return rc;
        i = nd->kind == N_SECTION || nd->kind == N_INVERTED ? nd->end : i + 1;
    }
    return 0;
}

int llm_tpl_render(const llm_tpl *t, const cJSON *data, gn_buf *out, gn_err *e)
{
    rstate r = { .t = t, .out = out, .start = out->len, .e = e };
    if (data) r.ctx[r.depth++] = data;
    int rc = render_range(&r, 0, t->n);
    if (rc) {
        out->len = r.start;
        out->data[out->len] = 0;
    }
    return rc;
}

/* ---- loading ------------------------------------------------------------ */

/* NAME must be relative and stay inside the directory searched. */
static int name_ok(const char *name)
{
    if (!name || !name[0] || name[0] == '/') return 0;
    for (const char *c = name; c;) {
        if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == 0)) return 0;
        c = strchr(c, '/');
        if (c) c++;
    }
    return 1;
}

/* Read PATH whole into *text (caller frees).  GN_ENOTFOUND when absent
 * (E untouched then). */
static int read_file(const char *path, char **text, gn_err *e)
{
    gn_err why;
    size_t len = 0;
    int rc = gn_read_file(path, LLM_TPL_MAX_FILE, text, &len, &why);
    if (rc == GN_ENOTFOUND) return rc;
    if (rc) return gn_err_set(e, rc, "%s: %s", path, why.msg);
    if (memchr(*text, 0, len)) {
        free(*text);
        *text = NULL;
        return gn_err_set(e, GN_EPARSE, "%s: contains a NUL byte", path);
    }
    return 0;
}

static char *join_path(const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    return xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
}

int llm_tpl_load(const char *const *dirs, int ndirs, const char *name,
                 llm_tpl **out, gn_err *e)
{
    *out = NULL;
    if (!name_ok(name))
        return gn_err_set(e, GN_EUSAGE, "invalid prompt template name '%s'", name ? name : "");
    gn_buf tried;
    gn_buf_init(&tried);
    for (int i = 0; i < ndirs; i++) {
        if (!dirs[i] || !dirs[i][0]) continue;
        char *path = join_path(dirs[i], name), *text = NULL;
        int rc = read_file(path, &text, e);
        if (rc == GN_ENOTFOUND) {
            gn_buf_printf(&tried, "%s%s", tried.len ? ", " : "", dirs[i]);
            free(path);
            continue;
        }
        if (rc == 0) rc = llm_tpl_parse(path, text, out, e);
        free(text);
        free(path);
        gn_buf_release(&tried);
        return rc;
    }
    int rc = gn_err_set(e, GN_ENOTFOUND, "prompt template '%s' not found in: %s", name,
                        tried.len ? tried.data : "(no directories)");
    gn_buf_release(&tried);
    return rc;
}
