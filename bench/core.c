/* The core without HTTP, in C at -O2: parse two #rrggbb colors, WCAG ratio + APCA Lc, per pair.
 * Same formulas as ColorScience (0.04045 sRGB decode, APCA 0.0.98G-4g). Prints ns per pair. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}
static int parse(const char *s, double rgb[3]) {
    if (s[0] != '#' || strlen(s) != 7) return 0;
    for (int i = 0; i < 3; i++) {
        int h = hexval(s[1 + 2 * i]), l = hexval(s[2 + 2 * i]);
        if (h < 0 || l < 0) return 0;
        rgb[i] = (h * 16 + l) / 255.0;
    }
    return 1;
}
static double lin(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }
static double lum(const double c[3]) { return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]); }
static double ys(const double c[3]) { return 0.2126729 * pow(c[0], 2.4) + 0.7151522 * pow(c[1], 2.4) + 0.0721750 * pow(c[2], 2.4); }
static double apca(double t, double b) {
    t = t > 0.022 ? t : t + pow(0.022 - t, 1.414);
    b = b > 0.022 ? b : b + pow(0.022 - b, 1.414);
    if (fabs(b - t) < 0.0005) return 0;
    if (b > t) { double s = (pow(b, 0.56) - pow(t, 0.57)) * 1.14; return s < 0.1 ? 0 : (s - 0.027) * 100; }
    double s = (pow(b, 0.65) - pow(t, 0.62)) * 1.14; return s > -0.1 ? 0 : (s + 0.027) * 100;
}

#define PAIRS 100000
static char fgs[PAIRS][8], bgs[PAIRS][8];

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    for (int i = 0; i < PAIRS; i++) {
        unsigned v = (unsigned)i * 2654435761u;
        snprintf(fgs[i], 8, "#%06x", v & 0xffffff);
        snprintf(bgs[i], 8, "#%06x", (v >> 5) & 0xffffff);
    }
    double sink = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < PAIRS; i++) {
            double f[3], g[3];
            if (!parse(fgs[i], f) || !parse(bgs[i], g)) return 2;
            double lf = lum(f), lb = lum(g);
            double hi = lf > lb ? lf : lb, lo = lf > lb ? lb : lf;
            sink += (hi + 0.05) / (lo + 0.05) + apca(ys(f), ys(g));
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / ((double)rounds * PAIRS);
    printf("%.1f %f\n", ns, sink);
    return 0;
}
