/*
 * worker.h — the thread that runs turns and queries off the screen's
 * thread, and the queue its events come back through.
 *
 * The screen's loop polls the terminal and tw_fd(): every message posted
 * (from the worker, or from the LLM client's thread while a reply
 * streams) writes a byte to a pipe, so the loop wakes, takes the messages
 * in order and draws.  One job runs at a time; its argument belongs to the
 * submitter and is not touched by the worker after the TW_DONE message.
 */
#ifndef GENIE_TUI_WORKER_H
#define GENIE_TUI_WORKER_H

#include "genie.h"

#include <cjson/cJSON.h>

/* Message kinds: the agent's events, and the end of a job. */
enum { TW_DONE = AG_EV__COUNT };

typedef struct tw_msg {
    int kind;                  /* enum ag_ev_kind, or TW_DONE */
    char *stage, *text, *error;  /* copies; may be NULL */
    cJSON *data;               /* a copy; may be NULL */
    int status;                /* TW_DONE: what the job returned */
    void *arg;                 /* TW_DONE: the job's argument */
    struct tw_msg *next;
} tw_msg;

typedef struct tw_worker tw_worker;

/* The job: runs on the worker thread with ARG; returns a status. */
typedef int (*tw_job_fn)(tw_worker *w, void *arg);

/* Start the thread.  Free with tw_free, which waits for a running job.
 * NULL, with errno set, when the system refuses the pipe or the thread. */
tw_worker *tw_new(void);
void tw_free(tw_worker *w);

/* The descriptor to poll for input: readable when messages wait. */
int tw_fd(const tw_worker *w);

/* 1 while a job runs (from submission to its TW_DONE being taken). */
int tw_busy(const tw_worker *w);

/* Run FN(ARG) on the worker.  Returns 0, or -1 when a job is running. */
int tw_submit(tw_worker *w, tw_job_fn fn, void *arg);

/* Post a copy of EV; any thread.  Fits ag_event_fn (UD is the worker). */
void tw_post_event(const ag_event *ev, void *ud);

/* Every message waiting, oldest first (NULL when none); the caller frees
 * each with tw_msg_free.  Taking a TW_DONE ends the job for tw_busy. */
tw_msg *tw_take(tw_worker *w);
void tw_msg_free(tw_msg *m);

#endif
