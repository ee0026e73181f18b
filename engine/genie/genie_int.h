/*
 * genie_int.h — what the facade's files share (engine/genie/ only).
 */
#ifndef GENIE_INT_H
#define GENIE_INT_H

#include "genie.h"

/* Give H's note (when there is one) the formatted line; WARNING as in
 * genie_hooks. */
void genie_tell(const genie_hooks *h, int warning, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
