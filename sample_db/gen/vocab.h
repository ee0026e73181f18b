/*
 * vocab.h — word lists for the restaurants dataset: cuisines (with their
 * dishes and name patterns), cities (streets, ZIP codes, area codes, views).
 *
 * Lists are written compactly as '|'-separated strings and split once by
 * gen_list_split; names are templates in the text.h syntax.
 */
#ifndef GENIE_GEN_VOCAB_H
#define GENIE_GEN_VOCAB_H

#include <stddef.h>

/* How a place's opening hours look, by its primary cuisine. */
enum gen_hours_style {
    GEN_HOURS_MEALS,      /* lunch and dinner, the default */
    GEN_HOURS_CAFE,       /* early morning to afternoon */
    GEN_HOURS_BREAKFAST,  /* early morning to early afternoon */
    GEN_HOURS_COUNTER,    /* late morning to early evening */
    GEN_HOURS_DINNER,     /* dinner only, often closed early in the week */
    GEN_HOURS_BAR,        /* afternoon to late night */
    GEN_HOURS_LATE        /* late morning to late evening */
};

/* Cuisine flags: they bias latent attributes and menus. */
#define GEN_CF_TEA     0x01u  /* may serve afternoon tea */
#define GEN_CF_FAMILY  0x02u  /* naturally family friendly (pizza, diners) */
#define GEN_CF_ADULT   0x04u  /* bars: rarely for kids, often loud */
#define GEN_CF_PLANT   0x08u  /* vegan/vegetarian: always vegan options */
#define GEN_CF_ALCOHOL 0x10u  /* serves drinks: happy hour possible */
#define GEN_CF_FINE    0x20u  /* dressy, more often romantic */
#define GEN_CF_COUNTER 0x40u  /* order at the counter: no reservations */

typedef struct gen_cuisine {
    const char *name;        /* lowercase, as stored in the cuisines column */
    const char *noun;        /* in running text: "Thai food", "barbecue" */
    double weight;           /* relative frequency as a primary cuisine */
    double price;            /* typical price level, 0 cheap .. 3 luxury */
    int hours;               /* enum gen_hours_style */
    unsigned flags;          /* GEN_CF_* */
    const char *companions;  /* '|' list of cuisines often listed with it */
    const char *dishes;      /* '|' list, at least 15 */
    const char *names;       /* name template */
} gen_cuisine;

extern const gen_cuisine gen_cuisine_table[];
extern const size_t gen_cuisine_count;

/* Index of the cuisine called name in gen_cuisine_table, or -1. */
int gen_cuisine_find(const char *name);

/* Extra menu items: afternoon tea for some tea places, a kids menu for some
 * family places.  '|' lists. */
extern const char gen_tea_items[];
extern const char gen_kids_items[];

typedef struct gen_city {
    const char *name;        /* exactly as stored in location */
    double share;            /* fraction of all restaurants */
    const char *area_codes;  /* '|' list */
    const char *streets;     /* '|' list of "Street Name:ZIP" */
    int num_lo, num_hi;      /* street number range */
    const char *views;       /* template: what a view looks out on */
    const char *neighborhoods; /* '|' list, for branch names */
    const char *bias;        /* '|' list of "cuisine:multiplier" */
} gen_city;

extern const gen_city gen_city_table[];
extern const size_t gen_city_count;

/* A split '|' list.  Items point into one owned copy of the string. */
typedef struct gen_list {
    const char **item;
    size_t n;
    char *store;
} gen_list;

/* Split s at '|' into l (empty s gives n = 0).  Free with gen_list_free. */
void gen_list_split(gen_list *l, const char *s);
void gen_list_free(gen_list *l);

#endif
