/// Alpha compositing as screens show it: Porter-Duff source-over with straight (non-premultiplied)
/// alpha, in gamma-encoded sRGB (what browsers and UIKit do for sRGB content).
/// Source: W3C Compositing and Blending Level 1 §5.1 (simple alpha compositing).
public enum Compositing {
    /// `source` over `backdrop`; both gamma-encoded sRGB `0...1` with straight alpha `0...1`.
    /// Returns the result color and its alpha `αo = αs + αb(1 − αs)`; the color is
    /// `(Cs αs + Cb αb (1 − αs)) / αo` (0 when αo = 0).
    @inlinable
    public static func sourceOver(_ source: SIMD3<Double>, alpha sa: Double,
                                  over backdrop: SIMD3<Double>, alpha ba: Double) -> (color: SIMD3<Double>, alpha: Double) {
        let ao = sa + ba * (1 - sa)
        guard ao > 0 else { return (SIMD3(repeating: 0), 0) }
        let c = (source * sa + backdrop * (ba * (1 - sa))) / ao
        return (c, ao)
    }

    /// `source` (straight alpha `0...1`) over an opaque `backdrop`: `Cs αs + Cb (1 − αs)`.
    @inlinable
    public static func sourceOver(_ source: SIMD3<Double>, alpha sa: Double,
                                  overOpaque backdrop: SIMD3<Double>) -> SIMD3<Double> {
        source * sa + backdrop * (1 - sa)
    }

    /// One element of a layer stack: a fill color with straight alpha, and the element's group
    /// `opacity` `0...1` (CSS `opacity`).
    public struct Layer: Sendable, Equatable {
        public var color: SIMD3<Double>
        public var alpha: Double
        public var opacity: Double
        public init(color: SIMD3<Double>, alpha: Double = 1, opacity: Double = 1) {
            self.color = color
            self.alpha = alpha
            self.opacity = opacity
        }
    }

    /// Flattens a stack of nested elements over an opaque page color, as a browser paints it.
    ///
    /// `layers` run bottom to top and nest: each layer is a child of the one below it, and `top`
    /// (e.g. the text) is drawn inside the topmost layer. An element with `opacity < 1` is painted
    /// as an isolated group (its own fill and everything nested in it, flattened once) and that
    /// group is composited with the opacity over what lies below: opacity is applied once, never
    /// again to the children (CSS Color 3 §3.2 `opacity`; Compositing and Blending 1 §3.3, isolated groups). A fully transparent
    /// layer changes nothing.
    /// - Returns: the opaque gamma-encoded sRGB color `0...1` a viewer sees.
    public static func flatten(page: SIMD3<Double>, layers: [Layer], top: Layer? = nil) -> SIMD3<Double> {
        var group: (color: SIMD3<Double>, alpha: Double) = (SIMD3(repeating: 0), 0)
        if let top { group = (top.color, top.alpha * top.opacity) }
        for layer in layers.reversed() {
            group = sourceOver(group.color, alpha: group.alpha, over: layer.color, alpha: layer.alpha)
            group.alpha *= layer.opacity
        }
        return sourceOver(group.color, alpha: group.alpha, overOpaque: page)
    }
}
