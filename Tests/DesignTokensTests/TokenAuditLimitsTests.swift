import ColorScience
import Foundation
import Testing
@testable import DesignTokens

/// The audit's work is bounded before it is paid (hostile-input findings): pattern matching is a
/// join on shared captures, not foreground × background, and what remains is estimated and
/// refused over a limit.
@Suite struct TokenAuditLimitsTests {
    /// `groups` groups of `perGroup` color tokens: `g0.tok0` …
    static func grouped(_ groups: Int, _ perGroup: Int) -> TokenSet {
        var tokens: [DesignToken] = []
        for g in 0..<groups {
            for i in 0..<perGroup {
                let hex = String(format: "#%06x", (g * perGroup + i) &* 2_654_435 % 0xffffff)
                tokens.append(DesignToken(path: "g\(g).tok\(i)", base: .css(hex), location: TokenLocation(file: "t.json", line: i + 1, column: 1)))
            }
        }
        return TokenSet(format: .dtcg, tokens: tokens, modes: [])
    }

    static func rule(_ fg: String, _ bg: String, _ i: Int = 0) throws -> PairRule {
        PairRule(foreground: try TokenPattern(fg), background: try TokenPattern(bg), source: "rules[\(i)]")
    }

    @Test("foregrounds and backgrounds join on shared captures, with few matching steps")
    func join() throws {
        // 600 tokens, 20 rules whose backgrounds capture a name no foreground shares: tested
        // pairwise this took 7.5 s (600 × 600 × 20 backtracking matches); joined, each token is
        // matched once per side.
        let set = Self.grouped(50, 12)
        var tokens = set.tokens
        tokens.append(DesignToken(path: "g7.tok3q5", base: .css("#ffffff"), location: TokenLocation(file: "t.json", line: 99, column: 1)))
        let withMatch = TokenSet(format: .dtcg, tokens: tokens, modes: [])
        let rules = try (0..<20).map { try Self.rule("{a}.{x}", "{b}.{x}q\($0)", $0) }
        var options = TokenAuditOptions()
        options.maximumMatchSteps = 600_000
        options.suggest = false
        let report = try TokenAudit.run(withMatch, rules: rules, options: options)
        // Every g*.tok3 (and g7.tok3q5 itself, as {a}.{x} with x = tok3q5, has no background).
        #expect(Set(report.results.filter { $0.rule == 5 }.map(\.foregroundPath)) == Set((0..<50).map { "g\($0).tok3" }))
        #expect(report.results.allSatisfy { $0.backgroundPath == "g7.tok3q5" })
        #expect(report.unmatchedRules.count == 19)
    }

