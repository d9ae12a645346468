/* Python's random.Random, seeded from a string, in C: the same numbers, bit for bit.
 *
 * closingbell's rules derive every shuffle from ``random.Random("<seed>/<label>/...")``
 * (closingbell.core.rng.derive_rng).  A compiled engine must deal exactly the same cards,
 * so this header repeats what CPython 3.11 does for such a generator:
 *
 *   - Random.seed(text) (version 2) turns the text's UTF-8 bytes followed by their SHA-512
 *     digest into one big-endian integer, and seeds the Mersenne Twister with that
 *     integer's 32-bit words, least significant first (init_by_array);
 *   - getrandbits(k), k <= 32, is the top k bits of the next 32-bit output; for
 *     32 < k <= 64, the first output is the low word and the top k - 32 bits of the
 *     second the high one;
 *   - _randbelow(n) draws getrandbits(n.bit_length()) until the value is below n;
 *   - shuffle(x) swaps x[i] with x[_randbelow(i + 1)] for i from len(x) - 1 down to 1;
 *   - randrange(n) is _randbelow(n).
 *
 * Seeding is most of the cost of a deal (about 1,900 steps, each waiting on the one before),
 * so the state init_genrand(19650218) makes, where every seeding starts, is a table here,
 * and cb_derive_many seeds generators two at a time, their chains of steps overlapping.
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

#define CB_MANY 4 /* the most generators cb_derive_many seeds at once */

