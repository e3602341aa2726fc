import AppleDesign
import ColorScience

// Which token pairs an audit checks: rules a design system states (foreground and background
// patterns, a role or text size, a policy) and presets for the conventions of popular systems.

/// What the foreground of a pair is.
public enum PairRole: String, Sendable, CaseIterable {
    /// Body text (WCAG 2.2 SC 1.4.3: 4.5:1 AA, 7:1 AAA).
    case text
    /// Large text, 18 pt or 14 pt bold and up (SC 1.4.3: 3:1 AA, 4.5:1 AAA).
    case largeText = "large-text"
    /// Icons and glyphs (SC 1.4.11: 3:1; APCA: Lc 45).
    case icon
    /// Other non-text UI: borders, focus rings, chart marks (SC 1.4.11: 3:1).
    case nonText = "non-text"
    /// Text and parts of inactive (disabled) components: SC 1.4.3 and 1.4.11 set them no
    /// minimum, so the pair is measured and listed but never fails (nor gets a suggestion).
    case disabled
}

/// The rule set pairs are judged by.
public enum TokenPolicy: String, Sendable, CaseIterable {
    /// WCAG 2.2 AA (SC 1.4.3, 1.4.11).
    case wcagAA = "wcag-aa"
    /// WCAG 2.2 AAA (SC 1.4.6; non-text stays SC 1.4.11).
    case wcagAAA = "wcag-aaa"
    /// APCA 0.0.98G-4g: the font lookup for text, Lc 45 for icons and non-text.
    case apca
    /// Apple HIG: 4.5:1, 7:1 for small custom-colored text.
    case hig

    var apple: AppleContrastPolicy {
        switch self {
        case .wcagAA: return .wcagAA
        case .wcagAAA: return .wcagAAA
        case .apca: return .apca
        case .hig: return .hig
        }
    }
}

/// One rule: every foreground token matching `foreground` on every background token matching
/// `background` (with the same captures), judged as `role` at `fontSize`/`fontWeight` by `policy`.
public struct PairRule: Sendable {
    /// Foreground token paths (text, icon).
    public var foreground: TokenPattern
    /// Background token paths; captures of `foreground` substitute into it.
    public var background: TokenPattern
    /// What the foreground is.
    public var role: PairRole
    /// CSS px (nil: the role's default: 16 px for text, 24 px for large text).
    public var fontSize: Double?
    /// CSS weight 100–900 (nil: 400, or 700 nowhere implied).
    public var fontWeight: Int?
    /// Nil: the audit's policy.
    public var policy: TokenPolicy?
    /// A token composited under a translucent background (Primer's `-muted` backgrounds over
    /// `bgColor-default`); may use the captures.
    public var backdrop: TokenPattern?
    /// Where the rule comes from: "rules[2]" or "preset shadcn".
    public var source: String
    /// The preset the rule belongs to (nil: a rule of the request).
    public var preset: PairPreset? = nil
    /// For presets: whether a foreground match's captures make a pair (nil: every match does).
    /// Radix's solid-step rules refuse the alpha scales (`--amber-a11`, `amberA11`).
    public var accepts: (@Sendable ([String: String]) -> Bool)? = nil

    public init(foreground: TokenPattern, background: TokenPattern, role: PairRole = .text, fontSize: Double? = nil,
                fontWeight: Int? = nil, policy: TokenPolicy? = nil, backdrop: TokenPattern? = nil, source: String) {
        self.foreground = foreground
        self.background = background
        self.role = role
        self.fontSize = fontSize
        self.fontWeight = fontWeight
        self.policy = policy
        self.backdrop = backdrop
        self.source = source
    }

