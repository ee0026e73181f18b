/*
 * offline.c — extractive answer, match and summary without an LLM
 * (offline.h).
 *
 * What: every fallback works on sentences.  The passages are split
 * (llm_offline_sentences), each sentence is copied NUL-terminated into one
 * buffer, and the question (rewritten by llm_offline_query) and all the
 * sentences are embedded in a single rt_embed_alloc call, so a remote
 * embedder costs one request per call.  Scores are cosines of unit vectors
 * plus the small lexical terms documented in offline.h; nothing is
 * generated, every output byte comes from the passages or is
 * LLM_OFFLINE_NO_INFO.
 *
 * Invariant: an output never holds the same sentence twice ("same" = the
 * same letters and digits ignoring case and punctuation, or a cosine of at
 * least NEAR_DUP), and never exceeds its size bound (LLM_OFFLINE_SENT_MAX
 * for an answer, max_chars for a summary).
 *
 * Rejected: scoring whole passages (a 20-sentence review matches everything
 * a little; the best sentence is the evidence a person wants to see, and
 * its score separates rows far better); the cosine of the question alone
 * (one shared common word carries a short query: best F1 0.45 on the
 * sample data against 0.72 with the per-word coverage term); aligning
 * every query word with every sentence word (BERTScore-like: it needs a
 * vector per word of every sentence, i.e. one text per word for a remote
 * embedder); BM25 alone (the sample reviews paraphrase on purpose: "we
 * circled for twenty minutes" is about parking without the word);
 * answering yes/no questions with "Yes"/"No" from the score (the sentence
 * shows why, and the filter has its own function); summary sentences put
 * back in passage order (across twenty reviews there is no story to keep,
 * and pick order puts the most central point first).
 */
#include "llm/offline.h"
#include "retrieval/stem.h"
#include "retrieval/tokenize.h"
#include "util/xmem.h"

#include <ctype.h>
#include <string.h>

/* Tuning, measured on the sample restaurants (offline.h). */
#define COVERAGE 0.7
#define OVERLAP_BONUS 0.3
#define NEGATION_PENALTY 0.2
#define RUNNER_UP_MARGIN 0.05
#define MMR_LAMBDA 0.7
#define NEAR_DUP 0.95
#define STEM_LEN 5
#define MAX_QTERMS 16

/* ---- sentence splitting ------------------------------------------------ */

typedef struct {
    size_t max;
    llm_sentence_fn fn;
    void *ud;
    int n;
} split_ctx;

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_term(int c) { return c == '.' || c == '!' || c == '?'; }

/* Length of a closing quote or bracket at p (ASCII, ’ ” or »), else 0. */
static size_t closer_len(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    if (*u == '"' || *u == '\'' || *u == ')' || *u == ']' || *u == '}') return 1;
    if (u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0x99 || u[2] == 0x9D)) return 3;
    if (u[0] == 0xC2 && u[1] == 0xBB) return 2;
    return 0;
}

static int has_content(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80 || isalnum(c)) return 1;
    }
    return 0;
}

/* Back off from byte k of s to the start of a UTF-8 character. */
static size_t char_start(const char *s, size_t k)
{
    while (k > 1 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    return k;
}

/* Emit s[0..len) (already trimmed) if it has content. */
static void emit(split_ctx *c, const char *s, size_t len)
{
    if (len == 0 || !has_content(s, len)) return;
    c->fn(s, len, c->ud);
    c->n++;
}

/* One sentence candidate [s, end): trim, then cut into pieces of at most
 * c->max bytes at word boundaries. */
static void piece(split_ctx *c, const char *s, const char *end)
{
    while (s < end && is_space((unsigned char)*s)) s++;
    while (end > s && is_space((unsigned char)end[-1])) end--;
    while ((size_t)(end - s) > c->max) {
        /* A clause first ("...; CS 230 (Deep Learning); ..."), in the
         * second half of the limit; else the last word boundary. */
        size_t cut = c->max;
        while (cut > c->max / 2 && !(is_space((unsigned char)s[cut]) && s[cut - 1] == ';')) cut--;
        if (cut <= c->max / 2) cut = c->max;
        while (cut > 0 && !is_space((unsigned char)s[cut])) cut--;
        if (cut == 0) cut = char_start(s, c->max);  /* no space: cut hard */
        size_t len = cut;
        while (len > 0 && is_space((unsigned char)s[len - 1])) len--;
        emit(c, s, len);
        s += cut;
        while (s < end && is_space((unsigned char)*s)) s++;
    }
    emit(c, s, (size_t)(end - s));
}

/* Abbreviations after which a period never ends a sentence. */
static const char *const abbr_never[] = {
    "approx", "cf", "dr", "e.g", "eg", "esp", "fig", "i.e", "incl", "jr", "mr", "mrs", "ms",
    "mt", "prof", "sr", "st", "vs",
};
/* Abbreviations that end a sentence only before a capitalized word. */
static const char *const abbr_cap[] = { "co", "etc", "inc", "ltd" };

static int in_list(const char *w, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(w, list[i])) return 1;
    return 0;
}

