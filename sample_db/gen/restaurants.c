/*
 * restaurants.c — the restaurants dataset: records, tables, ground truth.
 *
 * Restaurant i draws everything from its own random stream (seed, i), so a
 * smaller scale yields a prefix of a larger one and one record's choices never
 * shift another's.  The one cross-record dependency is name uniqueness within
 * a city, resolved by retrying in index order (deterministic too).
 *
 * Latent attributes come first; menus and reviews are then written from them
 * and from the cuisine, so every text agrees with the ground truth tables.
 * Prevalences are set per attribute and shifted by cuisine flags, price and
 * city (parking is hard in San Francisco, bars are loud, counters take no
 * reservations); attributes with value 0 are never written about.
 */
#include "gen.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbwrite.h"
#include "engine/util/xmem.h"
#include "restaurant.h"
#include "text.h"

static const gen_column REST_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"name", "text", 0, 0, NULL, NULL, "Name of the restaurant."},
    {"cuisines", "text", 1, 0, NULL, NULL,
     "Cuisines and categories, lowercase, e.g. [\"italian\",\"pizza\"] or [\"coffee & tea\",\"cafe\"]."},
    {"price", "enum", 0, 0, "[\"cheap\",\"moderate\",\"expensive\",\"luxury\"]", NULL,
     "Price range, cheapest first: $ is 'cheap', $$ 'moderate', $$$ 'expensive', $$$$ 'luxury'; "
     "compares and sorts in that order (price <= 'moderate')."},
    {"rating", "real", 0, 0, NULL, NULL, "Average star rating from 1.0 to 5.0, one decimal."},
    {"num_reviews", "int", 0, 0, NULL, NULL, "Number of reviews the rating is based on."},
    {"address", "text", 0, 0, NULL, NULL, "Street address with city, state and ZIP code."},
    {"phone_number", "text", 0, 0, NULL, NULL, "Phone number, e.g. (415) 555-0123."},
    {"opening_hours", "text", 0, 0, NULL, NULL,
     "Opening hours as text, e.g. 'Mon-Fri 11:00 AM - 9:30 PM; Sat-Sun 10:00 AM - 10:00 PM'; "
     "to ask when a place is open, query restaurant_hours."},
    {"location", "text", 0, 0, NULL, NULL,
     "City: 'San Francisco', 'Palo Alto', 'Sunnyvale' or 'Cupertino'."},
    {"popular_dishes", "text", 1, 1, NULL, NULL, "Popular dishes and drinks on the menu."},
    {"reviews", "text", 1, 1, NULL, NULL, "Customer reviews, 20 per restaurant."},
};

/* The opening hours in a form SQL can compare: one row per interval. */
static const gen_column HOURS_COLS[] = {
    {"_id", "int", 0, 0, NULL, NULL, "Row id."},
    {"restaurant_id", "int", 0, 0, NULL, NULL, "The restaurant (restaurants._id)."},
    {"day", "enum", 0, 0, "[\"Mon\",\"Tue\",\"Wed\",\"Thu\",\"Fri\",\"Sat\",\"Sun\"]", NULL,
     "Day of the week; a day the place is closed has no row."},
    {"opens", "time", 0, 0, NULL, NULL, "Opening time, 24-hour HH:MM."},
    {"closes", "time", 0, 0, NULL, NULL,
     "Closing time, 24-hour HH:MM; '24:00' when open past midnight, the night going on "
     "as the next day's row from '00:00'. Open at time T on day D: "
     "day = D AND opens <= T AND closes > T."},
};

static const gen_column TRUTH_ATTR_COLS[] = {
    {"restaurant_id", "int", 0, 0, NULL, NULL, NULL},
    {"attr", "text", 0, 0, NULL, NULL, NULL},
    {"value", "int", 0, 0, NULL, NULL, NULL},
};

