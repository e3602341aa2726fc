import ColorScience

// Following aliases to colors, per mode (DTCG 2025.10 §3.8 aliases; CSS Custom Properties 1 §3
// for var()): alias chains with cycle detection, case-insensitive matching when the exact path is
// unknown (Figma SDS writes `{@color_primitives.Gray.900}` for the key `gray.900`), and CSS text
// parsed by the color core with the mode's custom properties for var() inside functions.

/// A token's color in one mode, and how it was reached.
public struct ResolvedToken: Sendable {
    /// The token asked for.
    public var path: String
    /// The tokens passed through, the token asked for first, the one holding the color last
    /// (`["color.text.action", "color.blue.6"]`); one element when the value is a color itself.
    public var chain: [String]
    /// The CSS text the color was read from (after var() substitution).
    public var css: String
    /// The value as the file writes it (before var() substitution: `oklch(from var(--fg) calc(l +
    /// 0.35) c h)`), which a suggestion keeps where it keeps a side (`TokenAudit.writeLightDark`).
    public var written: String
    /// The color.
    public var color: Color
    /// Where the value holding the color is written (the last token of `chain`).
    public var location: TokenLocation
    /// Where the token asked for (`path`, the first of `chain`) has its value in the mode
    /// resolved: the line a report points at, an alias's own line rather than its target's.
    public var tokenLocation: TokenLocation
}

/// Why a token has no color in a mode.
public enum ResolutionFailure: Error, Sendable, Equatable {
    /// A non-color value (dimension, shadow …): the token is skipped, not an error.
    case notAColor(type: String)
    /// The token `path` has no value in this mode: the one asked for, or a token its alias
    /// chain leads to.
    case noValue(path: String)
    /// A real error: unknown alias, cycle, invalid color (named with file, token, line).
    case error(TokenError)
}

/// Resolves tokens of one `TokenSet` in its modes; results are memoized per (path, mode).
public final class TokenResolver: @unchecked Sendable {
    /// Longest alias chain followed.
    public static let maximumChain = 64

    public let set: TokenSet
    private var index: [String: Int] = [:]
    /// Token indices by `fold`ed path, made at the first lookup that is not exact (most are:
    /// folding every name up front was a quarter of a hostile pass's audit of 19,800 names).
    private lazy var folded: [String: [Int]] = {
        var folded: [String: [Int]] = [:]
        // Custom properties are matched exactly only (`tokenIndex`).
        for (i, t) in set.tokens.enumerated() where !t.path.hasPrefix("--") {
            folded[Self.fold(t.path), default: []].append(i)
        }
        return folded
    }()
    private var memo: [String: Result<ResolvedToken, ResolutionFailure>] = [:]
    /// The memo keys of the resolutions under way (an alias met again among them is a cycle).
    private var resolving = Set<String>()
    /// Steps of alias chains followed so far (`follow` calls): the resolution's work, which the
    /// tests hold to about one per token and mode.
    private(set) var followSteps = 0
    /// Walks `overlongChain` found too long (each the `maximumChain + 1` tokens from its start,
    /// by index in `set.tokens`, the token where the limit was met last), and for a token on one
    /// (by mode and index) which walk and where: aliases lead one way, so a later walk that
    /// meets that token takes the tokens from it on from there.
    private var overlongWalks: [[Int]] = []
    private var overlongAt: [String: [Int: (walk: Int, offset: Int)]] = [:]
    /// For a token on a walk that ended short of the limit (by mode and index), how many tokens
    /// its chain holds, itself included (`overlongChain`).
    private var shortWalks: [String: [Int: Int]] = [:]
    private var variables: [String: CSSVariables] = [:]
    /// Characters the substituted custom properties of every mode may hold in all, and that
    /// substitution may add to the token values read (1 Mi each: a thousand-property theme of
    /// aliases and `color-mix()` holds tens of KB per mode, and substitution mostly shortens).
    public static let maximumSubstitutedCharacters = 1 << 20
    private var substitutionBudget = TokenResolver.maximumSubstitutedCharacters
    /// Characters var() substitution has added to the token values read so far (at most
    /// `maximumSubstitutedCharacters`).
    private var substitutedGrowth = 0
    /// Tokens of a JSON format whose value was hex without `#` (`"3b82f6"`), read as hex, and
    /// the first met (a new user's pass: `/v1/contrast` read them, the audit refused them).
    public private(set) var bareHexTokens = Set<String>()
    public private(set) var firstBareHexToken: String?