/* "U.S", "p.m", "Ph.D": letters with inner periods. */
static int dotted_word(const char *w)
{
    int dot = 0;
    for (; *w; w++) {
        if (*w == '.') dot = 1;
        else if (!isalpha((unsigned char)*w)) return 0;
    }
    return dot;
}

static int next_is_upper(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'' || *p == '(') p++;
    return isupper((unsigned char)*p);
}

/* 1 when the single period at DOT (sentence started at START, text goes on
 * at AFTER) ends an abbreviation rather than the sentence. */
static int abbreviation(const char *start, const char *dot, const char *after)
{
    const char *w = dot;
    while (w > start && !is_space((unsigned char)w[-1])) w--;
    while (w < dot && strchr("(\"'[", *w)) w++;
    size_t len = (size_t)(dot - w);
    if (len == 0 || len > 15) return 0;
    if (len == 1 && isupper((unsigned char)w[0])) return 1;
    char low[16];
    for (size_t i = 0; i < len; i++) low[i] = (char)tolower((unsigned char)w[i]);
    low[len] = 0;
    if (in_list(low, abbr_never, sizeof abbr_never / sizeof abbr_never[0])) return 1;
    if (in_list(low, abbr_cap, sizeof abbr_cap / sizeof abbr_cap[0]) || dotted_word(low))
        return !next_is_upper(after);
    return 0;
}

int llm_offline_sentences(const char *text, size_t max_len, llm_sentence_fn fn, void *ud)
{
    split_ctx c = { max_len ? max_len : LLM_OFFLINE_SENT_MAX, fn, ud, 0 };
    if (!text) return 0;
    const char *start = text, *p = text;
    while (*p) {
        if (*p == '\n' || *p == '\r') {
            piece(&c, start, p);
            start = ++p;
            continue;
        }
        if (!is_term(*p)) { p++; continue; }
        const char *q = p;
        while (is_term(q[1])) q++;
        const char *end = q + 1;
        size_t cl;
        while ((cl = closer_len(end)) > 0) end += cl;
        /* "4.5", "a.m.", "?!x": no white space after the run, no end. */
        int ends = !*end || is_space((unsigned char)*end);
        if (ends && q == p && *p == '.' && end == p + 1 && abbreviation(start, p, end)) ends = 0;
        if (ends) {
            piece(&c, start, end);
            start = end;
        }
        p = end;
    }
    piece(&c, start, p);
    return c.n;
}

/* ---- words: query rewrite, stems, negation ----------------------------- */

/* 1 when the word w[0..len) is in LIST (N entries). */
static int word_in(const char *w, int len, const char *const *list, size_t n)
{
    char buf[16];
    if (len <= 0 || len >= (int)sizeof buf) return 0;
    memcpy(buf, w, (size_t)len);
    buf[len] = 0;
    return in_list(buf, list, n);
}
#define WORD_IN(w, len, list) word_in(w, len, list, sizeof list / sizeof list[0])

/* Words a question is made of rather than what it asks about: beyond the
 * stop words, interrogatives and auxiliaries ("does", "there"), request
 * verbs and container nouns ("serve", "take", "options": "does it have vegan
 * options?" asks about "vegan"), and evaluations that every review is full
 * of ("good", "nice": "is it good for groups?" asks about groups). */
