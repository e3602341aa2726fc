// CVipsShim: see include/CVipsShim.h. Every exported symbol has the `cvips_` prefix.
#include "CVipsShim.h"

#include <stdio.h>   // jpeglib.h needs FILE
#include <setjmp.h>
#include <jpeglib.h>
#include <lcms2.h>
#include <lcms2_plugin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>
#include <zlib.h>

_Static_assert(CVIPS_BAND_UCHAR == VIPS_FORMAT_UCHAR, "band format");
_Static_assert(CVIPS_BAND_USHORT == VIPS_FORMAT_USHORT, "band format");
_Static_assert(CVIPS_BAND_FLOAT == VIPS_FORMAT_FLOAT, "band format");
_Static_assert(CVIPS_INTERP_MULTIBAND == VIPS_INTERPRETATION_MULTIBAND, "interpretation");
_Static_assert(CVIPS_INTERP_B_W == VIPS_INTERPRETATION_B_W, "interpretation");
_Static_assert(CVIPS_INTERP_CMYK == VIPS_INTERPRETATION_CMYK, "interpretation");
_Static_assert(CVIPS_INTERP_RGB == VIPS_INTERPRETATION_RGB, "interpretation");
_Static_assert(CVIPS_INTERP_SRGB == VIPS_INTERPRETATION_sRGB, "interpretation");
_Static_assert(CVIPS_INTERP_RGB16 == VIPS_INTERPRETATION_RGB16, "interpretation");
_Static_assert(CVIPS_INTERP_GREY16 == VIPS_INTERPRETATION_GREY16, "interpretation");

// MARK: - start-up

static pthread_once_t cvips_once = PTHREAD_ONCE_INIT;
static int cvips_init_result = -1;

// Decoder warnings (libpng/libjpeg complaints about hostile input) are dropped: they would
// flood stderr, and their text is never shown to a client (see cvips_init).
static void cvips_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

// lcms2 turns every colour transform it builds into a precalculated grid (17^4 = 83521 points
// for CMYK input, 33^3 for RGB) before converting a single pixel: about 30 ms of CPU for
// libvips's default CMYK profile, spent again on every request because libvips builds a new
// transform each time (hostile test: a 1.2 KB CMYK JPEG cost 130 ms). For images with fewer
// pixels than such a grid, this optimization plugin, consulted first, leaves the pipeline
// unoptimized (exact, about 0.3 µs a pixel for CMYK), so the cost follows the pixel count.
// libvips builds the transform on the calling thread (in the operation's build), so a
// thread-local flag set around that call is enough.
static __thread int cvips_skip_precalc;
static gint cvips_skipped_count;

static cmsBool cvips_optimize(cmsPipeline **lut, cmsUInt32Number intent, cmsUInt32Number *input_format,
                              cmsUInt32Number *output_format, cmsUInt32Number *flags) {
    (void)lut; (void)intent; (void)input_format; (void)output_format; (void)flags;
    if (!cvips_skip_precalc) return FALSE;
    g_atomic_int_inc(&cvips_skipped_count);
    return TRUE;
}

int cvips_precalc_skipped(void) {
    return g_atomic_int_get(&cvips_skipped_count);
}

static cmsPluginOptimization cvips_optimization_plugin = {
    {cmsPluginMagicNumber, 2060, cmsPluginOptimizationSig, NULL},
    cvips_optimize,
};

static int cvips_small(VipsImage *image) {
    return (gint64)vips_image_get_width(image) * vips_image_get_height(image) < CVIPS_PRECALC_MIN_PIXELS;
}

// Why libvips did not start. Read once, during start-up, before any image work can have run,
// so the buffer holds only start-up's own text.
static char cvips_start_error[512];

static void cvips_init_once(void) {
    if (VIPS_INIT("contrast-server") != 0) {
        g_strlcpy(cvips_start_error, vips_error_buffer(), sizeof cvips_start_error);
        vips_error_clear();
        cvips_init_result = -1;
        return;
    }
    // The operation cache keys buffer loads by pointer and length: a later request whose
    // bytes land at the same address must never get an earlier request's image.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    // Defence in depth: only the three buffer loaders may run, and nothing "untrusted"
    // (ImageMagick, PDF, SVG, ...), whatever the bytes claim to be.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadPngBuffer", FALSE);
    vips_operation_block_set("VipsForeignLoadJpegBuffer", FALSE);
    vips_operation_block_set("VipsForeignLoadWebpBuffer", FALSE);
    GLogLevelFlags quiet = G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG;
    g_log_set_handler("VIPS", quiet, cvips_quiet_log, NULL);
    g_log_set_handler("GLib-GObject", quiet, cvips_quiet_log, NULL);
    // libvips keeps one error buffer for the whole process, written from its worker threads
    // as well; a successful request's libjpeg warning stayed there and reached another
    // client's 400 (hostile test). Nothing is recorded any more: failures are told by return
    // codes, and the service writes its own messages.
    vips_error_freeze();
    cmsPlugin(&cvips_optimization_plugin);
    cvips_init_result = 0;
}

