/// The image container formats the service decodes and encodes (through libvips).
public enum ImageFormat: String, CaseIterable, Sendable {
    /// PNG (ISO/IEC 15948): 1, 2, 4, 8 or 16 bits per sample, gray or RGB, optional alpha.
    case png
    /// JPEG (ITU-T T.81) in a JFIF or EXIF container: 8 bits, gray, YCbCr/RGB or CMYK.
    case jpeg
    /// WebP (RIFF container, VP8 lossy or VP8L lossless): 8 bits RGB, optional alpha.
    case webp

    /// The IANA media type (`image/png`, `image/jpeg`, `image/webp`).
    public var mediaType: String { "image/\(rawValue)" }

    /// The name people use for it in messages ("PNG", "JPEG", "WebP").
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }

    /// The format whose media type is `mediaType` (`image/jpg` and `image/pjpeg` count as JPEG),
    /// compared case-insensitively; nil for any other type.
    public init?(mediaType: String) {
        switch mediaType.lowercased() {
        case "image/png", "image/x-png", "image/apng": self = .png
        case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
        case "image/webp": self = .webp
        default: return nil
        }
    }

    /// The format the bytes are in, from their signature ("magic number"):
    /// PNG `89 50 4E 47 0D 0A 1A 0A`, JPEG `FF D8 FF`, WebP `RIFF····WEBP`. Reads 12 bytes at most.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// What bytes that are none of the accepted formats look like, for error messages:
    /// "a GIF image", "a HEIF/AVIF image", "JSON or text", or their first bytes in hex.
    public static func describeUnrecognized(_ bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(16))
        func starts(_ s: String) -> Bool { head.starts(with: Array(s.utf8)) }
        if head.isEmpty { return "empty" }
        if starts("GIF87a") || starts("GIF89a") { return "a GIF image" }
        if starts("BM") { return "a BMP image" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "a TIFF image" }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) { return "a HEIF/AVIF/MP4 file" }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "a JPEG XL image" }
        if starts("%PDF") { return "a PDF document" }
        if starts("RIFF") { return "a RIFF file that is not WebP" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "a damaged PNG signature" }
        if head.starts(with: [0xFF, 0xD8]) { return "a damaged JPEG signature" }
        let trimmed = head.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        if let first = trimmed.first, first == UInt8(ascii: "<") { return "XML, HTML or SVG text" }
        if let first = trimmed.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return "JSON text" }
        let hex = head.prefix(8).map { byte in
            let digits = Array("0123456789ABCDEF".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }
        return "unknown data starting with bytes \(hex.joined(separator: " "))"
    }
}
