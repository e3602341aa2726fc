// Times the color core without HTTP, as the service uses it: parse two hex colors with the CSS
// parser, bring them to display sRGB, WCAG ratio + APCA Lc. Prints "ns-per-pair checksum".
// Same pairs and loop as bench/core.c (the C baseline); run by bench/run.
// `contrast-core-bench --parse [rounds]` instead times the CSS parser on one string per syntax
// (plain hex first, the baseline of the same run) and prints "ns-per-parse<TAB>syntax<TAB>text"
// lines; run by bench/parse.
// `contrast-core-bench --gradient <css> <text hex> [rounds]` measures the text on the gradient
// (`GradientContrast`) `rounds` times after parsing once; bench/gradient-cost counts its
// instructions with callgrind against a plain pair in the same run.
import ColorScience
import Dispatch
import Foundation

if CommandLine.arguments.dropFirst().first == "--parse" {
    let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 200_000 : 200_000
    let variables = CSSVariables(["--brand": "#0066cc", "--brand-hover": "oklch(from var(--brand) calc(l - 0.1) c h)"])
    let cases: [(String, String, CSSColorContext)] = [
        ("hex (baseline)", "#3b82f6", CSSColorContext()),
        ("named", "rebeccapurple", CSSColorContext()),
        ("oklch()", "oklch(62.3% 0.214 259.815)", CSSColorContext()),
        ("color-mix() Tailwind opacity", "color-mix(in oklab, oklch(62.3% 0.214 259.815) 50%, transparent)", CSSColorContext()),
        ("color-mix() oklch longer hue", "color-mix(in oklch longer hue, #3b82f6 30%, hsl(30 80% 50%))", CSSColorContext()),
        ("relative oklch(from) calc()", "oklch(from #3b82f6 calc(l - 0.1) c h)", CSSColorContext()),
        ("relative rgb(from) / alpha", "rgb(from #3b82f6 r g b / calc(alpha * 0.5))", CSSColorContext()),
        ("light-dark()", "light-dark(#1c1c1e, #f2f2f7)", CSSColorContext(colorScheme: .dark)),
        ("contrast-color()", "contrast-color(#3b82f6)", CSSColorContext()),
        ("var() chain", "var(--brand-hover)", CSSColorContext(variables: variables)),
        ("bare hex", "3b82f6", CSSColorContext(acceptsBareHex: true)),
    ]
    var sink = 0.0
    for (name, text, context) in cases {
        // Warm up, then time.
        for _ in 0..<1000 { sink += (try? CSSColorParser.parse(text, context: context))?.color.alpha ?? 0 }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds { sink += (try? CSSColorParser.parse(text, context: context))?.color.alpha ?? .nan }
        let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds)
        print(String(format: "%.1f", ns) + "\t\(name)\t\(text)")
    }
    if sink.isNaN { print("a case failed to parse") }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "--gradient-estimate", CommandLine.arguments.count >= 3 {
    // The matrix's estimate for a gradient: preparing it, and each opaque text color on it.
    let gradient = try CSSGradient.parse(CommandLine.arguments[2])
    let prepared = GradientContrast.Prepared(gradient: gradient)
    print("prepare \(GradientContrast.estimatedCost(of: gradient, textIsOpaque: true)) units, per opaque text \(prepared.estimatedCostPerText) units, "
          + "planned \(prepared.isPlanned) (\(prepared.plannedColors) colors)")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "--gradient", CommandLine.arguments.count >= 4 {
    let args = CommandLine.arguments
    let rounds = args.count > 4 ? Int(args[4]) ?? 1000 : 1000
    let text = try CSSColorParser.parse(args[3]).converted(to: .srgb).coordinates
    var sink = 0.0
    if args[2] == "pair" {
        // One matrix cell's color work: WCAG ratio and APCA Lc of two opaque colors.
        let bg = SIMD3<Double>(1, 1, 1)
        for k in 0..<rounds {
            let b = bg - Double(k & 1) * 1e-3
            sink += WCAG.contrastRatio(WCAG.relativeLuminance(text), WCAG.relativeLuminance(b))
            sink += APCA.lc(textY: APCA.screenLuminance(text), backgroundY: APCA.screenLuminance(b))
        }
    } else if args[2].hasPrefix("prepared:") {
        // Per text color on a gradient prepared once (the matrix's gradient cells; the
        // preparing, paid once, is left out by bench/gradient-cost's 2N − N), each text a
        // little different from the last.
        let gradient = try CSSGradient.parse(String(args[2].dropFirst("prepared:".count)))
        let prepared = GradientContrast.Prepared(gradient: gradient)
        for k in 0..<rounds { sink += prepared.measure(text: text * (1 - Double(k & 1) * 1e-3)).min.ratio }
    } else {
        let gradient = try CSSGradient.parse(args[2])
        for _ in 0..<rounds { sink += GradientContrast(text: text, gradient: gradient).min.ratio }
    }
    print(sink)
    exit(0)
}

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