int cvips_init(void) {
    pthread_once(&cvips_once, cvips_init_once);
    return cvips_init_result;
}

const char *cvips_start_error_text(void) {
    pthread_once(&cvips_once, cvips_init_once);
    return cvips_start_error;
}

// MARK: - loading

static void cvips_free_buffer(VipsImage *image, gpointer data) {
    (void)image;
    g_free(data);
}

int cvips_load(int format, const void *buf, size_t len, VipsImage **out) {
    *out = NULL;
    if (len == 0 || buf == NULL) return -1;
    // libvips reads lazily from the buffer for as long as the image (or any image made
    // from it) lives, so it gets its own copy, freed when the loaded image closes.
    void *copy = g_malloc(len);
    memcpy(copy, buf, len);
    int result;
    switch (format) {
    case CVIPS_FORMAT_PNG:
        result = vips_pngload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_WARNING,
                                     "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    case CVIPS_FORMAT_JPEG:
        // libjpeg reports missing or damaged entropy-coded data as a warning ("premature end
        // of data segment") and fills the rest with grey, so only fail_on=warning refuses a
        // JPEG cut short or whose header claims more rows than its data holds.
        result = vips_jpegload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_WARNING,
                                      "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    case CVIPS_FORMAT_WEBP:
        result = vips_webpload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_WARNING,
                                      "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    default:
        result = -1;
    }
    if (result != 0 || *out == NULL) {
        g_free(copy);
        *out = NULL;
        return -1;
    }
    g_signal_connect(*out, "postclose", G_CALLBACK(cvips_free_buffer), copy);
    return 0;
}

void cvips_unref(VipsImage *image) {
    if (image) g_object_unref(image);
}

void cvips_free(void *pointer) {
    g_free(pointer);
}

// MARK: - header

int cvips_width(VipsImage *image) { return vips_image_get_width(image); }
int cvips_height(VipsImage *image) { return vips_image_get_height(image); }
int cvips_bands(VipsImage *image) { return vips_image_get_bands(image); }
int cvips_band_format(VipsImage *image) { return (int)vips_image_get_format(image); }
int cvips_interpretation(VipsImage *image) { return (int)vips_image_get_interpretation(image); }
int cvips_orientation(VipsImage *image) { return vips_image_get_orientation(image); }
int cvips_n_pages(VipsImage *image) { return vips_image_get_n_pages(image); }
int cvips_has_alpha(VipsImage *image) { return vips_image_hasalpha(image) ? 1 : 0; }

const void *cvips_icc_profile(VipsImage *image, size_t *length) {
    *length = 0;
    if (vips_image_get_typeof(image, VIPS_META_ICC_NAME) == 0) return NULL;
    const void *data = NULL;
    if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, length) != 0) {
        vips_error_clear();
        *length = 0;
        return NULL;
    }
    return data;
}

int cvips_copy_with(VipsImage *in, VipsImage **out, const void *icc, size_t icc_length,
                    int orientation, int interpretation) {
    int result = interpretation >= 0
        ? vips_copy(in, out, "interpretation", (VipsInterpretation)interpretation, NULL)
        : vips_copy(in, out, NULL);
    if (result != 0) return -1;
    if (icc != NULL) {
        if (icc_length > 0) {
            vips_image_set_blob_copy(*out, VIPS_META_ICC_NAME, icc, icc_length);
        } else {
            vips_image_remove(*out, VIPS_META_ICC_NAME);
        }
    }
    if (orientation >= 1 && orientation <= 8) {
        vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    }
    return 0;
}

// MARK: - operations

int cvips_icc_to_srgb(VipsImage *in, VipsImage **out, int depth) {
    cvips_skip_precalc = cvips_small(in);
    int result = vips_icc_transform(in, out, "srgb", "embedded", TRUE, "depth", depth,
                                    "intent", VIPS_INTENT_RELATIVE, NULL);
    cvips_skip_precalc = 0;
    return result;
}