static const char *const question_words[] = {
    "accept", "accepts", "allow", "allowed", "allows", "am", "anything", "are", "available", "bad",
    "be", "been", "best", "better", "bring", "can", "choice", "choices", "could", "decent", "did",
    "do", "does", "fine", "get", "good", "great", "has", "have", "is", "it", "may", "might",
    "must", "nice", "offer", "offers", "ok", "okay", "option", "options", "place", "serve",
    "serves", "shall", "should", "something", "spot", "take", "takes", "there", "they", "this",
    "was", "were", "what", "whats", "which", "who", "whose", "will", "would",
};

static void on_query_word(const char *w, int len, void *ud)
{
    gn_buf *out = ud;
    if (rt_is_stopword(w, len) || WORD_IN(w, len, question_words)) return;
    if (out->len) gn_buf_putc(out, ' ');
    gn_buf_add(out, w, (size_t)len);
}

void llm_offline_query(const char *question, gn_buf *out)
{
    gn_buf_reset(out);
    if (!question) return;
    rt_tokenize(question, on_query_word, out);
    if (!out->len) gn_buf_puts(out, question);
}

static int ends_with(const char *w, int len, const char *suf)
{
    int n = (int)strlen(suf);
    return len >= n && !memcmp(w + len - n, suf, (size_t)n);
}

/* The retrieval stemmer's stem (Snowball, the one every lexical path
 * uses), cut to STEM_LEN bytes so near forms meet ("romantic"/"romance"
 * -> "roman").  Returns its length, 0 for words too short to compare. */
static int stem(const char *w, int len, char out[STEM_LEN + 1])
{
    char b[64];
    if (len < 3 || len > 63) return 0;
    len = rt_stem(w, len, b);
    if (len < 3) return 0;
    if (len > STEM_LEN) len = STEM_LEN;
    memcpy(out, b, (size_t)len);
    out[len] = 0;
    return len;
}

static const char *const negations[] = {
    "cannot", "cant", "dont", "doesnt", "didnt", "isnt", "wasnt", "wont", "wouldnt", "neither",
    "never", "no", "nobody", "none", "nor", "not", "nothing", "nowhere", "without", "zero",
};

static int negation_word(const char *w, int len)
{
    return ends_with(w, len, "n't") || WORD_IN(w, len, negations);
}

/* The content words of a query (stem and first spelling) and whether it is
 * negated; per sentence, which of the words occur and whether it is. */
typedef struct {
    char stem[MAX_QTERMS][STEM_LEN + 1];
    char word[MAX_QTERMS][64];
    int nterms, negated;
    int found[MAX_QTERMS], sentence_negated;
} terms;

static void on_term(const char *w, int len, void *ud)
{
    terms *t = ud;
    char s[STEM_LEN + 1];
    if (negation_word(w, len)) {
        t->negated = 1;
        return;
    }
    if (rt_is_stopword(w, len) || !stem(w, len, s) || t->nterms == MAX_QTERMS) return;
    for (int i = 0; i < t->nterms; i++)
        if (!strcmp(t->stem[i], s)) return;
    memcpy(t->word[t->nterms], w, (size_t)len);
    t->word[t->nterms][len] = 0;
    memcpy(t->stem[t->nterms++], s, sizeof s);
}

static void on_sentence_word(const char *w, int len, void *ud)
{
    terms *t = ud;
    char s[STEM_LEN + 1];
    if (negation_word(w, len)) t->sentence_negated = 1;
    if (!stem(w, len, s)) return;
    for (int i = 0; i < t->nterms; i++)
        if (!strcmp(t->stem[i], s)) t->found[i] = 1;
}

/* Fraction of T's words found in SENTENCE; *negated: whether it has a
 * negation. */
static double overlap(terms *t, const char *sentence, int *negated)
{
    memset(t->found, 0, sizeof t->found);
    t->sentence_negated = 0;
    rt_tokenize(sentence, on_sentence_word, t);
    *negated = t->sentence_negated;
    if (!t->nterms) return 0;
    int k = 0;
    for (int i = 0; i < t->nterms; i++) k += t->found[i];
    return (double)k / t->nterms;
}

/* 1 when a and b have the same letters and digits, ignoring case and the
 * rest. */
