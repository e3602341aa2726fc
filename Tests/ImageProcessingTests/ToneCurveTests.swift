import ColorScience
import ImageProcessing
import Testing

@Suite struct ToneCurveTests {
    @Test func identityFactorKeepsEveryCode() {
        #expect(ToneCurve.srgb(codes: 256).dimTable(factor: 1) == (0..<256).map { UInt16($0) })
        let sixteen = ToneCurve.srgb(codes: 65536).dimTable(factor: 1)
        #expect(sixteen.enumerated().allSatisfy { Int($0.element) == $0.offset })
    }

    @Test func halvesLinearLightToTheNearestCode() {
        let table = ToneCurve.srgb(codes: 256).dimTable(factor: 0.5)
        // White: linear 1 → 0.5 → encoded 0.7354 → 187.5; 188 is nearer in linear light.
        for v in [255, 200, 128, 40, 5] {
            let want = 0.5 * WCAG.linearize(Double(v) / 255)
            let got = WCAG.linearize(Double(table[v]) / 255)
            let below = table[v] > 0 ? WCAG.linearize(Double(table[v] - 1) / 255) : -1
            let above = table[v] < 255 ? WCAG.linearize(Double(table[v] + 1) / 255) : 2
            #expect(abs(got - want) <= abs(below - want) && abs(got - want) <= abs(above - want), "code \(v) → \(table[v])")
        }
        #expect(table[0] == 0)
    }

    @Test func zeroFactorIsBlack() {
        #expect(ToneCurve.srgb(codes: 256).dimTable(factor: 0).allSatisfy { $0 == 0 })
    }

    @Test func nonMonotoneCurveIsRepaired() {
        let c = ToneCurve(samples: [0, 0.5, 0.4, 1, .nan])
        #expect(c.samples == [0, 0.5, 0.5, 1, 1])
    }

    /// A profile made by lcms2 with the sRGB curve reads back as the sRGB curve.
    @Test func displayP3ProfileHasTheSRGBCurve() throws {
        let p3 = try #require(ICCProfile.make(white: ICCProfile.displayP3Primaries.white,
                                              primaries: ICCProfile.displayP3Primaries.primaries,
                                              description: "Display P3"))
        #expect(ICCProfile.description(p3) == "Display P3")
        let curves = try #require(ICCProfile.toneCurves(p3, codes: 256))
        #expect(curves.count == 3)
        let srgb = ToneCurve.srgb(codes: 256)
        for c in curves {
            for v in stride(from: 0, to: 256, by: 17) {
                #expect(abs(c.samples[v] - srgb.samples[v]) < 1e-3)
            }
        }
    }

    /// The same arguments make the same bytes: the header's creation date is fixed, not the
    /// time of saving (two profiles made a second apart had differed at byte 35, and a test
    /// comparing an embedded profile with a freshly made one failed in CI).
    @Test func aMadeProfileDoesNotDependOnTheClock() throws {
        let p3 = try #require(ICCProfile.make(white: ICCProfile.displayP3Primaries.white,
                                              primaries: ICCProfile.displayP3Primaries.primaries,
                                              description: "Display P3"))
        #expect(Array(p3[24..<36]) == [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(ICCProfile.toneCurves(p3, codes: 16)?.count == 3)
    }

    @Test func garbageIsNotAProfile() {
        #expect(ICCProfile.toneCurves([UInt8](repeating: 7, count: 300), codes: 256) == nil)
        #expect(ICCProfile.toneCurves([], codes: 256) == nil)
        #expect(ICCProfile.description([1, 2, 3]) == nil)
    }
}
