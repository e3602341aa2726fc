@testable import AppleDesign
@testable import ColorScience
import Foundation
import TestSupport
import Testing

/// The pure Apple model: contexts, catalog lookup and fallbacks, label compositing, materials,
/// Dynamic Type requirements, audit requirements and the table-stripe proposal.
///
/// The catalog here is a small fixture with published values (sources §1, §2, §4, §6), so the
/// lookup rules are tested without the API's resource loading (that is covered in
/// ContrastAPITests/AppleModelTests.swift against the real data file).
struct AppleModelCoreTests {
    private static func rgba(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> AppleRGBA {
        AppleRGBA(red: r, green: g, blue: b, alpha: a)
    }

    private static let light = AppleColorVariant(appearance: .light, contrast: .standard)
    private static let dark = AppleColorVariant(appearance: .dark, contrast: .standard)
    private static let darkElevated = AppleColorVariant(appearance: .dark, contrast: .standard, level: .elevated)
    private static let darkIC = AppleColorVariant(appearance: .dark, contrast: .increased)

    /// systemBackground (level-dependent), secondaryLabel (level-independent), link (no iOS 26
    /// value), systemBlue (differs by generation).
    private static let catalog: AppleSystemColorCatalog = {
        let background: [AppleColorVariant: AppleRGBA] = [
            light: rgba(255, 255, 255), dark: rgba(0, 0, 0), darkElevated: rgba(28, 28, 30),
        ]
        let secondaryLabel: [AppleColorVariant: AppleRGBA] = [light: rgba(60, 60, 67, 0.6), dark: rgba(235, 235, 245, 0.6)]
        return AppleSystemColorCatalog(
            colors: [
                AppleSystemColor(name: "systemBackground", category: .background,
                                 values: [.ios15to18: background, .ios26: background],
                                 entries: [.ios15to18: "backgrounds.systemBackground", .ios26: "backgrounds.systemBackground"]),
                AppleSystemColor(name: "secondaryLabel", category: .label,
                                 values: [.ios15to18: secondaryLabel, .ios26: secondaryLabel],
                                 entries: [.ios15to18: "labels.secondaryLabel", .ios26: "labels.secondaryLabel"]),
                AppleSystemColor(name: "link", category: .link,
                                 values: [.ios15to18: [light: rgba(0, 122, 255), dark: rgba(9, 132, 255)], .ios26: [:]],
                                 entries: [.ios15to18: "link.pre_iOS26", .ios26: "link.iOS26"]),
                AppleSystemColor(name: "systemBlue", category: .tint,
                                 values: [.ios15to18: [light: rgba(0, 122, 255), dark: rgba(10, 132, 255)],
                                          .ios26: [light: rgba(0, 136, 255), dark: rgba(0, 145, 255)]],
                                 entries: [.ios15to18: "tints.iOS15_18.systemBlue", .ios26: "tints.iOS26.systemBlue"]),
            ],
            provenance: [
                AppleColorProvenance(category: .background, confidence: .high, source: "category rule"),
                AppleColorProvenance(category: .background, contrast: .increased, confidence: .medium, source: "IC rule"),
                AppleColorProvenance(name: "systemBlue", generation: .ios26, appearance: .dark, confidence: .low, source: "specific rule"),
                AppleColorProvenance(category: .tint, confidence: .high, source: "tint rule"),
            ],
            notes: [AppleSourceNote(name: "systemBlue", generation: .ios26, appearance: .dark, text: "disputed",
                                    alternative: rgba(1, 2, 3), alternativeSource: "other source")])
    }()

    // MARK: Context

    @Test func contextDefaultsAndIds() {
        let c = AppleColorContext.default
        #expect(c.appearance == .light && c.level == .base && c.contrast == .standard && c.generation == .ios26)
        let contexts = AppleColorContext.distinctContexts()
        #expect(contexts.map(\.id) == ["light", "dark-base", "dark-elevated", "light-increased", "dark-increased-base", "dark-increased-elevated"])
        #expect(Set(contexts.map(\.variant)).count == 6)
        let lightElevated = AppleColorContext(appearance: .light, level: .elevated)
        #expect(lightElevated.isLightElevated && lightElevated.effectiveLevel == .base && lightElevated.id == "light-elevated")
        #expect(AppleColorContext(appearance: .dark, level: .elevated).effectiveLevel == .elevated)
    }

    // MARK: Catalog

    @Test func darkBaseAndElevatedBackgroundsDiffer() throws {
        let base = try #require(Self.catalog.resolve("systemBackground", in: AppleColorContext(appearance: .dark, level: .base)))
        let elevated = try #require(Self.catalog.resolve("systemBackground", in: AppleColorContext(appearance: .dark, level: .elevated)))
        #expect(base.value == Self.rgba(0, 0, 0))
        #expect(elevated.value == Self.rgba(28, 28, 30))
        #expect(base.entry == "backgrounds.systemBackground.dark_base")
        #expect(elevated.entry == "backgrounds.systemBackground.dark_elevated")
        #expect(Self.catalog.color(named: "systemBackground")!.dependsOnLevel)
        #expect(!Self.catalog.color(named: "secondaryLabel")!.dependsOnLevel)
    }

    @Test func levelIndependentColorsUseTheirBaseValueWhenElevated() throws {
        let r = try #require(Self.catalog.resolve("secondaryLabel", in: AppleColorContext(appearance: .dark, level: .elevated)))
        #expect(r.value == Self.rgba(235, 235, 245, 0.6))
        #expect(r.value.alpha == 0.6)
        #expect(r.entry == "labels.secondaryLabel.dark")
        #expect(r.notes.isEmpty)
    }

    @Test func lightElevatedResolvesAsLightBaseWithANote() throws {
        let r = try #require(Self.catalog.resolve("systemBackground", in: AppleColorContext(appearance: .light, level: .elevated)))
        #expect(r.value == Self.rgba(255, 255, 255))
        #expect(r.context.level == .elevated)
        #expect(r.notes.contains { $0.contains("Light elevated resolves as light base") })
    }

    @Test func missingGenerationFallsBackWithANote() throws {
        let r = try #require(Self.catalog.resolve("link", in: AppleColorContext(appearance: .dark, generation: .ios26)))
        #expect(r.value == Self.rgba(9, 132, 255))
        #expect(r.valueGeneration == .ios15to18)
        #expect(r.entry == "link.pre_iOS26.dark")
        #expect(r.notes.first?.contains("the iOS 15–18 value is used") == true)
        // A variant no generation has (increased contrast here) is nil, not a guess.
        #expect(Self.catalog.resolve("link", in: AppleColorContext(contrast: .increased)) == nil)
    }

    @Test func generationsGiveDifferentTints() throws {
        let old = try #require(Self.catalog.resolve("systemBlue", in: AppleColorContext(generation: .ios15to18)))
        let new = try #require(Self.catalog.resolve("systemBlue", in: AppleColorContext(generation: .ios26)))
        #expect(old.value == Self.rgba(0, 122, 255))
        #expect(new.value == Self.rgba(0, 136, 255))
    }

    @Test func provenanceUsesTheMostSpecificRuleAndNotesCarryAlternatives() throws {
        let darkNew = try #require(Self.catalog.resolve("systemBlue", in: AppleColorContext(appearance: .dark, generation: .ios26)))
        #expect(darkNew.confidence == .low && darkNew.source == "specific rule")
        #expect(darkNew.notes == ["disputed"])
        #expect(darkNew.alternatives.count == 1 && darkNew.alternatives[0].value == Self.rgba(1, 2, 3))
        let lightNew = try #require(Self.catalog.resolve("systemBlue", in: AppleColorContext(appearance: .light, generation: .ios26)))
        #expect(lightNew.confidence == .high && lightNew.source == "tint rule" && lightNew.notes.isEmpty)
        // No increased-contrast value in the fixture: nil rather than a standard value.
        #expect(Self.catalog.resolve("systemBackground", in: AppleColorContext(appearance: .dark, contrast: .increased)) == nil)
    }

    @Test func namesAreCaseSensitiveWithSuggestions() {
        #expect(Self.catalog.resolve("SystemBlue", in: .default) == nil)
        #expect(Self.catalog.resolve("systemblue", in: .default) == nil)
        #expect(Self.catalog.suggestions(for: "SystemBlue").first == "systemBlue")
        #expect(Self.catalog.suggestions(for: "secondaryLable").first == "secondaryLabel")
        #expect(Self.catalog.suggestions(for: "zzzzzzzz").isEmpty)
        #expect(NameSuggestions.distance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }

    // MARK: Compositing

    @Test func lightSecondaryLabelOnWhiteIsAbout3point44() {
        // rgba(60,60,67,0.6) over white = (138, 138, 142.2) unrounded (sources §10: ≈ 3.44:1).
        let label = Self.rgba(60, 60, 67, 0.6)
        let m = AppleCompositing.measure(label.displayColor, on: SIMD3(repeating: 1))
        #expect(abs(m.effectiveForeground.x * 255 - 138) < 1e-9)
        #expect(abs(m.effectiveForeground.z * 255 - 142.2) < 1e-9)
        #expect(abs(m.ratio - 3.438199621918069) < 1e-9, "\(m.ratio)")
        #expect(WCAG.ratioText(m.ratio) == "3.43")
        #expect(m.ratio < WCAG.aaNormalText && m.ratio >= WCAG.aaLargeText)
    }

    @Test func customLabelTakesTheSystemLevelsAlpha() {
        let custom = DisplayColor(srgb: SIMD3(0.1, 0.2, 0.3), alpha: 0.5)
        let c = AppleCompositing.customLabel(custom, like: Self.rgba(60, 60, 67, 0.6))
        #expect(abs(c.alpha - 0.3) < 1e-12 && c.srgb == custom.srgb)
        let flat = AppleCompositing.flatten(DisplayColor(srgb: SIMD3(repeating: 0), alpha: 0.5), over: SIMD3(repeating: 1))
        #expect(flat == SIMD3(repeating: 0.5))
    }

    // MARK: Materials

    @Test func materialContrastIsARangeOverContent() {
        let tint = Self.rgba(249, 249, 249, 0.55)
        let black = DisplayColor(srgb: SIMD3(repeating: 0))
        let m = AppleMaterials.contrast(of: black, tint: tint, contents: [], reduceTransparency: false)
        #expect(m.minRatio < m.maxRatio)
        #expect(m.worstContent == SIMD3(repeating: 0))  // black text is worst over black content
        let expectedSurface = Compositing.sourceOver(tint.srgb, alpha: 0.55, overOpaque: SIMD3(repeating: 0))
        #expect(m.worstSurface == expectedSurface)
        // Reduce Transparency: the opaque tint, whatever lies behind.
        let rt = AppleMaterials.contrast(of: black, tint: tint, contents: [], reduceTransparency: true)
        #expect(rt.minRatio == rt.maxRatio && rt.worstSurface == tint.srgb)
        #expect(AppleMaterialKind.thin.discouragesQuaternaryLabel && AppleMaterialKind.ultraThin.discouragesQuaternaryLabel)
        #expect(!AppleMaterialKind.regular.discouragesQuaternaryLabel && !AppleMaterialKind.chrome.discouragesQuaternaryLabel)
        #expect(AppleVibrancyLevel.allCases.filter(\.isText).count == 4 && AppleVibrancyLevel.allCases.count == 8)
        #expect(AppleVibrancyLevel.secondaryFill.systemColorName == "secondarySystemFill")
    }

    // MARK: Dynamic Type

    @Test func fontWeights() {
        #expect(AppleFontWeight(name: "SemiBold") == .semibold && AppleFontWeight(name: "book") == nil)
        #expect(AppleFontWeight(cssWeight: 400) == .regular && AppleFontWeight(cssWeight: 651) == .bold)
        #expect(AppleFontWeight(cssWeight: 1) == .ultralight && AppleFontWeight(cssWeight: 1000) == .black)
        #expect(AppleFontWeight.light.isLight && !AppleFontWeight.regular.isLight)
    }

    @Test func textRequirements() {
        let body = AppleTextRequirement(points: 17, weight: 400)
        #expect(!body.isLargeText && body.wcagAA == 4.5 && body.wcagAAA == 7 && body.hig == 7 && body.weightWarning == nil)
        let title3 = AppleTextRequirement(points: 20, weight: 400)
        #expect(title3.isLargeText && title3.wcagAA == 3 && title3.hig == 4.5)
        #expect(AppleTextRequirement(points: 14, weight: 700).isLargeText)
        #expect(!AppleTextRequirement(points: 14, weight: 600).isLargeText)
        #expect(AppleTextRequirement(points: 34, weight: 300).weightWarning?.contains("light") == true)
    }

    @Test func apcaMinimumLcIsTheSmallestLcTheLookupAllows() throws {
        for (px, weight) in [(17.0, 400), (12.0, 700), (28.0, 700), (34.0, 400), (15.0, 600)] {
            let lc = try #require(APCAMinimumLc.minimumLc(px: px, weight: weight), "\(px) px \(weight)")
            #expect(APCAFontLookup.minimumFontSizePx(lc: lc, weight: weight).map { $0 <= px } == true, "\(px) \(weight) at \(lc)")
            let below = APCAFontLookup.minimumFontSizePx(lc: lc - 0.1, weight: weight)
            #expect(below == nil || below! > px, "\(px) \(weight) below \(lc)")
        }
        #expect(APCAMinimumLc.minimumLc(px: 5, weight: 100) == nil)
        #expect(APCAMinimumLc.minimumLc(px: .nan, weight: 400) == nil)
        // The lookup allows 16 px at weight 300 only from Lc 125, which no colors reach (white on
        // black is Lc −107.9): no minimum, not "Lc 125" (hostile test, stop 14).
        #expect(abs(APCAMinimumLc.largestReachableLc - 107.88) < 0.01, "\(APCAMinimumLc.largestReachableLc)")
        #expect(APCAMinimumLc.minimumLc(px: 16, weight: 300) == nil)
        #expect(APCAMinimumLc.minimumLc(px: 11, weight: 400) == nil)   // the lookup's answer is above Lc 108 too
        #expect(APCAFontLookup.minimumFontSizePx(lc: 125, weight: 300).map { $0 <= 16 } == true)
        // Bigger text never needs more contrast.
        #expect(APCAMinimumLc.minimumLc(px: 40, weight: 400)! < APCAMinimumLc.minimumLc(px: 17, weight: 400)!)
    }

    @Test func dynamicTypeTableValidation() {
        let cats = [AppleContentSizeCategory(name: "Large", uikitName: "large", swiftUIName: "large", isAccessibility: false),
                    AppleContentSizeCategory(name: "AX1", uikitName: "accessibilityMedium", swiftUIName: "accessibility1", isAccessibility: true)]
        let body = AppleTextStyle(name: "body", title: "Body", weight: .regular, emphasizedWeight: .semibold, sizes: [17, 28], leading: [22, 34])
        let table = AppleDynamicTypeTable(categories: cats, styles: [body], defaultCategory: "Large", aliases: ["text": "body"])
        #expect(table?.categoryIndex(named: "accessibility1") == 1 && table?.categoryIndex(named: "ax1") == 1)
        #expect(table?.categoryIndex(named: "AX9") == nil)
        // Swift spellings with their type or a leading dot (a new user's pass got a 400).
        #expect(table?.categoryIndex(named: "UIContentSizeCategory.accessibilityMedium") == 1 && table?.categoryIndex(named: ".accessibility1") == 1
                && table?.categoryIndex(named: "DynamicTypeSize.accessibility1") == 1)
        #expect(table?.categoryIndex(named: "UIColor.accessibility1") == nil)
        #expect(table?.style(named: "TEXT")?.name == "body")
        let bad = AppleTextStyle(name: "body", title: "Body", weight: .regular, emphasizedWeight: .semibold, sizes: [17], leading: [22, 34])
        #expect(AppleDynamicTypeTable(categories: cats, styles: [bad], defaultCategory: "Large") == nil)
        #expect(AppleDynamicTypeTable(categories: cats, styles: [body], defaultCategory: "Huge") == nil)
    }

    // MARK: Audit requirements

    @Test func policyRequirements() {
        let body = ContrastTarget.apple(role: .text, policy: .hig, text: nil)
        #expect(body.metric == .wcag2 && body.minimum == 7)
        let large = ContrastTarget.apple(role: .text, policy: .hig, text: AppleTextRequirement(points: 28, weight: 400))
        #expect(large.minimum == 4.5)
        #expect(ContrastTarget.apple(role: .icon, policy: .wcagAA, text: nil).minimum == 3)
        #expect(ContrastTarget.apple(role: .nonText, policy: .wcagAAA, text: nil).minimum == 3)
        #expect(ContrastTarget.apple(role: .secondaryText, policy: .wcagAAA, text: nil).minimum == 7)
        let apca = ContrastTarget.apple(role: .tint, policy: .apca, text: nil)
        #expect(apca.metric == .apca && apca.minimum == APCAMinimumLc.minimumLc(px: 17, weight: 400))
        #expect(ContrastTarget.apple(role: .icon, policy: .apca, text: nil).minimum == 45)
        // isMet compares the unrounded value with >=.
        let m = ContrastMeasurement.flattened(foreground: SIMD3(repeating: 0x77 / 255.0), background: SIMD3(repeating: 1))
        #expect(!ContrastTarget(metric: .wcag2, minimum: 4.5, basis: "").isMet(by: m))  // 4.478
        #expect(ContrastTarget(metric: .wcag2, minimum: 4.47, basis: "").isMet(by: m))
    }

    // MARK: Table stripes

    @Test func stripeOnWhiteGoesDarkerAndKeepsTheTarget() {
        let black = DisplayColor(srgb: SIMD3(repeating: 0))
        let p = TableStripes.propose(base: SIMD3(repeating: 1), texts: [black], targetRatio: 4.5)
        #expect(p.found && p.direction == .darker)
        #expect(p.deltaEOK >= TableStripes.defaultMinimumDeltaEOK)
        #expect(p.rowContrast >= TableStripes.defaultMinimumRowContrast)
        #expect(p.onAlternate[0].ratio >= 4.5 && p.onBase[0].ratio == 21)
        // 8-bit result.
        #expect((p.alternate * 255).x == (p.alternate * 255).x.rounded())
    }

    @Test func stripeBaseRoundsAsTheHexOfTheSameColorElsewhere() {
        // A channel a hair under a rounding edge (127.4999999995 of 255, as a converted color
        // gives): Color.hex and every other endpoint write it as 0x80 (EightBit's 1e-9
        // tolerance); the stripes had rounded it to 0x7f and measured a different base row.
        let channel = (127.5 - 5e-10) / 255
        let p = TableStripes.propose(base: SIMD3(repeating: channel), texts: [DisplayColor(srgb: SIMD3(repeating: 0))], targetRatio: 4.5)
        #expect(p.base == SIMD3(repeating: 128.0 / 255))
        #expect(Color.srgb(channel, channel, channel).hex == "#808080")
    }

    @Test func stripeOnBlackIsVisibleNotJustDeltaEOK() {
        // Guards the near-black case: #010101 is ΔE OK 0.067 from black but invisible.
        let white = DisplayColor(srgb: SIMD3(repeating: 1))
        let p = TableStripes.propose(base: SIMD3(repeating: 0), texts: [white], targetRatio: 4.5)
        #expect(p.found && p.direction == .lighter)
        #expect(p.alternate.x * 255 >= 12, "\(p.alternate * 255)")
        #expect(p.rowContrast >= 1.1)
    }

    /// A hostile pass: black text on a black base (ratio 1, target 1) found no stripe, though
    /// #101010 keeps every limit: a text of the base's own luminance is on neither side, so the
    /// polarity guard must not stop a lighter stripe.
    @Test func textOfTheBasesLuminanceBlocksNoDirection() {
        let black = DisplayColor(srgb: SIMD3(repeating: 0))
        let p = TableStripes.propose(base: SIMD3(repeating: 0), texts: [black], targetRatio: 1)
        #expect(p.found && p.direction == .lighter, "\(p.reason ?? "")")
        #expect(p.rowContrast >= 1.1 && p.deltaEOK >= 0.03 && p.alternate.x * 255 >= 12, "\(p.alternate * 255)")
    }

    @Test func stripeReportsWhyNothingFits() {
        let gray = DisplayColor(srgb: SIMD3(repeating: 0.6))
        let failingBase = TableStripes.propose(base: SIMD3(repeating: 1), texts: [gray], targetRatio: 4.5)
        #expect(!failingBase.found && failingBase.reason?.contains("already misses the target on the base row") == true)
        #expect(failingBase.failingOnBase == [0] && failingBase.reason?.hasPrefix("text 1 of 1 (counted from 1)") == true, "\(failingBase.reason ?? "")")
        let black = DisplayColor(srgb: SIMD3(repeating: 0))
        let impossible = TableStripes.propose(base: SIMD3(repeating: 1), texts: [black], targetRatio: 21)
        #expect(!impossible.found && impossible.reason != nil && impossible.deltaEOK >= 0.03)
    }

    /// The stripe never crosses a text's lightness (hostile test: gray text on white got a
    /// near-black #040404 stripe, on which the text passes again in the opposite polarity).
    @Test func stripeKeepsEveryTextsPolarity() {
        func hex(_ v: Int) -> DisplayColor { DisplayColor(srgb: SIMD3(Double(v >> 16 & 255), Double(v >> 8 & 255), Double(v & 255)) / 255) }
        for (text, target) in [(0x767676, 4.5), (0x0a84ff, 3.5), (0x777777, 4.47)] {
            let p = TableStripes.propose(base: SIMD3(repeating: 1), texts: [hex(text)], targetRatio: target)
            #expect(!p.found, "#\(String(text, radix: 16)): \(p.alternate * 255)")
        }
        var rng = SystemRandomNumberGenerator()
        var found = 0
        for _ in 0..<300 {
            let base = SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))
            let texts = (0..<2).map { _ in DisplayColor(srgb: SIMD3(Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng), Double.random(in: 0...1, using: &rng))) }
            let p = TableStripes.propose(base: base, texts: texts, targetRatio: 3)
            guard p.found else { continue }
            found += 1
            // One row per text on each stripe: the zip below cannot pass by comparing nothing.
            #expect(p.onBase.count == texts.count && p.onAlternate.count == texts.count)
            for (b, a) in zip(p.onBase, p.onAlternate) {
                #expect((b.foregroundLuminance < b.backgroundLuminance) == (a.foregroundLuminance < a.backgroundLuminance))
            }
        }
        #expect(found > 0, "no random pair found a stripe: the polarity check never ran")
    }
}

extension AppleModelCoreTests {
    @Test func publishedAlphasStandForEightBitValues() {
        #expect(AppleRGBA.eightBitAlpha(0.6) == 0.6)                // 153/255
        #expect(AppleRGBA.eightBitAlpha(0.298) == 76.0 / 255)
        #expect(AppleRGBA.eightBitAlpha(0.376) == 96.0 / 255)
        #expect(AppleRGBA.eightBitAlpha(0.678) == 173.0 / 255)
        #expect(AppleRGBA.eightBitAlpha(0.157) == 40.0 / 255)
        #expect(AppleRGBA.eightBitAlpha(0.12) == 0.12)              // two decimals: not a rounding of n/255
        #expect(AppleRGBA.eightBitAlpha(0.5) == 0.5)
        #expect(AppleRGBA.eightBitAlpha(1) == 1 && AppleRGBA.eightBitAlpha(0) == 0)
    }
}
