import ColorScience

// CSS custom properties as design tokens (CSS Custom Properties 1), including Tailwind CSS v4
// `@theme` blocks: every `--name: value;` is a token named `--name`; where the declaration sits
// (selector, `@media`, `@theme`) says which mode it belongs to.

/// Reads theme stylesheets: custom properties in `:root`, `.dark`, `[data-theme=…]`,
/// `@media (prefers-color-scheme: dark)`, `(prefers-contrast: more)`, class themes and Tailwind v4
/// `@theme` blocks.
///
/// **Modes** come from where a declaration sits, by `modeMapping(selector:atRules:)` (its
/// documentation lists every rule). Then, file by file:
/// - a base rule (`:root`) that sets `color-scheme: light` or `color-scheme: dark` (one keyword,
///   as Material Theme Builder's `theme/light.css` and `theme/dark.css` do) is that mode, with a
///   note; in a file with other modes (`.dark` beside it) it is also the base they inherit from;
/// - a file that another submitted file imports with a media query
///   (`@import url(theme/dark.css) screen and (prefers-color-scheme: dark)`) is read inside that
///   query, as a browser reads it; imports are noted, never fetched;
/// - a file with a `TokenFile.mode` F is that mode: when all its declarations sit in one place
///   (the base, or one mode as in Primer's `dark.css`), they are all mode F; when the file itself
///   has several (`:root` and `.dark`), its base is F and each of its other modes M is `F-M`;
/// - a mode whose rules set `color-scheme: light` or `dark` is that color scheme, the side
///   `light-dark()` takes there (`TokenSet.colorSchemes`, noted where its name says otherwise).
///
/// In each mode the cascade picks a token's value among the declarations that apply there
/// (`Merger.winner`, `Merger.inherit`): the mode's own, those of the modes it combines and the
/// base's, for a mode styling the root element: `!important` first, then the later cascade
/// layer (unlayered rules beat every layer, the other way round for `!important`; CSS Cascade 5
/// §6.4; Tailwind's `@theme` is its `theme` layer), a Tailwind `@theme default` value never
/// replacing one from elsewhere, then specificity (Selectors 4 §17), then source order across
/// the files in the order given. A repeated declaration
/// with the same value keeps the location of the first. Tokens keep the order in which they are
/// first declared.
///
/// **Values** are read by `value(of:)`: a whole `var(--x)` is an alias, colors are CSS text,
/// shadcn's bare HSL triplets become `hsl(…)`, Material's channel triplets stay text (type
/// `channels`) for `var()` substitution, anything else is `.other(type:)`.
///
/// The format is `.tailwind` when a file holds an `@theme` block, else `.css`.
public enum CSSThemeReader: TokenFormatReader {
    public static let format: TokenFormat = .css
    /// Most declarations (custom properties and others) read in one call, over all files.
    public static let maximumDeclarations = 20_000
    /// Deepest nesting of blocks (rules and at-rules).
    public static let maximumNesting = 32

    // MARK: Detection

    /// CSS when a file's content is not JSON (it does not start with `{"`, `{}` or a JSON array)
    /// and declares at least one custom property (`--name:` after `{` or `;`, comments between
    /// them allowed).
    public static func detect(_ files: [TokenFile]) -> Bool {
        files.contains { file in !looksLikeJSON(file.content) && declaresCustomProperty(file.content) }
    }

    static func looksLikeJSON(_ text: String) -> Bool {
        var it = text.unicodeScalars.makeIterator()
        func nextNonSpace() -> Unicode.Scalar? {
            while let c = it.next() {
                if c == "\u{FEFF}" || CSSStylesheet.Scanner.isWhitespace(c) { continue }
                return c
            }
            return nil
        }
        guard let first = nextNonSpace() else { return false }
        guard let second = nextNonSpace() else { return false }
        if first == "{" { return second == "\"" || second == "}" }
        if first == "[" { return "{[\"]-0123456789".unicodeScalars.contains(second) }
        return false
    }

