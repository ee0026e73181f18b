/*
 * hours.c — opening hours text ("Mon-Thu 11:00 AM - 9:30 PM; Fri-Sat ...").
 *
 * A week is built as seven day schedules (up to two intervals each, minutes
 * from midnight; closing after midnight is > 1440), then printed with runs of
 * identical consecutive days merged.  The same week is also given as
 * intervals for the queryable table restaurant_hours, where a night past
 * midnight ends at 24:00 and goes on as the next day's interval from 00:00
 * (so "open Friday after 11 pm" and "open at 1 am" are plain comparisons).  The shape comes from the primary
 * cuisine's hours style: cafes open early and close mid-afternoon, bars open
 * late and close after midnight, fine dining serves dinner only and rests
 * early in the week.
 */
#include "restaurant.h"

#include <string.h>

typedef struct day {
    int n;              /* intervals; 0 = closed */
    int open[2], close[2];
} day;

static const char *const DAY[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

static int pick_time(gen_rng *r, const int *opts, size_t n) { return opts[gen_rng_below(r, n)]; }
#define PICK(r, ...) pick_time(r, (const int[]){__VA_ARGS__}, sizeof((const int[]){__VA_ARGS__}) / sizeof(int))
#define H(h, m) ((h) * 60 + (m))

static void set_all(day *w, int from, int to, int open, int close)
{
    for (int d = from; d <= to; d++) {
        w[d].n = 1;
        w[d].open[0] = open;
        w[d].close[0] = close;
    }
}

static void split_all(day *w, int from, int to, int o1, int c1, int o2, int c2)
{
    for (int d = from; d <= to; d++) {
        w[d].n = 2;
        w[d].open[0] = o1;
        w[d].close[0] = c1;
        w[d].open[1] = o2;
        w[d].close[1] = c2;
    }
}

static void cafe(day *w, gen_rng *r, int breakfast)
{
    int open = breakfast ? PICK(r, H(7, 0), H(7, 30), H(8, 0)) : PICK(r, H(6, 0), H(6, 30), H(7, 0), H(7, 30));
    int close = breakfast ? PICK(r, H(14, 0), H(14, 30), H(15, 0)) : PICK(r, H(14, 0), H(15, 0), H(16, 0), H(17, 0), H(18, 0));
    set_all(w, 0, 4, open, close);
    set_all(w, 5, 6, open + PICK(r, 0, 30, 60), close + PICK(r, 0, 0, 60));
    if (gen_rng_chance(r, breakfast ? 0.2 : 0.08)) w[gen_rng_chance(r, 0.7) ? 0 : 1].n = 0;
}

static void counter(day *w, gen_rng *r)
{
    int open = PICK(r, H(10, 0), H(10, 30), H(11, 0));
    int close = PICK(r, H(15, 0), H(16, 0), H(18, 0), H(19, 0), H(20, 0));
    set_all(w, 0, 5, open, close);
    set_all(w, 6, 6, open + 60, close - 60);
    if (gen_rng_chance(r, 0.3)) w[6].n = 0;
}

static void meals(day *w, gen_rng *r)
{
    int close = PICK(r, H(21, 0), H(21, 30), H(22, 0));
    int late = close + PICK(r, 30, 60);
    if (gen_rng_chance(r, 0.6)) {
        int open = PICK(r, H(11, 0), H(11, 0), H(11, 30));
        set_all(w, 0, 3, open, close);
        set_all(w, 4, 5, open, late);
        set_all(w, 6, 6, gen_rng_chance(r, 0.4) ? H(10, 0) : open, close);
    } else {
        int o1 = PICK(r, H(11, 0), H(11, 30)), c1 = PICK(r, H(14, 0), H(14, 30), H(15, 0));
        int o2 = PICK(r, H(17, 0), H(17, 30));
        split_all(w, 0, 3, o1, c1, o2, close);
        split_all(w, 4, 5, o1, c1, o2, late);
        set_all(w, 6, 6, PICK(r, H(11, 0), H(12, 0), H(16, 0)), close);
    }
    if (gen_rng_chance(r, 0.25)) w[0].n = 0;
}

static void dinner(day *w, gen_rng *r)
{
    int open = PICK(r, H(17, 0), H(17, 30), H(18, 0));
    int close = PICK(r, H(21, 30), H(22, 0), H(22, 30));
    set_all(w, 0, 3, open, close);
    set_all(w, 4, 5, open, close + PICK(r, 0, 30, 60));
    set_all(w, 6, 6, open, close - 30);
    switch (gen_rng_below(r, 4)) {
    case 0: w[0].n = w[6].n = 0; break;
    case 1: w[0].n = w[1].n = 0; break;
    case 2: w[0].n = 0; break;
    default: break;
    }
}

static void bar(day *w, gen_rng *r)
{
    int open = PICK(r, H(12, 0), H(15, 0), H(16, 0), H(17, 0));
    int close = PICK(r, H(24, 0), H(25, 0), H(23, 0));
    set_all(w, 0, 3, open, close);
    set_all(w, 4, 5, open, H(26, 0));
    set_all(w, 6, 6, PICK(r, H(12, 0), H(14, 0)), H(23, 0));
}

static void late(day *w, gen_rng *r)
{
    int open = PICK(r, H(11, 0), H(11, 30), H(12, 0));
    int close = PICK(r, H(22, 0), H(22, 30), H(23, 0));
    set_all(w, 0, 3, open, close);
    set_all(w, 4, 5, open, close + PICK(r, 60, 90, 120));
    set_all(w, 6, 6, open, close);
}

static void put_time(gn_buf *b, int m)
{
    m %= 1440;
    int h = m / 60, mm = m % 60;
    gn_buf_printf(b, "%d:%02d %s", h % 12 ? h % 12 : 12, mm, h < 12 ? "AM" : "PM");
}

static int same(const day *a, const day *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->open[i] != b->open[i] || a->close[i] != b->close[i]) return 0;
    return 1;
}

