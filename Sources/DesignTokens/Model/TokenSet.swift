import ColorScience

// The design-token model every format reader produces (DTCG 2025.10 terms: token, group, alias,
// mode): each token's value per mode, where it is written, and what is not a color.

/// A design-token or theme file as submitted: its name (used in messages and report locations),
/// its text (so line numbers survive), and optionally the mode all its tokens belong to (one file
/// per mode, e.g. `light.tokens.json` and `dark.tokens.json`).
public struct TokenFile: Sendable, Equatable {
    public var name: String
    public var content: String
    public var mode: String?

    public init(name: String, content: String, mode: String? = nil) {
        self.name = name
        self.content = content
        self.mode = mode
    }
}

/// Where something is written: file name, 1-based line and column (in Unicode scalars) of a
/// token's key or declaration.
public struct TokenLocation: Sendable, Hashable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
}

/// One token's value in one mode, as written (before aliases are followed).
public enum TokenValue: Sendable, Equatable {
    /// A color as CSS text, with the format's own conventions already undone: Figma's 0–1 floats
    /// and DTCG 2025.10 color objects become `color(srgb r g b / a)` (or their `colorSpace`),
    /// shadcn's bare HSL triplets `hsl(…)`, Material's channel triplets `rgb(…)`. In CSS formats
    /// the text may hold `var(--x)` inside functions (`color-mix(in oklab, var(--x) 50%, white)`).
    case css(String)
    /// The whole value is another token (DTCG and Tokens Studio `{color.blue.500}`, Style
    /// Dictionary `{name.value}`, Figma `VARIABLE_ALIAS`, CSS `var(--x)`), by its path.
    case alias(String)
    /// Not a color (a dimension, number, shadow, gradient, font …): skipped and counted.
    case other(type: String)

    /// The type of a gradient: DTCG 2025.10's composite type `gradient`, and a CSS custom property
    /// holding a CSS gradient (`linear-gradient(…)`, CSS Images 3 §3). Its pairs are made as a
    /// color's are, then left unmeasured with a warning naming them (`TokenAudit.audit`), so that
    /// text on it is not silently unchecked.
    public static let gradientType = "gradient"

    /// Whether the value is a gradient (`gradientType`).
    public var isGradient: Bool {
        if case .other(let type) = self { return type == Self.gradientType }
        return false
    }

    /// The type of a CSS custom property whose value is `var()` of itself (`--a: var(--a)`):
    /// no color, and a cycle where `var()` meets it.
    public static let selfReferenceType = "self-reference"

    /// Whether the value is CSS text holding `light-dark()`, which reads the color scheme.
    public var readsColorScheme: Bool {
        if case .css(let text) = self { return text.lowercased().contains("light-dark(") }
        return false
    }
}

/// One design token: its path, its value in the base (every mode unless overridden) and per mode,
/// and where each is written.
public struct DesignToken: Sendable, Equatable {
    /// The token's name as pair rules match it: DTCG/Tokens Studio dotted path
    /// (`color.text.default`), Figma variable name (`fgColor/default`), CSS custom property
    /// (`--foreground`), Material id (`md.sys.color.on-primary`).
    public var path: String
    /// The value in every mode that does not override it (CSS `:root`, DTCG `$value`).
    public var base: TokenValue?
    /// Mode name → value there.
    public var modes: [String: TokenValue]
    /// Where the base value (or the first definition) is written.
    public var location: TokenLocation
    /// Mode name → where that mode's value is written, when not at `location`.
    public var modeLocations: [String: TokenLocation]
    /// The declared type when the format has one (`color`, `dimension`, …).
    public var type: String?

    public init(path: String, base: TokenValue?, modes: [String: TokenValue] = [:], location: TokenLocation,
                modeLocations: [String: TokenLocation] = [:], type: String? = nil) {
        self.path = path
        self.base = base
        self.modes = modes
        self.location = location
        self.modeLocations = modeLocations
        self.type = type
    }

    /// The value in `mode` (its override, else the base).
    public func value(in mode: String?) -> TokenValue? {
        if let mode, let v = modes[mode] { return v }
        return base
    }

    /// Where the value in `mode` is written.
    public func location(in mode: String?) -> TokenLocation {
        if let mode, let l = modeLocations[mode] { return l }
        return location
    }
}

extension DesignToken {
    /// The types of CSS custom properties kept as text for `var()` inside colors, not colors
    /// themselves: Material's channel triplets (`rgb(var(--x-rgb))`), and numbers, percentages
    /// and angles (`hsl(240 5% var(--l))`, `rgb(var(--r) 20 30)`).
    public static let componentTypes: Set<String> = ["channels", "number", "percentage", "angle", "opacity"]