    /// Custom properties from outside the files (the request's `variables`): for var() in token
    /// values, and as the target of a CSS alias (`--fg: var(--brand)`); a token of the same name
    /// wins. They are not tokens: patterns never match them.
    public let external: [String: String]
    /// Component scopes read as elements below the root (`TokenSet.scopes` not named like a
    /// theme: `.card`, `.btn-primary`): a custom property such a scope does not declare is the
    /// value the root computed and the element inherits, not its text again (CSS Variables 1
    /// §3: `var()` is substituted at computed-value time, on the element that declares it). A
    /// hostile pass: `:root { --primary: var(--brand) }` with `.card { --brand: #000 }` was
    /// resolved to #000 in `.card`, where the browser shows the root's `--primary`, and the
    /// pair failed there. Scopes named like a theme (`.night`) are read on `<html>`, as `.dark`.
    private lazy var inheritingScopes: Set<String> = set.scopes.filter { !CSSThemeReader.mayBeTheme($0) }

    /// The mode whose computed value `path` takes in `mode` by inheritance (`mode` nil: the
    /// base), or nil when it is set there (or `mode` is the root's): a component scope's
    /// undeclared property is the base's; a descendant mode's (`TokenSet.descendantModes`) its
    /// ancestor's.
    private func inheritedFrom(_ path: String, in mode: String) -> Ancestor? {
        if let d = set.descendantModes[mode] { return d.declared.contains(path) ? nil : Ancestor(mode: d.ancestor) }
        if inheritingScopes.contains(mode), token(path)?.modes[mode] == nil { return Ancestor(mode: nil) }
        return nil
    }

    /// The mode an inherited value is computed in (nil: the base).
    private struct Ancestor { var mode: String? }

    public init(_ set: TokenSet, variables: [String: String] = [:]) {
        self.set = set
        self.external = variables
        for (i, t) in set.tokens.enumerated() {
            if index[t.path] == nil { index[t.path] = i }
        }
    }

    /// The key case-insensitive matching uses: lowercased, `@` prefixes of segments dropped.
    static func fold(_ path: String) -> String {
        path.lowercased().split(separator: ".", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("@") ? $0.dropFirst() : $0 }.joined(separator: ".")
    }

    /// The token at `path` (exact, else the one case-insensitive match), or nil. A custom
    /// property (`--x`) matches exactly: CSS names are case-sensitive (CSS Variables 1 §2), and
    /// the shadcn preset had paired `--Primary-foreground` with `--primary` (a hostile pass).
    public func token(_ path: String) -> DesignToken? {
        tokenIndex(path).map { set.tokens[$0] }
    }

    /// The index in `set.tokens` of the token `token(_:)` finds.
    private func tokenIndex(_ path: String) -> Int? {
        if let i = index[path] {
            // The same name to Swift's strings (canonically equivalent) but another to CSS and
            // JSON, which compare code points: `var(--cafe\u{301})` does not reach `--café`
            // (a hostile pass: it was measured as that token, with no note).
            guard CanonicalNames.differ(set.tokens[i].path, path) else { return i }
            return nil
        }
        if path.hasPrefix("--") { return nil }
        if let candidates = folded[Self.fold(path)], candidates.count == 1 { return candidates[0] }
        return nil
    }

    /// The color-scheme `light-dark()` takes in `mode` (`TokenSet.colorScheme(in:)`).
    func colorScheme(_ mode: String?) -> CSSColorScheme { set.colorScheme(in: mode) }

