/*
 * chat.h — one conversation with an agent, as both front ends hold it
 * (line mode in cmd_chat.c, the full-screen interface in app.c): the
 * agent, its knowledge base and writable database, the prompts, the LLM
 * client, the sessions file, and the dialogue (ag_conv).
 *
 * Opening never prints: what a person should know (a read-only knowledge
 * base whose writes go elsewhere, a sessions file that cannot be used) is
 * collected as notes, which each front end shows its own way.  A sessions
 * file that cannot be written costs a note, never the conversation.
 */
#ifndef GENIE_TUI_CHAT_H
#define GENIE_TUI_CHAT_H

#include "cli.h"

#include "agent/agent.h"
#include "store/sessions.h"

#include <stdatomic.h>

enum { CHAT_P_PARSE, CHAT_P_KB, CHAT_P_REPAIR, CHAT_P_RESPOND, CHAT_P__COUNT };

typedef struct chat {
    const cfg_t *c;
    ag_agent *agent;
    cli_suql_ctx x;           /* knowledge base, LLM client, SUQL engine */
    sqlite3 *wdb;             /* where APIs write, or NULL */
    llm_tpl *tpl[CHAT_P__COUNT];
    st_sessions *ss;          /* NULL when conversations cannot be saved */
    int ss_later;             /* ss could not be opened for a reason that may
                                 pass (a full disk, a lock): opened when a
                                 turn is saved, which waits till then */
    long sid;                 /* 0 until the first turn is saved */
    struct chat_wait *unsaved; /* turns waiting for the sessions file,
                                 oldest first */
    int nunsaved;
    int conv;                 /* which conversation: a new one at each
                                 reset or resume */
    ag_conv *cv;
    ws_date today;
    atomic_int cancel;        /* the turn in progress stops when set (set from the UI
                                 thread or a signal handler, read by the worker) */
    char **notes;             /* notes of chat_open, NULL-terminated */
    int nnotes, quiet, json;
    char *resume_note;        /* of the last chat_resume, or NULL: the API
                                 calls of turns genie was killed before
                                 saving */
} chat;

/* Before each turn: the scope of the turn's API calls (ag_conv_set_scope),
 * the sessions file and the saved conversation's id, once it has one. */
void chat_begin_turn(chat *ch);

/* Open everything for the agent --agent names.  Returns 0 or the error;
 * close with chat_close in every case. */
int chat_open(chat *ch, const cfg_t *c, gn_err *e);
void chat_close(chat *ch);

/* Called for each saved turn of a resumed session, oldest first. */
typedef void (*chat_turn_fn)(const st_turn *t, void *ud);

/* Can session ARG ("latest" or an id) be resumed: it exists and is this
 * agent's?  0 with *ID set, or the error; nothing changes either way. */
int chat_resume_check(chat *ch, const char *arg, long *id, gn_err *e);

/* Continue the saved session ARG ("latest" or an id) of this agent: the
 * state, acts and reply of its last turn restored, EACH (may be NULL)
 * called with every turn.  *TURNS gets their number.  Returns 0 or
 * GN_ENOTFOUND/GN_EUSAGE/GN_ECORRUPT/GN_EDB. */
int chat_resume(chat *ch, const char *arg, chat_turn_fn each, void *ud, int *turns, gn_err *e);

/* Start a new conversation: empty state, saved as a new session from its
 * first turn.  Turns of the old one still waiting to be saved stay
 * waiting, for the old one's session. */
void chat_reset(chat *ch);

/* Save the completed turn UTT/O, taking O's contents (O is left empty, so
 * releasing it afterwards is harmless).  A turn the sessions file cannot take now
 * (locked by another process, read-only, disk full) is kept and saved,
 * in order and into its own conversation's session, with a later one or by
 * chat_flush, so a passing failure loses nothing; meanwhile writes wait
 * only briefly for a lock.  A failure that cannot pass (the turn's number
 * taken by another process resuming the same session) loses that turn
 * only.  Returns 0 when every turn is saved, else the error, saying how
 * many wait. */
int chat_save_turn(chat *ch, const char *utt, ag_turn_out *o, gn_err *e);

/* Save the turns still waiting; 0 when none is left. */
int chat_flush(chat *ch, gn_err *e);

/* Before closing: one last full-patience attempt at the waiting turns;
 * returns 0, or the error naming how many turns are lost. */
int chat_save_all(chat *ch, gn_err *e);

/* The sessions file path (--sessions or $XDG_DATA_HOME/genie/sessions.db);
 * caller frees; NULL when there is no home directory. */
char *chat_sessions_path(const cfg_t *c);

/* Open the sessions file; returns 0 or the error (prefixed with the path). */
int chat_sessions_open(const cfg_t *c, st_sessions **ss, gn_err *e);

#endif