    /// Whether the token is such text (`componentTypes`): `var()` reads it, an audit skips it.
    public var isComponentText: Bool { type.map(Self.componentTypes.contains) ?? false }
}

/// The formats read (detected from content, or named by `tokenFormat`).
public enum TokenFormat: String, Sendable, CaseIterable {
    /// W3C Design Tokens (DTCG 2025.10): `$value`, `$type` inheritance, `{a.b}` aliases, modes in
    /// `$extensions` (Terrazzo `mode`, Figma SDS `com.figma.sds.modes`) or one file per mode, and
    /// the 2025.10 resolver document.
    case dtcg
    /// Tokens Studio: token sets with `value`/`type` and `$themes.json`/`$metadata.json`.
    case tokensStudio = "tokens-studio"
    /// Style Dictionary's older `value` format, with `{name}` / `{a.b.value}` references and the
    /// `sets` extension (light/dark/… per token).
    case styleDictionary = "style-dictionary"
    /// Figma Variables REST API (`GET /v1/files/:key/variables/local`).
    case figmaVariables = "figma-variables"
    /// CSS custom properties: `:root`, `.dark`, `[data-theme=…]`, `@media (prefers-color-scheme)`
    /// and `(prefers-contrast: more)` blocks as modes.
    case css
    /// Tailwind CSS v4: `@theme { --color-…: … }` (and the CSS around it).
    case tailwind
    /// Material Theme Builder exports: DSP `entities` and the flat dotted-key JSON.
    case material
}

