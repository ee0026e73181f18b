/*
 * value.c — values of the worksheet language: construction, copying,
 * Python-like truth, equality and ordering, printing and JSON.
 *
 * Values are small trees with one owner; there is no sharing and no
 * reference counting, because a dialogue state holds few values and deep
 * copies keep ownership obvious (a record's field owns its value, the
 * interpreter's temporaries are freed where they are made).  Records are
 * referred to by id, never by pointer, so a value never dangles when the
 * state grows.
 */
#include "worksheet/value.h"
#include "util/xmem.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ws_val *mk(enum ws_vkind k)
{
    ws_val *v = xcalloc(1, sizeof *v);
    v->kind = k;
    return v;
}

ws_val *ws_none(void) { return mk(WV_NONE); }
ws_val *ws_bool(int b) { ws_val *v = mk(WV_BOOL); v->u.b = !!b; return v; }
ws_val *ws_int(long long i) { ws_val *v = mk(WV_INT); v->u.i = i; return v; }
ws_val *ws_float(double f) { ws_val *v = mk(WV_FLOAT); v->u.f = f; return v; }
ws_val *ws_str(const char *s) { return ws_str_own(xstrdup(s ? s : "")); }
ws_val *ws_strn(const char *s, size_t n) { return ws_str_own(xstrndup(s, n)); }
ws_val *ws_str_own(char *s) { ws_val *v = mk(WV_STR); v->u.s = s; return v; }
ws_val *ws_list(void) { return mk(WV_LIST); }
ws_val *ws_dict(void) { return mk(WV_DICT); }
ws_val *ws_recref(int id) { ws_val *v = mk(WV_REC); v->u.rec = id; return v; }

static void grow(ws_val *c)
{
    if (c->u.c.n < c->u.c.cap) return;
    c->u.c.cap = c->u.c.cap ? 2 * c->u.c.cap : 4;
    c->u.c.items = xrealloc(c->u.c.items, (size_t)c->u.c.cap * sizeof *c->u.c.items);
    if (c->kind == WV_DICT)
        c->u.c.keys = xrealloc(c->u.c.keys, (size_t)c->u.c.cap * sizeof *c->u.c.keys);
}

void ws_list_add(ws_val *l, ws_val *item)
{
    grow(l);
    l->u.c.items[l->u.c.n++] = item;
}

void ws_dict_set(ws_val *d, const char *key, ws_val *v)
{
    for (int i = 0; i < d->u.c.n; i++)
        if (!strcmp(d->u.c.keys[i], key)) {
            ws_val_free(d->u.c.items[i]);
            d->u.c.items[i] = v;
            return;
        }
    grow(d);
    d->u.c.keys[d->u.c.n] = xstrdup(key);
    d->u.c.items[d->u.c.n++] = v;
}

const ws_val *ws_dict_get(const ws_val *d, const char *key)
{
    if (!d || d->kind != WV_DICT) return NULL;
    for (int i = 0; i < d->u.c.n; i++)
        if (!strcmp(d->u.c.keys[i], key)) return d->u.c.items[i];
    return NULL;
}

void ws_val_free(ws_val *v)
{
    if (!v) return;
    if (v->kind == WV_STR) free(v->u.s);
    if (v->kind == WV_LIST || v->kind == WV_DICT) {
        for (int i = 0; i < v->u.c.n; i++) {
            ws_val_free(v->u.c.items[i]);
            if (v->kind == WV_DICT) free(v->u.c.keys[i]);
        }
        free(v->u.c.items);
        free(v->u.c.keys);
    }
    free(v);
}

ws_val *ws_val_copy(const ws_val *v)
{
    if (!v) return NULL;
    switch (v->kind) {
    case WV_STR: return ws_str(v->u.s);
    case WV_LIST: {
        ws_val *l = ws_list();
        for (int i = 0; i < v->u.c.n; i++) ws_list_add(l, ws_val_copy(v->u.c.items[i]));
        return l;
    }
    case WV_DICT: {
        ws_val *d = ws_dict();
        for (int i = 0; i < v->u.c.n; i++) ws_dict_set(d, v->u.c.keys[i], ws_val_copy(v->u.c.items[i]));
        return d;
    }
    default: {
        ws_val *c = mk(v->kind);
        c->u = v->u;
        return c;
    }
    }
}

