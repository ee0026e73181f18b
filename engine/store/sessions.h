/*
 * sessions.h — conversations kept on disk: $XDG_DATA_HOME/genie/sessions.db.
 *
 * One SQLite file (WAL, busy timeout) for every agent: a session row per
 * conversation and a turn row per completed turn, written in one
 * transaction at the end of the turn, so a crash mid-turn loses that turn
 * and nothing else.  A turn keeps everything needed to show it again and
 * to resume after it: the utterance, the parser's output, the SUQL run and
 * their results, the agent acts, the response, the dialogue state after
 * the turn (JSON), tokens and timings.
 */
#ifndef GENIE_STORE_SESSIONS_H
#define GENIE_STORE_SESSIONS_H

#include "util/buf.h"
#include "util/err.h"

typedef struct st_sessions st_sessions;

/* Open (creating it and its directory) the sessions file PATH; a file we
 * may only read is opened read-only (st_sessions_readonly).  Returns 0,
 * GN_EIO (the directory or file cannot be made; a read-only file that is
 * still empty), GN_ECORRUPT (not SQLite, or a sessions file of a newer
 * schema: left untouched) or GN_EDB for causes that may pass (locked by
 * another process, the disk full, an I/O error): trying later may work. */
int st_sessions_open(const char *path, st_sessions **out, gn_err *e);
void st_sessions_close(st_sessions *s);

/* 1 when the file could be opened for reading only (we may not write it):
 * listing, exporting and reading turns work; writes fail with GN_EDB. */
int st_sessions_readonly(const st_sessions *s);

/* How long a write waits for another process's lock before giving up
 * (milliseconds; 5000 after opening). */
void st_sessions_patience(st_sessions *s, int ms);

/* After st_session_new or st_session_add_turn failed: 1 when the cause may
 * pass (the file locked by another process, read-only, a full disk, an
 * I/O error), 0 when trying again cannot help (no such session, the turn
 * number taken). */
int st_sessions_passing(const st_sessions *s);

/* A new session of agent AGENT (its name) started now; *id gets its id. */
int st_session_new(st_sessions *s, const char *agent, long *id, gn_err *e);

/* One completed turn.  Strings may be NULL (stored as NULL); the *_json
 * members must be valid JSON text when set. */
typedef struct st_turn {
    int n;                      /* 1-based turn number within the session */
    const char *user;           /* the user's utterance */
    const char *parse;          /* the parser's statements, as text */
    const char *suql_json;      /* [{"question","suql","error","rows"}...] */
    const char *acts_json;      /* ["Report(...)", "AskField(...)"] */
    const char *response;       /* what the agent said */
    const char *state_json;     /* the dialogue state after the turn */
    const char *error;          /* the turn's error, if it failed */
    long tokens_in, tokens_out;
    long llm_calls, cache_hits; /* requests sent; replies from the cache */
    double cost;                /* dollars; -1 when unknown (no price) */
    double ms_total, ms_llm;
    double started;             /* Unix time */
} st_turn;

/* Append turn T to session ID in one transaction (and update the session's
 * last-used time and turn count).  Returns 0, GN_ENOTFOUND (no session
 * ID), GN_ESTALE (session ID already has a turn T->n: another genie
 * continued the same conversation and saved it first; nothing written)
 * or GN_EDB/GN_EIO (disk full: nothing written). */
int st_session_add_turn(st_sessions *s, long id, const st_turn *t, gn_err *e);

/* A new session of the same agent holding session ID's turns before
 * turn UPTO (a copy), into *OUT: where a conversation goes on when
 * another genie saved its next turn first.  0 or GN_EDB/GN_EIO. */
int st_session_fork(st_sessions *s, long id, int upto, long *out, gn_err *e);

/* Name session ID TITLE (blank: no name; listings then show its first
 * utterance).  GN_ENOTFOUND (no session ID) or GN_EDB. */
int st_session_rename(st_sessions *s, long id, const char *title, gn_err *e);
/* Delete session ID and its turns, in one transaction.  GN_ENOTFOUND (no
 * session ID) or GN_EDB (locked, read-only, disk full: nothing deleted). */
int st_session_delete(st_sessions *s, long id, gn_err *e);

/* The id of the most recently used session of AGENT (any agent when NULL);
 * GN_ENOTFOUND when there is none. */
int st_session_latest(st_sessions *s, const char *agent, long *id, gn_err *e);

/* Session facts, for --list-sessions and --resume. */
typedef struct st_session_info {
    long id;
    char agent[128];
    double created, updated;    /* Unix time */
    int turns;
    char first_user[160];       /* the first utterance, cut to fit */
    char title[160];            /* its name (st_session_rename), or "" */
} st_session_info;

typedef int (*st_session_cb)(const st_session_info *info, void *ud);
/* Call CB for each session, most recently used first (AGENT NULL: all);
 * a non-zero return from CB stops.  Returns 0 or GN_EDB. */
int st_session_list(st_sessions *s, const char *agent, st_session_cb cb, void *ud, gn_err *e);
/* The facts of session ID; GN_ENOTFOUND when there is no such session. */
int st_session_info_get(st_sessions *s, long id, st_session_info *out, gn_err *e);

/* A stored turn, as read back: strings owned by the callee, valid during
 * the callback only. */
typedef int (*st_turn_cb)(const st_turn *t, void *ud);
/* Call CB for each turn of session ID, in order.  GN_ENOTFOUND when the
 * session does not exist. */
int st_session_turns(st_sessions *s, long id, st_turn_cb cb, void *ud, gn_err *e);

/* Append session ID as Markdown to OUT: a title with the agent and date,
 * then per turn the user's words, the agent's reply, and (as indented
 * details) the statements, the SUQL queries with their row counts and the
 * acts. */
int st_session_export_md(st_sessions *s, long id, gn_buf *out, gn_err *e);

#endif
