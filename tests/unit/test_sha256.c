/*
 * test_sha256.c — SHA-256 against the FIPS 180-4 / NIST example vectors,
 * the padding boundaries (55, 56, 63, 64 bytes, ...; expected digests from
 * Python's hashlib), one million 'a' fed in uneven pieces, and every split
 * of a message across two and three updates.
 */
#include "harness.h"
#include "util/sha256.h"
#include "util/xmem.h"

#include <stdio.h>
#include <string.h>

static void hex_of(const unsigned char d[32], char out[65])
{
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

TEST(sha256_standard_vectors)
{
    static const struct { const char *msg, *hex; } v[] = {
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
          "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
    };
    char out[65];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gn_sha256_hex(v[i].msg, strlen(v[i].msg), out);
        CHECK_STR(out, v[i].hex);
    }
    gn_sha256_hex(NULL, 0, out);
    CHECK_STR(out, v[0].hex);
}

TEST(sha256_padding_boundaries)
{
    static const struct { size_t n; const char *hex; } v[] = {
        { 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
        { 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
        { 57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6" },
        { 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
        { 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
        { 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
        { 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
        { 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
        { 128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e" },
    };
    char a[128], out[65];
    memset(a, 'a', sizeof a);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gn_sha256_hex(a, v[i].n, out);
        CHECK_STR(out, v[i].hex);
    }
}

TEST(sha256_million_a_uneven_pieces)
{
    const size_t total = 1000000;
    char *a = xmalloc(total);
    memset(a, 'a', total);
    char out[65];
    gn_sha256_hex(a, total, out);
    CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    /* Piece sizes cycle through values below, at and above a block. */
    static const size_t sizes[] = { 1, 63, 64, 65, 7, 128, 0, 1000, 3, 55, 4096, 129 };
    gn_sha256 s;
    unsigned char d[32];
    gn_sha256_init(&s);
    size_t off = 0;
    for (int i = 0; off < total; i++) {
        size_t n = sizes[i % (sizeof sizes / sizeof sizes[0])];
        if (n > total - off) n = total - off;
        gn_sha256_update(&s, a + off, n);
        off += n;
    }
    gn_sha256_final(&s, d);
    hex_of(d, out);
    CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

TEST(sha256_every_split_same_digest)
{
    unsigned char msg[300];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (unsigned char)i;
    char want[65], got[65];
    gn_sha256_hex(msg, sizeof msg, want);
    CHECK_STR(want, "7728ae2f2c36e2aaafbe79ca14c87ae2f89e7c88c4390ecbbf82dce88706958d");
    unsigned char d[32];
    gn_sha256 s;
    int bad = 0;
    for (size_t i = 0; i <= sizeof msg && !bad; i++) {
        gn_sha256_init(&s);
        gn_sha256_update(&s, msg, i);
        gn_sha256_update(&s, msg + i, sizeof msg - i);
        gn_sha256_final(&s, d);
        hex_of(d, got);
        if (strcmp(got, want)) { CHECK_STR(got, want); bad = 1; }
    }
    /* Three pieces: every (i, j) over a message spanning two blocks. */
    const size_t n = 130;
    gn_sha256_hex(msg, n, want);
    for (size_t i = 0; i <= n && !bad; i++)
        for (size_t j = i; j <= n && !bad; j++) {
            gn_sha256_init(&s);
            gn_sha256_update(&s, msg, i);
            gn_sha256_update(&s, msg + i, j - i);
            gn_sha256_update(&s, msg + j, n - j);
            gn_sha256_final(&s, d);
            hex_of(d, got);
            if (strcmp(got, want)) { CHECK_STR(got, want); bad = 1; }
        }
}
