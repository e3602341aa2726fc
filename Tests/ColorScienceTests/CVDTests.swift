@testable import ColorScience
import Foundation
import TestSupport
import Testing

/// Colour-vision-deficiency simulation against ColorAide 8.13.1 `filter(kind, amount, method=...)`
/// (Tests/Fixtures/cvd.jsonl: linear-light sRGB, unclamped), extra ColorAide values generated
/// for severities and cases the fixture lacks, and model properties (Brettel anchors, identity).
struct CVDTests {
    /// `#rrggbb` → sRGB colour.
    private static func hex(_ s: String) -> Color {
        let v = Int(s.dropFirst(), radix: 16)!
        return Color.srgb8((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff)
    }

    private static func linear(_ s: String) -> SIMD3<Double> { hex(s).converted(to: .srgbLinear).coordinates }

    private static func maxDiff(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        FixtureLoader.maxAbs(a - b)
    }

    /// Parses a fixture key like `protan_machado_0.5` into (type, model, severity).
    private static func parseKey(_ key: String) -> (CVDType, CVDModel, Double)? {
        let parts = key.split(separator: "_").map(String.init)
        guard parts.count >= 2, let type = CVDType(name: parts[0]), let model = CVDModel(rawValue: parts[1])
        else { return nil }
        return (type, model, parts.count > 2 ? Double(parts[2])! : 1)
    }

    @Test func fixtureRowsMatchColorAide() throws {
        let rows = try FixtureLoader.jsonLines("cvd.jsonl")
        #expect(rows.count == 150)
        var checked = 0
        for row in rows {
            let hexString = row["srgb_hex"] as! String
            let rgb = Self.linear(hexString)
            for (key, value) in row where key != "kind" && key != "srgb_hex" {
                guard let (type, model, severity) = Self.parseKey(key) else {
                    Issue.record("unknown fixture key \(key)")
                    continue
                }
                let want = try #require(FixtureLoader.doubles(value), "\(key)")
                let wantVector = SIMD3(want[0], want[1], want[2])
                let got: SIMD3<Double>
                if model == .brettel1997 && type != .tritanopia {
                    // ColorAide 8.13.1 picks the opposite Brettel half-plane for protan/deutan
                    // (documented in ColorVisionDeficiency); its output is reproduced exactly by the
                    // compatibility path, and the public result is checked separately below.
                    #expect(severity == 1)
                    got = ColorVisionDeficiency.brettel(rgb, type: type, colorAideWingOrder: true)
                } else {
                    got = ColorVisionDeficiency.simulateLinear(rgb, type: type, severity: severity, model: model)
                    // The colour-level API returns gamma-encoded sRGB; back to linear it agrees too.
                    let color = ColorVisionDeficiency.simulate(Self.hex(hexString), type: type,
                                                               severity: severity, model: model)
                    #expect(color.space == .srgb)
                    #expect(Self.maxDiff(color.converted(to: .srgbLinear).coordinates, wantVector) < 1e-6,
                            "\(hexString) \(key) via Color")
                }
                #expect(Self.maxDiff(got, wantVector) < 1e-6, "\(hexString) \(key): \(got) vs \(want)")
                checked += 1
            }
        }
        #expect(checked == 150 * 9)
    }

    /// The public Brettel protan/deutan result against cvd.jsonl. ColorAide 8.13.1 projects onto
    /// the opposite half-plane (the 475 nm stimulus lies on its w2 plane but is projected with w1;
    /// DaltonLens 0.1.5 agrees with the corrected choice), so this stays a visible known issue
    /// instead of a matched value. Evidence is in the issue note.
    @Test func publicBrettelAgainstColorAideReference() throws {
        var worst = 0.0
        for row in try FixtureLoader.jsonLines("cvd.jsonl") {
            let rgb = Self.linear(row["srgb_hex"] as! String)
            for (key, type) in [("protan_brettel", CVDType.protanopia), ("deutan_brettel", .deuteranopia)] {
                let want = try #require(FixtureLoader.doubles(row[key]!))
                let got = ColorVisionDeficiency.simulateLinear(rgb, type: type, severity: 1, model: .brettel1997)
                worst = max(worst, Self.maxDiff(got, SIMD3(want[0], want[1], want[2])))
            }
        }
        withKnownIssue("ColorAide 8.13.1 Brettel protan/deutan uses the opposite half-plane") {
            #expect(worst < 1e-6, "largest difference \(worst)")
        }
    }

