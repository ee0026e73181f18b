/*
 * casemap.h — the case of text as PostgreSQL maps it under a UTF-8 ctype
 * (C.UTF-8): upper(), lower() and initcap() code point by code point, with
 * the C library's simple mappings ('é' <-> 'É', 'ß' stays 'ß', final 'ς'
 * stays), whatever genie's own locale is.
 */
#ifndef GENIE_SUQL_CASEMAP_H
#define GENIE_SUQL_CASEMAP_H

#include <stddef.h>
#include <stdint.h>

typedef enum suql_case { SUQL_CASE_UPPER, SUQL_CASE_LOWER, SUQL_CASE_INITCAP } suql_case;

/* CP in upper or lower case (CP itself when it has none). */
uint32_t suql_cp_upper(uint32_t cp);
uint32_t suql_cp_lower(uint32_t cp);
/* Whether CP is a letter or digit (initcap's word characters). */
int suql_cp_alnum(uint32_t cp);

/* The N bytes at S in case HOW, into *OUT (malloc'd, NUL-terminated; its
 * length in *OUTN): initcap puts each word's first letter in upper case
 * and the rest in lower (words: runs of letters and digits).  Bytes that
 * are not UTF-8 are copied unchanged.  0, or -1 when out of memory. */
int suql_case_map(const char *s, size_t n, suql_case how, char **out, size_t *outn);

#endif
