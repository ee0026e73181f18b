/*
 * view.h — what the three panes show, as styled lines (text.h), kept
 * apart from curses: the conversation (view_conv.c), the worksheet state
 * (view_ws.c) and the SUQL of the turns (view_suql.c).
 *
 * Each view turns its model into lines for a given width.  The
 * conversation keeps the lines of each message and re-wraps only a
 * message that changed (a streaming reply) or all of them when the width
 * changes, so a long conversation costs nothing per streamed token.
 */
#ifndef GENIE_TUI_VIEW_H
#define GENIE_TUI_VIEW_H

#include "text.h"
#include "genie.h"
#include "util/buf.h"

#include <cjson/cJSON.h>

/* ---- the conversation ---------------------------------------------------- */

enum vc_role {
    VC_USER,      /* the person's utterance */
    VC_AGENT,     /* the agent's reply (Markdown), streamed */
    VC_NOTE,      /* a remark of genie's (dim) */
    VC_ERROR,     /* a failure (red) */
    VC_BLOCK      /* preformatted output: tables, JSON, help */
};

typedef struct vc_msg {
    enum vc_role role;
    gn_buf text;
    int interrupted;          /* a reply cut by Ctrl-C */
    tx_lines lines;           /* at width `width`; -1: stale */
    int width;
} vc_msg;

typedef struct vc_conv {
    vc_msg **m;
    int n, cap;
    char *agent;              /* the agent's name, for its turns */
    long total;               /* lines at `width` (valid after vc_layout) */
    int width;
} vc_conv;

void vc_init(vc_conv *v, const char *agent);
void vc_release(vc_conv *v);
/* Forget every message. */
void vc_clear(vc_conv *v);
/* Append a message (TEXT copied; may be NULL); returns it (owned by V). */
vc_msg *vc_add(vc_conv *v, enum vc_role role, const char *text);
/* Append TEXT to M, which must be V's last message. */
void vc_append(vc_conv *v, vc_msg *m, const char *text);
/* Replace M's text. */
void vc_set(vc_conv *v, vc_msg *m, const char *text);
/* Mark M interrupted (its lines end in a marker). */
void vc_interrupt(vc_conv *v, vc_msg *m);
/* Wrap what is stale at WIDTH and count the lines (v->total). */
void vc_layout(vc_conv *v, int width);
/* Line I (0 = the first) at the width of the last vc_layout; NULL past the
 * end.  Walks from the nearer end, so the lines around the bottom cost
 * little however long the conversation. */
const tx_line *vc_line(const vc_conv *v, long i);
/* The first line of message K at the width of the last vc_layout. */
long vc_first_line(const vc_conv *v, int k);
/* The message of the Nth reply of the agent counted from the last (1: the
 * last), or -1. */
int vc_reply(const vc_conv *v, int nth);

/* The fenced code blocks of the Markdown TEXT (tx_fence's fences, as the
 * screen frames them; a fence left open runs to the end): how many there are, and the Nth of them
 * (1: the first) appended to OUT without its fences when 1 <= NTH <= that
 * count (OUT may be NULL). */
int vc_code(const char *text, int nth, gn_buf *out);

/* ---- the worksheet state --------------------------------------------------- */

/* Lines of the state STATE (the JSON of ws_state_to_json, with "changes"
 * from the last turn; NULL: nothing yet) for the worksheets of SPEC at
 * WIDTH.  Unfilled required fields, fields awaiting confirmation, refused
 * values, finished tasks and their results, and knowledge records with
 * their question and result count are marked; what changed in the last
 * turn is highlighted. */
void vw_render(const ws_spec *spec, const cJSON *state, int width, tx_lines *out);

/* vw_render, and the lines [*FIRST, *LAST] of OUT the pane should keep in
 * view: the newest record the last turn changed, else the newest task
 * still open (what the agent is working on and still needs); -1, -1 when
 * there is none. */
void vw_render_focus(const ws_spec *spec, const cJSON *state, int width, tx_lines *out, int *first,
                     int *last);

/* ---- the SUQL of the turns -------------------------------------------------- */

/* A query typed with /suql or /explain, not asked by a turn (vq_add's
 * TURN). */
enum { VQ_TYPED_SUQL = -1, VQ_TYPED_EXPLAIN = -2 };

typedef struct vq_query {
    char *suql, *question;
    int attempt;              /* 2: the retry of a failed or empty query */
    int turn;                 /* the turn that ran it, or VQ_TYPED_* */
    int done;                 /* its result arrived */
    long count;
    char *error, *note;
    double ms;
    long candidates, verified, llm_calls, cache_hits, memo_hits;   /* account.h's words */
    int budget_hit;
} vq_query;

typedef struct vq_list {
    vq_query *v;
    int n, cap;
    int hide_times;           /* screen tests: no clock on screen */
} vq_list;

void vq_init(vq_list *q);
void vq_release(vq_list *q);
void vq_clear(vq_list *q);
/* A query about to run (the AG_EV_SUQL event): its text, question and
 * attempt from DATA; ERROR (may be NULL) when it was not run. */
void vq_add(vq_list *q, int turn, const char *suql, const cJSON *data, const char *error);
/* Its result (the AG_EV_RESULT event's data), for the last query. */
void vq_result(vq_list *q, const cJSON *data);
/* Every query, oldest first, at WIDTH. */
void vq_render(const vq_list *q, int width, tx_lines *out);

#endif
