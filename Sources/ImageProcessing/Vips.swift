// The libvips boundary: one reference-counted image handle and error capture. Every libvips call
// of this module goes through CVipsShim (non-variadic wrappers) and is checked here.
import CVipsShim
import Foundation

/// One libvips image reference (`VipsImage *`), released when this object goes away.
/// Not shared between threads: each request builds and drops its own pipeline.
final class VipsHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        cvips_unref(pointer)
    }

    var width: Int { Int(cvips_width(pointer)) }
    var height: Int { Int(cvips_height(pointer)) }
    var bands: Int { Int(cvips_bands(pointer)) }
    var bandFormat: Int32 { cvips_band_format(pointer) }
    var interpretation: Int32 { cvips_interpretation(pointer) }
    var hasAlpha: Bool { cvips_has_alpha(pointer) != 0 }
    var orientation: Int { Int(cvips_orientation(pointer)) }
    var pageCount: Int { Int(cvips_n_pages(pointer)) }

    /// Bits per sample: 8 for uchar, 16 for ushort, 0 for anything else.
    var bitsPerSample: Int {
        switch bandFormat {
        case Int32(CVIPS_BAND_UCHAR): 8
        case Int32(CVIPS_BAND_USHORT): 16
        default: 0
        }
    }

    /// A copy of the embedded ICC profile, if any.
    var iccProfile: [UInt8]? {
        var length = 0
        guard let data = cvips_icc_profile(pointer, &length), length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
}

/// Process-wide libvips start-up.
///
/// libvips's error text is never read: its error buffer is one for the whole process, filled
/// from worker threads too, so it can hold another request's message (hostile test: a
/// successful request's libjpeg warning appeared in a later client's 400). The shim freezes
/// it at start-up; every failure here is described in this module's own words.
enum Vips {
    /// libvips started (once, thread-safe) with the cache off and all but three loaders blocked.
    static let startError: String? = {
        guard cvips_init() != 0 else { return nil }
        let lines = String(cString: cvips_start_error_text()).split(whereSeparator: \.isNewline)
        let reason = lines.prefix(2).joined(separator: "; ")
        return "libvips did not start: " + (reason.isEmpty ? "unknown reason" : reason)
    }()

    static func start() throws(ImageError) {
        if let startError { throw .unavailable(startError) }
    }

    /// Runs one operation that returns a new image through its out-parameter.
    /// - Throws: `error` when libvips returns non-zero.
    static func make(
        _ error: @autoclosure () -> ImageError,
        _ body: (UnsafeMutablePointer<OpaquePointer?>) -> Int32
    ) throws(ImageError) -> VipsHandle {
        var out: OpaquePointer?
        let status = body(&out)
        guard status == 0, let out else {
            if let out { cvips_unref(out) }
            throw error()
        }
        return VipsHandle(out)
    }

    /// How many colour transforms of small images skipped lcms2's precalculation (for tests).
    static var precalcSkipped: Int { Int(cvips_precalc_skipped()) }

    /// Whether libvips's generic, sniffing loader opens `bytes` (for tests: it never should,
    /// as every loader but the PNG, JPEG and WebP buffer loaders is blocked).
    static func genericLoaderOpens(_ bytes: [UInt8]) -> Bool {
        guard startError == nil else { return false }
        return bytes.withUnsafeBytes { cvips_generic_load_buffer($0.baseAddress, $0.count) } == 0
    }
}

/// `Array.withUnsafeBytes` for a body with typed throws (the standard one rethrows `any Error`).
func withBytes<R>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ImageError) -> R) throws(ImageError) -> R {
    let result: Result<R, ImageError> = array.withUnsafeBytes { raw in
        do throws(ImageError) {
            return .success(try body(raw))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
