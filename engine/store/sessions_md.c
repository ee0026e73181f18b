/*
 * sessions_md.c — a stored session as Markdown (st_session_export_md).
 *
 * Built on the public reading API only (st_session_info_get and
 * st_session_turns), so the export cannot see anything a front end could
 * not.  Layout: "# Session N — AGENT", the start date (UTC, ISO 8601), then
 * per turn "**You:**" and "**Agent:**" paragraphs and, when the turn has
 * any, a <details> block with the parser's statements (```python), each
 * SUQL query (```sql, its question as "--" comments, then "(N rows)" or its
 * error) and the agent acts as a bullet list of code spans.
 *
 * The invariant: stored text can never change the document's structure.
 * Words people and the agent wrote are plain text, so Markdown punctuation
 * in them is backslash-escaped; code goes verbatim into fences and code
 * spans whose backtick run is longer than any run inside the content, so
 * nothing in it can close them.
 *
 * Rejected: indenting the details as a code block (it would show the fences
 * as text) and escaping inside fences (the export is meant to be copied
 * from: a query must stay runnable).  A *_json member that does not parse
 * is shown verbatim in a ```json fence rather than dropped.
 */
#include "sessions.h"

#include "util/xmem.h"

#include <cjson/cJSON.h>
#include <string.h>
#include <time.h>

/* The longest run of backticks in S. */
static size_t longest_ticks(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

static void put_ticks(gn_buf *b, size_t n)
{
    while (n--) gn_buf_putc(b, '`');
}

/* BODY verbatim in a fenced block of language LANG. */
static void put_fence(gn_buf *b, const char *lang, const char *body)
{
    size_t n = longest_ticks(body) + 1;
    if (n < 3) n = 3;
    put_ticks(b, n);
    gn_buf_puts(b, lang);
    gn_buf_putc(b, '\n');
    gn_buf_puts(b, body);
    if (!*body || body[strlen(body) - 1] != '\n') gn_buf_putc(b, '\n');
    put_ticks(b, n);
    gn_buf_puts(b, "\n\n");
}

/* S verbatim as an inline code span. */
static void put_code(gn_buf *b, const char *s)
{
    size_t n = longest_ticks(s) + 1, len = strlen(s);
    /* A span's content loses one space at each end and cannot start or end
     * with a backtick next to the delimiters: pad in those cases. */
    int pad = len && (s[0] == '`' || s[0] == ' ' || s[len - 1] == '`' || s[len - 1] == ' ');
    put_ticks(b, n);
    if (pad) gn_buf_putc(b, ' ');
    for (; *s; s++) gn_buf_putc(b, *s == '\n' || *s == '\r' ? ' ' : *s);
    if (pad) gn_buf_putc(b, ' ');
    put_ticks(b, n);
}

/* S as plain text: markup punctuation escaped, each line break kept as a
 * hard break ("  " before it) and blank lines kept as paragraph breaks. */
static void put_text(gn_buf *b, const char *s)
{
    int bol = 1;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (c == '\r') continue;
        if (c == '\n') {
            if (!bol && p[1] && p[1] != '\n' && p[1] != '\r') gn_buf_puts(b, "  ");
            gn_buf_putc(b, '\n');
            bol = 1;
            continue;
        }
        if (strchr("\\`*_[]<>#|~&", c) || (bol && strchr("-+=", c)))
            gn_buf_putc(b, '\\');
        else if (bol && c >= '0' && c <= '9') {
            /* "12." or "12)" at a line start would open an ordered list. */
            size_t d = strspn(p, "0123456789");
            gn_buf_add(b, p, d);
            p += d - 1;
            if (p[1] == '.' || p[1] == ')') {
                gn_buf_putc(b, '\\');
                gn_buf_putc(b, *++p);
            }
            bol = 0;
            continue;
        }
        gn_buf_putc(b, c);
        if (c != ' ') bol = 0;
    }
}

/* ---- details ------------------------------------------------------------ */

/* One element of suql_json: {"question","suql","error","rows"}. */
static void put_query(gn_buf *b, const cJSON *q)
{
    const char *question = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(q, "question"));
    const char *suql = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(q, "suql"));
    const char *err = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(q, "error"));
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(q, "rows");
    if (suql && *suql) {
        gn_buf body;
        gn_buf_init(&body);
        for (const char *l = question; l && *l;) {
            size_t n = strcspn(l, "\r\n");
            gn_buf_puts(&body, "-- ");
            gn_buf_add(&body, l, n);
            gn_buf_putc(&body, '\n');
            l += n;
            l += strspn(l, "\r\n");
        }
        gn_buf_puts(&body, suql);
        put_fence(b, "sql", body.data);
        gn_buf_release(&body);
    } else if (question && *question) {
        gn_buf_puts(b, "Question: ");
        put_text(b, question);
        gn_buf_puts(b, "\n\n");
    }
    if (err && *err) {
        gn_buf_puts(b, "Error: ");
        put_text(b, err);
        gn_buf_puts(b, "\n\n");
        return;
    }
    long n = -1;
    if (cJSON_IsNumber(rows)) n = (long)cJSON_GetNumberValue(rows);
    else if (cJSON_IsArray(rows)) n = cJSON_GetArraySize(rows);
    if (n >= 0) gn_buf_printf(b, "(%ld row%s)\n\n", n, n == 1 ? "" : "s");
}

static void put_queries(gn_buf *b, const cJSON *arr)
{
    gn_buf_puts(b, "Queries:\n\n");
    const cJSON *q;
    cJSON_ArrayForEach(q, arr) put_query(b, q);
}