int cvips_colourspace(VipsImage *in, VipsImage **out, int interpretation) {
    // CMYK without a profile goes through libvips's default CMYK profile and lcms2 here.
    cvips_skip_precalc = cvips_small(in);
    int result = vips_colourspace(in, out, (VipsInterpretation)interpretation, NULL);
    cvips_skip_precalc = 0;
    return result;
}

int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return vips_extract_band(in, out, first, "n", count, NULL);
}

int cvips_bandjoin2(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_bandjoin2(a, b, out, NULL);
}

int cvips_maplut(VipsImage *in, VipsImage **out, VipsImage *lut) {
    return vips_maplut(in, out, lut, NULL);
}

int cvips_flatten(VipsImage *in, VipsImage **out, const double *background, int count, double max_alpha) {
    VipsArrayDouble *array = vips_array_double_new(background, count);
    int result = vips_flatten(in, out, "background", array, "max_alpha", max_alpha, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result;
}

/* Source-over onto an opaque background as vips_flatten, but computed in float and rounded to
 * the nearest level of the input's format: flattening an 8-bit image directly truncates
 * (237 at alpha 128 over black is 118.96 and became 118, darker than it is). */
int cvips_flatten_rounded(VipsImage *in, VipsImage **out, const double *background, int count, double max_alpha) {
    VipsImage *t[3] = { NULL, NULL, NULL };
    VipsBandFormat format = vips_image_get_format(in);
    int result = vips_cast(in, &t[0], VIPS_FORMAT_FLOAT, NULL);
    if (result == 0) result = cvips_flatten(t[0], &t[1], background, count, max_alpha);
    if (result == 0) result = vips_round(t[1], &t[2], VIPS_OPERATION_ROUND_RINT, NULL);
    if (result == 0) result = vips_cast(t[2], out, format, NULL);
    for (int i = 0; i < 3; i++) if (t[i]) g_object_unref(t[i]);
    return result;
}

int cvips_cast(VipsImage *in, VipsImage **out, int band_format) {
    return vips_cast(in, out, (VipsBandFormat)band_format, NULL);
}

VipsImage *cvips_new_from_memory(const void *data, size_t length, int width, int height,
                                 int bands, int band_format) {
    return vips_image_new_from_memory_copy(data, length, width, height, bands, (VipsBandFormat)band_format);
}

int cvips_decode_check(VipsImage *in) {
    double average = 0;
    return vips_avg(in, &average, NULL);
}

void *cvips_write_to_memory(VipsImage *in, size_t *length) {
    return vips_image_write_to_memory(in, length);
}

int cvips_save(int format, VipsImage *in, int quality, void **buffer, size_t *length) {
    *buffer = NULL;
    *length = 0;
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;
    switch (format) {
    case CVIPS_FORMAT_PNG:
        return vips_pngsave_buffer(in, buffer, length, "compression", 6, NULL);
    case CVIPS_FORMAT_JPEG:
        return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "optimize_coding", TRUE, NULL);
    case CVIPS_FORMAT_WEBP:
        return vips_webpsave_buffer(in, buffer, length, "Q", quality, NULL);
    default:
        return -1;
    }
}

int cvips_generic_load_buffer(const void *buf, size_t len) {
    VipsImage *image = vips_image_new_from_buffer(buf, len, "", NULL);
    if (image == NULL) return -1;
    g_object_unref(image);
    return 0;
}

// MARK: - PNG data check

static uint32_t cvips_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

// The rows of one interlace pass (or of the whole image): how many, their length in bytes
// with the filter byte, and their width in pixels.
struct cvips_png_rows { uint64_t count; uint64_t length; uint64_t width; };

// Undoes a row's filter (PNG §7.3, filter types 0–4 with one byte a pixel, as for a palette
// image of any depth), `prior` being the previous unfiltered row (zeros for a pass's first).
static void cvips_png_unfilter(unsigned char *row, const unsigned char *prior, size_t n, int type) {
    for (size_t i = 0; i < n; i++) {
        int a = i > 0 ? row[i - 1] : 0, b = prior[i], c = i > 0 ? prior[i - 1] : 0, x = row[i];
        switch (type) {
        case 1: x += a; break;
        case 2: x += b; break;
        case 3: x += (a + b) / 2; break;
        case 4: {
            int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
            x += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            break;
        }
        default: break;
        }
        row[i] = (unsigned char)x;
    }
}

