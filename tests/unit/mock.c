/*
 * mock.c — starting and scripting the mock LLM server (see mock.h).
 *
 * The server writes its port to a file once it listens; we poll for it.
 * Scripts are posted to /_mock/script (tests/mock/mockctl.c); the request
 * log is a JSON-lines file whose size at script time marks where a test's
 * requests begin.
 */
#include "mock.h"

#include "harness.h"

#include "tests/mock/mockctl.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static pid_t pid;
static char dir[512], url[128], logpath[600];
static long log_mark;

static void stop(void)
{
    if (pid > 0) {
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        pid = 0;
    }
    if (dir[0]) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    }
}

const char *th_mock_url(void)
{
    if (pid > 0) return url;
    /* Under the run's directory: removed with it however the test ends. */
    snprintf(dir, sizeof dir, "%s/genie-mock-XXXXXX", th_rundir());
    if (!mkdtemp(dir)) {
        th_fail(__FILE__, __LINE__, "mkdtemp failed");
        return NULL;
    }
    char portfile[600], server[1024];
    snprintf(portfile, sizeof portfile, "%s/port", dir);
    snprintf(logpath, sizeof logpath, "%s/log", dir);
    snprintf(server, sizeof server, "%s", th_path("tests/mock/llm_server.py"));
    const char *py = getenv("PYTHON") ? getenv("PYTHON") : "python3";
    char pf[] = "--port-file", lf[] = "--log";
    char *argv[] = { (char *)py, server, pf, portfile, lf, logpath, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    int bad = posix_spawnp(&pid, py, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (bad) {
        pid = 0;
        th_fail(__FILE__, __LINE__, "cannot run %s %s", py, server);
        return NULL;
    }
    atexit(stop);
    for (int i = 0; i < 400; i++) {
        FILE *f = fopen(portfile, "r");
        int port = 0;
        if (f) {
            if (fscanf(f, "%d", &port) != 1) port = 0;
            fclose(f);
        }
        if (port > 0) {
            snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
            return url;
        }
        if (waitpid(pid, NULL, WNOHANG) == pid) break;
        nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
    }
    th_fail(__FILE__, __LINE__, "the mock server did not start");
    return NULL;
}

static int post(const char *route, const char *json)
{
    char why[200];
    if (!mock_post(url, route, json, why, sizeof why)) return 0;
    th_fail(__FILE__, __LINE__, "POST _mock/%s: %s", route, why);
    return -1;
}

int th_mock_script(const char *json)
{
    if (!th_mock_url()) return -1;
    static const char reset[] = "{\"fault\": null, \"delay\": 0, \"chunk\": 8, "
                                "\"chunk_delay\": 0, \"require_key\": null, \"model\": null}";
    if (post("config", reset) || post("script", json)) return -1;
    struct stat st;
    log_mark = stat(logpath, &st) ? 0 : (long)st.st_size;
    return 0;
}

cJSON *th_mock_requests(void)
{
    cJSON *arr = cJSON_CreateArray();
    FILE *f = fopen(logpath, "r");
    if (!f) return arr;
    fseek(f, log_mark, SEEK_SET);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        if (o) cJSON_AddItemToArray(arr, o);
    }
    free(line);
    fclose(f);
    return arr;
}

int th_mock_count(void)
{
    cJSON *req = th_mock_requests();
    int n = cJSON_GetArraySize(req);
    cJSON_Delete(req);
    return n;
}

const char *th_mock_user(const cJSON *entry)
{
    const cJSON *msgs = cJSON_GetObjectItem(cJSON_GetObjectItem(entry, "json"), "messages");
    const cJSON *c = cJSON_GetObjectItem(cJSON_GetArrayItem(msgs, 1), "content");
    return cJSON_IsString(c) ? c->valuestring : "";
}

const char *th_mock_header(const cJSON *entry, const char *name)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(entry, "headers");
    const cJSON *it;
    cJSON_ArrayForEach(it, h) {
        if (it->string && !strcasecmp(it->string, name) && cJSON_IsString(it))
            return it->valuestring;
    }
    return NULL;
}
