/*
 * value.h — the values of the worksheet expression language.
 *
 * A value is None, a bool, an int, a float, a string, a list, a dict (keys
 * are strings, insertion order kept) or a reference to a record of the
 * dialogue state (by record id; the state owns records, values only point
 * at them).  Dates and times are strings in canonical form ("2026-03-14",
 * "19:30") once coerced to a field's type (coerce.h).
 *
 * Ownership: a ws_val is a tree owned by whoever holds its root; ws_val_free
 * frees the whole tree (NULL is a no-op), ws_val_copy makes a deep copy.
 * Containers take ownership of the items given to them.
 */
#ifndef GENIE_WS_VALUE_H
#define GENIE_WS_VALUE_H

#include "util/buf.h"

#include <cjson/cJSON.h>

enum ws_vkind { WV_NONE, WV_BOOL, WV_INT, WV_FLOAT, WV_STR, WV_LIST, WV_DICT, WV_REC };

typedef struct ws_val ws_val;
struct ws_val {
    enum ws_vkind kind;
    union {
        int b;
        long long i;
        double f;
        char *s;
        int rec;                     /* WV_REC: record id */
        struct {
            ws_val **items;
            char **keys;             /* WV_DICT only */
            int n, cap;
        } c;
    } u;
};

/* Constructors; each returns a new value the caller owns. */
ws_val *ws_none(void);
ws_val *ws_bool(int b);
ws_val *ws_int(long long i);
ws_val *ws_float(double f);
ws_val *ws_str(const char *s);          /* copies S */
ws_val *ws_strn(const char *s, size_t n);
ws_val *ws_str_own(char *s);            /* takes S (malloc'd) */
ws_val *ws_list(void);
ws_val *ws_dict(void);
ws_val *ws_recref(int id);

/* Append ITEM (taken) to list L; set KEY (copied) of dict D to V (taken,
 * replacing an existing value). */
void ws_list_add(ws_val *l, ws_val *item);
void ws_dict_set(ws_val *d, const char *key, ws_val *v);
/* The value of KEY in D (case-sensitive), or NULL; borrowed. */
const ws_val *ws_dict_get(const ws_val *d, const char *key);

void ws_val_free(ws_val *v);
ws_val *ws_val_copy(const ws_val *v);

/* Python truthiness: None, False, 0, 0.0, "", [] and {} are false. */
int ws_val_truthy(const ws_val *v);
/* Python ==: numbers compare by value across int/float/bool, strings by
 * content, containers element by element, records by id. */
int ws_val_equal(const ws_val *a, const ws_val *b);
/* Ordering for <, <=, >, >=: *out gets -1/0/1; returns 0, or -1 when the
 * two values do not order (e.g. a string and a number). */
int ws_val_compare(const ws_val *a, const ws_val *b, int *out);

/* The type name for messages: "None", "bool", "int", "float", "str",
 * "list", "dict", "record". */
const char *ws_val_type(const ws_val *v);

/* Append V as Python source: None, True, 3, 2.5, "text" (double quotes,
 * backslash escapes), [..], {"k": v}; a record reference as the name
 * RECNAME returns for its id (or "record_ID" when RECNAME is NULL). */
typedef const char *(*ws_recname_fn)(int id, void *ud);
void ws_val_print(const ws_val *v, gn_buf *out, ws_recname_fn recname, void *ud);

/* Conversion to and from JSON (cJSON trees the caller owns/frees).  A
 * record reference becomes {"$record": ID}; from_json maps it back, and
 * reads a raw item holding a number's text (suql_result_cjson) as that
 * number. */
cJSON *ws_val_to_json(const ws_val *v);
ws_val *ws_val_from_json(const cJSON *j);

#endif
