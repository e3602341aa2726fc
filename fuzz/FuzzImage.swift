// libFuzzer target: the image endpoints' input — `ImageFile.open` (container check, libvips
// header), `statistics` (decode, colour conversion, measuring) and `dimmed` (decode, tone
// curves, encode) — on the raw bytes, as `/v1/image/analyze` and `/v1/image/dim` call them.
// Linked by fuzz/build against the package's modules built with coverage instrumentation;
// libvips and the codecs underneath are Debian's (not instrumented: their crashes still show).
//
// The format comes from the bytes' signature, as the endpoints decide it; the last byte picks
// the dim's output format. Properties checked for every input (a failure traps, which
// libFuzzer reports as a crash):
// - nothing traps, and every failure is an `ImageError` with a message (never `.unavailable`);
// - statistics are shares and luminances in 0...1, over width × height pixels;
// - a dim's output opens again as the format asked for, with the same dimensions.

import ColorScience
import ImageProcessing

/// Small, so that each run stays fast; bigger headers are refused before decoding, as in
/// production (`maxImagePixels`).
let fuzzMaxPixels = 250_000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let format = ImageFormat.sniff(bytes) else {
        precondition(!ImageFormat.describeUnrecognized(bytes).isEmpty)
        return 0
    }
    let output = ImageFormat.allCases[Int(bytes.last ?? 0) % ImageFormat.allCases.count]
    do throws(ImageError) {
        let file = try ImageFile.open(bytes, format: format, maxPixels: fuzzMaxPixels)
        precondition(file.width > 0 && file.height > 0 && file.width * file.height <= fuzzMaxPixels)
        precondition(file.pageCount >= 1 && file.pageCount <= size, "frames \(file.pageCount) from \(size) bytes")
        let stats = try file.statistics(over: SIMD3(0, 0, 0))
        precondition(stats.pixelCount == file.width * file.height)
        for value in [stats.meanLuminance, stats.medianLuminance, stats.percentile99Luminance, stats.peakLuminance,
                      stats.nearWhiteShare, stats.borderNearWhiteShare, stats.whiteLevel ?? 0] {
            precondition(value >= 0 && value <= 1, "statistic \(value) outside 0...1")
        }
        if output == .webp && max(file.width, file.height) > 16383 { return 0 }
        let dimmed = try file.dimmed(factor: 0.8, as: output, quality: 80, flattenOver: SIMD3(0.1, 0.1, 0.1))
        precondition(dimmed.format == output)
        let back = try ImageFile.open(dimmed.bytes, format: output, maxPixels: fuzzMaxPixels)
        precondition(back.width == file.width && back.height == file.height, "dim changed the dimensions")
    } catch {
        if case .unavailable(let why) = error { preconditionFailure("libvips unavailable: \(why)") }
        precondition(!error.message.isEmpty)
    }
    return 0
}