static int same_words(const char *a, const char *b)
{
    for (;;) {
        while (*a && !isalnum((unsigned char)*a)) a++;
        while (*b && !isalnum((unsigned char)*b)) b++;
        if (!*a || !*b) return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
        a++;
        b++;
    }
}

/* ---- sentences of the passages, embedded ------------------------------- */

typedef struct {
    gn_buf text;            /* the sentences, each NUL-terminated */
    size_t *off, *len;      /* per sentence: offset in text, length */
    int n, cap;
    int nlead;              /* texts embedded before the sentences */
    const char **ptr;       /* the nlead texts, then the n sentences */
    float *vec;             /* (nlead + n) * dim, in ptr order */
    int dim;
} sents;

static void on_split(const char *s, size_t len, void *ud)
{
    sents *S = ud;
    if (S->n == S->cap) {
        S->cap = S->cap ? 2 * S->cap : 64;
        S->off = xrealloc(S->off, sizeof *S->off * (size_t)S->cap);
        S->len = xrealloc(S->len, sizeof *S->len * (size_t)S->cap);
    }
    S->off[S->n] = S->text.len;
    S->len[S->n] = len;
    gn_buf_add(&S->text, s, len);
    gn_buf_add(&S->text, "", 1);
    S->n++;
}

static void sents_release(sents *S)
{
    gn_buf_release(&S->text);
    free(S->off);
    free(S->len);
    free(S->ptr);
    free(S->vec);
}

static const char *sent(const sents *S, int i) { return S->text.data + S->off[i]; }
static const float *svec(const sents *S, int i)
{
    return S->vec + (size_t)(S->nlead + i) * S->dim;
}
static const float *lvec(const sents *S, int j) { return S->vec + (size_t)j * S->dim; }

/* Split the passages and embed the NLEAD texts LEAD with the sentences. */
static int sents_load(sents *S, rt_embedder *em, const char *const *lead, int nlead,
                      const char *const *passages, int n, gn_err *e)
{
    memset(S, 0, sizeof *S);
    gn_buf_init(&S->text);
    for (int i = 0; i < n; i++) llm_offline_sentences(passages[i], 0, on_split, S);
    if (!S->n) return 0;
    S->nlead = nlead;
    S->ptr = xmalloc(sizeof *S->ptr * (size_t)(nlead + S->n));
    for (int j = 0; j < nlead; j++) S->ptr[j] = lead[j];
    for (int i = 0; i < S->n; i++) S->ptr[nlead + i] = sent(S, i);
    int rc = rt_embed_alloc(em, S->ptr, nlead + S->n, &S->vec, e);
    S->dim = rt_embedder_dim(em);
    return rc;
}

static int check_args(rt_embedder *em, const char *const *passages, int n, gn_err *e)
{
    if (!em) return gn_err_set(e, GN_EUSAGE, "offline fallback: no embedder");
    if (n < 0 || (n > 0 && !passages))
        return gn_err_set(e, GN_EUSAGE, "offline fallback: bad passage list");
    return 0;
}

/* ---- answer and match -------------------------------------------------- */

/* Score every sentence; returns the best index (ties to the earlier) or -1,
 * and fills score[S->n].  The leading vectors are the query, then its
 * content words one by one (offline.h gives the formula). */
static int rank(sents *S, terms *t, int polarity, double *score)
{
    int best = -1;
    for (int i = 0; i < S->n; i++) {
        const float *v = svec(S, i);
        double whole = rt_dot(lvec(S, 0), v, S->dim), weakest = whole;
        for (int j = 1; j < S->nlead; j++) {
            double c = rt_dot(lvec(S, j), v, S->dim);
            if (j == 1 || c < weakest) weakest = c;
        }
        int neg;
        double s = (1 - COVERAGE) * whole + COVERAGE * weakest;
        s += OVERLAP_BONUS * overlap(t, sent(S, i), &neg);
        if (polarity && neg != t->negated) s -= NEGATION_PENALTY;
        score[i] = s;
        if (best < 0 || s > score[best]) best = i;
    }
    return best;
}

