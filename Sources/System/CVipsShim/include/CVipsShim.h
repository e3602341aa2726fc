// CVipsShim: prefixed, non-variadic wrappers around libvips (and two lcms2 helpers) for Swift.
//
// Swift cannot call C variadic functions, and most libvips operations are variadic
// (`vips_pngload_buffer(buf, len, &out, "fail_on", ..., NULL)`), so each one used here gets a
// fixed-signature wrapper with the `cvips_` prefix. libvips types stay opaque to Swift.
//
// Conventions: functions returning `int` return 0 on success and -1 on failure. libvips's
// error buffer is process-wide (and written from its worker threads), so it is frozen at
// start-up and never read: callers say what failed in their own words. Every `VipsImage **out`
// receives a new reference that the caller releases with `cvips_unref`. Buffers returned
// through `void **` are g_malloc'ed and released with `cvips_free`.
#ifndef CVIPS_SHIM_INTERFACE_H
#define CVIPS_SHIM_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _VipsImage VipsImage;

/// Container formats the service accepts. Values are stable (Swift mirrors them).
typedef enum {
    CVIPS_FORMAT_PNG = 0,
    CVIPS_FORMAT_JPEG = 1,
    CVIPS_FORMAT_WEBP = 2,
} cvips_format;

/// Starts libvips once per process (thread-safe; later calls return the first result).
/// Also: disables the operation cache (buffer loads must never be served from another
/// request's cache entry), blocks every loader but the PNG, JPEG and WebP buffer loaders
/// and all "untrusted" operations, silences libvips's stderr warnings, freezes libvips's
/// process-wide error buffer (no error text is recorded, so none can reach another request),
/// and installs an lcms2 optimization plugin that skips the precalculated grid for images of
/// fewer than `CVIPS_PRECALC_MIN_PIXELS` pixels. Returns 0 on success.
int cvips_init(void);

/// libvips's own reason when `cvips_init` failed (read from its error buffer during start-up,
/// when no request's text can be there); empty otherwise.
const char *cvips_start_error_text(void);

/// Colour transforms of images with fewer pixels than this are not precalculated by lcms2
/// (a 17^4 grid for CMYK would cost more than converting the pixels one by one).
#define CVIPS_PRECALC_MIN_PIXELS 65536

/// How many lcms2 transforms were left unoptimized under that rule since start-up (for tests).
int cvips_precalc_skipped(void);

/// Opens an image from memory with the loader of `format` only (never by sniffing), failing
/// on the decoder's first error or warning (`fail_on=warning`: truncated or damaged data,
/// a header that declares more rows than the data holds). Only the header is read here;
/// pixels are decoded when first needed. The bytes are copied, so `buf` may be freed at once.
int cvips_load(int format, const void *buf, size_t len, VipsImage **out);

void cvips_unref(VipsImage *image);
void cvips_free(void *pointer);

/// For tests: libvips's generic loader (`vips_image_new_from_buffer`, which picks a loader by
/// sniffing) on `buf`. 0 when some loader opened it; -1 when none may (all but three are blocked).
int cvips_generic_load_buffer(const void *buf, size_t len);

/// The size of the zlib stream `data` inflated, without keeping the output: -1 when it is not
/// a complete zlib stream, -2 as soon as more than `cap` bytes come out (so the work is bounded
/// by `cap`).
long long cvips_inflated_size(const void *data, size_t length, size_t cap);

/// Whether a baseline (sequential) JPEG's compressed image data decodes to its last row without
/// a libjpeg warning: 0 intact (or progressive: see the source), 1 damaged or truncated, -1 when
/// libjpeg cannot read it at all. Decodes at 1/8 scale, so the cost is the entropy decoding.
int cvips_jpeg_data_damaged(const void *data, size_t length);

/// Whether a PNG's image data (its IDAT chunks, inflated with zlib and not kept) holds every
/// row its IHDR declares, each starting with a filter type 0–4 (PNG 3rd ed. §9.2, Adam7 passes
/// for an interlaced file): 0 intact, 1 damaged (a zlib error, an end before the last row, a
/// bad filter type), -1 when there is no IHDR to read. Data after the last row is not read.
/// libvips 8.14's PNG loader sometimes answered an image for an invalid deflate stream, its
/// pixels uninitialised memory (a hostile pass), so the service checks before decoding.
/// 2: a palette image uses an index past its PLTE's entries (PNG §11.2.2 calls it an error;
/// the loader showed black): `*palette_entries` and the first such `*palette_index` are set
/// (otherwise -1).
int cvips_png_data_damaged(const void *data, size_t length, int *palette_entries, int *palette_index);

/// zlib's CRC-32 (PNG chunks), continuing from `crc` (0 to start).
unsigned int cvips_crc32(unsigned int crc, const void *data, size_t length);