int cvips_png_data_damaged(const void *data, size_t length, int *palette_entries, int *palette_index) {
    *palette_entries = -1;
    *palette_index = -1;
    const unsigned char *s = data;
    if (s == NULL || length < 8 + 25) return -1;
    size_t k = 8;
    if (cvips_be32(s + k + 4) != 0x49484452u || cvips_be32(s + k) != 13) return -1;  // "IHDR"
    const unsigned char *ihdr = s + k + 8;
    uint64_t width = cvips_be32(ihdr), height = cvips_be32(ihdr + 4);
    int depth = ihdr[8], type = ihdr[9], interlace = ihdr[12];
    int channels = type == 0 ? 1 : type == 2 ? 3 : type == 3 ? 1 : type == 4 ? 2 : type == 6 ? 4 : 0;
    if (channels == 0 || depth == 0 || width == 0 || height == 0) return -1;
    uint64_t bits = (uint64_t)channels * (uint64_t)depth;
    // Adam7's passes (PNG §8.2): x start, y start, x step, y step.
    static const int adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    struct cvips_png_rows passes[7];
    int passCount = 0;
    if (interlace == 0) {
        passes[passCount++] = (struct cvips_png_rows){height, 1 + (width * bits + 7) / 8, width};
    } else {
        for (int p = 0; p < 7; p++) {
            uint64_t w = width > (uint64_t)adam7[p][0] ? (width - adam7[p][0] + adam7[p][2] - 1) / adam7[p][2] : 0;
            uint64_t h = height > (uint64_t)adam7[p][1] ? (height - adam7[p][1] + adam7[p][3] - 1) / adam7[p][3] : 0;
            if (w > 0 && h > 0) passes[passCount++] = (struct cvips_png_rows){h, 1 + (w * bits + 7) / 8, w};
        }
    }
    // A palette image's indices must lie within its PLTE (PNG §11.2.2: an index past it is an
    // error; libvips's loader showed such pixels as black). The entries are counted when PLTE
    // is met; the rows are unfiltered and checked only when fewer than `2^depth` entries leave
    // an index that can be out of range.
    uint64_t longest = 0;
    for (int p = 0; p < passCount; p++) if (passes[p].length > longest) longest = passes[p].length;
    unsigned char *rows = NULL;
    int entries = -1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return 1;
    unsigned char out[65536];
    int pass = 0;
    uint64_t row = 0, offset = 0;
    int damaged = 1;
    k = 8;
    while (k + 12 <= length && pass < passCount) {
        uint32_t size = cvips_be32(s + k), name = cvips_be32(s + k + 4);
        if ((uint64_t)size > length - k - 12) break;  // a chunk cut short: the data ends early
        if (name == 0x49444154u) {  // "IDAT"
            z.next_in = (Bytef *)(s + k + 8);
            z.avail_in = size;
            while (pass < passCount) {
                z.next_out = out;
                z.avail_out = sizeof out;
                int r = inflate(&z, Z_NO_FLUSH);
                if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) goto done;  // a zlib error
                size_t produced = sizeof out - z.avail_out;
                // Each row's first byte is its filter type.
                size_t i = 0;
                while (i < produced && pass < passCount) {
                    if (offset == 0 && out[i] > 4) goto done;
                    uint64_t step = passes[pass].length - offset;
                    if (step > produced - i) step = produced - i;
                    if (rows != NULL) memcpy(rows + offset, out + i, (size_t)step);
                    i += (size_t)step;
                    offset += step;
                    if (offset == passes[pass].length) {
                        if (rows != NULL) {
                            // rows: [filter byte, this row…][0, prior row…]
                            size_t n = (size_t)passes[pass].length - 1;
                            unsigned char *current = rows + 1, *prior = rows + longest + 1;
                            if (row == 0) memset(prior, 0, n);
                            cvips_png_unfilter(current, prior, n, rows[0]);
                            uint64_t pixels = passes[pass].width;
                            for (size_t b = 0; b < n; b++) {
                                for (int shift = 8 - depth; shift >= 0; shift -= depth) {
                                    uint64_t pixel = (uint64_t)b * (8 / depth) + (uint64_t)((8 - depth - shift) / depth);
                                    if (pixel >= pixels) break;
                                    int index = (current[b] >> shift) & ((1 << depth) - 1);
                                    if (index >= entries) { *palette_entries = entries; *palette_index = index; damaged = 2; goto done; }
                                }
                            }
                            memcpy(prior, current, n);
                        }
                        offset = 0;
                        if (++row == passes[pass].count) { row = 0; pass++; }
                    }
                }
                if (pass == passCount) break;
                if (r == Z_STREAM_END) goto done;  // the stream ended before the last row
                if (produced == 0 && z.avail_in == 0) break;  // this chunk is used up
                if (r == Z_BUF_ERROR && produced == 0) goto done;
            }
        } else if (name == 0x504C5445u && type == 3 && entries < 0 && z.total_in == 0) {  // "PLTE"
            entries = (int)(size / 3);
            if (depth <= 8 && entries < (1 << depth) && longest <= 0x7FFFFFFF) {
                rows = calloc(2, (size_t)longest);
                if (rows == NULL) goto done;
            }
        } else if (name == 0x49454E44u) {  // "IEND"
            break;
        }
        k += 12 + (size_t)size;
    }
    damaged = pass < passCount ? 1 : 0;