/* Load, embed and rank; *best_i is -1 when there are no sentences. */
static int load_ranked(sents *S, double **score, int *best_i, rt_embedder *em, const char *question,
                       const char *const *passages, int n, int polarity, gn_err *e)
{
    *score = NULL;
    *best_i = -1;
    int rc = check_args(em, passages, n, e);
    if (!rc && !question) rc = gn_err_set(e, GN_EUSAGE, "offline fallback: no question");
    if (rc) {
        memset(S, 0, sizeof *S);
        return rc;
    }
    gn_buf q;
    gn_buf_init(&q);
    llm_offline_query(question, &q);
    terms t = { .nterms = 0 };
    rt_tokenize(q.data, on_term, &t);
    const char *lead[1 + MAX_QTERMS];
    lead[0] = q.data;
    for (int j = 0; j < t.nterms; j++) lead[1 + j] = t.word[j];
    rc = sents_load(S, em, lead, 1 + t.nterms, passages, n, e);
    if (!rc && S->n) {
        *score = xmalloc(sizeof **score * (size_t)S->n);
        *best_i = rank(S, &t, polarity, *score);
    }
    gn_buf_release(&q);
    return rc;
}

static int near_dup(const sents *S, int a, int b)
{
    return same_words(sent(S, a), sent(S, b)) || rt_dot(svec(S, a), svec(S, b), S->dim) >= NEAR_DUP;
}

/* The runner-up worth adding to sentence b, or -1. */
static int runner_up(const sents *S, const double *score, int b, double threshold)
{
    int r = -1;
    for (int i = 0; i < S->n; i++) {
        if (i == b || (r >= 0 && score[i] <= score[r])) continue;
        if (score[i] < threshold || score[i] < score[b] - RUNNER_UP_MARGIN) continue;
        if (S->len[b] + 1 + S->len[i] > LLM_OFFLINE_SENT_MAX || near_dup(S, b, i)) continue;
        r = i;
    }
    return r;
}

int llm_offline_answer(rt_embedder *em, const char *question, const char *const *passages,
                       int n, double threshold, gn_buf *out, double *best, gn_err *e)
{
    sents S;
    double *score;
    int b;
    gn_buf_reset(out);
    if (best) *best = 0;
    int rc = load_ranked(&S, &score, &b, em, question, passages, n, 0, e);
    if (!rc && b >= 0 && best) *best = score[b];
    if (!rc && b >= 0 && score[b] >= threshold) {
        int r = runner_up(&S, score, b, threshold);
        int first = r >= 0 && r < b ? r : b, second = r >= 0 && r < b ? b : r;
        gn_buf_puts(out, sent(&S, first));
        if (second >= 0) {
            gn_buf_putc(out, ' ');
            gn_buf_puts(out, sent(&S, second));
        }
    } else if (!rc) {
        gn_buf_puts(out, LLM_OFFLINE_NO_INFO);
    }
    free(score);
    sents_release(&S);
    return rc;
}

int llm_offline_match(rt_embedder *em, const char *question, const char *const *passages,
                      int n, double threshold, double *best, gn_err *e)
{
    sents S;
    double *score;
    int b;
    if (best) *best = 0;
    int rc = load_ranked(&S, &score, &b, em, question, passages, n, 1, e);
    if (!rc && b >= 0 && best) *best = score[b];
    int yes = !rc && b >= 0 && score[b] >= threshold;
    free(score);
    sents_release(&S);
    return rc ? -1 : yes;
}

/* ---- summary ----------------------------------------------------------- */

/* Centrality of each sentence: cosine to the normalized sum of all. */
static void centrality(const sents *S, double *cent)
{
    float *c = xcalloc((size_t)S->dim, sizeof *c);
    for (int i = 0; i < S->n; i++)
        for (int d = 0; d < S->dim; d++) c[d] += svec(S, i)[d];
    rt_vec_normalize(c, S->dim);
    for (int i = 0; i < S->n; i++) cent[i] = rt_dot(svec(S, i), c, S->dim);
    free(c);
}

/* Write S, longer than max bytes, cut at a word boundary to fit in max
 * bytes with "..." (hard and without it when max is tiny). */
static void put_cut(gn_buf *out, const char *s, size_t max)
{
    if (max < 4) {
        gn_buf_add(out, s, char_start(s, max));
        return;
    }
    size_t cut = max - 3;
    while (cut > 0 && !is_space((unsigned char)s[cut])) cut--;
    if (cut == 0) cut = char_start(s, max - 3);
    while (cut > 0 && (is_space((unsigned char)s[cut - 1]) || strchr(",;:-", s[cut - 1]))) cut--;
    gn_buf_add(out, s, cut);
    gn_buf_puts(out, "...");
}