    /// Public Brettel protan/deutan: the half-plane on the stimulus's own side (Brettel 1997,
    /// DaltonLens). Values: ColorAide's own tables with the wing choice corrected.
    @Test func brettelUsesTheWingOnTheStimulusSide() {
        let cases: [(String, CVDType, SIMD3<Double>)] = [
            ("#e21414", .protanopia, [0.11987654770776945, 0.08810896142302373, 0.009886619537532601]),
            ("#e21414", .deuteranopia, [0.2880502336117755, 0.2025654620740165, -0.007926419974969104]),
            ("#422aa0", .protanopia, [-0.0732320072068565, 0.03932324036651471, 0.35210895808336323]),
            ("#422aa0", .deuteranopia, [-0.04048183584938287, 0.06246078748252056, 0.3485334763772352]),
            ("#1fb86b", .protanopia, [0.5243035281957074, 0.41467204673878755, 0.14472294997489685]),
            ("#1fb86b", .deuteranopia, [0.3902677818476167, 0.32344931824425116, 0.15892008214187]),
            ("#f0c419", .protanopia, [0.7870944976043662, 0.5626813045923561, 0.01010153507334309]),
            ("#f0c419", .deuteranopia, [0.8092165339586438, 0.5777372323659192, 0.0077583581039052845]),
            ("#7f7f7f", .protanopia, [0.21223075741405506, 0.21223075741405528, 0.21223075741405523]),
            ("#7f7f7f", .deuteranopia, [0.2122307574140552, 0.2122307574140553, 0.21223075741405525]),
            ("#00ffff", .protanopia, [0.8543001967629954, 0.8918355673701674, 0.9961445897236484]),
            ("#00ffff", .deuteranopia, [0.6352259069981897, 0.7370625847798952, 1.0200619032175915]),
        ]
        for (hexString, type, want) in cases {
            let got = ColorVisionDeficiency.simulateLinear(Self.linear(hexString), type: type, model: .brettel1997)
            #expect(Self.maxDiff(got, want) < 1e-9, "\(hexString) \(type)")
        }
    }

    /// Brettel 1997's defining property: a spectral anchor lies on its own half-plane, so a
    /// dichromat sees it unchanged. CIE 1931 2° standard-observer colour-matching values (CIE 015) at
    /// the anchor wavelengths; our tabulated wings agree with them to ~1e-4, while the opposite
    /// wing (ColorAide 8.13.1's choice for protan/deutan) moves them by several percent.
    @Test func brettelAnchorsAreFixedPoints() {
        let anchors: [(CVDType, Int, SIMD3<Double>)] = [
            (.protanopia, 475, [0.1421, 0.1126, 1.0419]),
            (.protanopia, 575, [0.8425, 0.9154, 0.0018]),
            (.deuteranopia, 475, [0.1421, 0.1126, 1.0419]),
            (.deuteranopia, 575, [0.8425, 0.9154, 0.0018]),
            (.tritanopia, 485, [0.05795, 0.1693, 0.6162]),
            (.tritanopia, 660, [0.1649, 0.0610, 0.0000]),
        ]
        for (type, nm, xyz) in anchors {
            let rgb = Color(space: .xyzD65, coordinates: xyz).converted(to: .srgbLinear).coordinates
            let scale = max(abs(rgb.x), abs(rgb.y), abs(rgb.z))
            let ours = ColorVisionDeficiency.simulateLinear(rgb, type: type, model: .brettel1997)
            #expect(Self.maxDiff(ours, rgb) / scale < 1e-3, "\(type) \(nm) nm")
            if type != .tritanopia {
                let colorAide = ColorVisionDeficiency.brettel(rgb, type: type, colorAideWingOrder: true)
                #expect(Self.maxDiff(colorAide, rgb) / scale > 1e-2, "\(type) \(nm) nm (ColorAide order)")
            }
        }
    }

