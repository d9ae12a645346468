/* Python's random.Random, seeded from a string, in C: the same numbers, bit for bit.
 *
 * closingbell's rules derive every shuffle from ``random.Random("<seed>/<label>/...")``
 * (closingbell.core.rng.derive_rng).  A compiled engine must deal exactly the same cards,
 * so this header repeats what CPython 3.11 does for such a generator:
 *
 *   - Random.seed(text) (version 2) turns the text's UTF-8 bytes followed by their SHA-512
 *     digest into one big-endian integer, and seeds the Mersenne Twister with that
 *     integer's 32-bit words, least significant first (init_by_array);
 *   - getrandbits(k), k <= 32, is the top k bits of the next 32-bit output;
 *   - _randbelow(n) draws getrandbits(n.bit_length()) until the value is below n;
 *   - shuffle(x) swaps x[i] with x[_randbelow(i + 1)] for i from len(x) - 1 down to 1;
 *   - randrange(n) is _randbelow(n).
 *
 * Everything is static inline, so each extension that includes it has its own copy and no
 * call crosses a module boundary.  The tests compare it with Python's own generator.
 */
#ifndef CLOSINGBELL_PYRANDOM_H
#define CLOSINGBELL_PYRANDOM_H

#include <stdint.h>
#include <string.h>

#define CB_MT_N 624
#define CB_MT_M 397

typedef struct {
    uint32_t mt[CB_MT_N];
    int index;
} cb_random;

/* ------------------------------------------------------------------ SHA-512 (FIPS 180-4) */

static const uint64_t cb_sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define CB_ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static inline void cb_sha512_block(uint64_t h[8], const unsigned char *block) {
    uint64_t w[80];
    for (int t = 0; t < 16; t++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v = (v << 8) | block[t * 8 + b];
        w[t] = v;
    }
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = CB_ROTR64(w[t - 15], 1) ^ CB_ROTR64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = CB_ROTR64(w[t - 2], 19) ^ CB_ROTR64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t s1 = CB_ROTR64(e, 14) ^ CB_ROTR64(e, 18) ^ CB_ROTR64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = k + s1 + ch + cb_sha512_k[t] + w[t];
        uint64_t s0 = CB_ROTR64(a, 28) ^ CB_ROTR64(a, 34) ^ CB_ROTR64(a, 39);
        uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = s0 + maj;
        k = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

/* The SHA-512 digest of ``len`` bytes (at most 1024: enough for any seed text). */
static inline void cb_sha512(const unsigned char *data, size_t len, unsigned char out[64]) {
    uint64_t h[8] = {
        0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
        0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
        0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
    };
    size_t full = len / 128;
    for (size_t i = 0; i < full; i++) cb_sha512_block(h, data + i * 128);
    unsigned char tail[256];
    size_t rest = len - full * 128;
    memset(tail, 0, sizeof tail);
    memcpy(tail, data + full * 128, rest);
    tail[rest] = 0x80;
    size_t blocks = rest + 1 + 16 <= 128 ? 1 : 2;
    uint64_t bits = (uint64_t)len * 8;
    for (int b = 0; b < 8; b++) tail[blocks * 128 - 1 - b] = (unsigned char)(bits >> (8 * b));
    for (size_t i = 0; i < blocks; i++) cb_sha512_block(h, tail + i * 128);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 8; b++) out[i * 8 + b] = (unsigned char)(h[i] >> (56 - 8 * b));
}

/* ------------------------------------------------------------------ Mersenne Twister */

