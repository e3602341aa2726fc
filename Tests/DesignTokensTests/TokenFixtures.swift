import Foundation
import TestSupport
@testable import DesignTokens

/// The real token files under `Tests/Fixtures/tokens/` (copies of ../shared/cases/tokens, see
/// its SOURCES.md), as `TokenFile`s named by their path inside the case folder.
enum TokenFixtures {
    /// `names` (paths inside `tokens/<folder>/`) read as token files; `modes` gives some a mode.
    static func files(_ folder: String, _ names: [String], modes: [String: String] = [:]) throws -> [TokenFile] {
        try names.map { name in
            let url = FixtureLoader.url("tokens/\(folder)/\(name)")
            return TokenFile(name: name, content: try String(contentsOf: url, encoding: .utf8), mode: modes[name])
        }
    }

    static func figmaSDS() throws -> [TokenFile] { try files("dtcg/figma-sds", ["tokens.json"]) }

    static func terrazzoLegacy() throws -> [TokenFile] {
        try files("dtcg/terrazzo-figma-sds-legacy", ["figma-sds-legacy.tokens.json"])
    }

    static let resolverNames = ["color.resolver.json", "light.tokens.json", "light-colorblind.tokens.json",
                                "light-high-contrast.tokens.json", "dark.tokens.json", "dark-dimmed.tokens.json",
                                "dark-high-contrast.tokens.json", "dark-colorblind.tokens.json"]
    static func resolverPrimer() throws -> [TokenFile] { try files("dtcg/terrazzo-resolver-primer", resolverNames) }

    static let spectrumThemes = ["light", "dark", "darkest", "wireframe"]
    static let spectrumSetNames = ["palette", "alias", "component", "icon"].flatMap { kind in
        spectrumThemes.map { "spectrum/\(kind)/\($0).json" }
    }
    static func tokensStudioSpectrum() throws -> [TokenFile] {
        try files("tokens-studio/adobe-spectrum-colors", ["$themes.json", "$metadata.json"] + spectrumSetNames)
    }

    static func figmaREST() throws -> [TokenFile] {
        try files("figma-rest-api/terrazzo-primer-figma", ["get-local-variables.json"])
    }

    static func materialDSP() throws -> [TokenFile] { try files("material3/material-tokens-dsp", ["dsp/data/tokens.json"]) }

    static func materialJSON() throws -> [TokenFile] {
        try files("material3/material-tokens-json-branch", ["json/themes/light.json", "json/themes/dark.json", "json/palette.json"])
    }

    static func spectrumStyleDictionary() throws -> [TokenFile] {
        try files("style-dictionary/adobe-spectrum-sets", ["color-palette.json", "semantic-color-palette.json", "color-aliases.json"])
    }

    static func materialStyleDictionary() throws -> [TokenFile] {
        try files("style-dictionary/material-tokens-sd", ["properties/colors.json"])
    }

    /// One JSON text as a file.
    static func text(_ content: String, name: String = "test.json", mode: String? = nil) -> [TokenFile] {
        [TokenFile(name: name, content: content, mode: mode)]
    }
}

extension TokenSet {
    /// The token at `path` (nil when absent).
    subscript(path: String) -> DesignToken? { tokens.first { $0.path == path } }

    /// Tokens whose base or some mode value is a color or an alias (not an opacity or number
    /// kept as text for `{references}` inside colors: `DesignToken.isComponentText`).
    var colorTokenCount: Int {
        tokens.filter { t in
            !t.isComponentText && ([t.base].compactMap { $0 } + Array(t.modes.values)).contains { if case .other = $0 { return false } else { return true } }
        }.count
    }
}

extension TokenLocation {
    /// `file:line:column`, for comparisons in expectations.
    var text: String { "\(file):\(line):\(column)" }
}

/// Runs `body` and returns the `TokenError` it throws (nil when it does not throw).
func tokenError(_ body: () throws(TokenError) -> TokenSet) -> TokenError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The 8-bit sRGB channels of `color(srgb r g b / a)` text, for checking Figma and DTCG values
/// against the hex their sources document.
func srgb8(_ css: String) -> [Int]? {
    guard css.hasPrefix("color(srgb "), css.hasSuffix(")") else { return nil }
    let inner = css.dropFirst("color(srgb ".count).dropLast()
    let parts = inner.split(separator: "/")[0].split(separator: " ").compactMap { Double($0) }
    guard parts.count == 3 else { return nil }
    return parts.map { Int(($0 * 255).rounded()) }
}
