/*
 * wordvec.h — the offline word-vector table (GloVe 6B 100d, int8-quantized),
 * memory-mapped read-only.
 *
 * File layout (little-endian; written by tools/wvconv.c at setup):
 *   "GNWV0001"                      8 bytes magic
 *   u32 dim, u32 count, u32 nbuckets (power of two), u32 strbytes
 *   u32 table[nbuckets]             entry index + 1, 0 = empty (FNV-1a, linear probe)
 *   u32 stroff[count]               offset of each word in the string area
 *   f32 scale[count]                dequantization scale of each vector
 *   i8  vec[count][dim]             quantized vectors
 *   char strings[strbytes]          NUL-terminated words
 * Entries are in GloVe's frequency order: entry index = frequency rank.
 */
#ifndef GENIE_WORDVEC_H
#define GENIE_WORDVEC_H

#include "util/err.h"

typedef struct rt_wordvec rt_wordvec;

/* Map PATH.  Returns 0 and sets *out, or an error (GN_EIO when missing,
 * GN_ECORRUPT when the file is truncated or not a word-vector file). */
int rt_wordvec_open(const char *path, rt_wordvec **out, gn_err *e);
void rt_wordvec_close(rt_wordvec *wv);

int rt_wordvec_dim(const rt_wordvec *wv);
int rt_wordvec_count(const rt_wordvec *wv);

/* Frequency rank (0 = most frequent) of WORD (len bytes, lowercase), or -1. */
int rt_wordvec_find(const rt_wordvec *wv, const char *word, int len);

/* Add weight * vector(rank) into acc[dim]. */
void rt_wordvec_accum(const rt_wordvec *wv, int rank, float weight, float *acc);

#endif
