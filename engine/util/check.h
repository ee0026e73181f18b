/*
 * check.h — invariants asserted in code, in every build.
 *
 * GN_ASSERT(cond) stops the process when COND is false: it writes
 * "genie: internal error: COND (file:line)" to stderr and aborts, so a
 * broken invariant (a candidate list that is no longer a permutation, a
 * budget overspent) is a crash the fuzzers and the tests see at once, not
 * a wrong answer nobody notices.  Unlike assert(3), NDEBUG does not turn
 * it off: the checks are cheap and the wrong answers they prevent are not.
 * Only for what no input can cause; input errors are gn_err.
 */
#ifndef GENIE_CHECK_H
#define GENIE_CHECK_H

/* Write the message above and abort(); never returns. */
_Noreturn void gn_assert_fail(const char *expr, const char *file, int line);

#define GN_ASSERT(cond) ((cond) ? (void)0 : gn_assert_fail(#cond, __FILE__, __LINE__))

#endif
