import Foundation

/// What a `LightPath` solver (`ScannedLightPath.points`, `CubicLightPath.points`) hands on as it
/// walks a stretch, in the order it finds it:
/// - `visit`: a color where an extreme can lie whatever the text (an end of the stretch or of
///   a piece, a clipping corner, an interior extreme of either luminance);
/// - `wcagPart`: a part of a piece (channels clipped as `clip`: 0 or 1, a free channel -1)
///   where the WCAG 2 relative luminance is monotone, from `va` at weight `a` to `vb` at `b`,
///   on which the text's first crossing is sought;
/// - `apcaSection`: a part where APCA's screen luminance is monotone, from `a` to `b`, on which
///   the text's first crossing of it is sought.
/// Only those two crossings depend on the text, so a stretch can be walked once and its record
/// (`LightPathRecord`) measured for each text color (`LightPathMeasurement`): the matrix's
/// gradient cells (`GradientContrast.Prepared`).
protocol LightPathSink {
    /// Whether `wcagPart` still matters (a measurement stops seeking after the first crossing).
    var seeksWCAGCrossing: Bool { get }
    mutating func visit(_ q: LightPoint)
    mutating func wcagPart(_ a: Double, _ va: Double, _ b: Double, _ vb: Double, clip: SIMD3<Double>)
    mutating func apcaSection(_ a: LightPoint, _ b: LightPoint, clip: SIMD3<Double>)
}

/// Whoever keeps the colors a measurement of a stretch finds (`GradientContrast`'s extremes, with
/// the stretch's weights turned into gradient positions).
protocol LightPointKeeper {
    mutating func keep(_ q: LightPoint)
}

/// A stretch's walk as a `LightPathSink` saw it, to be measured for any text color (`measure`).
/// The colors are held once (`points`) and the events refer to them by index, so that measuring
/// copies no color (a measurement per text color is the matrix's cell).
struct LightPathRecord: LightPathSink {
    struct Event {
        enum Kind: UInt8 { case visit, wcagPart, apcaSection }
        var kind: Kind
        /// The piece's clipping (`clipCode`).
        var clip: UInt8
        /// `visit`: the color's index in `points`; `wcagPart`: the part's in `parts`;
        /// `apcaSection`: its first color's in `points`.
        var index: Int32
        /// `apcaSection`: its last color's index in `points`.
        var last: Int32
    }
    private(set) var events: [Event] = []
    private(set) var points: [LightPoint] = []
    /// `wcagPart`s: `a`, `va`, `b`, `vb`.
    private(set) var parts: [SIMD4<Double>] = []

    var seeksWCAGCrossing: Bool { true }

    init() {
        events.reserveCapacity(64)
        points.reserveCapacity(32)
        parts.reserveCapacity(32)
    }

    /// `clip` (each channel 0, 1, or -1 where free) as one number `0..<27`, and back.
    static func clipCode(_ clip: SIMD3<Double>) -> UInt8 {
        var code = 0
        for k in (0..<3).reversed() { code = code * 3 + (clip[k] < 0 ? 2 : clip[k] == 0 ? 0 : 1) }
        return UInt8(code)
    }
    static func clip(_ code: UInt8) -> SIMD3<Double> {
        var c = Int(code), clip = SIMD3<Double>.zero
        for k in 0..<3 { let d = c % 3; clip[k] = d == 2 ? -1 : Double(d); c /= 3 }
        return clip
    }

    /// The index of `q` in `points`: the last one when it is the same color (a section ends
    /// where the next color visited lies), else a new one.
    private mutating func index(of q: LightPoint) -> Int32 {
        if let p = points.last, p.w == q.w, p.l == q.l, p.y == q.y, p.rgb == q.rgb, p.slopes == q.slopes, p.gains == q.gains {
            return Int32(points.count - 1)
        }
        points.append(q)
        return Int32(points.count - 1)
    }

    mutating func visit(_ q: LightPoint) {
        events.append(Event(kind: .visit, clip: 0, index: index(of: q), last: 0))
    }
    mutating func wcagPart(_ a: Double, _ va: Double, _ b: Double, _ vb: Double, clip: SIMD3<Double>) {
        parts.append(SIMD4(a, va, b, vb))
        events.append(Event(kind: .wcagPart, clip: Self.clipCode(clip), index: Int32(parts.count - 1), last: 0))
    }
    mutating func apcaSection(_ a: LightPoint, _ b: LightPoint, clip: SIMD3<Double>) {
        let i = index(of: a), j = index(of: b)
        events.append(Event(kind: .apcaSection, clip: Self.clipCode(clip), index: i, last: j))
    }

    /// How many colors were visited (each measured for every text color).
    var visitCount: Int { events.reduce(0) { $0 + ($1.kind == .visit ? 1 : 0) } }

    /// Measures the recorded stretch of `path` for a text of WCAG relative luminance `textL`
    /// (`0...1`) and APCA screen luminance `textY` (`0...1.1`): `keeper` is handed the recorded
    /// colors and the text's first crossings, in the order a walk measuring it would have found them.
    func measure<P: LightPath, K: LightPointKeeper>(on path: P, textL: Double, textY: Double, into keeper: inout K) {
        var m = LightPathMeasurement(path: path, textL: textL, textY: textY, keeper: keeper)
        points.withUnsafeBufferPointer { points in
            for e in events {
                switch e.kind {
                case .visit: m.visit(points[Int(e.index)])
                case .wcagPart:
                    let p = parts[Int(e.index)]
                    m.wcagPart(p[0], p[1], p[2], p[3], clip: Self.clip(e.clip))
                case .apcaSection: m.apcaSection(points[Int(e.index)], points[Int(e.last)], clip: Self.clip(e.clip))
                }
            }
        }
        keeper = m.keeper
    }
}

/// A `LightPathSink` that measures one text color as the stretch is walked: every color visited
/// is kept, and on the first part (section) where the text's WCAG (APCA) luminance lies between
/// the ends, the crossing is solved and kept; an end equal to the text's counts as the crossing.
struct LightPathMeasurement<P: LightPath, K: LightPointKeeper>: LightPathSink {
    let path: P
    let textL: Double, textY: Double
    var keeper: K
    var wcagCrossed = false, apcaCrossed = false
    /// Where the WCAG luminance crosses the text's: APCA's crossing is sought from there.
    var wcagCrossing: LightPoint? = nil

    init(path: P, textL: Double, textY: Double, keeper: K) {
        (self.path, self.textL, self.textY, self.keeper) = (path, textL, textY, keeper)
    }

    var seeksWCAGCrossing: Bool { !wcagCrossed }

    mutating func visit(_ q: LightPoint) { keeper.keep(q) }

    mutating func wcagPart(_ a: Double, _ va: Double, _ b: Double, _ vb: Double, clip: SIMD3<Double>) {
        guard !wcagCrossed else { return }
        let fa = va - textL, fb = vb - textL
        guard fa.isFinite, fb.isFinite else { return }
        if fa == 0 || fb == 0 { wcagCrossed = true; return }
        guard (fa < 0) != (fb < 0) else { return }
        let q = path.point(at: path.wcagRoot(a, fa, b, fb, clip: clip, level: textL))
        keeper.keep(q)
        wcagCrossing = q
        wcagCrossed = true
    }

    mutating func apcaSection(_ a: LightPoint, _ b: LightPoint, clip: SIMD3<Double>) {
        if let c = path.firstAPCACrossing(a, b, textY: textY, clip: clip, wcagCrossing: wcagCrossing, found: &apcaCrossed) {
            keeper.keep(c)
        }
    }
}