    /// A hostile pass: 300 tokens through one chain of 62 aliases of 400-character names, in 65
    /// modes, took 12.8 s of a heavy worker before the report was refused for its size: every
    /// token walked and copied the whole chain (twice), comparing the long names byte by byte.
    /// Each token of a chain is now followed about once per mode.
    @Test("each token of an alias chain is followed about once per mode, however many lead through it")
    func aliasChainsAreFollowedOnce() throws {
        let pad = String(repeating: "n", count: 400), at = TokenLocation(file: "t.css", line: 1, column: 1)
        let modes = ["a", "b", "c"]
        var tokens: [DesignToken] = (0..<62).map { DesignToken(path: "--c\($0)\(pad)", base: .alias("--c\($0 + 1)\(pad)"), location: at) }
        tokens.append(DesignToken(path: "--c62\(pad)", base: .css("#777777"),
                                  modes: Dictionary(uniqueKeysWithValues: modes.enumerated().map { ($1, TokenValue.css("#7777\($0)\($0)")) }), location: at))
        tokens += (0..<300).map { DesignToken(path: "--text\($0)\(pad)", base: .alias("--c0\(pad)"), location: at) }
        let resolver = TokenResolver(TokenSet(format: .css, tokens: tokens, modes: modes))
        for mode in [nil] + modes.map(Optional.some) {
            for j in 0..<300 {
                let r = try resolver.resolve("--text\(j)\(pad)", mode: mode).get()
                #expect(r.chain.count == 64 && r.chain.first == "--text\(j)\(pad)" && r.chain.last == "--c62\(pad)")
                #expect(r.color.hex == (mode.map { m in "#7777\(modes.firstIndex(of: m)!)\(modes.firstIndex(of: m)!)" } ?? "#777777"))
            }
        }
        // (300 + 63) tokens in 4 modes, each followed once (the chain's own tokens once more
        // where a resolution's fallback re-follows none): was 300 × 63 × 4 = 75,600.
        #expect(resolver.followSteps <= 2 * 363 * 4, "\(resolver.followSteps) steps")
        // The chain's limit still holds through memoized parts: one more alias is too long.
        var longer = tokens
        longer.append(DesignToken(path: "--over", base: .alias("--text0\(pad)"), location: at))
        let over = TokenResolver(TokenSet(format: .css, tokens: longer, modes: modes))
        _ = over.resolve("--text0\(pad)", mode: nil)
        guard case .failure(.error(let e)) = over.resolve("--over", mode: nil) else { Issue.record("a chain of 65 resolved"); return }
        #expect(e.reason.hasPrefix("alias chain longer than 64"), "\(e.reason)")
        // And cycles are named as before, whichever token is resolved first.
        let cycle = TokenResolver(TokenSet(format: .css, tokens: [DesignToken(path: "--a", base: .alias("--b"), location: at),
                                                                   DesignToken(path: "--b", base: .alias("--a"), location: at)], modes: []))
        for (path, text) in [("--a", "--a → --b → --a"), ("--b", "--b → --a → --b")] {
            guard case .failure(.error(let e)) = cycle.resolve(path, mode: nil) else { Issue.record("\(path) resolved"); continue }
            #expect(e.reason == "aliases form a cycle: \(text)", "\(e.reason)")
        }
    }

    @Test("name comparison by bytes: canonically equivalent names differ, equal ones do not")
    func canonicalNamesCompareBytes() {
        #expect(!CanonicalNames.differ("", "") && !CanonicalNames.differ("--caf\u{e9}", "--caf\u{e9}"))
        #expect(CanonicalNames.differ("--caf\u{e9}", "--cafe\u{301}") && CanonicalNames.differ("--a", "--b") && CanonicalNames.differ("--a", "--ab"))
    }

    @Test("a background pattern ambiguous on its own still joins as the substituted pattern matched")
    func ambiguousBackground() throws {
        let set = TokenSet(format: .css, tokens: [
            DesignToken(path: "--primary-foreground", base: .css("#fff"), location: TokenLocation(file: "t.css", line: 1, column: 1)),
            DesignToken(path: "--primary", base: .css("#000"), location: TokenLocation(file: "t.css", line: 2, column: 1)),
            DesignToken(path: "x.primary", base: .css("#111"), location: TokenLocation(file: "t.css", line: 3, column: 1)),
        ], modes: [])
        // fg captures x = "primary"; {p}{x} must then find "--primary" with p = "--" (and
        // "x.primary" with p = "x."), though {p}{x} alone first binds p = "".
        let report = try TokenAudit.run(set, rules: [try Self.rule("--{x}-foreground", "{p}{x}")])
        #expect(Set(report.results.map(\.backgroundPath)) == ["--primary", "x.primary"])
        // ** runs are decided by position (parts × length): 30 of them on a 400-byte name that
        // fails at its end (backtracking: 400^30 ways).
        var steps = 30_000
        let p = try TokenPattern(String(repeating: "**a", count: 30) + "**b")
        #expect(try p.firstMatch(String(repeating: "a", count: 400), steps: &steps) == nil)
    }

    @Test("more pattern tests than the limit are refused before any is made; matching steps are bounded")
    func estimate() throws {
        let set = Self.grouped(10, 100)
        let rules = try (0..<60).map { try Self.rule("**.zz\($0)**", "**", $0) }
        var options = TokenAuditOptions()
        options.maximumMatches = 100_000
        do throws(TokenError) {
            _ = try TokenAudit.run(set, rules: rules, options: options)
            Issue.record("not refused")
        } catch {
            #expect(error.limit == 100_000)
            #expect(error.reason.contains("120000 token names"))
        }
        options.maximumMatchSteps = 5_000
        options.maximumMatches = 1_000_000
        do throws(TokenError) {
            _ = try TokenAudit.run(set, rules: rules, options: options)
            Issue.record("not refused")
        } catch {
            #expect(error.limit == 5_000)
            #expect(error.reason.contains("take more than 5000 steps of pattern matching"))
        }
        // The pair limit is a limit too (the API names the rules, not the files).
        options.maximumMatchSteps = 200_000_000
        options.maximumPairs = 50
        let small = [try Self.rule("g1.*", "g2.*")]
        do throws(TokenError) {
            _ = try TokenAudit.run(set, rules: small, options: options)
            Issue.record("not refused")
        } catch {
            #expect(error.limit == 50)
        }
    }

