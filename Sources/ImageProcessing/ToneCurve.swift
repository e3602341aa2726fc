import ColorScience

/// A transfer function sampled at every code value: `samples[v]` is the linear-light value
/// `0...1` of code `v` (of `samples.count - 1`). From an ICC profile's TRC (via lcms2) or the
/// sRGB curve (IEC 61966-2-1, as `WCAG.linearize`).
public struct ToneCurve: Sendable, Equatable {
    /// Linear-light value of each code `0...count-1`, made non-decreasing.
    public let samples: [Float]

    /// A curve from raw samples; a non-monotone curve (broken profile) is made non-decreasing
    /// by a running maximum, so the inverse below stays defined.
    public init(samples: [Float]) {
        var running: Float = 0
        self.samples = samples.map { s in
            let v = s.isFinite ? min(max(s, 0), 1) : 0
            running = max(running, v)
            return running
        }
    }

    /// The sRGB curve at `codes` code values (256 for 8-bit, 65536 for 16-bit).
    public static func srgb(codes: Int) -> ToneCurve {
        let top = Double(codes - 1)
        return ToneCurve(samples: (0..<codes).map { Float(WCAG.linearize(Double($0) / top)) })
    }

    /// The look-up table that multiplies linear light by `factor` `0...1`: entry `v` is the code
    /// `u` whose linear value is nearest to `factor × samples[v]` (ties to the lower code).
    /// Exact to the nearest code; O(n) with two pointers, since both sides are monotone.
    public func dimTable(factor: Double) -> [UInt16] {
        let k = Float(min(max(factor, 0), 1))
        var table = [UInt16](repeating: 0, count: samples.count)
        var u = 0
        for v in 0..<samples.count {
            let target = k * samples[v]
            while u + 1 < samples.count && samples[u + 1] <= target { u += 1 }
            var best = u
            if u + 1 < samples.count && abs(samples[u + 1] - target) < abs(target - samples[u]) { best = u + 1 }
            table[v] = UInt16(best)
        }
        return table
    }
}
