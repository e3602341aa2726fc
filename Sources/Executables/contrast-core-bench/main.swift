// Times the color core without HTTP, as the service uses it: parse two hex colors with the CSS
// parser, bring them to display sRGB, WCAG ratio + APCA Lc. Prints "ns-per-pair checksum".
// Same pairs and loop as bench/core.c (the C baseline); run by bench/run.
import ColorScience
import Dispatch
import Foundation

let pairs = 100_000
let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20 : 20
func hex6(_ v: UInt32) -> String {
    let s = String(v & 0xffffff, radix: 16)
    return "#" + String(repeating: "0", count: 6 - s.count) + s
}
var fgs: [String] = [], bgs: [String] = []
for i in 0..<pairs {
    let v = UInt32(truncatingIfNeeded: i) &* 2_654_435_761
    fgs.append(hex6(v))
    bgs.append(hex6(v >> 5))
}
var sink = 0.0
let start = DispatchTime.now().uptimeNanoseconds
for _ in 0..<rounds {
    for i in 0..<pairs {
        guard let f = try? CSSColorParser.parse(fgs[i]), let b = try? CSSColorParser.parse(bgs[i]) else { fatalError("parse") }
        let fd = DisplayColor(f), bd = DisplayColor(b)
        sink += WCAG.contrastRatio(fd.relativeLuminance, bd.relativeLuminance) + APCA.lc(text: fd.srgb, background: bd.srgb)
    }
}
let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds * pairs)
print(String(format: "%.1f", ns), sink)