int cvips_width(VipsImage *image);
int cvips_height(VipsImage *image);
int cvips_bands(VipsImage *image);
/// `VipsBandFormat` values used here (checked against libvips at compile time).
enum {
    CVIPS_BAND_UCHAR = 0,
    CVIPS_BAND_USHORT = 2,
    CVIPS_BAND_FLOAT = 6,
};
/// `VipsInterpretation` values used here (checked against libvips at compile time).
enum {
    CVIPS_INTERP_MULTIBAND = 0,
    CVIPS_INTERP_B_W = 1,
    CVIPS_INTERP_CMYK = 15,
    CVIPS_INTERP_RGB = 17,
    CVIPS_INTERP_SRGB = 22,
    CVIPS_INTERP_RGB16 = 25,
    CVIPS_INTERP_GREY16 = 26,
};
/// The `VipsBandFormat` of the pixels (`CVIPS_BAND_*`, or another libvips value).
int cvips_band_format(VipsImage *image);
/// The `VipsInterpretation` (`CVIPS_INTERP_*`, or another libvips value).
int cvips_interpretation(VipsImage *image);
/// EXIF orientation 1...8 (1 when absent).
int cvips_orientation(VipsImage *image);
/// Number of pages/frames the file declares (1 for still images).
int cvips_n_pages(VipsImage *image);
int cvips_has_alpha(VipsImage *image);
/// The embedded ICC profile (owned by the image) or NULL.
const void *cvips_icc_profile(VipsImage *image, size_t *length);

/// A copy of `image` with new metadata: `icc` (length > 0 sets, length 0 with non-NULL
/// `icc` removes, NULL leaves as is), `orientation` 1...8 (0 leaves as is), and
/// `interpretation` (-1 leaves as is).
int cvips_copy_with(VipsImage *in, VipsImage **out, const void *icc, size_t icc_length,
                    int orientation, int interpretation);

/// Transforms with the embedded ICC profile to libvips's built-in sRGB profile (relative
/// colorimetric, black point compensation off), `depth` 8 or 16. Alpha is carried through.
/// Small images skip lcms2's precalculation (see `CVIPS_PRECALC_MIN_PIXELS`).
int cvips_icc_to_srgb(VipsImage *in, VipsImage **out, int depth);
/// `vips_colourspace` to `interpretation` (CMYK without a profile: through libvips's default
/// CMYK profile, with the same small-image rule as `cvips_icc_to_srgb`).
int cvips_colourspace(VipsImage *in, VipsImage **out, int interpretation);
int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count);
int cvips_bandjoin2(VipsImage *a, VipsImage *b, VipsImage **out);
/// Maps every band through `lut` (width = 256 or 65536, one band per image band, or one).
int cvips_maplut(VipsImage *in, VipsImage **out, VipsImage *lut);
/// Composites the alpha band over an opaque background given in the image's own units.
int cvips_flatten(VipsImage *in, VipsImage **out, const double *background, int count, double max_alpha);
int cvips_flatten_rounded(VipsImage *in, VipsImage **out, const double *background, int count, double max_alpha);
int cvips_cast(VipsImage *in, VipsImage **out, int band_format);

/// A new image holding a copy of `length` bytes of pixels (`band_format` as above).
VipsImage *cvips_new_from_memory(const void *data, size_t length, int width, int height,
                                 int bands, int band_format);
/// Decodes every pixel once, keeping nothing (a streaming average): 0 when the whole image
/// decodes, -1 otherwise.
int cvips_decode_check(VipsImage *in);
/// Decodes every pixel into a new g_malloc'ed buffer (rows top to bottom, bands interleaved).
void *cvips_write_to_memory(VipsImage *in, size_t *length);

/// Encodes as `format` into a new buffer. `quality` 1...100 for JPEG and WebP (ignored for
/// PNG). Metadata (ICC profile, EXIF including orientation, XMP) is kept.
int cvips_save(int format, VipsImage *in, int quality, void **buffer, size_t *length);

/// Samples the tone curves of an ICC profile: for a matrix/TRC RGB profile the red, green
/// and blue TRCs (3 channels), for a gray TRC profile the gray TRC (1 channel), each at
/// `samples` points `i / (samples - 1)`, into `out[channel * samples + i]` (room for
/// 3 * samples floats). Returns the channel count, 0 when the profile is of another kind
/// (LUT-based, CMYK, Lab, ...), and -1 when it cannot be parsed.
int cvips_icc_tone_curves(const void *icc, size_t length, int samples, float *out);

/// 1 when lcms2 can build a transform from the profile (gray, RGB or CMYK data) to sRGB, as
/// libvips's icc_transform will; 0 when it cannot (a profile whose tags do not fit its header).
int cvips_icc_converts_to_srgb(const void *icc, size_t length);

/// The profile's description ("Display P3", "sRGB IEC61966-2.1") into `buffer`
/// (NUL-terminated); returns its length, 0 when there is none or the profile is unreadable.
size_t cvips_icc_description(const void *icc, size_t length, char *buffer, size_t capacity);

/// A new matrix/TRC RGB ICC profile (v4) with the given CIE xy white point and primaries and
/// the sRGB tone curve on every channel, e.g. Display P3. Returns 0 and a g_malloc'ed buffer.
int cvips_icc_make_rgb(const double white[2], const double primaries[6], const char *description,
                       void **buffer, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
