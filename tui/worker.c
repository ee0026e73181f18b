/*
 * worker.c — one job thread, a message queue and its wake-up pipe.
 *
 * The queue is a singly linked list under a mutex; posting appends and
 * writes one byte to a non-blocking pipe (a full pipe already means "wake
 * up", so EAGAIN is fine); taking swaps the list out and drains the pipe.
 * Nothing here knows what a job does.
 */
#include "worker.h"

#include "util/xmem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

struct tw_worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    tw_job_fn fn;             /* the job to start, or NULL */
    void *arg;
    int busy, quit;
    tw_msg *head, **tail;
    int pipe[2];
};

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static void post(tw_worker *w, tw_msg *m)
{
    pthread_mutex_lock(&w->mu);
    *w->tail = m;
    w->tail = &m->next;
    pthread_mutex_unlock(&w->mu);
    char b = 1;
    ssize_t r = write(w->pipe[1], &b, 1);
    (void)r;                  /* EAGAIN: the reader is woken already */
}

void tw_post_event(const ag_event *ev, void *ud)
{
    tw_msg *m = xcalloc(1, sizeof *m);
    m->kind = (int)ev->kind;
    m->stage = dup_or_null(ev->stage);
    m->text = dup_or_null(ev->text);
    m->error = dup_or_null(ev->error);
    m->data = ev->data ? cJSON_Duplicate(ev->data, 1) : NULL;
    post(ud, m);
}

static void *run(void *ud)
{
    tw_worker *w = ud;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->fn && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit) break;
        tw_job_fn fn = w->fn;
        void *arg = w->arg;
        w->fn = NULL;
        pthread_mutex_unlock(&w->mu);
        tw_msg *m = xcalloc(1, sizeof *m);
        m->kind = TW_DONE;
        m->status = fn(w, arg);
        m->arg = arg;
        post(w, m);
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

tw_worker *tw_new(void)
{
    tw_worker *w = xcalloc(1, sizeof *w);
    if (pipe(w->pipe)) {
        free(w);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(w->pipe[i], F_SETFL, fcntl(w->pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(w->pipe[i], F_SETFD, FD_CLOEXEC);
    }
    w->tail = &w->head;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    int err = pthread_create(&w->thread, NULL, run, w);
    if (err) {
        close(w->pipe[0]);
        close(w->pipe[1]);
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        errno = err;
        return NULL;
    }
    return w;
}

void tw_free(tw_worker *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    tw_msg *m = w->head;
    while (m) {
        tw_msg *n = m->next;
        tw_msg_free(m);
        m = n;
    }
    close(w->pipe[0]);
    close(w->pipe[1]);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

int tw_fd(const tw_worker *w) { return w->pipe[0]; }
int tw_busy(const tw_worker *w) { return w->busy; }

int tw_submit(tw_worker *w, tw_job_fn fn, void *arg)
{
    if (w->busy) return -1;
    w->busy = 1;
    pthread_mutex_lock(&w->mu);
    w->fn = fn;
    w->arg = arg;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return 0;
}

tw_msg *tw_take(tw_worker *w)
{
    char buf[256];
    while (read(w->pipe[0], buf, sizeof buf) > 0) {}
    pthread_mutex_lock(&w->mu);
    tw_msg *m = w->head;
    w->head = NULL;
    w->tail = &w->head;
    pthread_mutex_unlock(&w->mu);
    for (tw_msg *x = m; x; x = x->next)
        if (x->kind == TW_DONE) w->busy = 0;
    return m;
}

void tw_msg_free(tw_msg *m)
{
    if (!m) return;
    free(m->stage);
    free(m->text);
    free(m->error);
    cJSON_Delete(m->data);
    free(m);
}
