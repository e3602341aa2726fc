// CVipsShim: see include/CVipsShim.h. Every exported symbol has the `cvips_` prefix.
#include "CVipsShim.h"

#include <lcms2.h>
#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

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

// The last libvips warning on this thread. libpng's errors reach libvips's handler as warnings
// (g_warning) and leave the error buffer empty, so this is the reason when there is no other.
static __thread char cvips_warning[256];

static void cvips_quiet_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)data;
    if (message != NULL) g_strlcpy(cvips_warning, message, sizeof cvips_warning);
}

static void cvips_init_once(void) {
    if (VIPS_INIT("contrast-server") != 0) {
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
    // Decoder warnings (libpng/libjpeg complaints about hostile input) would flood stderr;
    // failures still come back through the error buffer.
    GLogLevelFlags quiet = G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG;
    g_log_set_handler("VIPS", quiet, cvips_quiet_log, NULL);
    g_log_set_handler("GLib-GObject", quiet, cvips_quiet_log, NULL);
    cvips_init_result = 0;
}

int cvips_init(void) {
    pthread_once(&cvips_once, cvips_init_once);
    return cvips_init_result;
}

// MARK: - loading

static void cvips_free_buffer(VipsImage *image, gpointer data) {
    (void)image;
    g_free(data);
}

int cvips_load(int format, const void *buf, size_t len, VipsImage **out) {
    *out = NULL;
    if (len == 0 || buf == NULL) {
        vips_error("cvips", "empty image data");
        return -1;
    }
    // libvips reads lazily from the buffer for as long as the image (or any image made
    // from it) lives, so it gets its own copy, freed when the loaded image closes.
    cvips_warning[0] = 0;
    void *copy = g_malloc(len);
    memcpy(copy, buf, len);
    int result;
    switch (format) {
    case CVIPS_FORMAT_PNG:
        result = vips_pngload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_ERROR,
                                     "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    case CVIPS_FORMAT_JPEG:
        result = vips_jpegload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_ERROR,
                                      "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    case CVIPS_FORMAT_WEBP:
        result = vips_webpload_buffer(copy, len, out, "fail_on", VIPS_FAIL_ON_ERROR,
                                      "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        break;
    default:
        vips_error("cvips", "unknown format %d", format);
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

char *cvips_error_take(void) {
    char *text = vips_error_buffer_copy();
    if ((text == NULL || text[0] == 0) && cvips_warning[0] != 0) {
        g_free(text);
        text = g_strdup(cvips_warning);
    }
    cvips_warning[0] = 0;
    return text;
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
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "depth", depth,
                              "intent", VIPS_INTENT_RELATIVE, NULL);
}

int cvips_colourspace(VipsImage *in, VipsImage **out, int interpretation) {
    return vips_colourspace(in, out, (VipsInterpretation)interpretation, NULL);
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
        vips_error("cvips", "unknown format %d", format);
        return -1;
    }
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
