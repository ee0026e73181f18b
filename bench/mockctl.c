/*
 * mockctl.c — POSTs to the mock server's control routes, with libcurl
 * (the reply body is read and dropped).
 */
#include "mockctl.h"

#include "util/xmem.h"

#include <curl/curl.h>
#include <stdlib.h>

static size_t sink(char *p, size_t sz, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return sz * n;
}

int bench_mock_post(const char *url, const char *route, const char *json)
{
    char *u = xasprintf("%s/_mock/%s", url, route);
    CURL *c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(c, CURLOPT_URL, u);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, json);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
    long status = 0;
    int rc = curl_easy_perform(c) == CURLE_OK ? 0 : -1;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 400) rc = -1;
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    free(u);
    return rc;
}