typedef struct {
    double *cent, *maxsim;
    char *state;            /* 0 candidate, 1 picked, 2 excluded */
    size_t used;
    size_t sep;             /* bytes before the next pick: " ", or " … "
                               after a piece of a long sentence */
    int npicked, last;      /* picks so far, the latest */
} mmr;

/* The next sentence to pick that fits in max bytes, or -1. */
static int mmr_next(const sents *S, const mmr *m, size_t max)
{
    int b = -1;
    double bs = 0;
    for (int i = 0; i < S->n; i++) {
        if (m->state[i]) continue;
        if (m->used + (m->npicked ? m->sep : 0) + S->len[i] > max) continue;
        /* A sentence of no known word is a pick only when nothing else is. */
        if (m->npicked && m->cent[i] <= 0) continue;
        double s = MMR_LAMBDA * m->cent[i] - (1 - MMR_LAMBDA) * m->maxsim[i];
        if (b < 0 || s > bs) { b = i; bs = s; }
    }
    return b;
}

/* Does OUT end a sentence (or a clause), rather than a piece cut from a
 * long one? */
static int ends_sentence(const gn_buf *out)
{
    size_t n = out->len;
    while (n > 0 && closer_len(out->data + n - 1) == 1) n--;
    return n > 0 && (is_term(out->data[n - 1]) || out->data[n - 1] == ';' || out->data[n - 1] == ':');
}

static void mmr_pick(const sents *S, mmr *m, int p, gn_buf *out)
{
    /* a piece of a long sentence is never read on into another one (its
     * own next piece continues it) */
    if (m->npicked) gn_buf_puts(out, ends_sentence(out) || p == m->last + 1 ? " " : " … ");
    gn_buf_puts(out, sent(S, p));
    m->used = out->len;
    m->sep = ends_sentence(out) ? 1 : strlen(" … ");
    m->last = p;
    m->npicked++;
    m->state[p] = 1;
    for (int i = 0; i < S->n; i++) {
        if (m->state[i]) continue;
        double c = rt_dot(svec(S, i), svec(S, p), S->dim);
        if (c > m->maxsim[i] || m->npicked == 1) m->maxsim[i] = c;
        if (c >= NEAR_DUP || same_words(sent(S, i), sent(S, p))) m->state[i] = 2;
    }
}

int llm_offline_summary(rt_embedder *em, const char *const *passages, int n, size_t max_chars,
                        gn_buf *out, gn_err *e)
{
    gn_buf_reset(out);
    int rc = check_args(em, passages, n, e);
    if (rc) return rc;
    if (!max_chars) max_chars = LLM_OFFLINE_SUMMARY_MAX;
    sents S;
    rc = sents_load(&S, em, NULL, 0, passages, n, e);
    if (rc || !S.n) {
        if (!rc) gn_buf_puts(out, LLM_OFFLINE_NO_INFO);
        sents_release(&S);
        return rc;
    }
    mmr m = { xmalloc(sizeof(double) * (size_t)S.n), xcalloc((size_t)S.n, sizeof(double)),
              xcalloc((size_t)S.n, 1), 0, 0, 0, -2 };
    centrality(&S, m.cent);
    int p;
    if (n == 1) {
        /* One text (a description, a program's requirements): its lead
         * sentences in order, the facts a catalog text opens with, then
         * the later ones that still fit. */
        for (int i = 0; i < S.n; i++)
            if (!m.state[i] && m.used + (m.npicked ? m.sep : 0) + S.len[i] <= max_chars) mmr_pick(&S, &m, i, out);
    } else {
        while ((p = mmr_next(&S, &m, max_chars)) >= 0) mmr_pick(&S, &m, p, out);
    }
    if (!m.npicked) {
        int b = 0;
        for (int i = 1; i < S.n; i++)
            if (m.cent[i] > m.cent[b]) b = i;
        put_cut(out, sent(&S, b), max_chars);
    }
    free(m.cent);
    free(m.maxsim);
    free(m.state);
    sents_release(&S);
    return 0;
}
