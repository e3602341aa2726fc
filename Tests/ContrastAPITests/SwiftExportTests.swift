import Foundation
import Testing
import JSONValue
@testable import ContrastAPI
import TestSupport

/// `/v1/palette/export?format=swift` (an iOS designer's pass: an asset catalog cannot hold
/// Apple's elevated dark values, and it froze system colors as hex; in code a system color
/// stays `UIColor.secondarySystemBackground`, which UIKit resolves per level). The file is type-checked
/// by the toolchain's own `swiftc` against stand-ins for the UIKit and SwiftUI declarations it
/// uses (this machine has neither), in Swift 6 mode; its values are read back and compared with
/// `/v1/palette/dark`'s answer.
struct SwiftExportTests {
    static let body = ##"""
        {"name": "Brand colors", "colors": [{"name": "brand tint", "role": "tint", "color": "#5B4CF0"},
         {"name": "card", "role": "background", "color": "secondarySystemBackground", "increasedContrast": "#e5e5ea"},
         {"name": "sheet", "role": "background", "color": "secondarySystemBackground"},
         {"name": "default", "color": "systemBlue"}, {"name": "rgb", "color": "#333333"},
         {"name": "scrim", "role": "background", "color": "#00000066"}]}
        """##

    /// What the file needs of UIKit and SwiftUI, as their SDKs declare it (iOS 17: UIColor is
    /// Sendable, its dynamic provider a `@Sendable` closure).
    static let stubs = """
        import Foundation
        enum UIUserInterfaceStyle: Sendable { case unspecified, light, dark }
        enum UIAccessibilityContrast: Sendable { case unspecified, normal, high }
        enum UIUserInterfaceLevel: Sendable { case unspecified, base, elevated }
        final class UITraitCollection: Sendable {
            let userInterfaceStyle = UIUserInterfaceStyle.light
            let accessibilityContrast = UIAccessibilityContrast.normal
            let userInterfaceLevel = UIUserInterfaceLevel.base
        }
        final class UIColor: @unchecked Sendable {
            init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
            init(displayP3Red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
            init(dynamicProvider: @escaping @Sendable (UITraitCollection) -> UIColor) {}
            static let systemBlue = UIColor(red: 0, green: 0.53, blue: 1, alpha: 1)
            static let secondarySystemBackground = UIColor(red: 0.95, green: 0.95, blue: 0.97, alpha: 1)
        }
        struct Color: Sendable { init(uiColor: UIColor) {} }

