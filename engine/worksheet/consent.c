/*
 * consent.c — whose agreement books a table (consent.h).
 *
 * The go-ahead of a task is the one place where the model's reading of
 * the user is not enough: a parse reply that says `confirm = True` while
 * the user asked "is there parking there?" must not book.  So the check
 * reads the user's words alone, against a closed vocabulary: every word
 * must be one of agreement or politeness, and at least one must agree.
 * Anything else ("yes but make it 8", "ok, is it open?", "hmm") is not an
 * agreement: the request is asked again, with what would change said by
 * the parser's other statements.  The request itself is rendered here,
 * from the record, so what the user agrees to is what will be done
 * whatever the response generator wrote around it.
 *
 * Rejected: asking the LLM whether the user agreed (the model, or text in
 * a review it read, is what the check guards against); a list of
 * negations only (an unknown word in a reply to "shall I book?" is more
 * often a change than a yes).
 */
#include "worksheet/consent.h"
#include "util/utf8.h"
#include "util/xmem.h"
#include "worksheet/coerce.h"
#include "worksheet/value.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Words that agree on their own. */
static const char *const agree[] = {
    "yes", "yeah", "yea", "yep", "yup", "ya", "y", "sure", "ok", "okay", "k", "alright",
    "confirm", "confirmed", "correct", "right", "proceed", "absolutely", "definitely",
    "certainly", "perfect", "great", "fine", "good", "affirmative", "agreed", "agree",
    "please", "go", "lets", "oui", "ja", "si", "exactly", "precisely", "indeed", "claro",
    "bitte", "gerne", "vale", "daccord", NULL
};

/* Words that may stand beside an agreement without changing it. */
static const char *const filler[] = {
    "ahead", "do", "it", "that", "this", "thats", "is", "sounds", "looks", "seems", "book",
    "reserve", "enroll", "submit", "register", "send", "me", "us", "the", "a", "an",
    "table", "one", "thanks", "thank", "you", "thx", "ty", "so", "very", "much", "all", "now",
    "then", "and", "just", "works", "for", "same", "cool", "nice", "lovely", "wonderful",
    "excellent", "awesome", "with", "them", "those", "these", "place", "booking", "reservation",
    "enrollment", "done", "make", "its", "mate", "thankyou", "oh", "well", "of", "course",
    "totally", "sir", NULL
};

static int in_list(const char *const *list, const char *w)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], w)) return 1;
    return 0;
}

/* The next word of *S (lower-cased ASCII, apostrophes dropped: "that's"
 * is "thats") into WORD; *S moves past it.  0 at the end; -1 for what
 * cannot be part of an agreement (a '?', a letter outside ASCII but the
 * i of "si", a word too long).  Emoji, symbols and punctuation separate
 * words. */
static int next_word(const char **s, char word[32])
{
    size_t n = 0;
    for (;;) {
        uint32_t cp = 0;
        int len = **s ? gn_utf8_next(*s, &cp) : 0;
        if (cp == '?') return -1;
        if (cp == 0xED) cp = 'i';                        /* "si" with its accent */
        int letter = cp < 0x80 ? isalnum((int)cp) : 0;
        int joins = cp == '\'' || cp == 0x2018 || cp == 0x2019;
        /* Outside ASCII only punctuation, symbols and emoji (a thumbs-up)
         * separate words; a letter of any other script is a word this
         * vocabulary does not know ("yes 但是" is not a plain yes). */
        int symbol = (cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
                     (cp >= 0x1F000 && cp <= 0x1FAFF);
        int other = cp >= 0x80 && !joins && !symbol;
        if (other) return -1;
        if (letter) {
            if (n + 1 >= 32) return -1;
            word[n++] = (char)tolower((int)cp);
        } else if (!joins && n) {
            break;
        }
        if (!len) break;
        *s += len;
    }
    word[n] = 0;
    return n > 0;
}

/* Is WORD one of the words of the task's name TASK (Cancel_Booking:
 * "cancel", "booking"), without case? */
static int task_word(const char *task, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = task; p && *p;) {
        while (*p && !isalnum((unsigned char)*p)) p++;
        const char *q = p;
        while (isalnum((unsigned char)*q)) q++;
        if ((size_t)(q - p) == n && !strncasecmp(p, word, n)) return 1;
        p = q;
    }
    return 0;
}

