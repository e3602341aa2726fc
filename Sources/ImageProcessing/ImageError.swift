/// Why an image could not be read, processed or written. Every case is the input's fault or a
/// limit, except `encodeFailed` and `unavailable`; none of them is a crash.
public enum ImageError: Error, Sendable, Equatable {
    /// No bytes at all.
    case empty
    /// The bytes are not PNG, JPEG or WebP; the text says what they look like.
    case unrecognized(String)
    /// The header declares `width × height` pixels, more than `limit`; refused before decoding.
    /// `decodedWhole` names why the image's pixels count twice against the limit (a progressive
    /// JPEG, an interlaced PNG, a WebP: ``ContainerCheck/decodesWhole``), nil when they count once.
    case tooManyPixels(format: ImageFormat, width: Int, height: Int, limit: Int, decodedWhole: String? = nil)
    /// A row of the decoded image holds `rowBytes` bytes as RGBA (width × 4 × bytes per sample),
    /// more than `limit` (``ImageFile/maximumRowBytes``); refused before decoding.
    case rowTooLong(format: ImageFormat, width: Int, rowBytes: Int, limit: Int)
    /// The decoder refused the data: truncated, corrupt, or not what the signature promised.
    /// The text is the decoder's reason (libvips/libpng/libjpeg/libwebp), trimmed.
    case corrupt(ImageFormat, String)
    /// A valid image this service does not handle (sample format, band layout, ...).
    case unsupported(String)
    /// libvips could not encode the result.
    case encodeFailed(ImageFormat, String)
    /// libvips failed to start (a broken installation, not the request's fault).
    case unavailable(String)

    /// A sentence for a person.
    public var message: String {
        switch self {
        case .empty:
            return "the image is empty (0 bytes)"
        case .unrecognized(let what):
            return "the data is not a PNG, JPEG or WebP image: it looks like \(what)"
        case .tooManyPixels(let format, let width, let height, let limit, let whole?):
            return "the \(format.displayName) header declares \(width) × \(height) = \(width * height) pixels; \(whole) is decoded whole into memory, not in strips, so it may have at most half the limit of \(limit) (\(limit / 2)); it was refused before decoding (save it as \(format == .jpeg ? "a baseline JPEG" : format == .webp ? "a PNG or JPEG" : "a non-interlaced PNG"), or smaller)"
        case .tooManyPixels(let format, let width, let height, let limit, nil):
            return "the \(format.displayName) header declares \(width) × \(height) = \(width * height) pixels, more than the limit of \(limit); it was refused before decoding"
        case .rowTooLong(let format, let width, let rowBytes, let limit):
            return "the \(format.displayName) header declares rows \(width) pixels wide, \(rowBytes) bytes each as decoded RGBA, more than the limit of \(limit) bytes (32,768 pixels with 8-bit samples, 16,384 with 16-bit): images are decoded a few rows at a time, so memory grows with the width; it was refused before decoding (send it narrower, or with 8-bit samples)"
        case .corrupt(let format, let reason):
            return "the \(format.displayName) data is truncated or corrupt: \(reason)"
        case .unsupported(let why):
            return why
        case .encodeFailed(let format, let reason):
            return "the result could not be encoded as \(format.displayName): \(reason)"
        case .unavailable(let reason):
            return "image processing is unavailable: \(reason)"
        }
    }
}
