import TestSupport
import Testing
@testable import ColorScience

/// Gamut mapping into the wide gamuts against `Tests/Fixtures/gamut_map_wide.jsonl` (ColorAide
/// 8.13.1 `fit("display-p3" | "rec2020", method="minde-chroma")` and `"clip"`): out-of-sRGB OKLCH
/// colors, each with whether it lies in display-p3 / rec2020.
@Suite("Gamut mapping into display-p3 and rec2020")
struct GamutMappingWideTests {
    static let destinations: [(key: String, space: ColorSpace)] = [("display-p3", .displayP3), ("rec2020", .rec2020)]

    /// ColorAide 8.13.1's `rec2020` is display-referred: the BT.1886 EOTF (pure gamma 2.4), as the
    /// CSS WG resolved in August 2025 (w3c/csswg-drafts#12574; ColorAide PR #488 keeps the old
    /// curve as `rec2020-oetf`). This service, like the published CSS Color 4 CR, today's browsers
    /// and the color.js 0.7 fixtures, encodes rec2020 with the BT.2020 OETF (α 1.0993, exponent
    /// 0.45). The linear values and the in-gamut verdicts agree; the encoded coordinates differ
    /// by up to about 0.1. Kept strict and marked known until the service adopts the new curve.
    static let rec2020Curve = "rec2020 transfer function: the reference (ColorAide 8.13.1, CSS WG resolution w3c/csswg-drafts#12574) uses the BT.1886 gamma 2.4, the service the BT.2020 OETF"

    static func check(_ row: [String: Any], _ key: String, _ space: ColorSpace) throws {
        let lch = try #require(FixtureLoader.doubles(row["oklch"]))
        let color = Color(space: .oklch, coordinates: SIMD3(lch[0], lch[1], lch[2]))
        let css4 = try #require(FixtureLoader.doubles(row["\(key)_css4"]))
        let clip = try #require(FixtureLoader.doubles(row["\(key)_clip"]))
        let mapped = GamutMapping.map(color, to: space)
        let clipped = GamutMapping.map(color, to: space, method: .clip)
        #expect(mapped.space == space && clipped.space == space)
        for i in 0..<3 {
            // minde-chroma stops its chroma search within a JND-based tolerance, so two careful
            // implementations agree to about 1e-5 here (the sRGB suite uses 1e-4 as well).
            #expect(abs(mapped.coordinates[i] - css4[i]) <= 1e-4,
                    "oklch\(lch) → \(key) css4[\(i)]: \(mapped.coordinates[i]) vs \(css4[i])")
            #expect(abs(clipped.coordinates[i] - clip[i]) <= 1e-6,
                    "oklch\(lch) → \(key) clip[\(i)]: \(clipped.coordinates[i]) vs \(clip[i])")
        }
    }

    @Test("every row: in-gamut flags for both gamuts; display-p3 clip within 1e-6 and CSS Color 4 mapping within 1e-4")
    func everyRow() throws {
        let rows = try FixtureLoader.jsonLines("gamut_map_wide.jsonl", expectedCount: 150)
        var outside = [String: Int]()
        for row in rows {
            let lch = try #require(FixtureLoader.doubles(row["oklch"]))
            let color = Color(space: .oklch, coordinates: SIMD3(lch[0], lch[1], lch[2]))
            for (key, space) in Self.destinations {
                let inGamut = try #require(FixtureLoader.bool(row["in_\(key)"]))
                if !inGamut { outside[key, default: 0] += 1 }
                #expect(color.isInGamut(space) == inGamut, "oklch\(lch) in \(key)")
            }
            try Self.check(row, "display-p3", .displayP3)
        }
        // The rows exercise mapping into both gamuts, not only the in-gamut shortcut.
        #expect((outside["display-p3"] ?? 0) > 0 && (outside["rec2020"] ?? 0) > 0, "\(outside)")
    }

    @Test("every row: rec2020 clip within 1e-6 and CSS Color 4 mapping within 1e-4 (known issue: transfer function)")
    func everyRowRec2020() throws {
        let rows = try FixtureLoader.jsonLines("gamut_map_wide.jsonl", expectedCount: 150)
        withKnownIssue(Comment(rawValue: Self.rec2020Curve)) {
            for row in rows { try Self.check(row, "rec2020", .rec2020) }
        }
    }
}