/* The state cb_init_genrand(r, 19650218U) makes, where every init_by_array starts. */
static const uint32_t cb_mt_19650218[CB_MT_N] = {
    0x012bd6aaU, 0x82d2ab13U, 0x342096b7U, 0x54846536U, 0x2ae75db7U, 0x826fe838U,
    0x2b03a8e8U, 0x6c2dcb8fU, 0xa8e24d0eU, 0xe7d7d1c5U, 0x3bd2b928U, 0x4f5174d3U,
    0xac6578e6U, 0xcff6b601U, 0xe5cae0d8U, 0xc55ce976U, 0x54cab839U, 0x9a18a629U,
    0xabd39209U, 0xa5ed816aU, 0xfaccb61cU, 0x8f137150U, 0x8b8e9770U, 0x9a6bc211U,
    0xe9e4bc97U, 0x48359a7dU, 0xb6364f06U, 0xccd250afU, 0x20d9dff8U, 0x4e9914f5U,
    0x7147d862U, 0xd2da5a2eU, 0x7da2a8e1U, 0xbbac8081U, 0x2369ced1U, 0x6c237198U,
    0x48f5b281U, 0x26f5eca5U, 0x0f2daa3fU, 0xa8d8e202U, 0xdc832a28U, 0x7c7da620U,
    0xd261342fU, 0x02792187U, 0xab6c796fU, 0xfcc23d2eU, 0x539a37efU, 0x73486f15U,
    0xb8918714U, 0xac4f11dfU, 0x04cc5163U, 0x39df1742U, 0xb3447f3eU, 0x2cc14ee1U,
    0x2fa187fbU, 0xd85cf93eU, 0xaabafa49U, 0xe7c3e2d0U, 0x7c706879U, 0xbb896f93U,
    0xc2e49d71U, 0xa2922037U, 0x94561227U, 0xb0adf5d8U, 0x7e29a942U, 0xf6d9a2b0U,
    0xd2d3fbe1U, 0xda9c526dU, 0x90cb63aaU, 0x922b398dU, 0xb3c43cb1U, 0x1dccbde6U,
    0x8cb10206U, 0xfa05efddU, 0x08c770e0U, 0xc83768abU, 0x61763294U, 0xf2c6b216U,
    0xd8447f97U, 0xe85889b3U, 0x106d82c0U, 0xa96d5611U, 0xb9b820d1U, 0xb8fade92U,
    0x1204df24U, 0x01524d89U, 0x7bb5e863U, 0xdacf2101U, 0xeb701822U, 0x750a2e5eU,
    0xf86e22d5U, 0x2ff244c9U, 0x3ee3b4a9U, 0xe823b80aU, 0x87d36cebU, 0x0211a94cU,
    0xf5a5775cU, 0xcec2efdcU, 0x885ffa5dU, 0x17739edeU, 0x20b47bfaU, 0x5963b407U,
    0x13d73cc4U, 0x5ccbddbbU, 0x3e2d04caU, 0xf8d8fe1bU, 0x603f17e2U, 0x27e1e7faU,
    0x711b500eU, 0xc2079d58U, 0x51b3c855U, 0x5c6efd93U, 0x647b2d0aU, 0x6f00a8c8U,
    0x8f1528bfU, 0x9f513804U, 0x623050d2U, 0xd215ceb4U, 0x693b7da9U, 0xaa4f7bbfU,
    0xd8bef709U, 0xaed1d16bU, 0x47b7cfe7U, 0x61111c39U, 0xd9621a94U, 0xb2104d10U,
    0xad2b0a98U, 0x9cdd9941U, 0xef4752efU, 0x66f8039dU, 0x430be90eU, 0x86d4fa6eU,
    0x94fe9920U, 0x90539cefU, 0xf672bf07U, 0x8c9a811bU, 0x3bba5065U, 0x144ac562U,
    0xc2cf5234U, 0x424bdf3eU, 0x7120cb67U, 0xc693d5cbU, 0xae336076U, 0xcc0f2253U,
    0x4b855a20U, 0x8bbf3896U, 0x73c486f6U, 0xbd846f06U, 0x5dc4f128U, 0x47e116c2U,
    0xb4515685U, 0xfd1662daU, 0x14aa2135U, 0x77577782U, 0x6d0c4249U, 0xc546af03U,
    0x718a0b9cU, 0x38f89a8eU, 0xa6acf8a4U, 0x27d8f01dU, 0x9de14111U, 0xa136d820U,
    0x353b780cU, 0x2c08c95fU, 0xa8d44a1fU, 0x7a35c316U, 0x063e47b9U, 0xcd034da4U,
    0x3a6d028bU, 0x192b6480U, 0xe667272aU, 0x78c664d8U, 0x202ceb49U, 0xf6a1e57aU,
    0x43fc4a6bU, 0x97421681U, 0xecb3fd5fU, 0x731d31fdU, 0xb828951eU, 0x4392d0bfU,
    0x17d409aaU, 0xdb79cac7U, 0xffebe40aU, 0x3d58c944U, 0xe898cc8cU, 0x75aa3c24U,
    0xc75c8853U, 0xa6a4984bU, 0xca6e2689U, 0x15db0f2fU, 0x18d62549U, 0x376fc78cU,
    0x35b7a6fcU, 0x5ab5be2dU, 0xcfad941eU, 0x1c89f534U, 0xbb129248U, 0xf6a351f7U,
    0xe2f6ea0aU, 0xe0e82754U, 0xc006151bU, 0xb7582b41U, 0xf7c4ed39U, 0x183ba2adU,
    0xe850c40dU, 0x252ad853U, 0x85f0c48dU, 0x6517143aU, 0xad8b8f17U, 0xed34b11aU,
    0x2c3f40afU, 0xe75b2cdeU, 0x8805f905U, 0x9fd0ff98U, 0xdb744298U, 0x02c03afeU,
    0xba5b350eU, 0xd8b35a95U, 0x3c570408U, 0xdbb4e003U, 0x9a3c60dcU, 0x77bb0673U,
    0x985a8dd8U, 0x6a99a1e1U, 0x335dbe40U, 0xa28c5021U, 0x2d3359b1U, 0x70191cb8U,
    0x7f5656e1U, 0x51ae2745U, 0x2f94e2baU, 0x1e28fe49U, 0x964064b5U, 0xb24eac1cU,
    0xcff7f6c0U, 0xc337b6daU, 0x61c44589U, 0xe25d3795U, 0xfea0351cU, 0xb97b8d2aU,
    0x086119b8U, 0x991a9e89U, 0xa025f0c9U, 0xb661a40aU, 0x1186001cU, 0x70b10801U,
    0x6b2028f6U, 0xcc5d596aU, 0x538c7865U, 0x9d95046dU, 0xde3327c5U, 0xa8e1a819U,
    0x60bac6a3U, 0xe46b10e7U, 0x1083aef2U, 0xdd318879U, 0xf9ea2322U, 0xc8138606U,
    0x288f8dfbU, 0x997b580aU, 0x57fe042cU, 0xc0aebbc6U, 0xc5cf82bfU, 0xfaf93133U,
    0xf7f318f8U, 0x7e242f10U, 0x96edabbfU, 0x2ad7e79cU, 0x9764dd98U, 0xbc98d8cfU,
    0x9dee3eefU, 0x8326a990U, 0xa9fe09aaU, 0x27fcb859U, 0x9bcb5d2fU, 0xd453d8d4U,
    0x46009ce7U, 0x447efdd3U, 0x84ad86f0U, 0xfe4bc091U, 0xb9ef1cb2U, 0x5a808289U,
    0x6c4648c2U, 0x9600110aU, 0x0e5c0144U, 0x9fd5e4f1U, 0x4d8e5ffdU, 0xba6dbb8bU,
    0x33664f2dU, 0x2df752e2U, 0x1a1ca64cU, 0x3e60491fU, 0x36f7715fU, 0x48e492a0U,
    0x030d03abU, 0x68c5f69eU, 0x196e64e3U, 0xa2c049b8U, 0x9967a18cU, 0x4e39bc31U,
    0x27ccf01cU, 0xc11db839U, 0x99e6ba10U, 0xe0190c49U, 0x5f7b7462U, 0xafb2e740U,
    0x3a25903cU, 0x4ca604dfU, 0xe02cbacaU, 0x491a4382U, 0x0212bee5U, 0xadd0de90U,
    0x0881f2d2U, 0x21f53013U, 0xf0fb23b9U, 0xeb49a39dU, 0x5def1c92U, 0xd1a5f23cU,
    0xb8d54b19U, 0x831515e6U, 0xc944a834U, 0xf39ccdf4U, 0xdcd772b5U, 0x585da911U,
    0x5bdd4494U, 0x6412cd0eU, 0x7a90ef31U, 0xb57f0f37U, 0x60b75e31U, 0x1d0fda39U,
    0xf6989ac7U, 0xe063f49fU, 0x859afed8U, 0x987f374fU, 0x3de407afU, 0x7cdcb05aU,
    0x93ef4837U, 0xc07edb3aU, 0xdfecffcfU, 0x3bf918cfU, 0xf93691ffU, 0xd48b75c1U,
    0x8d5848e0U, 0x5903b481U, 0x098eb7d8U, 0x4c992191U, 0xd6504f2aU, 0xfe2b2d88U,
    0x45355c33U, 0x79c22317U, 0x2bf89f0cU, 0xcf882d1bU, 0x1c83a3d8U, 0x4d863d99U,
    0x3c14a65aU, 0x45a1cce5U, 0xd9b7db58U, 0xad6a3f4cU, 0xe9edb92cU, 0x672d37f2U,
    0xf36d1f47U, 0xfaa4bb3dU, 0x51e40ee0U, 0xaf174930U, 0xa2b9a426U, 0x391107a1U,
    0xc2342cf3U, 0x05322c1fU, 0x2f4100abU, 0x96adc7e8U, 0xa1f21ac4U, 0xb8428791U,
    0x05d22973U, 0x6a3de6d4U, 0x36c7107fU, 0x2bd67a92U, 0x05347f12U, 0x3734c593U,
    0x70929f79U, 0xdd7823d3U, 0x6640728cU, 0x7295a81eU, 0xf8dcecb9U, 0x5aeef0e1U,
    0xd54ce9e0U, 0x79b7c310U, 0xde5b1037U, 0xd7053a07U, 0xe7380918U, 0xd9b80c2cU,
    0x8d6af711U, 0xcef1a706U, 0xa4db9381U, 0xd9274f38U, 0xc485d6d1U, 0xa0822465U,
    0x6ba47d2fU, 0x532502b3U, 0xc6e953c8U, 0x4672b3a6U, 0x8af64173U, 0x12444c26U,
    0xdebc6290U, 0x67189092U, 0xca14b693U, 0x8dcf1865U, 0xe594c139U, 0xefae4779U,
    0x40587ebaU, 0x19d91460U, 0x6d2c6b7aU, 0xac683c22U, 0xf22cda3cU, 0x1836d378U,
    0x4d14a7f6U, 0x42ca7512U, 0xea0c5d1fU, 0x5078b9adU, 0xfeb24e7eU, 0xc9c4ddf4U,
    0x3b35c317U, 0x2b3e48b8U, 0x01852a3eU, 0x2cd6da1dU, 0xde489419U, 0x8e9a59ebU,
    0x9e622b97U, 0x1320f074U, 0xafd8f370U, 0x3afe0fa7U, 0x1e2d8d91U, 0x53b274e4U,
    0x5439ad09U, 0x33928dd9U, 0x33aa194fU, 0x6ed044deU, 0x231f84afU, 0x2e3a01c0U,
    0x54127276U, 0x5fc9d9aaU, 0xe7cc652fU, 0x29fc7815U, 0xd1719f03U, 0xc8eabcbbU,
    0xaca2ee54U, 0x1a2e0fabU, 0x8c3bb335U, 0x60f72572U, 0x0eb1531fU, 0x0b4a63fcU,
    0x4fbf502eU, 0xddaccb4eU, 0xf9136c25U, 0xa69402c3U, 0x6d2560ebU, 0x6f027819U,
    0x86e63b40U, 0xe559b4d3U, 0x2fd7a7daU, 0xd7dee4cdU, 0x9d048512U, 0xc16e111dU,
    0x5767d0a4U, 0x5b209fe8U, 0x14d1c9bdU, 0xbbe5be62U, 0xc9257db2U, 0x87e551a8U,
    0x49d333e6U, 0x066b1af8U, 0x36785daeU, 0xdf61157dU, 0xd43fea8eU, 0xd798007aU,
    0x7687f297U, 0x6e8efd09U, 0x6f0b1e04U, 0xb09686d6U, 0x5956a782U, 0x776a338eU,
    0xaf66e04bU, 0x2f9c8faeU, 0xe76acf88U, 0xc70246baU, 0xb6cde9e1U, 0x7a9cc374U,
    0xf8a5bc0fU, 0xff599ea3U, 0x8a9f3708U, 0x9e8b12dbU, 0x09e39287U, 0xa5e4102eU,
    0x80d5ef48U, 0x147c041fU, 0xa3fb3929U, 0xd7e292e6U, 0x0d438349U, 0xbfe3debeU,
    0x0e3d7e1eU, 0xa192d1c9U, 0xb1bf6a0bU, 0x4282a882U, 0x094f98a5U, 0x0d9a8810U,
    0x89384048U, 0x379ef92bU, 0xf93d52f1U, 0x83333d75U, 0x115cf0efU, 0x0123f748U,
    0xd57e1966U, 0x041a13d8U, 0x3dd06e38U, 0x91bf7619U, 0x957b0da9U, 0x5789e97aU,
    0x9db8f28bU, 0xa1820312U, 0x215ec756U, 0x9e6bacf5U, 0x0ecc6e7bU, 0x27246b90U,
    0x9fde81daU, 0xd32dd443U, 0xa56aff4cU, 0x68f979d3U, 0xd95c73e8U, 0x8aef80c6U,
    0x31c2b364U, 0xeb8d4c85U, 0x2c5ce8f0U, 0xd7e058c3U, 0xa841c5d4U, 0x45ac9583U,
    0xc7a79060U, 0x2815f426U, 0x455bab16U, 0xcd5ad12cU, 0x2b0fb0a5U, 0xd33c0034U,
    0xa84a86cfU, 0x7325e5feU, 0x940236b9U, 0xf746ace6U, 0xb7abc579U, 0xadd0bea8U,
    0x380a3534U, 0xf6ebd3a7U, 0x98c945d8U, 0xdec03b27U, 0x8f799b5aU, 0x0e8463dfU,
    0x62c6c023U, 0xee2a0193U, 0x3c58affaU, 0x8d0039cdU, 0xa8af97d7U, 0x885ae636U,
    0xac7aa8b2U, 0x8d7abf9fU, 0xfb43a021U, 0x0b4e619bU, 0x77657759U, 0xcb4e2febU,
    0x3cd410bcU, 0x41c33861U, 0x75d0a016U, 0x359c7a4aU, 0x7433db6aU, 0xbcced670U,
    0x237b9f34U, 0x7264a5bfU, 0xae9a1432U, 0x24e7a92dU, 0x2529d5ffU, 0x7affe6daU,
    0x2d7e49a7U, 0xffce7024U, 0xeb8820a5U, 0xb2b7b9c1U, 0x2d3aa733U, 0x52034464U,
    0x95a70b1fU, 0xf9a4e9b8U, 0x07424c0fU, 0xc0450b34U, 0x50beddfdU, 0x61fd72b7U,
    0x365baa1aU, 0x1ee8088fU, 0xee08e9b9U, 0x8aaec2b1U, 0x14099defU, 0x32d9389cU,
    0xab42d3deU, 0xefc2541fU, 0xb3722d60U, 0x7c035bffU, 0x65803b8cU, 0xc850f5f8U,
    0xf971615fU, 0x9059a7a5U, 0xf7a8863dU, 0xb90626d1U, 0x5df93e9bU, 0x240c1f1fU,
    0xa348e099U, 0xf4309286U, 0x7335fdd9U, 0x6a0dc099U, 0x97a6565aU, 0x553d2b1bU,
    0x82e8eda6U, 0xfc8e8819U, 0x9bc79ea8U, 0x58509579U, 0xae1032c0U, 0x92dbdaf3U,
    0x417f5c7fU, 0xaf30ee21U, 0x94b3b13bU, 0xb94b6eeaU, 0x6174ebf6U, 0xad2949e2U,
};

