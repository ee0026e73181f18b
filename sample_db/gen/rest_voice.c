/*
 * rest_voice.c — how one restaurant's reviewers talk: slot values and
 * filler choice for the review composer (review.c).
 *
 * Slots draw from this restaurant's own data (its dishes, city, cuisine,
 * style of service), so a review of a taqueria mentions its tacos and a
 * counter-service place has a cashier, not a waiter.  Within one review a
 * dish is not mentioned twice.  Verb agreement ({was}, {is}, {its}, {it})
 * follows the last dish named, by a plural heuristic good enough for menus.
 */
#include "restaurant.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct voice {
    const gen_restaurant *r;
    gen_rng *rng;
    unsigned char used[GEN_REST_MAX_DISHES];
    int plural;
    /* per review: templates used, and whether price/service came up */
    gen_said said;
    int price_said, service_said;
    char dish[128];
    gn_buf tmp;
} voice;

static const struct { const char *name, *tpl; } SIMPLE[] = {
    {"who", "[my wife|my husband|a friend|my sister|my brother|my roommate|my parents|my boyfriend|"
            "my girlfriend|an old friend|my partner|my mom]"},
    {"partner", "[my wife|my husband|my partner|my girlfriend|my boyfriend|my fiance]"},
    {"mins", "[twenty minutes|half an hour|twenty-five minutes|forty minutes|almost an hour]"},
    {"long", "[over an hour|an hour and a half|45 minutes|almost two hours|a solid hour]"},
    {"num", "[eight|ten|twelve|nine|fifteen|eleven]"},
    {"adj", "[delicious|fantastic|excellent|outstanding|so good|perfect|really well done|incredible|"
            "spot on|amazing|fresh and flavorful|top notch]"},
    {"bad", "[bland|disappointing|underwhelming|forgettable|mediocre|pretty sad|lackluster|just okay|"
            "not worth it]"},
    {"dog", "[our dog|our pup|my golden retriever|our corgi|my lab|our little terrier]"},
};

static int is_plural(const char *dish)
{
    size_t n = strlen(dish);
    if (n < 3 || dish[n - 1] != 's') return 0;
    return !(dish[n - 2] == 's' || dish[n - 2] == 'u' || dish[n - 2] == 'i');
}

/* Menus are stored lowercase ("korean fried chicken"); running text
 * capitalizes the proper names in them. */
static const char *const PROPER[] = {
    "korean", "french", "greek", "thai", "caesar", "cuban", "italian", "philly", "english", "earl grey",
    "new york", "general tso's", "st. louis", "california", "peking", "hawaiian", "belgian", "denver",
    "buffalo", "shanghai", "sichuan", "cantonese", "dungeness", "meyer", "japanese", "chongqing",
    "yang chow", "taiwanese", "vietnamese", "niçoise", "reuben", "cobb", "lorraine", "benedict", "louie",
    "guinness", "irish", "turkish", "spanish", "mexican", "london", "moscow", "manhattan", "key lime",
    "basque", "scotch", "swiss", "rockefeller", "alfredo", "impossible", "beyond", "aperol", NULL};

static const char *proper_case(voice *v, const char *dish)
{
    snprintf(v->dish, sizeof v->dish, "%s", dish);
    for (const char *const *w = PROPER; *w; w++) {
        size_t n = strlen(*w);
        for (char *p = strstr(v->dish, *w); p; p = strstr(p + n, *w)) {
            int start = p == v->dish || p[-1] == ' ';
            int end = !isalpha((unsigned char)p[n]);
            if (!start || !end || (p - v->dish >= 4 && !strncmp(p - 4, "pad ", 4))) continue;
            for (size_t i = 0; i < n; i++)
                if (i == 0 || p[i - 1] == ' ') p[i] = (char)toupper((unsigned char)p[i]);
        }
    }
    return v->dish;
}

static const char *pick_dish(voice *v)
{
    const gen_restaurant *r = v->r;
    int n = r->ndish - r->nkids, cand[GEN_REST_MAX_DISHES], nc = 0;
    for (int i = 0; i < n; i++)
        if (!v->used[i]) cand[nc++] = i;
    int k = nc ? cand[gen_rng_below(v->rng, (size_t)nc)] : (int)gen_rng_below(v->rng, (size_t)n);
    v->used[k] = 1;
    v->plural = is_plural(r->dish[k]);
    return proper_case(v, r->dish[k]);
}