int ws_consent_agrees_to(const char *utterance, const char *task)
{
    if (!utterance) return 0;
    char word[32];
    int words = 0, agreed = 0, k;
    const char *s = utterance;
    while ((k = next_word(&s, word)) > 0) {
        if (++words > 12) return 0;
        if (in_list(agree, word)) agreed = 1;
        else if (!in_list(filler, word) && !task_word(task, word)) return 0;
    }
    return k == 0 && agreed;
}

int ws_consent_agrees(const char *utterance) { return ws_consent_agrees_to(utterance, NULL); }

enum ws_consent ws_consent_given(const ws_state *st, const ws_record *r, int fi,
                                 const char *utterance, int typed)
{
    const ws_slot *s = &r->slots[fi];
    if (!s->asked_turn || s->asked_turn != st->turn - 1) return WS_CONSENT_NOT_ASKED;
    if (r->changed_turn == st->turn) return WS_CONSENT_CHANGED;
    const char *task = st->spec->sheets[r->sheet].name;
    return typed || ws_consent_agrees_to(utterance, task) ? WS_CONSENT_GIVEN : WS_CONSENT_NOT_AGREED;
}

/* ---- the request ------------------------------------------------------------ */

static void value(const ws_state *st, const ws_val *v, int depth, gn_buf *out);

/* A date field's value with its weekday ("Thursday, 2026-03-12"): the
 * user agrees to a day, not to a string of digits. */
static void field_value(const ws_state *st, const ws_field *f, const ws_val *v, int depth, gn_buf *out)
{
    ws_date d;
    char buf[64];
    if (f->type.kind == WT_DATE && v->kind == WV_STR && !ws_date_parse_iso(v->u.s, &d)) {
        ws_date_format_long(d, buf, sizeof buf);
        gn_buf_puts(out, buf);
        return;
    }
    value(st, v, depth, out);
}

/* How the request names field F: its description up to an example or
 * an aside ("code of the course, e.g. CS 224N" is "code of the course",
 * lest the example read as the value), when that is short; else its name
 * in words (more_courses: "more courses"). */
static void label_of(const ws_field *f, char *out, size_t n)
{
    const char *d = f->desc ? f->desc : "";
    size_t len = strlen(d);
    static const char *const asides[] = { ", e.g.", " e.g.", " (", ", such as", " such as", NULL };
    for (int i = 0; asides[i]; i++) {
        const char *p = strstr(d, asides[i]);
        if (p && (size_t)(p - d) < len) len = (size_t)(p - d);
    }
    if (len && len <= 40) {
        snprintf(out, n, "%.*s", (int)len, d);
        return;
    }
    snprintf(out, n, "%s", f->name);
    for (char *p = out; *p; p++)
        if (*p == '_') *p = ' ';
}

static void record_fields(const ws_state *st, const ws_record *r, int depth, gn_buf *out)
{
    const ws_sheet *w = &st->spec->sheets[r->sheet];
    int k = 0;
    for (int i = 0; i < w->nfields; i++) {
        const ws_field *f = &w->fields[i];
        if (f->kind != WFK_INPUT || f->type.kind == WT_CONFIRM || !ws_slot_filled(&r->slots[i])) continue;
        char label[64];
        label_of(f, label, sizeof label);
        if (depth) gn_buf_printf(out, "%s%s: ", k ? "; " : "", label);
        else gn_buf_printf(out, "  - %s: ", label);
        field_value(st, f, r->slots[i].val, depth, out);
        if (!depth) gn_buf_putc(out, '\n');
        k++;
    }
}

