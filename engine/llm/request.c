/*
 * request.c — request bodies and cache keys (see request.h).
 *
 * Numbers: the temperature is written with %.17g by cJSON, so 0.7 keys and
 * sends the same way every time.
 */
#include "request.h"

#include "util/sha256.h"
#include "util/utf8.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The part of the body shared by the request and the key. */
static cJSON *common(const llm_request *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "model", r->model ? r->model : "");
    cJSON *msgs = cJSON_AddArrayToObject(o, "messages");
    for (int i = 0; i < r->nmsgs; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "role", r->msgs[i].role ? r->msgs[i].role : "user");
        cJSON_AddStringToObject(m, "content", r->msgs[i].content ? r->msgs[i].content : "");
        cJSON_AddItemToArray(msgs, m);
    }
    cJSON_AddNumberToObject(o, "temperature", r->temperature);
    if (r->max_tokens > 0) cJSON_AddNumberToObject(o, "max_tokens", r->max_tokens);
    if (r->nstop > 0) {
        cJSON *st = cJSON_AddArrayToObject(o, "stop");
        for (int i = 0; i < r->nstop; i++)
            cJSON_AddItemToArray(st, cJSON_CreateString(r->stop[i] ? r->stop[i] : ""));
    }
    return o;
}

char *llm_request_body(const llm_request *r, int include_usage)
{
    cJSON *o = common(r);
    cJSON_AddBoolToObject(o, "stream", r->stream != 0);
    if (r->stream && include_usage) {
        cJSON *so = cJSON_AddObjectToObject(o, "stream_options");
        cJSON_AddBoolToObject(so, "include_usage", 1);
    }
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    /* Text that is not UTF-8 (a user's bytes, a row's) is no JSON a
     * server must accept: U+FFFD for each bad byte. */
    if (s && !gn_utf8_valid(s, strlen(s))) {
        char *t = gn_utf8_fix(s, strlen(s), NULL);
        free(s);
        s = t;
    }
    return s;
}

void llm_request_key(const llm_request *r, const char *endpoint, char out[65])
{
    cJSON *o = common(r);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    /* A version prefix: a change of the key's recipe must not hit old rows
     * (version 1 had no endpoint: a reply from one server answered for
     * another, as local servers ignore the model name). */
    gn_sha256 h;
    gn_sha256_init(&h);
    gn_sha256_update(&h, "genie-llm-key-2\n", 16);
    gn_sha256_update(&h, endpoint ? endpoint : "", strlen(endpoint ? endpoint : ""));
    gn_sha256_update(&h, "\n", 1);
    gn_sha256_update(&h, s, strlen(s));
    gn_sha256_final_hex(&h, out);
    free(s);
}
