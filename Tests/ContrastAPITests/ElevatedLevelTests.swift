import Foundation
import JSONValue
import TestSupport
import Testing

/// Backgrounds at Apple's elevated level (sheets, popovers) through the palette, export, audit
/// and batch routes, over the real server (a designer's pass, after palette surfaces began to climb).
@Suite(.serialized) struct ElevatedLevelTests {
    static func variant(_ r: Reply, _ name: String, _ v: String) -> JSON? {
        r.json["colors"]?.array?.first { $0["name"]?.string == name }?["variants"]?[v]
    }

    @Test("darkElevated is a background's own value there; a given dark is not lifted, in either contrast")
    func givenElevatedValues() throws {
        let live = try LiveServer()
        let r = try live.request("POST", "/v1/palette/dark", body: ##"""
            {"colors": [{"name": "sheet", "role": "background", "color": "#ffffff", "dark": "#1c1c1e"},
                        {"name": "card", "role": "background", "color": "#f2f2f7", "dark": "#1c1c1e", "darkElevated": "#2c2c2e"},
                        {"name": "ink", "role": "text", "color": "#1c1c1e", "on": ["card"]}], "policy": "wcag-aa"}
            """##)
        #expect(r.status == 200, "\(r.text.prefix(300))")
        // The card's rows, and the text's on it, measure #2c2c2e in sheets.
        #expect(Self.variant(r, "card", "dark")?["elevated"]?["hex"] == "#2c2c2e")
        let inkRows = Self.variant(r, "ink", "dark")?["surfaces"]?.array ?? []
        #expect(inkRows.filter { $0["context"] == "dark-elevated" }.map { $0["surfaceHex"] } == ["#2c2c2e"], "\(inkRows)")
        #expect(inkRows.filter { $0["context"] == "dark-base" }.map { $0["surfaceHex"] } == ["#1c1c1e"])
        // A given dark is not lifted, and neither is the increased-contrast variant that starts
        // from it (it was lifted to #343436); the given #1c1c1e, Apple's sheet color, gets a note.
        #expect(Self.variant(r, "sheet", "dark")?["elevated"] == .null && Self.variant(r, "sheet", "darkIncreasedContrast")?["elevated"] == .null)
        let notes = Self.variant(r, "sheet", "dark")?["notes"]?.array?.compactMap(\.string) ?? []
        #expect(notes.contains { $0.hasPrefix("At the elevated level (sheets, popovers) it stays #1c1c1e, the color of systemBackground") && $0.contains("give darkElevated") }, "\(notes)")
        // Only backgrounds change with the level.
        let text = try live.request("POST", "/v1/palette/dark", body: ##"{"colors": [{"name": "ink", "color": "#000", "darkElevated": "#fff"}]}"##)
        #expect(text.status == 400 && text.json["pointer"] == "/colors/0/darkElevated" && text.json["conflictsWith"] == "/colors/0/role", "\(text.text)")
        // The Swift export writes the given elevated value, with Increase Contrast too when that
        // setting has no value of its own there (as `/v1/audit` reads the same members: a new
        // user's pass found the export's sheet under Increase Contrast at the base #1c1c1e, where
        // the audit measured #2c2c2e).
        let swift = try live.request("POST", "/v1/palette/export?format=swift", body: ##"{"colors": [{"name": "card", "role": "background", "color": "#f2f2f7", "dark": "#1c1c1e", "darkElevated": "#2c2c2e"}]}"##)
        #expect(swift.text.contains("return high ? (elevated ? rgb(0x2C, 0x2C, 0x2E) : rgb(0x1C, 0x1C, 0x1E)) : (elevated ? rgb(0x2C, 0x2C, 0x2E) : rgb(0x1C, 0x1C, 0x1E))"), "\(swift.text)")
        #expect(Self.variant(r, "card", "darkIncreasedContrast")?["elevated"]?["hex"] == "#2c2c2e")
        let icRows = Self.variant(r, "ink", "darkIncreasedContrast")?["surfaces"]?.array ?? []
        #expect(icRows.filter { $0["context"] == "dark-increased-elevated" }.map { $0["surfaceHex"] } == ["#2c2c2e"], "\(icRows)")
        let icNotes = Self.variant(r, "card", "darkIncreasedContrast")?["notes"]?.array?.compactMap(\.string) ?? []
        #expect(icNotes.contains { $0.contains("darkElevated as given") && $0.contains("give darkIncreasedContrastElevated") }, "\(icNotes)")
        // A value of that setting's own is kept there: given `darkIncreasedContrast`, no fallback.
        let own = try live.request("POST", "/v1/palette/dark", body: ##"{"colors": [{"name": "card", "role": "background", "color": "#f2f2f7", "dark": "#1c1c1e", "darkElevated": "#2c2c2e", "darkIncreasedContrast": "#000000"}]}"##)
        #expect(Self.variant(own, "card", "darkIncreasedContrast")?["elevated"] == .null, "\(own.text.prefix(300))")
    }

    @Test("/v1/audit measures darkElevated at the elevated level, as the Swift export shows it")
    func auditTakesElevatedValues() throws {
        let live = try LiveServer()
        let r = try live.request("POST", "/v1/audit", body: ##"""
            {"colors": [{"name": "card", "role": "background", "color": "#f2f2f7", "dark": "#121115", "darkElevated": "#29282d"},
                        {"name": "sub", "role": "secondaryText", "color": "#6e6e73", "dark": "#929298", "on": ["card"]}]}
            """##)
        #expect(r.status == 200, "\(r.text.prefix(300))")
        let sub = r.json["colors"]?.array?.first { $0["name"] == "sub" }
        let contexts = sub?["contexts"]?.array ?? []
        func surface(_ id: String) -> JSON? { contexts.first { $0["context"]?["id"]?.string == id }?["surfaces"]?.array?.first?["surfaceHex"] }
        #expect(surface("dark-base") == "#121115" && surface("dark-elevated") == "#29282d" && surface("dark-increased-elevated") == "#29282d",
                "\(contexts.map { ($0["context"]?["id"], $0["surfaces"]?.array?.first?["surfaceHex"]) })")
        // 4.7274:1 there (the WCAG 2 formula on #929298 over #29282d, in Python), where the base card gives 6.08.
        let ratio = contexts.first { $0["context"]?["id"]?.string == "dark-elevated" }?["surfaces"]?.array?.first?["ratio"]?.double ?? 0
        #expect(abs(ratio - 4.727441514628467) < 1e-9, "\(ratio)")
    }

    @Test("the SVG names the elevated value where its cell shows the elevated level")
    func svgNamesTheShownColor() throws {
        let live = try LiveServer()
        let svg = try live.request("POST", "/v1/palette/export?format=svg", body: ##"{"colors": [{"name": "surface", "role": "background", "color": "#ffffff"}], "policy": "wcag-aa"}"##)
        // White mirrors to #000000, lifted to #1c1c1c (and #242424 with Increase Contrast): the
        // cells drawn on those name them.
        #expect(svg.status == 200 && svg.text.contains("fill=\"#1c1c1c\"") && svg.text.contains("· #1c1c1c</text>"), "\(svg.text.prefix(2000))")
        for cell in svg.text.components(separatedBy: "<g>").dropFirst() where cell.contains("fill=\"#242424\"") {
            #expect(cell.contains("· #242424</text>"), "\(cell)")
        }
    }

    @Test("a gradient layer in a batch is named where it is")
    func batchNamesTheGradientLayer() throws {
        let live = try LiveServer()
        let r = try live.request("POST", "/v1/contrast/batch", body: ##"{"pairs": [{"foreground": "#000", "background": "#fff"}, {"foreground": "#000", "background": "#fff", "layers": ["#0001", {"color": "linear-gradient(#000, #fff)"}]}]}"##)
        #expect(r.status == 400 && r.json["pointer"] == "/pairs/1/layers/1/color", "\(r.text)")
    }
}