    /// The minimum this rule asks under `policy`: WCAG 2.2 SC 1.4.3/1.4.6/1.4.11, APCA's font
    /// lookup (apca-w3 0.1.9) for text and Lc 45 for icons and non-text ("APCA in a Nutshell"),
    /// or HIG, exactly as `/v1/audit` states them (`ContrastTarget.apple`).
    public func target(_ policy: TokenPolicy) -> ContrastTarget {
        let p = (self.policy ?? policy).apple
        let weight = fontWeight ?? 400
        switch role {
        case .text, .largeText:
            let px = fontSize ?? (role == .largeText ? 24 : 16)
            // CSS px → pt (WCAG's large text is 18 pt = 24 px, or 14 pt = 18.67 px bold).
            var text = AppleTextRequirement(points: px * 0.75, weight: weight, apcaPx: px)
            text.isAssumedSize = fontSize == nil
            return ContrastTarget.apple(role: .text, policy: p, text: text)
        case .icon:
            return ContrastTarget.apple(role: .icon, policy: p, text: nil)
        case .nonText:
            return ContrastTarget.apple(role: .nonText, policy: p, text: nil)
        case .disabled:
            let basis = "WCAG 2.2 SC 1.4.3 and 1.4.11: text and parts of an inactive user-interface component have no contrast requirement; measured, never failing"
            return p == .apca ? ContrastTarget.apcaLc(0, basis: basis) : ContrastTarget.ratio(1, basis: basis)
        }
    }
}

/// Pair conventions of popular design systems, each with its source.
public enum PairPreset: String, Sendable, CaseIterable {
    /// shadcn/ui: `--x-foreground` on `--x` (also as Tailwind v4's `--color-x-foreground`), a
    /// translucent `--x` over `--background`, and `--muted-foreground` on `--background`
    /// (ui.shadcn.com/docs/theming: "background and foreground convention").
    case shadcn
    /// Material 3: `on-x` on `x` for every role and container, `on-surface-variant` on the surface
    /// and its containers, `inverse-on-surface` and `inverse-primary` on `inverse-surface`
    /// (m3.material.io/styles/color/roles).
    case material3
    /// Radix Colors: steps 11 and 12 (low- and high-contrast text) on steps 1 and 2 (app and
    /// subtle backgrounds) of each scale (radix-ui.com/colors/docs/palette-composition/
    /// understanding-the-scale). Solid steps pair with solid steps. The alpha variants
    /// (`--amber-a11`, `amberA11`) are translucent colors meant to be laid over a page
    /// background, so the alpha text steps are composited over the scale's solid steps 1 and 2;
    /// an alpha step on an alpha step (`--amber-a11` on `--amber-a1`, nearly transparent) has
    /// nothing under it and is not a pair.
    case radix
    /// Primer: `fgColor-*` on `bgColor-*`: default and muted text on the default and muted
    /// backgrounds, `onEmphasis` on the emphasis backgrounds, role text on its muted background
    /// composited over `bgColor-default`, button text on its button (primer.style/foundations/
    /// primitives/color).
    case primer
    /// Apple: every color as text on the iOS system backgrounds (`systemBackground`,
    /// `secondarySystemBackground`, `tertiarySystemBackground` and the grouped ones), as
    /// `/v1/audit` does (HIG Dark Mode, Color). The API layer supplies the backgrounds.
    case apple

    /// Where the convention is written.
    public var source: String {
        switch self {
        case .shadcn: return "https://ui.shadcn.com/docs/theming (background/foreground convention)"
        case .material3: return "https://m3.material.io/styles/color/roles"
        case .radix: return "https://www.radix-ui.com/colors/docs/palette-composition/understanding-the-scale (steps 11-12 text on steps 1-2; alpha text steps over the solid steps 1-2)"
        case .primer: return "https://primer.style/foundations/primitives/color"
        case .apple: return "https://developer.apple.com/design/human-interface-guidelines/dark-mode"
        }
    }

