/*
 * test_http.c — the blocking HTTP request (util/http.h) and the remote
 * embedder that uses it, against the mock OpenAI-compatible server: the
 * scheme allow-list, genie's user agent, retries of a failed embedding
 * request, and giving up with a clear message.
 */
#include "harness.h"
#include "mock.h"
#include "retrieval/embed.h"
#include "util/http.h"
#include "util/xmem.h"

#include <stdlib.h>
#include <string.h>

/* Retries with waits short enough for a test. */
static const rt_remote_net fast = { .connect_timeout = 5, .stall_timeout = 10, .retries = 2,
                                    .retry_max_wait = 0.05 };

TEST(http_refuses_schemes_other_than_http_and_https)
{
    gn_err e;
    gn_http_res res;
    gn_http_res_init(&res);
    const char *bad[] = { "file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://x/", "/v1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gn_http_req rq = { .what = "test", .method = "GET", .url = bad[i], .retries = 3 };
        gn_err_clear(&e);
        CHECK_INT(gn_http_request(&rq, &res, &e), GN_EUSAGE);
        CHECK_CONTAINS(e.msg, "test: URL '");
        CHECK_CONTAINS(e.msg, "is not http:// or https://");
        CHECK_INT(res.attempts, 0);
    }
    gn_http_res_release(&res);
}

TEST(embed_remote_refuses_a_file_or_ftp_endpoint)
{
    gn_err e;
    rt_embedder *em = NULL;
    CHECK_INT(rt_embedder_remote_new("file:///etc/passwd", "m", NULL, 8, NULL, &em, &e),
              GN_EUSAGE);
    CHECK_STR(e.msg, "remote embedder: endpoint 'file:///etc/passwd' is not http:// or https://");
    CHECK(em == NULL);
    CHECK_INT(rt_embedder_remote_new("ftp://127.0.0.1/v1", "m", NULL, 8, NULL, &em, &e),
              GN_EUSAGE);
    CHECK_CONTAINS(e.msg, "'ftp://127.0.0.1/v1' is not http:// or https://");
    CHECK(em == NULL);
    REQUIRE(rt_embedder_remote_new("HTTPS://example.invalid/v1", "m", NULL, 8, NULL, &em, &e) == 0);
    rt_embedder_free(em);
}

TEST(embed_remote_sends_genie_user_agent)
{
    const char *url = th_mock_url();
    REQUIRE(url);
    REQUIRE(th_mock_script("{\"embeddings\": []}") == 0);
    gn_err e;
    rt_embedder *em = NULL;
    REQUIRE(rt_embedder_remote_new(url, "m", "sk-embed-key", 8, &fast, &em, &e) == 0);
    const char *texts[] = { "hello world" };
    float *v = NULL;
    REQUIRE(rt_embed_alloc(em, texts, 1, &v, &e) == 0 || (printf("  %s\n", e.msg), 0));
    free(v);
    cJSON *req = th_mock_requests();
    REQUIRE(cJSON_GetArraySize(req) == 1);
    const cJSON *r0 = cJSON_GetArrayItem(req, 0);
    const char *ua = th_mock_header(r0, "User-Agent");
    CHECK(ua && !strncmp(ua, "genie/", 6));
    CHECK_STR(th_mock_header(r0, "Authorization"), "Bearer sk-embed-key");
    CHECK_STR(th_mock_header(r0, "X-Genie-Stage"), "embed");
    cJSON_Delete(req);
    rt_embedder_free(em);
}

TEST(embed_remote_retries_a_server_error_then_succeeds)
{
    const char *url = th_mock_url();
    REQUIRE(url);
    /* The first request fails with 500, the second succeeds. */
    REQUIRE(th_mock_script("{\"embeddings\": [{\"fault\": \"500\"}, {}]}") == 0);
    gn_err e;
    rt_embedder *em = NULL;
    REQUIRE(rt_embedder_remote_new(url, "m", NULL, 8, &fast, &em, &e) == 0);
    const char *texts[] = { "pasta near the station", "quiet cafe" };
    float *v = NULL;
    CHECK_INT(rt_embed_alloc(em, texts, 2, &v, &e), 0);
    CHECK(v != NULL);
    CHECK_INT(rt_embedder_dim(em), 32);
    CHECK_INT(th_mock_count(), 2);
    free(v);
    rt_embedder_free(em);
}

TEST(embed_remote_gives_up_after_its_retries)
{
    const char *url = th_mock_url();
    REQUIRE(url);
    REQUIRE(th_mock_script("{\"defaults\": {\"fault\": \"500\"}}") == 0);
    gn_err e;
    rt_embedder *em = NULL;
    rt_remote_net one = fast;
    one.retries = 1;
    REQUIRE(rt_embedder_remote_new(url, "m", NULL, 8, &one, &em, &e) == 0);
    const char *texts[] = { "anything" };
    float *v = NULL;
    CHECK_INT(rt_embed_alloc(em, texts, 1, &v, &e), GN_ENET);
    CHECK(v == NULL);
    char *want = xasprintf("embeddings: HTTP 500 from %s/embeddings: mock server failure "
                           "(fault 500)", url);
    CHECK_STR(e.msg, want);
    free(want);
    CHECK_INT(th_mock_count(), 2);
    /* 401 is no transient failure: one request only. */
    REQUIRE(th_mock_script("{\"defaults\": {\"fault\": \"401\"}}") == 0);
    CHECK_INT(rt_embed_alloc(em, texts, 1, &v, &e), GN_ENET);
    CHECK_CONTAINS(e.msg, "HTTP 401");
    CHECK_INT(th_mock_count(), 1);
    REQUIRE(th_mock_script("{}") == 0);
    rt_embedder_free(em);
}
