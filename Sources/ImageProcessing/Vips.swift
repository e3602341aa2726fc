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

/// Process-wide libvips start-up and error text.
enum Vips {
    /// libvips started (once, thread-safe) with the cache off and all but three loaders blocked.
    static let startError: String? = {
        cvips_init() == 0 ? nil : "libvips did not start: \(takeError())"
    }()

    static func start() throws(ImageError) {
        if let startError { throw .unavailable(startError) }
    }

    /// Takes and clears libvips's error buffer, keeping the first two lines (at most 300 bytes).
    /// The buffer is process-wide, so under load it can hold another request's message too.
    static func takeError() -> String {
        guard let raw = cvips_error_take() else { return "unknown error" }
        defer { cvips_free(raw) }
        let lines = String(cString: raw).split(whereSeparator: \.isNewline)
            .map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let text = lines.prefix(2).joined(separator: "; ")
        let clipped = text.utf8.count > 300 ? String(decoding: Array(text.utf8.prefix(300)), as: UTF8.self) + "…" : text
        return clipped.isEmpty ? "unknown error" : clipped
    }

    /// Runs one operation that returns a new image through its out-parameter.
    /// - Throws: `fail(reason)` with libvips's reason when it returns non-zero.
    static func make(
        _ fail: (String) -> ImageError,
        _ body: (UnsafeMutablePointer<OpaquePointer?>) -> Int32
    ) throws(ImageError) -> VipsHandle {
        var out: OpaquePointer?
        let status = body(&out)
        guard status == 0, let out else {
            if let out { cvips_unref(out) }
            throw fail(takeError())
        }
        return VipsHandle(out)
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
