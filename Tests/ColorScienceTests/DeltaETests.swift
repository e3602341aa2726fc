@testable import ColorScience
import Foundation
import TestSupport
import Testing

/// ΔE 76 / CIEDE2000 / ΔE OK against ColorAide 8.13.1 (Tests/Fixtures/delta_e.jsonl, Lab D65) and
/// the CIEDE2000 test data of Sharma, Wu & Dalal 2005 (Table 1).
struct DeltaETests {
    /// `#rrggbb` → sRGB colour.
    private static func hex(_ s: String) -> Color {
        let v = Int(s.dropFirst(), radix: 16)!
        return Color.srgb8((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff)
    }

    @Test func fixtureRowsMatchColorAide() throws {
        let rows = try FixtureLoader.jsonLines("delta_e.jsonl")
        #expect(rows.count == 150)
        for row in rows {
            let aHex = row["a"] as! String, bHex = row["b"] as! String
            let a = Self.hex(aHex), b = Self.hex(bHex)
            let de2000 = ColorDifference.deltaE2000(a, b)
            let de76 = ColorDifference.deltaE76(a, b)
            let deok = ColorDifference.deltaEOK(a, b)
            #expect(abs(de2000 - FixtureLoader.double(row["de2000"])!) < 1e-6, "\(aHex) \(bHex) ΔE2000 \(de2000)")
            #expect(abs(de76 - FixtureLoader.double(row["de76"])!) < 1e-6, "\(aHex) \(bHex) ΔE76 \(de76)")
            #expect(abs(deok - FixtureLoader.double(row["deok"])!) < 1e-6, "\(aHex) \(bHex) ΔEOK \(deok)")
            // Symmetry.
            #expect(abs(ColorDifference.deltaE2000(b, a) - de2000) < 1e-12)
        }
    }

    /// Sharma, Wu & Dalal 2005, Table 1: L1 a1 b1, L2 a2 b2, ΔE00 (4 decimals).
    static let sharmaPairs: [(SIMD3<Double>, SIMD3<Double>, Double)] = [
        ([50.0000, 2.6772, -79.7751], [50.0000, 0.0000, -82.7485], 2.0425),
        ([50.0000, 3.1571, -77.2803], [50.0000, 0.0000, -82.7485], 2.8615),
        ([50.0000, 2.8361, -74.0200], [50.0000, 0.0000, -82.7485], 3.4412),
        ([50.0000, -1.3802, -84.2814], [50.0000, 0.0000, -82.7485], 1.0000),
        ([50.0000, -1.1848, -84.8006], [50.0000, 0.0000, -82.7485], 1.0000),
        ([50.0000, -0.9009, -85.5211], [50.0000, 0.0000, -82.7485], 1.0000),
        ([50.0000, 0.0000, 0.0000], [50.0000, -1.0000, 2.0000], 2.3669),
        ([50.0000, -1.0000, 2.0000], [50.0000, 0.0000, 0.0000], 2.3669),
        ([50.0000, 2.4900, -0.0010], [50.0000, -2.4900, 0.0009], 7.1792),
        ([50.0000, 2.4900, -0.0010], [50.0000, -2.4900, 0.0010], 7.1792),
        ([50.0000, 2.4900, -0.0010], [50.0000, -2.4900, 0.0011], 7.2195),
        ([50.0000, 2.4900, -0.0010], [50.0000, -2.4900, 0.0012], 7.2195),
        ([50.0000, -0.0010, 2.4900], [50.0000, 0.0009, -2.4900], 4.8045),
        ([50.0000, -0.0010, 2.4900], [50.0000, 0.0010, -2.4900], 4.8045),
        ([50.0000, -0.0010, 2.4900], [50.0000, 0.0011, -2.4900], 4.7461),
        ([50.0000, 2.5000, 0.0000], [50.0000, 0.0000, -2.5000], 4.3065),
        ([50.0000, 2.5000, 0.0000], [73.0000, 25.0000, -18.0000], 27.1492),
        ([50.0000, 2.5000, 0.0000], [61.0000, -5.0000, 29.0000], 22.8977),
        ([50.0000, 2.5000, 0.0000], [56.0000, -27.0000, -3.0000], 31.9030),
        ([50.0000, 2.5000, 0.0000], [58.0000, 24.0000, 15.0000], 19.4535),
        ([50.0000, 2.5000, 0.0000], [50.0000, 3.1736, 0.5854], 1.0000),
        ([50.0000, 2.5000, 0.0000], [50.0000, 3.2972, 0.0000], 1.0000),
        ([50.0000, 2.5000, 0.0000], [50.0000, 1.8634, 0.5757], 1.0000),
        ([50.0000, 2.5000, 0.0000], [50.0000, 3.2592, 0.3350], 1.0000),
        ([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644),
        ([63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.2630),
        ([61.2901, 3.7196, -5.3901], [61.4292, 2.2480, -4.9620], 1.8731),
        ([35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645),
        ([22.7233, 20.0904, -46.6940], [23.0331, 14.9730, -42.5619], 2.0373),
        ([36.4612, 47.8580, 18.3852], [36.2715, 50.5065, 21.2231], 1.4146),
        ([90.8027, -2.0831, 1.4410], [91.1528, -1.6435, 0.0447], 1.4441),
        ([90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381),
        ([6.7747, -0.2908, -2.4247], [5.8714, -0.0985, -2.2286], 0.6377),
        ([2.0776, 0.0795, -1.1350], [0.9033, -0.0636, -0.5514], 0.9082),
    ]

    @Test func sharmaTestData() {
        for (i, (lab1, lab2, want)) in Self.sharmaPairs.enumerated() {
            let got = ColorDifference.deltaE2000(lab1: lab1, lab2: lab2)
            // The table is rounded to 4 decimals.
            #expect(abs(got - want) <= 0.00005 + 1e-12, "pair \(i + 1): \(got) vs \(want)")
            #expect(abs(ColorDifference.deltaE2000(lab1: lab2, lab2: lab1) - got) < 1e-12, "pair \(i + 1) symmetry")
        }
    }

    /// Lab D50 (CSS `lab()`, ColorAide `space="lab"`), values from ColorAide 8.13.1.
    @Test func labD50Option() {
        let cases: [(String, String, Double, Double)] = [
            ("#6b2496", "#803349", 23.197437207014787, 54.31774311651758),
            ("#775fe7", "#b14e6a", 30.858797288923743, 72.20780790707116),
            ("#ce552e", "#9865fd", 44.96639864033795, 116.53081073968333),
            ("#6d28e0", "#3b3c87", 14.463436647163087, 57.5374623399687),
            ("#d67747", "#f2fc1d", 46.0895726338481, 79.66926266613221),
            ("#000000", "#ffffff", 100.0, 100.0),
            ("#ff0000", "#0000ff", 55.79977339019779, 184.0190486209969),
        ]
        for (a, b, de2000, de76) in cases {
            let ca = Self.hex(a), cb = Self.hex(b)
            #expect(abs(ColorDifference.deltaE2000(ca, cb, lab: .d50) - de2000) < 1e-6, "\(a) \(b)")
            #expect(abs(ColorDifference.deltaE76(ca, cb, lab: .d50) - de76) < 1e-6, "\(a) \(b)")
        }
    }

    @Test func labD65WhiteAndOKLabScale() {
        let white = Self.hex("#ffffff")
        let lab65 = ColorDifference.labCoordinates(white, white: .d65)
        #expect(abs(lab65.x - 100) < 1e-9 && abs(lab65.y) < 1e-9 && abs(lab65.z) < 1e-9)
        #expect(abs(ColorDifference.deltaEOK(Self.hex("#000000"), white) - 1) < 1e-9)
    }

    @Test func identicalColorsAndEdgeCases() {
        let c = Self.hex("#3a7bd5")
        #expect(ColorDifference.deltaE2000(c, c) == 0)
        #expect(ColorDifference.deltaE76(c, c) == 0)
        #expect(ColorDifference.deltaEOK(c, c) == 0)
        // Zero chroma on both sides, and one side: finite, and pure lightness difference.
        let grey1 = SIMD3<Double>(40, 0, 0), grey2 = SIMD3<Double>(60, 0, 0)
        let d = ColorDifference.deltaE2000(lab1: grey1, lab2: grey2)
        #expect(d.isFinite && d > 0)
        let sl = 1 + 0.015 * 0.0 / (20.0).squareRoot()  // lMean = 50 → S_L = 1
        #expect(abs(d - 20 / sl) < 1e-12)
        #expect(ColorDifference.deltaE2000(lab1: grey1, lab2: [40, 0, 5]).isFinite)
        // Colours given in other spaces are converted first (a CSS lab() colour is D50 Lab).
        let labColor = Color(space: .lab, coordinates: [50, 20, -30])
        let same = labColor.converted(to: .oklch)
        #expect(ColorDifference.deltaE2000(labColor, same, lab: .d50) < 1e-9)
        #expect(ColorDifference.deltaEOK(labColor, same) < 1e-12)
    }
}