    static func declaresCustomProperty(_ text: String) -> Bool {
        let s = Array(text.utf8)
        var previous: UInt8 = UInt8(ascii: "{")  // the start of a file counts as a block start
        var k = s.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while k < s.count {
            let c = s[k]
            if c == UInt8(ascii: "/"), k + 1 < s.count, s[k + 1] == UInt8(ascii: "*") {
                k += 2
                while k + 1 < s.count, !(s[k] == UInt8(ascii: "*") && s[k + 1] == UInt8(ascii: "/")) { k += 1 }
                k += 2
                continue
            }
            if c == UInt8(ascii: "-"), k + 2 < s.count, s[k + 1] == UInt8(ascii: "-"),
               previous == UInt8(ascii: "{") || previous == UInt8(ascii: ";") {
                var j = k + 2
                while j < s.count, s[j] >= 0x80 || isNameByte(s[j]) { j += 1 }
                if j > k + 2 {
                    while j < s.count, s[j] == 0x20 || s[j] == 0x09 || s[j] == 0x0A || s[j] == 0x0D { j += 1 }
                    if j < s.count, s[j] == UInt8(ascii: ":") { return true }
                }
            }
            if !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C) { previous = c }
            k += 1
        }
        return false
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }

    // MARK: Reading

    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        var sheets: [CSSStylesheet] = []
        var counted = 0
        for file in files {
            let sheet = try CSSStylesheet.parse(file.content, file: file.name, maximumDeclarations: maximumDeclarations,
                                                maximumDepth: maximumNesting, alreadyCounted: counted)
            counted += sheet.declarationCount
            sheets.append(sheet)
        }
        var notes: [String] = []
        // States and scopes a browser shows that the audit cannot hold (past its modes' limit).
        var coverageWarnings: [String] = []
        var importsTailwind = false
        let importMedia = importedMedia(files: files, sheets: sheets, notes: &notes, importsTailwind: &importsTailwind)

        // Walk every file: each custom property with the modes it belongs to.
        var walker = Walker()
        // `@import "tailwindcss"` declares `@layer theme, base, components, utilities;` first.
        if importsTailwind { for name in ["theme", "base", "components", "utilities"] { _ = walker.layerRank(name) } }
        for (index, file) in files.enumerated() {
            walker.file = file.name
            walker.fileIndex = index
            let root = importMedia[index].map { ["@media \($0)"] } ?? []
            walker.walk(sheets[index].nodes, context: Walker.Context(atRules: root))
            if let failure = walker.failure { throw failure }
            walker.finishFile()
        }
        notes += walker.notes

        var entries = walker.entries
        // Cascade layers ranked as CSS orders them, nested ones inside their parent: a layer's
        // sublayers before its own rules (CSS Cascade 5 §6.4.2; a hostile pass: `@layer a {
        // :root {…} @layer b { :root {…} } }` had `a.b` beat `a`'s own, a false pass).
        let layerOrder = Self.layerRanks(walker.layers)
        for k in entries.indices where entries[k].layer != .max { entries[k].layer = layerOrder[entries[k].layer] ?? entries[k].layer }
        var declaredSchemes = walker.declaredSchemes
        let separated = separateSchemeSources(&entries, &declaredSchemes, &walker.modeConditions, notes: &notes)
        notes += separated

        // A file with a given mode: its base (and its one mode) are that mode.
        for (index, file) in files.enumerated() {
            guard let fileMode = file.mode else { continue }
            var targets: [CSSModeMapping.Target] = []
            for e in entries where e.fileIndex == index {
                for t in e.targets where !targets.contains(t) { targets.append(t) }
            }
            let single = targets.count <= 1
            func renamed(_ t: CSSModeMapping.Target) -> CSSModeMapping.Target {
                switch t {
                case .base: return .mode(fileMode)
                case .mode(let m): return .mode(single ? fileMode : "\(fileMode)-\(m)")
                }
            }
            for k in entries.indices where entries[k].fileIndex == index {
                entries[k].targets = entries[k].targets.map(renamed)
            }
            for k in declaredSchemes.indices where declaredSchemes[k].fileIndex == index {
                declaredSchemes[k].targets = declaredSchemes[k].targets.map(renamed)
            }
            let named = targets.compactMap { t -> String? in if case .mode(let m) = t { return m }; return nil }
            if single {
                notes.append("\(file.name): read as mode '\(fileMode)', the mode given for the file" +
                             (named.isEmpty ? "" : " (its rules are for '\(named[0])')"))
            } else {
                notes.append("\(file.name): its base is read as mode '\(fileMode)', the mode given for the file; its other modes as " +
                             named.map { "'\(fileMode)-\($0)'" }.joined(separator: ", "))
            }
        }

        // More modes than an audit holds: component scopes give way (`pruneScopes`).
        var dropped = Set<String>()
        let schemed = Self.modesDeclaringSchemes(declaredSchemes)
        notes += Self.pruneScopes(&entries, declaredSchemes: declaredSchemes, schemed: schemed, conditions: walker.modeConditions,
                                  dropped: &dropped, warnings: &coverageWarnings)
        // Selectors not understood, but those of scopes left out; past 8, counted (Bootstrap's
        // stylesheet had 230 such notes).
        let unrecognized = walker.unrecognizedNotes.filter { $0.modes.isEmpty || !$0.modes.allSatisfy(dropped.contains) }
        notes += unrecognized.prefix(8).map(\.text)
        if unrecognized.count > 8 {
            notes.append("\(unrecognized.count - 8) more rules' selectors are not known mode selectors or conditions: each such selector is read as a mode named after it")
        }

        // The cascade, per token and mode.
        // The modes, in order, at most TokenFormats.maximumModes (as the JSON formats), counted
        // before any value is merged.
        var modes: [String] = []
        var known = Set<String>()
        func addModes(_ targets: [CSSModeMapping.Target], at location: TokenLocation) throws(TokenError) {
            for case .mode(let m) in targets {
                // Mode names (from class names and attribute values) that Swift's strings merge
                // though CSS keeps them apart (`CanonicalNames`).
                let (inserted, known) = known.insert(m)
                if !inserted, CanonicalNames.differ(known, m) { throw CanonicalNames.clash("mode", m, at: location, known, at: nil) }
                guard inserted else { continue }
                guard modes.count < TokenFormats.maximumModes else {
                    throw TokenError(file: location.file, location: location,
                                     reason: "more than \(TokenFormats.maximumModes) modes (\(TokenError.quoted(m)) is one too many): each theme selector, selector of a list and media query is a mode")
                }
                modes.append(m)
            }
        }
        for e in entries { try addModes(e.targets, at: e.location) }
        // A selector not understood in a list beside understood ones reaches the mode another
        // rule makes of it (a pass against Chromium's computed values: `:is(.dark, .night) {
        // --a: #000 }` left `.night`'s mode with the root's `--a`).
        for i in entries.indices where !entries[i].listedModes.isEmpty {
            for name in entries[i].listedModes where known.contains(name) && !entries[i].targets.contains(.mode(name)) {
                entries[i].targets.append(.mode(name))
            }
        }
        // A rule that sets only `color-scheme` (`.dark { color-scheme: dark }` beside `:root`'s
        // `light-dark()` values) is a mode too: the base's values, light-dark() taking its side.
        for d in declaredSchemes { try addModes(d.targets, at: d.location) }
        var merger = Merger()
        for e in entries {
            for t in e.targets { try merger.set(e, target: t) }
        }
        notes += merger.rewriteHSLReferences(tripletNames: walker.hslTripletNames)

        // States no rule names but a browser shows: modes toggled apart, both on.
        var combined: [CombinedState] = []
        var candidatesCut = false
        if !files.contains(where: { $0.mode != nil }) {
            (combined, candidatesCut) = Self.combinedStates(modes: modes, conditions: walker.modeConditions)
        }
        for c in combined {
            modes.append(c.name)
            walker.modeConditions[c.name] = c.conditions
        }
        if let warning = merger.deepReferenceWarning() { coverageWarnings.append(warning) }
        // A registered property that does not inherit reaches the text only from a rule on every
        // element (`*`); elsewhere the text sees its initial value (a hostile pass: `@property
        // --primary { inherits: false; initial-value: #eee }` beside `:root`'s #1d4ed8 passed,
        // where the text inside body shows #eee, 1.16:1).
        for (name, initial) in walker.notInherited.sorted(by: { $0.key < $1.key }) where merger.tokens[name] != nil {
            merger.applyNotInherited(name, initial: initial)
            notes.append("'\(name)' is registered with inherits: false: the text sees \(initial.map { "its initial value \($0)" } ?? "no value") unless a rule on every element (*) sets it, and so it is read")
        }
        // The combined states get a note of their own below, not one each for what they take.
        notes += merger.inherit(modes: modes, conditions: walker.modeConditions, silent: Set(combined.map(\.name)))
        // A combined state that shows what a mode of fewer parts shows is that mode again.
        var shown: [CombinedState] = []
        // Unless its color scheme differs and light-dark() reads it: a theme class that sets only
        // `color-scheme` (`.dark { color-scheme: dark }`) beside `.high-contrast`'s light-dark()
        // values makes a state of the same text that a browser paints with the other side (a
        // front-end pass against Chromium: `dark + high-contrast` was dropped as
        // `high-contrast` again, and its 2.29:1 pair passed unseen).
        let readsScheme = merger.order.contains { path in
            let t = merger.tokens[path]!
            return t.base?.value.readsColorScheme == true || t.modes.values.contains { $0.value.readsColorScheme }
        }
        /// The `color-scheme` declaration of the modes `names` last in the files (the cascade's
        /// order between rules of one specificity, as the scheme classes are).
        func latestDeclaration(_ names: [String]) -> Walker.DeclaredScheme? {
            declaredSchemes.filter { d in d.targets.contains { t in names.contains { t == .mode($0) } } }
                .max { a, b in (a.fileIndex, a.location.line, a.location.column) < (b.fileIndex, b.location.line, b.location.column) }
        }
        /// The scheme a state shows: the last of its modes' `color-scheme` declarations in the
        /// files, else the one its conditions name (a hostile pass: a state kept for a scheme its
        /// conditions name, though a later declaration gave it the lesser mode's).
        func scheme(_ names: [String], _ c: ModeConditions?) -> String? {
            latestDeclaration(names).map { $0.scheme.rawValue } ?? c.flatMap { $0.selectorScheme ?? $0.mediaScheme }
        }
        for c in combined {
            let lesser = modes.filter { $0 != c.name && walker.modeConditions[$0]?.isPart(of: c.conditions) == true }
            if lesser.contains(where: { merger.sameValues(c.name, $0)
                && (!readsScheme || scheme([$0], walker.modeConditions[$0]) == scheme(c.parts, c.conditions)) }) {
                merger.drop(mode: c.name)
                modes.removeAll { $0 == c.name }
            } else {
                shown.append(c)
            }
        }
        notes += Self.dropUnschemedTwins(&modes, &merger, conditions: walker.modeConditions)
        // Within the modes' limit, the states of a scheme and a contrast first, then those with
        // a theme, fewer parts first (a new user's pass: 31 themes beside dark and more contrast
        // had dropped every state, `dark + high-contrast` failing at 1.56:1 among them).
        let room = TokenFormats.maximumModes - (modes.count - shown.count)
        if shown.count > room || candidatesCut {
            let ranked = shown.enumerated().sorted { a, b in
                // (A theme last; then fewer parts.)
                let (ta, tb) = (a.element.conditions.theme != nil ? 1 : 0, b.element.conditions.theme != nil ? 1 : 0)
                return (ta, a.element.parts.count, a.offset) < (tb, b.element.parts.count, b.offset)
            }.map(\.element)
            let kept = Array(ranked.prefix(max(0, room)))
            for c in ranked.dropFirst(max(0, room)) {
                merger.drop(mode: c.name)
                modes.removeAll { $0 == c.name }
            }
            let left = shown.count - kept.count
            shown = shown.filter { c in kept.contains { $0.name == c.name } }
            // A warning, not a note: states a browser shows went unchecked, so the audit's pass
            // covers less than the files (a hostile pass, stop 39: `.theme-29.dark` at 1.4:1 was
            // dropped and failOn=failure answered 200).
            coverageWarnings.append("the modes combine into more states than the \(TokenFormats.maximumModes) modes an audit holds\(left > 0 ? ": \(left) state\(left == 1 ? "" : "s") with a theme or of more parts \(left == 1 ? "is" : "are") not audited" : "")\(candidatesCut ? " (and states past the first \(Self.maximumCombinedCandidates) were not looked at)" : ""); the states of a color scheme and a contrast come first")
        }
        if !shown.isEmpty {
            let names = shown.prefix(4).map { "'\($0.name)'" }.joined(separator: ", ") + (shown.count > 4 ? ", …" : "")
            notes.append(shown.count == 1
                ? "mode '\(shown[0].name)' is the state where \(shown[0].parts.map { "'\($0)'" }.joined(separator: " and ")) hold at once: no rule of the files is written for it, but a browser shows it, each token from the rule that wins the cascade there (importance, layer, specificity, then source order)"
                : "\(shown.count) modes are states where modes toggled apart hold at once (\(names)): no rule of the files is written for them, but a browser shows them, each token from the rule that wins the cascade there (importance, layer, specificity, then source order)")
        }

        // The color scheme a mode's rules declare (the last one in source order), where it is
        // not the one its name says (a `[data-theme="midnight"]` with `color-scheme: dark`).
        var declared: [String: Walker.DeclaredScheme] = [:]
        for d in declaredSchemes {
            for case .mode(let m) in d.targets where known.contains(m) { declared[m] = d }
        }
        // A combined state's scheme is its parts' declaration that comes last in the files (the
        // cascade's order between rules of one specificity, as the scheme classes are), not the
        // last part by name (a hostile pass against Chromium: `.high-contrast { color-scheme:
        // light }` before `.dark { color-scheme: dark }` made `dark + high-contrast` light, where
        // the page is dark).
        for c in shown {
            if let d = latestDeclaration(c.parts) { declared[c.name] = d }
        }
        var set = TokenSet(format: walker.sawTheme ? .tailwind : .css, tokens: merger.order.map { merger.token($0) },
                           modes: modes, notes: notes, bareHSLTriplets: walker.hslTripletNames)
        if importsTailwind {
            if let reset = walker.tailwindColorsReset {
                // The import's note, written before the files were walked, says what the reset did.
                set.notes = set.notes.map { n in
                    n.contains("Tailwind's default palette (") && n.hasSuffix(Self.tailwindPaletteBuiltIn)
                        ? n.dropLast(Self.tailwindPaletteBuiltIn.count) + "is taken out of the build by the reset at \(reset) (--color-*: initial): only the files' colors are defined"
                        : n
                }
            } else {
                set.defaultVariables = TailwindPalette.colors
            }
        }
        set.baseMode = walker.baseMode
        set.declaresColorScheme = files.contains { Self.declaresColorScheme($0.content) }
        set.combinedStates = Dictionary(shown.map { ($0.name, $0.parts) }, uniquingKeysWith: { a, _ in a })
        if !files.contains(where: { $0.mode != nil }) {
            set.scopes = Set(modes.filter { Self.isScope($0, schemed: schemed, conditions: walker.modeConditions) })
            set.conditionalModes = Set(modes.filter { m in
                m.hasPrefix("@") && walker.modeConditions[m] == nil && !schemed.contains(m) && !set.scopes.contains(m)
            })
        }
        set.descendantModes = merger.descendants.filter { modes.contains($0.key) }
        set.droppedScopes = dropped
        set.coverageWarnings = coverageWarnings
        set.negatedSchemeModes = Set(modes.filter { walker.modeConditions[$0]?.selectorSchemeSource?.hasPrefix(":not(") == true })
        for (mode, d) in declared.sorted(by: { $0.key < $1.key }) {
            // Kept where the name says it too: a declared scheme is fixed, never audited in both
            // (`TokenAudit.inBothSchemes`).
            defer { set.colorSchemes[mode] = d.scheme }
            guard set.colorScheme(in: mode) != d.scheme else { continue }
            set.notes.append("\(d.location.file) line \(d.location.line): '\(d.selector)' sets color-scheme: \(d.scheme.rawValue); light-dark() takes its \(d.scheme == .dark ? "second (dark)" : "first (light)") color in mode '\(mode)'")
        }
        // A mode that declares no color scheme has the one the root element's base rule
        // declares, inherited (an element below another, its ancestor's), as a browser uses it
        // for light-dark() (a hostile pass: `:root { color-scheme: light }` beside a `.dark`
        // setting none had its light-dark() read dark, 11.66:1, where Chromium paints the light
        // side, 1.48:1).
        if let base = walker.inheritedBaseScheme {
            set.baseColorScheme = base.scheme
            var inherited: [String] = []
            let undeclared = modes.filter { set.colorSchemes[$0] == nil }
            for m in undeclared.filter({ set.descendantModes[$0] == nil }) + undeclared.filter({ set.descendantModes[$0] != nil }) {
                let scheme = set.descendantModes[m]?.ancestor.flatMap { set.colorSchemes[$0] } ?? base.scheme
                if set.colorScheme(in: m) != scheme && inherited.count < 8 { inherited.append(m) }
                set.colorSchemes[m] = scheme
            }
            if !inherited.isEmpty {
                set.notes.append("\(base.location.file) line \(base.location.line): '\(base.selector)' sets color-scheme: \(base.scheme.rawValue), which \(inherited.map { "'\($0)'" }.joined(separator: ", ")) inherit\(inherited.count == 1 ? "s" : "") (setting none of \(inherited.count == 1 ? "its" : "their") own): light-dark() takes its \(base.scheme == .dark ? "second (dark)" : "first (light)") color there, as a browser does; give \(inherited.count == 1 ? "that rule its" : "those rules their") own color-scheme for the other")
            }
        }
        return set
    }

    /// A state of the page where several modes hold at once and no rule is written for it
    /// (`.dark` toggled on while the system asks for more contrast).
    struct CombinedState {
        /// The modes' names joined by ` + `, theme first, then color scheme, then contrast
        /// (`dark + high-contrast`).
        var name: String
        var conditions: ModeConditions
        /// The modes it combines, in the order of the name.
        var parts: [String]
    }

    /// Drops a mode without a color scheme whose twin, the same conditions with `light` set by a
    /// selector, shows every token alike: Radix writes `@media (color-gamut: p3) { :root, .light,
    /// .light-theme { … } }`, whose `p3` and `light-p3` had been audited twice with the same
    /// results (a new user's pass). The twin stands for it, as a `light` mode stands for the
    /// base (`TokenAudit.modes(of:)`). Returns a note naming each mode dropped.
    static func dropUnschemedTwins(_ modes: inout [String], _ merger: inout Merger,
                                   conditions: [String: ModeConditions]) -> [String] {
        var notes: [String] = []
        for m in modes {
            guard let c = conditions[m], c.scheme == nil, (c.parts ?? 0) > 0 else { continue }
            var lit = c
            lit.selectorScheme = "light"
            guard let twin = modes.first(where: { $0 != m && conditions[$0] == lit && merger.sameValues(m, $0) }) else { continue }
            merger.drop(mode: m)
            modes.removeAll { $0 == m }
            notes.append("mode '\(m)' shows every token as '\(twin)' does (the same rules set both): it is audited once, as '\(twin)'")
        }
        return notes
    }

    /// The states a browser shows where modes toggled apart hold at once (CSS Cascade 4 §6:
    /// every rule whose conditions hold applies): a theme, a color scheme and a contrast from
    /// different modes, none of them set twice. A new user's pass: `.dark` and `@media
    /// (prefers-contrast: more) { :root { … } }` were audited apart, but with both on the page
    /// shows the media query's black text on `.dark`'s background (1.16:1), a false pass. Modes
    /// with parts not understood (`.card`, `.dark .x`), Primer's whole themes, and states a mode
    /// is written for (`@media (prefers-contrast: more) { .dark { … } }`) are not combined. At
    /// most `maximumCombinedCandidates`, fewer parts first (`cut` when more were there); the
    /// reader keeps those that show something new within `TokenFormats.maximumModes`.
    static func combinedStates(modes: [String], conditions: [String: ModeConditions]) -> (states: [CombinedState], cut: Bool) {
        // Kinds: a theme, a scheme a selector sets, a contrast, a scheme the media query sets
        // (toggled apart from a class: `.light` on a page whose system is dark, a new user's
        // pass found `.light`'s missing value shown from the dark query, never audited).
        func kinds(_ c: ModeConditions) -> [Int] {
            [c.theme != nil ? 0 : nil, c.selectorScheme != nil ? 1 : nil, c.contrast != nil ? 2 : nil,
             c.selectorScheme == nil && c.mediaScheme != nil ? 3 : nil].compactMap { $0 }
        }
        // A theme also written inside a scheme's class (`.dark .theme-rose`) sits on a descendant,
        // whose own rules beat what the root's states pass down: it is not combined with them
        // (a new user's pass: `rose + dark + high-contrast` showed colors the page never does).
        let descendantThemes = Set(modes.compactMap { m -> String? in
            guard let c = conditions[m], !c.ancestorParts.isEmpty else { return nil }
            return c.theme
        })
        let atoms: [(name: String, conditions: ModeConditions, kind: Int)] = modes.compactMap { m in
            guard let c = conditions[m], let n = c.parts, n == 1, c.others.isEmpty, c.ancestorParts.isEmpty,
                  let k = kinds(c).first, !(c.theme.map(descendantThemes.contains) ?? false) else { return nil }
            return (m, c, k)
        }
        var existing = modes.compactMap { conditions[$0] }
        func named(_ list: [(conditions: ModeConditions, parts: [(String, Int)])]) -> [CombinedState] {
            list.map { s in
                // Beside a class's scheme, the media query's says so (`light + dark (prefers-color-scheme)`).
                let both = s.parts.contains { $0.1 == 1 } && s.parts.contains { $0.1 == 3 }
                let shown = s.parts.map { p in both && p.1 == 3 && !p.0.contains("prefers-color-scheme") ? "\(p.0) (prefers-color-scheme)" : p.0 }
                return CombinedState(name: shown.joined(separator: " + "), conditions: s.conditions, parts: s.parts.map(\.0))
            }
        }
        var states: [(conditions: ModeConditions, parts: [(String, Int)])] = []
        var frontier: [(conditions: ModeConditions, parts: [(String, Int)])] = atoms.map { ($0.conditions, [($0.name, $0.kind)]) }
        while !frontier.isEmpty {
            var next: [(conditions: ModeConditions, parts: [(String, Int)])] = []
            for s in frontier {
                for a in atoms where !s.parts.contains(where: { $0.1 == a.kind }) {
                    var c = s.conditions
                    switch a.kind {
                    case 0: c.theme = a.conditions.theme
                    case 1:
                        c.selectorScheme = a.conditions.selectorScheme
                        (c.selectorSchemeSource, c.anySchemeSource) = (a.conditions.selectorSchemeSource, a.conditions.anySchemeSource)
                    case 3: c.mediaScheme = a.conditions.mediaScheme
                    default: (c.contrast, c.contrastSource) = (a.conditions.contrast, a.conditions.contrastSource)
                    }
                    guard !existing.contains(c) else { continue }
                    existing.append(c)
                    // Named theme, then scheme (a class's, then the media query's), then contrast,
                    // as tokens.md says, whichever rules make them (a front-end pass: media
                    // queries had made `high-contrast + dark` where classes make `dark + high-contrast`).
                    let rank = [0, 1, 3, 2]
                    let parts = (s.parts + [(a.name, a.kind)]).sorted { rank[$0.1] < rank[$1.1] }
                    guard states.count + next.count < maximumCombinedCandidates else {
                        return (named(states + next), true)
                    }
                    next.append((c, parts))
                }
            }
            states += next
            frontier = next
        }
        return (named(states), false)
    }

    /// Most combined states looked at in one read (`combinedStates`).
    static let maximumCombinedCandidates = 256

    /// Separates a mode's name from its scheme's source (`ModeConditions.target` names a mode
    /// `dark` + `schemeMarker` + `.dark`): where one name has one source, or its sources set the
    /// same values (`.dark` and `@media (prefers-color-scheme: dark) { :root:not(.light) }` with
    /// one set of colors, as shadcn writes them), it is the mode `dark`; where they set different
    /// values they are different states of the page (the class toggled with the system in light,
    /// the system dark without the class), and each source after the first is its own mode,
    /// `dark (prefers-color-scheme)`, `dark ([data-theme=dark])`, with a note. A new user's pass:
    /// `.dark` (#52525b on #18181b, 2.29:1) and the media query's #eee on #000 were one mode `dark`
    /// whose later rule won, and the audit passed. Renames `entries`, `declared` and `conditions`
    /// (and the marker in `notes`); returns the notes to add.
    static func separateSchemeSources(_ entries: inout [Entry], _ declared: inout [Walker.DeclaredScheme],
                                      _ conditions: inout [String: ModeConditions], notes: inout [String]) -> [String] {
        // Each marked name's sources, in order, and each source's winning values.
        var sources: [String: [String]] = [:], order: [String] = []
        var values: [String: [String: Slot]] = [:]
        /// Records a marked mode name's source; false for a name without the marker.
        func addSource(_ m: String) -> Bool {
            guard let r = m.firstRange(of: schemeMarker) else { return false }
            let base = String(m[..<r.lowerBound]), source = String(m[r.upperBound...])
            if sources[base] == nil { order.append(base) }
            if !(sources[base]?.contains(source) ?? false) { sources[base, default: []].append(source) }
            return true
        }
        for e in entries {
            for case .mode(let m) in e.targets where addSource(m) {
                let slot = Slot(value: e.value, important: e.important, themeDefault: e.themeDefault, location: e.location, layer: e.layer,
                            specificity: e.specificity, order: e.order)
                values[m, default: [:]][e.path] = Merger.winner(values[m]?[e.path], slot)
            }
        }
        // A rule that sets only `color-scheme` is a source too, after those with values.
        for d in declared {
            for case .mode(let m) in d.targets { _ = addSource(m) }
        }
        guard !order.isEmpty else { return [] }
        var rename: [String: String] = [:], out: [String] = []
        func shown(_ source: String) -> String {
            source.replacingOccurrences(of: "prefers-color-scheme", with: "@media (prefers-color-scheme)")
                .replacingOccurrences(of: "prefers-contrast", with: "@media (prefers-contrast)")
        }
        for base in order {
            let list = sources[base]!
            let first = values[base + schemeMarker + list[0]] ?? [:]
            for (i, source) in list.enumerated() {
                let marked = base + schemeMarker + source
                let own = values[marked] ?? [:]
                let same = i == 0 || (own.count == first.count && own.allSatisfy { first[$0.key]?.value == $0.value.value })
                rename[marked] = same ? base : "\(base) (\(source))"
                // Set alike, audited once: a pair's location (and a suggestion's) is one rule's,
                // and a change made there alone makes two states (a hostile pass: Primer's dark
                // slot was fixed at one block, and the next audit found the other failing).
                if same && i > 0 && !own.isEmpty && !first.isEmpty {
                    out.append("'\(shown(list[0]))' and '\(shown(source))' set mode '\(base)' alike, so it is audited once, located at the rule that wins the cascade: a value changed there must be changed under '\(shown(source))' too, or the two become different states")
                }
                if !same {
                    out.append("'\(shown(list[0]))' and '\(shown(source))' set different values for mode '\(base)': they are different states of the page, audited as modes '\(base)' and '\(base) (\(source))'")
                }
            }
        }
        /// `targets` renamed, each once (two sources merged into one mode are one target).
        func renamed(_ targets: [CSSModeMapping.Target]) -> [CSSModeMapping.Target] {
            var seen = Set<CSSModeMapping.Target>()
            return targets.map { t in
                if case .mode(let m) = t, let r = rename[m] { return .mode(r) }
                return t
            }.filter { seen.insert($0).inserted }
        }
        for k in entries.indices { entries[k].targets = renamed(entries[k].targets) }
        for k in declared.indices { declared[k].targets = renamed(declared[k].targets) }
        var renamedConditions: [String: ModeConditions] = [:]
        for (name, c) in conditions {
            let to = rename[name] ?? name
            if var merged = renamedConditions[to] {
                merged.anySchemeSource = true
                renamedConditions[to] = merged
            } else {
                renamedConditions[to] = c
            }
        }
        conditions = renamedConditions
        for k in notes.indices where notes[k].contains(schemeMarker) {
            for (from, to) in rename where notes[k].contains(from) { notes[k] = notes[k].replacing(from, with: to) }
        }
        return out
    }

    /// Separates a mode's name from its scheme's source until `separateSchemeSources` runs
    /// (a control character: never in a selector's text).
    static let schemeMarker = "\u{1}"

    /// For each file, the media query of an `@import` of it in another submitted file (matched
    /// by path: the import's URL resolved against the importing file's folder, or either name a
    /// `/`-suffix of the other). Notes every `@import`.
    /// `importsTailwind` is set when a file imports Tailwind CSS itself (`tailwindcss`,
    /// `tailwindcss/theme`, `tailwindcss/theme.css`), whose palette is built in (`TailwindPalette`).
    static func importedMedia(files: [TokenFile], sheets: [CSSStylesheet], notes: inout [String],
                              importsTailwind: inout Bool) -> [String?] {
        var media = [String?](repeating: nil, count: files.count)
        for (index, sheet) in sheets.enumerated() {
            let importer = files[index].name
            // An @import written again is noted once, the repeats counted (a hostile pass, stop
            // 39: 60,000 `@import "tailwindcss";` lines made 60,000 notes, a 9.8 MB answer).
            var seen = Set<String>(), repeats = 0
            defer {
                if repeats > 0 { notes.append("\(importer): \(repeats) more @import rule\(repeats == 1 ? "" : "s") repeat\(repeats == 1 ? "s" : "") one noted above, each read once") }
            }
            for node in sheet.nodes {
                guard case .atRule(let a) = node, a.name == "import" else { continue }
                guard seen.insert(a.text).inserted else { repeats += 1; continue }
                guard let (url, query) = parseImport(a.prelude) else {
                    notes.append("\(importer) line \(a.position.line): '\(a.text)' is not an @import this reader understands; ignored")
                    continue
                }
                let resolved = resolve(url, against: importer)
                let target = files.indices.first { $0 != index && samePath(files[$0].name, resolved) }
                var note = "\(importer) line \(a.position.line): \(a.text): imported files are not fetched"
                if let target {
                    note += "; \(files[target].name) was submitted and is read as its own file"
                    if let query, !query.isEmpty {
                        media[target] = query
                        note += ", inside the media query '\(query)'"
                    }
                } else if ["tailwindcss", "tailwindcss/theme", "tailwindcss/theme.css"].contains(url.lowercased()) {
                    importsTailwind = true
                    note = "\(importer) line \(a.position.line): \(a.text): Tailwind's default palette (\(TailwindPalette.colors.count) colors of its v4 theme.css) \(Self.tailwindPaletteBuiltIn)"
                } else {
                    note += "; to read its tokens, submit the file '\(url)' names as another file"
                }
                notes.append(note)
            }
        }
        return media
    }

    /// How the note on `@import "tailwindcss"` ends while no `--color-*: initial` takes the
    /// palette out (`read` rewrites it when one does).
    static let tailwindPaletteBuiltIn = "is built in, for var(--color-…) the files do not define"

    /// `url(x) media` / `"x" media` → (x, media).
    static func parseImport(_ prelude: String) -> (String, String?)? {
        var rest = Substring(prelude)
        var url: String
        if rest.lowercased().hasPrefix("url(") {
            guard let close = rest.firstIndex(of: ")") else { return nil }
            url = String(rest[rest.index(rest.startIndex, offsetBy: 4)..<close])
            rest = rest[rest.index(after: close)...]
        } else if let q = rest.first, q == "\"" || q == "'" {
            let body = rest.dropFirst()
            guard let close = body.firstIndex(of: q) else { return nil }
            url = String(body[..<close])
            rest = body[body.index(after: close)...]
        } else {
            return nil
        }
        url = url.trimmingSpaces()
        if let q = url.first, q == "\"" || q == "'", url.count >= 2, url.last == q { url = String(url.dropFirst().dropLast()) }
        // `layer`, `layer(…)` and `supports(…)` (CSS Cascade 5 §2.2) say nothing about modes.
        var query = String(rest).trimmingSpaces()
        while true {
            let lower = query.lowercased()
            if lower == "layer" || lower.hasPrefix("layer ") {
                query = String(query.dropFirst(5)).trimmingSpaces()
            } else if lower.hasPrefix("layer(") || lower.hasPrefix("supports(") {
                // Drop up to the `)` that closes the function.
                var depth = 0
                var end = query.startIndex
                for k in query.indices {
                    if query[k] == "(" { depth += 1 }
                    if query[k] == ")" { depth -= 1; if depth == 0 { end = query.index(after: k); break } }
                }
                guard end > query.startIndex else { break }
                query = String(query[end...]).trimmingSpaces()
            } else {
                break
            }
        }
        return (url, query.isEmpty ? nil : query)
    }

    static func resolve(_ url: String, against importer: String) -> String {
        if url.hasPrefix("/") || url.contains("://") { return url }
        var parts = importer.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for p in url.split(separator: "/") {
            if p == "." { continue }
            if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(String(p))
        }
        return parts.joined(separator: "/")
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        let a = a.hasPrefix("./") ? String(a.dropFirst(2)) : a
        let b = b.hasPrefix("./") ? String(b.dropFirst(2)) : b
        return a == b || a.hasSuffix("/" + b) || b.hasSuffix("/" + a)
    }

    // MARK: Walking the stylesheet

    /// One custom property declaration with the modes it belongs to.
    struct Entry {
        var path: String
        var value: TokenValue
        var type: String?
        var important: Bool
        var themeDefault: Bool
        var location: TokenLocation
        var fileIndex: Int
        var targets: [CSSModeMapping.Target]
        /// Set directly in a base rule that declares its color scheme (`:root { color-scheme:
        /// light }`), read as that mode (`Walker.finishFile()`).
        var inSchemeBase = false
        /// The cascade layer's rank (`Walker.layerRank`), `Int.max` outside any layer.
        var layer: Int = .max
        /// The rule's selector's specificity (`CSSThemeReader.specificity(of:)`).
        var specificity: Int = 0
        /// The specificity for the base target where it differs (daisyUI's default theme is
        /// `:where(:root)`, 0, beside its `[data-theme=x]`).
        var baseSpecificity: Int? = nil
        /// Source order across the files.
        var order: Int = 0
        /// How deep the element the rule sets lies (`CSSThemeReader.elementDepth(of:)`).
        var depth: Int = 0
        /// `CSSModeMapping.listedModes` of the rule: modes it reaches where other rules make them.
        var listedModes: [String] = []
    }

    struct Walker {
        struct Context {
            /// Enclosing at-rules that may say something about the mode (`@media …`, unknown ones).
            var atRules: [String]
            /// The selector of the enclosing rule, with CSS Nesting's `&` resolved.
            var selector: String? = nil
            /// The modes of the enclosing rule (nil outside any rule).
            var targets: [CSSModeMapping.Target]? = nil
            /// The enclosing rule is a base rule read as its declared color scheme's mode.
            var schemeBase = false
            /// The enclosing cascade layer's full name (`a.b`), nil outside any layer.
            var layerName: String? = nil
            /// `Entry.baseSpecificity` for the declarations here.
            var baseSpecificity: Int? = nil
            /// The enclosing rule's selector's specificity (`:root`'s directly in `@theme`, which
            /// Tailwind writes as `:root`; 0 outside any rule), computed once per rule.
            var specificity = 0
            /// The enclosing rule's element depth (`CSSThemeReader.elementDepth(of:)`).
            var depth = 0
            var themeDefault = false
            var inTheme = false
            /// The at-rule whose declarations are not tokens (`@keyframes spin`).
            var skipping: String? = nil
            /// What to say when a custom property is read here: the rule's selector or at-rule
            /// was not understood.
            var unrecognized: (CSSModeMapping, CSSStylesheet.Position)? = nil
        }

        /// A rule for a mode (not the base) that declares `color-scheme: light` or `dark`.
        struct DeclaredScheme {
            var scheme: CSSColorScheme
            var targets: [CSSModeMapping.Target]
            var selector: String
            var location: TokenLocation
            var fileIndex: Int
        }

        var file = ""
        var fileIndex = 0
        var entries: [Entry] = []
        var declaredSchemes: [DeclaredScheme] = []
        /// Base rules read as the mode of the color scheme they declare (`finishFile()`).
        var baseSchemes: [DeclaredScheme] = []
        /// The color scheme a base rule declares in a file with other modes (`:root {
        /// color-scheme: light }` beside `.dark { … }`): every mode that declares none inherits
        /// it, as the root element's used color scheme (the last such rule).
        var inheritedBaseScheme: DeclaredScheme? = nil
        /// A mode whose values the base holds too (`TokenSet.baseMode`).
        var baseMode: String? = nil
        /// Cascade layers by full name, in the order they are first named (CSS Cascade 5 §6.4:
        /// a later layer beats an earlier one, unlayered rules beat every layer, and the other
        /// way round for `!important`).
        var layers: [String: Int] = [:]
        /// Registered properties that do not inherit (`@property … { inherits: false }`), with
        /// their initial values (nil when none is given).
        var notInherited: [String: String?] = [:]
        var anonymousLayers = 0

        /// The rank of layer `name`, given on its first mention.
        mutating func layerRank(_ name: String) -> Int {
            if let r = layers[name] { return r }
            let r = layers.count
            layers[name] = r
            return r
        }
        /// The conditions of every understood mode (`CSSModeMapping.conditions`).
        var modeConditions: [String: ModeConditions] = [:]
        var notes: [String] = []
        var sawTheme = false
        var hslTripletNames: Set<String> = []
        /// Where a `@theme` resets Tailwind's colors (`--color-*: initial` or `--*: initial`,
        /// Tailwind v4 "Theme variables": the default palette is then not in the build), as
        /// `file line N`; nil when none does.
        var tailwindColorsReset: String? = nil
        var tripletCount = 0
        var channelCount = 0
        var tailwindAlphaCount = 0
        var oklchTripletCount = 0
        var importantCount = 0
        var noted: Set<String> = []

        /// Keeps the conditions of the modes `m` understood (`modeConditions`).
        mutating func register(_ m: CSSModeMapping) {
            for case (.mode(let name), let c) in m.conditions { modeConditions[name] = c }
        }

        mutating func note(_ key: String, _ text: String) {
            if noted.insert(key).inserted { notes.append(text) }
        }

        func location(_ p: CSSStylesheet.Position) -> TokenLocation {
            TokenLocation(file: file, line: p.line, column: p.column)
        }

        /// The first rule past a limit, which stops the walk (`read` throws it).
        var failure: TokenError? = nil
        /// Bytes of the nested rules' selectors made so far (each `&` its parent's selector).
        var nestedSelectorBytes = 0
        /// Distinct mode names met so far (`register`, and the rules' targets).
        var distinctModes = Set<String>()

        /// Fails the walk when a rule brings more distinct modes than an audit can hold, at the
        /// rule that does (a hostile pass: a list of 900,000 selectors was held as modes, 1.1 GB,
        /// before the modes' limit was counted). Names are counted as marked with their scheme's
        /// source, which can only merge them later, and component scopes give way later
        /// (`pruneScopes`: Bootstrap 5.2 has 268), so sixteen times the limit is allowed here;
        /// only rules that set custom properties or `color-scheme` are counted.
        mutating func countModes(_ targets: [CSSModeMapping.Target], at p: CSSStylesheet.Position) {
            for case .mode(let m) in targets where failure == nil && distinctModes.insert(m).inserted {
                if distinctModes.count > 16 * TokenFormats.maximumModes {
                    let shown = m.firstRange(of: CSSThemeReader.schemeMarker).map { String(m[..<$0.lowerBound]) } ?? m
                    failure = TokenError(file: file, location: location(p),
                                         reason: "more than \(TokenFormats.maximumModes) modes (\(TokenError.quoted(String(shown.prefix(80)))) and \(16 * TokenFormats.maximumModes) others before it): each theme selector, selector of a list and media query is a mode")
                }
            }
        }

        mutating func walk(_ nodes: [CSSStylesheet.Node], context: Context) {
            for node in nodes where failure == nil {
                switch node {
                case .declaration(let d):
                    guard d.isCustomProperty else { continue }
                    // A namespace reset in `@theme` (`--color-*: initial`) is no token: it takes
                    // Tailwind's default values of that namespace out of the build (a new user's
                    // pass: `var(--color-blue-300)` had still been Tailwind's after the reset).
                    if d.name.hasSuffix("*") {
                        if context.inTheme, d.value.lowercased() == "initial", d.name == "--color-*" || d.name == "--*" {
                            if tailwindColorsReset == nil { tailwindColorsReset = "\(file) line \(d.position.line)" }
                        }
                        continue
                    }
                    if let skipping = context.skipping {
                        note("skip \(file) \(skipping)", Self.isForcedColors(skipping)
                             ? "\(file) line \(d.position.line): custom properties inside '\(skipping)' are not read: in forced colors mode the browser shows the user's system colors, which the platform sets, so there is nothing of the files' to audit"
                             : skipping.hasPrefix("@supports")
                             ? "\(file) line \(d.position.line): custom properties inside '\(skipping)' are not read: a fallback for browsers without what it tests, which a current browser skips"
                             : "\(file) line \(d.position.line): custom properties inside '\(skipping)' are not theme tokens; not read")
                        continue
                    }
                    let targets: [CSSModeMapping.Target]
                    if let t = context.targets {
                        targets = t
                        if let (m, p) = context.unrecognized { noteUnrecognized(m, at: p) }
                    } else {
                        // Directly in `@theme`, or (not valid CSS) outside any rule.
                        let m = CSSThemeReader.markedModeMapping(selector: nil, atRules: context.atRules)
                        register(m)
                        targets = m.targets
                        if !context.inTheme {
                            note("outside \(file)", "\(file) line \(d.position.line): custom properties outside any rule (not valid CSS) are read as \(describe(targets))")
                        }
                        noteUnrecognized(m, at: d.position)
                    }
                    // `inherit` and `unset` (a custom property inherits) on body or every element,
                    // and `revert-layer` anywhere, take what the element would have without this
                    // declaration: read as no declaration (a hostile pass: `body { --primary:
                    // inherit }` made the pair "not a color" and the audit fail, where the browser
                    // shows :root's color). On the root they inherit nothing: no color, as before.
                    let keyword = d.value.lowercased()
                    if d.fullLength == nil, keyword == "revert-layer" || (context.depth >= 1 && (keyword == "inherit" || keyword == "unset")) {
                        note("keyword \(file) \(keyword)", "\(file) line \(d.position.line): '\(d.name): \(d.value)' takes the value the element has without it (from its parent or an earlier cascade layer): read as no declaration")
                        continue
                    }
                    var reading = d.fullLength == nil ? CSSThemeReader.reading(of: d.value)
                                                      : Reading(value: .other(type: "long text"), type: nil, convention: nil)
                    if let length = d.fullLength {
                        note("long \(file) \(d.name)", "\(file) line \(d.position.line): the value of '\(d.name)' is \(length) characters long, more than any color (\(CSSStylesheet.maximumValueLength) are read); read as not a color")
                    }
                    if case .alias(let name) = reading.value, name == d.name {
                        reading = Reading(value: .other(type: TokenValue.selfReferenceType), type: nil, convention: nil)
                        note("self \(file) \(d.name)", "\(file) line \(d.position.line): '\(d.name): var(\(d.name))' refers to itself (in Tailwind's `@theme inline`, to a property set outside these files); read as not a color")
                    }
                    switch reading.convention {
                    case .hslTriplet?: tripletCount += 1; hslTripletNames.insert(d.name)
                    case .hslTripletWithNumbers?:
                        tripletCount += 1
                        hslTripletNames.insert(d.name)
                        notes.append("\(file) line \(d.position.line): '\(d.name): \(d.value)' is a bare HSL triplet with a number where a percentage is expected; read as hsl(\(d.value)), as browsers read hsl(var(\(d.name)))")
                    case .channels?: channelCount += 1
                    case .tailwindAlpha?: tailwindAlphaCount += 1
                    case .oklchTriplet?: oklchTripletCount += 1
                    case nil: break
                    }
                    if d.important { importantCount += 1 }
                    entries.append(Entry(path: d.name, value: reading.value, type: reading.type,
                                         important: d.important, themeDefault: context.themeDefault,
                                         location: location(d.position), fileIndex: fileIndex, targets: targets,
                                         inSchemeBase: context.schemeBase,
                                         layer: context.layerName.map { layerRank($0) } ?? .max,
                                         specificity: context.specificity,
                                         baseSpecificity: context.baseSpecificity,
                                         order: entries.count, depth: context.depth, listedModes: context.targets == nil ? [] : context.unrecognized?.0.listedModes ?? []))
                case .rule(let r):
                    // An empty rule sets nothing and holds no rule: nothing to nest (a hostile
                    // pass's 200,000 `&.x{}` under a 60 KB selector each made its selector).
                    if r.children.isEmpty { continue }
                    var inner = context
                    inner.selector = Self.nest(r.selector, in: context.selector)
                    // Nesting copies the parent into each `&`: bounded before it multiplies, each
                    // selector and all of them (a hostile pass, stop 38: 19,000 children of a
                    // 60 KB selector held over 2 GB and the heavy worker minutes past its 503).
                    if context.selector != nil, let nested = inner.selector {
                        nestedSelectorBytes += nested.utf8.count
                        if nested.utf8.count > CSSThemeReader.maximumNestedSelectorLength {
                            failure = TokenError(file: file, location: location(r.position),
                                                 reason: "this rule's selector, nested in its parents (each '&' their selector), is longer than \(CSSThemeReader.maximumNestedSelectorLength) bytes: not a theme selector")
                            return
                        }
                        if nestedSelectorBytes > CSSThemeReader.maximumNestedSelectorBytes {
                            failure = TokenError(file: file, location: location(r.position),
                                                 reason: "the nested rules' selectors, each with its parents' (each '&' their selector), come to more than \(CSSThemeReader.maximumNestedSelectorBytes) bytes by this rule: nest fewer rules under long selectors",
                                                 limit: CSSThemeReader.maximumNestedSelectorBytes)
                            return
                        }
                    }
                    // A rule that sets no custom property and no `color-scheme` is no mode: only
                    // the rules nested in it can be (a new user's pass: Bootstrap's layout rules,
                    // `.row-cols-md-6 > *`, were counted as modes and the file refused). Its
                    // specificity is not needed (nested rules take their own): it was a fifth of
                    // reading a compiled 1 MB stylesheet (stop 38).
                    if context.skipping == nil && !Self.declaresThemeProperties(r.children) {
                        inner.targets = nil
                        walk(r.children, context: inner)
                        continue
                    }
                    inner.specificity = CSSThemeReader.specificity(of: inner.selector)
                    inner.depth = CSSThemeReader.elementDepth(of: inner.selector)
                    if context.skipping != nil {
                        walk(r.children, context: inner)
                        continue
                    }
                    // The root below another element (`.dark :root`, as CSS Nesting makes `.dark
                    // &` inside `:root`) matches nothing: its declarations never apply (a hostile
                    // pass: it was read as dark, whose #0000aa beat `.dark`'s own #eee).
                    if let selector = inner.selector, CSSThemeReader.matchesNothing(selector) {
                        note("nothing \(file) \(r.position.line)", "\(file) line \(r.position.line): '\(String(selector.prefix(80)))' puts the root element below another, which matches no element: its custom properties never apply and are not read")
                        inner.skipping = "a selector that matches nothing"
                        walk(r.children, context: inner)
                        continue
                    }
                    let m = CSSThemeReader.markedModeMapping(selector: inner.selector, atRules: context.atRules)
                    register(m)
                    countModes(m.targets, at: r.position)
                    var targets = m.targets
                    inner.unrecognized = m.unrecognized.isEmpty ? nil : (m, r.position)
                    inner.schemeBase = false
                    if targets == [.base], let scheme = Self.colorScheme(of: r.children) {
                        targets = [.mode(scheme)]
                        inner.schemeBase = true
                        // Noted once the file shows whether it is also the base (`finishFile`).
                        baseSchemes.append(DeclaredScheme(scheme: CSSColorScheme(rawValue: scheme)!, targets: targets, selector: r.selector,
                                                          location: location(r.position), fileIndex: fileIndex))
                    } else if let scheme = Self.colorScheme(of: r.children).flatMap(CSSColorScheme.init(rawValue:)) {
                        declaredSchemes.append(DeclaredScheme(scheme: scheme, targets: targets, selector: r.selector,
                                                              location: location(r.position), fileIndex: fileIndex))
                    }
                    inner.targets = targets
                    walk(r.children, context: inner)
                case .atRule(let a):
                    guard let children = a.children else {
                        // `@layer theme, base;` orders the layers it names (CSS Cascade 5 §6.4.2).
                        if a.name == "layer" {
                            for name in CSSThemeReader.splitTopLevel(a.prelude, by: ",") {
                                let n = name.trimmingSpaces()
                                if !n.isEmpty { _ = layerRank(context.layerName.map { "\($0).\(n)" } ?? n) }
                            }
                        }
                        continue
                    }
                    var inner = context
                    let daisyUI = a.name == "plugin" ? Self.daisyUITheme(a.prelude, children) : nil
                    switch a.name {
                    case "media" where Self.isForcedColors(a.prelude):
                        // Forced colors replace the page's colors with the user's system colors
                        // (CSS Color Adjust 1 §3), which the platform sets: nothing to audit (a new
                        // user's pass: its `GrayText` made the whole audit a 400).
                        inner.skipping = a.text
                    case "media", "container", "scope", "document", "-moz-document", "utility", "variant", "custom-variant":
                        inner.atRules.append(a.text)
                        inner.targets = nil
                    case "supports" where CSSThemeReader.isNegatedSupports(a.prelude):
                        // `@supports not (color: oklch(0 0 0))` is a fallback for browsers without
                        // what it tests: a current browser skips it (a hostile pass, stop 38: its
                        // `#000` overrode the base's oklch() and an unreadable pair passed).
                        inner.skipping = a.text
                    case "supports":
                        break
                    case "layer":
                        let n = a.prelude.trimmingSpaces()
                        anonymousLayers += 1
                        let own = n.isEmpty ? "\u{1}anonymous \(anonymousLayers)" : n
                        inner.layerName = context.layerName.map { "\($0).\(own)" } ?? own
                        _ = layerRank(inner.layerName!)
                    case "plugin" where daisyUI != nil:
                        // daisyUI 5's `@plugin "daisyui/theme" { name: "x"; default: true; … }`
                        // compiles to `[data-theme=x]` in `@layer base`, and `:root` too when it is
                        // the default (a new user's pass: two such themes were one mode, the later
                        // one's).
                        let theme = daisyUI!
                        // Quoted unless a plain identifier: a name with a space, '.' or non-ASCII
                        // letters made no selector, and such themes fell into one mode whose later
                        // values won (a hostile pass, stop 38).
                        let plain = !theme.name.isEmpty && theme.name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
                            && !(theme.name.first?.isNumber ?? false)
                        let selector = plain ? "[data-theme=\(theme.name)]" : "[data-theme=\"\(theme.name)\"]"
                        let m = CSSThemeReader.markedModeMapping(selector: selector, atRules: context.atRules)
                        register(m)
                        var targets = m.targets
                        if theme.isDefault && !targets.contains(.base) {
                            targets.insert(.base, at: 0)
                            inner.baseSpecificity = 0
                            if case .mode(let name)? = m.targets.first { baseMode = name }
                        }
                        inner.targets = targets
                        inner.selector = selector
                        inner.specificity = CSSThemeReader.specificity(of: selector)
                        inner.depth = CSSThemeReader.elementDepth(of: selector)
                        inner.schemeBase = false
                        // daisyUI writes its themes into `@layer base` (a new user's pass: an
                        // unlayered `:root { --color-primary }` wins over every theme there).
                        if inner.layerName == nil { inner.layerName = "base"; _ = layerRank("base") }
                        if let scheme = Self.colorScheme(of: children).flatMap(CSSColorScheme.init(rawValue:)) {
                            declaredSchemes.append(DeclaredScheme(scheme: scheme, targets: m.targets, selector: selector,
                                                                  location: location(a.position), fileIndex: fileIndex))
                        }
                        note("daisyui \(file) \(a.position.line)", "\(file) line \(a.position.line): @plugin \"daisyui/theme\" named '\(theme.name)' is read as \(selector)\(theme.isDefault ? " and :root (default: true)" : ""), as daisyUI 5 compiles it\(theme.prefersDark ? "; with prefersdark: true it is also what @media (prefers-color-scheme: dark) shows" : "")")
                    case "theme":
                        sawTheme = true
                        inner.inTheme = true
                        if inner.selector == nil { inner.specificity = CSSThemeReader.specificity(of: ":root") }
                        // Tailwind v4 writes `@theme` variables into its `theme` layer, which
                        // unlayered rules (a `:root` of the stylesheet) beat.
                        if inner.layerName == nil { inner.layerName = "theme"; _ = layerRank("theme") }
                        inner.themeDefault = a.prelude.split(separator: " ").contains("default")
                    case "property":
                        // `@property --x { inherits: false; initial-value: … }`: a registered
                        // property that does not inherit (CSS Properties and Values API 1 §3).
                        let name = CSSVariables.unescapedName(a.prelude.trimmingSpaces())
                        var inherits = true, initial: String? = nil
                        for case .declaration(let d) in children {
                            switch d.name.lowercased() {
                            case "inherits": inherits = d.value.lowercased() != "false"
                            case "initial-value": initial = d.value
                            default: break
                            }
                        }
                        if name.hasPrefix("--"), !inherits { notInherited[name] = initial }
                        inner.skipping = a.text
                    case "keyframes", "-webkit-keyframes", "font-face", "page", "counter-style",
                         "font-feature-values", "font-palette-values", "position-try", "view-transition", "starting-style":
                        inner.skipping = a.text
                    default:
                        inner.atRules.append(a.text)
                        inner.targets = nil
                    }
                    if inner.targets == nil { inner.schemeBase = false }
                    if inner.targets == nil, context.selector != nil, inner.skipping == nil {
                        // An at-rule nested in a style rule: the rule's selector under the at-rule.
                        let m = CSSThemeReader.markedModeMapping(selector: inner.selector, atRules: inner.atRules)
                        register(m)
                        inner.unrecognized = m.unrecognized.isEmpty ? nil : (m, a.position)
                        inner.targets = m.targets
                    }
                    walk(children, context: inner)
                }
            }
        }

        /// The notes on one file's conventions, after it is walked; and its base rule's mode.
        ///
        /// A base rule that declares its color scheme is that mode when it is all the file has
        /// (Material's `theme/light.css`). In a file with other modes (`:root { color-scheme:
        /// light }` beside `.dark { color-scheme: dark }`) the other modes inherit from it, as
        /// they do in a browser: its declarations are the base and that mode both (a new user's
        /// pass: `.dark` lacked every token only `:root` set, a 400, or unresolved pairs that
        /// passed the audit).
        mutating func finishFile() {
            let own = entries.indices.filter { entries[$0].fileIndex == fileIndex }
            let others = own.contains { k in
                !entries[k].inSchemeBase && entries[k].targets.contains { if case .mode = $0 { return true }; return false }
            } || declaredSchemes.contains { $0.fileIndex == fileIndex }
            for b in baseSchemes {
                if others { inheritedBaseScheme = b }
                note("scheme \(file) \(b.location.line)", "\(file) line \(b.location.line): '\(b.selector)' sets color-scheme: \(b.scheme.rawValue); its custom properties are read as mode '\(b.scheme.rawValue)'"
                     + (others ? " and as the base the file's other modes inherit from" : ""))
            }
            // Either way the scheme is the mode's, fixed.
            declaredSchemes += baseSchemes
            baseSchemes = []
            if others {
                for k in own where entries[k].inSchemeBase && !entries[k].targets.contains(.base) {
                    entries[k].targets.insert(.base, at: 0)
                }
            }
            if tripletCount > 0 {
                notes.append("\(file): \(tripletCount) bare HSL triplet\(tripletCount == 1 ? "" : "s") (shadcn's `0 0% 100%`, used as `hsl(var(--x))`) read as hsl(…)")
            }
            if channelCount > 0 {
                notes.append("\(file): \(channelCount) channel triplet\(channelCount == 1 ? "" : "s") (Material's `65 14 11`, used as `rgb(var(--x-rgb))`) kept as text for var() substitution, token type 'channels': not a color by itself")
            }
            if oklchTripletCount > 0 {
                notes.append("\(file): \(oklchTripletCount) bare OKLCH triplet\(oklchTripletCount == 1 ? "" : "s") (daisyUI 4's `49.12% 0.3096 275.75`, used as oklch(var(--x))) read as oklch(…)")
            }
            if tailwindAlphaCount > 0 {
                notes.append("\(file): \(tailwindAlphaCount) value\(tailwindAlphaCount == 1 ? "" : "s") of Tailwind's --alpha(color / amount) read as color-mix(in oklab, color amount, transparent), as Tailwind compiles it")
            }
            if importantCount > 0 {
                notes.append("\(file): \(importantCount) custom propert\(importantCount == 1 ? "y" : "ies") marked !important; the flag only decides which declaration wins")
            }
            tripletCount = 0
            channelCount = 0
            tailwindAlphaCount = 0
            oklchTripletCount = 0
            importantCount = 0
        }

        mutating func noteUnrecognized(_ m: CSSModeMapping, at p: CSSStylesheet.Position) {
            guard !m.unrecognized.isEmpty else { return }
            guard noted.insert("unrecognized \(file) \(p.line) \(p.column)").inserted else { return }
            let what = m.unrecognized.map { "'\($0)'" }.joined(separator: ", ")
            // Beside selectors of its list that are understood (`listedModes`), it makes no mode
            // of its own (a pass against Chromium: the note said '.dim' was "read as mode
            // 'dark'", with the reader's internal marker in the name, and the `.dim` state went
            // unmentioned).
            let how = m.listedModes.isEmpty ? "its custom properties are read as \(describe(m.targets))"
                          : "the rule is read for \(describe(m.targets)) (the selectors of its list that are), and for the state \(m.unrecognized.count == 1 ? "it makes" : "they make") only where another rule makes \(m.unrecognized.count == 1 ? "it a mode" : "them modes")"
            unrecognizedNotes.append((text: "\(file) line \(p.line): \(what) \(m.unrecognized.count == 1 ? "is" : "are") not a known mode selector or condition; \(how)",
                                      modes: m.targets.compactMap { t -> String? in if case .mode(let name) = t { return name }; return nil }))
        }
        /// `noteUnrecognized`'s notes, with the modes each names: said after the component
        /// scopes left out are known (`read`).
        var unrecognizedNotes: [(text: String, modes: [String])] = []

        func describe(_ targets: [CSSModeMapping.Target]) -> String {
            targets.map { t in
                switch t {
                case .base: return "the base"
                // (A scheme's source, riding along in the name until the reader merges sources,
                // is not shown.)
                case .mode(let m): return "mode '\(m.firstRange(of: CSSThemeReader.schemeMarker).map { String(m[..<$0.lowerBound]) } ?? m)'"
                }
            }.joined(separator: " and ")
        }

        /// A nested rule's selector: `&` replaced by the parent (as `:is(parent)` when the
        /// parent is a list), or the parent then a descendant combinator.
        static func nest(_ selector: String, in parent: String?) -> String {
            guard let parent else { return selector }
            let parentList = CSSThemeReader.splitTopLevel(parent, by: ",")
            let p = parentList.count == 1 ? parent : ":is(\(parent))"
            return CSSThemeReader.splitTopLevel(selector, by: ",").map { part in
                part.contains("&") ? part.replacingAll("&", with: p) : "\(p) \(part)"
            }.joined(separator: ", ")
        }

        /// A daisyUI 5 theme block (`@plugin "daisyui/theme" { name: "corporate"; default: true;
        /// prefersdark: false; … }`, daisyui.com/docs/themes): its name (no quotes, backslashes or
        /// control characters) and flags; nil for another plugin or a theme without a usable name.
        static func daisyUITheme(_ prelude: String, _ nodes: [CSSStylesheet.Node]) -> (name: String, isDefault: Bool, prefersDark: Bool)? {
            let p = prelude.trimmingSpaces()
            guard p == "\"daisyui/theme\"" || p == "'daisyui/theme'" else { return nil }
            var fields: [String: String] = [:]
            for case .declaration(let d) in nodes where !d.isCustomProperty {
                var v = d.value.trimmingSpaces()
                if v.count >= 2, let f = v.first, f == v.last, f == "\"" || f == "'" { v = String(v.dropFirst().dropLast()) }
                fields[d.name.lowercased()] = v
            }
            // Any name a `data-theme` attribute can hold but quotes, backslashes and controls
            // (a hostile pass, stop 38: `brand one`, `brand.v2` and `café` had been refused here
            // and fell into one generic mode, the later theme's values winning).
            guard let name = fields["name"], !name.isEmpty, name.count <= 64,
                  name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "\\" && $0 != "'" }) else { return nil }
            return (name, fields["default"]?.lowercased() == "true", fields["prefersdark"]?.lowercased() == "true")
        }

        /// Whether a media query's text asks for forced colors (`(forced-colors: active)`, not
        /// `none` nor `not (…)`).
        static func isForcedColors(_ text: String) -> Bool {
            let t = text.lowercased().replacingAll(" ", with: "")
            return t.contains("forced-colors:active") && !t.contains("not(forced-colors") && !t.hasPrefix("not")
        }

        /// Whether `nodes` (a rule's contents) declare a custom property or `color-scheme`, directly
        /// or inside an at-rule (`@supports`, `@media`) in them; not inside a nested rule, which
        /// is a mode of its own.
        static func declaresThemeProperties(_ nodes: [CSSStylesheet.Node]) -> Bool {
            nodes.contains { node in
                switch node {
                case .declaration(let d): return d.isCustomProperty || d.name == "color-scheme"
                case .atRule(let a): return a.children.map(declaresThemeProperties) ?? false
                case .rule: return false
                }
            }
        }

        /// `color-scheme: light` or `dark` (optionally with `only`) among a rule's declarations.
        static func colorScheme(of nodes: [CSSStylesheet.Node]) -> String? {
            var found: String? = nil
            for case .declaration(let d) in nodes where d.name == "color-scheme" {
                let words = d.value.lowercased().split(separator: " ").filter { $0 != "only" }
                found = words.count == 1 && (words[0] == "light" || words[0] == "dark") ? String(words[0]) : nil
            }
            return found
        }
    }

    /// Whether `text` holds a `color-scheme` declaration: the property's name followed by `:`,
    /// not the media feature `prefers-color-scheme` (a comment that writes one counts too).
    static func declaresColorScheme(_ text: String) -> Bool {
        let lower = text.lowercased()
        var from = lower.startIndex
        while let r = lower.range(of: "color-scheme", range: from..<lower.endIndex) {
            let before = lower[..<r.lowerBound]
            if !before.hasSuffix("prefers-"), lower[r.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" }).first == ":" { return true }
            from = r.upperBound
        }
        return false
    }

    /// Whether a component scope's name may be a theme's: a compound on the root element
    /// (`:root`, `html`, `body`, `:host`; not `.card-body`) or a class or attribute whose words
    /// name a scheme, a theme, a mode or a contrast (`night`, `dark`, `dim`, `hc`, …). Such scopes never give way
    /// (`pruneScopes`).
    static func mayBeTheme(_ mode: String) -> Bool {
        let lower = mode.lowercased()
        // A compound on the root element (`html.night`, `:root.dark3`, `body.vscode-dark`).
        let compounds = lower.split(whereSeparator: { $0 == " " || $0 == ">" || $0 == "+" || $0 == "~" || $0 == "," })
        if compounds.contains(where: { c in [":root", "html", "body", ":host"].contains { c.hasPrefix($0) } }) { return true }
        let words = lower.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        let themeWords: Set<Substring> = ["theme", "mode", "scheme", "dark", "light", "night", "day", "dim", "dimmed", "contrast", "hc", "appearance"]
        return words.contains { themeWords.contains($0) || $0.hasPrefix("dark") || $0.hasPrefix("light") || $0.hasPrefix("night") || $0.hasPrefix("theme") }
    }

    /// The modes whose rules declare `color-scheme`.
    static func modesDeclaringSchemes(_ declared: [Walker.DeclaredScheme]) -> Set<String> {
        Set(declared.flatMap(\.targets).compactMap { t -> String? in if case .mode(let m) = t { return m }; return nil })
    }

    /// Whether mode `m` is a component scope: its selector has parts not understood (a class,
    /// `ModeConditions.others`) and names no theme, color scheme or contrast, and its rules
    /// declare no `color-scheme` (`schemed`). A mode of at-rules only is not, nor one given to a
    /// file (`TokenFile.mode`; those are left out by the caller).
    static func isScope(_ m: String, schemed: Set<String>, conditions: [String: ModeConditions]) -> Bool {
        guard !schemed.contains(m) else { return false }
        // (A mode named after at-rules and a selector keeps no conditions of its own.)
        guard let c = conditions[m] else { return !m.hasPrefix("@") || m.contains(" .") }
        return c.theme == nil && c.scheme == nil && c.contrast == nil && !c.others.isEmpty
    }

    /// When the files make more modes than an audit holds (`TokenFormats.maximumModes`), the
    /// component scopes give way rather than the whole audit being refused: a mode whose
    /// selector names no theme, color scheme or contrast (Bootstrap 5's `.btn-primary {
    /// --bs-btn-bg: … }`, `.g-0 { --bs-gutter-x: 0 }`) is a scope of components, not a state of
    /// the page. First the scopes that set no color (every value not a color nor an alias) are
    /// left out, then the last scopes in source order, until the modes fit; each with a note
    /// naming how many and the first few (numbers kept as text for `var()` are not colors). A
    /// scope that may be a theme (`mayBeTheme`) gives way only when it sets no color; a mode
    /// that declares `color-scheme` is no scope. Nothing changes for files within the limit;
    /// when themes alone are too many, `read` refuses the file as before. `dropped` receives the
    /// scopes left out.
    static func pruneScopes(_ entries: inout [Entry], declaredSchemes: [Walker.DeclaredScheme], schemed: Set<String>,
                            conditions: [String: ModeConditions], dropped: inout Set<String>, warnings: inout [String]) -> [String] {
        var order: [String] = [], seen = Set<String>()
        for targets in entries.map(\.targets) + declaredSchemes.map(\.targets) {
            for case .mode(let m) in targets where seen.insert(m).inserted { order.append(m) }
        }
        // (The base, `:root`, is not one of them.)
        let room = TokenFormats.maximumModes
        guard order.count > room else { return [] }
        func isScope(_ m: String) -> Bool { Self.isScope(m, schemed: schemed, conditions: conditions) }
        var coloured = Set<String>()
        for e in entries {
            // Not a color: `.other`, and the numbers kept as text for var() (`--bs-gutter-x: 0`).
            if case .other = e.value { continue }
            if let type = e.type, DesignToken.componentTypes.contains(type) { continue }
            for case .mode(let m) in e.targets { coloured.insert(m) }
        }
        var notes: [String] = []
        func shown(_ names: [String]) -> String {
            names.prefix(4).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 4 ? ", …" : "")
        }
        // A scope that may be a theme never gives way: one on the root element (`:root.dark3`,
        // `html.night`, `body.vscode-dark`) or named like one (`.night`, `.is-dark`, `.hc`:
        // a hostile pass saw such themes dropped behind 100 scopes, and the audit passed).
        func givesWay(_ m: String) -> Bool { isScope(m) && !Self.mayBeTheme(m) }
        // A scope that sets no color at all gives way whatever its name (Bootstrap's `.bg-dark {
        // --bs-bg-opacity: 1 }`).
        let colorless = order.filter { isScope($0) && !coloured.contains($0) }
        if !colorless.isEmpty {
            dropped.formUnion(colorless)
            notes.append("\(colorless.count) selector\(colorless.count == 1 ? "" : "s") naming no theme, color scheme or contrast set\(colorless.count == 1 ? "s" : "") custom properties but no color (\(shown(colorless))): component scopes, not read as modes, since the files make more than the \(TokenFormats.maximumModes) modes an audit holds")
        }
        let kept = order.filter { !dropped.contains($0) }
        if kept.count > room {
            var excess = kept.count - room
            var cut: [String] = []
            for m in kept.reversed() where excess > 0 && givesWay(m) {
                cut.append(m)
                excess -= 1
            }
            cut.reverse()
            if !cut.isEmpty {
                dropped.formUnion(cut)
                warnings.append("\(cut.count) component scope\(cut.count == 1 ? "" : "s") with colors \(cut.count == 1 ? "was" : "were") not audited (\(shown(cut))): the files make more than the \(TokenFormats.maximumModes) modes an audit holds, and the last scopes in source order give way; send the rules you want audited on their own")
            }
        }
        guard !dropped.isEmpty else { return [] }
        entries = entries.compactMap { e in
            var e = e
            e.targets.removeAll { if case .mode(let m) = $0 { return dropped.contains(m) }; return false }
            return e.targets.isEmpty ? nil : e
        }
        return notes
    }

    // MARK: The cascade

    struct Slot {
        var value: TokenValue
        var important: Bool
        var themeDefault: Bool
        var location: TokenLocation
        /// The cascade layer's rank (`Walker.layerRank`), `Int.max` outside any layer.
        var layer: Int = .max
        /// The selector's specificity (`CSSThemeReader.specificity(of:)`).
        var specificity: Int = 0
        /// Source order across the files (the entry's index).
        var order: Int = 0
        /// How deep the element the rule sets lies (`CSSThemeReader.elementDepth(of:)`).
        var depth: Int = 0
    }

    struct Merger {
        struct Token {
            var path: String
            var first: TokenLocation
            var base: Slot?
            var modes: [String: Slot] = [:]
            var modeOrder: [String] = []
            var type: String?
            /// The modes whose rules set the token (not inherited: `inherit(modes:conditions:)`).
            var ownModes: Set<String> = []
        }
        var tokens: [String: Token] = [:]
        var order: [String] = []
        /// The modes of an element below another (`.dark .card`), as `inherit` finds them: the
        /// mode of its ancestor and the tokens set on the element itself (`TokenSet.descendantModes`).
        var descendants: [String: DescendantMode] = [:]

        /// - Throws: `TokenError` for a custom property whose name Swift's strings take for an
        ///   earlier one's that CSS keeps apart (`CanonicalNames`).
        mutating func set(_ e: Entry, target: CSSModeMapping.Target) throws(TokenError) {
            if let known = tokens[e.path] {
                if CanonicalNames.differ(known.path, e.path) {
                    throw CanonicalNames.clash("custom property", e.path, at: e.location, known.path, at: known.first)
                }
            } else {
                tokens[e.path] = Token(path: e.path, first: e.location)
                order.append(e.path)
            }
            let slot = Slot(value: e.value, important: e.important, themeDefault: e.themeDefault, location: e.location, layer: e.layer,
                            specificity: target == .base ? e.baseSpecificity ?? e.specificity : e.specificity, order: e.order,
                            depth: e.depth)
            if e.type != nil { tokens[e.path]!.type = e.type }
            switch target {
            case .base:
                tokens[e.path]!.base = Self.winner(tokens[e.path]!.base, slot)
            case .mode(let m):
                if tokens[e.path]!.modes[m] == nil { tokens[e.path]!.modeOrder.append(m) }
                tokens[e.path]!.modes[m] = Self.winner(tokens[e.path]!.modes[m], slot)
                tokens[e.path]!.ownModes.insert(m)
            }
        }

        /// A combined mode (`dark-high-contrast`, `zinc-dark`) takes, for each token it does not
        /// set, the value of the mode it combines that sets it — the one of most conditions, the
        /// later on ties — as the browser applies `@media (prefers-color-scheme: dark)`'s rules
        /// inside `(prefers-contrast: more)` too; else the base, as every mode. A mode named
        /// after its selector combines the parts of it (`.dark.hc` takes from `dark` and `.hc`);
        /// one under an at-rule not understood combines nothing.
        /// A new user's pass: `dark-high-contrast` had the base's `#ffffff` background, not dark's.
        /// Returns the notes on what each mode takes, none for the modes in `silent`.
        mutating func inherit(modes: [String], conditions: [String: ModeConditions], silent: Set<String> = []) -> [String] {
            var lines: [String] = []
            // Each mode's own declarations, before any mode takes values from another.
            var own: [String: [String: Slot]] = [:]
            for path in order {
                let t = tokens[path]!
                for m in t.ownModes { own[path, default: [:]][m] = t.modes[m] }
            }
            // Two passes: the states of the element the base styles first, so that a state on a
            // descendant (`.dark .card`) inherits what they show after the cascade.
            func sameElement(_ c: ModeConditions) -> Bool { c.ancestorParts.isEmpty && c.others.isEmpty && c.parts != nil }
            for pass in 0..<2 {
            for (index, mode) in modes.enumerated() {
                guard let cond = conditions[mode], sameElement(cond) == (pass == 0) else { continue }
                // A mode whose parts are all the element's own comes first: its rules match the
                // element, and beat what an ancestor's pass down (`.card` over `.dark` in
                // `.dark .card`, whatever their order: a new user's pass); then the one of most
                // conditions, the later on ties.
                let parents = modes.enumerated().compactMap { (i, m) -> (Int, Int, Int, String)? in
                    guard i != index, let c = conditions[m], c.isPart(of: cond), let n = c.parts else { return nil }
                    return (c.partNames.isDisjoint(with: cond.ancestorParts) ? 1 : 0, n, i, m)
                }.sorted { ($0.0, $0.1, $0.2) > ($1.0, $1.1, $1.2) }.map(\.3)
                if pass == 0 {
                    // A state of the element the base's rules style too (a scheme or theme on
                    // the root, a media query): every rule whose conditions hold applies to it,
                    // and the cascade picks each token's value (`winner`: importance, layer,
                    // specificity, order), the base's `:root` among them. A new user's pass: a
                    // later `@media (prefers-contrast: more)` rule lost to an earlier one for
                    // dark and more contrast, a later `:root` to an earlier media query's, and
                    // an unlayered `:root` to a layered `.dark`, three false passes.
                    var taken = 0, overridden = 0
                    for path in order {
                        let mine = own[path]?[mode]
                        var best = mine
                        for p in parents { if let slot = own[path]?[p] { best = Self.winner(best, slot) } }
                        guard var chosen = best else { continue }
                        if let base = tokens[path]!.base { chosen = Self.winner(chosen, base) }
                        // The same value as the mode's own rule: reported where the mode writes it.
                        if let m = mine, m.value == chosen.value { chosen = m }
                        if mine == nil {
                            if tokens[path]!.modes[mode] == nil { tokens[path]!.modeOrder.append(mode) }
                            taken += 1
                        } else if chosen.order != mine!.order {
                            overridden += 1
                        }
                        tokens[path]!.modes[mode] = chosen
                    }
                    if taken > 0 && !silent.contains(mode) {
                        lines.append("mode '\(mode)' takes \(taken) value\(taken == 1 ? "" : "s") it does not set from \(parents.isEmpty ? "the base" : parents.map { "'\($0)'" }.joined(separator: ", ")), whose rules apply there too")
                    }
                    if overridden > 0 {
                        lines.append("in mode '\(mode)', \(overridden) value\(overridden == 1 ? "" : "s") its own rules set \(overridden == 1 ? "is" : "are") overridden by a rule that applies there too and wins the cascade (later, more specific, !important or in a later layer)\(parents.isEmpty ? " (the base's)" : "")")
                    }
                    continue
                }
                // What the element itself sets: its own rules' values and those of rules for its
                // own parts (`.card` in `.dark .card`), not what its ancestors' rules pass down.
                let onAncestor = { (p: String) in conditions[p].map { !$0.partNames.isDisjoint(with: cond.ancestorParts) } ?? false }
                var declared = Set(order.filter { own[$0]?[mode] != nil })
                var taken = 0
                for path in order where !parents.isEmpty && tokens[path]!.modes[mode] == nil {
                    // A parent's own value, or what the cascade gave a parent on the element the
                    // base styles (the first pass: `.dark` after a later `:root` shows `:root`'s).
                    func value(_ p: String) -> Slot? {
                        if let c = conditions[p], sameElement(c) { return tokens[path]!.modes[p] }
                        return own[path]?[p]
                    }
                    guard let from = parents.first(where: { value($0) != nil }) else { continue }
                    tokens[path]!.modes[mode] = value(from)
                    tokens[path]!.modeOrder.append(mode)
                    if !onAncestor(from) { declared.insert(path) }
                    taken += 1
                }
                // An element below another (`.dark .card`): what it does not set itself is what
                // its ancestor computed, inherited (`TokenSet.descendantModes`).
                if !cond.ancestorParts.isEmpty {
                    let ancestor = parents.first { p in onAncestor(p) && conditions[p]!.partNames.isSubset(of: cond.ancestorParts) }
                    descendants[mode] = DescendantMode(ancestor: ancestor, declared: declared)
                }
                if taken > 0 && !silent.contains(mode) {
                    lines.append("mode '\(mode)' takes \(taken) value\(taken == 1 ? "" : "s") it does not set from \(parents.map { "'\($0)'" }.joined(separator: ", ")), whose rules apply there too")
                }
            }
            }
            return lines
        }

        /// Whether every token has the same value in modes `a` and `b` (their own or inherited,
        /// else the base).
        func sameValues(_ a: String, _ b: String) -> Bool {
            order.allSatisfy { path in
                let t = tokens[path]!
                return (t.modes[a] ?? t.base)?.value == (t.modes[b] ?? t.base)?.value
            }
        }

        /// The warning for tokens set on the root with `var()` of a token that body or every
        /// element sets again (`:root { --primary: var(--brand) } body { --brand: … }`): a
        /// browser computes `--primary` on the root, with the root's `--brand`, and the page
        /// inherits that, where this reading resolves it with body's (a hostile pass: a false
        /// PASS). Nil when there are none.
        func deepReferenceWarning() -> String? {
            var found: [String] = []
            for path in order {
                guard let slot = tokens[path]!.base, slot.depth <= 0 else { continue }
                let refs: [String]
                switch slot.value {
                case .alias(let a): refs = [a]
                case .css(let text) where text.contains("var("): refs = CSSThemeReader.referencedCustomProperties(text)
                default: continue
                }
                if let r = refs.first(where: { (tokens[$0]?.base?.depth ?? 0) >= 1 }) { found.append("\(path) → \(r)") }
            }
            guard !found.isEmpty else { return nil }
            let n = found.count
            return "\(n) token\(n == 1 ? " is" : "s are") set on the root with var() of a token that body or every element sets again (\(found.prefix(5).joined(separator: "; "))\(n > 5 ? "; …" : "")): a browser computes \(n == 1 ? "it" : "each") on the root, with the root's value of the other, and the page inherits that, where this audit resolves \(n == 1 ? "it" : "them") with the deeper value; set \(n == 1 ? "it" : "them") on body too, or the other token on the root only"
        }

        /// `path` as a registered property that does not inherit: slots of rules on an ancestor
        /// of the text (depth below 2) give way to `initial` (no value when nil).
        mutating func applyNotInherited(_ path: String, initial: String?) {
            guard var t = tokens[path] else { return }
            let initialSlot = initial.map { text in
                Slot(value: CSSThemeReader.reading(of: text).value, important: false, themeDefault: false, location: t.first, depth: 2)
            }
            if let b = t.base, b.depth < 2 { t.base = initialSlot }
            for (m, slot) in t.modes where slot.depth < 2 {
                if let i = initialSlot { t.modes[m] = i } else { t.modes[m] = nil; t.modeOrder.removeAll { $0 == m } }
            }
            tokens[path] = t
        }

        /// Removes mode `m` from every token.
        mutating func drop(mode m: String) {
            for path in order where tokens[path]!.modes[m] != nil {
                tokens[path]!.modes[m] = nil
                tokens[path]!.modeOrder.removeAll { $0 == m }
                tokens[path]!.ownModes.remove(m)
            }
        }

        /// The declaration that wins: `!important` first, then the later cascade layer (unlayered
        /// last; the earlier for `!important`, CSS Cascade 5 §6.4), then not `@theme default`,
        /// then the higher specificity (Selectors 4 §17), then the later in source order. A new
        /// user's pass: `@layer base { :root { --foreground: #111 } }` after an unlayered
        /// `:root`'s #aaa had won, though the browser shows #aaa (2.32:1).
        static func winner(_ old: Slot?, _ new: Slot) -> Slot {
            guard let old else { return new }
            // A deeper element's own value is what the text inside it sees, whatever its
            // ancestors declare (the cascade picks among one element's declarations; a
            // descendant's beats what it inherits): `body { --primary: #eee }` or `* { … }` over
            // `:root`'s (a hostile pass: `:root`'s #1d4ed8 was measured, 6.70:1, where every
            // element in the page shows #eee, 1.16:1).
            if old.depth != new.depth { return old.depth > new.depth ? old : new }
            if old.important != new.important { return old.important ? old : new }
            if old.layer != new.layer { return (old.important ? old.layer < new.layer : old.layer > new.layer) ? old : new }
            if old.themeDefault != new.themeDefault { return old.themeDefault ? new : old }
            var w = old.specificity != new.specificity ? (old.specificity > new.specificity ? old : new) : (old.order > new.order ? old : new)
            // The same value written twice keeps the place it was first written, for reports.
            if old.value == new.value { w.location = old.order <= new.order ? old.location : new.location }
            return w
        }

        /// `hsl(var(--x))` where `--x` is a bare HSL triplet read as `hsl(…)` is an alias of
        /// `--x`. `hsl(var(--x) / a)` stays as written: a triplet is substituted as written
        /// (`TokenResolver`), which gives `hsl(240 10% 3.9% / a)` as in the browser (it had been
        /// rewritten `hsl(from var(--x) h s l / a)`, which became `hsl(from 240 10% 3.9% …)` once
        /// the substitution followed the browser, and refused shadcn's `hsl(var(--x) / 0.8)`: a
        /// new user's pass).
        mutating func rewriteHSLReferences(tripletNames: Set<String>) -> [String] {
            guard !tripletNames.isEmpty else { return [] }
            var count = 0
            func rewrite(_ slot: inout Slot) {
                guard case .css(let text) = slot.value, let (name, alpha) = CSSThemeReader.hslReference(text),
                      alpha == nil, tripletNames.contains(name) else { return }
                slot.value = .alias(name)
                count += 1
            }
            for path in order {
                if tokens[path]!.base != nil { rewrite(&tokens[path]!.base!) }
                for m in tokens[path]!.modeOrder { rewrite(&tokens[path]!.modes[m]!) }
            }
            return count == 0 ? [] : ["\(count) value\(count == 1 ? "" : "s") of the form hsl(var(--x)) on a bare HSL triplet read as that token"]
        }

        func token(_ path: String) -> DesignToken {
            let t = tokens[path]!
            var modeLocations: [String: TokenLocation] = [:]
            for (m, slot) in t.modes { modeLocations[m] = slot.location }
            return DesignToken(path: path, base: t.base?.value, modes: t.modes.mapValues(\.value),
                               location: t.base?.location ?? t.first, modeLocations: modeLocations, type: t.type)
        }
    }

    /// How deep the element a selector sets custom properties on lies, for the text inside the
    /// page: 0 for the root (`:root`, `html`, `:host`, a class or attribute alone: a scheme or
    /// theme class is taken to sit on `<html>`, as next-themes and shadcn put it, and as the modes
    /// are read; or no selector), 1 for `body` (`body`, `html body`, `:where(body)`, `body.x`), 2
    /// for every element (`*`, `body *`, `.dark *`, as the subject); a subject with a
    /// pseudo-element (`body::after`) is 0, since its value never reaches the text; for a list,
    /// its deepest. The text sees the deepest element's own value (a descendant's declaration
    /// beats what it inherits): a new user's pass had `body { --primary: #eee }` lose to `.dark`.
    static func elementDepth(of selector: String?) -> Int {
        guard let selector else { return 0 }
        var deepest = Int.min
        for option in splitTopLevel(selector, by: ",") {
            // The subject compound: after the last combinator.
            let lower = (compounds(option.trimmingSpaces()).last ?? "").lowercased()
            if lower.contains("::") {
                deepest = Swift.max(deepest, 0)
            } else if lower.hasPrefix("*") {
                deepest = Swift.max(deepest, 2)
            } else if lower == "body" || ["body.", "body:", "body[", "body#"].contains(where: lower.hasPrefix)
                        || [":where(body)", ":is(body)"].contains(where: lower.hasPrefix) {
                deepest = Swift.max(deepest, 1)
            } else {
                deepest = Swift.max(deepest, 0)
            }
        }
        return deepest == Int.min ? 0 : deepest
    }

    /// A selector's specificity (Selectors 4 §17) packed as `a·10⁶ + b·10³ + c` (ids; classes,
    /// attributes and pseudo-classes; types and pseudo-elements), each part at most 999; for a
    /// list, its highest. `:where()` counts nothing, `:is()`, `:not()` and `:has()` their most
    /// specific argument. Nil selector (declarations outside any rule): 0.
    static func specificity(of selector: String?) -> Int {
        guard var selector else { return 0 }
        // On UTF-8 bytes, each argument a range of the one buffer (Characters and copied
        // arguments had been a fifth of reading a stylesheet of long selectors, stop 38).
        return selector.withUTF8 { bytes in
            topLevelRanges(bytes, 0..<bytes.count).map { compoundSpecificity(bytes, $0) }.max() ?? 0
        }
    }

    /// The ranges of `bytes[range]` between its `separator`s (ASCII) outside `()`, `[]`, strings
    /// and escapes, at most `maxSplits` splits, not trimmed (`splitTopLevel`, `specificity`).
    /// An escaped character is part of a name (`.dark\,x` is one class: a hostile pass's
    /// `.dark\,\,\,` had been split into modes at its commas).
    static func topLevelRanges(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, separator: UInt8 = 0x2C,
                               maxSplits: Int = .max) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var from = range.lowerBound, depth = 0
        var quote: UInt8 = 0
        var escaped = false
        for i in range {
            let c = bytes[i]
            if quote != 0 {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == quote { quote = 0 }
                continue
            }
            if escaped { escaped = false; continue }
            if c == 0x5C { escaped = true; continue }
            if c == 0x22 || c == 0x27 { quote = c }
            else if c == 0x28 || c == 0x5B { depth += 1 }
            else if c == 0x29 || c == 0x5D { depth -= 1 }
            else if c == separator && depth == 0 && parts.count < maxSplits { parts.append(from..<i); from = i + 1 }
        }
        parts.append(from..<range.upperBound)
        return parts
    }

    private static func compoundSpecificity(_ chars: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, depth: Int = 0) -> Int {
        var (a, b, c) = (0, 0, 0)
        var i = range.lowerBound
        let end = range.upperBound
        // A name character: ASCII letter, digit, `-`, `_`, or any non-ASCII character.
        func isName(_ ch: UInt8) -> Bool {
            (ch >= 0x61 && ch <= 0x7A) || (ch >= 0x41 && ch <= 0x5A) || (ch >= 0x30 && ch <= 0x39) || ch == 0x2D || ch == 0x5F || ch >= 0x80
        }
        func skipName() { while i < end, isName(chars[i]) || chars[i] == 0x5C { i += chars[i] == 0x5C ? 2 : 1 } }
        while i < end {
            let ch = chars[i]
            switch ch {
            case 0x23: i += 1; skipName(); a += 1  // #
            case 0x2E: i += 1; skipName(); b += 1  // .
            case 0x5B:  // [
                var depthBracket = 0
                while i < end { if chars[i] == 0x5B { depthBracket += 1 } else if chars[i] == 0x5D { depthBracket -= 1; if depthBracket == 0 { break } }; i += 1 }
                i += 1; b += 1
            case 0x3A:  // :
                i += 1
                let element = i < end && chars[i] == 0x3A
                if element { i += 1 }
                let start = i
                skipName()
                let name = String(decoding: UnsafeBufferPointer(rebasing: chars[start..<min(i, end)]), as: UTF8.self).lowercased()
                var argument: Range<Int>? = nil
                if i < end, chars[i] == 0x28 {
                    var d = 0, j = i
                    while j < end { if chars[j] == 0x28 { d += 1 } else if chars[j] == 0x29 { d -= 1; if d == 0 { break } }; j += 1 }
                    argument = (i + 1)..<max(i + 1, min(j, end))
                    i = min(j + 1, end)
                }
                if element || ["before", "after", "first-line", "first-letter", "marker", "placeholder", "selection", "backdrop"].contains(name) {
                    c += 1
                } else if name == "where" {
                    continue
                } else if ["is", "not", "has", "matches", "-webkit-any", "-moz-any"].contains(name), let argument, depth < 8 {
                    let best = topLevelRanges(chars, argument).map { compoundSpecificity(chars, $0, depth: depth + 1) }.max() ?? 0
                    (a, b, c) = (a + best / 1_000_000, b + best / 1000 % 1000, c + best % 1000)
                } else {
                    b += 1
                }
            case 0x2A, 0x20, 0x3E, 0x2B, 0x7E, 0x09, 0x0A, 0x26, 0x7C:  // * space > + ~ tab newline & |
                i += 1
            default:
                if isName(ch) { skipName(); c += 1 } else { i += 1 }
            }
        }
        return min(a, 999) * 1_000_000 + min(b, 999) * 1000 + min(c, 999)
    }

    /// `hsl(var(--x))` → (`--x`, nil); `hsl(var(--x) / 50%)` → (`--x`, `50%`); also `hsla`.
    static func hslReference(_ text: String) -> (String, String?)? {
        let lower = text.lowercased()
        let prefix: String
        if lower.hasPrefix("hsl(var(") { prefix = "hsl(var(" } else if lower.hasPrefix("hsla(var(") { prefix = "hsla(var(" } else { return nil }
        guard text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(prefix.count).dropLast()  // `--x) / a` or `--x)`
        guard let close = inner.firstIndex(of: ")") else { return nil }
        let name = CSSVariables.unescapedName(String(inner[..<close]).trimmingSpaces())
        guard name.hasPrefix("--"), CSSVariables.problem(withName: name) == nil else { return nil }
        var rest = String(inner[inner.index(after: close)...]).trimmingSpaces()
        if rest.isEmpty { return (name, nil) }
        guard rest.hasPrefix("/") else { return nil }
        rest = String(rest.dropFirst()).trimmingSpaces()
        guard !rest.isEmpty, !rest.contains("("), !rest.contains(" ") else { return nil }
        return (name, rest)
    }

    // MARK: Values

    /// A value's convention undone by `reading(of:)`.
    enum Convention { case hslTriplet, hslTripletWithNumbers, channels, tailwindAlpha, oklchTriplet }

    struct Reading {
        var value: TokenValue
        var type: String?
        var convention: Convention?
    }

    /// How a custom property's value is read (the text as the stylesheet scanner gives it:
    /// comments removed, whitespace collapsed, `!important` taken off):
    /// - a whole `var(--x)`: `.alias("--x")`; `var(--x, fallback)`: `.css(text)` when the
    ///   fallback could be a color (so the CSS parser substitutes it later), else `.other` with
    ///   the fallback's type;
    /// - exactly three numbers, the second and third percentages (shadcn/Tailwind v3's
    ///   `0 0% 100%`): `.css("hsl(0 0% 100%)")`; also when only one of the two is a percentage
    ///   and `CSSColorParser` reads the `hsl(…)` (browsers read such `hsl(var(--x))`);
    /// - exactly three numbers (Material's `65 14 11`, used as `rgb(var(--x-rgb))`): `.css(text)`
    ///   with type `channels` — text for `var()` substitution, not a color by itself;
    /// - text that `CSSColorParser` reads as a color, or a single color function (`rgb`, `hsl`,
    ///   `hwb`, `lab`, `lch`, `oklab`, `oklch`, `color`, `color-mix`, `light-dark`,
    ///   `contrast-color`, `device-cmyk`) with `var()` inside (resolved later), or one word the
    ///   parser knows needs a document (`currentcolor`, system colors): `.css(text)`;
    /// - a color mistyped (`#fffff`, `whte`: `misspeltColor`): `.css(text)`, so that its pair
    ///   says why it is not a color;
    /// - a number, percentage or angle (`40%`, `200`, `30deg`): `.css(text)` with that type —
    ///   text for `var()` inside a color (`hsl(240 5% var(--l))`), not a color by itself;
    /// - anything else: `.other(type:)` with `dimension`, `duration`, `string`, `fontFamily`,
    ///   `shadow`, `cubicBezier`, `expression`, `keyword`, `reference` (other text with
    ///   `var()`), `empty` or `value`.
    /// - Returns: the value and the token type (one of `DesignToken.componentTypes`, else nil).
    public static func value(of text: String) -> (value: TokenValue, type: String?) {
        let r = reading(of: text)
        return (r.value, r.type)
    }

    /// Whether `text`, a value as the reader keeps it, is component text (a number, percentage,
    /// angle or channel triplet for `var()` inside a color) rather than a color: asked per value
    /// of a token typed so, whose other modes may hold colors (a new user's pass: light's
    /// `0.545 0 0` made the token channels in every mode, and dark's oklch() pairs vanished).
    public static func isComponentValue(_ text: String) -> Bool {
        reading(of: text).type.map(DesignToken.componentTypes.contains) ?? false
    }

    static let colorFunctions: Set<String> = [
        "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "color-mix",
        "light-dark", "contrast-color", "device-cmyk",
    ]
    /// The CSS gradient functions (CSS Images 3 §3 and CSS Images 4 §2.3, with their `repeating-` forms).
    static let gradientFunctions: Set<String> = [
        "linear-gradient", "radial-gradient", "conic-gradient",
        "repeating-linear-gradient", "repeating-radial-gradient", "repeating-conic-gradient",
    ]

    /// Whether `text` is one CSS gradient function (`gradientFunctions`, also with a vendor
    /// prefix, `-webkit-linear-gradient()`, which older stylesheets still hold), whatever its
    /// arguments: a token of it is a gradient (`TokenValue.gradientType`) in every format.
    public static func isGradient(_ text: String) -> Bool {
        guard text.utf8.count <= maximumGradientLength, let (name, _) = singleFunction(text) else { return false }
        return isGradientFunction(name)
    }

    /// Longest text taken for a gradient, in UTF-8 bytes (longer is text, not looked into).
    static let maximumGradientLength = CSSColorParser.maximumLength * 16

    /// Whether a function of this name is a gradient (`isGradient`).
    static func isGradientFunction(_ name: String) -> Bool {
        var lower = name.lowercased()
        for prefix in ["-webkit-", "-moz-", "-o-", "-ms-"] where lower.hasPrefix(prefix) { lower.removeFirst(prefix.count) }
        return gradientFunctions.contains(lower)
    }
    static let wideKeywords: Set<String> = ["inherit", "initial", "unset", "revert", "revert-layer"]

    /// Tailwind CSS v4's `--alpha(<color> / <amount>)` (tailwindcss.com/docs/functions-and-directives,
    /// "--alpha()"), which Tailwind compiles to `color-mix(in oklab, <color> <amount>,
    /// transparent)`: every occurrence rewritten so, or nil when one is not of that form (a new
    /// user's pass: the token was read as not a color and its pair vanished from a passing audit).
    public static func tailwindAlpha(_ text: String, depth: Int = 0) -> String? {
        var out = "", rest = Substring(text), rewrites = 0
        while let r = rest.range(of: "--alpha(") {
            guard rewrites < 64 else { return nil }
            out += rest[..<r.lowerBound]
            var depth = 1, i = r.upperBound
            while i < rest.endIndex, depth > 0 {
                if rest[i] == "(" { depth += 1 } else if rest[i] == ")" { depth -= 1 }
                if depth > 0 { i = rest.index(after: i) }
            }
            guard depth == 0 else { return nil }
            let parts = splitTopLevel(String(rest[r.upperBound..<i]), by: "/")
            guard parts.count == 2 else { return nil }
            var (color, amount) = (parts[0].trimmingSpaces(), parts[1].trimmingSpaces())
            guard !color.isEmpty, !amount.isEmpty else { return nil }
            // `--alpha(--alpha(#000 / 50%) / 50%)`: the inner one first, a few levels deep.
            if color.contains("--alpha(") {
                guard depth < 4, let inner = tailwindAlpha(color, depth: depth + 1) else { return nil }
                color = inner
            }
            out += "color-mix(in oklab, \(color) \(amount), transparent)"
            rewrites += 1
            rest = rest[rest.index(after: i)...]
        }
        return out + rest
    }

    static func reading(of text: String, fallbackDepth: Int = 0) -> Reading {
        if text.isEmpty { return Reading(value: .other(type: "empty"), type: nil, convention: nil) }
        // Long text that is not one function is never a color nor a triplet: typed by one pass
        // over its bytes, not by the heuristics below (a hostile pass: 8 MB of 400-character
        // values held the heavy worker 12 s, about 7,700 instructions a character).
        let length = text.utf8.count
        let long = length > CSSColorParser.maximumLength || (length > longText && !CSSVariables.mayReferToVariables(text))
        if long && text.utf8.last != UInt8(ascii: ")") {
            return Reading(value: .other(type: "long text"), type: nil, convention: nil)
        }
        if let (name, args) = singleFunction(text), name.lowercased() == "var" {
            // Fallbacks deeper than substitution reads are a color's text, which it then refuses
            // naming the token: each level is read again here, and a hostile pass's 2,000 nested
            // fallbacks (18 KB) had taken 3.5 s to classify.
            if fallbackDepth >= CSSVariables.maximumFallbackDepth { return Reading(value: .css(text), type: nil, convention: nil) }
            let parts = splitTopLevel(args, by: ",", maxSplits: 1)
            // Escapes decoded as in the declaration's name (`var(--prim\61 ry)` is `--primary`).
            let ref = CSSVariables.unescapedName(parts[0].trimmingSpaces())
            if parts.count == 1 {
                if ref.hasPrefix("--") { return Reading(value: .alias(ref), type: nil, convention: nil) }
            } else {
                let fallback = reading(of: parts[1].trimmingSpaces(), fallbackDepth: fallbackDepth + 1)
                switch fallback.value {
                case .css, .alias: return Reading(value: .css(text), type: nil, convention: nil)
                case .other(let type): return Reading(value: .other(type: type), type: nil, convention: nil)
                }
            }
        }
        if text.contains("--alpha("), let mixed = tailwindAlpha(text) {
            return Reading(value: .css(mixed), type: nil, convention: .tailwindAlpha)
        }
        // A color function is a color whatever its arguments, `var()` among them: one the parser
        // refuses (`hsl(240 5% 1e308%)`) is kept so that a pair of it says why (a hostile pass:
        // it was skipped as not a color, and its pair vanished). It is not parsed to be
        // classified: a hostile pass's 20,000 tokens of 24 nested `lch(from …)` (7.7 MB) held the
        // heavy worker 17.7 s, most of it parsing each, though one pair used two tokens.
        if let (name, _) = singleFunction(text), colorFunctions.contains(name.lowercased()) {
            return Reading(value: .css(text), type: nil, convention: nil)
        }
        if long { return Reading(value: .other(type: "long text"), type: nil, convention: nil) }
        let words = text.split(separator: " ")
        if words.count == 3, words.allSatisfy({ isNumber($0.hasSuffix("%") ? $0.dropLast() : $0) }) {
            if !words[0].hasSuffix("%") && words[1].hasSuffix("%") && words[2].hasSuffix("%") {
                return Reading(value: .css("hsl(\(text))"), type: nil, convention: .hslTriplet)
            }
            if words.allSatisfy({ !$0.hasSuffix("%") }) {
                return Reading(value: .css(text), type: "channels", convention: .channels)
            }
            // daisyUI 4's bare OKLCH channels (`--p: 49.12% 0.3096 275.75`, used as
            // `oklch(var(--p))`): a lightness percentage, then chroma and hue as numbers (a new
            // user's pass: read as not a color, with no hint why).
            if words[0].hasSuffix("%") && !words[1].hasSuffix("%") && !words[2].hasSuffix("%") && couldBeColor("oklch(\(text))") {
                return Reading(value: .css("oklch(\(text))"), type: nil, convention: .oklchTriplet)
            }
            // One of saturation and lightness without `%` (shadcn's slate dark `--ring: 212.7
            // 26.8% 83.9`): `hsl(var(--ring))` is still a color for browsers, which read a number
            // there as a percentage (CSS Color 4 §7); taken only when the parser agrees.
            if !words[0].hasSuffix("%") && (words[1].hasSuffix("%") || words[2].hasSuffix("%")) && couldBeColor("hsl(\(text))") {
                return Reading(value: .css("hsl(\(text))"), type: nil, convention: .hslTripletWithNumbers)
            }
        }
        // Other triplets `hsl(var(--x))` reads: with `none`, an angle unit, an alpha (`240 5% 60%
        // / 0.5`, `90%/0.9`, `/ var(--a)`), or var() and calc() (`240 5% var(--l)`) (a new user's
        // and a hostile pass: each was skipped as not a color, and the audit passed).
        if let triplet = bareHSLTriplet(text) {
            return Reading(value: .css("hsl(\(triplet))"), type: nil, convention: .hslTriplet)
        }
        let commaWords = text.split(separator: ",").map { $0.trimmingSpaces() }
        if commaWords.count == 3, commaWords.allSatisfy({ isNumber(Substring($0)) }) {
            return Reading(value: .css(text), type: "channels", convention: .channels)
        }
        // A legacy comma triplet `240, 5%, 46%`, which `hsl(var(--x))` reads as `hsl(240, 5%,
        // 46%)` (a hostile pass: skipped as no color, its pair unmeasured).
        if commaWords.count == 3, isNumber(Substring(commaWords[0])),
           commaWords[1...].allSatisfy({ $0.hasSuffix("%") && isNumber(Substring($0.dropLast())) }),
           couldBeColor("hsl(\(text))") {
            return Reading(value: .css("hsl(\(text))"), type: nil, convention: .hslTriplet)
        }
        if CSSVariables.mayReferToVariables(text) {
            return Reading(value: .other(type: otherType(text)), type: nil, convention: nil)
        }
        if couldBeColor(text) { return Reading(value: .css(text), type: nil, convention: nil) }
        // A misspelt color (`#fffff`, `whte`) is kept too, so that its pair says why rather than
        // vanishing as not a color (a new user's pass: shadcn's preset then matched no pair and
        // the audit passed).
        if misspeltColor(text) { return Reading(value: .css(text), type: nil, convention: nil) }
        // Hex without `#` (`3b82f6`, as a design tool copies it) is kept too, so that its pair
        // says to write the `#` (a new user's pass: the pair vanished as not a color).
        if bareHex(text) != nil { return Reading(value: .css(text), type: nil, convention: nil) }
        let type = otherType(text)
        // A number, percentage or angle is kept as text for var() inside a color
        // (`hsl(240 5% var(--l))`: a new user's theme had "--l is not defined").
        if DesignToken.componentTypes.contains(type) { return Reading(value: .css(text), type: type, convention: nil) }
        return Reading(value: .other(type: type), type: nil, convention: nil)
    }

    /// The digits of `text` when it looks like a hex color written without `#`: 3, 4, 6 or 8 hex
    /// digits with a letter and not a CSS number (`100` and `1e3` are not); letters alone in 3, 6
    /// or 8 (`fff`, `ffffff`, the commonest white: a design-systems pass, stop 39, had its pair
    /// vanish as not a color and the audit pass), not in 4, where they spell words a value may
    /// hold (`fade`, `face`); decimal digits alone in 6 or 8 (`000000`, `777777`: a new user's
    /// pass had `--primary-foreground: 000000` read as a number, its pair gone and the audit
    /// passing), not in 3 or 4, where they are the numbers a value holds (`100`, `600`, `1024`).
    static func bareHex(_ text: String) -> String? {
        guard let digits = CSSColorParser.bareHexDigits(text) else { return nil }
        let count = digits.utf8.count
        if count == 6 || count == 8, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return digits }
        guard !isNumber(Substring(digits)), digits.contains(where: \.isLetter),
              digits.contains(where: \.isNumber) || count != 4 else { return nil }
        return digits
    }

    /// CSS keywords one edit from a color name (`block` and `black`), never taken for a typo.
    static let keywordsNearColorNames: Set<String> = ["block", "bold", "grab", "blur", "dark", "inset", "link"]

    /// The cascade rank of each layer, from its first-seen rank (`Walker.layerRank`): sibling
    /// layers in the order first seen, a layer's sublayers (`a.b`) before its own rules (`a`),
    /// as CSS Cascade 5 §6.4.2 flattens the layer tree. Keyed by the first-seen rank.
    static func layerRanks(_ layers: [String: Int]) -> [Int: Int] {
        guard layers.count > 1 else { return Dictionary(uniqueKeysWithValues: layers.values.map { ($0, $0) }) }
        // First-seen rank of every prefix (a prefix first seen through a sublayer takes its rank).
        var prefixRank: [String: Int] = [:]
        for (name, rank) in layers {
            var prefix = ""
            for part in name.split(separator: ".", omittingEmptySubsequences: false) {
                prefix += prefix.isEmpty ? part : "." + part
                prefixRank[prefix] = Swift.min(prefixRank[prefix] ?? .max, rank)
            }
        }
        func before(_ a: String, _ b: String) -> Bool {
            let (x, y) = (a.split(separator: ".", omittingEmptySubsequences: false), b.split(separator: ".", omittingEmptySubsequences: false))
            var prefix = ""
            for i in 0..<Swift.min(x.count, y.count) {
                if x[i] != y[i] {
                    let base = prefix.isEmpty ? "" : prefix + "."
                    return prefixRank[base + x[i]]! < prefixRank[base + y[i]]!
                }
                prefix += (i == 0 ? "" : ".") + x[i]
            }
            // One is the other's prefix: the sublayer comes first.
            return x.count > y.count
        }
        let sorted = layers.keys.sorted(by: before)
        var out: [Int: Int] = [:]
        for (i, name) in sorted.enumerated() { out[layers[name]!] = i }
        return out
    }

    /// `option` (one selector of a list) with an `:is()`, `:where()`, `:matches()` or
    /// `:-webkit-any()` of several compounds written out as a selector each (`:is(.dark,
    /// .night) .card` is `.dark .card` and `.night .card`), as it matches: each then maps to its
    /// own mode, as the selectors of a list do (a pass against Chromium's computed values:
    /// `:is(.dark, .dark-theme)` applied to one of the two dark states only, `:is(.dark, .night)
    /// .card` to neither, and `:where(.dark, .dim)` became a component scope). Specificity is
    /// still the whole selector's (`specificity(of:)` reads the text as written). Options with
    /// combinators (`:where(.dark, .dark *)`) are left as they are, and so is anything that
    /// would make more than 16 selectors, or a selector over 4 KB (16 copies of a megabyte
    /// selector are not worth making).
    static func expandingSelectorLists(_ option: String) -> [String] {
        guard option.utf8.count <= 4096, option.contains(":") else { return [option] }
        var out = [option], i = 0
        while i < out.count {
            let s = out[i]
            guard let (range, options) = firstSelectorList(in: s) else { i += 1; continue }
            let expanded = options.map { String(s[..<range.lowerBound]) + $0 + String(s[range.upperBound...]) }
            guard out.count - 1 + expanded.count <= 16 else { return [option] }
            out.replaceSubrange(i...i, with: expanded)
        }
        return out
    }

    /// The first `:is(…)`-like pseudo-class of `option` outside other parentheses and brackets
    /// whose argument lists several compounds (no combinators), with its range and the
    /// compounds; nil when there is none.
    static func firstSelectorList(in option: String) -> (Range<String.Index>, [String])? {
        var level = 0, i = option.startIndex
        while i < option.endIndex {
            let ch = option[i]
            if ch == "(" || ch == "[" { level += 1 } else if ch == ")" || ch == "]" { level -= 1 }
            else if ch == ":" && level == 0 {
                // (Only the next few characters are looked at: a selector may be megabytes.)
                let next = option[option.index(after: i)...].prefix(12).lowercased()
                if let name = [":is(", ":where(", ":matches(", ":-webkit-any("].first(where: { next.hasPrefix($0.dropFirst()) }) {
                    let open = option.index(i, offsetBy: name.count - 1)
                    var depth = 0, j = open
                    while j < option.endIndex {
                        if option[j] == "(" { depth += 1 } else if option[j] == ")" { depth -= 1; if depth == 0 { break } }
                        j = option.index(after: j)
                    }
                    guard j < option.endIndex else { return nil }
                    let argument = String(option[option.index(after: open)..<j])
                    let options = splitTopLevel(argument, by: ",").map { $0.trimmingSpaces() }
                    if options.count > 1, options.allSatisfy({ !$0.isEmpty && compounds($0).count == 1 }) {
                        return (i..<option.index(after: j), options)
                    }
                    i = j
                }
            }
            i = option.index(after: i)
        }
        return nil
    }

    /// Whether every selector of the list `selector` puts the root element (`:root`, `html`)
    /// in a compound after a combinator, below or beside another element: none matches anything.
    static func matchesNothing(_ selector: String) -> Bool {
        let options = splitTopLevel(selector, by: ",")
        guard !options.isEmpty else { return false }
        func rootIn(_ c: Substring) -> Bool { c.contains(":root") || c == "html" || c.hasPrefix("html.") || c.hasPrefix("html[") || c.hasPrefix("html:") }
        return options.allSatisfy { option in
            compounds(option.trimmingSpaces().lowercased()).filter { !$0.isEmpty }.dropFirst().contains(where: rootIn)
        }
    }

    /// `option` (one selector of a list) cut at its combinators (` `, `>`, `+`, `~`) outside
    /// brackets and parentheses: its compounds in order, with an empty one between two
    /// combinators in a row (`a > b` is `a`, ``, ``, `b`).
    static func compounds(_ option: String) -> [Substring] {
        var out: [Substring] = []
        var level = 0, start = option.startIndex, i = option.startIndex
        while i < option.endIndex {
            let ch = option[i]
            if ch == "(" || ch == "[" { level += 1 } else if ch == ")" || ch == "]" { level -= 1 }
            else if level == 0 && (ch == " " || ch == ">" || ch == "+" || ch == "~") {
                out.append(option[start..<i])
                start = option.index(after: i)
            }
            i = option.index(after: i)
        }
        out.append(option[start...])
        return out
    }

    /// The custom property names `text` refers to with `var()`, in order (escapes as written).
    static func referencedCustomProperties(_ text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let r = rest.range(of: "var(") {
            var name = rest[r.upperBound...].drop { $0 == " " }
            name = name.prefix { $0 != "," && $0 != ")" && $0 != " " }
            if name.hasPrefix("--") { names.append(String(name)) }
            rest = rest[r.upperBound...]
            if names.count >= 64 { break }
        }
        return names
    }

    /// Whether `a` is `b` with one typo: a letter changed, added or dropped, or two neighbors
    /// swapped; never when `a` is another CSS function those could reach (`url`, `var`, `min`,
    /// `max`, `env`, `calc`, `blur`, `clamp`).
    static func oneTypoApart(_ a: String, _ b: String) -> Bool {
        guard a != b, !["url", "var", "min", "max", "env", "calc", "blur", "clamp", "attr", "abs", "log", "exp", "mod", "rem", "sin", "cos", "tan"].contains(a) else { return false }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if NameSuggestions.distance(x, y) == 1 { return true }
        // Two neighbors swapped (Levenshtein counts that as two edits).
        guard x.count == y.count else { return false }
        let diff = x.indices.filter { x[$0] != y[$0] }
        return diff.count == 2 && diff[1] == diff[0] + 1 && x[diff[0]] == y[diff[1]] && x[diff[1]] == y[diff[0]]
    }

    /// A palette step written as a name and digits (`grey50`, `gray-500`): the name (one
    /// trailing `-` dropped) and the step, as written; nil when the text does not end in digits
    /// after a name of ASCII letters and hyphens that starts with a letter (`#77777` is no step:
    /// a new user's pass was told to write it `var(--color-#-77777)`), or holds a function.
    static func paletteStep(_ text: String) -> (name: Substring, step: Substring)? {
        guard !text.contains("("), let digit = text.firstIndex(where: { ("0"..."9").contains($0) }),
              digit != text.startIndex else { return nil }
        let step = text[digit...]
        guard step.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        var name = text[..<digit]
        if name.last == "-" { name = name.dropLast() }
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0 == "-") }) else { return nil }
        return (name, step)
    }

    /// Whether `text`, which the parser refused, is a color mistyped: a hash of 1 to 32 letters,
    /// digits, `-` and `_` that is not a hex color (`#fffff`, `#12345`, `#ggg`, `#fff-500`), or one word of 4 or more
    /// letters one edit (Levenshtein) from a CSS named color (`whte`, `balck`) and not a keyword
    /// in `keywordsNearColorNames`, or a palette step of such a name or a color's (`grey50`,
    /// `gray-500`: `paletteStep`).
    static func misspeltColor(_ text: String) -> Bool {
        func alphanumeric(_ s: Substring) -> Bool {
            s.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
        // A hash and up to 32 name characters (`#fffff`, `#ggg`, `#fff-500`: a new user's pass had
        // the last skipped as not a color and its pair gone from a passing audit).
        if text.hasPrefix("#") {
            let rest = text.dropFirst()
            return (1...32).contains(rest.count)
                && rest.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        }
        let lower = text.lowercased()
        // A color function misspelt (`okclh(…)`, `rbg(…)`, `hsla(…` kept): one letter off or two
        // neighbors swapped, and no other CSS function (a new user's pass: `okclh(0.545 0 0)`
        // was a warning and the audit passed `failOn=failure`, where `oklch(0.545, 0, 0)` is a 400).
        if let (name, _) = singleFunction(lower), !colorFunctions.contains(name), !name.hasPrefix("-"),
           colorFunctions.contains(where: { Self.oneTypoApart(name, $0) }) {
            return true
        }
        // A palette step written without var() (`grey50`, `gray-500`: a new user's pass, skipped
        // as not a color while the audit passed): a color name, or one a letter off, and digits.
        if lower.count <= 32, let (name, _) = paletteStep(lower), name.count >= 3, alphanumeric(name),
           name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }),
           let near = CSSColorParser.namedColorSuggestions(for: String(name), limit: 1).first,
           NameSuggestions.distance(Array(name.unicodeScalars), Array(near.lowercased().unicodeScalars)) <= 1 {
            return true
        }
        guard lower.count >= 4, lower.count <= 32, alphanumeric(Substring(lower)), lower.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }),
              !keywordsNearColorNames.contains(lower), let near = CSSColorParser.namedColorSuggestions(for: lower, limit: 1).first else { return false }
        return NameSuggestions.distance(Array(lower.unicodeScalars), Array(near.lowercased().unicodeScalars)) == 1
    }

    /// `text` as the inside of `hsl()` (spaces around its `/`) when it is a bare HSL triplet that
    /// `hsl(var(--x))` reads: a hue (number, angle, `none` or a function such as `var()`),
    /// saturation and lightness (percentage, `none` or a function), at least one of those two a
    /// written percentage or `none` (so that Material's `var(--r) var(--g) var(--b)` channels are
    /// not taken for one), and an optional `/ alpha`; without `var()` the parser must read it.
    static func bareHSLTriplet(_ text: String) -> String? {
        let slash = splitTopLevel(text, by: "/").map { $0.trimmingSpaces() }
        guard slash.count <= 2, let head = slash.first else { return nil }
        let parts = splitTopLevel(head, by: " ").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard parts.count == 3 else { return nil }
        func computed(_ p: String) -> Bool {
            guard let (name, _) = singleFunction(p) else { return false }
            return ["var", "calc", "min", "max", "clamp"].contains(name.lowercased())
        }
        func none(_ p: String) -> Bool { p.lowercased() == "none" }
        func percent(_ p: String) -> Bool { p.hasSuffix("%") && isNumber(Substring(p.dropLast())) }
        func angle(_ p: String) -> Bool {
            let lower = p.lowercased()
            guard let unit = ["deg", "grad", "rad", "turn"].first(where: { lower.hasSuffix($0) }) else { return isNumber(Substring(p)) }
            return isNumber(Substring(p.dropLast(unit.count)))
        }
        guard angle(parts[0]) || none(parts[0]) || computed(parts[0]),
              parts[1...].allSatisfy({ percent($0) || none($0) || computed($0) }),
              parts[1...].contains(where: { percent($0) || none($0) }) else { return nil }
        var inside = parts.joined(separator: " ")
        if slash.count == 2 {
            let a = slash[1]
            guard !a.isEmpty, !a.contains(" ") || computed(a) else { return nil }
            inside += " / " + a
        }
        // A triplet whose number the parser refuses as out of range (`240 50% calc(2000000%)`) is
        // kept, so that its pair says why (a hostile pass: it was skipped as not a color, its
        // pairs vanished and the audit passed, where `240 50% 2000000%` is a 400).
        return CSSVariables.mayReferToVariables(inside) || couldBeColor("hsl(\(inside))", orOutOfRange: true) ? inside : nil
    }

    /// Whether `CSSColorParser` reads `text` as a color (or as a color that needs a document:
    /// `currentcolor`, a system color — one word, not a CSS-wide keyword); with `orOutOfRange`,
    /// also when it refuses it only for a number past its range (`ColorParseError.isOutOfRange`).
    static func couldBeColor(_ text: String, orOutOfRange: Bool = false) -> Bool {
        do {
            _ = try CSSColorParser.parse(text, context: CSSColorContext())
            return true
        } catch {
            if case .unsupported = error, !text.contains(" "), !text.contains("("),
               !wideKeywords.contains(text.lowercased()) {
                return true
            }
            return orOutOfRange && error.isOutOfRange
        }
    }

    /// Characters past which a value that is not one function, and refers to no variable, is
    /// not read as a color (a color's own text is one word; a triplet three short ones).
    static let longText = 256

    /// `name(args)` when that is the whole text.
    static func singleFunction(_ text: String) -> (String, String)? {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let name = text[..<open]
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ CSSStylesheet.Scanner.isNameChar($0) }) else { return nil }
        // The `(` must close at the very end.
        var depth = 0
        var quote: Character? = nil
        var k = open
        while k < text.endIndex {
            let c = text[k]
            if let q = quote { if c == q { quote = nil } }
            else if c == "\"" || c == "'" { quote = c }
            else if c == "(" { depth += 1 }
            else if c == ")" {
                depth -= 1
                if depth == 0 && text.index(after: k) != text.endIndex { return nil }
            }
            k = text.index(after: k)
        }
        return (String(name), String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }

    static func isNumber(_ s: Substring) -> Bool {
        var u = Array(s.utf8)
        if let f = u.first, f == UInt8(ascii: "+") || f == UInt8(ascii: "-") { u.removeFirst() }
        guard !u.isEmpty else { return false }
        var digits = 0, dots = 0, k = 0
        while k < u.count {
            let c = u[k]
            if c >= 0x30 && c <= 0x39 { digits += 1 }
            else if c == UInt8(ascii: ".") { dots += 1; if dots > 1 { return false } }
            else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                guard digits > 0, k + 1 < u.count else { return false }
                var j = k + 1
                if u[j] == UInt8(ascii: "+") || u[j] == UInt8(ascii: "-") { j += 1 }
                guard j < u.count else { return false }
                return u[j...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            } else { return false }
            k += 1
        }
        return digits > 0
    }

    /// What a value that is not a color is (informational: the audit skips and counts these).
    static func otherType(_ text: String) -> String {
        if let (name, _) = singleFunction(text) {
            // A CSS gradient (CSS Images 3 §3, `repeating-` forms §3.4): paired as a background
            // and named in a warning, never measured as a color (`TokenAudit.audit`).
            if text.utf8.count <= maximumGradientLength, isGradientFunction(name) { return TokenValue.gradientType }
            switch name.lowercased() {
            case "cubic-bezier", "steps", "linear": return "cubicBezier"
            case "calc", "min", "max", "clamp", "round", "mod", "rem", "abs", "sign": return "expression"
            case "var": return "reference"
            default: break
            }
        }
        if CSSVariables.mayReferToVariables(text) { return "reference" }
        let words = text.split(separator: " ")
        if words.count == 1 {
            let w = words[0]
            if w.first == "\"" || w.first == "'" { return "string" }
            if isNumber(w) { return "number" }
            if w.hasSuffix("%"), isNumber(w.dropLast()) { return "percentage" }
            if let unitStart = w.firstIndex(where: { $0.isLetter }), isNumber(w[..<unitStart]) {
                let unit = w[unitStart...].lowercased()
                if unit == "ms" || unit == "s" { return "duration" }
                if ["deg", "rad", "grad", "turn"].contains(unit) { return "angle" }
                return "dimension"
            }
            return wideKeywords.contains(w.lowercased()) ? "keyword" : (w.contains("(") ? "value" : "keyword")
        }
        // A shadow: some part is a color, the rest lengths (and `inset`).
        let layers = splitTopLevel(text, by: ",")
        if layers.contains(where: { layer in
            splitTopLevel(layer, by: " ").contains { part in
                let p = part.trimmingSpaces()
                return (p.hasPrefix("#") || p.contains("(")) && couldBeColor(p)
            }
        }) {
            return "shadow"
        }
        if layers.count > 1, layers.allSatisfy({ layer in
            let l = layer.trimmingSpaces()
            return l.first == "\"" || l.first == "'" || l.unicodeScalars.allSatisfy { CSSStylesheet.Scanner.isNameChar($0) || $0 == " " }
        }) {
            return "fontFamily"
        }
        if text.hasPrefix("\"") || text.hasPrefix("'") { return "fontFamily" }
        return "value"
    }

    /// `text` split at `separator` (ASCII) outside parentheses, brackets and strings.
    ///
    /// Read as UTF-8 bytes, as CSS tokenizes code points (Syntax 3 §4): every character that
    /// matters here is ASCII, and no byte of a multi-byte character is (as Characters it was a
    /// third of reading a stylesheet of long selectors, stop 38).
    /// Whether an `@supports` condition is a negation as a whole (`not (…)`), a fallback block
    /// (CSS Conditional 3 §6.1).
    static func isNegatedSupports(_ prelude: String) -> Bool {
        let p = prelude.trimmingSpaces().lowercased()
        return p.hasPrefix("not ") || p.hasPrefix("not(")
    }

    static func splitTopLevel(_ text: String, by separator: Character, maxSplits: Int = .max) -> [String] {
        precondition(separator.isASCII, "splitTopLevel splits at an ASCII character")
        var text = text
        let parts: [String] = text.withUTF8 { bytes in
            topLevelRanges(bytes, 0..<bytes.count, separator: separator.asciiValue!, maxSplits: maxSplits).map {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
            }
        }
        return separator == " " ? parts.filter { !$0.isEmpty } : parts.map { $0.trimmingSpaces() }
    }
}

