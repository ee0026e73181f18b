/*
 * template.h — prompt templates: a small Mustache-like renderer over JSON.
 *
 * Prompts live in files (config/prompts/NAME, overridable per user) and are
 * filled from a cJSON value.  A template is compiled once and rendered many
 * times; a compiled template is never modified by rendering, so several
 * threads may render the same one at once.
 *
 * Syntax (a tag is `{{...}}`; spaces inside the braces are allowed):
 *   {{name}}  {{a.b.c}}    the value at a dotted path, verbatim (prompts are
 *                          not HTML: nothing is escaped).  A purely numeric
 *                          segment indexes an array: {{items.0.title}}.
 *   {{.}}                  the current context (e.g. the item of a list).
 *   {{&name}} {{{name}}}   accepted as synonyms of {{name}} (Mustache habit).
 *   {{#name}}...{{/name}}  a section: a non-empty list renders the body once
 *                          per item, with the item as the current context; any
 *                          other truthy value renders it once with the value as
 *                          the current context.  Falsy: false, null, [] and "".
 *                          Numbers (0 included) and objects ({} included) are
 *                          truthy.
 *   {{^name}}...{{/name}}  an inverted section: renders once iff falsy.
 *   {{! comment }}         dropped; may span lines.
 *   {{'text'}} {{"text"}}  the quoted text, verbatim: how to write literal
 *                          braces, e.g. {{'{{'}} or {{'{{not_a_tag}}'}}.
 * A lone `{` or `}}` in plain text is literal; only `{{` opens a tag.
 * Partials, lambdas and delimiter changes are not supported (rejected with a
 * clear error).
 *
 * Names resolve like Mustache: the first segment is looked up in the
 * innermost context object that has it, walking out to the data root, so
 * names of enclosing sections stay visible inside a list; further segments
 * are looked up in that value only.  A name found nowhere is an error, in a
 * variable and in a section alike (a typo must not silently drop a part of a
 * prompt): data that is optional must be present as null or false.
 *
 * Values: strings verbatim; numbers in the shortest form that reads back
 * exactly, integers without a fraction ("3", "0.1", "-2.5e-07"), always with
 * a '.' whatever the locale; true/false; null as nothing; arrays and objects
 * as compact JSON.  Substituted text is never scanned for tags again.
 *
 * Standalone lines: a line holding only one section, inverted, closing or
 * comment tag plus spaces or tabs is removed entirely, newline included, so
 * a template may put its control tags on lines of their own.
 *
 * Positions: errors carry the template name as file, and a 1-based line and
 * column (counted in UTF-8 characters) of the tag's first '{'; gn_err_str
 * renders them as "answer.prompt:12:5: undefined variable 'question'".
 */
#ifndef GENIE_TEMPLATE_H
#define GENIE_TEMPLATE_H

#include "util/buf.h"
#include "util/err.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Deepest nesting of sections (parse error beyond). */
#define LLM_TPL_MAX_DEPTH 32
/* Default bound on the bytes one render adds to its output (4 MiB). */
#define LLM_TPL_MAX_OUTPUT ((size_t)4 << 20)
/* Default bound on the nodes one render visits (so a list nested in itself
 * cannot spin without output). */
#define LLM_TPL_MAX_STEPS (1ul << 24)
/* Largest template file llm_tpl_load reads (1 MiB). */
#define LLM_TPL_MAX_FILE ((size_t)1 << 20)

typedef struct llm_tpl llm_tpl;

/* Compile TEXT (NUL-terminated); NAME (may be NULL: "<template>") names it
 * in error positions and is copied.  On success returns 0 and sets *out to
 * a template the caller frees with llm_tpl_free.  On failure *out is NULL
 * and the return is GN_EPARSE (unterminated tag, invalid or empty name,
 * unclosed or mismatched section, unsupported partial or delimiter tag) or
 * GN_ELIMIT (sections nested deeper than LLM_TPL_MAX_DEPTH), with the
 * position of the offending tag in e. */
int llm_tpl_parse(const char *name, const char *text, llm_tpl **out, gn_err *e);

/* Find NAME (a relative path without ".." components) in DIRS[0..NDIRS-1],
 * in order: the first directory holding the file wins, so the user override
 * directory goes first and the shipped one last.  NULL or empty entries are
 * skipped (an unset override).  The file is compiled with its full path as
 * the template name.  Returns 0 and sets *out (caller frees with
 * llm_tpl_free); otherwise *out is NULL and the return is GN_ENOTFOUND
 * ("prompt template 'N' not found in: D1, D2" naming every directory
 * searched), GN_EUSAGE (bad NAME), GN_EIO (unreadable file or a directory),
 * GN_ELIMIT (file over LLM_TPL_MAX_FILE), or a parse error as
 * llm_tpl_parse. */
int llm_tpl_load(const char *const *dirs, int ndirs, const char *name,
                 llm_tpl **out, gn_err *e);

/* Free T; NULL is a no-op. */
void llm_tpl_free(llm_tpl *t);

/* The name T was compiled with (owned by T). */
const char *llm_tpl_name(const llm_tpl *t);

/* Change T's render limits (0 keeps the current value): the bytes one render
 * may add and the nodes it may visit. */
void llm_tpl_set_limits(llm_tpl *t, size_t max_output, unsigned long max_steps);

/* Render T with DATA (the root context; NULL means no names are defined),
 * appending to OUT (initialized by the caller).  Returns 0; or
 * GN_ENOTFOUND for an undefined name ("undefined variable 'question'"),
 * GN_ELIMIT when the output or step limit is reached, each with the tag's
 * position in e.  On failure OUT is restored to its length before the
 * call.  Nothing in DATA is ever executed or re-parsed as a template. */
int llm_tpl_render(const llm_tpl *t, const cJSON *data, gn_buf *out, gn_err *e);

#endif
