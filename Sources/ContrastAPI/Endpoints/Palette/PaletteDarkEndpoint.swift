import AppleDesign
import ColorScience
import HTTPServer
import JSONValue

/// `POST /v1/palette/dark`: dark-mode and increased-contrast variants of a light palette, each
/// measured on every Apple surface it sits on (`DarkVariants`; method in docs/algorithms/palettes.md, "Dark variants").
///
/// Request: see `PaletteRequest` (colors with roles, policy or targets, generation).
///
/// Response: `{"policy", "generation", "adjustLight", "passes", "summary": {"colors", "passing",
/// "failing", "changedInDark"}, "variants": [{"variant", "title", "contexts"}], "colors":
/// [{"name", "role", "input", "target", "increasedContrastTarget", "on", "onSystemBackgrounds",
/// "variants": {"light", "dark", "lightIncreasedContrast", "darkIncreasedContrast"}, "passes",
/// "failingVariants"}], "method", "notes"}`. A variant is `{"hex", "rgba", "oklch", "gamutMapped", "elevated" (a
/// background's value at the elevated level when it differs, else null), "method":
/// "original" | "given" | "unchanged" | "mirrored" | "adjusted" | "bestEffort", "direction",
/// "start", "target", "deltaEOK", "deltaE2000" (from the light original), "contexts",
/// "surfaces": [{"context", "surface", "surfaceHex", "foreground", "effectiveForeground",
/// "ratio", "ratioText", "apcaLc", "value", "passes"}], "worst", "passes", "failingSurfaces",
/// "suggestion"?, "notes"}`.
struct PaletteDarkEndpoint {
    let maxPaletteSize: Int

    func handle(_ request: HTTPRequest) throws(Problem) -> JSON {
        let req = try PaletteRequest.parse(try Fields.body(request), limit: maxPaletteSize)
        let results = try req.generate()
        try request.stopIfAbandoned()
        return PaletteJSON.response(req, results)
    }
}
