/*
 * app.h — the full-screen interface's state, shared by its files:
 *
 *   app.c       the loop: terminal keys, worker messages, signals; turns
 *   draw.c      the layout and every pane, the status and hint lines
 *   input.c     GNU readline through its callback interface, history,
 *               paste, the external editor
 *   commands.c  the slash commands and the help screen
 *
 * Everything here runs on the screen's thread; the worker (worker.h) only
 * touches the conversation (ag_conv) while a job runs, and the screen
 * leaves it alone meanwhile (commands that need it wait for the turn).
 */
#ifndef GENIE_TUI_APP_H
#define GENIE_TUI_APP_H

#include "cli.h"
#include "view.h"
#include "worker.h"

enum app_pane { PANE_CONV, PANE_WS, PANE_SUQL, PANE__COUNT };

/* A rectangle of the screen. */
typedef struct app_rect {
    int y, x, h, w;
} app_rect;

/* One pane's scrolling: lines from the bottom (conversation, SUQL) or
 * from the top (worksheet); `unseen` marks output that arrived while
 * scrolled away. */
typedef struct app_scroll {
    long off;
    int unseen;
} app_scroll;

typedef struct app_job app_job;

typedef struct app {
    genie_chat ch;
    const cfg_t *c;
    tw_worker *w;
    app_job *job;             /* the job running, or NULL */
    double job_t0;            /* when it started (the elapsed timer) */

    vc_conv conv;
    vq_list q;
    cJSON *state;             /* the last state shown (JSON), or NULL */
    cJSON *state_before;      /* the state before the turn in progress */
    cJSON *timings;           /* the last turn's timings event, or NULL */
    vc_msg *reply;            /* the reply being streamed, or NULL */
    int turn;                 /* number of the turn in progress or last */
    char *queued;             /* an utterance sent while a turn ran */

    /* the screen */
    int rows, cols, tabs;     /* tabs: narrow screen, one pane at a time */
    int focus;                /* enum app_pane */
    app_rect pane[PANE__COUNT], input, status, hint;
    app_scroll scroll[PANE__COUNT];
    tx_lines ws_lines, q_lines;
    int ws_width, q_width, ws_dirty, q_dirty;
    int ws_follow;            /* a new state: bring its focus into view */
    int sel;                  /* copy mode: the message chosen (F2, or a
                                 click on the conversation), or -1 */
    int help;                 /* the help screen is shown */
    int help_top;             /* its first line shown */
    int theme;                /* 0 dark, 1 light, 2 mono */
    int test;                 /* GENIE_SCREEN_TEST: no clock on screen */

    /* the status line */
    char activity[160];       /* "parsing", "retrying in 4 s (HTTP 500)" */
    double retry_at;          /* when the announced retry is due, or 0 */
    char notice[256];         /* a one-time message (completions, errors) */
    double last_ms;
    llm_stats last, sess;     /* LLM use of the last turn and of the
                                 conversation (account.h's words; the
                                 session's includes resumed turns) */
    long last_memo, sess_memo;   /* SUQL memo hits, the same */

    int ctrl_c;               /* Ctrl-C pressed once on an empty prompt */
    int quit;
    int quit_signal;          /* the signal that ended it (SIGTERM, SIGHUP,
                                 SIGQUIT), 0: /quit; the exit status is
                                 then 128 + it, as a shell reports it */
    int dirty;                /* the screen needs drawing */
} app;

/* ---- app.c ---------------------------------------------------------------- */

/* Add a message to the conversation; a pane scrolled up keeps its place
 * and marks the new output. */
vc_msg *app_add(app *a, enum vc_role role, const char *text);
/* Send UTTERANCE as the next turn (queued when a turn runs). */
void app_send(app *a, const char *utterance);
/* Cancel the job in progress: the turn stops and its connection closes. */
void app_cancel(app *a);
/* Start a job on the worker; the kind decides what its end does. */
enum app_job_kind { JOB_TURN, JOB_SUQL, JOB_EXPLAIN };
int app_start_query(app *a, enum app_job_kind kind, const char *query);
/* Put a message in the status line until the next key. */
void app_notice(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start over: a new conversation, the panes cleared. */
void app_reset(app *a);
/* Show the turns of a resumed session in the conversation pane. */
void app_show_turn(const st_turn *t, void *ud);

/* ---- draw.c ---------------------------------------------------------------- */

/* Start curses (colours per --theme, --no-color, NO_COLOR), restoring the
 * terminal on every exit path from here on; 0 or -1 when there is no
 * usable terminal. */
int draw_start(app *a);
void draw_end(void);
/* Recompute the layout for the terminal's size. */
void draw_layout(app *a);
/* Draw everything and place the cursor in the input. */
void draw_frame(app *a);
/* Scroll pane P by N lines (positive: towards older/upper lines). */
void draw_scroll(app *a, int p, long n);
/* The pane at screen position Y, X, or -1. */
int draw_pane_at(const app *a, int y, int x);
/* The conversation's message drawn at screen row Y, or -1. */
int draw_msg_at(const app *a, int y);
/* Copy TEXT to the clipboard of the terminal (OSC 52). */
void draw_osc52(const char *text);

/* ---- input.c ----------------------------------------------------------------- */

/* Set up readline (callback mode, history, keys, completion). */
void input_start(app *a);
void input_end(app *a);
/* Read and handle every key waiting on the terminal. */
void input_keys(app *a);
/* The help screen's rows for the keys of the input loop's table: the keys
 * and what they do, a line each. */
void input_key_help(gn_buf *out);
/* The input text and the cursor's byte offset in it. */
const char *input_text(int *point);
/* The prompt of a history search in progress (Ctrl-R), or NULL. */
const char *input_search(void);
/* Rows the input needs at WIDTH columns (1..5 shown). */
int input_rows(const app *a, int width);

/* ---- commands.c ------------------------------------------------------------------ */

/* Run the slash command LINE ("/suql SELECT ..."). */
void cmd_run(app *a, const char *line);
/* Copy TEXT (WHAT names it: "the reply") to the clipboard with OSC 52
 * and say so; inside tmux, say once when tmux will not pass it on. */
void cmd_copy(app *a, const char *text, const char *what);
/* Command names for completion: the Nth matching PREFIX, or NULL. */
const char *cmd_complete(const char *prefix, int n);
/* The help text: every key and command. */
void cmd_help_text(gn_buf *out);

#endif