static void format(const day *w, gn_buf *out)
{
    gn_buf_reset(out);
    for (int d = 0; d < 7;) {
        int e = d;
        while (e + 1 < 7 && same(&w[d], &w[e + 1])) e++;
        if (out->len) gn_buf_puts(out, "; ");
        gn_buf_puts(out, DAY[d]);
        if (e > d) gn_buf_printf(out, "-%s", DAY[e]);
        if (!w[d].n) gn_buf_puts(out, " Closed");
        for (int i = 0; i < w[d].n; i++) {
            gn_buf_puts(out, i ? ", " : " ");
            put_time(out, w[d].open[i]);
            gn_buf_puts(out, " - ");
            put_time(out, w[d].close[i]);
        }
        d = e + 1;
    }
}

static void add(gen_week *k, int d, int open, int close)
{
    if (k->n < GEN_MAX_INTERVALS && close > open) k->iv[k->n++] = (gen_interval){ d, open, close };
}

/* The week as intervals, by day and opening time: a day's early-morning
 * continuation of the night before comes first. */
static void intervals(const day *w, gen_week *k)
{
    k->n = 0;
    for (int d = 0; d < 7; d++) {
        const day *prev = &w[(d + 6) % 7];
        for (int i = 0; i < prev->n; i++)
            if (prev->close[i] > 1440) add(k, d, 0, prev->close[i] - 1440);
        for (int i = 0; i < w[d].n; i++)
            add(k, d, w[d].open[i], w[d].close[i] > 1440 ? 1440 : w[d].close[i]);
    }
}

void gen_rest_hours(const gen_restaurant *r, gen_rng *rng, gn_buf *out, gen_week *week)
{
    day w[7];
    memset(w, 0, sizeof w);
    int style = gen_cuisine_table[r->cuisine[0]].hours;
    /* Pricey places of any style keep dinner hours; cheap "dinner" places
     * serve lunch too. */
    if (style == GEN_HOURS_MEALS && r->price >= 3) style = GEN_HOURS_DINNER;
    if (style == GEN_HOURS_DINNER && r->price <= 1) style = GEN_HOURS_MEALS;
    switch (style) {
    case GEN_HOURS_CAFE: cafe(w, rng, 0); break;
    case GEN_HOURS_BREAKFAST: cafe(w, rng, 1); break;
    case GEN_HOURS_COUNTER: counter(w, rng); break;
    case GEN_HOURS_DINNER: dinner(w, rng); break;
    case GEN_HOURS_BAR: bar(w, rng); break;
    case GEN_HOURS_LATE: late(w, rng); break;
    default: meals(w, rng); break;
    }
    format(w, out);
    intervals(w, week);
}