    /// A hostile pass: a 1.1 KB rule of five captures and wildcards on two 480-character names
    /// (`--{a}{b}*{c}{d}**{e}` on `--{e}{d}*{c}{b}*{a}`) filled 4 GB with the background's ways
    /// and held the heavy worker past its deadline. A background matched in more than
    /// `maximumBackgroundWays` ways is a limit, found within its first ways.
    @Test("a background pattern matching one token in very many ways is refused before its ways fill memory")
    func backgroundWaysAreBounded() throws {
        let names = (0..<2).map { "--" + String(repeating: "a", count: 480) + "\($0)" }
        let set = TokenSet(format: .css, tokens: names.enumerated().map { DesignToken(path: $1, base: .css("#777777"), location: TokenLocation(file: "t.css", line: $0 + 1, column: 3)) }, modes: [])
        var options = TokenAuditOptions()
        options.suggest = false
        let rules = [try Self.rule("--{a}{b}*{c}{d}**{e}", "--{e}{d}*{c}{b}*{a}")]
        do throws(TokenError) {
            _ = try TokenAudit.run(set, rules: rules, options: options)
            Issue.record("not refused")
        } catch {
            #expect(error.limit == TokenAudit.maximumBackgroundWays && error.reason.contains("in more than 4096 ways"), "\(error.reason)")
        }
    }

