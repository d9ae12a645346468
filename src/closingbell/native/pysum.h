/* Python's sum() of floats and its ** on floats in C, as the running Python computes them.
 *
 * Up to Python 3.11, sum() of floats adds left to right in one double, starting from the
 * integer 0; from 3.12 it compensates its rounding errors (Neumaier's method).  Compiled
 * code that must give the reference's numbers bit for bit adds with cb_py_sum, passing
 * whether the running Python compensates (sys.version_info >= (3, 12)).
 */
#ifndef CLOSINGBELL_PYSUM_H
#define CLOSINGBELL_PYSUM_H

#include <math.h>

static inline double cb_py_sum(const double *xs, long n, int compensated) {
    double f, t, x, c = 0.0;
    if (n <= 0) return 0.0;
    f = 0.0 + xs[0]; /* sum() starts from the integer 0 */
    if (!compensated) {
        for (long i = 1; i < n; i++) f += xs[i];
        return f;
    }
    for (long i = 1; i < n; i++) {
        x = xs[i];
        t = f + x;
        if (fabs(f) >= fabs(x)) c += (f - t) + x;
        else c += (x - t) + f;
        f = t;
    }
    if (c != 0.0 && isfinite(c)) f += c;
    return f;
}

/* x ** y as Python computes it: the C library's pow, called for real.  Compilers turn
 * pow(x, 2.0) into x * x, which differs from glibc's pow in the last bit for about one x in
 * a thousand; calling through a volatile pointer keeps the library's own result. */
static double (*volatile const cb_libm_pow)(double, double) = pow;

static inline double cb_py_pow(double x, double y) { return cb_libm_pow(x, y); }

#endif