done:
    inflateEnd(&z);
    free(rows);
    return damaged;
}

// MARK: - JPEG data check

// libvips 8.14's JPEG loader checks libjpeg's warning count at the start of each 8-row strip,
// for the strip before: warnings raised while decoding the *last* strip (missing or damaged
// data there, filled with grey) are only logged when the decoder is freed. A JPEG one MCU row
// tall whose data is cut, or any baseline JPEG damaged in its last rows, was therefore read
// as if intact (hostile test). Progressive files are not affected: libjpeg reads all their
// scans before the first strip, so libvips sees those warnings. This decodes a baseline file
// once more at 1/8 scale (DC only, no full IDCT or upsampling) and reports any warning.
struct cvips_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
};

static void cvips_jpeg_error_exit(j_common_ptr cinfo) {
    longjmp(((struct cvips_jpeg_error *)cinfo->err)->jump, 1);
}

static void cvips_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) cinfo->err->num_warnings++;  // warnings counted, nothing printed
}

static void cvips_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

int cvips_jpeg_data_damaged(const void *data, size_t length) {
    if (data == NULL || length == 0 || length > (size_t)0x7FFFFFFF) return -1;
    struct jpeg_decompress_struct cinfo;
    struct cvips_jpeg_error error;
    cinfo.err = jpeg_std_error(&error.pub);
    error.pub.error_exit = cvips_jpeg_error_exit;
    error.pub.emit_message = cvips_jpeg_emit_message;
    error.pub.output_message = cvips_jpeg_output_message;
    JSAMPARRAY row;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    if (jpeg_has_multiple_scans(&cinfo)) {
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    cinfo.dct_method = JDCT_IFAST;
    cinfo.do_fancy_upsampling = FALSE;
    cinfo.do_block_smoothing = FALSE;
    jpeg_start_decompress(&cinfo);
    row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                     cinfo.output_width * cinfo.output_components, 1);
    while (cinfo.output_scanline < cinfo.output_height && cinfo.err->num_warnings == 0) {
        jpeg_read_scanlines(&cinfo, row, 1);
    }
    int damaged = cinfo.err->num_warnings > 0 ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return damaged;
}

// MARK: - zlib

long long cvips_inflated_size(const void *data, size_t length, size_t cap) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return -1;
    unsigned char sink[16384];
    stream.next_in = (Bytef *)data;
    size_t total = 0;
    int status = Z_OK;
    while (status == Z_OK) {
        // zlib counts avail_in in 32 bits; feed large inputs in pieces.
        if (stream.avail_in == 0) {
            size_t used = (size_t)(stream.next_in - (const Bytef *)data);
            size_t rest = length - used;
            stream.avail_in = (uInt)(rest > 0x40000000u ? 0x40000000u : rest);
        }
        stream.next_out = sink;
        stream.avail_out = sizeof sink;
        status = inflate(&stream, Z_NO_FLUSH);
        total += sizeof sink - stream.avail_out;
        if (total > cap) {
            inflateEnd(&stream);
            return -2;
        }
    }
    inflateEnd(&stream);
    return status == Z_STREAM_END ? (long long)total : -1;
}

