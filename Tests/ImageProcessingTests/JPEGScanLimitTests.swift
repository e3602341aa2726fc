@testable import ImageProcessing
import Testing

/// A progressive JPEG can hold thousands of cheap scans, each a full decoding pass: 2500 scans
/// in 265 KB cost 19 s, and libjpeg cannot be stopped at the heavy-work deadline (outside
/// test). The container check refuses more than `maxJPEGScans` before libvips sees the file.
@Suite struct JPEGScanLimitTests {
    /// SOI, a 16 × 16 gray baseline frame, then `scans` scan headers each followed by one byte
    /// of entropy data (with a stuffed FF 00 and a restart marker, which are no scans), then EOI.
    static func jpeg(scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00]
        for _ in 0..<scans {
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
            bytes += [0x12, 0xFF, 0x00, 0xFF, 0xD0, 0x34]
        }
        return bytes + [0xFF, 0xD9]
    }

    @Test func moreScansThanTheLimitAreRefused() throws {
        #expect(ContainerCheck.maxJPEGScans == 100)
        #expect(throws: Never.self) { try ContainerCheck.jpeg(Self.jpeg(scans: 100)) }
        do {
            try ContainerCheck.jpeg(Self.jpeg(scans: 101))
            Issue.record("101 scans passed the check")
        } catch {
            #expect("\(error)".contains("more than 100 scans"), "\(error)")
        }
    }
}
