import ContrastAPI
import Foundation
import JSONValue
import TestSupport
import Testing

/// The Apple endpoints against values typed from the cited public sources, not against the
/// bundled catalog (a copy of which the tests had compared with itself).
///
/// `Tests/Fixtures/apple_reference_values.jsonl`: one row per value, each with its `source`
/// (the section of `docs/apple-system-colors-sources.md` and the sources it cites: WebKit runtime
/// dumps WK15/WK16/WK26, Flutter CupertinoColors, the HIG Color and Typography pages). Kinds:
/// - `color`: `name` in `generation` (`ios15-18`, `ios26`) and context (`appearance`, `level`,
///   `contrast`): `rgb` 0–255 and the published `alpha` (compared within half an 8-bit step, as
///   UIKit stores alpha in 8 bits);
/// - `textStyle`: a Dynamic Type style at Large (`size`, `leading`, `weight`);
/// - `bodySize`: body's size and leading at each content size category (`index` in HIG order);
/// - `platformSize`: HIG default and minimum text size per platform.
/// Values the sources disagree on are left out or follow the resolution in the sources' §11.
@Suite struct AppleReferenceTests {
    static let rows: [JSON] = (try? FixtureLoader.jsonValues("apple_reference_values.jsonl")) ?? []

    static func rows(_ kind: String) -> [JSON] { rows.filter { $0["kind"] == .string(kind) } }

    @Test func fixtureHoldsEveryTable() {
        #expect(Self.rows.count == 199, "apple_reference_values.jsonl: \(Self.rows.count) rows")
        #expect(Self.rows.allSatisfy { ($0["source"]?.string?.hasPrefix("sources §") ?? false) }, "every row cites its source")
        let names = Set(Self.rows("color").compactMap { $0["name"]?.string })
        for group in ["systemBackground", "secondarySystemGroupedBackground", "secondaryLabel", "quaternaryLabel", "systemFill",
                      "quaternarySystemFill", "separator", "opaqueSeparator", "link", "systemGray6", "systemBlue", "systemBrown"] {
            #expect(names.contains(group), "no \(group) row")
        }
    }

    /// /v1/system-colors resolves each color to the cited value in its generation and context.
    @Test func systemColorsMatchTheCitedSources() throws {
        let colors = Self.rows("color")
        #expect(colors.count == 171)
        for row in colors {
            let name = try #require(row["name"]?.string), generation = try #require(row["generation"]?.string)
            let appearance = try #require(row["appearance"]?.string), level = try #require(row["level"]?.string)
            let contrast = try #require(row["contrast"]?.string)
            let rgb = (row["rgb"]?.array ?? []).compactMap(\.double), alpha = try #require(row["alpha"]?.double)
            try #require(rgb.count == 3)
            let label = "\(name) \(generation) \(appearance)/\(level)/\(contrast) (\(row["source"]?.string ?? ""))"
            let r = call("GET", "/v1/system-colors?name=\(name)&generation=\(generation)&appearance=\(appearance)&level=\(level)&contrast=\(contrast)")
            #expect(r.status == 200, "\(label): \(r.text)")
            let values = r.json["colors"]?.array?.first?["values"]?.array ?? []
            #expect(values.count == 1, "\(label): \(values.count) values")
            let got = (values.first?["value"]?["rgba"]?.array ?? []).compactMap(\.double)
            try #require(got.count == 4, "\(label): \(r.text.prefix(300))")
            #expect(Array(got[0..<3]) == rgb, "\(label): \(got)")
            #expect(abs(got[3] - alpha) <= 0.5 / 255, "\(label): alpha \(got[3]) vs \(alpha)")
        }
    }

    /// /v1/text-styles: the Large column, body's size at every category, and the platforms'
    /// default and minimum sizes, as the HIG publishes them.
    @Test func textStylesMatchTheHIG() throws {
        let j = call("GET", "/v1/text-styles").json
        let styles = j["styles"]?.array ?? []
        let large = Self.rows("textStyle")
        #expect(large.count == 11 && styles.count == 11)
        for row in large {
            let name = try #require(row["style"]?.string)
            let style = try #require(styles.first { $0["name"]?.string == name }, "no style \(name)")
            let atLarge = style["sizes"]?.array?.first { $0["contentSizeCategory"]?["name"] == "Large" }
            #expect(atLarge?["size"] == row["size"] && atLarge?["leading"] == row["leading"], "\(name): \(String(describing: atLarge))")
            #expect(style["weight"]?.string == row["weight"]?.string?.lowercased(), "\(name) weight")
        }
        let body = try #require(styles.first { $0["name"] == "body" })
        let sizes = body["sizes"]?.array ?? []
        let bodyRows = Self.rows("bodySize")
        #expect(bodyRows.count == 12 && sizes.count == 12)
        for row in bodyRows {
            let index = Int(try #require(row["index"]?.double)), category = try #require(row["category"]?.string)
            try #require(index < sizes.count)
            #expect(sizes[index]["size"] == row["size"] && sizes[index]["leading"] == row["leading"], "body at \(category): \(sizes[index])")
            if !category.hasPrefix("AX") { #expect(sizes[index]["contentSizeCategory"]?["name"] == .string(category)) }
        }
        let platforms = Self.rows("platformSize")
        #expect(platforms.count == 5)
        for row in platforms {
            let platform = try #require(row["platform"]?.string)
            let p = j["platformSizes"]?.array?.first { $0["platform"] == .string(platform) }
            #expect(p?["defaultSize"] == row["default"] && p?["minimumSize"] == row["minimum"], "\(platform): \(String(describing: p))")
        }
    }
}
