// image-bench-runner: one decode + dim + encode with ImageProcessing (libvips), for bench/image-bench.
//
//   image-bench-runner IN OUT [--factor 0.77 | --recommend] [--format png|jpeg|webp] [--quality 90]
//   image-bench-runner --text-contrast IN [--decode-only]   (bench/text-contrast-bench)
//   image-bench-runner --make-photo OUT                     (a 4000 × 3000 photo-like JPEG)
//
// Prints one JSON line: phase times in milliseconds. Not a test; see bench/image-bench.
import ColorScience
import Foundation
import ImageProcessing

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("image-bench-runner: \(message)\n".utf8))
    exit(2)
}

var args = Array(CommandLine.arguments.dropFirst())
if args.first == "--text-contrast" || args.first == "--make-photo" {
    textContrastMain(args)
    exit(0)
}
guard args.count >= 2 else { fail("usage: image-bench-runner IN OUT [--factor F | --recommend] [--format F] [--quality Q]") }
let input = args.removeFirst(), output = args.removeFirst()
var factor = 0.77, recommend = false, format: ImageFormat?, quality = 90
@MainActor func value(_ flag: String) -> String {
    if args.isEmpty { fail("\(flag) needs a value") }
    return args.removeFirst()
}
while !args.isEmpty {
    let flag = args.removeFirst()
    switch flag {
    case "--factor":
        guard let f = Double(value(flag)) else { fail("--factor needs a number") }
        factor = f
    case "--recommend": recommend = true
    case "--format":
        guard let f = ImageFormat(rawValue: value(flag)) else { fail("--format png|jpeg|webp") }
        format = f
    case "--quality":
        guard let q = Int(value(flag)) else { fail("--quality needs a number") }
        quality = q
    default: fail("unknown option \(flag)")
    }
}

let clock = ContinuousClock()
func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

let t0 = clock.now
guard let data = FileManager.default.contents(atPath: input) else { fail("cannot read \(input)") }
let bytes = Array(data)
guard let sniffed = ImageFormat.sniff(bytes) else { fail("\(input) is not PNG, JPEG or WebP") }
let t1 = clock.now
do {
    let file = try ImageFile.open(bytes, format: sniffed, maxPixels: 200_000_000)
    let t2 = clock.now
    var analyzeMs = 0.0
    if recommend {
        let stats = try file.statistics(over: SIMD3(0, 0, 0))
        factor = DimRule().recommend(stats, on: SIMD3(0, 0, 0)).factor
        analyzeMs = ms(clock.now - t2)
    }
    let t3 = clock.now
    let out = try file.dimmed(factor: factor, as: format, quality: quality, flattenOver: SIMD3(0, 0, 0))
    let t4 = clock.now
    try Data(out.bytes).write(to: URL(fileURLWithPath: output))
    let t5 = clock.now
    print(String(format: #"{"width":%d,"height":%d,"factor":%.4f,"readMs":%.1f,"headerMs":%.1f,"analyzeMs":%.1f,"dimEncodeMs":%.1f,"writeMs":%.1f,"totalMs":%.1f,"outBytes":%d}"#,
                 file.width, file.height, factor, ms(t1 - t0), ms(t2 - t1), analyzeMs, ms(t4 - t3), ms(t5 - t4), ms(t5 - t0), out.bytes.count))
} catch let error as ImageError {
    fail(error.message)
} catch {
    fail("\(error)")
}