unsigned int cvips_crc32(unsigned int crc, const void *data, size_t length) {
    uLong value = crc;
    const Bytef *bytes = data;
    while (length > 0) {
        uInt piece = length > 0x40000000u ? 0x40000000u : (uInt)length;
        value = crc32(value, bytes, piece);
        bytes += piece;
        length -= piece;
    }
    return (unsigned int)value;
}

// MARK: - lcms2

int cvips_icc_tone_curves(const void *icc, size_t length, int samples, float *out) {
    if (icc == NULL || length < 128 || length > 0x7fffffff || samples < 2) return -1;
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (profile == NULL) return -1;
    cmsTagSignature tags[3];
    int channels = 0;
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    if (space == cmsSigRgbData && cmsIsMatrixShaper(profile)) {
        tags[0] = cmsSigRedTRCTag;
        tags[1] = cmsSigGreenTRCTag;
        tags[2] = cmsSigBlueTRCTag;
        channels = 3;
    } else if (space == cmsSigGrayData && cmsIsTag(profile, cmsSigGrayTRCTag)) {
        tags[0] = cmsSigGrayTRCTag;
        channels = 1;
    }
    for (int c = 0; c < channels; c++) {
        const cmsToneCurve *curve = (const cmsToneCurve *)cmsReadTag(profile, tags[c]);
        if (curve == NULL) {
            channels = -1;
            break;
        }
        for (int i = 0; i < samples; i++) {
            out[c * samples + i] = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)i / (cmsFloat32Number)(samples - 1));
        }
    }
    cmsCloseProfile(profile);
    return channels;
}

int cvips_icc_converts_to_srgb(const void *icc, size_t length) {
    if (icc == NULL || length < 128 || length > 0x7fffffff) return 0;
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (profile == NULL) return 0;
    cmsUInt32Number format;
    switch (cmsGetColorSpace(profile)) {
    case cmsSigGrayData: format = TYPE_GRAY_8; break;
    case cmsSigRgbData: format = TYPE_RGB_8; break;
    case cmsSigCmykData: format = TYPE_CMYK_8; break;
    default: cmsCloseProfile(profile); return 0;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    // NOOPTIMIZE: the pipeline is built and checked, without the precalculated grid.
    cmsHTRANSFORM t = srgb == NULL ? NULL
        : cmsCreateTransform(profile, format, srgb, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE);
    int ok = t != NULL;
    if (t != NULL) cmsDeleteTransform(t);
    if (srgb != NULL) cmsCloseProfile(srgb);
    cmsCloseProfile(profile);
    return ok;
}

size_t cvips_icc_description(const void *icc, size_t length, char *buffer, size_t capacity) {
    if (capacity == 0) return 0;
    buffer[0] = 0;
    if (icc == NULL || length < 128 || length > 0x7fffffff) return 0;
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (profile == NULL) return 0;
    cmsUInt32Number n = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", buffer,
                                               (cmsUInt32Number)(capacity > 0xffff ? 0xffff : capacity));
    cmsCloseProfile(profile);
    if (n == 0) {
        buffer[0] = 0;
        return 0;
    }
    buffer[capacity - 1] = 0;
    return strlen(buffer);
}

int cvips_icc_make_rgb(const double white[2], const double primaries[6], const char *description,
                       void **buffer, size_t *length) {
    *buffer = NULL;
    *length = 0;
    cmsCIExyY wp = {white[0], white[1], 1.0};
    cmsCIExyYTRIPLE prim = {
        {primaries[0], primaries[1], 1.0},
        {primaries[2], primaries[3], 1.0},
        {primaries[4], primaries[5], 1.0},
    };
    // IEC 61966-2-1 sRGB curve as ICC parametric type 4: Y = (aX+b)^g for X >= d, else cX.
    const cmsFloat64Number srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
    if (curve == NULL) return -1;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&wp, &prim, curves);
    cmsFreeToneCurve(curve);
    if (profile == NULL) return -1;
    cmsMLU *mlu = cmsMLUalloc(NULL, 1);
    if (mlu != NULL) {
        cmsMLUsetASCII(mlu, "en", "US", description ? description : "RGB");
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, mlu);
        cmsMLUfree(mlu);
    }
    cmsUInt32Number size = 0;
    int result = -1;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0) {
        void *data = g_malloc(size);
        if (cmsSaveProfileToMem(profile, data, &size)) {
            *buffer = data;
            *length = size;
            result = 0;
        } else {
            g_free(data);
        }
    }
    cmsCloseProfile(profile);
    return result;
}