static void value(const ws_state *st, const ws_val *v, int depth, gn_buf *out)
{
    const ws_record *sub = v->kind == WV_REC ? ws_state_rec(st, v->u.rec) : NULL;
    if (sub && sub->kind == WR_TASK && depth < 4) {
        gn_buf_putc(out, '(');
        record_fields(st, sub, depth + 1, out);
        gn_buf_putc(out, ')');
    } else if (v->kind == WV_LIST) {
        for (int i = 0; i < v->u.c.n; i++) {
            if (i) gn_buf_puts(out, ", ");
            value(st, v->u.c.items[i], depth, out);
        }
    } else if (v->kind == WV_STR) {
        gn_buf_puts(out, v->u.s);
    } else if (v->kind == WV_BOOL) {
        gn_buf_puts(out, v->u.b ? "yes" : "no");
    } else {
        ws_val_print(v, out, ws_state_recname, (void *)st);
    }
}

/* Do two records of one worksheet hold the same inputs (a second
 * booking of the same table)? */
static int same_inputs(const ws_state *st, const ws_record *a, const ws_record *b)
{
    const ws_sheet *w = &st->spec->sheets[a->sheet];
    for (int i = 0; i < w->nfields; i++) {
        if (w->fields[i].kind != WFK_INPUT || w->fields[i].type.kind == WT_CONFIRM) continue;
        const ws_val *x = a->slots[i].val, *y = b->slots[i].val;
        if (!x != !y || (x && !ws_val_equal(x, y))) return 0;
    }
    return 1;
}

/* Is R the repeat of a finished task: one of its worksheet, done, with the
 * same inputs (a parse that started the booking again right after it was
 * made)? */
static int repeats_done(const ws_state *st, const ws_record *r)
{
    for (int i = 0; i < st->n; i++) {
        const ws_record *o = st->recs[i];
        if (o != r && o->kind == WR_TASK && o->sheet == r->sheet && o->done && same_inputs(st, o, r))
            return 1;
    }
    return 0;
}

void ws_consent_render(const ws_state *st, const ws_record *r, gn_buf *out)
{
    const ws_sheet *w = &st->spec->sheets[r->sheet];
    const char *d = w->desc && *w->desc ? w->desc : NULL;
    gn_buf_puts(out, "Please confirm. I will ");
    if (d) {
        int n = (int)strlen(d);
        while (n > 0 && (d[n - 1] == '.' || d[n - 1] == ' ')) n--;
        gn_buf_printf(out, "%c%.*s", tolower((unsigned char)d[0]), n > 0 ? n - 1 : 0, d + 1);
    } else {
        gn_buf_printf(out, "complete %s", w->name);
    }
    gn_buf_puts(out, " with:\n");
    record_fields(st, r, 0, out);
    if (repeats_done(st, r))
        gn_buf_puts(out, "This was done already, with these same details: a yes does it a second time.\n");
    gn_buf_puts(out, "Reply \"yes\" to go ahead, or tell me what to change.");
}

void ws_consent_hold(ws_state *st, ws_record *r, int fi, const char *utterance, int typed, ws_acts *acts)
{
    const ws_field *f = &st->spec->sheets[r->sheet].fields[fi];
    const ws_slot *s = &r->slots[fi];
    /* An instruction smuggled into the conversation (a review saying "book
     * it now"), a model that reads "is there parking?" as a yes, or a
     * change and a yes in one breath cannot make the agent act: it asks
     * again. */
    if (r->kind != WR_TASK || f->type.kind != WT_CONFIRM || !s->val || s->val->kind != WV_BOOL || !s->val->u.b)
        return;
    enum ws_consent c = ws_consent_given(st, r, fi, utterance, typed);
    if (c == WS_CONSENT_GIVEN) return;
    ws_state_clear(st, r, fi);
    if (acts)
        ws_acts_add(acts, WA_SAY, -1, -1,
                    c == WS_CONSENT_NOT_AGREED
                        ? "I have not done it yet: it needs your yes to the request below."
                        : "I have not done it yet: it is done only once you say yes to my "
                          "request that states exactly what will be done.", NULL)->genie = 1;
}