// MARK: - Selector → mode

/// Where a rule's declarations go, by `CSSThemeReader.modeMapping(selector:atRules:)`.
public struct CSSModeMapping: Sendable, Equatable {
    public enum Target: Sendable, Hashable {
        /// The value in every mode that does not override it.
        case base
        /// One mode.
        case mode(String)
    }
    /// Where the declarations go (at least one; several for a selector list naming several).
    public var targets: [Target]
    /// Selectors of the list, or at-rules, that are not understood. When nothing is understood,
    /// the single target is a mode named after the at-rules and the selector text.
    public var unrecognized: [String]
    /// The conditions each mode stands for (theme, color scheme, contrast, and the parts of a
    /// selector not understood), by which a combined mode takes the values of the modes it
    /// combines (`CSSThemeReader.read`).
    var conditions: [Target: CSSThemeReader.ModeConditions] = [:]
    /// The modes the selectors not understood would be named, where selectors of the list are
    /// understood (`.night` in `:is(.dark, .night)`): no mode of their own, but the rule reaches
    /// such a mode where another rule makes it (`CSSThemeReader.read`).
    var listedModes: [String] = []

    public init(targets: [Target], unrecognized: [String] = []) {
        self.targets = targets
        self.unrecognized = unrecognized
    }

    /// Equal targets and unrecognized parts (the conditions follow from them).
    public static func == (a: CSSModeMapping, b: CSSModeMapping) -> Bool {
        a.targets == b.targets && a.unrecognized == b.unrecognized
    }
}

