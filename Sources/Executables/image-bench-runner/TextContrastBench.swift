import ColorScience
import Foundation
import ImageProcessing

/// `--text-contrast IN [--decode-only]`: what `POST /v1/image/text-contrast` does for white text
/// over the whole image (decode to oriented sRGB, distribution, both scrims, brightness, text
/// color, the gradient scrim: `TextContrast.analyze`, or each phase in turn with
/// `--sequential-phases`), or the decode alone; one JSON line of phase times. `--make-photo OUT`: a 12 MP sample.
func textContrastMain(_ args: [String]) {
    let clock = ContinuousClock()
    func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
    do {
        if args[0] == "--make-photo" {
            let (w, h) = (4000, 3000)
            var px = [UInt8](repeating: 0, count: w * h * 3)
            var state: UInt32 = 0x2545_F491
            for y in 0..<h {
                for x in 0..<w {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Double(state >> 24) / 255 - 0.5
                    let i = (y * w + x) * 3
                    // Sky to ground: a light top, a dark band, warm shapes, sensor-like noise.
                    let t = Double(y) / Double(h), s = Double(x) / Double(w)
                    let base = 0.85 - 0.6 * t + 0.15 * sin(s * 9 + t * 4)
                    px[i] = UInt8(max(0, min(255, (base + 0.08 * noise) * 255)))
                    px[i + 1] = UInt8(max(0, min(255, (base * 0.9 + 0.08 * noise) * 255)))
                    px[i + 2] = UInt8(max(0, min(255, (base * 0.8 + 0.1 * cos(s * 5) + 0.08 * noise) * 255)))
                }
            }
            let jpeg = try ImageEncoder.encodeRGB8(px, width: w, height: h, format: .jpeg, quality: 92)
            try Data(jpeg).write(to: URL(fileURLWithPath: args[1]))
            return
        }
        guard args.count >= 2, let data = FileManager.default.contents(atPath: args[1]) else { fail("--text-contrast IN") }
        let decodeOnly = args.contains("--decode-only")
        let bytes = Array(data)
        guard let format = ImageFormat.sniff(bytes) else { fail("not an image") }
        let t0 = clock.now
        let file = try ImageFile.open(bytes, format: format, maxPixels: 40_000_000)
        let image = try file.orientedSRGB(over: SIMD3(1, 1, 1))
        let t1 = clock.now
        var phases: [(String, Double)] = [("decodeMs", ms(t1 - t0))]
        if !decodeOnly {
            // As the endpoint does it: one set of tables, then every fix (`TextContrast.analyze`,
            // two whole-region passes at a time); the phases one after another as well, for the
            // cost of each (`--sequential-phases`).
            let text = SIMD3<Double>(1, 1, 1), target = ContrastTarget.ratio(4.5)
            let tables = TextContrast.Tables(text: text, target: target)
            if args.contains("--sequential-phases") {
                let before = TextContrast.measure(image, tables: tables)
                let t2 = clock.now
                let black = TextContrast.scrim(image, tables: tables, color: SIMD3(0, 0, 0))
                let white = TextContrast.scrim(image, tables: tables, color: SIMD3(1, 1, 1))
                let t3 = clock.now
                if black != nil || white != nil {
                    _ = TextContrast.gradientScrim(image, tables: tables, color: black != nil ? SIMD3(0, 0, 0) : SIMD3(1, 1, 1), edges: ScrimEdge.allCases)
                }
                let t4 = clock.now
                _ = TextContrast.brightness(image, tables: tables)
                let t5 = clock.now
                _ = before.passes ? nil : TextContrast.textColor(image, text: text, target: target, initial: before)
                let t6 = clock.now
                phases += [("measureMs", ms(t2 - t1)), ("scrimsMs", ms(t3 - t2)), ("gradientMs", ms(t4 - t3)),
                           ("brightnessMs", ms(t5 - t4)), ("textColorMs", ms(t6 - t5))]
            } else {
                // The whole image: every edge is nearest.
                _ = TextContrast.analyze(image, tables: tables, text: text, edges: ScrimEdge.allCases, allFixes: true)
                phases.append(("analyzeMs", ms(clock.now - t1)))
            }
        }
        phases.append(("totalMs", ms(clock.now - t0)))
        // CPU time of the whole process (libvips decodes on worker threads too): on a shared
        // machine wall time counts other people's work, this does not.
        var cpu = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu)
        phases.append(("processCpuMs", Double(cpu.tv_sec) * 1000 + Double(cpu.tv_nsec) / 1e6))
        let fields = phases.map { "\"\($0.0)\":\(String(format: "%.1f", $0.1))" }.joined(separator: ",")
        print("{\"width\":\(image.width),\"height\":\(image.height),\(fields)}")
    } catch let error as ImageError {
        fail(error.message)
    } catch {
        fail("\(error)")
    }
}