static const char *expand_tmp(voice *v, const char *tpl)
{
    gn_buf_reset(&v->tmp);
    gen_tpl_expand(&v->tmp, tpl, v->rng, NULL, NULL);
    return v->tmp.data;
}

static const char *when_tpl(const gen_restaurant *r)
{
    switch (gen_cuisine_table[r->cuisine[0]].hours) {
    case GEN_HOURS_CAFE:
    case GEN_HOURS_BREAKFAST:
        return "[on a Saturday morning|for breakfast|before work|on a lazy Sunday|for a late breakfast|last weekend]";
    case GEN_HOURS_BAR:
        return "[after work|on a Friday night|last weekend|on a Thursday night|for a friend's birthday]";
    case GEN_HOURS_COUNTER:
    case GEN_HOURS_LATE:
        return "[for lunch|on a weekday|last weekend|after a movie|on a Sunday afternoon]";
    default:
        return "[for dinner|for lunch|on a Friday night|last weekend|on a weeknight|for a birthday dinner|on a Sunday]";
    }
}

static const char *staff_tpl(const gen_restaurant *r)
{
    int hours = gen_cuisine_table[r->cuisine[0]].hours;
    if (hours == GEN_HOURS_CAFE) return "[the barista|the woman at the counter|the owner|the guy at the register]";
    if (r->flags & GEN_CF_COUNTER) return "[the cashier|the guy at the register|the woman at the counter|the owner]";
    if (hours == GEN_HOURS_BAR) return "[the bartender|our server|the bartender|the owner]";
    return "[our server|our waiter|our waitress|the host|the owner|the manager]";
}

static const char *hh_tpl(const gen_restaurant *r)
{
    const char *c = gen_cuisine_table[r->cuisine[0]].name;
    if (!strcmp(c, "wine bars")) return "[glasses of wine|wines by the glass|glasses of bubbly]";
    if (!strcmp(c, "cocktail bars")) return "[cocktails|classic cocktails|house cocktails]";
    if (!strcmp(c, "bars") || !strcmp(c, "irish pub") || !strcmp(c, "gastropubs"))
        return "[pints|draft beers|well drinks]";
    if (!strcmp(c, "mexican") || !strcmp(c, "tacos")) return "[margaritas|micheladas|beers]";
    if (!strcmp(c, "japanese") || !strcmp(c, "sushi")) return "[sake pours|Japanese beers|hand rolls]";
    return "[draft beers|house wines|well drinks|cocktails]";
}

static const char *city_tpl(const gen_restaurant *r)
{
    static const char *const alias[] = {
        "[San Francisco|SF|the city|San Francisco]", "[Palo Alto|Palo Alto|the Peninsula]",
        "[Sunnyvale|Sunnyvale|the South Bay]", "[Cupertino|Cupertino|the South Bay]"};
    return r->city < 4 ? alias[r->city] : gen_city_table[r->city].name;
}

static const char *place_tpl(const gen_restaurant *r)
{
    const gen_cuisine *c = &gen_cuisine_table[r->cuisine[0]];
    if (!strcmp(c->name, "bakeries")) return "bakery";
    if (c->hours == GEN_HOURS_CAFE) return "[cafe|coffee shop|spot]";
    if (c->hours == GEN_HOURS_BAR) return "[bar|spot]";
    if (r->flags & GEN_CF_COUNTER) return "[spot|place]";
    return "[restaurant|spot|place]";
}

static const char *kids_dish(voice *v)
{
    const gen_restaurant *r = v->r;
    if (r->nkids > 0)
        return r->dish[r->ndish - r->nkids + (int)gen_rng_below(v->rng, (size_t)r->nkids)];
    return expand_tmp(v, "[chicken tenders|mac and cheese|mini pizza|grilled cheese|buttered noodles]");
}

static int is(const char *name, size_t len, const char *s)
{
    return strlen(s) == len && !memcmp(name, s, len);
}

