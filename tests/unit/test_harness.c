/*
 * test_harness.c — the runner's own promises (main.c), checked from
 * outside by tests/cli/harness.sh: with GENIE_TEST_CRASH=1 the first test
 * starts the mock server, makes a scratch file and aborts; the runner
 * must report it with its signal, run the next test of the file, stop the
 * server and remove the scratch directory.  Without the variable both
 * tests pass.
 */
#include "harness.h"
#include "mock.h"

#include <stdlib.h>

TEST(harness_crash_is_reported)
{
    const char *crash = getenv("GENIE_TEST_CRASH");
    if (!crash || !*crash) return;
    CHECK(th_mock_url() != NULL);
    char path[700];
    snprintf(path, sizeof path, "%s/left-behind", th_tmpdir());
    FILE *f = fopen(path, "w");
    if (f) fclose(f);
    /* An abort, as a broken GN_ASSERT ends (a segfault would be turned
     * into an exit by AddressSanitizer's handler in `make asan`). */
    abort();
}

TEST(harness_runs_on_after_a_crash)
{
    CHECK(th_tmpdir() != NULL);
}