    /// The preset's rules.
    public var rules: [PairRule] {
        func r(_ fg: String, _ bg: String, _ role: PairRole = .text, backdrop: String? = nil) -> PairRule {
            // The patterns are constants: they compile.
            var rule = PairRule(foreground: try! TokenPattern(fg), background: try! TokenPattern(bg), role: role,
                                backdrop: backdrop.map { try! TokenPattern($0) }, source: "preset \(rawValue)")
            rule.preset = self
            return rule
        }
        switch self {
        case .shadcn:
            // A translucent surface (`--accent: rgb(0 0 0 / 5%)`, shadcn v4's dark `--input`)
            // sits on the page's `--background` (a new user's pass: it was measured over every
            // backdrop, "1.00:1", with no way to name one in a raw CSS audit).
            return [r("{p}{x}-foreground", "{p}{x}", backdrop: "{p}background"), r("{p}foreground", "{p}background"),
                    r("{p}muted-foreground", "{p}background")]
        case .material3:
            return [r("{p}on-{x}", "{p}{x}"), r("{p}on-surface-variant", "{p}surface"),
                    r("{p}on-surface", "{p}surface-container{v}"), r("{p}on-surface-variant", "{p}surface-container{v}"),
                    r("{p}inverse-primary", "{p}inverse-surface")]
        case .radix:
            // `{p}11` also matches the alpha step `--amber-a11` (p `--amber-a`) and `amberA11`
            // (p `amberA`): solid rules refuse such prefixes. Alpha text (`--amber-a11`, Radix's
            // CSS names) has rules of its own, on the solid backgrounds of the same scale; the
            // JavaScript names' alpha steps (`amberA11` beside `amber1`) are left out rather than
            // paired with alpha backgrounds.
            let solid: @Sendable ([String: String]) -> Bool = { captures in
                let p = captures["p"] ?? ""
                return !(p.hasSuffix("-a") || p.hasSuffix("_a") || p.hasSuffix(".a") || p.hasSuffix("A"))
            }
            var rules: [PairRule] = []
            for text in ["11", "12"] {
                for background in ["1", "2"] {
                    var rule = r("{p}\(text)", "{p}\(background)")
                    rule.accepts = solid
                    rules.append(rule)
                    rules.append(r("{p}a\(text)", "{p}\(background)"))
                }
            }
            return rules
        case .primer:
            var rules = [r("{p}fgColor{s}default", "{p}bgColor{s}default"), r("{p}fgColor{s}muted", "{p}bgColor{s}default"),
                         r("{p}fgColor{s}muted", "{p}bgColor{s}muted", backdrop: "{p}bgColor{s}default"),
                         r("{p}fgColor{s}default", "{p}bgColor{s}muted", backdrop: "{p}bgColor{s}default"),
                         r("{p}fgColor{s}default", "{p}bgColor{s}inset"),
                         r("{p}fgColor{s}onEmphasis", "{p}bgColor{s}emphasis"),
                         r("{p}fgColor{s}onEmphasis", "{p}bgColor{s}{r}-emphasis"),
                         r("{p}fgColor{s}link", "{p}bgColor{s}default"),
                         // `{s}` throughout: Figma names them `button/primary/fgColor/rest` (a new
                         // user's pass: the preset's `-` matched no pair in Primer's Figma file).
                         r("{p}button{s}primary{s}fgColor{s}rest", "{p}button{s}primary{s}bgColor{s}rest"),
                         r("{p}button{s}danger{s}fgColor{s}rest", "{p}button{s}danger{s}bgColor{s}rest")]
            // Every role Primer gives a `fgColor-<role>` and a `bgColor-<role>-muted` (neutral, draft
            // and upsell had been left out: a design-systems pass, stop 39).
            for role in ["accent", "success", "attention", "severe", "danger", "open", "closed", "done", "sponsors", "neutral", "draft", "upsell"] {
                rules.append(r("{p}fgColor{s}\(role)", "{p}bgColor{s}default"))
                rules.append(r("{p}fgColor{s}\(role)", "{p}bgColor{s}\(role)-muted", backdrop: "{p}bgColor{s}default"))
            }
            return rules
        case .apple:
            return [r("**", "apple.*")]
        }
    }
}