    /// Machado between tabulated severities: ColorAide 8.13.1 `filter(kind, s, method="machado")`.
    @Test func machadoInterpolatesBetweenTabulatedSeverities() {
        let cases: [(String, CVDType, Double, SIMD3<Double>)] = [
            ("#e21414", .protanopia, 0.25, [0.5213125527177537, 0.05259183595698824, 0.002762083734431651]),
            ("#e21414", .protanopia, 0.73, [0.23423129468967252, 0.08796776285821255, 0.0018711862860184565]),
            ("#e21414", .protanopia, 0.05, [0.7063333295515443, 0.018050439030204327, 0.005910328291202627]),
            ("#e21414", .protanopia, 0.95, [0.14118462836049284, 0.0927010558652391, 0.003565345749155888]),
            ("#e21414", .deuteranopia, 0.25, [0.5480873217699445, 0.08832794976537783, 0.0017293721104358092]),
            ("#e21414", .deuteranopia, 0.73, [0.34403887476327066, 0.18197383292360966, -0.0017978250261172697]),
            ("#e21414", .tritanopia, 0.73, [0.9207008258396191, -0.04149275533775962, 0.00500835396510046]),
            ("#422aa0", .protanopia, 0.73, [-0.02427778510749852, 0.05281044149193882, 0.36338415446898453]),
            ("#422aa0", .deuteranopia, 0.95, [-0.03792532642912469, 0.04704424623221639, 0.3413934527579632]),
            ("#422aa0", .tritanopia, 0.25, [0.04107584673306948, 0.03331993717562859, 0.30606554778397266]),
            ("#1fb86b", .protanopia, 0.25, [0.1890293691101328, 0.4395592493015073, 0.1457936616913056]),
            ("#1fb86b", .deuteranopia, 0.05, [0.05213076233709005, 0.4658914516872606, 0.1484591897597175]),
            ("#1fb86b", .tritanopia, 0.95, [-0.055497081256405234, 0.47166863031368966, 0.361524969745264]),
            ("#f0c419", .protanopia, 0.95, [0.7170919887228917, 0.5363563584762903, -0.018376020091290017]),
            ("#f0c419", .deuteranopia, 0.73, [0.8000228940411832, 0.6027431515959965, 0.018787474638970795]),
            ("#f0c419", .tritanopia, 0.95, [1.046801915096221, 0.45148147242444164, 0.3617941305941385]),
        ]
        for (hexString, type, severity, want) in cases {
            let got = ColorVisionDeficiency.simulateLinear(Self.linear(hexString), type: type,
                                                           severity: severity, model: .machado2009)
            #expect(Self.maxDiff(got, want) < 1e-9, "\(hexString) \(type) \(severity)")
        }
    }