static inline void cb_init_genrand(cb_random *r, uint32_t s) {
    uint32_t *mt = r->mt;
    mt[0] = s;
    for (int i = 1; i < CB_MT_N; i++)
        mt[i] = (uint32_t)(1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    r->index = CB_MT_N;
}

/* Each step of init_by_array waits on the one before: the last value is kept in a register
 * (``prev``) rather than read back from the array just written, which halves its cost. */
static inline void cb_init_by_array(cb_random *r, const uint32_t *key, size_t key_length) {
    uint32_t *mt = r->mt;
    memcpy(mt, cb_mt_19650218, sizeof cb_mt_19650218);
    r->index = CB_MT_N;
    uint32_t prev = mt[0];
    size_t i = 1, j = 0;
    size_t k = CB_MT_N > key_length ? CB_MT_N : key_length;
    for (; k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        mt[i] = prev;
        i++;
        j++;
        if (i >= CB_MT_N) { mt[0] = prev; i = 1; }
        if (j >= key_length) j = 0;
    }
    for (k = CB_MT_N - 1; k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
        mt[i] = prev;
        i++;
        if (i >= CB_MT_N) { mt[0] = prev; i = 1; }
    }
    mt[0] = 0x80000000U;
}

/* cb_init_by_array for two generators at once, each key shorter than CB_MT_N words (as
 * every key of a text of at most 512 bytes is): the two chains of steps overlap, so the
 * pair costs about what one does. */
static inline void cb_init_by_array2(cb_random *ra, const uint32_t *ka, size_t la,
                                     cb_random *rb, const uint32_t *kb, size_t lb) {
    uint32_t *ma = ra->mt, *mb = rb->mt;
    memcpy(ma, cb_mt_19650218, sizeof cb_mt_19650218);
    memcpy(mb, cb_mt_19650218, sizeof cb_mt_19650218);
    ra->index = rb->index = CB_MT_N;
    uint32_t pa = ma[0], pb = mb[0];
    size_t i = 1, ja = 0, jb = 0;
    for (size_t k = CB_MT_N; k; k--) {
        pa = (ma[i] ^ ((pa ^ (pa >> 30)) * 1664525U)) + ka[ja] + (uint32_t)ja;
        pb = (mb[i] ^ ((pb ^ (pb >> 30)) * 1664525U)) + kb[jb] + (uint32_t)jb;
        ma[i] = pa;
        mb[i] = pb;
        i++;
        if (++ja >= la) ja = 0;
        if (++jb >= lb) jb = 0;
        if (i >= CB_MT_N) { ma[0] = pa; mb[0] = pb; i = 1; }
    }
    for (size_t k = CB_MT_N - 1; k; k--) {
        pa = (ma[i] ^ ((pa ^ (pa >> 30)) * 1566083941U)) - (uint32_t)i;
        pb = (mb[i] ^ ((pb ^ (pb >> 30)) * 1566083941U)) - (uint32_t)i;
        ma[i] = pa;
        mb[i] = pb;
        i++;
        if (i >= CB_MT_N) { ma[0] = pa; mb[0] = pb; i = 1; }
    }
    ma[0] = mb[0] = 0x80000000U;
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

#define CB_KEY_WORDS ((512 + 64) / 4 + 1)

/* The init_by_array key that Random(text) makes of a str of ``len`` UTF-8 bytes (at most
 * 512): returns its number of words (at most CB_KEY_WORDS), or -1 if the text is empty or
 * too long. */
static inline int cb_text_key(const char *text, size_t len, uint32_t key[CB_KEY_WORDS]) {
    unsigned char buf[512 + 64];
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
        return 1;
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
    return (int)words;
}

/* What Random(text) does for a str of ``len`` UTF-8 bytes (at most 512); 0 on success,
 * -1 if the text is empty or too long. */
static inline int cb_seed_text(cb_random *r, const char *text, size_t len) {
    uint32_t key[CB_KEY_WORDS] = {0};
    int words = cb_text_key(text, len, key);
    if (words < 0) return -1;
    cb_init_by_array(r, key, (size_t)words);
    return 0;
}

/* getrandbits(k) for 0 <= k <= 32. */
static inline uint32_t cb_getrandbits(cb_random *r, int k) {
    if (k <= 0) return 0;
    return cb_genrand_uint32(r) >> (32 - k);
}

/* getrandbits(k) for 32 < k <= 64: 32-bit outputs fill the number from its least
 * significant word up, the last one keeping only its top bits (as CPython does). */
static inline uint64_t cb_getrandbits64(cb_random *r, int k) {
    uint64_t low = cb_genrand_uint32(r);
    uint64_t high = cb_genrand_uint32(r) >> (64 - k);
    return low | (high << 32);
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
static inline int cb_derive_text(char text[512], uint64_t seed, const char *labels) {
    char digits[24];
    int nd = 0;
    do { digits[nd++] = (char)('0' + (int)(seed % 10)); seed /= 10; } while (seed);
    size_t len = 0;
    while (nd) text[len++] = digits[--nd];
    if (labels != NULL && labels[0] != '\0') {
        size_t ll = strlen(labels);
        if (len + 1 + ll > 512) return -1;
        text[len++] = '/';
        memcpy(text + len, labels, ll);
        len += ll;
    }
    return (int)len;
}

static inline int cb_derive(cb_random *r, uint64_t seed, const char *labels) {
    char text[512];
    int len = cb_derive_text(text, seed, labels);
    if (len < 0) return -1;
    return cb_seed_text(r, text, (size_t)len);
}

/* cb_derive(r[k], seed, labels[k]) for ``count`` generators (1 to CB_MANY), seeded two by
 * two side by side: the same generators, in about half the time.  Returns -1 (seeding
 * none) if a text would be too long or ``count`` is out of range. */
static inline int cb_derive_many(cb_random *const *r, uint64_t seed, const char *const *labels,
                                 int count) {
    char text[512];
    uint32_t keys[CB_MANY][CB_KEY_WORDS];
    size_t lengths[CB_MANY];
    if (count < 1 || count > CB_MANY) return -1;
    for (int k = 0; k < count; k++) {
        int len = cb_derive_text(text, seed, labels[k]);
        int words = len < 0 ? -1 : cb_text_key(text, (size_t)len, keys[k]);
        if (words < 0) return -1;
        lengths[k] = (size_t)words;
    }
    for (int k = 0; k + 1 < count; k += 2)
        cb_init_by_array2(r[k], keys[k], lengths[k], r[k + 1], keys[k + 1], lengths[k + 1]);
    if (count % 2) cb_init_by_array(r[count - 1], keys[count - 1], lengths[count - 1]);
    return 0;
}

#endif