int ws_val_truthy(const ws_val *v)
{
    if (!v) return 0;
    switch (v->kind) {
    case WV_NONE: return 0;
    case WV_BOOL: return v->u.b;
    case WV_INT: return v->u.i != 0;
    case WV_FLOAT: return v->u.f != 0.0;
    case WV_STR: return v->u.s[0] != 0;
    case WV_LIST: case WV_DICT: return v->u.c.n > 0;
    case WV_REC: return 1;
    }
    return 0;
}

static int numeric(const ws_val *v, double *d)
{
    if (v->kind == WV_BOOL) *d = v->u.b;
    else if (v->kind == WV_INT) *d = (double)v->u.i;
    else if (v->kind == WV_FLOAT) *d = v->u.f;
    else return 0;
    return 1;
}

int ws_val_equal(const ws_val *a, const ws_val *b)
{
    double x, y;
    if (!a || !b) return a == b;
    if (numeric(a, &x) && numeric(b, &y)) return x == y;
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case WV_NONE: return 1;
    case WV_STR: return !strcmp(a->u.s, b->u.s);
    case WV_REC: return a->u.rec == b->u.rec;
    case WV_LIST: case WV_DICT:
        if (a->u.c.n != b->u.c.n) return 0;
        for (int i = 0; i < a->u.c.n; i++) {
            if (a->kind == WV_DICT) {
                const ws_val *o = ws_dict_get(b, a->u.c.keys[i]);
                if (!o || !ws_val_equal(a->u.c.items[i], o)) return 0;
            } else if (!ws_val_equal(a->u.c.items[i], b->u.c.items[i])) {
                return 0;
            }
        }
        return 1;
    default: return 0;
    }
}

int ws_val_compare(const ws_val *a, const ws_val *b, int *out)
{
    double x, y;
    if (numeric(a, &x) && numeric(b, &y)) {
        *out = (x > y) - (x < y);
        return 0;
    }
    if (a->kind == WV_STR && b->kind == WV_STR) {
        int c = strcmp(a->u.s, b->u.s);
        *out = (c > 0) - (c < 0);
        return 0;
    }
    if (a->kind == WV_LIST && b->kind == WV_LIST) {
        for (int i = 0; i < a->u.c.n && i < b->u.c.n; i++) {
            if (ws_val_compare(a->u.c.items[i], b->u.c.items[i], out)) return -1;
            if (*out) return 0;
        }
        *out = (a->u.c.n > b->u.c.n) - (a->u.c.n < b->u.c.n);
        return 0;
    }
    return -1;
}

const char *ws_val_type(const ws_val *v)
{
    static const char *const names[] = { "None", "bool", "int", "float", "str", "list", "dict",
                                         "record" };
    return v ? names[v->kind] : "None";
}

static void print_str(const char *s, gn_buf *out)
{
    gn_buf_putc(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') gn_buf_printf(out, "\\%c", c);
        else if (c == '\n') gn_buf_puts(out, "\\n");
        else if (c == '\t') gn_buf_puts(out, "\\t");
        else if (c == '\r') gn_buf_puts(out, "\\r");
        else if (c < 0x20) gn_buf_printf(out, "\\x%02x", c);
        else gn_buf_putc(out, (char)c);
    }
    gn_buf_putc(out, '"');
}

static void print_float(double f, gn_buf *out)
{
    char tmp[64];
    if (isnan(f)) { gn_buf_puts(out, "float(\"nan\")"); return; }
    if (isinf(f)) { gn_buf_puts(out, f > 0 ? "float(\"inf\")" : "-float(\"inf\")"); return; }
    snprintf(tmp, sizeof tmp, "%.15g", f);
    if (strtod(tmp, NULL) != f) snprintf(tmp, sizeof tmp, "%.17g", f);
    if (!strpbrk(tmp, ".eE")) strcat(tmp, ".0");
    gn_buf_puts(out, tmp);
}

