// libFuzzer target: the CSS color parser (ColorScience.CSSColorParser) and what the API does
// with every color it accepts. Compiled into the ColorScience module itself by fuzz/build.
//
// Properties checked for every input (a failure traps, which libFuzzer reports as a crash):
// - parsing never traps, whatever the bytes (invalid UTF-8 included);
// - an accepted color has finite coordinates and alpha in 0...1 (the parser's contract);
// - bringing it into displayable sRGB (conversion + CSS gamut mapping) gives channels and
//   luminance in 0...1, and the WCAG ratio against white is within 1...21.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSSColor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for order in [HexOrder.rgba, .argb] {
        let color: Color
        do {
            color = try CSSColorParser.parse(text, hexOrder: order)
        } catch {
            _ = error.message
            continue
        }
        precondition(color.coordinates.x.isFinite && color.coordinates.y.isFinite && color.coordinates.z.isFinite,
                     "non-finite coordinates for \(text.debugDescription)")
        precondition((0...1).contains(color.alpha), "alpha \(color.alpha) for \(text.debugDescription)")
        let display = DisplayColor(color)
        for channel in [display.srgb.x, display.srgb.y, display.srgb.z] {
            precondition((0...1).contains(channel), "sRGB channel \(channel) for \(text.debugDescription)")
        }
        let luminance = display.relativeLuminance
        precondition((0...1).contains(luminance), "luminance \(luminance) for \(text.debugDescription)")
        let ratio = (1.05) / (luminance + 0.05)
        precondition(ratio >= 1 - 1e-9 && ratio <= 21 + 1e-9, "ratio \(ratio) for \(text.debugDescription)")
    }
    return 0
}
