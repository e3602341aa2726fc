@testable import ColorScience
import Foundation
import TestSupport
import Testing

/// APCA font lookup against apca-w3 0.1.9 `fontLookupAPCA` (Tests/Fixtures/apca_font.jsonl) and
/// hand-traced values of its interpolation between table rows.
struct APCAFontTests {
    @Test func fixtureRowsMatchApcaW3() throws {
        let rows = try FixtureLoader.jsonLines("apca_font.jsonl")
        #expect(rows.count == 18)
        for row in rows {
            let lc = try #require(FixtureLoader.double(row["lc"]))
            let want = try #require(FixtureLoader.doubles(row["sizes_by_weight_100_to_900"]))
            #expect(APCAFontLookup.apcaW3Values(lc: lc) == want, "Lc \(lc)")
            let table = APCAFontLookup.table(lc: lc)
            #expect(table.count == 9)
            for (i, weight) in APCAFontLookup.weights.enumerated() {
                let expected: FontSizeRequirement = want[i] == 999 ? .prohibited
                    : want[i] == 777 ? .notUsable : .minimumPx(want[i])
                #expect(table[weight] == expected, "Lc \(lc) weight \(weight)")
                #expect(APCAFontLookup.requirement(lc: lc, weight: weight) == expected)
                #expect(APCAFontLookup.requirements(lc: lc)[i] == expected, "Lc \(lc) weight \(weight)")
                #expect(APCAFontLookup.minimumFontSizePx(lc: lc, weight: weight) == expected.minimumPx)
            }
        }
    }

    /// Between rows, traced by hand through apca-w3's code: row = floor(Lc / 5) (Lc 0/10/15… rows),
    /// scoreAdj = (Lc − rowLc) × 0.2; size > 24: Math.round(size − delta × scoreAdj);
    /// else size − floor(2 × delta × scoreAdj) × 0.5.
    @Test func interpolationBetweenRows() {
        // Lc 62: row 60, scoreAdj 0.4.
        // 100: round(72 − 4×0.4 = 70.4) = 70; 300: round(42 − 10×0.4 = 38) = 38;
        // 400: 24 − floor(2×2.25×0.4 = 1.8)×0.5 = 23.5; 500: 21 − floor(1.6)×0.5 = 20.5;
        // 700: 16 − floor(0.8)×0.5 = 16; 900: 18 (delta 0).
        #expect(APCAFontLookup.apcaW3Values(lc: 62) == [70, 47, 38, 23.5, 20.5, 18, 16, 16, 18])
        // Lc 77.5: row 75, scoreAdj 0.5. 200: round(42 − 3.75×0.5 = 40.125) = 40;
        // 300: 24 − floor(2×1×0.5 = 1)×0.5 = 23.5; 500: 16 − floor(2×0.188×0.5 = 0.188)×0.5 = 16.
        #expect(APCAFontLookup.apcaW3Values(lc: 77.5) == [58, 40, 23.5, 18, 16, 15, 14, 16, 18])
        // Lc −47.5 (polarity ignored): row 45, scoreAdj 0.5. 100: round(108 − 6) = 102;
        // 200: round(96 − 12) = 84; 300: round(72 − 6) = 66; 400: round(42 − 5) = 37;
        // 500: round(32 − 2) = 30; 600: round(28 − 2) = 26; 700: 24 − floor(3)×0.5 = 22.5.
        #expect(APCAFontLookup.apcaW3Values(lc: -47.5) == [102, 84, 66, 37, 30, 26, 22.5, 22.5, 22.5])
        // Lc 52.5: row 50, 100: 96 − 16×0.5 = 88; Lc 36.25: row 35, scoreAdj 0.25,
        // 200: round(120 − 3) = 117.
        #expect(APCAFontLookup.minimumFontSizePx(lc: 52.5, weight: 100) == 88)
        // JavaScript Math.round rounds halves up: Lc 30.625, row 30, scoreAdj 0.125,
        // 300: round(120 − 12×0.125 = 118.5) = 119 (not 118).
        #expect(APCAFontLookup.minimumFontSizePx(lc: 30.625, weight: 300) == 119)
        #expect(APCAFontLookup.minimumFontSizePx(lc: 36.25, weight: 200) == 117)
        #expect(APCAFontLookup.minimumFontSizePx(lc: 36.25, weight: 100) == nil)  // 777
        // 107.9 (about white on black): row 105, scoreAdj 0.58.
        // 100: round(39 − 1.74) = 37; 700: 12 − floor(1.16)×0.5 = 11.5.
        #expect(APCAFontLookup.minimumFontSizePx(lc: -107.9, weight: 100) == 37)
        #expect(APCAFontLookup.minimumFontSizePx(lc: -107.9, weight: 700) == 11.5)
    }

