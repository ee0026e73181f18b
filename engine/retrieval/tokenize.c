/*
 * tokenize.c — Unicode word splitting, folding, and the stop-word list.
 *
 * One tokenizer for every lexical path: the BM25 index and its queries
 * (lexical.c), the offline embedder's words (embed_glove.c), the offline
 * answerer (llm/offline.c), a row's passage ranking (suql/passrank.c) and
 * CLASSIFY's word overlap (suql/classify.c).  Text is decoded as UTF-8
 * (gn_utf8_next, the well-formedness rule of util/utf8.c); a
 * byte that does not start a well-formed sequence (overlong, surrogate,
 * past U+10FFFF, truncated) separates words like a space, so bad input
 * costs a split, never a crash or a merged word.  Letters and digits of any
 * script are word characters; each is folded (fold.c: lowercase, no
 * diacritics) into a small stack buffer, so "Mélisse", "MELISSE" and
 * "Melisse" are the one word "melisse" and callers get stable words without
 * allocation.  ' - & (and the typographic apostrophe, as ') stay inside a
 * word when a word character follows, as before; lexical.c splits there.
 *
 * The ASCII tokenizer genie used before (non-ASCII bytes split words) is
 * kept in legacy.c only as the retrieval benchmark's baseline, chosen by
 * rt_tokenizer_set_legacy.
 * Rejected: folding in a separate pass over the text (an allocation per
 * call on the hot path of index builds) and the locale's towlower (results
 * would depend on the user's locale, and the index must not).
 */
#include "tokenize.h"
#include "fold.h"
#include "legacy.h"
#include "util/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BAD GN_UTF8_BAD
#define WORD_MAX 63

static int legacy;

void rt_tokenizer_set_legacy(int on) { legacy = on; }
int rt_tokenizer_legacy(void) { return legacy; }

const char *rt_tokenizer_id(void)
{
    return legacy ? "ascii+suffix" : "utf8-fold+snowball-english-1";
}

static char joiner(uint32_t cp)
{
    if (cp == '\'' || cp == 0x2019) return '\'';
    return cp == '-' || cp == '&' ? (char)cp : 0;
}

static int starts_word(const unsigned char *p)
{
    char tmp[4];
    uint32_t cp = BAD;
    if (*p) gn_utf8_next((const char *)p, &cp);
    return cp != BAD && rt_fold_cp(cp, tmp) > 0;
}

int rt_tokenize(const char *text, rt_word_fn fn, void *ud)
{
    if (legacy) return rt_legacy_tokenize(text, fn, ud);
    char w[WORD_MAX + 1];
    int len = 0, skip = 0, words = 0;
    const unsigned char *p = (const unsigned char *)text;
    for (;;) {
        int n = 0, f = -1;
        char part[4];
        uint32_t cp = BAD;
        if (*p) n = gn_utf8_next((const char *)p, &cp);
        char j = cp == BAD ? 0 : joiner(cp);
        if (j && len && starts_word(p + n)) { part[0] = j; f = 1; }
        else if (cp != BAD) f = rt_fold_cp(cp, part);
        if (f > 0 && !skip) {
            if (len + f <= WORD_MAX) { memcpy(w + len, part, (size_t)f); len += f; }
            else skip = 1;
        } else if (f > 0) {
            len += f;                       /* still inside the long word */
        } else if (f < 0 && len) {
            if (!skip) {
                w[len] = 0;
                fn(w, len, ud);
                words++;
            }
            len = skip = 0;
        }
        if (!*p) break;
        p += n;
    }
    return words;
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