extension CSSThemeReader {
    /// Deepest nesting of `:is()`, `:where()` and `:not()` in a selector that mode mapping reads.
    public static let maximumSelectorNesting = 8

    /// Longest mode name made from selector and at-rule text, in characters.
    public static let maximumModeNameLength = 128
    /// Longest selector a nested rule makes with its parents (CSS Nesting: each `&` is the
    /// parent's selector), in bytes.
    public static let maximumNestedSelectorLength = 65_536
    /// Most bytes of nested rules' selectors with their parents, all rules of the files together.
    public static let maximumNestedSelectorBytes = 4 << 20

    /// The mode of declarations under `selector` (nil: none, as directly in `@theme`) inside
    /// `atRules` (outermost first, each as written: `"@media (prefers-color-scheme: dark)"`).
    ///
    /// Base (`.base`): `:root`, `html`, `body`, `:host`, `:where(html)`, `:is(…)` of those, with
    /// pseudo-elements (`::backdrop`) and `*` ignored; no selector; `@theme`, `@theme inline`,
    /// `@theme default`; `@supports` and `@layer` change nothing.
    ///
    /// A mode name is made of up to three parts joined by `-`, in this order:
    /// 1. a theme: class `.theme-X` or `[data-theme="X"]` (and `data-mode`, `data-color-mode`,
    ///    `data-color-scheme`, `data-bs-theme`, `data-scheme`, `data-appearance`,
    ///    `data-color-theme`) with X other than `light`/`dark`/`auto`/`system`; shadcn's
    ///    `.theme-zinc` is `zinc`;
    /// 2. a color scheme, `light` or `dark`: classes `.dark`, `.dark-theme`, `.theme-dark`,
    ///    `.dark-mode` (and `light` ones), those attributes with `dark`/`light`, or
    ///    `@media (prefers-color-scheme: dark)`; a selector's scheme wins over the media query's
    ///    (Material's `@media (prefers-color-scheme: dark) { :where(html) .light-theme }` is
    ///    `light`), and the innermost selector part wins;
    /// 3. a contrast: `@media (prefers-contrast: more)` (or `high`), classes `.high-contrast`,
    ///    `.increased-contrast`, `[data-contrast="more"|"high"]` give `high-contrast`;
    ///    `(prefers-contrast: less)` gives `low-contrast`.
    ///
    /// So `.dark` is `dark`, `.dark .theme-zinc` is `zinc-dark`, `(prefers-contrast: more)` alone
    /// is `high-contrast` (over the base: it is not combined with `dark`), inside
    /// `(prefers-color-scheme: dark)` `dark-high-contrast`.
    ///
    /// GitHub Primer's attributes: `[data-light-theme="X"]` and `[data-dark-theme="X"]` name the
    /// theme used when `data-color-mode` is light or dark; with `data-color-mode="auto"` the
    /// media query picks the slot (light without one). The mode is the theme's name X itself
    /// (`light`, `dark`, `dark_dimmed`, …), plus `-high-contrast` under a contrast query.
    ///
    /// Tailwind v4's `@variant dark` (and `light`) counts as the `.dark` class. `:not()` of a color
    /// scheme (`:root:not(.light)`) adds no condition: it only says when the rule yields. A mode
    /// combining others takes their values where it sets none (`Merger.inherit`).
    ///
    /// Anything else — another class, id, attribute, `:not()`, a media feature such as
    /// `min-width` or `print`, an at-rule such as `@container` or `@utility` — is not understood:
    /// in a selector list the understood selectors give the targets and the others are listed
    /// in `unrecognized`; when nothing is understood, the declarations form a mode named after
    /// the at-rules and selector text (`".tokens"`, `"@media (min-width: 40rem) :root"`), one
    /// per selector of a list (`.a, .b` is the modes `.a` and `.b`), each name cut to
    /// `maximumModeNameLength` characters (ending in `…`). Such a mode still holds where each
    /// part of its selector holds: `.dark.hc` and `.dark .card` combine `dark` with the parts
    /// `.hc` and `.card` (`ModeConditions.others`), and take from `dark` (and from a mode `.hc`)
    /// what they do not set. An unknown at-rule gives no conditions.
    public static func modeMapping(selector: String?, atRules: [String]) -> CSSModeMapping {
        var m = markedModeMapping(selector: selector, atRules: atRules)
        func clean(_ t: CSSModeMapping.Target) -> CSSModeMapping.Target {
            if case .mode(let name) = t, let r = name.firstRange(of: schemeMarker) { return .mode(String(name[..<r.lowerBound])) }
            return t
        }
        m.targets = m.targets.map(clean)
        m.conditions = Dictionary(m.conditions.map { (clean($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        return m
    }

    /// `modeMapping`, with each understood mode's scheme source after `schemeMarker` in its
    /// name (`dark` + marker + `.dark`), for `separateSchemeSources`.
    static func markedModeMapping(selector: String?, atRules: [String]) -> CSSModeMapping {
        var conditions = ModeConditions()
        var unrecognizedAtRules: [String] = []
        var naming: [String] = []
        for a in atRules {
            let (name, prelude) = splitAtRule(a)
            switch name {
            case "supports", "layer", "theme":
                continue
            case "media":
                naming.append(a)
                if let c = mediaConditions(prelude, onto: conditions) { conditions = c } else { unrecognizedAtRules.append(a) }
            case "variant" where prelude == "dark" || prelude == "light":
                // Tailwind v4's `@variant dark { … }`: the `dark` variant, `.dark` by default.
                naming.append(a)
                conditions.selectorScheme = prelude
                conditions.selectorSchemeSource = "." + prelude
            default:
                naming.append(a)
                unrecognizedAtRules.append(a)
            }
        }
        let selectors = selector.map { splitTopLevel($0, by: ",").filter { !$0.isEmpty }.flatMap(expandingSelectorLists) } ?? []
        /// A mode per selector of the list, each named after the at-rules and its selector (a
        /// selector list is each of its selectors, as CSS applies it), cut to
        /// `maximumModeNameLength` characters.
        func ownName(_ s: String?) -> String {
            var name = (naming + (s.map { [$0] } ?? [])).joined(separator: " ")
            if name.count > maximumModeNameLength { name = String(name.prefix(maximumModeNameLength - 1)) + "…" }
            return name
        }
        func ownNames() -> [CSSModeMapping.Target] {
            var out: [CSSModeMapping.Target] = []
            var seen = Set<String>()
            for s in selectors.isEmpty ? [nil] : selectors.map({ Optional($0) }) {
                let name = ownName(s)
                if seen.insert(name).inserted { out.append(.mode(name)) }
            }
            return out
        }
        if !unrecognizedAtRules.isEmpty {
            return CSSModeMapping(targets: ownNames(), unrecognized: unrecognizedAtRules)
        }
        guard selector != nil, !selectors.isEmpty else {
            var m = CSSModeMapping(targets: [conditions.target])
            m.conditions[conditions.target] = conditions
            return m
        }
        var targets: [CSSModeMapping.Target] = []
        var unrecognized: [String] = []
        var seen = Set<CSSModeMapping.Target>()
        var understood: [CSSModeMapping.Target: ModeConditions] = [:]
        // The conditions of selectors with parts not understood (`others`): their modes are
        // named after them, but they combine the understood ones (`.dark.hc` holds in `dark`).
        var partial: [ModeConditions?] = []
        for s in selectors {
            let c = selectorConditions(s, onto: conditions)
            partial.append(c)
            if let c, c.others.isEmpty {
                understood[c.target] = c
                if seen.insert(c.target).inserted { targets.append(c.target) }
            } else {
                unrecognized.append(s)
            }
        }
        if targets.isEmpty {
            var m = CSSModeMapping(targets: ownNames(), unrecognized: selectors)
            for (s, c) in zip(selectors, partial) {
                if let c { m.conditions[.mode(ownName(s))] = c }
            }
            return m
        }
        var m = CSSModeMapping(targets: targets, unrecognized: unrecognized)
        m.conditions = understood
        m.listedModes = unrecognized.map(ownName)
        return m
    }

    struct ModeConditions: Equatable {
        var mediaScheme: String?
        var selectorScheme: String?
        /// What sets `selectorScheme`, as written canonically (`.dark`, `[data-theme=dark]`):
        /// `.dark` and `[data-theme=dark]` are toggled apart, and `@media (prefers-color-scheme:
        /// dark)` holds without either, so they are different states (`schemeSource`); not
        /// compared by `==` (`:is(.dark, [data-theme=dark])` is one scheme).
        var selectorSchemeSource: String?
        /// Set on a mode several sources set alike (`separateSchemeSources` made them one): a
        /// mode of any of them combines with it.
        var anySchemeSource = false
        /// The parts (`scheme`, `theme`, `contrast`, or an `others` member) the selector puts on
        /// an ancestor rather than the element itself (`.dark` in `.dark .card`): a mode of such
        /// parts passes its values down by inheritance, which the element's own rules beat
        /// (`Merger.inherit`). Not compared by `==`.
        var ancestorParts: Set<String> = []

        /// The names of the parts set (as `ancestorParts` names them).
        var partNames: Set<String> {
            var names = others
            if theme != nil { names.insert("theme") }
            if scheme != nil { names.insert("scheme") }
            if contrast != nil { names.insert("contrast") }
            return names
        }
        var theme: String?
        var contrast: String?
        /// What sets the contrast: the selector's class or attribute (`.high-contrast`,
        /// `[data-contrast]`) or `prefers-contrast` for the media query. Not compared by `==`:
        /// like a scheme's source, it tells apart two states of one name (a hostile pass: a
        /// `.high-contrast` class and `@media (prefers-contrast: more)` setting different values
        /// were one mode, the later one's, and the class's failing pair was never checked).
        var contrastSource: String?
        /// `p3` or `rec2020` under `@media (color-gamut: …)`.
        var gamut: String?
        var primerLight: String?
        var primerDark: String?
        /// The selector's parts that name no theme, scheme or contrast (`.hc`, `.card`,
        /// `[data-density=compact]`, `:hover`), as written: a selector with any is not understood
        /// (its mode is named after it), but it still holds where each of its parts holds, so
        /// `.dark.hc` takes from `dark` what it does not set (a new user's pass: it took the
        /// base's light text onto its black background).
        var others: Set<String> = []

        /// The color scheme, a selector's over the media query's.
        var scheme: String? { selectorScheme ?? mediaScheme }

        /// What sets the color scheme: the selector's part (`.dark`, `[data-theme=dark]`), else
        /// `prefers-color-scheme` for the media query; nil without a scheme.
        var schemeSource: String? {
            selectorScheme != nil ? selectorSchemeSource ?? "selector" : mediaScheme != nil ? "prefers-color-scheme" : nil
        }

        static func == (a: ModeConditions, b: ModeConditions) -> Bool {
            a.mediaScheme == b.mediaScheme && a.selectorScheme == b.selectorScheme && a.theme == b.theme && a.contrast == b.contrast
                && a.gamut == b.gamut
                && a.primerLight == b.primerLight && a.primerDark == b.primerDark && a.others == b.others
        }

        /// How many of theme, color scheme, contrast and other parts are set; nil for Primer's
        /// themes, whose modes are whole themes, combined with nothing.
        var parts: Int? {
            guard primerLight == nil, primerDark == nil else { return nil }
            // A scheme set by a selector and another by the media query (`.light` on a page
            // whose system is dark) are two parts.
            return (theme == nil ? 0 : 1) + (scheme == nil ? 0 : 1) + (selectorScheme != nil && mediaScheme != nil ? 1 : 0)
                + (contrast == nil ? 0 : 1) + (gamut == nil ? 0 : 1) + others.count
        }

        /// Whether these conditions hold wherever `other`'s do and are fewer: a rule for them
        /// applies in `other`'s mode too (`dark` in `dark-high-contrast` and in `.dark.hc`, CSS
        /// Cascade 4 §6).
        func isPart(of other: ModeConditions) -> Bool {
            guard let n = parts, let m = other.parts, n < m else { return false }
            // A scheme set another way is another state (`.dark` is not in the media query's
            // `dark-high-contrast`).
            let sameSource = anySchemeSource || other.anySchemeSource || schemeSource == other.schemeSource
            // The media query's scheme holds in a state whatever class is also set.
            let mediaPart = selectorScheme == nil && mediaScheme != nil && mediaScheme == other.mediaScheme
            return (theme == nil || theme == other.theme) && (scheme == nil || (scheme == other.scheme && sameSource) || mediaPart)
                && (contrast == nil || contrast == other.contrast) && (gamut == nil || gamut == other.gamut)
                && others.isSubset(of: other.others)
        }

        var target: CSSModeMapping.Target {
            let contrastPart = contrast.map { $0 == "more" ? "high-contrast" : "low-contrast" }
            var parts: [String] = []
            if primerLight != nil || primerDark != nil {
                let scheme = self.scheme ?? "light"
                parts.append((scheme == "dark" ? (primerDark ?? primerLight) : (primerLight ?? primerDark))!)
            } else {
                if let theme { parts.append(theme) }
                if let scheme { parts.append(scheme) }
            }
            if let contrastPart { parts.append(contrastPart) }
            if let gamut { parts.append(gamut) }
            guard !parts.isEmpty else { return .base }
            // A scheme's source rides along after `schemeMarker` until the reader knows whether
            // two sources of one name hold different values (`CSSThemeReader.separateSchemeSources`).
            // Cut as a selector's own name is (a hostile pass: a 5,000-character
            // `[data-theme="…"]` was a mode name of 5,000 characters in every row).
            var name = parts.joined(separator: "-")
            if name.count > CSSThemeReader.maximumModeNameLength { name = String(name.prefix(CSSThemeReader.maximumModeNameLength - 1)) + "…" }
            // The contrast's source rides along too, after the scheme's.
            // Primer's theme slots are the scheme's source: the light slot (`data-light-theme`,
            // `data-color-mode` light or auto) and the dark slot (`data-dark-theme` under
            // `@media (prefers-color-scheme: dark)`) can set one theme differently, two states of
            // the page (a new user's pass: `[data-theme="light"]` and a dark-slot `light` were one
            // mode, and only the cascade's winner was measured: a failing state passed).
            let primerSource = primerLight != nil || primerDark != nil ? ((self.scheme ?? "light") == "dark" ? "[data-dark-theme]" : "[data-light-theme]") : nil
            let sources = [primerSource ?? schemeSource, contrast == nil ? nil : contrastSource].compactMap { $0 }
            if !sources.isEmpty { return .mode(name + CSSThemeReader.schemeMarker + sources.joined(separator: ", ")) }
            return .mode(name)
        }
    }

    static func splitAtRule(_ text: String) -> (String, String) {
        var t = Substring(text)
        if t.first == "@" { t = t.dropFirst() }
        let name = t.prefix { $0 != " " && $0 != "(" }
        return (name.lowercased(), String(t[name.endIndex...]).trimmingSpaces())
    }

    /// A media query list's conditions on top of `base`, or nil when any part is not understood
    /// (or the queries of a list disagree).
    static func mediaConditions(_ prelude: String, onto base: ModeConditions) -> ModeConditions? {
        var result: ModeConditions? = nil
        for var query in splitTopLevel(prelude.lowercased(), by: ",").map({ Substring($0.trimmingSpaces()) }) {
            // `not` negates the whole query (Media Queries 4 §2.2.1): understood for a color
            // scheme alone, `not (prefers-color-scheme: dark)` being light (Pico and others
            // write the light side so); any other negated query is not.
            let negated = query.hasPrefix("not ")
            if negated { query = query.dropFirst(4) }
            var c = base
            var rest = query
            while true {
                rest = rest.drop { $0 == " " }
                if rest.isEmpty { break }
                if rest.first == "(" {
                    guard let close = rest.firstIndex(of: ")") else { return nil }
                    let feature = rest[rest.index(after: rest.startIndex)..<close]
                    rest = rest[rest.index(after: close)...]
                    let kv = feature.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces() }
                    guard kv.count == 2 else { return nil }
                    switch (kv[0], kv[1]) {
                    case ("prefers-color-scheme", "dark"), ("prefers-color-scheme", "light"): c.mediaScheme = kv[1]
                    case ("prefers-contrast", "more"), ("prefers-contrast", "high"): (c.contrast, c.contrastSource) = ("more", "prefers-contrast")
                    case ("prefers-contrast", "less"), ("prefers-contrast", "low"): (c.contrast, c.contrastSource) = ("less", "prefers-contrast")
                    case ("prefers-contrast", "no-preference"): break
                    // Wide-gamut displays (Radix Colors' `display-p3` blocks): a state of its own,
                    // `dark-p3`, that takes what it does not set from `dark` (a new user's pass:
                    // each selector of Radix's list had become a mode named after the query).
                    case ("color-gamut", "p3"), ("color-gamut", "rec2020"): c.gamut = kv[1]
                    case ("color-gamut", "srgb"): break
                    default: return nil
                    }
                } else {
                    let word = rest.prefix { $0 != " " && $0 != "(" }
                    rest = rest[word.endIndex...]
                    guard ["screen", "all", "and", "only"].contains(String(word)) else { return nil }
                }
            }
            if negated {
                var flipped = c
                guard let scheme = c.mediaScheme, base.mediaScheme == nil else { return nil }
                flipped.mediaScheme = nil
                guard flipped == base, !query.contains("screen") else { return nil }
                c.mediaScheme = scheme == "dark" ? "light" : "dark"
            }
            if let r = result, r != c { return nil }
            result = c
        }
        return result
    }

    /// One complex selector's conditions on top of `base`, or nil when a part is not understood.
    static func selectorConditions(_ selector: String, onto base: ModeConditions, depth: Int = 0) -> ModeConditions? {
        // Each level of `:is(`, `:where(` or `:not(` reads its argument again: 10,000 of them
        // (50 KB) took quadratic time and memory and crashed the server on its stack (a hostile
        // pass). Deeper than `maximumSelectorNesting` a selector is not understood.
        guard depth <= maximumSelectorNesting else { return nil }
        var c = base
        let s = Array(selector.unicodeScalars)
        var k = 0
        func ident() -> String {
            var out = ""
            while k < s.count, CSSStylesheet.Scanner.isNameChar(s[k]) || s[k] == "\\" {
                if s[k] == "\\", k + 1 < s.count { k += 1 }
                out.unicodeScalars.append(s[k]); k += 1
            }
            return out
        }
        /// Text up to the `)` or `]` matching the opener just passed.
        func balanced(_ close: Unicode.Scalar) -> String? {
            var depth = 1
            var quote: Unicode.Scalar? = nil
            var out = ""
            while k < s.count {
                let ch = s[k]
                k += 1
                if let q = quote { if ch == q { quote = nil } }
                else if ch == "\"" || ch == "'" { quote = ch }
                else if ch == "(" || ch == "[" { depth += 1 }
                else if ch == ")" || ch == "]" {
                    depth -= 1
                    if depth == 0 { return ch == close ? out : nil }
                }
                out.unicodeScalars.append(ch)
            }
            return nil
        }
        // The parts of each compound closed by a combinator are an ancestor's (or a sibling's),
        // not the element's own (`ancestorParts`).
        var compoundStart = c
        func closeCompound() {
            if c.selectorScheme != compoundStart.selectorScheme { c.ancestorParts.insert("scheme") }
            if c.theme != compoundStart.theme { c.ancestorParts.insert("theme") }
            if c.contrast != compoundStart.contrast { c.ancestorParts.insert("contrast") }
            c.ancestorParts.formUnion(c.others.subtracting(compoundStart.others))
            compoundStart = c
        }
        while k < s.count {
            let ch = s[k]
            switch ch {
            case " ", ">", "+", "~":
                closeCompound()
                k += 1
            case "*", "&":
                k += 1
            case ".":
                k += 1
                let name = ident()
                guard !name.isEmpty else { return nil }
                if let next = applyClass(name, to: c) { c = next } else { c.others.insert("." + name) }
            case "#":
                k += 1
                let name = ident()
                guard !name.isEmpty else { return nil }
                c.others.insert("#" + name)
            case "[":
                k += 1
                guard let inside = balanced("]") else { return nil }
                if let next = applyAttribute(inside, to: c) { c = next } else { c.others.insert("[" + inside + "]") }
            case ":":
                k += 1
                let pseudoElement = k < s.count && s[k] == ":"
                if pseudoElement { k += 1 }
                let name = ident().lowercased()
                var argument: String? = nil
                if k < s.count, s[k] == "(" {
                    k += 1
                    guard let a = balanced(")") else { return nil }
                    argument = a
                }
                // A highlight pseudo-element (`::selection`) styles selected or marked text, not
                // the page: its own scope, not the base (a hostile pass: `::selection {
                // --primary: #eee }` had replaced `:root`'s). Generated boxes (`::before`,
                // `::after`, `::backdrop`, as Tailwind's preflight lists them beside `*`) pass.
                if pseudoElement {
                    if ["selection", "target-text", "spelling-error", "grammar-error", "highlight"].contains(name) {
                        c.others.insert("::" + name + (argument.map { "(\($0)" + ")" } ?? ""))
                    }
                    continue
                }
                switch (name, argument) {
                case ("root", nil), ("host", nil), ("scope", nil):
                    continue
                case ("where", let a?), ("is", let a?), ("matches", let a?), ("-webkit-any", let a?), ("host", let a?), ("host-context", let a?):
                    var agreed: ModeConditions? = nil
                    for option in splitTopLevel(a, by: ",") {
                        guard let r = selectorConditions(option, onto: c, depth: depth + 1) else { return nil }
                        if let prior = agreed, prior != r { return nil }
                        agreed = r
                    }
                    guard let agreed else { return nil }
                    c = agreed
                case ("not", let a?):
                    // `:root:not(.light)` inside `@media (prefers-color-scheme: dark)`: dark unless
                    // the page forces light; a negated color scheme only says when the rule
                    // yields, so it adds no condition (a new user's pass: the rule became a mode
                    // named after its text, whose `light` hid the base from the audit).
                    // `:root:not([data-theme])` (Pico's dark query): no theme attribute forced, so
                    // the media query decides; like a negated scheme, it adds no condition.
                    let presence = a.trimmingSpaces()
                    if presence.hasPrefix("["), presence.hasSuffix("]"),
                       schemeAttributes.contains(presence.dropFirst().dropLast().trimmingSpaces().lowercased()) {
                        continue
                    }
                    let negated = splitTopLevel(a, by: ",").map { selectorConditions($0, onto: ModeConditions(), depth: depth + 1) }
                    guard negated.allSatisfy({ n in n.map { $0.scheme != nil && $0.parts == 1 } ?? false }) else {
                        c.others.insert(":not(\(a))")
                        continue
                    }
                    // Outside a scheme, `:root:not(.light)` is the other scheme: a dark-by-default
                    // page with a `.light` opt-out has two states, `:root`'s alone with the class
                    // and this rule's without it (a new user's pass: the rule had been read as
                    // the base, and the light values were never measured).
                    let schemes = Set(negated.compactMap { $0?.scheme })
                    if c.scheme == nil, schemes.count == 1, let negatedScheme = schemes.first {
                        c.selectorScheme = negatedScheme == "light" ? "dark" : "light"
                        c.selectorSchemeSource = ":not(\(a.trimmingSpaces()))"
                    }
                case (_, let a):
                    // A state or structure (`:hover`, `:first-child`, `:has(…)`): another part.
                    guard !name.isEmpty else { return nil }
                    c.others.insert(":" + name + (a.map { "(\($0))" } ?? ""))
                }
            default:
                guard CSSStylesheet.Scanner.isNameChar(ch) else { return nil }
                let type = ident().lowercased()
                if type != "html" && type != "body" { c.others.insert(type) }
            }
        }
        return c
    }

    static let schemeWords: Set<String> = ["light", "dark"]
    static let neutralWords: Set<String> = ["auto", "system"]

    static func applyClass(_ name: String, to c: ModeConditions) -> ModeConditions? {
        var c = c
        let n = name.lowercased()
        switch n {
        // The source keeps the class as written: `.dark` and `.Dark` are different classes in a
        // standards-mode page, so where they set different values they are two modes (a hostile
        // pass: `.Dark`'s #fff on #000 had replaced `.dark`'s #222, 1.31:1, and the audit passed).
        case "dark", "dark-theme", "theme-dark", "dark-mode":
            c.selectorScheme = "dark"
            c.selectorSchemeSource = "." + name
        case "light", "light-theme", "theme-light", "light-mode":
            c.selectorScheme = "light"
            c.selectorSchemeSource = "." + name
        case "high-contrast", "increased-contrast":
            (c.contrast, c.contrastSource) = ("more", "." + name)
        default:
            guard n.hasPrefix("theme-"), n.count > 6 else { return nil }
            c.theme = String(name.dropFirst(6))
        }
        return c
    }

    static let schemeAttributes: Set<String> = [
        "data-theme", "data-mode", "data-color-mode", "data-color-scheme", "data-bs-theme", "data-scheme",
        "data-appearance", "data-color-theme",
    ]

    /// `[name]`, `[name=value]`, `[name="value" i]`, `[name~=value]`.
    static func applyAttribute(_ inside: String, to c: ModeConditions) -> ModeConditions? {
        var c = c
        let name: String
        var value: String? = nil
        // An attribute's value is matched as written unless the selector says `i`.
        var ignoresCase = false
        if let eq = inside.firstIndex(of: "=") {
            var nameEnd = eq
            if eq > inside.startIndex {
                let before = inside[inside.index(before: eq)]
                if before == "~" { nameEnd = inside.index(before: eq) }
                else if "^$*|".contains(before) { return nil }
            }
            name = String(inside[..<nameEnd]).trimmingSpaces().lowercased()
            var v = String(inside[inside.index(after: eq)...]).trimmingSpaces()
            if let q = v.first, q == "\"" || q == "'" {
                guard let close = v.dropFirst().firstIndex(of: q) else { return nil }
                let flags = v[v.index(after: close)...].trimmingSpaces().lowercased()
                guard flags.isEmpty || flags == "i" || flags == "s" else { return nil }
                ignoresCase = flags == "i"
                v = String(v[v.index(after: v.startIndex)..<close])
            } else if let space = v.firstIndex(of: " ") {
                let flags = v[space...].trimmingSpaces().lowercased()
                guard flags == "i" || flags == "s" else { return nil }
                ignoresCase = flags == "i"
                v = String(v[..<space])
            }
            value = v
        } else {
            name = inside.trimmingSpaces().lowercased()
        }
        switch name {
        case _ where schemeAttributes.contains(name):
            guard let value else { return c }
            let v = value.lowercased()
            // `[data-theme="Dark" i]` matches `dark` and `Dark` alike: a source of its own, so
            // that with other values than `[data-theme=dark]` it is a mode of its own too.
            if schemeWords.contains(v) { c.selectorScheme = v; c.selectorSchemeSource = ignoresCase ? "[\(name)=\(value) i]" : "[\(name)=\(value)]" }
            else if neutralWords.contains(v) { }
            else if !value.isEmpty { c.theme = value }
            else { return nil }
        case "data-light-theme":
            guard let value, !value.isEmpty else { return nil }
            c.primerLight = value
        case "data-dark-theme":
            guard let value, !value.isEmpty else { return nil }
            c.primerDark = value
        case "data-contrast", "data-color-contrast":
            switch value?.lowercased() {
            case "more"?, "high"?: (c.contrast, c.contrastSource) = ("more", "[\(name)]")
            case "less"?, "low"?: (c.contrast, c.contrastSource) = ("less", "[\(name)]")
            case "no-preference"?, "normal"?, "standard"?: break
            default: return nil
            }
        default:
            return nil
        }
        return c
    }
}

extension StringProtocol {
    /// Trimmed of ASCII spaces at both ends.
    fileprivate func trimmingSpaces() -> String {
        var sub = Substring(self)
        while sub.first == " " { sub.removeFirst() }
        while sub.last == " " { sub.removeLast() }
        return String(sub)
    }

    /// Every occurrence of `target` replaced by `replacement`.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