    @Test func thresholdsAndEdges() {
        // Rows Lc 0 and 10 are all 999, rows 15 and 20 all 777; in the Lc 25 row the sizes
        // only count from Lc 29.5 (apca-w3's `contrast < 29.5` rule).
        #expect(APCAFontLookup.table(lc: 14.5).values.allSatisfy { $0 == .prohibited })
        #expect(APCAFontLookup.table(lc: 14.99).values.allSatisfy { $0 == .prohibited })
        #expect(APCAFontLookup.table(lc: 15).values.allSatisfy { $0 == .notUsable })
        #expect(APCAFontLookup.table(lc: 27).values.allSatisfy { $0 == .notUsable })
        #expect(APCAFontLookup.table(lc: 29.4).values.allSatisfy { $0 == .notUsable })
        // Lc 29.5 interpolates in the Lc 25 row: weight 400: round(120 − 12 × 0.9) = 109.
        #expect(APCAFontLookup.requirement(lc: 29.5, weight: 400) == .minimumPx(109))
        #expect(APCAFontLookup.requirement(lc: 29.5, weight: 100) == .notUsable)
        // Lc 0 and the 0 < Lc < 5 band (apca-w3 reads its header row there: we say prohibited).
        #expect(APCAFontLookup.table(lc: 0).values.allSatisfy { $0 == .prohibited })
        #expect(APCAFontLookup.table(lc: 3).values.allSatisfy { $0 == .prohibited })
        #expect(APCAFontLookup.table(lc: -4.99).values.allSatisfy { $0 == .prohibited })
        #expect(APCAFontLookup.table(lc: .nan).values.allSatisfy { $0 == .prohibited })
        // Top of the table and beyond (apca-w3 throws from Lc 130): the Lc 125 row.
        let top: [Double] = [32, 20, 16, 10, 10, 10, 10, 12, 14]
        #expect(APCAFontLookup.apcaW3Values(lc: 125) == top)
        #expect(APCAFontLookup.apcaW3Values(lc: 129.9) == top)
        #expect(APCAFontLookup.apcaW3Values(lc: 200) == top)
        #expect(APCAFontLookup.apcaW3Values(lc: -.infinity) == top)
        // Weights outside the table.
        #expect(APCAFontLookup.requirement(lc: 90, weight: 450) == nil)
        #expect(APCAFontLookup.minimumFontSizePx(lc: 90, weight: 1000) == nil)
        #expect(APCAFontLookup.minimumFontSizePx(lc: 90, weight: 400) == 16)
    }

    /// Sizes never grow with contrast for text-usable entries, over a fine Lc sweep.
    @Test func sizesAreNonIncreasingInContrast() {
        for weight in APCAFontLookup.weights {
            var previous = Double.infinity
            var lc = 29.5
            while lc <= 125 {
                if let px = APCAFontLookup.minimumFontSizePx(lc: lc, weight: weight) {
                    #expect(px <= previous, "weight \(weight) Lc \(lc)")
                    #expect(px > 0)
                    previous = px
                }
                lc += 0.05
            }
        }
    }

    @Test func requirementEncoding() {
        #expect(FontSizeRequirement.notUsable.apcaW3Value == 777)
        #expect(FontSizeRequirement.prohibited.apcaW3Value == 999)
        #expect(FontSizeRequirement.minimumPx(16).apcaW3Value == 16)
        #expect(FontSizeRequirement.notUsable.minimumPx == nil)
    }

    @Test func useBasedLevels() {
        #expect(APCALevel.level(for: 106) == .preferredBodyText)
        #expect(APCALevel.level(for: 90) == .preferredBodyText)
        #expect(APCALevel.level(for: 89.9) == .minimumBodyText)
        #expect(APCALevel.level(for: -75) == .minimumBodyText)
        #expect(APCALevel.level(for: 60) == .otherText)
        #expect(APCALevel.level(for: 45) == .largeOrHeavyText)
        #expect(APCALevel.level(for: -30) == .anyText)
        #expect(APCALevel.level(for: 15) == .nonText)
        #expect(APCALevel.level(for: 14.99) == nil)
        #expect(APCALevel.level(for: 0) == nil)
        #expect(APCALevel.level(for: .nan) == nil)
        #expect(APCALevel.allCases.map(\.minimumLc) == [15, 30, 45, 60, 75, 90])
        #expect(APCALevel.nonText < APCALevel.preferredBodyText)
    }
}