    /// A hostile pass, 2026-12-07: names canonically equivalent but written differently (`é`
    /// U+00E9 and `e` + U+0301) were one token in every reader's tables, the later value won, and
    /// the audit passed the one a page reads at 1.91:1. CSS and JSON keep them apart; so they are
    /// refused, naming both.
    @Test("names that differ only in Unicode normalization are refused, not merged")
    func canonicallyEquivalentNamesAreRefused() throws {
        let nfc = "\u{E9}", nfd = "e\u{301}"
        #expect(nfc == nfd)   // to Swift's String, which is why they had merged
        let css = ":root {\n  --bg: #ffffff;\n  --text-\(nfc): #bbbbbb;\n  --text-\(nfd): #000000;\n}\n"
        do {
            _ = try CSSThemeReader.read([TokenFile(name: "f1.css", content: css)])
            Issue.record("read as one token")
        } catch {
            #expect(error.location?.line == 4 && error.reason.hasPrefix("the custom property '--text-\(nfd)' (U+0301) and '--text-\(nfc)' at f1.css:3 (U+00E9) are different names to CSS and JSON"), "\(error)")
        }
        // The same name twice, written alike, is CSS's cascade: the later wins.
        let twice = try CSSThemeReader.read([TokenFile(name: "f.css", content: ":root{--text-\(nfc):#bbb;--text-\(nfc):#000;--bg:#fff}")])
        #expect(twice.tokens.count == 2)
        // DTCG keys (the JSON parser keeps both members; the token table had merged them) and
        // modes (two files' `mode`).
        let dtcg = "{\"c\":{\"$type\":\"color\",\"bg\":{\"$value\":\"#fff\"},\"\(nfc)\":{\"$value\":\"#bbb\"},\"\(nfd)\":{\"$value\":\"#000\"}}}"
        #expect(throws: TokenError.self) { try DTCGReader.read([TokenFile(name: "t.tokens.json", content: dtcg)]) }
        do {
            _ = try DTCGReader.read([TokenFile(name: "t.tokens.json", content: dtcg)])
        } catch {
            #expect(error.reason.hasPrefix("the token 'c.\(nfd)' (U+0301) and 'c.\(nfc)' at t.tokens.json:1 (U+00E9)"), "\(error)")
        }
        let modes = [TokenFile(name: "a.tokens.json", content: ##"{"c":{"$type":"color","fg":{"$value":"#bbb"}}}"##, mode: "th\(nfc)me"),
                     TokenFile(name: "b.tokens.json", content: ##"{"c":{"$type":"color","fg":{"$value":"#000"}}}"##, mode: "th\(nfd)me")]
        #expect(throws: TokenError.self) { try DTCGReader.read(modes) }
        // A reference written the other way does not reach the token: CSS compares code points
        // (a second pass: `var(--cafe\u{301})` was measured as `--café`, with no note).
        let referenced = try CSSThemeReader.read([TokenFile(name: "r.css", content: ":root{--caf\(nfc):#fff;--x:var(--caf\(nfd));--y:#000}")])
        let resolver = TokenResolver(referenced)
        if case .success(let r) = resolver.resolve("--x", mode: nil) { Issue.record("resolved to \(r.path)") }
        // CSS modes named after selectors (`.théme` twice, written two ways).
        let selectors = ":root{--bg:#fff;--fg:#000}\n.th\(nfc)me{--fg:#bbb}\n.th\(nfd)me{--fg:#000}\n"
        do {
            _ = try CSSThemeReader.read([TokenFile(name: "s.css", content: selectors)])
            Issue.record("read as one mode")
        } catch {
            #expect(error.reason.hasPrefix("the mode '.th\(nfd)me' (U+0301) and '.th\(nfc)me' (U+00E9)"), "\(error)")
        }
    }

    /// A hostile pass, 2026-12-07: a DTCG key with `.` (`"text.a"`) and the group path it names
    /// (`"text": {"a"}`) were one token, the later won, and the failing one vanished from a
    /// passing audit. One file naming a token twice is refused; another file overriding it is
    /// layering, and a key with `.` that names no other token (`"0.5"`) is read as before.
    @Test("a DTCG key with '.' that names another token of the file is refused")
    func dottedKeyCollisionIsRefused() throws {
        let clash = ##"{"color":{"$type":"color","bg":{"$value":"#fff"},"text.a":{"$value":"#bbb"},"text":{"a":{"$value":"#000"}}}}"##
        do {
            _ = try DTCGReader.read([TokenFile(name: "t.json", content: clash)])
            Issue.record("read as one token")
        } catch {
            #expect(error.path == "color.text.a" && error.reason.hasPrefix("two members of t.json name the token 'color.text.a' (the first at line 1)"), "\(error)")
        }
        let alone = try DTCGReader.read([TokenFile(name: "t.json", content: ##"{"space":{"0.5":{"$type":"dimension","$value":"2px"}},"c":{"$type":"color","bg":{"$value":"#fff"}}}"##)])
        #expect(alone.tokens.count == 2)
        let layered = try DTCGReader.read([TokenFile(name: "a.json", content: ##"{"c":{"$type":"color","fg":{"$value":"#bbb"}}}"##),
                                           TokenFile(name: "b.json", content: ##"{"c":{"$type":"color","fg":{"$value":"#000"}}}"##)])
        #expect(layered["c.fg"]?.base == .css("#000"))
    }

    /// A rule without a size is judged as 16 px body text, and its basis says so: it had read
    /// "small text (12 pt at weight 400)", as if the files had said 12 pt (a leftover of the new
    /// users' passes). A size the rule gives is said as before.
    @Test("a target's basis says when the text size is the assumed default")
    func assumedSizeIsSaid() throws {
        let assumed = PairRule(foreground: try TokenPattern("--fg"), background: try TokenPattern("--bg"), source: "rules[0]")
        #expect(assumed.target(.wcagAA).basis == "WCAG 2.2 SC 1.4.3 AA, small text (16 px = 12 pt at weight 400; no size given: body text assumed)")
        #expect(assumed.target(.apca).basis == "APCA font lookup (apca-w3 0.1.9): smallest Lc allowing 16 px at weight 400 (no size given: body text assumed)")
        var given = assumed
        given.fontSize = 16
        #expect(given.target(.wcagAA).basis == "WCAG 2.2 SC 1.4.3 AA, small text (12 pt at weight 400)")
        #expect(given.target(.wcagAA).minimum == assumed.target(.wcagAA).minimum)
        // A large-text rule without a size assumes large text, and says so (a new user's pass:
        // "24 px = 18 pt …; no size given: body text assumed" on a rule judged at 3:1).
        var large = assumed
        large.role = .largeText
        #expect(large.target(.wcagAA).basis == "WCAG 2.2 SC 1.4.3 AA, large text (24 px = 18 pt at weight 400; no size given: large text assumed)")
        #expect(large.target(.wcagAA).minimum == 3)
    }

    @Test("a selector list of unknown selectors is a mode per selector, each name at most 128 characters")
    func selectorModes() {
        let list = (0..<3).map { ".a\($0)" }.joined(separator: ", ")
        #expect(CSSThemeReader.modeMapping(selector: list, atRules: []).targets == [.mode(".a0"), .mode(".a1"), .mode(".a2")])
        let long = "." + String(repeating: "x", count: 300)
        #expect(CSSThemeReader.modeMapping(selector: long, atRules: []).targets == [.mode(String(long.prefix(127)) + "…")])
        let media = CSSThemeReader.modeMapping(selector: ".p, .q", atRules: ["@media print"])
        #expect(media.targets == [.mode("@media print .p"), .mode("@media print .q")])
    }

    @Test("an audit whose caller has given up stops at its next poll")
    func cancelled() throws {
        let set = Self.grouped(10, 30)
        var options = TokenAuditOptions()
        options.isCancelled = { true }
        #expect(throws: TokenError.self) { try TokenAudit.run(set, rules: [try Self.rule("g1.*", "g2.*")], options: options) }
        options.isCancelled = { false }
        #expect(try TokenAudit.run(set, rules: [try Self.rule("g1.*", "g2.*")], options: options).results.count == 900)
    }

    /// More modes than an audit holds: themes are refused as before; component scopes (selectors
    /// naming no theme, scheme or contrast) give way, the last in source order, with a note (a
    /// new user's pass: Bootstrap 5's stylesheet was refused). Far more stop the walk early.
    @Test("a CSS file of more than 64 modes: themes are refused, component scopes give way, far more stop the walk")
    func cssModes() throws {
        let root = ":root { --fg: #000; }\n"
        let themes = (0..<65).map { "[data-theme=t\($0)] { --fg: #111; }" }.joined(separator: "\n")
        #expect {
            try CSSThemeReader.read([TokenFile(name: "t.css", content: root + themes)])
        } throws: { e in
            (e as? TokenError)?.reason.hasPrefix("more than 64 modes ('t64' is one too many)") == true
        }
        let list = (0..<200).map { ".a\($0)" }.joined(separator: ", ") + " { --fg: #111; }"
        let scoped = try CSSThemeReader.read([TokenFile(name: "t.css", content: root + list)])
        #expect(scoped.modes.count == 64 && scoped.modes.first == ".a0" && scoped.modes.last == ".a63", "\(scoped.modes)")
        // A warning of the audit (scopes with colors went unchecked, stop 39), not a note.
        #expect(scoped.coverageWarnings.contains("136 component scopes with colors were not audited ('.a64', '.a65', '.a66', '.a67', …): the files make more than the 64 modes an audit holds, and the last scopes in source order give way; send the rules you want audited on their own"), "\(scoped.coverageWarnings)")
        // Themes keep their place; scopes that set no color go first.
        let mixed = root + "[data-theme=ocean] { --fg: #024; }\n" + (0..<70).map { ".g\($0) { --gap: \($0)px; }" }.joined(separator: "\n") + "\n" + list
        let kept = try CSSThemeReader.read([TokenFile(name: "t.css", content: mixed)])
        #expect(kept.modes.first == "ocean" && kept.modes.count == 64 && !kept.modes.contains(".g0") && kept.modes.last == ".a62", "\(kept.modes)")
        #expect(kept.notes.contains { $0.hasPrefix("70 selectors naming no theme, color scheme or contrast set custom properties but no color ('.g0', '.g1', '.g2', '.g3', …)") }, "\(kept.notes)")
        // A scope that may be a theme (on the root element, or named like one) never gives way (a
        // hostile pass: `html.night` and `.night` were dropped behind 100 scopes, and the audit
        // passed); a scope that gave way is named as such when asked for.
        let night = root + (0..<100).map { ".c\($0) { --fg: #111; }" }.joined(separator: "\n") + "\nhtml.night { --fg: #888; --bg: #777; }\n.night { --fg: #888; }"
        let nights = try CSSThemeReader.read([TokenFile(name: "t.css", content: night)])
        #expect(nights.modes.contains("html.night") && nights.modes.contains(".night") && nights.modes.count == 64, "\(nights.modes)")
        var o = TokenAuditOptions()
        o.modes = [".c80"]
        #expect {
            try TokenAudit.run(nights, rules: [try Self.rule("--fg", "--bg")], options: o)
        } throws: { e in
            (e as? TokenError)?.reason.hasPrefix("mode '.c80' was left out: the files make more than the 64 modes an audit holds") == true
        }
        o.modes = ["html.night"]
        o.suggest = false
        let r = try TokenAudit.run(nights, rules: [try Self.rule("--fg", "--bg")], options: o)
        #expect(!r.passes && r.results.count == 1 && abs((r.results[0].value ?? 0) - 1.2634) < 1e-3, "\(r.results.map { $0.value ?? 0 })")
        let sixtyFour = (0..<64).map { ".a\($0)" }.joined(separator: ", ") + " { --fg: #111; }"
        #expect(try CSSThemeReader.read([TokenFile(name: "t.css", content: root + sixtyFour)]).notes.allSatisfy { !$0.contains("component scope") })
        // Far more modes stop the walk at the rule that brings them, before they are held (a
        // hostile pass: 900,000 selectors held 1.1 GB before the limit was counted).
        let rules = (0..<1100).map { ".b\($0) { --fg: #111; }" }.joined(separator: "\n")
        #expect {
            try CSSThemeReader.read([TokenFile(name: "t.css", content: root + rules)])
        } throws: { e in
            let e = e as? TokenError
            return e?.reason == "more than 64 modes ('.b1024' and 1024 others before it): each theme selector, selector of a list and media query is a mode" && e?.location?.line == 1026
        }
        // Rules that set no custom property are no modes (a new user's pass: Bootstrap's
        // `.row-cols-md-6 > *` was counted, and the file refused).
        let layout = (0..<2000).map { ".c\($0) { width: \($0)px; }" }.joined(separator: "\n")
        let plain = try CSSThemeReader.read([TokenFile(name: "t.css", content: root + layout + "\n.dark { --fg: #fff; }")])
        #expect(plain.modes == ["dark"] && plain.notes.allSatisfy { !$0.contains("scope") }, "\(plain.modes) \(plain.notes)")
    }

    /// A hostile pass: a `.high-contrast` class and `@media (prefers-contrast: more)` that set
    /// different values were one mode, the later one's; the class's pair (#888888 on #777777,
    /// 1.26:1) was never checked and the audit passed. Like a scheme set two ways, they are
    /// two states of the page, two modes, with a note; set alike, one.
    @Test("a contrast set by a class and by the media query with different values is two modes")
    func contrastSources() throws {
        let css = ":root { --primary: #0000ff; --primary-foreground: #ffffff; }\n.high-contrast { --primary: #777777; --primary-foreground: #888888; }\n@media (prefers-contrast: more) { :root { --primary: #000000; --primary-foreground: #ffffff; } }"
        let set = try CSSThemeReader.read([TokenFile(name: "t.css", content: css)])
        #expect(set.modes == ["high-contrast", "high-contrast (prefers-contrast)"], "\(set.modes)")
        #expect(set.notes.contains { $0.hasPrefix("'.high-contrast' and '@media (prefers-contrast)' set different values for mode 'high-contrast'") }, "\(set.notes)")
        var o = TokenAuditOptions()
        o.suggest = false
        let r = try TokenAudit.run(set, rules: [try Self.rule("--primary-foreground", "--primary")], options: o)
        #expect(!r.passes && r.results.contains { $0.mode == "high-contrast" && abs(($0.value ?? 0) - 1.2634) < 1e-3 }, "\(r.results.map { ($0.mode, $0.value ?? 0) })")
        let alike = ":root { --primary: #0000ff; --primary-foreground: #ffffff; }\n.high-contrast { --primary: #000; }\n@media (prefers-contrast: more) { :root { --primary: #000; } }"
        #expect(try CSSThemeReader.read([TokenFile(name: "t.css", content: alike)]).modes == ["high-contrast"])
    }

    /// A hostile pass: one 8 MB custom property value held the heavy worker 9.5 s, and 8 MB of
    /// 400-character values 12 s (about 7,700 instructions a character in the color
    /// heuristics), each read as not a color. A value is kept up to 65,536 characters and
    /// scanned past beyond; text over 256 characters that is not one function (and refers to no
    /// variable) is typed "long text" without the heuristics. One function stays a color's
    /// text whatever its length, so that its pair says why the parser refuses it.
    @Test("long custom property values are scanned past, not held or read as colors")
    func longValues() throws {
        let huge = String(repeating: "#777 ", count: 14_000)
        let words = String(repeating: "#777 ", count: 80)
        let mix = "color-mix(in oklab, " + String(repeating: "red ", count: 300) + "50%, blue)"
        let css = ":root { --huge: \(huge); --words: \(words); --mix: \(mix); --ok: #777; --near: calc(var(--h) + 1) 50% 40%; }"
        let set = try CSSThemeReader.read([TokenFile(name: "t.css", content: css)])
        func base(_ path: String) -> TokenValue? { set.tokens.first { $0.path == path }?.base }
        #expect(base("--huge") == .other(type: "long text") && base("--words") == .other(type: "long text"))
        #expect(base("--mix") == .css(mix.trimmingCharacters(in: .whitespaces)) && base("--ok") == .css("#777"), "\(String(describing: base("--mix")))")
        #expect(set.notes.contains("t.css line 1: the value of '--huge' is 70000 characters long, more than any color (65536 are read); read as not a color"), "\(set.notes)")
        let sheet = try CSSStylesheet.parse(css, file: "t.css", maximumDeclarations: 100, maximumDepth: 8, alreadyCounted: 0)
        guard case .rule(let root)? = sheet.nodes.first, case .declaration(let d)? = root.children.first else { Issue.record("no rule"); return }
        #expect(d.fullLength == 70_000 && d.value.unicodeScalars.count == CSSStylesheet.maximumValueLength)
        // A second hostile pass: whitespace runs count as one space (`#777777 <70,000 spaces>
        // !important` had been cut and lost its flag, so a later `#000` won); a long value keeps
        // its `!important`; one function past 8,192 characters (what a value may be once its
        // var() are substituted) is refused before it is parsed (65,000-character `rgb(aaa…)`
        // values were parsed again for every pair in every mode, 16 ms each).
        let spaced = ":root { --primary: #777777 \(String(repeating: " ", count: 70_000)) !important; --long: \(huge) !important; --big: rgb(\(String(repeating: "a", count: 9_000))); }\n:root { --primary: #000; --long: #000; }"
        let second = try CSSThemeReader.read([TokenFile(name: "t.css", content: spaced)])
        func value(_ path: String) -> TokenValue? { second.tokens.first { $0.path == path }?.base }
        #expect(value("--primary") == .css("#777777") && value("--long") == .other(type: "long text") && value("--big") == .css("rgb(\(String(repeating: "a", count: 9_000)))"),
                "\(String(describing: value("--primary"))) \(String(describing: value("--long"))) \(String(describing: value("--big")))")
        let resolver = TokenResolver(second)
        guard case .failure(.error(let e)) = resolver.resolve("--big", mode: nil) else { Issue.record("--big resolved"); return }
        #expect(e.reason == "its value is 9005 characters long: no color's text is longer than 8192, even with its var() substituted")
        // Ordinary properties in style rules are neither kept nor counted toward the 20,000
        // declarations (five Bootstrap stylesheets together had been refused).
        let plain = (0..<25_000).map { ".c\($0 % 50) { color: red; margin: 0; }" }.joined(separator: "\n") + "\n:root { --fg: #000; }"
        #expect(try CSSThemeReader.read([TokenFile(name: "t.css", content: plain)]).tokens.map(\.path) == ["--fg"])
        // A hostile pass, stop 49: an ordinary property's value over 64 KiB (a generated
        // box-shadow, a font stack; nested too) was refused as a selector that long. It is
        // skipped like any other property; a selector that long is still refused.
        let shadow = Array(repeating: "0 0 1px red", count: 6_000).joined(separator: ",")
        let generated = ":root{--background:#fff;--foreground:#000}\n.x{box-shadow:\(shadow)}\n.y{&:hover{font-family:\(shadow)}}"
        #expect(try CSSThemeReader.read([TokenFile(name: "t.css", content: generated)]).tokens.map(\.path) == ["--background", "--foreground"])
        let longSelector = ":root{--fg:#000}\n.x{.\(String(repeating: "a", count: 70_000)){color:red}}"
        #expect(throws: TokenError.self) { try CSSThemeReader.read([TokenFile(name: "t.css", content: longSelector)]) }
        let scheme = ":root{--fg:#000}\n.x{color-scheme:\(shadow)}"
        #expect(throws: TokenError.self) { try CSSThemeReader.read([TokenFile(name: "t.css", content: scheme)]) }
    }

    /// A hostile pass: `.m0 .m1 … .m16000 { … }` took 13 s (quadratic in its parts) and went on
    /// past the deadline; a list of 900,000 selectors held 1.1 GB. Both are refused as the
    /// stylesheet is read, naming the rule; a nested rule's selector (each `&` its parent's)
    /// is bounded before it multiplies; a theme name is cut as a selector's name is.
    @Test("selectors are bounded in parts, list length and nesting as the file is read")
    func selectorLimits() throws {
        let root = ":root { --fg: #000; }\n"
        func refused(_ css: String, _ reason: String, line: Int = 2) {
            #expect {
                try CSSThemeReader.read([TokenFile(name: "t.css", content: root + css)])
            } throws: { e in
                let e = e as? TokenError
                return e?.reason.hasPrefix(reason) == true && e?.location?.line == line
            }
        }
        for combinator in [" ", " > ", " + ", "~"] {
            refused((0..<33).map { ".m\($0)" }.joined(separator: combinator) + " { --fg: #111; }", "a selector has more than 32 parts joined by combinators")
            #expect(throws: Never.self) { try CSSThemeReader.read([TokenFile(name: "t.css", content: root + (0..<32).map { ".m\($0)" }.joined(separator: combinator) + " { --fg: #111; }")]) }
        }
        refused(":is(" + (0..<33).map { ".m\($0)" }.joined(separator: " ") + ") { --fg: #111; }", "a selector has more than 32 parts")
        refused((0..<1_025).map { _ in ".dark" }.joined(separator: ",") + " { --fg: #111; }", "the selector list has more than 1024 selectors")
        // Spaces inside an attribute selector or around `,` are no combinators.
        let spaced = "[data-theme = \"a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h\"] , .dark { --fg: #111; }"
        #expect(throws: Never.self) { try CSSThemeReader.read([TokenFile(name: "t.css", content: root + spaced)]) }
        // Nested lists with `&` copy the parent into each part: 3 levels of 64 would be 16 MB.
        let level = (0..<64).map { "& .n\($0)" }.joined(separator: ", ")
        refused(".a { \(level) { \(level) { \(level) { --fg: #111; } } } }", "this rule's selector, nested in its parents")
        // A 5,000-character theme name is a mode name of 128 characters.
        let long = String(repeating: "t", count: 5_000)
        let set = try CSSThemeReader.read([TokenFile(name: "t.css", content: root + "[data-theme=\"\(long)\"] { --fg: #111; }")])
        #expect(set.modes.allSatisfy { $0.count <= 128 } && set.modes.contains { $0.hasPrefix("ttt") && $0.hasSuffix("…") }, "\(set.modes.map(\.count))")
    }

    @Test("every end a wildcard or capture tries counts against the step budget")
    func loopSteps() throws {
        // {a}{b}q{c} on a 400-byte name without q: 400 × 400 ends tried, most skipped by the
        // first byte of q, but each counted.
        var steps = 50_000
        let p = try TokenPattern("{a}{b}q{c}")
        #expect(throws: TokenPattern.Exhausted.self) { try p.firstMatch(String(repeating: "x", count: 400), steps: &steps) }
    }
}
