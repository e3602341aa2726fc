// A contrast a color must reach: a WCAG 2.x contrast ratio (WCAG 2.2 SC 1.4.3, 1.4.6, 1.4.11) or
// an APCA |Lc| (APCA 0.0.98G-4g). The one target type of the core: nearest-passing-color search,
// palettes and audits all state their minimums as a `ContrastTarget`.

/// A contrast a color must reach: a WCAG 2.x ratio or an APCA |Lc|.
public struct ContrastTarget: Sendable, Hashable {
    /// The measure a target is stated in.
    public enum Metric: String, Sendable, CaseIterable, Hashable {
        /// WCAG 2.x contrast ratio `1...21`.
        case wcag2
        /// APCA 0.0.98G-4g |Lc| `0...108` (text = foreground).
        case apca
    }

    /// WCAG ratio or APCA |Lc|.
    public var metric: Metric
    /// Minimum ratio (`wcag2`, `1...21`) or minimum |Lc| (`apca`, `0...108`); may be `.infinity`
    /// when nothing can meet it (e.g. APCA text too small at any contrast).
    public var minimum: Double
    /// Why, in words, with the rule's source (e.g. "WCAG 2.2 SC 1.4.3 AA, normal text").
    public var basis: String

    /// A target; `minimum` is stored as given.
    public init(metric: Metric, minimum: Double, basis: String) {
        self.metric = metric
        self.minimum = minimum
        self.basis = basis
    }

    /// A WCAG 2.x ratio target `1...21`.
    public static func ratio(_ minimum: Double, basis: String? = nil) -> ContrastTarget {
        ContrastTarget(metric: .wcag2, minimum: minimum, basis: basis ?? "WCAG 2.x contrast ratio of at least \(ContrastTarget.format(minimum)):1")
    }

    /// An APCA |Lc| target `0...108`.
    public static func apcaLc(_ minimum: Double, basis: String? = nil) -> ContrastTarget {
        ContrastTarget(metric: .apca, minimum: minimum, basis: basis ?? "APCA \(APCA.version) |Lc| of at least \(ContrastTarget.format(minimum))")
    }

    /// The measured value in this target's metric: the ratio, or |Lc|.
    @inlinable
    public func value(of m: ContrastMeasurement) -> Double {
        metric == .wcag2 ? m.ratio : abs(m.apcaLc)
    }

    /// Whether a measurement meets the target (unrounded, `>=`).
    public func isMet(by m: ContrastMeasurement) -> Bool { value(of: m) >= minimum }

    /// True when some pair of colors can meet the target (ratio ≤ 21, |Lc| ≤ 108, finite).
    public var isReachable: Bool {
        minimum.isFinite && minimum <= (metric == .wcag2 ? 21 : 108)
    }

    /// The increased-contrast target derived from this one, for the Increase Contrast variants:
    /// - WCAG: the next WCAG text level — below 4.5 → 4.5 (AA text), below 7 → 7 (AAA text), 7 or
    ///   more stays (no higher level exists). A 3:1 non-text target becomes 4.5:1, which is what
    ///   Apple's iOS 26 increased-contrast tints reach on their backgrounds (docs/algorithms/palettes.md).
    /// - APCA: +15 Lc, APCA's step from a minimum to an enhanced level ("APCA in a Nutshell"),
    ///   capped at Lc 90 (preferred body text); a minimum of 90 or more stays.
    public var increased: ContrastTarget {
        switch metric {
        case .wcag2:
            let next = minimum < WCAG.aaNormalText ? WCAG.aaNormalText : (minimum < WCAG.aaaNormalText ? WCAG.aaaNormalText : minimum)
            return .ratio(next, basis: next == minimum
                ? "\(basis); already at the highest WCAG level, so increased contrast asks the same"
                : "increased contrast: the next WCAG text level above \(ContrastTarget.format(minimum)):1 is \(ContrastTarget.format(next)):1 (\(next == WCAG.aaNormalText ? "AA text, SC 1.4.3" : "AAA text, SC 1.4.6"))")
        case .apca:
            let next = minimum >= 90 ? minimum : Swift.min(minimum + 15, 90)
            return .apcaLc(next, basis: next == minimum
                ? "\(basis); already at APCA's preferred level, so increased contrast asks the same"
                : "increased contrast: APCA enhanced level, Lc \(ContrastTarget.format(minimum)) + 15 (capped at Lc 90)")
        }
    }

    /// The minimum as a report states it: `4.5:1` (a ratio, up to 4 decimals), `Lc 75`.
    public var minimumText: String {
        metric == .wcag2 ? "\(ContrastTarget.format(minimum)):1" : "Lc \(ContrastTarget.format(minimum))"
    }

    /// A measurement in this target's metric as a report shows it beside `minimumText`, rounded
    /// toward failing so that a shown number never reaches a minimum the measurement misses: the
    /// ratio floored to hundredths (`4.47:1`, `WCAG.ratioText`), |Lc| floored to tenths
    /// (`Lc 74.9` for 74.997, which had shown as `Lc 75.0` beside "needs Lc 75").
    public func measuredText(_ m: ContrastMeasurement) -> String { valueText(value(of: m)) }

    /// A value in this target's metric (a ratio `1...21`, or |Lc|) as `measuredText` writes it.
    public func valueText(_ value: Double) -> String {
        metric == .wcag2 ? "\(WCAG.ratioText(value)):1" : "Lc \(APCA.magnitudeText(value))"
    }

    /// Value − minimum of the pair as measured and as an 8-bit screen paints it
    /// (`ContrastMeasurement.painted`), whichever is smaller: ≥ 0 when a suggested color passes
    /// where it is used. Colors and `backdrop` as `ContrastMeasurement.init` takes them.
    public func paintedMargin(foreground: DisplayColor, background: DisplayColor, backdrop: SIMD3<Double>?) -> Double {
        let measured = value(of: ContrastMeasurement(foreground: foreground, background: background, backdrop: backdrop)) - minimum
        guard let painted = ContrastMeasurement.painted(foreground: foreground, background: background, backdrop: backdrop) else { return measured }
        return Swift.min(measured, value(of: painted) - minimum)
    }

    /// A number for texts: integers without a fraction, else up to 4 decimals.
    package static func format(_ d: Double) -> String {
        guard d.isFinite else { return "∞" }
        return ColorFormatting.number(d, decimals: 4)
    }
}