static inline void cb_init_genrand(cb_random *r, uint32_t s) {
    uint32_t *mt = r->mt;
    mt[0] = s;
    for (int i = 1; i < CB_MT_N; i++)
        mt[i] = (uint32_t)(1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    r->index = CB_MT_N;
}

static inline void cb_init_by_array(cb_random *r, const uint32_t *key, size_t key_length) {
    /* Every seed starts from init_genrand(19650218): computed once, then copied (a third
     * of the seeding's time).  The engines run under the GIL, so the first call is alone. */
    static uint32_t start[CB_MT_N];
    static int ready = 0;
    uint32_t *mt = r->mt;
    if (!ready) {
        cb_init_genrand(r, 19650218U);
        memcpy(start, mt, sizeof start);
        ready = 1;
    }
    memcpy(mt, start, sizeof start);
    r->index = CB_MT_N;
    size_t i = 1, j = 0;
    size_t k = CB_MT_N > key_length ? CB_MT_N : key_length;
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= CB_MT_N) { mt[0] = mt[CB_MT_N - 1]; i = 1; }
        if (j >= key_length) j = 0;
    }
    for (k = CB_MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= CB_MT_N) { mt[0] = mt[CB_MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

static inline uint32_t cb_genrand_uint32(cb_random *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = r->mt;
    uint32_t y;
    if (r->index >= CB_MT_N) {
        int kk;
        for (kk = 0; kk < CB_MT_N - CB_MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + CB_MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < CB_MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (CB_MT_M - CB_MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[CB_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[CB_MT_N - 1] = mt[CB_MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* What Random(text) does for a str of ``len`` UTF-8 bytes (at most 512); 0 on success,
 * -1 if the text is empty or too long. */
static inline int cb_seed_text(cb_random *r, const char *text, size_t len) {
    unsigned char buf[512 + 64];
    uint32_t key[(512 + 64) / 4 + 1];
    if (len == 0 || len > 512) return -1;
    memcpy(buf, text, len);
    cb_sha512((const unsigned char *)text, len, buf + len);
    size_t total = len + 64;
    /* The bytes are one big-endian integer; drop leading zero bytes, then cut it into
     * 32-bit words from the least significant end. */
    size_t start = 0;
    while (start < total && buf[start] == 0) start++;
    size_t nbytes = total - start;
    if (nbytes == 0) {
        key[0] = 0;
        cb_init_by_array(r, key, 1);
        return 0;
    }
    size_t words = (nbytes + 3) / 4;
    for (size_t w = 0; w < words; w++) {
        uint32_t v = 0;
        for (int b = 3; b >= 0; b--) {
            /* byte b of word w counts from the least significant end */
            size_t pos = (size_t)4 * w + (size_t)b; /* 0 = least significant byte */
            v <<= 8;
            if (pos < nbytes) v |= buf[total - 1 - pos];
        }
        key[w] = v;
    }
    cb_init_by_array(r, key, words);
    return 0;
}

/* getrandbits(k) for 0 <= k <= 32. */
static inline uint32_t cb_getrandbits(cb_random *r, int k) {
    if (k <= 0) return 0;
    return cb_genrand_uint32(r) >> (32 - k);
}

static inline int cb_bit_length(uint32_t n) {
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
}

/* _randbelow(n) and randrange(n), for 0 < n < 2**32. */
static inline uint32_t cb_randbelow(cb_random *r, uint32_t n) {
    int k = cb_bit_length(n);
    uint32_t v = cb_getrandbits(r, k);
    while (v >= n) v = cb_getrandbits(r, k);
    return v;
}

/* shuffle(x) of ``len`` ints in place. */
static inline void cb_shuffle_int(cb_random *r, int *x, int len) {
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)cb_randbelow(r, (uint32_t)i + 1U);
        int t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* shuffle(x) of ``len`` signed chars in place. */
static inline void cb_shuffle_schar(cb_random *r, signed char *x, int len) {
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)cb_randbelow(r, (uint32_t)i + 1U);
        signed char t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* Seed ``r`` as derive_rng(seed, *labels) does: the text "<seed>/<label>/...", where the
 * labels are given already joined by "/" (``labels`` may be NULL for none).  The seed is
 * written in decimal; returns -1 if the text would be too long. */
static inline int cb_derive(cb_random *r, uint64_t seed, const char *labels) {
    char text[512];
    char digits[24];
    int nd = 0;
    do { digits[nd++] = (char)('0' + (int)(seed % 10)); seed /= 10; } while (seed);
    size_t len = 0;
    while (nd) text[len++] = digits[--nd];
    if (labels != NULL && labels[0] != '\0') {
        size_t ll = strlen(labels);
        if (len + 1 + ll > sizeof text) return -1;
        text[len++] = '/';
        memcpy(text + len, labels, ll);
        len += ll;
    }
    return cb_seed_text(r, text, len);
}

#endif
