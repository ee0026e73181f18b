/*
 * locale.h — the process locale genie runs in: the user's for characters
 * and messages, C for numbers and dates.
 */
#ifndef GENIE_LOCALE_H
#define GENIE_LOCALE_H

/* Takes the user's locale from the environment (LANG, LC_ALL, LC_*) for
 * everything but LC_NUMERIC and LC_TIME, which stay "C".  Call it once, at
 * the start of a program, before any thread: every strtod, printf and
 * strptime of the library then reads and writes "4.5" and "Mon, 02 Mar",
 * whatever the user's locale.  An unknown locale leaves C in place. */
void gn_locale_init(void);

/* Does the locale's character set show UTF-8?  (The screen and the plan
 * tree draw in ASCII when it does not.) */
int gn_locale_utf8(void);

#endif