void ws_val_print(const ws_val *v, gn_buf *out, ws_recname_fn recname, void *ud)
{
    if (!v) { gn_buf_puts(out, "None"); return; }
    switch (v->kind) {
    case WV_NONE: gn_buf_puts(out, "None"); break;
    case WV_BOOL: gn_buf_puts(out, v->u.b ? "True" : "False"); break;
    case WV_INT: gn_buf_printf(out, "%lld", v->u.i); break;
    case WV_FLOAT: print_float(v->u.f, out); break;
    case WV_STR: print_str(v->u.s, out); break;
    case WV_REC: {
        const char *n = recname ? recname(v->u.rec, ud) : NULL;
        if (n) gn_buf_puts(out, n);
        else gn_buf_printf(out, "record_%d", v->u.rec);
        break;
    }
    case WV_LIST: case WV_DICT:
        gn_buf_putc(out, v->kind == WV_LIST ? '[' : '{');
        for (int i = 0; i < v->u.c.n; i++) {
            if (i) gn_buf_puts(out, ", ");
            if (v->kind == WV_DICT) {
                print_str(v->u.c.keys[i], out);
                gn_buf_puts(out, ": ");
            }
            ws_val_print(v->u.c.items[i], out, recname, ud);
        }
        gn_buf_putc(out, v->kind == WV_LIST ? ']' : '}');
        break;
    }
}

cJSON *ws_val_to_json(const ws_val *v)
{
    if (!v) return cJSON_CreateNull();
    switch (v->kind) {
    case WV_NONE: return cJSON_CreateNull();
    case WV_BOOL: return cJSON_CreateBool(v->u.b);
    case WV_INT: return cJSON_CreateNumber((double)v->u.i);
    case WV_FLOAT: return cJSON_CreateNumber(v->u.f);
    case WV_STR: return cJSON_CreateString(v->u.s);
    case WV_REC: {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "$record", v->u.rec);
        return o;
    }
    case WV_LIST: case WV_DICT: {
        cJSON *c = v->kind == WV_LIST ? cJSON_CreateArray() : cJSON_CreateObject();
        for (int i = 0; i < v->u.c.n; i++) {
            cJSON *it = ws_val_to_json(v->u.c.items[i]);
            if (v->kind == WV_LIST) cJSON_AddItemToArray(c, it);
            else cJSON_AddItemToObject(c, v->u.c.keys[i], it);
        }
        return c;
    }
    }
    return cJSON_CreateNull();
}

ws_val *ws_val_from_json(const cJSON *j)
{
    if (!j || cJSON_IsNull(j)) return ws_none();
    if (cJSON_IsBool(j)) return ws_bool(cJSON_IsTrue(j));
    if (cJSON_IsNumber(j) || (cJSON_IsRaw(j) && j->valuestring)) {
        /* A raw item is a number kept as its exact text (suql_result_cjson):
         * an integer there is read exactly, past 2^53 too. */
        double d = j->valuedouble;
        if (cJSON_IsRaw(j)) {
            char *end;
            errno = 0;
            long long i = strtoll(j->valuestring, &end, 10);
            if (!errno && end != j->valuestring && !*end) return ws_int(i);
            d = strtod(j->valuestring, &end);
            if (end == j->valuestring || *end) return ws_none();
        }
        if (d == floor(d) && fabs(d) < 9.0e15) return ws_int((long long)d);
        return ws_float(d);
    }
    if (cJSON_IsString(j)) return ws_str(j->valuestring);
    if (cJSON_IsArray(j)) {
        ws_val *l = ws_list();
        for (const cJSON *it = j->child; it; it = it->next) ws_list_add(l, ws_val_from_json(it));
        return l;
    }
    if (cJSON_IsObject(j)) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "$record");
        if (r && cJSON_IsNumber(r) && !r->next && j->child == r) return ws_recref(r->valueint);
        ws_val *d = ws_dict();
        for (const cJSON *it = j->child; it; it = it->next)
            ws_dict_set(d, it->string ? it->string : "", ws_val_from_json(it));
        return d;
    }
    return ws_none();
}
