/*
 * course.h — one generated course, shared by the files that build the
 * courses dataset (courses.c: catalog, offerings, ratings; programs.c: degree
 * requirements; course_voice.c and course_phrases.c: reviews;
 * course_vocab.c: areas, classic courses, names).
 */
#ifndef GENIE_GEN_COURSE_H
#define GENIE_GEN_COURSE_H

#include <sqlite3.h>

#include "engine/util/buf.h"
#include "engine/util/err.h"
#include "review.h"
#include "rng.h"

/* Latent attributes of a course. */
enum gen_cattr {
    CA_HEAVY, CA_EASY_GRADING, CA_GREAT_LECTURER, CA_PROJECT, CA_MATH, CA_BEGINNERS,
    CA_ORGANIZED, CA_COUNT
};
extern const char *const gen_cattr_names[CA_COUNT];
extern const signed char gen_cattr_good[CA_COUNT];
extern const char *const *const gen_cphr_attr[2 * CA_COUNT];

/* Filler sentence tables, by review stars where it matters. */
extern const char *const gen_cphr_body[3][12];   /* good, mixed, bad */
extern const char *const gen_cphr_opener[];
extern const char *const gen_cphr_closer[5][5];

/* Levels, from course numbers as at most US universities. */
enum { GEN_LEVEL_INTRO, GEN_LEVEL_UNDERGRAD, GEN_LEVEL_GRAD, GEN_LEVEL_SEMINAR };

typedef struct gen_area {
    const char *key;          /* "ai" */
    const char *label;        /* "artificial intelligence" (running text) */
    const char *title;        /* "Artificial Intelligence" (titles) */
    double weight;            /* share of generated courses */
    const char *numbers;      /* '|' list of "lo-hi" CS number ranges */
    const char *cross;        /* '|' list of departments it cross-lists with */
    const char *topics;       /* '|' list */
    const char *langs;        /* '|' list of languages used in assignments */
    const char *artifact;     /* template: what projects build */
    double heavy, math, project; /* biases in [-1, 1] */
} gen_area;

extern const gen_area gen_area_table[];
extern const size_t gen_area_count;
int gen_area_find(const char *key);

/* Real-world staples, emitted first and in this order (prerequisites point
 * backwards only). */
typedef struct gen_classic {
    const char *codes;        /* '|' list, first is the primary code */
    const char *title;
    const char *area;         /* gen_area key */
    int level, units_min, units_max;
    const char *topics;       /* '|' list */
    const char *prereqs;      /* '|' list of codes, or NULL */
} gen_classic;

extern const gen_classic gen_classic_table[];
extern const size_t gen_classic_count;

extern const char gen_first_names[];   /* '|' lists for instructor names */
extern const char gen_last_names[];

#define GEN_COURSE_MAX_TOPICS 6
#define GEN_COURSE_MAX_CODES 3

typedef struct gen_course {
    long id;                          /* _id, 1-based */
    long course_id;                   /* the public course number */
    int area, level;
    char title[160];
    char codes[GEN_COURSE_MAX_CODES][24];
    int ncodes;
    int units_min, units_max;
    int letter, cnc;                  /* grading options offered */
    const char *topic[GEN_COURSE_MAX_TOPICS];
    int ntopic;
    char prereq[160];                 /* "CS 106B and CS 109", or empty */
    char lecturer[64];                /* main instructor, "Jane Chen" */
    double rating, hours;             /* averages in the ratings table */
    signed char attr[CA_COUNT];
} gen_course;

/* Insert the degree programs (CS BS, minor, MS tracks) whose requirement
 * texts name courses of the catalog cs[0..n). */
int gen_programs_write(sqlite3 *db, const gen_course *cs, long n, gn_err *e);

/* Write n reviews (5..15) of c into s, with their mentions. */
void gen_course_reviews(const gen_course *c, int n, gen_rng *rng, gen_review_set *s);

#endif
