/*
 * acts.h — agent acts: what the agent does in a turn, before it is said.
 *
 * The policy (policy.h) produces acts; the response generator phrases
 * them; when it cannot (no LLM, or the LLM failed), ws_act_render says
 * them from fixed templates, so the user always gets an answer.  One table
 * (acts.c) gives each kind its name, its prompt form and its template.
 */
#ifndef GENIE_WS_ACTS_H
#define GENIE_WS_ACTS_H

#include "util/buf.h"
#include "worksheet/state.h"

enum ws_act_kind { WA_REPORT, WA_ASK, WA_CONFIRM, WA_SAY, WA_PROPOSE, WA_REFUSE, WA__COUNT };

typedef struct ws_act {
    enum ws_act_kind kind;
    int rec;                  /* REPORT, ASK, CONFIRM: record id; SAY of a
                                 finished task: the task; else -1 */
    int field;                /* ASK, CONFIRM: field index; else -1 */
    char *text;               /* SAY: the words; ASK: why the value was
                                 refused (may be NULL); REFUSE: why the
                                 statement was refused */
    int sheet;                /* PROPOSE: worksheet index */
    ws_val *val;              /* PROPOSE: dict of prefilled values;
                                 REPORT of a task: its API result;
                                 REFUSE: the statement (text) */
    int genie;                /* SAY: must reach the user (an API's
                                 failure; what a finished task's actions
                                 say of its result, REC being the task):
                                 the reply gets these words when it does
                                 not hold them (the result's values) */
} ws_act;

typedef struct ws_acts {
    ws_act *v;
    int n, cap;
} ws_acts;

void ws_acts_init(ws_acts *a);
void ws_acts_release(ws_acts *a);
/* Append an act; TEXT is copied, VAL taken. */
ws_act *ws_acts_add(ws_acts *a, enum ws_act_kind kind, int rec, int field, const char *text,
                    ws_val *val);

/* The act kind's name: "Report", "AskField", "Confirm", "Say", "Propose",
 * "Refused". */
const char *ws_act_name(enum ws_act_kind k);

/* Append the act as one line of the prompts' form (a Report's rows cut
 * as brief.h's FACTS), e.g. `Report(answer("cheap sushi"), result=[...])`,
 * `AskField(book_restaurant, date, "day of the reservation")`. */
void ws_act_print(const ws_state *st, const ws_act *a, gn_buf *out);

/* As ws_act_print, for the parser's next turn: a Report of a knowledge
 * record is `Report(answer_N)`, its rows being in the state already. */
void ws_act_print_brief(const ws_state *st, const ws_act *a, gn_buf *out);

/* Append the act in plain English from the built-in templates (no LLM),
 * e.g. "What is the day of the reservation?". */
void ws_act_render(const ws_state *st, const ws_act *a, gn_buf *out);

/* True when the act asks the user something (AskField, Confirm). */
int ws_act_is_question(const ws_act *a);

#endif