    /// Viénot and Brettel (tritan) at severity 0.4, Viénot tritan at 1: ColorAide 8.13.1.
    @Test func vienotAndBrettelPartialSeverity() {
        let partial: [(String, CVDType, CVDModel, SIMD3<Double>)] = [
            ("#e21414", .protanopia, .vienot1999, [0.49298633900000216, 0.04086888230718594, 0.008202795363072559]),
            ("#e21414", .deuteranopia, .vienot1999, [0.54735115828948, 0.09523370159666382, 0.00026290290655326884]),
            ("#e21414", .tritanopia, .vienot1999, [0.7605245046752925, 0.006995410187265397, 0.006995410187265374]),
            ("#e21414", .tritanopia, .brettel1997, [0.7643745394973916, 0.0032478226437493204, 0.029870982163704773]),
            ("#422aa0", .protanopia, .vienot1999, [0.04335775420713541, 0.024561608048536236, 0.35158279483773114]),
            ("#422aa0", .deuteranopia, .vienot1999, [0.045617894960658975, 0.026821748802059793, 0.35125270499738753]),
            ("#422aa0", .tritanopia, .vienot1999, [0.03548521340798082, 0.041642981183056725, 0.2386705211764541]),
            ("#422aa0", .tritanopia, .brettel1997, [0.03706270183424759, 0.04010746884369172, 0.24804341043707406]),
            ("#1fb86b", .protanopia, .vienot1999, [0.17901834396509084, 0.4583892039972131, 0.14628120321257465]),
            ("#1fb86b", .tritanopia, .brettel1997, [0.04229947582701367, 0.4514837509877539, 0.31694305871747025]),
            ("#f0c419", .deuteranopia, .vienot1999, [0.7810214012633909, 0.5894079706513127, 0.00686789060705469]),
            ("#f0c419", .tritanopia, .vienot1999, [0.9027358392225181, 0.5214773856266985, 0.19610327511164122]),
        ]
        for (hexString, type, model, want) in partial {
            let got = ColorVisionDeficiency.simulateLinear(Self.linear(hexString), type: type, severity: 0.4, model: model)
            #expect(Self.maxDiff(got, want) < 1e-9, "\(hexString) \(type) \(model)")
        }
        let vienotTritan: [(String, SIMD3<Double>)] = [
            ("#e21414", [0.7605245046752926, 0.006995410187265414, 0.006995410187265354]),
            ("#422aa0", [0.006992618856288518, 0.0693774036904762, 0.06937740369047617]),
            ("#1fb86b", [0.06175570715228764, 0.4325452391229161, 0.432545239122916]),
            ("#f0c419", [0.9497889192580996, 0.47567636179874645, 0.47567636179874623]),
            ("#00ffff", [-2.220446049250313e-16, 1.0, 0.9999999999999999]),
        ]
        for (hexString, want) in vienotTritan {
            let got = ColorVisionDeficiency.simulateLinear(Self.linear(hexString), type: .tritanopia, model: .vienot1999)
            #expect(Self.maxDiff(got, want) < 1e-9, "\(hexString) tritan vienot")
        }
    }

    /// Achromatopsia = ColorAide 8.13.1 `filter("grayscale", s, space="srgb-linear")`, any model.
    @Test func achromatopsiaIsEqualLuminanceGrey() {
        let cases: [(String, Double, SIMD3<Double>)] = [
            ("#e21414", 1.0, [0.16719569567541992, 0.16719569567541992, 0.16719569567541992]),
            ("#e21414", 0.3, [0.5825258619753307, 0.055055495833711755, 0.055055495833711755]),
            ("#422aa0", 1.0, [0.05352244794617953, 0.05352244794617953, 0.05352244794617953]),
            ("#422aa0", 0.3, [0.0541929278935635, 0.03226409070853115, 0.26212955403416144]),
            ("#1fb86b", 1.0, [0.3563382264506914, 0.3563382264506914, 0.3563382264506914]),
            ("#1fb86b", 0.3, [0.1164929260683102, 0.4424255961057862, 0.2098205544835239]),
            ("#f0c419", 1.0, [0.5807530757935678, 0.5807530757935678, 0.5807530757935678]),
            ("#f0c419", 0.3, [0.7841829061772284, 0.5606339037964704, 0.18103077486223684]),
            ("#7f7f7f", 1.0, [0.2122307574140552, 0.2122307574140552, 0.2122307574140552]),
            ("#00ffff", 1.0, [0.7874, 0.7874, 0.7874]),
            ("#00ffff", 0.3, [0.23621999999999999, 0.9362199999999999, 0.9362199999999999]),
        ]
        for (hexString, severity, want) in cases {
            for model in CVDModel.allCases {
                let got = ColorVisionDeficiency.simulateLinear(Self.linear(hexString), type: .achromatopsia,
                                                               severity: severity, model: model)
                #expect(Self.maxDiff(got, want) < 1e-12, "\(hexString) \(severity) \(model)")
            }
        }
        // Luminance is preserved: WCAG relative luminance of the result equals the original's.
        let c = Self.hex("#3a7bd5")
        let grey = ColorVisionDeficiency.simulate(c, type: .achromatopsia)
        #expect(abs(WCAG.relativeLuminance(grey.coordinates) - WCAG.relativeLuminance(c.coordinates)) < 1e-12)
    }

