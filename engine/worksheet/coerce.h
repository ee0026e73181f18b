/*
 * coerce.h — fitting a value to a field's type.
 *
 * The parser (an LLM) and the user write values loosely: "7pm", "five",
 * "next friday", "letter".  Before a value is stored in a field it is
 * converted to the field's type in a canonical form (ints, floats, bools,
 * dates "YYYY-MM-DD", times "HH:MM", enum values spelled as declared), or
 * refused with a reason a person can read, which the agent says when it
 * asks again.
 */
#ifndef GENIE_WS_COERCE_H
#define GENIE_WS_COERCE_H

#include "worksheet/spec.h"
#include "worksheet/value.h"

/* The date relative words ("today", "tomorrow", "friday") resolve against. */
typedef struct ws_date {
    int y, m, d;
} ws_date;

/* Today in local time. */
ws_date ws_today(void);
/* Parse "YYYY-MM-DD" into *out; returns 0 or -1. */
int ws_date_parse_iso(const char *s, ws_date *out);
/* Weekday of D, 0 = Monday. */
int ws_date_weekday(ws_date d);
/* "Friday, 2026-03-13" (the prompts' `today`) into OUT (size >= 32). */
void ws_date_format_long(ws_date d, char *out, size_t n);

/* Convert IN (borrowed) to type T of field F (F supplies enum values; T is
 * F's type or its list element type).  On success *out is a new value (None
 * stays None: clearing a field is always allowed) and 0 is returned.  A
 * field of worksheet type accepts only a record reference (the interpreter
 * makes records).  On failure returns -1 and writes the reason, e.g.
 * "\"Pass\" is not one of: Letter, Credit/No Credit", into WHY. */
int ws_coerce(const ws_spec *spec, const ws_field *f, const ws_type *t, const ws_val *in,
              ws_date today, ws_val **out, char *why, size_t nwhy);

#endif
