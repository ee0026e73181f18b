/*
 * prompt.c — rendering prompts into messages (see prompt.h).
 */
#include "prompt.h"

#include "util/buf.h"
#include "util/xmem.h"

#include <stdlib.h>
#include <string.h>

static const char *const roles[] = { "system", "user", "assistant" };

/* The role of a marker line [p, p+len), or NULL. */
static const char *marker(const char *p, size_t len)
{
    if (len && p[len - 1] == '\r') len--;
    if (len < 4 || strncmp(p, "## ", 3)) return NULL;
    for (int i = 0; i < 3; i++)
        if (len - 3 == strlen(roles[i]) && !strncmp(p + 3, roles[i], len - 3)) return roles[i];
    return NULL;
}

/* Indent marker lines of S; returns a new string or NULL when none. */
static char *defuse_text(const char *s)
{
    int hit = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, "\n");
        if (marker(p, len)) hit = 1;
        p += len + (p[len] == '\n');
    }
    if (!hit) return NULL;
    gn_buf b;
    gn_buf_init(&b);
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, "\n");
        if (marker(p, len)) gn_buf_putc(&b, ' ');
        gn_buf_add(&b, p, len + (p[len] == '\n'));
        p += len + (p[len] == '\n');
    }
    return gn_buf_detach(&b);
}

static void defuse(cJSON *v)
{
    for (; v; v = v->next) {
        if (cJSON_IsString(v) && v->valuestring) {
            char *d = defuse_text(v->valuestring);
            if (d) {
                cJSON_SetValuestring(v, d);
                free(d);
            }
        }
        if (v->child) defuse(v->child);
    }
}

void llm_prompt_release(llm_prompt *p)
{
    free(p->msgs);
    free(p->text);
    p->msgs = NULL;
    p->text = NULL;
    p->n = 0;
}

/* Drop leading and trailing blank lines of [*s, *e). */
static void trim_blank(char **s, char **e)
{
    while (*s < *e && (**s == '\n' || **s == '\r' || **s == ' ' || **s == '\t')) {
        char *nl = memchr(*s, '\n', (size_t)(*e - *s));
        int blank = 1;
        for (char *q = *s; q < (nl ? nl : *e); q++)
            if (*q != ' ' && *q != '\t' && *q != '\r') blank = 0;
        if (!blank) break;
        *s = nl ? nl + 1 : *e;
    }
    while (*e > *s && ((*e)[-1] == '\n' || (*e)[-1] == '\r' || (*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
}

/* Add the message ROLE over [s, t) to OUT, trimmed; -1 when it is empty. */
static int emit(llm_prompt *out, const char *role, char *s, char *t)
{
    trim_blank(&s, &t);
    if (s == t) return -1;
    *t = 0;
    out->msgs = xrealloc(out->msgs, sizeof *out->msgs * (size_t)(out->n + 1));
    out->msgs[out->n++] = (llm_msg){ role, s };
    return 0;
}

int llm_prompt_split(const char *name, const char *text, llm_prompt *out, gn_err *e)
{
    memset(out, 0, sizeof *out);
    out->text = xstrdup(text);
    char *p = out->text, *body = NULL;
    const char *role = NULL;
    int line = 1, role_line = 0, rc = 0;
    for (;;) {
        size_t len = strcspn(p, "\n");
        const char *r = marker(p, len);
        int last = !p[len];
        if (r) {
            if (role && emit(out, role, body, p)) break;
            role = r;
            role_line = line;
            body = last ? p + len : p + len + 1;
        } else if (!role && strspn(p, " \t\r") < len) {
            rc = gn_err_setpos(e, GN_EPARSE, name, line, 1, "text before the first "
                               "'## system' or '## user' line");
            break;
        }
        if (last) {
            if (role && emit(out, role, body, p + len)) break;
            role = NULL;
            break;
        }
        p += len + 1;
        line++;
    }
    if (!rc && role)
        rc = gn_err_setpos(e, GN_EPARSE, name, role_line, 1, "empty '## %s' message", role);
    if (!rc && !out->n)
        rc = gn_err_setpos(e, GN_EPARSE, name, 1, 1, "no '## system' or '## user' message");
    if (rc) llm_prompt_release(out);
    return rc;
}

int llm_prompt_render(const llm_tpl *t, const cJSON *data, llm_prompt *out, gn_err *e)
{
    memset(out, 0, sizeof *out);
    cJSON *safe = data ? cJSON_Duplicate(data, 1) : NULL;
    if (safe) defuse(safe);
    gn_buf b;
    gn_buf_init(&b);
    int rc = llm_tpl_render(t, safe, &b, e);
    cJSON_Delete(safe);
    if (!rc) rc = llm_prompt_split(llm_tpl_name(t), b.data ? b.data : "", out, e);
    gn_buf_release(&b);
    return rc;
}

int llm_prompt_load(const char *user_dir, const char *shipped_dir, const char *stage,
                    llm_tpl **out, gn_err *e)
{
    char *name = xasprintf("%s.prompt", stage);
    const char *dirs[2] = { user_dir, shipped_dir };
    int rc = llm_tpl_load(dirs, 2, name, out, e);
    free(name);
    return rc;
}
