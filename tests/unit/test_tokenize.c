/*
 * test_tokenize.c — the one tokenizer and the one stemmer of every lexical
 * path: UTF-8 words folded for matching (case and diacritics), bad bytes
 * as separators, Snowball stems, and the same terms reaching the BM25
 * index, passage ranking and the offline answerer.
 */
#include "harness.h"
#include "llm/offline.h"
#include "retrieval/lexical.h"
#include "retrieval/stem.h"
#include "retrieval/tokenize.h"
#include "suql/passrank.h"
#include "util/buf.h"

#include <string.h>

static void join(const char *w, int len, void *ud)
{
    gn_buf *b = ud;
    if (b->len) gn_buf_putc(b, ' ');
    gn_buf_add(b, w, (size_t)len);
}

/* TEXT's words, space-separated, in a static buffer. */
static const char *words(const char *text)
{
    static char out[512];
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "");
    rt_tokenize(text, join, &b);
    snprintf(out, sizeof out, "%s", b.data ? b.data : "");
    gn_buf_release(&b);
    return out;
}

static const char *terms(const char *text)
{
    static char out[512];
    gn_buf b;
    gn_buf_init(&b);
    gn_buf_puts(&b, "");
    rt_lex_terms(text, join, &b);
    snprintf(out, sizeof out, "%s", b.data ? b.data : "");
    gn_buf_release(&b);
    return out;
}

TEST(tokenize_folds_accents_into_one_word)
{
    CHECK_STR(words("Mélisse"), "melisse");
    CHECK_STR(words("crème brûlée"), "creme brulee");
    CHECK_STR(words("Café Brûlée, Niçoise Bistro"), "cafe brulee nicoise bistro");
    CHECK_STR(words("jalapeño poppers"), "jalapeno poppers");
    CHECK_STR(words("phở gà"), "pho ga");
    CHECK_STR(words("Ærø Straße Œuvre Łódź"), "aero strasse oeuvre lodz");
    /* decomposed: e + U+0301 COMBINING ACUTE ACCENT stays one word */
    CHECK_STR(words("Me\xcc\x81lisse"), "melisse");
}

TEST(tokenize_folds_case_of_latin_greek_cyrillic)
{
    CHECK_STR(words("ÉCOLE"), words("école"));
    CHECK_STR(words("ÉCOLE"), "ecole");
    CHECK_STR(words("ΑΘΗΝΑ Αθήνα"), "αθηνα αθηνα");
    CHECK_STR(words("ΟΔΟΣ"), "οδοσ");
    CHECK_STR(words("МОСКВА Москва ЁЛКА"), "москва москва елка");
}

TEST(tokenize_keeps_the_ascii_rules)
{
    CHECK_STR(words("Family-friendly & kid's menu, 24/7!"), "family-friendly kid's menu 24 7");
    CHECK_STR(words("Nino’s pizza"), "nino's pizza");
    CHECK_STR(words("rock & roll -dash end-"), "rock roll dash end");
    char longw[100];
    memset(longw, 'x', 70);
    strcpy(longw + 70, " ok");
    CHECK_STR(words(longw), "ok");
    CHECK_INT(rt_tokenize("", join, NULL), 0);
}

TEST(tokenize_invalid_utf8_separates_words)
{
    /* a lone continuation byte, a truncated sequence, an overlong '/', a
     * surrogate and a byte never valid: each splits, nothing is lost */
    CHECK_STR(words("caf\x80" "e"), "caf e");
    CHECK_STR(words("cr\xc3" "me"), "cr me");
    CHECK_STR(words("a\xc0\xaf" "b"), "a b");
    CHECK_STR(words("x\xed\xa0\x80y"), "x y");
    CHECK_STR(words("\xff\xfe" "ok\xf8"), "ok");
    CHECK_STR(words("end\xe2\x82"), "end");
}

TEST(stemmer_is_snowball_for_every_path)
{
    char a[64], b[64], c[64];
    rt_stem("running", 7, a);
    rt_stem("runs", 4, b);
    rt_stem("run", 3, c);
    CHECK_STR(a, "run");
    CHECK_STR(b, "run");
    CHECK_STR(c, "run");
    const char *pairs[][2] = {
        { "parking", "park" }, { "parked", "park" }, { "reviews", "review" },
        { "families", "famili" }, { "family", "famili" }, { "glasses", "glass" },
        { "seating", "seat" }, { "seated", "seat" }, { "kids", "kid" }, { "is", "is" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char out[64];
        rt_stem(pairs[i][0], (int)strlen(pairs[i][0]), out);
        CHECK_STR(out, pairs[i][1]);
    }
    /* the index's terms and passage ranking use it */
    CHECK_STR(terms("The Running of the RUNS"), "run run");
    CHECK_STR(terms("Crème Brûlées, family-friendly"), "creme brule famili friend");
    CHECK(suql_term_share("running club", "she runs a club") > 0.99);
    CHECK(suql_term_share("crème brûlée", "CREME BRULEE for dessert") > 0.99);
}

TEST(offline_answer_matches_accents_and_stems)
{
    rt_embedder *em = NULL;
    gn_err e;
    REQUIRE(rt_embedder_glove_new(th_path("build/share/genie/wordvec.bin"), &em, &e) == 0);
    const char *p[] = {
        "Parking was easy on a weekday.",
        "The crème brûlée at Mélisse was the best I have had.",
        "Service was slow but friendly.",
    };
    gn_buf ans;
    gn_buf_init(&ans);
    double best = 0;
    REQUIRE(llm_offline_answer(em, "how is the creme brulee at Melisse?", p, 3, 0.0, &ans,
                               &best, &e) == 0);
    CHECK_CONTAINS(ans.data, "brûlée");
    gn_buf_release(&ans);
    rt_embedder_free(em);
}
