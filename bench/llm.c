/*
 * llm.c — benchmarks of the LLM client.
 *
 *   parser    SSE + chunk decoding throughput (MB/s) over the recorded
 *             streams, fed whole and in 7-byte pieces; baseline: the bare
 *             SSE layer (no JSON) in the same process.
 *   overhead  time per call against the mock server answering at once, the
 *             client (queue, thread, decoder, accounting) against one bare
 *             curl_easy_perform of the same request, same process, same
 *             server; both sequential, so the difference is our overhead.
 *   pool      wall time of 100 verification calls the mock server answers
 *             after 300 ms each, at concurrency 1, 8 and 32, against the
 *             ideal ceil(100/k) x 300 ms.
 *
 * Usage: bench-llm --recordings DIR [--url URL] [--calls N] [--pool N]
 *        [--delay S] [--levels 1,8,32]
 * Without --url only the parser is measured.  bench/run.sh starts the mock
 * server and passes its URL.
 */
#include "llm/client.h"
#include "llm/sse.h"
#include "llm/stream.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/xmem.h"

#include <curl/curl.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- parser ------------------------------------------------------------ */

typedef struct { char *data; size_t len; } file;

static int load_recordings(const char *dir, file **out)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".sse")) continue;
        char *p = xasprintf("%s/%s", dir, de->d_name);
        FILE *f = fopen(p, "rb");
        free(p);
        if (!f) continue;
        gn_buf b;
        gn_buf_init(&b);
        char tmp[65536];
        size_t k;
        while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) gn_buf_add(&b, tmp, k);
        fclose(f);
        *out = xrealloc(*out, sizeof **out * (size_t)(n + 1));
        (*out)[n].len = b.len;
        (*out)[n].data = gn_buf_detach(&b);
        n++;
    }
    closedir(d);
    return n;
}

static size_t decode_all(const file *fs, int n, size_t piece, int sse_only)
{
    size_t bytes = 0;
    for (int i = 0; i < n; i++) {
        gn_err e;
        if (sse_only) {
            llm_sse *p = llm_sse_new();
            for (size_t o = 0; o < fs[i].len; o += piece)
                llm_sse_feed(p, fs[i].data + o, fs[i].len - o < piece ? fs[i].len - o : piece,
                             NULL, NULL, &e);
            llm_sse_finish(p, NULL, NULL, &e);
            llm_sse_free(p);
        } else {
            llm_stream *s = llm_stream_new(NULL, NULL);
            for (size_t o = 0; o < fs[i].len; o += piece)
                llm_stream_feed(s, fs[i].data + o, fs[i].len - o < piece ? fs[i].len - o : piece, &e);
            llm_stream_finish(s, &e);
            llm_stream_free(s);
        }
        bytes += fs[i].len;
    }
    return bytes;
}

static double throughput(const file *fs, int n, size_t piece, int sse_only)
{
    size_t bytes = 0;
    double t0 = gn_now(), t;
    do {
        bytes += decode_all(fs, n, piece, sse_only);
    } while ((t = gn_now() - t0) < 0.5);
    return (double)bytes / t / 1e6;
}

static void bench_parser(const char *dir)
{
    file *fs = NULL;
    int n = load_recordings(dir, &fs);
    if (!n) {
        fprintf(stderr, "bench-llm: no .sse recordings in %s\n", dir);
        return;
    }
    size_t total = 0;
    for (int i = 0; i < n; i++) total += fs[i].len;
    printf("parser: %d recordings, %zu bytes\n", n, total);
    size_t pieces[] = { (size_t)-1 / 2, 7 };
    for (int k = 0; k < 2; k++) {
        double full = throughput(fs, n, pieces[k], 0), sse = throughput(fs, n, pieces[k], 1);
        printf("  %-14s decode %7.1f MB/s   bare SSE %7.1f MB/s   ratio %.2f\n",
               k ? "7-byte pieces" : "whole", full, sse, full / sse);
    }
    for (int i = 0; i < n; i++) free(fs[i].data);
    free(fs);
}

/* ---- overhead ---------------------------------------------------------- */

static size_t sink(char *p, size_t sz, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return sz * n;
}

static const char *body =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Reply OK.\"}],"
    "\"temperature\":0,\"max_tokens\":8,\"stream\":true}";

static double bare_curl(const char *url, int calls)
{
    char *ep = xasprintf("%s/chat/completions", url);
    CURL *c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    h = curl_slist_append(h, "X-Genie-Stage: verify");
    curl_easy_setopt(c, CURLOPT_URL, ep);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
    double t0 = gn_now();
    for (int i = 0; i < calls; i++) curl_easy_perform(c);
    double t = (gn_now() - t0) / calls;
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    free(ep);
    return t;
}

static llm_client *client(const char *url, int conc)
{
    llm_config cfg = { .url = url, .defaults = { "m", 0, 8, 1 }, .concurrency = conc,
                       .connect_timeout = 5, .stall_timeout = 60, .retries = 0 };
    llm_client *c;
    gn_err e;
    if (llm_client_new(&cfg, &c, &e)) {
        fprintf(stderr, "bench-llm: %s\n", e.msg);
        exit(1);
    }
    return c;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The overhead in ROUNDS rounds, each the client's CALLS calls then bare
 * curl's, alternating so that a slow spell of the machine or the server
 * falls on both: one round's ratio flipped sign between runs (0.51x to
 * 1.97x), so the median and the spread of the rounds are reported. */
