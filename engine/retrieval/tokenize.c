/*
 * tokenize.c — ASCII word splitting and the stop-word list.
 *
 * Lowercases as it goes into a small stack buffer, so callers get stable
 * lowercase words without allocation.  Non-ASCII bytes split words: the
 * offline vectors are English GloVe.  The BM25 index (lexical.c) uses these
 * words too, so "Mélisse" is indexed as "m" and "lisse" there; FTS5, kept
 * beside it for SQL text search, has its own unicode61 tokenizer.  (One
 * Unicode-aware tokenizer for every lexical path is still to do.)
 */
#include "tokenize.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int wordch(int c) { return c < 128 && isalnum(c); }
static int joiner(int c) { return c == '\'' || c == '-' || c == '&'; }

int rt_tokenize(const char *text, rt_word_fn fn, void *ud)
{
    char w[64];
    int n = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        while (*p && !wordch(*p)) p++;
        if (!*p) break;
        int len = 0, skip = 0;
        while (*p && (wordch(*p) || (joiner(*p) && wordch(p[1])))) {
            if (len < 63) w[len++] = (char)tolower(*p);
            else skip = 1;
            p++;
        }
        if (!skip) {
            w[len] = 0;
            fn(w, len, ud);
            n++;
        }
    }
    return n;
}

static const char *const stop[] = {
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are",
    "as", "at", "be", "because", "been", "before", "being", "but", "by", "can",
    "could", "did", "do", "does", "doing", "for", "from", "had", "has", "have",
    "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "it's", "its", "just", "me", "more", "most", "my", "of",
    "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "she",
    "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "to", "too", "until", "up", "us", "very",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom",
    "why", "will", "with", "would", "you", "your", "yours",
};

static int cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int rt_is_stopword(const char *word, int len)
{
    char w[64];
    if (len <= 0 || len > 63) return 0;
    memcpy(w, word, (size_t)len);
    w[len] = 0;
    const char *key = w;
    return bsearch(&key, stop, sizeof stop / sizeof stop[0], sizeof stop[0], cmp) != NULL;
}
