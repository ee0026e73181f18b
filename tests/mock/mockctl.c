/*
 * mockctl.c — POSTs to the mock server's control routes, with libcurl
 * (the reply body is read and dropped).
 */
#include "tests/mock/mockctl.h"

#include "util/xmem.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>

static size_t sink(char *p, size_t sz, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return sz * n;
}

int mock_post(const char *url, const char *route, const char *json, char *why, size_t n)
{
    char *u = xasprintf("%s/_mock/%s", url, route);
    CURL *c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(c, CURLOPT_URL, u);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, json);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
    long status = 0;
    CURLcode cc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    int rc = cc == CURLE_OK && status < 400 ? 0 : -1;
    if (rc && why) snprintf(why, n, "%s, HTTP %ld", curl_easy_strerror(cc), status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    free(u);
    return rc;
}