#define OVERHEAD_ROUNDS 7

static void bench_overhead(const char *url, int calls)
{
    llm_client *c = client(url, 1);
    llm_msg m = { "user", "Reply OK." };
    llm_call_opts o = { .stage = LLM_STAGE_VERIFY, .msgs = &m, .nmsgs = 1, .no_cache = 1 };
    gn_err e;
    llm_complete(c, &o, NULL, NULL, &e);          /* warm up */
    bare_curl(url, 3);
    int fails = 0;
    double ours[OVERHEAD_ROUNDS], base[OVERHEAD_ROUNDS], ratio[OVERHEAD_ROUNDS];
    for (int r = 0; r < OVERHEAD_ROUNDS; r++) {
        double t0 = gn_now();
        for (int i = 0; i < calls; i++) fails += llm_complete(c, &o, NULL, NULL, &e) != 0;
        ours[r] = (gn_now() - t0) / calls;
        base[r] = bare_curl(url, calls);
        ratio[r] = ours[r] / base[r];
    }
    qsort(ours, OVERHEAD_ROUNDS, sizeof *ours, cmp_dbl);
    qsort(base, OVERHEAD_ROUNDS, sizeof *base, cmp_dbl);
    qsort(ratio, OVERHEAD_ROUNDS, sizeof *ratio, cmp_dbl);
    int mid = OVERHEAD_ROUNDS / 2;
    printf("overhead: %d rounds of %d sequential calls each way, mock answering at once%s\n",
           OVERHEAD_ROUNDS, calls, fails ? " (SOME FAILED)" : "");
    printf("  genie client %.3f ms/call   bare curl %.3f ms/call (medians)   ratio median %.2f, "
           "rounds %.2f to %.2f\n", ours[mid] * 1e3, base[mid] * 1e3, ratio[mid], ratio[0],
           ratio[OVERHEAD_ROUNDS - 1]);
    llm_client_free(c);
}

/* ---- pool ---------------------------------------------------------------- */

static void bench_pool(const char *url, int n, double delay, const int *levels, int nlevels)
{
    printf("pool: %d verification calls, server answers each after %.0f ms\n", n, delay * 1e3);
    for (int li = 0; li < nlevels; li++) {
        int k = levels[li];
        llm_client *c = client(url, k);
        llm_group *g = llm_group_new(c);
        char (*texts)[48] = xcalloc((size_t)n, sizeof *texts);
        llm_msg *m = xcalloc((size_t)n, sizeof *m);
        gn_err e;
        double t0 = gn_now();
        for (int i = 0; i < n; i++) {
            snprintf(texts[i], sizeof texts[i], "Does row %d match? Answer Yes or No.", i);
            m[i] = (llm_msg){ "user", texts[i] };
            llm_call_opts o = { .stage = LLM_STAGE_VERIFY, .msgs = &m[i], .nmsgs = 1, .no_cache = 1 };
            llm_group_submit(g, &o, NULL, &e);
        }
        int ok = 0;
        for (llm_call *call; (call = llm_group_next(g));) ok += llm_call_status(call, &e) == 0;
        double wall = gn_now() - t0;
        double ideal = ceil((double)n / k) * delay;
        printf("  concurrency %3d: %6.2f s   ideal %6.2f s   ratio %.2f   %d/%d ok\n", k, wall, ideal,
               wall / ideal, ok, n);
        llm_group_free(g);
        llm_client_free(c);
        free(texts);
        free(m);
    }
}

int main(int argc, char **argv)
{
    const char *dir = "tests/data/sse-recordings", *url = NULL;
    int calls = 200, pool = 100, levels[8] = { 1, 8, 32 }, nlevels = 3;
    double delay = 0.3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--recordings") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--url") && i + 1 < argc) url = argv[++i];
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc) calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pool") && i + 1 < argc) pool = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--delay") && i + 1 < argc) delay = atof(argv[++i]);
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc) {
            nlevels = 0;
            for (char *s = strtok(argv[++i], ","); s && nlevels < 8; s = strtok(NULL, ","))
                levels[nlevels++] = atoi(s);
        } else {
            fprintf(stderr, "usage: bench-llm [--recordings DIR] [--url URL] [--calls N] "
                            "[--pool N] [--delay S] [--levels 1,8,32]\n");
            return 2;
        }
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    bench_parser(dir);
    if (url) {
        bench_overhead(url, calls);
        if (pool > 0 && nlevels > 0) {
            /* The server's delay for chat replies, set through its control route. */
            CURL *c = curl_easy_init();
            char *u = xasprintf("%s/_mock/config", url);
            char *cfgj = xasprintf("{\"delay\": %g}", delay);
            struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
            curl_easy_setopt(c, CURLOPT_URL, u);
            curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
            curl_easy_setopt(c, CURLOPT_POSTFIELDS, cfgj);
            curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
            curl_easy_perform(c);
            curl_slist_free_all(h);
            curl_easy_cleanup(c);
            free(u);
            free(cfgj);
            bench_pool(url, pool, delay, levels, nlevels);
        }
    }
    curl_global_cleanup();
    return 0;
}
