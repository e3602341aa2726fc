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

    /// SOI, a 16 × 16 frame (`sof` marker) of components 1, 2, 3, the given scans (component ids,
    /// Ss, Se, Ah) each with one byte of data, EOI.
    static func jpeg(sof: UInt8, scans: [([UInt8], UInt8, UInt8, UInt8)]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, sof, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03,
                              0x01, 0x11, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        for (ids, ss, se, ah) in scans {
            bytes += [0xFF, 0xDA, 0x00, UInt8(6 + 2 * ids.count), UInt8(ids.count)]
            for id in ids { bytes += [id, 0x00] }
            bytes += [ss, se, ah << 4, 0x12]
        }
        return bytes + [0xFF, 0xD9]
    }

    /// A hostile pass, stop 49: a file cut between scans and closed with FF D9 decodes without a
    /// warning, missing components and coefficients flat gray (a baseline file of one scan per
    /// component and a progressive one with its chroma first, each cut before the luma scan,
    /// were answered as uniform #808080 images); a cut arithmetic-coded scan decodes as zeros.
    @Test func aFileCutBetweenScansIsRefused() throws {
        func reason(_ bytes: [UInt8]) -> String? {
            do { try ContainerCheck.jpeg(bytes); return nil } catch { return "\(error)" }
        }
        // Sequential: every component in some scan.
        #expect(reason(Self.jpeg(sof: 0xC0, scans: [([1, 2, 3], 0, 63, 0)])) == nil)
        #expect(reason(Self.jpeg(sof: 0xC0, scans: [([1], 0, 63, 0), ([2], 0, 63, 0), ([3], 0, 63, 0)])) == nil)
        #expect(reason(Self.jpeg(sof: 0xC0, scans: [([2], 0, 63, 0), ([3], 0, 63, 0)]))?.contains("component 1 of the image has no scan") == true)
        // Progressive: every coefficient of every component in a first pass (refinements optional).
        let dc: ([UInt8], UInt8, UInt8, UInt8) = ([1, 2, 3], 0, 0, 0)
        let full = [dc, ([1], 1, 5, 0), ([1], 6, 63, 0), ([2], 1, 63, 0), ([3], 1, 63, 0)]
        #expect(reason(Self.jpeg(sof: 0xC2, scans: full)) == nil)
        #expect(reason(Self.jpeg(sof: 0xC2, scans: full + [([1], 1, 63, 1)])) == nil)
        #expect(reason(Self.jpeg(sof: 0xC2, scans: Array(full.dropLast())))?.contains("every coefficient of component 3") == true)
        #expect(reason(Self.jpeg(sof: 0xC2, scans: [([2, 3], 0, 0, 0), ([2], 1, 63, 0), ([3], 1, 63, 0)]))?.contains("component 1 of the image has no scan") == true)
        #expect(reason(Self.jpeg(sof: 0xC2, scans: [dc, ([4], 1, 63, 0)]))?.contains("names component 4") == true)
        // Arithmetic coding: refused as unsupported, whole or cut.
        let arithmetic = reason(Self.jpeg(sof: 0xC9, scans: [([1, 2, 3], 0, 63, 0)]))
        #expect(arithmetic?.contains("arithmetic-coded (SOF9)") == true, "\(String(describing: arithmetic))")
    }
}
