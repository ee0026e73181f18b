/*
 * consent.h — the rule that an action with effects runs only on the
 * user's own agreement to the exact action (DESIGN.md's first invariant).
 *
 * A task's go-ahead (a field of type confirm, e.g. book_restaurant.confirm)
 * is taken from the parser only when ws_consent_given says so: genie asked
 * for it in the turn before, with the request genie renders itself from
 * the record (ws_consent_render, never the model's phrasing); the record
 * has not changed since; and the user's words this turn are an agreement
 * (ws_consent_agrees: a closed set of forms, read from the utterance
 * alone, with no model output and no knowledge-base text in the check).
 * Otherwise the go-ahead is dropped and the request asked again.  A no is
 * always heard (it needs no consent).
 */
#ifndef GENIE_WS_CONSENT_H
#define GENIE_WS_CONSENT_H

#include "util/buf.h"
#include "worksheet/acts.h"
#include "worksheet/state.h"

/* Is UTTERANCE (the user's words, as typed) an agreement and nothing else:
 * "yes", "ok", "sure, book it", "yes please", "sounds good", "go ahead",
 * ...?  Words outside the closed vocabulary of agreement and politeness, a
 * question mark, a negation or hesitation ("no", "not", "wait", "but",
 * "hmm"), or more than 12 words make it 0.  NULL gives 0. */
int ws_consent_agrees(const char *utterance);
/* The same for the go-ahead of task TASK (a worksheet's name, may be
 * NULL): the words of its name stand beside the agreement too, so "yes,
 * cancel it" agrees to Cancel_Booking, and "drop it" beside a yes to
 * Drop_Course, but not to a booking. */
int ws_consent_agrees_to(const char *utterance, const char *task);

/* Whether a go-ahead may be taken, and if not, why. */
enum ws_consent {
    WS_CONSENT_GIVEN,         /* asked the turn before, unchanged, agreed */
    WS_CONSENT_NOT_ASKED,     /* genie did not ask for it in the turn before */
    WS_CONSENT_CHANGED,       /* the record changed in this turn */
    WS_CONSENT_NOT_AGREED     /* asked, unchanged, but the words do not agree */
};

/* May the go-ahead field FI of task record R be taken as set this turn
 * (ST's turn) on UTTERANCE?  Given when genie asked for it in the turn
 * before (the slot's asked_turn), R did not change in this turn, and
 * UTTERANCE agrees, or TYPED (the statement setting it is the user's own,
 * typed offline: those are the user's words). */
enum ws_consent ws_consent_given(const ws_state *st, const ws_record *r, int fi,
                                 const char *utterance, int typed);

/* THE CONFIRMATION RULE, applied to every value the parser sets: when
 * R.FI is a go-ahead (a field of type confirm) set to True, it stays set
 * only if ws_consent_given says GIVEN; otherwise it is cleared and ACTS
 * (may be NULL) get genie's own "I have not done it yet: ..." (a WA_SAY
 * marked genie, so a reply claiming it was done cannot stand alone).  Any
 * other value, and a False, is left as it is (a no is always heard).
 * Since a task's API and actions run only when every go-ahead of the
 * record is True (policy.c, ws_record_complete), nothing is done without
 * the user's own yes to genie's own request for exactly that. */
void ws_consent_hold(ws_state *st, ws_record *r, int fi, const char *utterance, int typed, ws_acts *acts);

/* Append genie's own request for the go-ahead of task record R: what will
 * be done (the worksheet's description), each filled field with its value
 * (nested records inline), and how to answer.  Plain text, a line a field. */
void ws_consent_render(const ws_state *st, const ws_record *r, gn_buf *out);

#endif