    /// The colour-level result is gamma-encoded sRGB, unclamped and sign-symmetric for negative
    /// channels: ColorAide 8.13.1 `filter("deutan", method="machado", out_space="srgb")`.
    @Test func colorLevelOutputIsUnclampedSRGB() {
        let cases: [(String, SIMD3<Double>)] = [
            ("#e21414", [0.569209334809816, 0.5043051764989851, -0.02469395354711395]),
            ("#422aa0", [-0.2214889982845305, 0.2413898395987995, 0.6188089915176909]),
            ("#1fb86b", [0.6530700913593536, 0.6123497458207212, 0.4402849264180563]),
        ]
        for (hexString, want) in cases {
            let got = ColorVisionDeficiency.simulate(Self.hex(hexString), type: .deuteranopia)
            #expect(got.space == .srgb)
            #expect(Self.maxDiff(got.coordinates, want) < 1e-9, "\(hexString)")
        }
        let translucent = ColorVisionDeficiency.simulate(Color.srgb(0.2, 0.4, 0.6, alpha: 0.25), type: .protanopia)
        #expect(translucent.alpha == 0.25)
    }

    @Test func severityZeroIsIdentityAndNeutralsArePreserved() {
        let samples = ["#e21414", "#422aa0", "#1fb86b", "#f0c419", "#000000", "#ffffff"].map(Self.linear)
        for type in CVDType.allCases {
            for model in CVDModel.allCases {
                for rgb in samples {
                    let same = ColorVisionDeficiency.simulateLinear(rgb, type: type, severity: 0, model: model)
                    #expect(Self.maxDiff(same, rgb) < 1e-15, "\(type) \(model) severity 0")
                }
                for grey in [0.0, 0.18, 0.5, 1.0] {
                    let rgb = SIMD3<Double>(repeating: grey)
                    let out = ColorVisionDeficiency.simulateLinear(rgb, type: type, model: model)
                    // Machado's published matrices have rows summing to 1 ± 1e-5.
                    let tolerance = model == .machado2009 && type != .achromatopsia ? 2e-5 : 1e-12
                    #expect(Self.maxDiff(out, rgb) < tolerance, "\(type) \(model) grey \(grey)")
                }
            }
        }
    }

    @Test func typeNamesAndModelRawValues() {
        #expect(CVDType(name: "protan") == .protanopia)
        #expect(CVDType(name: "Deutan") == .deuteranopia)
        #expect(CVDType(name: "tritan") == .tritanopia)
        #expect(CVDType(name: "achroma") == .achromatopsia)
        #expect(CVDType(name: "deuteranopia") == .deuteranopia)
        #expect(CVDType(name: "protanomaly") == nil)
        #expect(CVDType(rawValue: "tritanopia") == .tritanopia)
        #expect(CVDModel(rawValue: "brettel") == .brettel1997)
        #expect(CVDModel(rawValue: "vienot") == .vienot1999)
        #expect(CVDModel(rawValue: "machado") == .machado2009)
    }

    @Test func severityOutsideUnitIntervalIsAPreconditionFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = ColorVisionDeficiency.simulateLinear([0.5, 0.5, 0.5], type: .protanopia, severity: 1.5)
        }
        await #expect(processExitsWith: .failure) {
            _ = ColorVisionDeficiency.simulateLinear([0.5, 0.5, 0.5], type: .protanopia, severity: .nan)
        }
    }
}
