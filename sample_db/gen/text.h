/*
 * text.h — sentence templates, JSON arrays and a string set for genie-gen.
 *
 * Template syntax (expanded by gen_tpl_expand):
 *   [a|b|c]   one alternative, chosen uniformly; alternatives may be empty
 *             ("[really |]good") and may nest brackets and slots.
 *   {name}    a slot, replaced by what the caller's slot function returns.
 * Everything else is copied.  Templates are data written by us, so malformed
 * ones (an unclosed bracket) are copied literally rather than reported.
 */
#ifndef GENIE_GEN_TEXT_H
#define GENIE_GEN_TEXT_H

#include <stddef.h>

#include "engine/util/buf.h"
#include "rng.h"

/* Returns the text for slot `name` (len bytes, not NUL-terminated) or NULL
 * to leave "{name}" in place.  The string must stay valid until the call
 * returns to gen_tpl_expand. */
typedef const char *(*gen_slot_fn)(void *ud, const char *name, size_t len);

/* Append the expansion of tpl to out.  slot may be NULL (no slots). */
void gen_tpl_expand(gn_buf *out, const char *tpl, gen_rng *r, gen_slot_fn slot, void *ud);

/* Upper-case the first ASCII letter at or after byte `from` of b. */
void gen_capitalize_at(gn_buf *b, size_t from);

/* Append s to b as a JSON string literal (quotes and escapes added). */
void gen_json_str(gn_buf *b, const char *s);

/* A JSON array of strings being built: gen_jarr_begin, gen_jarr_add ...,
 * gen_jarr_end.  The text accumulates in the caller's buffer. */
void gen_jarr_begin(gn_buf *b);
void gen_jarr_add(gn_buf *b, const char *s);
void gen_jarr_end(gn_buf *b);

/* A set of strings (open addressing; keys are copied). */
typedef struct gen_strset {
    char **slot;
    size_t cap, count;
} gen_strset;

void gen_strset_init(gen_strset *s);
void gen_strset_release(gen_strset *s);
/* Returns 1 when key is present. */
int gen_strset_has(const gen_strset *s, const char *key);
/* Adds key; returns 1 when it was new, 0 when already present. */
int gen_strset_add(gen_strset *s, const char *key);

#endif
