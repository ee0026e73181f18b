/*
 * restaurant.h — one generated restaurant, shared by the files that build it
 * (restaurants.c: record and tables; hours.c: opening hours; rest_voice.c and
 * rest_phrases.c: reviews).
 */
#ifndef GENIE_GEN_RESTAURANT_H
#define GENIE_GEN_RESTAURANT_H

#include "engine/util/buf.h"
#include "review.h"
#include "rng.h"
#include "vocab.h"

/* Latent attributes; gen_rattr_names gives their ground-truth names. */
enum gen_rattr {
    RA_ROMANTIC, RA_FAMILY, RA_PARKING, RA_WAIT, RA_HAPPY_HOUR, RA_PATIO,
    RA_RESERVATIONS, RA_VEGAN, RA_NOISY, RA_FAST, RA_GROUPS, RA_DOGS, RA_VIEW,
    RA_COUNT
};
extern const char *const gen_rattr_names[RA_COUNT];
/* +1 when value +1 is the desirable side (noisy and long_wait are not). */
extern const signed char gen_rattr_good[RA_COUNT];

/* Templates per attribute and polarity: [2*a] for +1, [2*a+1] for -1. */
extern const char *const *const gen_rphr_attr[2 * RA_COUNT];

/* Filler sentence tables (text.h templates), by sentiment. */
extern const char *const gen_rphr_food_good[], *const gen_rphr_food_mixed[],
    *const gen_rphr_food_bad[];
extern const char *const gen_rphr_service_good[], *const gen_rphr_service_mixed[],
    *const gen_rphr_service_bad[];
extern const char *const gen_rphr_price_good[4][8], *const gen_rphr_price_bad[4][6];
extern const char *const gen_rphr_opener_good[], *const gen_rphr_opener_mid[],
    *const gen_rphr_opener_bad[];
extern const char *const gen_rphr_closer[5][6];

#define GEN_REST_REVIEWS 20
#define GEN_REST_MAX_DISHES 28

typedef struct gen_restaurant {
    long id;                      /* _id, 1-based */
    int city;                     /* index into gen_city_table */
    int cuisine[3], ncuisine;     /* indexes into gen_cuisine_table; [0] primary */
    unsigned flags;               /* union of the cuisines' GEN_CF_* */
    int price;                    /* 0 cheap .. 3 luxury */
    double quality;               /* latent, drives rating and review mood */
    double rating;                /* one decimal, 1.0 .. 5.0 */
    long num_reviews;
    char name[128];
    char address[160];
    char phone[24];
    const char *dish[GEN_REST_MAX_DISHES];
    int ndish, nkids;             /* nkids: kids-menu items among dish[] */
    signed char attr[RA_COUNT];
} gen_restaurant;

/* One opening interval of the queryable form (table restaurant_hours):
 * day 0 = Mon .. 6 = Sun, minutes from midnight, close <= 1440.  A night
 * past midnight is two intervals: to 1440 (shown '24:00') on its day and
 * from 0 on the next. */
typedef struct gen_interval {
    int day, open, close;
} gen_interval;

#define GEN_MAX_INTERVALS 28    /* 7 days x 2 intervals, each maybe split */

typedef struct gen_week {
    gen_interval iv[GEN_MAX_INTERVALS];
    int n;
} gen_week;

/* Write the opening hours of r ("Mon-Fri 11:00 AM - 9:30 PM; ...") into
 * out (replacing its content) and the same hours as intervals into week,
 * ordered by day and opening time. */
void gen_rest_hours(const gen_restaurant *r, gen_rng *rng, gn_buf *out, gen_week *week);

/* Write the GEN_REST_REVIEWS reviews of r into s, with their mentions. */
void gen_rest_reviews(const gen_restaurant *r, gen_rng *rng, gen_review_set *s);

#endif