        """

    func export(_ live: LiveServer, _ extra: String = "") throws -> Reply {
        let body = extra.isEmpty ? Self.body : String(Self.body.dropLast(1)) + extra + "}"
        return try live.request("POST", "/v1/palette/export?format=swift", body: body)
    }

    @Test("the Swift export type-checks and holds the palette's values, system colors by name")
    func swiftExport() throws {
        let live = try LiveServer()
        let r = try export(live)
        #expect(r.status == 200 && r.headers["content-type"] == "text/x-swift; charset=utf-8", "\(r.text)")
        #expect(r.headers["content-disposition"] == "inline; filename=\"Brand colors.swift\"")
        let source = r.text
        #expect(source.contains("enum BrandColors {"))
        #expect(source.contains("// Failing their targets: "), "\(source.prefix(600))")
        // System color names stay system colors; a name that is a keyword is backquoted; a color
        // named as the helper gets another name.
        #expect(source.contains("    static let sheet = UIColor.secondarySystemBackground\n"), "\(source)")
        #expect(source.contains("    static let `default` = UIColor.systemBlue\n    static let defaultColor = Color(uiColor: `default`)\n"), "\(source)")
        #expect(source.contains("    static let rgb2 = UIColor { traits in"), "\(source)")
        // The values of /v1/palette/dark: the card, a system background given a light
        // increased-contrast value of its own, is a custom color whose other variants are
        // generated, written out as such.
        let dark = try live.request("POST", "/v1/palette/dark", body: String(Self.body.replacingOccurrences(of: #""name": "Brand colors", "#, with: "")))
        func hex(_ name: String, _ variant: String) -> String {
            let color = dark.json["colors"]?.array?.first { $0["name"]?.string == name }
            return color?["variants"]?[variant]?["hex"]?.string ?? "?"
        }
        func rgb(_ hex: String) -> String {
            let h = Array(hex.dropFirst().uppercased())
            return "rgb(0x\(String(h[0...1])), 0x\(String(h[2...3])), 0x\(String(h[4...5]))"
        }
        #expect(source.contains("return high ? \(rgb(hex("brand tint", "darkIncreasedContrast")))) : \(rgb(hex("brand tint", "dark"))))\n"), "\(source)")
        // The card, a light surface mirrored dark, climbs at the elevated level (sheets,
        // popovers) as Apple's backgrounds do: the file picks its elevated value by
        // `userInterfaceLevel`, which an asset catalog cannot.
        func elevatedHex(_ name: String, _ variant: String) -> String {
            let color = dark.json["colors"]?.array?.first { $0["name"]?.string == name }
            return color?["variants"]?[variant]?["elevated"]?["hex"]?.string ?? "?"
        }
        func level(_ variant: String) -> String {
            "(elevated ? \(rgb(elevatedHex("card", variant)))) : \(rgb(hex("card", variant)))))"
        }
        #expect(elevatedHex("card", "dark") != "?" && elevatedHex("card", "dark") != hex("card", "dark"))
        #expect(source.contains("            let elevated = traits.userInterfaceLevel == .elevated\n"
            + "            return high ? \(level("darkIncreasedContrast")) : \(level("dark"))\n"), "\(source)")
        #expect(source.contains("dark \(hex("card", "dark")) (elevated \(elevatedHex("card", "dark"))), "), "\(source)")
        #expect(source.contains("return high ? rgb(0xE5, 0xE5, 0xEA) : rgb(0xF2, 0xF2, 0xF7)\n"), "\(source)")
        #expect(source.contains("rgb(0x00, 0x00, 0x00, 0.4)"), "\(source)")
        try Self.typeCheck(source)
        // Display P3: p3(…) components, type-checked too.
        let p3 = try export(live, #", "colorSpace": "display-p3""#)
        #expect(p3.status == 200 && p3.text.contains("UIColor(displayP3Red: red, green: green, blue: blue, alpha: alpha)"), "\(p3.text)")
        try Self.typeCheck(p3.text)
        // A hostile pass: the palette name became the enum's (`enum Self` does not parse, `enum
        // CGFloat` hid the helper's type, `enum String` every String of the app); names with bidi
        // overrides or zero-width spaces reached the comments.
        for (name, type) in [("Self", "SelfColors"), ("CGFloat", "CGFloatColors"), ("String", "StringColors"), ("Any", "AnyColors"), ("Palette", "Palette")] {
            let r = try live.request("POST", "/v1/palette/export?format=swift", body: ##"{"name": "\##(name)", "colors": [{"name": "ink\u202eevil\u200b", "color": "#123456"}]}"##)
            #expect(r.status == 200 && r.text.contains("enum \(type) {"), "\(name): \(r.text.prefix(400))")
            #expect(!r.text.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(name): a format character in \(r.text)")
            try Self.typeCheck(r.text)
        }
        let css = try live.request("POST", "/v1/palette/export?format=css", body: ##"{"colors": [{"name": "</style><script>\u202e", "color": "#777777"}]}"##)
        #expect(css.status == 200 && !css.text.contains("</style>") && !css.text.unicodeScalars.contains { $0.properties.generalCategory == .format }, "\(css.text.prefix(600))")
    }

    /// `swiftc -typecheck -swift-version 6` of `source` with the stand-ins, its UIKit import read
    /// as Foundation (which declares CGFloat here) and its SwiftUI import left out; fails with the
    /// compiler's messages.
    /// Names as a Swift developer writes them (a new user's pass): an acronym lowered whole
    /// (`UIColor` had been `uIColor`), letters beyond ASCII kept (`é accent` had been `accent`),
    /// and `self` and `init`, which after a type name are its metatype and initializer whatever
    /// a member is called (`Palette.self` returned the metatype), given a `2`.
    @Test("Swift names: acronyms, letters beyond ASCII, self and init")
    func swiftNames() throws {
        let live = try LiveServer()
        let names = ["UIColor", "é accent", "self", "init", "URL string", "名前"]
        let colors = names.enumerated().map { i, n in ##"{"name": "\##(n)", "color": "#\##(String(format: "%02x", 16 + i))3456"}"## }.joined(separator: ", ")
        let r = try live.request("POST", "/v1/palette/export?format=swift", body: #"{"name": "UIKit extras", "colors": [\#(colors)]}"#)
        #expect(r.status == 200, "\(r.text.prefix(300))")
        for declared in ["enum UIKitExtrasColors {", "static let uiColor = ", "static let éAccent = ", "static let self2 = ", "static let init2 = ",
                         "static let urlString = ", "static let 名前 = "] {
            #expect(r.text.contains(declared), "\(declared): \(r.text)")
        }
        #expect(!r.text.contains("static let `self`") && !r.text.contains("static let `init`"))
        try Self.typeCheck(r.text)
    }

    static func typeCheck(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let found = try #require(swiftc, "swiftc is not found: the Swift export cannot be type-checked", sourceLocation: sourceLocation)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swift-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 == "import UIKit" ? "import Foundation" : $0 }.filter { $0 != "import SwiftUI" }.joined(separator: "\n")
        try Self.stubs.write(to: dir.appendingPathComponent("Stubs.swift"), atomically: true, encoding: .utf8)
        try body.write(to: dir.appendingPathComponent("Palette.swift"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: found)
        p.arguments = ["-typecheck", "-swift-version", "6", dir.appendingPathComponent("Stubs.swift").path, dir.appendingPathComponent("Palette.swift").path]
        let pipe = Pipe()
        p.standardError = pipe
        p.standardOutput = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "swiftc: \(output)\n\(body)", sourceLocation: sourceLocation)
    }
}
