/*
 * prompt.h — from a stage's prompt template to chat messages.
 *
 * A template (template.h) renders to text with role marker lines
 * (`## system`, `## user`, `## assistant`, each alone on its line); the
 * text is split at them into messages, as config/prompts/README.md says.
 * Values substituted into a template cannot forge a marker: before
 * rendering, every line of every string in the data that is exactly a
 * marker is indented by one space (on a copy; the caller's data is not
 * touched).
 *
 * Lookup: a stage's template is STAGE.prompt, first in the user's override
 * directory ($XDG_CONFIG_HOME/genie/prompts), then in the shipped one.
 */
#ifndef GENIE_LLM_PROMPT_H
#define GENIE_LLM_PROMPT_H

#include "llm/request.h"
#include "llm/template.h"

/* Rendered messages.  Embedded struct; release with llm_prompt_release. */
typedef struct llm_prompt {
    llm_msg *msgs;        /* n messages pointing into text */
    int n;
    char *text;
} llm_prompt;

/* Split TEXT (NUL-terminated; NAME names it in errors) into OUT.  Returns
 * 0, or GN_EPARSE for text before the first marker or a message with no
 * content ("NAME:LINE: ..."). */
int llm_prompt_split(const char *name, const char *text, llm_prompt *out, gn_err *e);

/* Render T with DATA (defused, see above) and split.  Returns 0 or the
 * render's or split's error.  OUT is empty on failure. */
int llm_prompt_render(const llm_tpl *t, const cJSON *data, llm_prompt *out, gn_err *e);

/* Free what OUT owns; leaves it empty. */
void llm_prompt_release(llm_prompt *p);

/* Load STAGE.prompt from USER_DIR (may be NULL or missing) or SHIPPED_DIR.
 * Returns as llm_tpl_load. */
int llm_prompt_load(const char *user_dir, const char *shipped_dir, const char *stage,
                    llm_tpl **out, gn_err *e);

#endif