    /// `path` in `mode` (nil: the base values).
    public func resolve(_ path: String, mode: String?) -> Result<ResolvedToken, ResolutionFailure> {
        let key = (mode ?? "") + "\u{0}" + path
        if let known = memo[key] { return known }
        if let overlong = overlongChain(from: path, mode: mode) {
            memo[key] = .failure(.error(overlong))
            return .failure(.error(overlong))
        }
        resolving.insert(key)
        var result = follow(path, mode: mode, chain: [])
        resolving.remove(key)
        if case .success(var r) = result, let own = token(r.path) {
            r.tokenLocation = own.location(in: mode)
            result = .success(r)
        }
        memo[key] = result
        return result
    }

    private func follow(_ path: String, mode: String?, chain: [String]) -> Result<ResolvedToken, ResolutionFailure> {
        followSteps += 1
        if token(path) == nil, let text = external[path], !chain.isEmpty {
            // An alias to a custom property given as a request variable.
            let here = chain + [path]
            let location = token(chain.last!)!.location(in: mode)
            let context = CSSColorContext(colorScheme: colorScheme(mode), variables: variables(for: mode))
            do throws(ColorParseError) {
                let parsed = try CSSColorParser.parse(text, context: context)
                let css = (try? context.variables!.substitute(in: text)) ?? text
                return .success(ResolvedToken(path: here[0], chain: here, css: css, written: text, color: parsed.color, location: location, tokenLocation: location))
            } catch {
                return .failure(.error(TokenError(file: location.file, path: chain.last, location: location,
                                                  reason: "the request variable \(TokenError.quoted(path)) is not a color: \(error.message) (reached through \(here.map { TokenError.quoted($0) }.joined(separator: " → ")))")))
            }
        }
        guard let token = token(path) else {
            let from = chain.last.flatMap { token($0) }
            let location = from.map { $0.location(in: mode) }
            let via = chain.isEmpty ? "" : " (alias chain: \((chain + [path]).map { TokenError.quoted($0) }.joined(separator: " → ")))"
            return .failure(.error(TokenError(file: location?.file, path: chain.last ?? path, location: location,
                                              reason: "alias to \(TokenError.quoted(path)), which is not a token of the submitted files\(via)")))
        }
        if chain.contains(token.path) {
            let start = chain.firstIndex(of: token.path)!
            return .failure(.error(TokenError(file: token.location.file, path: token.path, location: token.location(in: mode),
                                              reason: "aliases form a cycle: \((chain[start...] + [token.path]).joined(separator: " → "))")))
        }
        if chain.count >= Self.maximumChain {
            return .failure(.error(chainTooLong(chain, at: token, mode: mode)))
        }
        let here = chain + [token.path]
        if let mode, let from = inheritedFrom(token.path, in: mode) {
            // Not set on the element: its ancestor's computed value, inherited.
            switch resolve(token.path, mode: from.mode) {
            case .success(var r):
                r.chain = chain + r.chain
                r.path = r.chain[0]
                return .success(r)
            case .failure(let f): return .failure(f)
            }
        }
        guard let value = token.value(in: mode) else { return .failure(.noValue(path: token.path)) }
        let location = token.location(in: mode)
        switch value {
        case .other(let type):
            // A token (or an alias chain) that ends in a non-color is skipped, not an error.
            return .failure(.notAColor(type: type))
        case .alias(let target):
            // The target's own resolution, memoized, so that each token of a chain is followed
            // once per mode rather than once for every token leading through it (a hostile
            // pass: 300 tokens through one chain of 62 aliases of 400-character names, in 65
            // modes, copied and searched the chain at every step, 2 s of a heavy worker); unless
            // it is being resolved (a cycle), this chain is on it, or the two pass the limit:
            // followed then, for the error with this chain in it.
            let targetKey = (mode ?? "") + "\u{0}" + target
            if !resolving.contains(targetKey), case .success(var r) = resolve(target, mode: mode),
               here.count + r.chain.count <= Self.maximumChain, !r.chain.contains(where: here.contains) {
                r.chain = here + r.chain
                r.path = here[0]
                return .success(r)
            }
            switch follow(target, mode: mode, chain: here) {
            case .success(var r):
                r.path = here[0]
                return .success(r)
            case .failure(let f): return .failure(f)
            }
        case .css(let text) where token.isComponentText && (!set.isStylesheet || CSSThemeReader.isComponentValue(text)):
            // Channel triplets (`--x-rgb: 65 14 11`), numbers, percentages and angles are text
            // for var() inside colors (`rgb(var(--x-rgb))`, `hsl(240 5% var(--l))`).
            return .failure(.notAColor(type: token.type ?? "number"))
        case .css(let written):
            // Longer than any color's text even once var() is substituted: refused before it is
            // read (a hostile pass: 65,000-character `rgb(aaa…)` values were parsed again for
            // every pair in every mode, 16 ms each, until the deadline).
            let length = written.utf8.count
            if length > CSSVariables.maximumExpandedLength {
                return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                                  reason: "its value is \(length) characters long: no color's text is longer than \(CSSVariables.maximumExpandedLength), even with its var() substituted")))
            }
            // A gradient typed as a color (Tokens Studio writes them so, `"type": "color"`): no
            // color, but a gradient, whose pairs the audit names (a pass: the whole audit was a
            // 400, "unknown color function 'linear-gradient()'").
            if CSSThemeReader.isGradient(written) { return .failure(.notAColor(type: TokenValue.gradientType)) }
            var text = written
            if written.contains("{"), set.format == .tokensStudio || set.format == .styleDictionary {
                switch embeddedReferences(written, mode: mode, chain: here, token: token, location: location) {
                case .success(let t): text = t
                case .failure(let f): return .failure(f)
                }
            }
            // Hex without `#` is a color in a JSON format's token typed as a color, as design
            // tools write it (Style Dictionary's color transforms read it too); in a stylesheet
            // it is not one a browser shows, so there it is refused with a hint.
            let stylesheet = set.isStylesheet
            let json = !stylesheet && token.type?.lowercased() == "color"
            let context = CSSColorContext(colorScheme: colorScheme(mode),
                                          variables: CSSVariables.mayReferToVariables(text) ? variables(for: mode) : nil,
                                          acceptsBareHex: json)
            var substituted: String? = nil
            // A property of a cycle is invalid at computed-value time, fallbacks or not (a hostile
            // pass: `--a: var(--b, red); --b: var(--a)` measured both red).
            if token.path.hasPrefix("--"), let cycle = context.variables?.cycle(through: token.path) {
                return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                                  reason: "\(TokenError.quoted(written)) is not a color: \(cycle.message)")))
            }
            if context.variables != nil {
                // What var() adds to the text to parse is bounded in all: a hostile pass's 9,900
                // tokens of color-mix(var(--c8) …), where --c8 doubles 8 times, were 7.7 KB each
                // to parse (11 ms) and held the heavy-work pool for 30 s.
                let spent = TokenError(file: location.file, path: token.path, location: location,
                                       reason: "var() in the files' colors adds more than \(Self.maximumSubstitutedCharacters) characters in all to the text to read (nested var() and color-mix() of var() multiply it); this token was not read")
                guard substitutedGrowth <= Self.maximumSubstitutedCharacters else { return .failure(.error(spent)) }
                if let expanded = try? context.variables!.substitute(in: text) {
                    substituted = expanded
                    substitutedGrowth += Swift.max(0, expanded.utf8.count - text.utf8.count)
                    guard substitutedGrowth <= Self.maximumSubstitutedCharacters else { return .failure(.error(spent)) }
                }
            }
            do throws(ColorParseError) {
                let parsed = try CSSColorParser.parse(text, context: context)
                if json, let digits = CSSColorParser.bareHexDigits(text) {
                    if bareHexTokens.insert(token.path).inserted, firstBareHexToken == nil { firstBareHexToken = token.path }
                    return .success(ResolvedToken(path: here[0], chain: here, css: "#" + digits, written: "#" + digits, color: parsed.color, location: location, tokenLocation: location))
                }
                return .success(ResolvedToken(path: here[0], chain: here, css: substituted ?? text, written: text, color: parsed.color, location: location, tokenLocation: location))
            } catch {
                let via = chain.isEmpty ? "" : " (reached through \(here.map { TokenError.quoted($0) }.joined(separator: " → ")))"
                var near = CSSColorParser.namedColorSuggestions(for: text, limit: 1).first.map { "; did you mean the CSS color '\($0)'?" } ?? ""
                // A palette step without var() (`gray-500`): say how a palette is referred to.
                var why = error.message
                if stylesheet, let digits = CSSThemeReader.bareHex(text) {
                    why = "it looks like a hex color without '#', which a browser does not read as a color: write #\(digits)"
                } else if let (name, step) = CSSThemeReader.paletteStep(text) {
                    near = "; a palette step is referred to with var(), as var(--color-\(name.lowercased().replacingOccurrences(of: "-", with: ""))-\(step)) for Tailwind's palette"
                }
                return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                                  reason: "\(TokenError.quoted(text)) is not a color: \(why)\(near)\(via)")))
            }
        }
    }

    /// The error of an alias chain met at `token` after `chain` (`maximumChain` tokens).
    private func chainTooLong(_ chain: [String], at token: DesignToken, mode: String?) -> TokenError {
        TokenError(file: token.location.file, path: token.path, location: token.location(in: mode),
                   reason: "alias chain longer than \(Self.maximumChain): \(chain.prefix(3).joined(separator: " → ")) → …")
    }

    /// The error `follow` gives `path` in `mode` when it begins a chain of plain aliases longer
    /// than `maximumChain`, found by walking the aliases alone (each token once, in a set); nil
    /// when the walk meets anything else first (a value, a missing token, a cycle, a request
    /// variable), which `follow` then answers. `follow` copies the chain at every step and looks
    /// for each token in it: a hostile pass's 19,990 tokens, each a step of one chain 20,000
    /// long, cost it 64 × 64 steps apiece (1.5 s of a heavy worker before the 400).
    ///
    /// A token met on a walk already found too long gives the tokens from it on at once, as
    /// that walk has them (aliases lead one way), each still looked for among those before it
    /// (a hostile pass's 19,900 tokens through one chain of 500-character names had each been
    /// walked 65 steps, most of the 1.5 s the audit then took). Likewise a token met on a walk
    /// that ended short of the limit at a value or a missing token: the walk's length is then
    /// known without walking on (a hostile pass: 300 tokens through one chain of 62 aliases of
    /// 400-character names, in 65 modes, walked 1.2 million steps, each a lookup of a long name).
    private func overlongChain(from path: String, mode: String?) -> TokenError? {
        let limit = Self.maximumChain + 1
        var walk: [Int] = [], seen = Set<Int>(), p = path
        walk.reserveCapacity(limit)
        // The mode's positions, taken out while this walk reads and adds to them (held twice,
        // each addition would copy them all).
        var known = overlongAt.removeValue(forKey: mode ?? "") ?? [:]
        var ends = shortWalks.removeValue(forKey: mode ?? "") ?? [:]
        defer { overlongAt[mode ?? ""] = known; shortWalks[mode ?? ""] = ends }
        /// Records each token of the walk with the tokens its chain holds, when the walk ends
        /// `beyond` tokens after its last (not at a cycle, whose length depends on the start).
        func ended(_ beyond: Int) {
            for (offset, j) in walk.enumerated() where ends[j] == nil { ends[j] = walk.count - offset + beyond }
        }
        while true {
            // As `follow` meets them: a request variable or a missing token, a cycle.
            guard let i = tokenIndex(p) else { ended(0); return nil }
            guard seen.insert(i).inserted else { return nil }
            // A chain known to end within the limit from here (aliases lead one way: none of
            // this walk's tokens is on it, or it would lead back here).
            if let r = ends[i], walk.count + r < limit { ended(r); return nil }
            if let k = known[i] {
                // From here on the tokens are that walk's, taken at once (each still looked for
                // among those before it: a cycle is `follow`'s to name).
                let segment = overlongWalks[k.walk][k.offset...].prefix(limit - walk.count)
                for j in segment.dropFirst() { guard seen.insert(j).inserted else { return nil } }
                walk += segment
            } else {
                walk.append(i)
            }
            if walk.count == limit { break }
            guard case .alias(let next)? = set.tokens[walk[walk.count - 1]].value(in: mode) else { ended(0); return nil }
            p = next
        }
        // Every token of this walk, where it lies on it.
        overlongWalks.append(walk)
        for (offset, i) in walk.enumerated() where offset < Self.maximumChain {
            if let k = known[i], k.offset <= offset { continue }
            known[i] = (overlongWalks.count - 1, offset)
        }
        return chainTooLong(walk.prefix(Self.maximumChain).map { set.tokens[$0].path }, at: set.tokens[walk[Self.maximumChain]], mode: mode)
    }

    /// Most `{reference}`s one value may embed.
    static let maximumEmbeddedReferences = 16

    /// A Tokens Studio (or Style Dictionary) value with references inside it, as Tokens Studio
    /// writes translucent colors (`rgba({colors.black}, 0.45)`, docs.tokens.studio, "Color
    /// tokens"; a new user's pass: a 400, "unexpected '{' inside rgba()"): each `{path}` (a
    /// trailing `.value` dropped) replaced by the CSS text of that token in `mode`, then
    /// Tokens Studio's `rgba(<color>, <alpha>)` written as CSS's `rgb(from <color> r g b /
    /// <alpha>)` (CSS Color 5 §4). Cycles and chains are followed as for aliases; the text
    /// added counts against `maximumSubstitutedCharacters`.
    private func embeddedReferences(_ text: String, mode: String?, chain: [String], token: DesignToken,
                                    location: TokenLocation) -> Result<String, ResolutionFailure> {
        var out = "", rest = Substring(text), count = 0
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            var path = String(rest[rest.index(after: open)..<close])
            guard !path.isEmpty, !path.contains("{") else { break }
            count += 1
            guard count <= Self.maximumEmbeddedReferences else {
                return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                                  reason: "embeds more than \(Self.maximumEmbeddedReferences) {references} in one value")))
            }
            if path.hasSuffix(".value") { path.removeLast(6) }
            switch follow(path, mode: mode, chain: chain) {
            case .success(let r): out += rest[..<open] + r.css
            case .failure(.notAColor(let type)):
                // An opacity or number token's text (`rgba({core.black}, {core.opacity.20})`: a
                // new user's pass found the color skipped as "not a color" and the audit passing).
                if let text = componentText(path, mode: mode) {
                    out += rest[..<open] + text
                    break
                }
                // A color made of a token that is neither a color nor a number cannot be
                // computed: unresolved, not skipped as "not a color" (which let the audit pass).
                let what = ["opacity", "number"].contains(type.lowercased())
                    ? "\(TokenSyntax.withArticle(type)) whose value is no plain number (0.2, 20%)" : "\(TokenSyntax.withArticle(type)), neither a color nor a number"
                return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                                  reason: "embeds {\(path)}, which is \(what), so the color cannot be computed")))
            case .failure(let f): return .failure(f)
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        substitutedGrowth += Swift.max(0, out.utf8.count - text.utf8.count)
        guard substitutedGrowth <= Self.maximumSubstitutedCharacters else {
            return .failure(.error(TokenError(file: location.file, path: token.path, location: location,
                                              reason: "{references} in the files' colors add more than \(Self.maximumSubstitutedCharacters) characters in all to the text to read; this token was not read")))
        }
        // `rgba(<color>, <alpha>)`: two arguments, the first a color (not a number).
        let lower = out.lowercased()
        if (lower.hasPrefix("rgba(") || lower.hasPrefix("rgb(")) && out.hasSuffix(")") {
            let inner = String(out[out.index(after: out.firstIndex(of: "(")!)..<out.index(before: out.endIndex)])
            let args = CSSThemeReader.splitTopLevel(inner, by: ",")
            if args.count == 2 {
                let color = args[0].trimmingCharacters(in: .whitespaces), alpha = args[1].trimmingCharacters(in: .whitespaces)
                if let first = color.unicodeScalars.first, !("0"..."9").contains(first), first != ".", first != "-", first != "+" {
                    return .success("rgb(from \(color) r g b / \(alpha))")
                }
            }
        }
        return .success(out)
    }

    /// The text of the opacity or number token at `path` in `mode` (`DesignToken.componentTypes`,
    /// `TokenSyntax.componentValue`), for a `{reference}` embedded in a color; nil for any other.
    private func componentText(_ path: String, mode: String?) -> String? {
        var path = path
        // Through aliases of such tokens (`{opacity.faint}` → `{opacity.20}`), as far as a chain goes.
        for _ in 0..<Self.maximumChain {
            guard let t = token(path), t.isComponentText else { return nil }
            switch t.value(in: mode) {
            case .css(let text)?: return text
            case .alias(let target)?: path = target
            default: return nil
            }
        }
        return nil
    }

    /// The custom properties of `mode` for var() inside CSS values: every `--` token's text
    /// there (an alias as `var(--target)`).
    private func variables(for mode: String?) -> CSSVariables {
        let key = mode ?? ""
        if let v = variables[key] { return v }
        var values = external, unusable: [String: String] = [:]
        // In a component scope or below another element, what is not set on the element is the
        // ancestor's, substituted there.
        var ancestors: [String?: [String: String]] = [:]
        for t in set.tokens where t.path.hasPrefix("--") {
            if let mode, let from = inheritedFrom(t.path, in: mode) {
                if ancestors[from.mode] == nil { ancestors[from.mode] = variables(for: from.mode).values }
                if let v = ancestors[from.mode]![t.path] {
                    values[t.path] = v
                    continue
                }
            }
            switch t.value(in: mode) {
            case .css(let text)? where set.bareHSLTriplets.contains(t.path) && text.hasPrefix("hsl(") && text.hasSuffix(")"):
                // A bare triplet is read as `hsl(…)`, but substituted as written: inside another
                // function `hsl(var(--x))` is then `hsl(240 10% 20%)`, as in the browser (a hostile
                // pass: `color-mix(in srgb, hsl(var(--base)) 80%, transparent)` read `hsl(hsl(…))`).
                values[t.path] = String(text.dropFirst(4).dropLast())
            case .css(let text)?: values[t.path] = text
            case .alias(let target)?: values[t.path] = target.hasPrefix("--") ? "var(\(target))" : nil
            case .other(TokenValue.selfReferenceType)?:
                // `--a: var(--a)` is a cycle (CSS Variables 1 §2.3): invalid at computed-value
                // time, so `var(--a, #fff)` takes its fallback, as for longer cycles (a hostile
                // pass: the pair was unresolved, "a self-reference, which this reader does not
                // substitute"; Chromium shows #fff).
                values[t.path] = "var(\(t.path))"
            case .other(let type)?:
                // Defined, but not text a color can take (a hostile pass: `--l: calc(40%)` in
                // `hsl(0 0% var(--l))` was "'--l' is not defined").
                let l = t.location(in: mode)
                unusable[t.path] = "var(\(t.path)): '\(t.path)' (\(l.file) line \(l.line)) is \(TokenSyntax.withArticle(type)), which this reader does not substitute inside a color: write a number, percentage, angle or color there"
            default: break
            }
        }
        // Each property substituted once for the mode, not again for every token using it, all
        // modes within one budget of substituted text.
        let v = CSSVariables(values, unusable: unusable).expandingEach(budget: &substitutionBudget)
        variables[key] = v
        return v
    }
}
