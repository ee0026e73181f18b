/*
 * stem.c — Snowball's English stemmer for every thread (stem.h).
 *
 * A struct sb_stemmer holds its working buffer, so one instance must not be
 * used by two threads at once; words are stemmed on the UI thread (an index
 * build, a search), on the engine's turn worker and on the SUQL engine's
 * threads.  Each thread therefore gets its own instance, created on first
 * use and deleted when the thread ends (a pthread key's destructor).
 * Snowball's output is copied out at once: it lives in the instance and is
 * overwritten by the next call.
 * Rejected: one instance behind a mutex (an index build stems every word of
 * every passage, and SUQL's threads would queue on it); the previous
 * suffix stripper (it kept "lovely"/"love" and "seated"/"seating" apart),
 * and a second stemmer in the offline answerer (the same words must meet
 * the same stems everywhere).
 */
#include "stem.h"
#include "legacy.h"
#include "tokenize.h"

#include <libstemmer.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void drop(void *p) { sb_stemmer_delete(p); }
static void make_key(void) { pthread_key_create(&key, drop); }

static struct sb_stemmer *mine(void)
{
    pthread_once(&once, make_key);
    struct sb_stemmer *s = pthread_getspecific(key);
    if (!s) {
        s = sb_stemmer_new("english", "UTF_8");
        if (!s) abort();                    /* only fails out of memory */
        pthread_setspecific(key, s);
    }
    return s;
}

int rt_stem(const char *word, int len, char *out)
{
    if (rt_tokenizer_legacy()) return rt_legacy_stem(word, len, out);
    const sb_symbol *s = len > 0 ? sb_stemmer_stem(mine(), (const sb_symbol *)word, len) : NULL;
    int n = s ? sb_stemmer_length(mine()) : len;
    if (!s) s = (const sb_symbol *)word;
    if (n > len) n = len;
    memcpy(out, s, (size_t)n);
    out[n] = 0;
    return n;
}