/// All tokens of the submitted files, with the modes they define.
public struct TokenSet: Sendable {
    public var format: TokenFormat
    /// Whether the files are stylesheets (CSS or Tailwind), where values are CSS as a browser
    /// reads it: hex needs its `#`, and a token's type is decided value by value.
    public var isStylesheet: Bool { format == .css || format == .tailwind }
    /// Tokens in file order.
    public var tokens: [DesignToken]
    /// Modes in the order the files define them; empty when the files have none (one mode).
    public var modes: [String]
    /// What the reader wants said (a file read as a given mode, a quirk handled).
    public var notes: [String]
    /// Paths of the tokens written as shadcn's bare HSL triplets (`--muted: 240 4.8% 95.9%`, read
    /// as `hsl(…)`): a color suggested for one is written so too (`TokenNotation`).
    public var bareHSLTriplets: Set<String>
    /// The color scheme a mode's rules declare (CSS Color Adjustment 1 §2.1, `color-scheme:
    /// dark` on `[data-theme="midnight"]`), which `light-dark()` takes there (CSS Color 5 §5);
    /// modes not in it go by their name (`colorScheme(in:)`).
    public var colorSchemes: [String: CSSColorScheme]
    /// Custom properties an import defines outside the files: Tailwind v4's default palette for
    /// `@import "tailwindcss"` (`TailwindPalette`). `var()` in a token's value may use them; they
    /// are not tokens (no pattern matches them), and a token or a request's `variables` of the
    /// same name wins.
    public var defaultVariables: [String: String] = [:]
    /// The mode whose values the base holds too (daisyUI's `default: true` theme, written as
    /// `:where(:root)` and `[data-theme=x]`): the base is not audited again beside it.
    public var baseMode: String? = nil
    /// Whether the base values alone are a state a page or app can show. A DTCG 2025.10 resolver
    /// with modifiers always takes one context of each (its `default` when none is asked for),
    /// so its base (the sets alone) is no state and is not audited as one (a hostile pass:
    /// contexts `acme` and `globex` were audited beside a `default` where the sets' alias to a
    /// context's token had no value).
    public var baseIsAState = true
    /// The modes that are states no rule is written for (CSS: `dark + high-contrast`, where modes
    /// toggled apart hold at once), each with the modes it combines, in the order of its name.
    public var combinedStates: [String: [String]] = [:]
    /// Modes that are component scopes (CSS: a rule whose selector names no theme, color
    /// scheme or contrast, Bootstrap's `.btn-primary`): there a pair is audited only when one
    /// of its colors differs from the base's (through aliases or `var()`); otherwise it is the
    /// base's pair again (`TokenAudit`).
    public var scopes: Set<String> = []
    /// CSS: modes of an element below another (`.dark .card`, `.card .title`): a custom
    /// property not set on the element itself is the value its ancestor computed, inherited
    /// (CSS Variables 1 §3: `var()` is substituted where it is declared), so it is resolved in
    /// the ancestor's mode (nil: the base), not again with the element's values.
    public var descendantModes: [String: DescendantMode] = [:]
    /// CSS: the color scheme the root element's base rule declares in a file with other modes
    /// (`:root { color-scheme: light }`), which every mode declaring none inherits
    /// (`colorSchemes` holds it for each); the page is then never shown in the other scheme.
    public var baseColorScheme: CSSColorScheme? = nil
    /// CSS: whether the files declare `color-scheme` anywhere, with any value (`light dark`,
    /// `normal` included; `prefers-color-scheme` is a media feature, not a declaration).
    public var declaresColorScheme = false
    /// CSS: modes of the page under a condition the reader does not know (`@media (min-width:
    /// 768px) :root`, `@media print`), which resolve `var()` with their own values as the base
    /// does: the page at that width or on that medium, whose pairs are audited only where one of
    /// their colors differs from the base's (a width query setting `--radius` had repeated
    /// every pair of the base).
    public var conditionalModes: Set<String> = []
    /// Modes whose color scheme a stylesheet states by negating the other (`:root:not(.dark)`
    /// is the light side): the base then stands for the state the negated class holds.
    public var negatedSchemeModes: Set<String> = []
    /// Component scopes left out because the files make more modes than an audit holds
    /// (`CSSThemeReader.pruneScopes`), named when a request asks for one.
    public var droppedScopes: Set<String> = []
    /// What the files make that a browser shows but the audit could not hold (CSS: combined
    /// states and component scopes past `TokenFormats.maximumModes`): warnings of the report, so
    /// that `failOn: "warning"` fails on them (`TokenAuditReport.coverageWarnings`).
    public var coverageWarnings: [String] = []
    /// Tokens the files do not define and nobody editing them can change (the Apple preset's iOS
    /// system backgrounds): measured like any other, never given a suggested color (a new
    /// user's pass: the audit had told them to repaint `apple.secondarySystemBackground`).
    public var fixedTokens: Set<String> = []
    /// Where ContrastService's own palette export placed a token
    /// (`$extensions["com.contrastservice"]`: `role`, and `on`, the palette names of the
    /// backgrounds it sits on), by path: the Apple preset measures such a file's pairs as the
    /// palette did (a background is not text; text placed `on` backgrounds is measured there,
    /// and on the system backgrounds only with `onSystemBackgrounds`).
    public var placements: [String: TokenPlacement] = [:]
    /// Figma: variables of a library (remote) collection named as a local one, beside a local
    /// variable of the same name (`mode (library)/fgColor/muted` beside `fgColor/muted`). Presets
    /// pair the local ones only; a request's rules reach both.
    public var libraryCopies: Set<String> = []
    /// Why a token the reader could not turn into a color is unresolved, by path (a Tokens
    /// Studio modifier it cannot compute: "its modifier's value '1e308' is beyond ±1,000,000 …"),
    /// said in the pair's error.
    public var unresolvedReasons: [String: String] = [:]
    /// Tokens that are one mode's value of another (Style Dictionary's `_light` and `_dark` key
    /// suffixes, folded into the token without them: `StyleDictionaryReader`): aliases and a
    /// rule naming one exactly reach them; patterns do not, so that a pair is not audited once
    /// per suffix in every mode.
    public var modeVariants: Set<String> = []

    public init(format: TokenFormat, tokens: [DesignToken], modes: [String], notes: [String] = [],
                bareHSLTriplets: Set<String> = [], colorSchemes: [String: CSSColorScheme] = [:]) {
        self.format = format
        self.tokens = tokens
        self.modes = modes
        self.notes = notes
        self.bareHSLTriplets = bareHSLTriplets
        self.colorSchemes = colorSchemes
    }

    /// The color scheme `light-dark()` takes in `mode` (nil: the base values, light): the one
    /// its rules declare (`colorSchemes`), else dark when the mode's name says so (`dark`,
    /// `zinc-dark`, Primer's `dark_dimmed`), else light.
    public func colorScheme(in mode: String?) -> CSSColorScheme {
        guard let mode else { return .light }
        if let declared = colorSchemes[mode] { return declared }
        return mode.lowercased().contains("dark") ? .dark : .light
    }
}