static const char *slot(void *ud, const char *name, size_t len)
{
    voice *v = ud;
    const gen_restaurant *r = v->r;
    for (size_t i = 0; i < sizeof SIMPLE / sizeof SIMPLE[0]; i++)
        if (is(name, len, SIMPLE[i].name)) return expand_tmp(v, SIMPLE[i].tpl);
    if (is(name, len, "dish") || is(name, len, "dish2")) return pick_dish(v);
    if (is(name, len, "was")) return v->plural ? "were" : "was";
    if (is(name, len, "is")) return v->plural ? "are" : "is";
    if (is(name, len, "its")) return v->plural ? "they're" : "it's";
    if (is(name, len, "it")) return v->plural ? "they" : "it";
    if (is(name, len, "when")) return expand_tmp(v, when_tpl(r));
    if (is(name, len, "staff")) return expand_tmp(v, staff_tpl(r));
    if (is(name, len, "hh")) return expand_tmp(v, hh_tpl(r));
    if (is(name, len, "city")) return expand_tmp(v, city_tpl(r));
    if (is(name, len, "place")) return expand_tmp(v, place_tpl(r));
    if (is(name, len, "view")) return expand_tmp(v, gen_city_table[r->city].views);
    if (is(name, len, "noun")) return gen_cuisine_table[r->cuisine[0]].noun;
    if (is(name, len, "kidsdish")) return kids_dish(v);
    if (is(name, len, "name")) return r->name;
    return NULL;
}

static void begin(void *ud, int stars)
{
    voice *v = ud;
    (void)stars;
    memset(v->used, 0, sizeof v->used);
    v->plural = 0;
    v->said.n = v->price_said = v->service_said = 0;
}

/* Sentiment of a body sentence for a review with these stars. */
static int mood(gen_rng *r, int stars)
{
    static const double w[5][3] = {  /* good, mixed, bad */
        {0.00, 0.05, 0.95}, {0.05, 0.30, 0.65}, {0.22, 0.58, 0.20}, {0.75, 0.25, 0.00}, {0.95, 0.05, 0.00}};
    return (int)gen_rng_weighted(r, w[stars - 1], 3);
}

/* One price and one service remark per review at most: a reviewer who
 * calls a place a splurge does not also call it a bargain. */
static const char *const *body_list(voice *v, gen_rng *r, int stars)
{
    static const double kind_w[] = {0.62, 0.20, 0.18};
    int m = mood(r, stars);
    size_t kind = gen_rng_weighted(r, kind_w, 3);
    if (kind == 1 && !v->service_said) {
        v->service_said = 1;
        return m == 0 ? gen_rphr_service_good : m == 1 ? gen_rphr_service_mixed : gen_rphr_service_bad;
    }
    if (kind == 2 && !v->price_said) {
        v->price_said = 1;
        int bad = m == 2 || (m == 1 && gen_rng_chance(r, 0.5));
        return bad ? gen_rphr_price_bad[v->r->price] : gen_rphr_price_good[v->r->price];
    }
    return m == 0 ? gen_rphr_food_good : m == 1 ? gen_rphr_food_mixed : gen_rphr_food_bad;
}

static void fill(void *ud, gen_rng *r, int kind, int stars, gn_buf *out)
{
    voice *v = ud;
    const char *const *list;
    if (kind == GEN_FILL_OPENER)
        list = stars >= 4 ? gen_rphr_opener_good : stars == 3 ? gen_rphr_opener_mid : gen_rphr_opener_bad;
    else if (kind == GEN_FILL_CLOSER)
        list = gen_rphr_closer[stars - 1];
    else
        list = body_list(v, r, stars);
    gen_tpl_expand(out, gen_pick_fresh(&v->said, r, list), r, slot, v);
}

void gen_rest_reviews(const gen_restaurant *r, gen_rng *rng, gen_review_set *s)
{
    voice v = {.r = r, .rng = rng};
    gn_buf_init(&v.tmp);
    gen_review_spec spec = {
        .nreviews = GEN_REST_REVIEWS,
        .nattr = RA_COUNT,
        .value = r->attr,
        .templates = gen_rphr_attr,
        .good = gen_rattr_good,
        .min_mentions = 2,
        .max_mentions = 5,
        .mean_stars = r->rating,
        .begin = begin,
        .fill = fill,
        .slot = slot,
        .ud = &v,
    };
    gen_reviews_compose(&spec, rng, s);
    gn_buf_release(&v.tmp);
}