static void put_acts(gn_buf *b, const cJSON *arr)
{
    gn_buf_puts(b, "Acts:\n\n");
    const cJSON *a;
    cJSON_ArrayForEach(a, arr) {
        gn_buf_puts(b, "- ");
        if (cJSON_IsString(a)) {
            put_code(b, a->valuestring);
        } else {
            char *s = cJSON_PrintUnformatted(a);
            put_code(b, s ? s : "");
            cJSON_free(s);
        }
        gn_buf_putc(b, '\n');
    }
    gn_buf_putc(b, '\n');
}

/* JSON text TEXT parsed into *out when it is a non-empty array; returns 1
 * when there is something to show (then *out NULL means "show verbatim"). */
static int json_section(const char *text, cJSON **out)
{
    *out = NULL;
    if (!text || !*text) return 0;
    cJSON *j = cJSON_Parse(text);
    if (j && cJSON_IsArray(j) && cJSON_GetArraySize(j) == 0) {
        cJSON_Delete(j);
        return 0;
    }
    if (j && !cJSON_IsArray(j)) {
        cJSON_Delete(j);
        j = NULL;
    }
    *out = j;
    return 1;
}

static void put_details(gn_buf *b, const st_turn *t)
{
    cJSON *queries, *acts;
    int has_parse = t->parse && *t->parse;
    int has_queries = json_section(t->suql_json, &queries);
    int has_acts = json_section(t->acts_json, &acts);
    if (has_parse || has_queries || has_acts) {
        gn_buf_puts(b, "<details><summary>Details</summary>\n\n");
        if (has_parse) {
            gn_buf_puts(b, "Statements:\n\n");
            put_fence(b, "python", t->parse);
        }
        if (queries) put_queries(b, queries);
        else if (has_queries) {
            gn_buf_puts(b, "Queries:\n\n");
            put_fence(b, "json", t->suql_json);
        }
        if (acts) put_acts(b, acts);
        else if (has_acts) {
            gn_buf_puts(b, "Acts:\n\n");
            put_fence(b, "json", t->acts_json);
        }
        gn_buf_puts(b, "</details>\n\n");
    }
    cJSON_Delete(queries);
    cJSON_Delete(acts);
}

/* What the turns of a session used, added up as they are written. */
typedef struct usage {
    gn_buf *b;
    long calls, cache_hits, tokens_in, tokens_out;
    double cost;
    int priced;
} usage;

/* "3 LLM calls, 1 from the cache, 1234 tokens in, 56 out, $0.0012" (the
 * parts that are not zero; the cost when known). */
static void put_usage(gn_buf *b, long calls, long hits, long in, long out, double cost, int priced)
{
    gn_buf_printf(b, "%ld LLM call%s", calls, calls == 1 ? "" : "s");
    if (hits) gn_buf_printf(b, ", %ld from the cache", hits);
    gn_buf_printf(b, ", %ld tokens in, %ld out", in, out);
    if (priced) gn_buf_printf(b, ", $%.4f", cost);
}

static int put_turn(const st_turn *t, void *ud)
{
    usage *u = ud;
    gn_buf *b = u->b;
    if (t->user) {
        gn_buf_puts(b, "**You:** ");
        put_text(b, t->user);
        gn_buf_puts(b, "\n\n");
    }
    if (t->response) {
        gn_buf_puts(b, "**Agent:** ");
        put_text(b, t->response);
        gn_buf_puts(b, "\n\n");
    }
    if (t->error && *t->error) {
        gn_buf_puts(b, "**Error:** ");
        put_text(b, t->error);
        gn_buf_puts(b, "\n\n");
    }
    put_details(b, t);
    if (t->llm_calls || t->cache_hits || t->tokens_in || t->tokens_out) {
        gn_buf_puts(b, "Usage: ");
        put_usage(b, t->llm_calls, t->cache_hits, t->tokens_in, t->tokens_out, t->cost, t->cost >= 0);
        gn_buf_puts(b, ".\n\n");
    }
    u->calls += t->llm_calls;
    u->cache_hits += t->cache_hits;
    u->tokens_in += t->tokens_in;
    u->tokens_out += t->tokens_out;
    if (t->cost >= 0) {
        u->cost += t->cost;
        u->priced = 1;
    }
    return 0;
}

int st_session_export_md(st_sessions *s, long id, gn_buf *out, gn_err *e)
{
    st_session_info info;
    int rc = st_session_info_get(s, id, &info, e);
    if (rc) return rc;
    char date[32] = "?";
    time_t secs = (time_t)info.created;
    struct tm tm;
    if (gmtime_r(&secs, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    /* Built aside so a failure half-way leaves OUT as it was. */
    gn_buf b, turns;
    gn_buf_init(&b);
    gn_buf_init(&turns);
    usage u = { .b = &turns };
    rc = st_session_turns(s, id, put_turn, &u, e);
    gn_buf_printf(&b, "# Session %ld \xe2\x80\x94 ", info.id);
    put_text(&b, info.agent);
    gn_buf_printf(&b, "\n\nStarted %s, %d turn%s", date, info.turns, info.turns == 1 ? "" : "s");
    if (u.calls || u.cache_hits || u.tokens_in || u.tokens_out) {
        gn_buf_puts(&b, "; ");
        put_usage(&b, u.calls, u.cache_hits, u.tokens_in, u.tokens_out, u.cost, u.priced);
    }
    gn_buf_puts(&b, ".\n\n");
    if (turns.len) gn_buf_add(&b, turns.data, turns.len);
    if (!rc) gn_buf_add(out, b.data, b.len);
    gn_buf_release(&turns);
    gn_buf_release(&b);
    return rc;
}