static const gen_column TRUTH_REVIEW_COLS[] = {
    {"restaurant_id", "int", 0, 0, NULL, NULL, NULL},
    {"review_idx", "int", 0, 0, NULL, NULL, NULL},
    {"attr", "text", 0, 0, NULL, NULL, NULL},
    {"value", "int", 0, 0, NULL, NULL, NULL},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define NCITY 4

static const char *const PRICE_NAMES[4] = {"cheap", "moderate", "expensive", "luxury"};

/* Everything split and weighted once per run. */
typedef struct vocab {
    gen_list *dishes, *companions;      /* per cuisine */
    double *weight[NCITY];              /* primary-cuisine weights per city */
    double city_w[NCITY];
    gen_list streets[NCITY], area[NCITY], hoods[NCITY];
    gen_list tea, kids;
} vocab;

typedef struct ctx {
    sqlite3 *db;
    sqlite3_stmt *ins_rest, *ins_hours, *ins_attr, *ins_mention;
    long hours_id;                      /* last restaurant_hours._id */
    gen_week week;
    vocab v;
    gen_strset names;
    gn_buf cuisines, dishes, reviews, hours, tmp;
    gen_review_set rs;
} ctx;

/* ---- vocabulary --------------------------------------------------------- */

static double city_bias(const gen_city *c, const char *cuisine)
{
    gen_list l;
    double m = 1.0;
    gen_list_split(&l, c->bias);
    size_t n = strlen(cuisine);
    for (size_t i = 0; i < l.n; i++)
        if (!strncmp(l.item[i], cuisine, n) && l.item[i][n] == ':') m = atof(l.item[i] + n + 1);
    gen_list_free(&l);
    return m;
}

static void vocab_init(vocab *v)
{
    size_t nc = gen_cuisine_count;
    v->dishes = xcalloc(nc, sizeof *v->dishes);
    v->companions = xcalloc(nc, sizeof *v->companions);
    for (size_t i = 0; i < nc; i++) {
        gen_list_split(&v->dishes[i], gen_cuisine_table[i].dishes);
        gen_list_split(&v->companions[i], gen_cuisine_table[i].companions);
    }
    for (int c = 0; c < NCITY; c++) {
        const gen_city *city = &gen_city_table[c];
        v->city_w[c] = city->share;
        v->weight[c] = xcalloc(nc, sizeof(double));
        for (size_t i = 0; i < nc; i++)
            v->weight[c][i] = gen_cuisine_table[i].weight * city_bias(city, gen_cuisine_table[i].name);
        gen_list_split(&v->streets[c], city->streets);
        gen_list_split(&v->area[c], city->area_codes);
        gen_list_split(&v->hoods[c], city->neighborhoods);
    }
    gen_list_split(&v->tea, gen_tea_items);
    gen_list_split(&v->kids, gen_kids_items);
}

static void vocab_free(vocab *v)
{
    for (size_t i = 0; i < gen_cuisine_count && v->dishes; i++) {
        gen_list_free(&v->dishes[i]);
        gen_list_free(&v->companions[i]);
    }
    free(v->dishes);
    free(v->companions);
    for (int c = 0; c < NCITY; c++) {
        free(v->weight[c]);
        gen_list_free(&v->streets[c]);
        gen_list_free(&v->area[c]);
        gen_list_free(&v->hoods[c]);
    }
    gen_list_free(&v->tea);
    gen_list_free(&v->kids);
}

/* ---- one restaurant ----------------------------------------------------- */

static int has_cuisine(const gen_restaurant *r, int c)
{
    for (int i = 0; i < r->ncuisine; i++)
        if (r->cuisine[i] == c) return 1;
    return 0;
}

static void pick_cuisines(ctx *x, gen_restaurant *r, gen_rng *rng)
{
    r->cuisine[0] = (int)gen_rng_weighted(rng, x->v.weight[r->city], gen_cuisine_count);
    r->ncuisine = 1;
    static const double nw[] = {0.30, 0.45, 0.25};
    int want = 1 + (int)gen_rng_weighted(rng, nw, 3);
    const gen_list *comp = &x->v.companions[r->cuisine[0]];
    size_t order[8], n = comp->n < 8 ? comp->n : 8;
    for (size_t i = 0; i < n; i++) order[i] = i;
    gen_rng_shuffle(rng, order, n, sizeof order[0]);
    for (size_t i = 0; i < n && r->ncuisine < want; i++) {
        int c = gen_cuisine_find(comp->item[order[i]]);
        if (c >= 0 && !has_cuisine(r, c)) r->cuisine[r->ncuisine++] = c;
    }
    r->flags = 0;
    for (int i = 0; i < r->ncuisine; i++) r->flags |= gen_cuisine_table[r->cuisine[i]].flags;
}

static void pick_quality(gen_restaurant *r, gen_rng *rng)
{
    double q = gen_rng_chance(rng, 0.06) ? gen_rng_normal(rng, 2.6, 0.5) : gen_rng_normal(rng, 3.9, 0.45);
    q = q < 1.0 ? 1.0 : q > 5.0 ? 5.0 : q;
    r->quality = q;
    /* Yelp shows half stars; some sources average to one decimal. */
    double rating = gen_rng_chance(rng, 0.7) ? round(q * 2) / 2 : round(q * 10) / 10;
    r->rating = rating < 1.0 ? 1.0 : rating > 5.0 ? 5.0 : rating;

    const gen_cuisine *c = &gen_cuisine_table[r->cuisine[0]];
    double p = c->price + gen_rng_normal(rng, 0, 0.55) + 0.35 * (q - 3.9);
    int price = (int)lround(p);
    price = price < 0 ? 0 : price > 3 ? 3 : price;
    if ((c->flags & GEN_CF_COUNTER) && price > 1) price = 1;
    r->price = price;

    double lr = gen_rng_normal(rng, 4.6 + 0.6 * (q - 3.9) + (r->city == 0 ? 0.3 : 0), 1.1);
    r->num_reviews = 20 + lround(exp(lr));
}

/* No word twice ("Dim Sum Dim Sum", "Thai Thai"); trailing s ignored. */
static int name_ok(const char *name)
{
    char words[12][32];
    int n = 0;
    for (const char *p = name; *p && n < 12;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (!len) break;
        size_t k = len < 31 ? len : 31;
        for (size_t i = 0; i < k; i++) words[n][i] = (char)tolower((unsigned char)p[i]);
        if (k > 3 && words[n][k - 1] == 's') k--;
        words[n][k] = 0;
        p += len;
        if (strlen(words[n]) < 3 || !strcmp(words[n], "the") || !strcmp(words[n], "del")) continue;
        for (int i = 0; i < n; i++)
            if (!strcmp(words[i], words[n])) return 0;
        n++;
    }
    return 1;
}

static int try_name(ctx *x, gen_restaurant *r, gen_rng *rng, const char *suffix)
{
    gn_buf_reset(&x->tmp);
    gen_tpl_expand(&x->tmp, gen_cuisine_table[r->cuisine[0]].names, rng, NULL, NULL);
    if (suffix) gn_buf_printf(&x->tmp, " - %s", suffix);
    if (!name_ok(x->tmp.data) || x->tmp.len >= sizeof r->name) return 0;
    snprintf(r->name, sizeof r->name, "%s", x->tmp.data);
    gn_buf_reset(&x->tmp);
    gn_buf_printf(&x->tmp, "%d|%s", r->city, r->name);
    return gen_strset_add(&x->names, x->tmp.data);
}

static void pick_name(ctx *x, gen_restaurant *r, gen_rng *rng)
{
    r->name[0] = 0;
    for (int i = 0; i < 24; i++)
        if (try_name(x, r, rng, NULL)) return;
    /* Crowded (large scales): a branch name, as chains do. */
    const gen_list *hoods = &x->v.hoods[r->city];
    for (int i = 0; i < 24; i++)
        if (try_name(x, r, rng, hoods->item[gen_rng_below(rng, hoods->n)])) return;
    if (!r->name[0]) snprintf(r->name, sizeof r->name, "%s", "Corner Kitchen");
}

static void pick_address(ctx *x, gen_restaurant *r, gen_rng *rng)
{
    const gen_city *c = &gen_city_table[r->city];
    const char *entry = gen_rng_pick_n(rng, x->v.streets[r->city].item, x->v.streets[r->city].n);
    const char *colon = strchr(entry, ':');
    int span = c->num_hi - c->num_lo;
    int num = c->num_lo + (int)(span * pow(gen_rng_unit(rng), 1.6));
    char unit[24] = "";
    double u = gen_rng_unit(rng);
    if (u < 0.10) snprintf(unit, sizeof unit, " Ste %d", 100 + (int)gen_rng_below(rng, 350));
    else if (u < 0.14) snprintf(unit, sizeof unit, " Unit %c", 'A' + (int)gen_rng_below(rng, 6));
    snprintf(r->address, sizeof r->address, "%d %.*s%s, %s, CA %s", num, (int)(colon - entry), entry,
             unit, c->name, colon + 1);
    int exch = 200 + (int)gen_rng_below(rng, 800);
    if (exch == 555 || exch % 100 == 11) exch++;
    snprintf(r->phone, sizeof r->phone, "(%s) %03d-%04d",
             gen_rng_pick_n(rng, x->v.area[r->city].item, x->v.area[r->city].n), exch,
             (int)gen_rng_below(rng, 10000));
}

static int primary_is(const gen_restaurant *r, const char *const *names)
{
    for (int i = 0; i < r->ncuisine; i++)
        for (const char *const *n = names; *n; n++)
            if (!strcmp(gen_cuisine_table[r->cuisine[i]].name, *n)) return 1;
    return 0;
}

static const char *const MEATY[] = {"barbecue", "steakhouse", "brazilian", "soul food", "burgers", NULL};
static const char *const VEG_FRIENDLY[] = {"indian", "ethiopian", "thai", "mediterranean", "middle eastern",
                                           "californian", "juice bars & smoothies", "salad", NULL};
static const char *const SHARING[] = {"dim sum", "hot pot", "korean", "brazilian", "tapas", "chinese",
                                      "barbecue", "pizza", "ethiopian", NULL};

/* Draw one value from (p_plus, p_minus); always one draw. */
static signed char tri(gen_rng *rng, double plus, double minus)
{
    double u = gen_rng_unit(rng);
    return u < plus ? 1 : u < plus + minus ? -1 : 0;
}

static void pick_attrs(gen_restaurant *r, gen_rng *rng)
{
    unsigned f = r->flags;
    int ctr = (f & GEN_CF_COUNTER) != 0, adult = (f & GEN_CF_ADULT) != 0;
    int fine = (f & GEN_CF_FINE) || r->price >= 2;
    int early = gen_cuisine_table[r->cuisine[0]].hours == GEN_HOURS_CAFE ||
                gen_cuisine_table[r->cuisine[0]].hours == GEN_HOURS_BREAKFAST;
    signed char *a = r->attr;

    a[RA_ROMANTIC] = ctr ? tri(rng, 0.02, 0.20) : fine ? tri(rng, 0.36, 0.03) : tri(rng, 0.13, 0.08);
    a[RA_FAMILY] = adult ? tri(rng, 0.02, 0.35)
                 : (f & GEN_CF_FAMILY) ? tri(rng, 0.45, 0.03)
                 : fine ? tri(rng, 0.07, 0.18) : tri(rng, 0.20, 0.08);
    static const double park[NCITY][2] = {{0.05, 0.32}, {0.16, 0.18}, {0.32, 0.06}, {0.34, 0.05}};
    a[RA_PARKING] = tri(rng, park[r->city][0], park[r->city][1]);
    a[RA_WAIT] = tri(rng, 0.08 + (r->quality > 4.3 ? 0.22 : 0) + (r->num_reviews > 500 ? 0.1 : 0), 0.10);
    a[RA_HAPPY_HOUR] = !(f & GEN_CF_ALCOHOL) || early ? tri(rng, 0, 0)
                     : adult ? tri(rng, 0.45, 0.06) : tri(rng, 0.22, 0.08);
    a[RA_PATIO] = tri(rng, 0.20, 0.10);
    a[RA_RESERVATIONS] = ctr ? tri(rng, 0, 0.22) : fine ? tri(rng, 0.45, 0.05) : tri(rng, 0.15, 0.12);
    a[RA_VEGAN] = primary_is(r, MEATY) ? tri(rng, 0.03, 0.30)
                : primary_is(r, VEG_FRIENDLY) ? tri(rng, 0.30, 0.05) : tri(rng, 0.13, 0.10);
    if (f & GEN_CF_PLANT) a[RA_VEGAN] = 1;
    a[RA_NOISY] = adult ? tri(rng, 0.45, 0.05) : fine ? tri(rng, 0.06, 0.25)
                : early ? tri(rng, 0.05, 0.20) : tri(rng, 0.15, 0.10);
    a[RA_FAST] = ctr ? tri(rng, 0.35, 0.06) : fine ? tri(rng, 0.04, 0.12)
               : tri(rng, 0.14, 0.12 + (r->quality < 3.2 ? 0.2 : 0));
    a[RA_GROUPS] = primary_is(r, SHARING) ? tri(rng, 0.45, 0.04) : ctr ? tri(rng, 0.08, 0.15)
                 : tri(rng, 0.18, 0.08);
    a[RA_DOGS] = a[RA_PATIO] > 0 ? tri(rng, 0.30, 0.05) : tri(rng, 0.03, 0.05);
    int waterfront = r->city == 0 && primary_is(r, (const char *const[]){"seafood", NULL});
    a[RA_VIEW] = r->city == 0 ? tri(rng, waterfront ? 0.22 : 0.07, 0.03) : tri(rng, 0.03, 0.02);

    /* A loud room is not romantic, whatever the candles say. */
    if (a[RA_NOISY] > 0 && a[RA_ROMANTIC] > 0) a[RA_ROMANTIC] = 0;
}

static int has_dish(const gen_restaurant *r, const char *d)
{
    for (int i = 0; i < r->ndish; i++)
        if (!strcmp(r->dish[i], d)) return 1;
    return 0;
}

/* Add up to `want` dishes of l not already on the menu: random start, then
 * the next unused item, so a list with room always yields one. */
static void add_from(gen_restaurant *r, gen_rng *rng, const gen_list *l, int want, int cap)
{
    for (; want > 0 && r->ndish < cap; want--) {
        size_t start = gen_rng_below(rng, l->n), k;
        for (k = 0; k < l->n; k++) {
            const char *d = l->item[(start + k) % l->n];
            if (!has_dish(r, d)) {
                r->dish[r->ndish++] = d;
                break;
            }
        }
        if (k == l->n) return;
    }
}

static void pick_dishes(ctx *x, gen_restaurant *r, gen_rng *rng)
{
    int n = gen_rng_range(rng, 10, 16);
    int cap = GEN_REST_MAX_DISHES - 8;   /* room for tea and kids items */
    r->ndish = r->nkids = 0;
    int own = r->ncuisine > 1 ? (n * 6 + 9) / 10 : n;
    add_from(r, rng, &x->v.dishes[r->cuisine[0]], own, cap);
    for (int ci = 1; r->ndish < n;) {
        int before = r->ndish;
        int c = r->ncuisine > 1 ? r->cuisine[ci] : r->cuisine[0];
        ci = ci + 1 < r->ncuisine ? ci + 1 : 1;
        add_from(r, rng, &x->v.dishes[c], 1, cap);
        if (r->ndish == before) add_from(r, rng, &x->v.dishes[r->cuisine[0]], 1, cap);
        if (r->ndish == before) break;
    }
    if ((r->flags & GEN_CF_TEA) && gen_rng_chance(rng, 0.3))
        add_from(r, rng, &x->v.tea, gen_rng_range(rng, 3, 4), GEN_REST_MAX_DISHES - 4);
    gen_rng_shuffle(rng, r->dish, (size_t)r->ndish, sizeof r->dish[0]);
    /* Kids items go last: rest_voice.c keeps them out of {dish}. */
    if (r->attr[RA_FAMILY] > 0 && !(r->flags & GEN_CF_ADULT) && gen_rng_chance(rng, 0.6)) {
        int before = r->ndish;
        add_from(r, rng, &x->v.kids, gen_rng_range(rng, 2, 3), GEN_REST_MAX_DISHES);
        r->nkids = r->ndish - before;
    }
}

static void make_restaurant(ctx *x, gen_restaurant *r, long id, gen_rng *rng)
{
    memset(r, 0, sizeof *r);
    r->id = id;
    r->city = (int)gen_rng_weighted(rng, x->v.city_w, NCITY);
    pick_cuisines(x, r, rng);
    pick_quality(r, rng);
    pick_name(x, r, rng);
    pick_address(x, r, rng);
    pick_attrs(r, rng);
    pick_dishes(x, r, rng);
}

/* ---- writing ------------------------------------------------------------ */

static const char *const DAY_NAMES[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

/* The rows of restaurant_hours for r, from x->week. */
static int write_hours(ctx *x, const gen_restaurant *r, gn_err *e)
{
    int rc = 0;
    for (int i = 0; i < x->week.n && !rc; i++) {
        const gen_interval *v = &x->week.iv[i];
        char opens[16], closes[16];
        snprintf(opens, sizeof opens, "%02d:%02d", v->open / 60, v->open % 60);
        snprintf(closes, sizeof closes, "%02d:%02d", v->close / 60, v->close % 60);
        gen_db_bind_int(x->ins_hours, 1, ++x->hours_id);
        gen_db_bind_int(x->ins_hours, 2, r->id);
        gen_db_bind_text(x->ins_hours, 3, DAY_NAMES[v->day]);
        gen_db_bind_text(x->ins_hours, 4, opens);
        gen_db_bind_text(x->ins_hours, 5, closes);
        rc = gen_db_run(x->db, x->ins_hours, e);
    }
    return rc;
}

static int write_restaurant(ctx *x, const gen_restaurant *r, gn_err *e)
{
    gen_jarr_begin(&x->cuisines);
    for (int i = 0; i < r->ncuisine; i++) gen_jarr_add(&x->cuisines, gen_cuisine_table[r->cuisine[i]].name);
    gen_jarr_end(&x->cuisines);
    gen_jarr_begin(&x->dishes);
    for (int i = 0; i < r->ndish; i++) gen_jarr_add(&x->dishes, r->dish[i]);
    gen_jarr_end(&x->dishes);
    gen_jarr_begin(&x->reviews);
    for (int i = 0; i < x->rs.n; i++) gen_jarr_add(&x->reviews, x->rs.text[i].data);
    gen_jarr_end(&x->reviews);

    sqlite3_stmt *st = x->ins_rest;
    gen_db_bind_int(st, 1, r->id);
    gen_db_bind_text(st, 2, r->name);
    gen_db_bind_text(st, 3, x->cuisines.data);
    gen_db_bind_text(st, 4, PRICE_NAMES[r->price]);
    gen_db_bind_real(st, 5, r->rating);
    gen_db_bind_int(st, 6, r->num_reviews);
    gen_db_bind_text(st, 7, r->address);
    gen_db_bind_text(st, 8, r->phone);
    gen_db_bind_text(st, 9, x->hours.data);
    gen_db_bind_text(st, 10, gen_city_table[r->city].name);
    gen_db_bind_text(st, 11, x->dishes.data);
    gen_db_bind_text(st, 12, x->reviews.data);
    int rc = gen_db_run(x->db, st, e);
    if (!rc) rc = write_hours(x, r, e);
    if (!rc) rc = gen_review_write_attrs(x->db, x->ins_attr, r->id, r->attr, RA_COUNT, gen_rattr_names, e);
    if (!rc) rc = gen_review_write_mentions(x->db, x->ins_mention, r->id, &x->rs, gen_rattr_names, e);
    return rc;
}

static int create_schema(sqlite3 *db, gn_err *e)
{
    int rc = gen_db_define_table(db, "restaurants", REST_COLS, NELEM(REST_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "restaurant_hours", HOURS_COLS, NELEM(HOURS_COLS), 1, e);
    if (!rc) rc = gen_db_define_table(db, "_truth_restaurant_attrs", TRUTH_ATTR_COLS,
                                      NELEM(TRUTH_ATTR_COLS), 0, e);
    if (!rc) rc = gen_db_define_table(db, "_truth_review_attrs", TRUTH_REVIEW_COLS,
                                      NELEM(TRUTH_REVIEW_COLS), 0, e);
    return rc;
}

static int prepare(ctx *x, gn_err *e)
{
    int rc = gen_db_prepare(x->db, &x->ins_rest,
                            "INSERT INTO restaurants(_id,name,cuisines,price,rating,num_reviews,address,"
                            "phone_number,opening_hours,location,popular_dishes,reviews)"
                            " VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", e);
    if (!rc) rc = gen_db_prepare(x->db, &x->ins_hours,
                                 "INSERT INTO restaurant_hours(_id,restaurant_id,day,opens,closes)"
                                 " VALUES(?,?,?,?,?)", e);
    if (!rc) rc = gen_db_prepare(x->db, &x->ins_attr,
                                 "INSERT INTO _truth_restaurant_attrs(restaurant_id,attr,value) VALUES(?,?,?)", e);
    if (!rc) rc = gen_db_prepare(x->db, &x->ins_mention,
                                 "INSERT INTO _truth_review_attrs(restaurant_id,review_idx,attr,value)"
                                 " VALUES(?,?,?,?)", e);
    return rc;
}

static void ctx_init(ctx *x, sqlite3 *db)
{
    memset(x, 0, sizeof *x);
    x->db = db;
    vocab_init(&x->v);
    gen_strset_init(&x->names);
    gn_buf_init(&x->cuisines);
    gn_buf_init(&x->dishes);
    gn_buf_init(&x->reviews);
    gn_buf_init(&x->hours);
    gn_buf_init(&x->tmp);
    gen_review_set_init(&x->rs);
}

static void ctx_release(ctx *x)
{
    sqlite3_finalize(x->ins_rest);
    sqlite3_finalize(x->ins_hours);
    sqlite3_finalize(x->ins_attr);
    sqlite3_finalize(x->ins_mention);
    vocab_free(&x->v);
    gen_strset_release(&x->names);
    gn_buf_release(&x->cuisines);
    gn_buf_release(&x->dishes);
    gn_buf_release(&x->reviews);
    gn_buf_release(&x->hours);
    gn_buf_release(&x->tmp);
    gen_review_set_release(&x->rs);
}

static int generate(ctx *x, const gen_opts *o, long total, gn_err *e)
{
    long step = total / 10 > 0 ? total / 10 : 1;
    int rc = gen_db_exec(x->db, "BEGIN", e);
    for (long i = 0; !rc && i < total; i++) {
        gen_rng rng;
        gen_restaurant r;
        gen_rng_seed(&rng, o->seed, GEN_STREAM_REST + (uint64_t)i);
        make_restaurant(x, &r, i + 1, &rng);
        gen_rest_hours(&r, &rng, &x->hours, &x->week);
        gen_rest_reviews(&r, &rng, &x->rs);
        rc = write_restaurant(x, &r, e);
        if (!rc && (i + 1) % 20000 == 0) rc = gen_db_exec(x->db, "COMMIT; BEGIN", e);
        if (o->progress && ((i + 1) % step == 0 || i + 1 == total))
            o->progress(o->progress_ud, "restaurants", i + 1, total);
    }
    if (!rc) rc = gen_db_exec(x->db, "COMMIT", e);
    return rc;
}

int gen_restaurants(sqlite3 *db, const gen_opts *o, gn_err *e)
{
    ctx x;
    ctx_init(&x, db);
    long total = gen_scaled(o, 1800, 1);
    int rc = create_schema(db, e);
    if (!rc) rc = prepare(&x, e);
    if (!rc) rc = generate(&x, o, total, e);
    if (!rc) rc = gen_db_exec(db,
                              "CREATE INDEX restaurant_hours_r ON restaurant_hours(restaurant_id);"
                              "CREATE INDEX _truth_restaurant_attrs_av ON _truth_restaurant_attrs(attr, value);"
                              "CREATE INDEX _truth_review_attrs_av ON _truth_review_attrs(attr, value);"
                              "CREATE INDEX _truth_review_attrs_r ON _truth_review_attrs(restaurant_id);", e);
    if (!rc) rc = gen_db_write_meta(db, "restaurants", o->seed, o->scale, e);
    ctx_release(&x);
    return rc;
}