/// Why files could not be read: which file, token and line, and why.
public struct TokenError: Error, Sendable, Equatable {
    public var file: String?
    public var path: String?
    public var location: TokenLocation?
    public var reason: String
    /// Set when the error is a limit of the audit's size (pairs, matching work, answer), not a
    /// fault of the files: the limit's value (the API answers 422 `limit-exceeded` naming the
    /// rules).
    public var limit: Int?
    /// Set when the error is a pair of an audit that could not be resolved in a mode (so the
    /// caller can say how to get past it: report such pairs, or audit other modes).
    public var unresolvedPair: UnresolvedPair?
    /// Set when the fault is in the modes the caller asked for (`TokenAuditOptions.modes`: one
    /// the files do not have), not in the files (the API names its `modes` field).
    public var inRequestedModes = false

    /// Where an unresolvable pair was met: the mode, and the audit's modes in which the pair's
    /// token does resolve.
    public struct UnresolvedPair: Sendable, Equatable {
        public var mode: String?
        public var resolvesIn: [String]
        public init(mode: String?, resolvesIn: [String]) {
            self.mode = mode
            self.resolvesIn = resolvesIn
        }
    }

    public init(file: String? = nil, path: String? = nil, location: TokenLocation? = nil, reason: String, limit: Int? = nil) {
        self.file = file
        self.path = path
        self.location = location ?? nil
        self.reason = reason
        self.limit = limit
    }

    /// `'text'`, or `'first 64 characters…' (N characters, shortened)` for a longer text: client
    /// text in messages is bounded as the API's problems bound it (docs/api/errors.md, "Client
    /// text in problems").
    public static func quoted<S: StringProtocol>(_ text: S) -> String {
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var n = 0
        while n < 64, end != scalars.endIndex { scalars.formIndex(after: &end); n += 1 }
        if end == scalars.endIndex { return "'\(text)'" }
        let length = n + scalars[end...].count
        return "'\(String(String.UnicodeScalarView(scalars[..<end])))…' (\(length) characters, shortened)"
    }

    /// "theme.css line 12: --brand: …" style text.
    public var message: String {
        var where_ = ""
        if let location { where_ = "\(location.file) line \(location.line), column \(location.column)" }
        else if let file { where_ = file }
        let token = path.map { "token \(TokenError.quoted($0))" }
        let parts = [where_.isEmpty ? nil : where_, token].compactMap { $0 }.joined(separator: ", ")
        return parts.isEmpty ? reason : "\(parts): \(reason)"
    }
}

/// A reader of one format.
public protocol TokenFormatReader {
    /// The format read.
    static var format: TokenFormat { get }
    /// Whether `files` look like this format (cheap checks of content and names).
    static func detect(_ files: [TokenFile]) -> Bool
    /// The tokens of `files`.
    /// - Throws: `TokenError` naming the file, token and line for malformed input.
    static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet
}

/// A token's place in a ContrastService palette, as its export writes it
/// (`$extensions["com.contrastservice"]`).
public struct TokenPlacement: Sendable, Equatable {
    /// The palette role (`text`, `secondaryText`, `tint`, `icon`, `nonText`, `background`).
    public var role: String
    /// Paths of the tokens it is placed on (resolved from the export's palette names).
    public var on: [String]
    /// Whether the system backgrounds count as its surfaces too (true when `on` is empty).
    public var onSystemBackgrounds: Bool
    /// The palette's targets for it (`target`, `increasedContrastTarget`: metric, minimum,
    /// basis), which its pairs are judged by (nil when the file has none or an unreadable one).
    public var target: ContrastTarget?
    public var increasedTarget: ContrastTarget?
    /// The palette's own verdict by mode (`passes`), for what the audit cannot measure as a pair
    /// of tokens (a background judged by the system label).
    public var palettePasses: [String: Bool]

    public init(role: String, on: [String] = [], onSystemBackgrounds: Bool = true,
                target: ContrastTarget? = nil, increasedTarget: ContrastTarget? = nil, palettePasses: [String: Bool] = [:]) {
        (self.role, self.on, self.onSystemBackgrounds) = (role, on, onSystemBackgrounds)
        (self.target, self.increasedTarget, self.palettePasses) = (target, increasedTarget, palettePasses)
    }
}

/// A mode of an element below another (`TokenSet.descendantModes`).
public struct DescendantMode: Sendable, Equatable {
    /// The mode of the ancestor (`dark` for `.dark .card`), nil for the base.
    public var ancestor: String?
    /// The tokens set on the element itself: by the mode's own rules or by rules for the
    /// element's own parts (`.card` in `.dark .card`).
    public var declared: Set<String>

    public init(ancestor: String?, declared: Set<String>) { (self.ancestor, self.declared) = (ancestor, declared) }
}
