import ColorScience
import Foundation

// The contrast audit of a design system: pair rules expanded over the tokens, every pair measured
// in every mode (WCAG 2 ratio and APCA Lc, translucent colors composited source-over), judged by
// its target, and for failures the nearest passing foreground (as /v1/suggest finds it).

/// How an audit runs.
public struct TokenAuditOptions: Sendable {
    /// The policy of rules that name none.
    public var policy: TokenPolicy = .wcagAA
    /// Modes to audit (nil: every mode of the files).
    public var modes: [String]? = nil
    /// Unresolvable tokens in pairs (unknown alias, cycle, no value in a mode): an error (the
    /// default), or reported per pair and counted without failing the audit.
    public var reportUnresolved = false
    /// Most pairs (rule expansions × modes) one audit measures (each is about 1 KB of JSON answer).
    public var maximumPairs = 20_000
    /// Most pattern tests the rules may need, counted before any is made: for each rule, the
    /// tokens its foreground pattern is tested on plus those its background pattern is tested
    /// on (a background that the foreground's captures make exact is a lookup, not counted).
    /// 1,000,000 take about a second.
    public var maximumMatches = 1_000_000
    /// Most steps of pattern matching in all (a backstop for patterns whose `*`, `**` and
    /// captures backtrack a lot on long names: a hostile pass's rule took 25 s at 200,000,000).
    public var maximumMatchSteps = 20_000_000
    /// Most failing pairs that get a nearest-passing suggestion (each search measures a few
    /// thousand candidates); later failures say they have none. A pair of translucent text on a
    /// translucent background with no backdrop counts `TokenAudit.translucentPairWeight` (each
    /// measurement there covers 256 backdrops), here and in the one-color-per-token searches.
    public var maximumSuggestions = 1_000
    /// Most pairs of translucent text on a translucent background with no backdrop one audit
    /// measures (each over the 256 gray backdrops, about 0.45 ms: a hostile pass's 6 KB file of
    /// 19,881 such pairs held a heavy worker 8.9 s); more is a `TokenError` with this limit,
    /// telling the rules to name a backdrop. 2,000 take about 0.9 s.
    public var maximumBackdropFreePairs = 2_000
    /// Custom properties from outside the files for var() in token values (the request's
    /// `variables`); tokens of the same name win.
    public var variables: [String: String] = [:]
    /// Modes whose targets are raised to their increased-contrast level
    /// (`ContrastTarget.increased`: the next WCAG text level, APCA Lc + 15), as Apple's palettes
    /// ask of the Increase Contrast variants (the Apple preset's modes named so).
    public var increasedContrastModes: Set<String> = []
    /// Polled while the audit runs: true stops it with an error (the API passes "the server has
    /// already answered 503 deadline-exceeded", so abandoned work does not hold a heavy worker).
    public var isCancelled: (@Sendable () -> Bool)? = nil
    /// Suggest the nearest passing foreground for failing pairs.
    public var suggest = true
    /// How a token's color outside sRGB is brought into it before it is measured: `.css4`, CSS
    /// Color 4 §13.2 gamut mapping (the default, as `/v1/contrast` measures), or `.clip`, each
    /// channel clipped to `0...1` (§13.1), what Chromium 156 paints on an sRGB screen (a new
    /// user's pass: a CI gate wants the verdicts of what users see; Tailwind v4's palette has
    /// 95 such colors).
    public var gamutMethod: GamutMapping.Method = .css4

    public init() {}
}

/// One pair measured in one mode.
public struct PairResult: Sendable {
    /// Index of the rule that made the pair.
    public var rule: Int
    /// The mode (nil: the files have none).
    public var mode: String?
    /// The mode's color scheme, the side `light-dark()` takes (`TokenSet.colorScheme(in:)`).
    public var colorScheme: CSSColorScheme = .light
    /// Token paths of the pair.
    public var foregroundPath: String
    public var backgroundPath: String
    /// The resolved tokens (nil when unresolved).
    public var foreground: ResolvedToken?
    public var background: ResolvedToken?
    /// The token composited under a translucent background, when the rule names one.
    public var backdrop: ResolvedToken?
    /// What the pair must reach (WCAG 2.2 ratio or APCA |Lc|).
    public var target: ContrastTarget
    /// WCAG 2 ratio `1...21` and APCA Lc, translucent colors composited source-over.
    public var measurement: ContrastMeasurement?
    /// Ratio or |Lc| in the target's metric.
    public var value: Double?
    public var passes: Bool
    /// Why the pair could not be measured (with `reportUnresolved`).
    public var unresolved: TokenError?
    /// The nearest passing foreground for a failure.
    public var suggestion: NearestPassingColor.Candidate?
    /// The nearest passing background (the foreground kept), given when `suggestion` turns the
    /// text from lighter than the background to darker or back: white text on a brand color at
    /// 4.46:1 is better fixed by a darker brand than by near-black text (a new user's pass).
    public var backgroundSuggestion: NearestPassingColor.Candidate?
    /// `suggestion`'s color written as the token's color is (`TokenNotation`: a bare HSL
    /// triplet, `hsl()`, `rgb()`, `oklch()` or hex), measured again as written on every pair it
    /// is suggested for (`TokenAudit.writeSuggestions`); for a token written `light-dark()`, a
    /// `light-dark()` whose side of the mode's color scheme changes (`writeLightDark`).
    public var suggestionText: String?
    /// `backgroundSuggestion`'s color written likewise, measured again on this pair.
    public var backgroundSuggestionText: String?
    /// Set when the suggested token's value is written on a line other modes use too (a token
    /// set in `:root` only, audited in light and dark), no one color passes in all of them, and
    /// this mode's color fails a pair of another: which, and that the token needs this mode's own
    /// value (`TokenAudit.oneColorPerToken`). Files audited as light and dark from `light-dark()`
    /// get a `light-dark()` suggestion instead (`writeLightDark`).
    public var suggestionConflict: String?
    /// For an opaque pair whose colors rounded to 8 bits (the hex a report shows) get the other
    /// verdict: that pair and its value in the target's metric, a WCAG ratio
    /// (`TokenAudit.shownVerdicts`) or an APCA |Lc|.
    public var hexPair: (foreground: SIMD3<Double>, background: SIMD3<Double>, ratio: Double)?
    /// The same for `backgroundSuggestion`.
    public var backgroundSuggestionConflict: String?
}

/// Counts for one mode.
public struct ModeSummary: Sendable {
    /// The mode (nil: the files have none).
    public var mode: String?
    /// Pairs checked, and how many passed, failed, or could not be resolved.
    public var pairs = 0
    public var passing = 0
    public var failing = 0
    public var unresolved = 0
}

/// The audit's outcome.
public struct TokenAuditReport: Sendable {
    /// The format the files were read as.
    public var format: TokenFormat
    /// The modes audited, in order.
    public var modes: [String?]
    /// The rules (the request's, then the presets').
    public var rules: [PairRule]
    /// Every pair in every mode, mode by mode.
    public var results: [PairResult]
    /// Counts per mode.
    public var summaries: [ModeSummary]
    /// Tokens read, and how many were not colors (skipped).
    public var tokenCount: Int
    public var skippedNonColor: Int
    /// Pairs (× modes) left out because a token of them is not a color there.
    public var skippedPairs: Int
    /// Pairs (× modes) left out because both their tokens are plain aliases of the tokens of a
    /// pair checked (Tailwind v4's `--color-x: var(--x)`).
    public var skippedAliasPairs: Int
    /// Rules that matched no pair (by index): likely a misspelt pattern.
    public var unmatchedRules: [Int]
    public var notes: [String]
    /// States or scopes of the files a browser shows that were not audited (`TokenSet.coverageWarnings`):
    /// the verdict covers less than the files.
    public var coverageWarnings: [String] = []
    /// The pairs left out as aliases of a checked pair (`skippedAliasPairs` counts them times the
    /// modes), each with the pair it was checked as, in rule order; at most
    /// `TokenAudit.maximumListedAliasPairs` (a pass: only a count and one example were given,
    /// so nobody could check the coverage).
    public var aliasPairs: [AliasPair] = []

    /// A pair checked as the pair of the tokens its two aliases lead to.
    public struct AliasPair: Sendable, Equatable {
        public var foreground: String, background: String
        public var checkedForeground: String, checkedBackground: String
    }

    /// Whether the report has warnings (what `failOn: "warning"` fails on): a rule that matched
    /// no pair (`warnedUnmatchedRules`), an unresolved pair (reported), or states of the files
    /// left out (`coverageWarnings`).
    public var hasWarnings: Bool {
        !warnedUnmatchedRules.isEmpty || summaries.contains { $0.unresolved > 0 } || !coverageWarnings.isEmpty
    }

    /// The unresolved pairs as warnings, one per mode that has any (reported with
    /// `TokenAuditOptions.reportUnresolved`; `failOn: warning` fails on them, so every report
    /// says so: a new user's pass got a failing JSON report with `warnings: []`).
    public var unresolvedWarnings: [String] {
        summaries.filter { $0.unresolved > 0 }.map { s in
            "\(s.unresolved) pair\(s.unresolved == 1 ? "" : "s") in mode '\(s.mode ?? "default")' could not be resolved and \(s.unresolved == 1 ? "was" : "were") not measured (each such pair says why)"
        }
    }

    /// The unmatched rules that are warnings: the request's own (likely a misspelt token name),
    /// and every rule of a preset none of whose rules matched (a preset for another design
    /// system). A preset's rule that matched nothing while others of it did is not: a preset
    /// names every role of its design system and a file may leave some out (Material's older
    /// exports have no surface containers; a new user's pass: `failOn=warning` failed 14 passing
    /// pairs on those), and a note says so (`TokenAudit.audit`).
    public var warnedUnmatchedRules: [Int] {
        let unmatched = Set(unmatchedRules)
        let presetsMatching = Set(rules.indices.filter { !unmatched.contains($0) }.compactMap { rules[$0].preset })
        return unmatchedRules.filter { i in rules[i].preset.map { !presetsMatching.contains($0) } ?? true }
    }

    /// Pairs measured (passing or failing) in all modes.
    public var checkedPairs: Int { summaries.reduce(0) { $0 + $1.passing + $1.failing } }

    /// True when at least one pair was measured and no pair fails. An audit that measured nothing
    /// (a preset for another design system, a misspelt rule) does not pass: a CI job must not turn
    /// green because nothing was checked. Unresolved pairs exist only with
    /// `TokenAuditOptions.reportUnresolved` (otherwise the first one is an error); they are
    /// reported and counted but do not fail the audit: that is what asking to report them means.
    public var passes: Bool {
        checkedPairs > 0 && summaries.allSatisfy { $0.failing == 0 }
    }

    /// Why nothing was checked, when no pair was measured (nil otherwise).
    public var nothingCheckedReason: String? {
        guard checkedPairs == 0 else { return nil }
        let why: String
        if !results.isEmpty {
            why = "every pair the rules match has a token that cannot be resolved"
        } else if skippedPairs > 0 {
            why = "the tokens the rules match are not colors"
        } else {
            why = "the rules and presets match no tokens of these files (a preset for another design system, or a misspelt pattern?)"
        }
        return "no pair was checked: \(why); an audit that checks nothing does not pass"
    }
}

/// Runs audits.
public enum TokenAudit {
    /// `color` with each sRGB channel clipped to `0...1` and alpha to `0...1` (CSS Color 4
    /// §13.1, `DisplayColor(clipping:)`), when it lies outside sRGB; else nil.
    static func clippedIntoSRGB(_ color: Color) -> Color? {
        let clipped = DisplayColor(clipping: color)
        guard clipped.wasGamutMapped else { return nil }
        return .srgb(clipped.srgb.x, clipped.srgb.y, clipped.srgb.z, alpha: clipped.alpha)
    }

    /// Most alias pairs a report lists (`TokenAuditReport.aliasPairs`; all are counted).
    public static let maximumListedAliasPairs = 1_000

    /// The opaque sRGB `0...1` a rule's backdrop token stands for (a translucent one over white).
    /// How a rule judges its pairs, for notes: "role large-text", with a size, weight or
    /// policy when it gives one.
    static func judgedAs(_ rule: PairRule) -> String {
        var parts = ["role \(rule.role.rawValue)"]
        if let size = rule.fontSize { parts.append("\(size == size.rounded() && abs(size) < 1e9 ? String(Int(size)) : String(size)) px") }
        if let weight = rule.fontWeight { parts.append("weight \(weight)") }
        if let policy = rule.policy { parts.append("policy \(policy.rawValue)") }
        return parts.joined(separator: ", ")
    }

    static func backdropSRGB(_ backdrop: ResolvedToken?) -> SIMD3<Double>? {
        // A translucent backdrop shows what is behind it, which the files do not say: unknown,
        // as no backdrop is (a hostile pass: `--background: #00000080` had been put over white,
        // and `--card-foreground` on a transparent `--card` passed at 5.24:1 where the page
        // may show 1:1).
        backdrop.map { DisplayColor($0.color) }.flatMap { $0.alpha < 1 ? nil : $0.srgb }
    }

    /// What a pair of translucent text on a translucent background with no backdrop counts
    /// against `TokenAuditOptions.maximumSuggestions`: each measurement composites over the 256
    /// gray backdrops, and its suggestion took 63 ms where an opaque pair's takes about 1 (a
    /// hostile pass: 100 such pairs, a 792-byte request, held a heavy worker 6.3 s; 1,024 of
    /// them more than a minute).
    public static let translucentPairWeight = 256

    /// `translucentPairWeight` for a pair whose text and background are both translucent and
    /// whose backdrop is unknown, else 1.
    static func suggestionWeight(_ r: PairResult) -> Int {
        guard let fg = r.foreground, let bg = r.background else { return 1 }
        return fg.color.alpha < 1 && bg.color.alpha < 1 && backdropSRGB(r.backdrop) == nil ? translucentPairWeight : 1
    }

    /// One suggested color per text token (the pair's foreground token, not the end of its alias
    /// chain, which others may share) and line holding its value: each failing pair's
    /// `suggestion` becomes the nearest color (`NearestPassingColor.nearest`, same OKLCH hue)
    /// that meets the targets of every pair the change reaches, passing pairs included, so that
    /// applying it fixes them all and breaks none (a new user's pass: `color.text.link` was
    /// offered #2c72e5 on one surface and #246bdd on another; the first left the second
    /// failing). The change reaches the pairs the token is either color of, itself or through
    /// an alias, in every mode whose value of it is written on that line (a token set in
    /// `:root` only is dark's too); where no color passes in all those modes, each mode is
    /// searched alone and a pair whose color would break another mode's pair says which
    /// (`suggestionConflict`). When no color of that hue meets a mode's pairs, the per-pair
    /// suggestions stay and a note says so. The searches measure at most `budget` pairs in all (each about 600 times);
    /// a token past it keeps its per-pair suggestions, and a note says so (a hostile pass: past
    /// 500 pairs the search had stopped without a word).
    ///
    /// With `side` `.background`, the same for `backgroundSuggestion`s: one background color per
    /// background token and line that meets the targets of every pair it reaches, each text as
    /// it is (two texts on one brand color had been offered two different brand colors).
    /// Most measurements of suggestions in a token's other modes one search side makes
    /// (`oneColorPerToken`): about 0.2 s.
    static let maximumCrossModeChecks = 200_000

    static func oneColorPerToken(_ results: inout [PairResult], budget: inout Int, of limit: Int,
                                 side: NearestPassingColor.Moving = .foreground, combinedStates: [String: [String]] = [:],
                                 aliasPairs: [TokenAuditReport.AliasPair] = [],
                                 notes: inout [String], isCancelled: (@Sendable () -> Bool)?) throws(TokenError) {
        let moving = side == .background
        // Pairs left out as aliases of a checked pair, by the token a suggestion would change:
        // once that token is given its own color it is no alias, and the pair is measured on the
        // checked pair's other color (a new user's pass: `--fgColor-closed: var(--fgColor-danger)`
        // was given #de6964, which passed its measured pairs but failed the skipped
        // `--fgColor-closed on --bgColor-closed-muted` at 4.06:1 when re-audited).
        var aliasSources: [String: [String]] = [:]
        for a in aliasPairs {
            aliasSources[moving ? a.background : a.foreground, default: []].append(a.checkedForeground + "\u{0}" + a.checkedBackground)
        }
        var bySource: [String: [Int]] = [:]
        if !aliasSources.isEmpty {
            for i in results.indices where results[i].measurement != nil && results[i].foreground != nil && results[i].background != nil {
                bySource[results[i].foregroundPath + "\u{0}" + results[i].backgroundPath, default: []].append(i)
            }
        }
        // A search over many pairs is long: the request's deadline is looked at every 256
        // measurements, and once it has passed every margin is -∞ (the search then ends at once).
        var measured = 0, cancelled = false
        func stopped() -> Bool {
            measured &+= 1
            if !cancelled, measured & 255 == 0, let isCancelled, isCancelled() { cancelled = true }
            return cancelled
        }
        func stop() -> TokenError { TokenError(reason: "the audit was stopped: its request was abandoned (deadline)") }
        func suggested(_ r: PairResult) -> Bool { moving ? r.backgroundSuggestion != nil : r.suggestion != nil }
        func own(_ r: PairResult) -> (path: String, token: ResolvedToken)? {
            guard let t = moving ? r.background : r.foreground else { return nil }
            return (moving ? r.backgroundPath : r.foregroundPath, t)
        }
        // The token the pair names (the one to change: its alias target may be shared by others,
        // as a background or in other modes; a new user's pass changed primitives and broke 11
        // more pairs), with the line that holds its value: modes that share that line share the
        // change (a token set in `:root` only is dark's too: a new user's pass was sent back and
        // forth between light's and dark's suggestions for one line). A `light-dark()` value
        // changes one side per color scheme.
        var holders: [String: [Int]] = [:], order: [String] = []
        for i in results.indices where results[i].measurement != nil {
            guard results[i].foreground != nil, results[i].background != nil, let (path, token) = own(results[i]) else { continue }
            let l = token.tokenLocation
            var key = path + "\u{0}" + l.file + ":\(l.line):\(l.column)"
            if lightDarkSides(token.css) != nil { key += "\u{0}" + results[i].colorScheme.rawValue }
            if holders[key] == nil { order.append(key) }
            holders[key, default: []].append(i)
        }
        // Token → the measured pairs it is a color of (either, itself or through an alias), built
        // once: an audit can have thousands of pairs.
        var reach: [String: [(index: Int, asForeground: Bool)]] = [:]
        for i in results.indices where results[i].measurement != nil {
            guard let fg = results[i].foreground, let bg = results[i].background else { continue }
            for p in fg.chain { reach[p, default: []].append((i, true)) }
            for p in bg.chain where !fg.chain.contains(p) { reach[p, default: []].append((i, false)) }
        }
        var overBudget = Set<String>(), overBudgetExamples: [String] = []
        var crossModeChecks = 0, crossModeLeftOut = false
        defer {
            if crossModeLeftOut {
                notes.append("suggestions shared by a token's modes were checked in its other modes for at most \(maximumCrossModeChecks) measurements; past them a suggestion may fail another mode of the same line without a conflict saying so: re-audit after applying")
            }
            if !overBudget.isEmpty {
                let n = overBudget.count
                notes.append("\(n) \(moving ? "background" : "text") token\(n == 1 ? " keeps" : "s keep") each failing pair's own suggested color, which passes on that pair alone: the search for one color for all of a token's pairs measures at most \(limit) pairs in an audit (a pair of translucent text on a translucent background with no backdrop counting \(TokenAudit.translucentPairWeight)) and had too few left for \(n == 1 ? "it" : "them") (\(overBudgetExamples.joined(separator: "; "))\(n > overBudgetExamples.count ? "; …" : ""))")
            }
        }
        for key in order {
            let owned = holders[key]!
            guard owned.contains(where: { suggested(results[$0]) }) else { continue }
            let holder = own(results[owned[0]])!.path
            let modes = owned.reduce(into: [String?]()) { if !$0.contains(results[$1].mode) { $0.append(results[$1].mode) } }
            // Every pair of those modes the change reaches: the token as either color of a pair,
            // itself or through an alias (`--sidebar-primary: var(--primary)`).
            var pairs = (reach[holder] ?? []).filter { modes.contains(results[$0.index].mode) }
            for source in aliasSources[holder] ?? [] {
                for i in bySource[source] ?? [] where modes.contains(results[i].mode) && !pairs.contains(where: { $0.index == i }) {
                    pairs.append((i, !moving))
                }
            }
            // One color for every mode the line serves; failing that, one per mode.
            var groups: [[(index: Int, asForeground: Bool)]] = modes.count > 1 ? [pairs] : []
            for m in modes { groups.append(pairs.filter { results[$0.index].mode == m }) }
            var sharedLineFailed = false
            for (g, group) in groups.enumerated() {
                let acrossModes = modes.count > 1 && g == 0
                if !acrossModes && !sharedLineFailed && modes.count > 1 { break }
                guard group.count > 1 || acrossModes, group.contains(where: { suggested(results[$0.index]) && own(results[$0.index])?.path == holder }) else { continue }
                let mode = acrossModes ? " in modes \(modes.map { "'\($0 ?? "")'" }.joined(separator: ", "))" : results[group[0].index].mode.map { " in mode '\($0)'" } ?? ""
                let weight = group.reduce(0) { $0 + suggestionWeight(results[$1.index]) }
                // What the token is in these pairs: one role, or both counted (a pass: "the text
                // color of 52 pairs" for a token that was the text of 26 and the background of 26).
                let asText = group.count { $0.asForeground }
                let roles = asText == group.count ? "the text color of \(group.count) pairs"
                    : asText == 0 ? "the background of \(group.count) pairs"
                    : "a color of \(group.count) pairs (the text of \(asText), the background of \(group.count - asText))"
                guard weight <= budget else {
                    // Said once for all such tokens, after the loop (a new user's pass: 240 notes,
                    // two a token, "12 pairs in modes 'light', 'dark'" beside "6 pairs in mode 'light'").
                    if !overBudget.contains(holder) {
                        overBudget.insert(holder)
                        if overBudgetExamples.count < 3 { overBudgetExamples.append("\(holder), \(roles)\(mode)") }
                    }
                    if acrossModes { sharedLineFailed = true }
                    continue
                }
                if let isCancelled, isCancelled() { throw stop() }
                budget -= weight
                let given = own(results[owned[0]])!.token.color
                // The other color of each pair, as it is.
                let others = group.map { DisplayColor($0.asForeground ? results[$0.index].background!.color : results[$0.index].foreground!.color) }
                let backdrops = group.map { backdropSRGB(results[$0.index].backdrop) }
                func measure(_ c: DisplayColor, _ k: Int) -> ContrastMeasurement {
                    group[k].asForeground ? ContrastMeasurement(foreground: c, background: others[k], backdrop: backdrops[k])
                        : ContrastMeasurement(foreground: others[k], background: c, backdrop: backdrops[k])
                }
                // As measured and as painted (`ContrastTarget.paintedMargin`; a hostile pass:
                // Primer's fgColor-* on the translucent bgColor-*-muted over its backdrop passed
                // only unrounded, 6.996:1).
                func margin(_ c: DisplayColor) -> Double {
                    var worst = Double.infinity
                    for k in group.indices {
                        if stopped() { return -.infinity }
                        let (f, b) = group[k].asForeground ? (c, others[k]) : (others[k], c)
                        worst = Swift.min(worst, results[group[k].index].target.paintedMargin(foreground: f, background: b, backdrop: backdrops[k]))
                    }
                    return worst
                }
                let move = NearestPassingColor.nearest(to: DisplayColor(given), margin: margin).move
                var found: (color: DisplayColor, direction: NearestPassingColor.Direction?)? = move.passes ? (move.color, move.direction) : nil
                // Translucent text no lightness fixes: its own color at the smallest 8-bit
                // opacity that passes on every pair, as each pair alone is offered (a new user's
                // `#6668` got #666666f1 on one surface, #666666e4 on another, and a note that no
                // color served both, though the first did).
                if found == nil, !moving, given.alpha < 1 {
                    var c = DisplayColor(given)
                    for a in Int((c.alpha * 255).rounded(.up))...255 {
                        c.alpha = Double(a) / 255
                        if margin(c) >= 0 { found = (c, nil); break }
                    }
                }
                // A pair's own suggestion can pass every pair of the line though the search from
                // the given color found none (a design-system team's pass: `--border: rgb(0 0 0 /
                // .1)` in `:root` only got light `rgb(0 0 0 / 0.42)` and dark `#5d5d5d` with a
                // note that it needs a value per mode, though `#5d5d5d` passes both): the nearest
                // such, at most 8 tried.
                if found == nil {
                    let givenLab = given.converted(to: .oklab).coordinates
                    var tried: [DisplayColor] = [], best: (color: DisplayColor, distance: Double)? = nil
                    for pair in group where tried.count < 8 {
                        guard let c = moving ? results[pair.index].backgroundSuggestion?.background : results[pair.index].suggestion?.foreground,
                              !tried.contains(c) else { continue }
                        tried.append(c)
                        guard margin(c) >= 0 else { continue }
                        let d = ColorDifference.deltaEOK(oklab1: c.color.converted(to: .oklab).coordinates, oklab2: givenLab)
                        if best == nil || d < best!.distance { best = (c, d) }
                    }
                    if let best { found = (best.color, nil) }
                }
                if cancelled { throw stop() }
                guard let found else {
                    if acrossModes { sharedLineFailed = true } else {
                        notes.append("\(holder) is \(roles)\(mode) and no color of its hue passes on all of them: each failing pair's suggestion passes on that pair alone")
                    }
                    continue
                }
                let foundLab = found.color.color.converted(to: .oklab).coordinates
                for (k, pair) in group.enumerated() where own(results[pair.index])?.path == holder {
                    let i = pair.index
                    guard var c = moving ? results[i].backgroundSuggestion : results[i].suggestion else { continue }
                    let m = measure(found.color, k)
                    c.measurement = m
                    c.value = results[i].target.value(of: m)
                    c.passes = c.value >= results[i].target.minimum
                    // Each pair's change from its own color: one line can hold different colors
                    // in different modes (an alias of a primitive each mode sets), and the
                    // search started from the first mode's (a new user's pass: dark's #bbbbbb →
                    // #767676 was reported as light's 0.117, not 0.226).
                    let current = own(results[i])!.token.color
                    let unchanged = found.direction == nil && current == given
                    let currentLab = current.converted(to: .oklab).coordinates
                    let deltaEOK = unchanged ? 0 : ColorDifference.deltaEOK(oklab1: foundLab, oklab2: currentLab)
                    let deltaE2000 = unchanged ? 0 : ColorDifference.deltaE2000(found.color.color, current)
                    let direction: NearestPassingColor.Direction? = current == given ? found.direction
                        : foundLab.x > currentLab.x ? .lighter : foundLab.x < currentLab.x ? .darker : found.direction
                    if moving {
                        c.background = found.color
                        (c.backgroundDeltaEOK, c.backgroundDeltaE2000) = (deltaEOK, deltaE2000)
                        results[i].backgroundSuggestion = c
                    } else {
                        c.direction = direction ?? (m.foregroundLuminance > m.backgroundLuminance ? .lighter : .darker)
                        c.foreground = found.color
                        (c.foregroundDeltaEOK, c.foregroundDeltaE2000) = (deltaEOK, deltaE2000)
                        results[i].suggestion = c
                    }
                }
            }
            guard sharedLineFailed else { continue }
            // No one color serves every mode of the line: each mode's suggestion, applied there,
            // is measured in the others; where it fails one, the pair says so. Once a color and
            // mode (many pairs share a suggestion), within `maximumCrossModeChecks` measurements
            // an audit, and stopped with the request (a hostile pass, stop 49: a 3.6 KB Tokens
            // Studio file of a 48-token alias chain in 8 themes measured every suggestion on every
            // pair of the other modes, copying each, 80 s of a heavy worker past its deadline
            // and its client's hang-up).
            var firstBroken: [String: (index: Int, m: ContrastMeasurement)?] = [:]
            for i in owned {
                guard let c = moving ? results[i].backgroundSuggestion : results[i].suggestion else { continue }
                let color = moving ? c.background : c.foreground
                let key = "\(color.srgb)\u{0}\(color.alpha)\u{0}\(results[i].mode ?? "")"
                let broken: (index: Int, m: ContrastMeasurement)?
                if let known = firstBroken[key] { broken = known } else {
                    // The first pair of another mode this color fails, with its measurement.
                    var found: (index: Int, m: ContrastMeasurement)? = nil
                    for p in pairs where results[p.index].mode != results[i].mode {
                        crossModeChecks += 1
                        if crossModeChecks > maximumCrossModeChecks { crossModeLeftOut = true; break }
                        if crossModeChecks & 255 == 0, let isCancelled, isCancelled() { throw stop() }
                        let j = p.index
                        let m = p.asForeground
                            ? ContrastMeasurement(foreground: color, background: DisplayColor(results[j].background!.color), backdrop: backdropSRGB(results[j].backdrop))
                            : ContrastMeasurement(foreground: DisplayColor(results[j].foreground!.color), background: color, backdrop: backdropSRGB(results[j].backdrop))
                        if results[j].target.value(of: m) < results[j].target.minimum { found = (j, m); break }
                    }
                    firstBroken[key] = found
                    broken = found
                }
                guard let (j, m) = broken else { continue }
                let r = results[j]
                let t = own(results[i])!.token.tokenLocation
                // Either mode may be the one without a block of its own (`:root`'s): the fix is a
                // value per mode, whichever of the two gets its own block (a new user's pass was
                // told to give `:root`'s mode a value of its own, which it had).
                // A state no rule is written for (`dark + high-contrast`) has no block to write
                // its value in yet (a new user's pass was told to use "that mode's own block").
                let stateless = [results[i].mode, r.mode].compactMap { $0 }.first { combinedStates[$0] != nil }
                let whereWritten = stateless.map { s in
                    "'\(s)' has no rule of its own yet: write one for it, whose selector and media queries hold only where " +
                        combinedStates[s]!.map { "'\($0)'" }.joined(separator: " and ") + " hold at once (one's rule nested in the other's)"
                } ?? "one of them written in that mode's own block"
                let conflict = "\(holder)'s value at \(t.file) line \(t.line) serves mode '\(r.mode ?? "")' too, where this color fails \(r.foregroundPath) on \(r.backgroundPath) (\(r.target.measuredText(m))): \(holder) needs one value per mode, this color in '\(results[i].mode ?? "")' and one that passes there in '\(r.mode ?? "")'\(stateless == nil ? "," : ";") \(whereWritten)"
                if moving { results[i].backgroundSuggestionConflict = conflict } else { results[i].suggestionConflict = conflict }
            }
        }
    }

    /// Writes each suggestion of the results as its token's color is
    /// written (`TokenNotation`, the notation of the text the token's color came from; bare HSL
    /// triplets from `triplets`), and measures the text again: the suggestions were measured on
    /// 8-bit colors, and a text rounded to the notation's digits (`hsl()`'s 0.1%) can miss the
    /// target by a hair, so digits are added (up to 6 more) until the text passes on every pair
    /// the color is suggested for (one color per token: all of its pairs in the modes that share
    /// it), and hex is written when none does. A `light-dark()` value's side of the mode's color
    /// scheme is written as that side is. A DTCG or Figma color object is not CSS text (`css`
    /// false): it gets hex, which both read (a DTCG `oklch` color object had been suggested the
    /// CSS text `oklch(0.568 0.136 252.239)`, no DTCG `$value`: a new user's pass).
    static func writeSuggestions(_ results: inout [PairResult], triplets: Set<String>, css isCSS: Bool = true) {
        /// The text, and the color it shows when that is not the suggestion's own (a rounded
        /// notation's), which the pairs are measured on again.
        func written(_ color: DisplayColor, as token: ResolvedToken, mode: CSSColorScheme,
                     passing: (DisplayColor) -> Bool) -> (text: String, shown: DisplayColor?) {
            let hex = Color.srgb(color.srgb.x, color.srgb.y, color.srgb.z, alpha: color.alpha).hex
            guard isCSS else { return (hex, nil) }
            // A `light-dark()` value: the side of the mode's color scheme is what changes.
            let css = TokenAudit.lightDarkSides(token.css)?[mode == .dark ? 1 : 0] ?? token.css
            let notation = TokenNotation(of: css, bareTriplet: triplets.contains(token.path) || triplets.contains(token.chain.last ?? ""))
            guard notation != .hex else { return (hex, nil) }
            if notation.isHSL, let kept = keptHueAndSaturation(of: token.color, toward: color, notation: notation, passing: passing) {
                return kept
            }
            // The text that passes and shows the suggestion's own `hex` (a rounded
            // `oklch(0.507 0.161 254)` showed #0164be beside its hex #0064be: a new user's
            // pass), else the first that passes.
            var passes: (text: String, shown: DisplayColor?)? = nil
            for extra in 0...6 {
                guard let text = notation.text(color, extraDigits: extra) else { return (hex, nil) }
                // A bare triplet is read as CSS reads `hsl(var(--x))`.
                guard let read = try? CSSColorParser.parse(notation == .bareHSL ? "hsl(\(text))" : text) else { return (hex, nil) }
                let shown = DisplayColor(read)
                // Inside sRGB as the suggestion is: rounded `oklch()` can land a hair outside
                // (a new user's pass, stop 49: `oklch(0.3276 0.1335 26.9477)`, red 1.0007, and
                // the re-audit of the fixed file then said its colors lie outside sRGB).
                guard passing(shown), !shown.wasGamutMapped else { continue }
                if Color.srgb(shown.srgb.x, shown.srgb.y, shown.srgb.z, alpha: shown.alpha).hex == hex { return (text, shown) }
                if passes == nil { passes = (text, shown) }
            }
            return passes ?? (hex, nil)
        }
        // A token's pairs in the mode, by the color suggested for it (text, then background:
        // one color per token, `oneColorPerToken`), written once and measured on all of them.
        for background in [false, true] {
            func color(_ r: PairResult) -> DisplayColor? { background ? r.backgroundSuggestion?.background : r.suggestion?.foreground }
            var groups: [String: [Int]] = [:], order: [String] = []
            for i in results.indices {
                guard let c = color(results[i]), results[i].foreground != nil, results[i].background != nil else { continue }
                let key = (background ? results[i].backgroundPath : results[i].foregroundPath) + "\u{0}"
                    + Color.srgb(c.srgb.x, c.srgb.y, c.srgb.z, alpha: c.alpha).hex + "\u{0}" + results[i].colorScheme.rawValue
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(i)
            }
            for key in order {
                let pairs = groups[key]!
                let first = results[pairs[0]]
                // A text passes as measured and as painted: both colors rounded to 8 bits, as a
                // screen shows them and as the answer's `hex` gives them, a translucent composite
                // rounded so too (`ContrastMeasurement.painted`; a new user's pass: shadcn's
                // `0 0% 11.2%`, 4.5015:1, shown as #1d1d1d, which is 4.48:1; a hostile pass: a
                // suggestion at 4.5049:1 on the unrounded `32 25.5% 49.5%` was 4.48:1 on its hex).
                let (text, shown) = written(color(first)!, as: background ? first.background! : first.foreground!,
                                   mode: first.colorScheme) { read in
                    pairs.allSatisfy { i in
                        let r = results[i]
                        let (fg, bg) = (DisplayColor(r.foreground!.color), DisplayColor(r.background!.color))
                        let backdrop = backdropSRGB(r.backdrop)
                        let (f, b) = background ? (fg, read) : (read, bg)
                        return r.target.paintedMargin(foreground: f, background: b, backdrop: backdrop) >= 0
                    }
                }
                for i in pairs {
                    if background { results[i].backgroundSuggestionText = text } else { results[i].suggestionText = text }
                    // The ratio given is the text's, as pasted (a new user's pass: shadcn's
                    // `oklch(0.982 0.009 17.302)` was given as 4.515:1, its 8-bit color's, and
                    // measured 4.5086 once applied).
                    guard let shown else { continue }
                    let r = results[i]
                    let m = background
                        ? ContrastMeasurement(foreground: DisplayColor(r.foreground!.color), background: shown, backdrop: backdropSRGB(r.backdrop))
                        : ContrastMeasurement(foreground: shown, background: DisplayColor(r.background!.color), backdrop: backdropSRGB(r.backdrop))
                    func remeasure(_ c: inout NearestPassingColor.Candidate?) {
                        guard var s = c else { return }
                        (s.measurement, s.value) = (m, r.target.value(of: m))
                        s.passes = s.value >= r.target.minimum
                        // The color is the text's (an HSL token's kept hue and saturation show
                        // another color than the search's), and its distance from the original.
                        let original = background ? r.background!.color : r.foreground!.color
                        let moved = Color.srgb(shown.srgb.x, shown.srgb.y, shown.srgb.z, alpha: shown.alpha)
                        if background {
                            s.background = shown
                            (s.backgroundDeltaEOK, s.backgroundDeltaE2000) = (ColorDifference.deltaEOK(original, moved), ColorDifference.deltaE2000(original, moved))
                        } else {
                            s.foreground = shown
                            (s.foregroundDeltaEOK, s.foregroundDeltaE2000) = (ColorDifference.deltaEOK(original, moved), ColorDifference.deltaE2000(original, moved))
                        }
                        c = s
                    }
                    if background { remeasure(&results[i].backgroundSuggestion) } else { remeasure(&results[i].suggestion) }
                }
            }
        }
    }

    /// For a token written in HSL (`hsl()`, shadcn's bare triplet): the text that keeps its hue
    /// and saturation as written and moves only its lightness, toward `suggested`'s lightness, to
    /// the nearest value that passes (bisection; `passing` is monotone in lightness on one side of
    /// the original), rounded outward to the notation's 0.1% (more digits when rounding misses).
    /// A new user's pass, stop 49: shadcn's `240 3.8% 46.1%` was suggested `246.7 3.9% 45.3%`,
    /// the search's OKLCH hue written back in HSL, where a designer changes the lightness only.
    /// Nil for a translucent or achromatic-hue-less color, or when no lightness that way passes.
    static func keptHueAndSaturation(of original: Color, toward suggested: DisplayColor, notation: TokenNotation,
                                     passing: (DisplayColor) -> Bool) -> (text: String, shown: DisplayColor?)? {
        guard suggested.alpha >= 1, original.alpha >= 1 else { return nil }
        let o = DisplayColor(original)
        let hsl = Color.srgb(o.srgb.x, o.srgb.y, o.srgb.z).converted(to: .hsl).coordinates
        let target = Color.srgb(suggested.srgb.x, suggested.srgb.y, suggested.srgb.z).converted(to: .hsl).coordinates.z
        guard hsl.x.isFinite, hsl.y.isFinite, hsl.z.isFinite, target.isFinite, target != hsl.z else { return nil }
        let lighter = target > hsl.z
        func color(_ l: Double) -> DisplayColor {
            DisplayColor(Color(space: .hsl, coordinates: SIMD3(hsl.x, hsl.y, l)))
        }
        var (fails, passes) = (hsl.z, lighter ? 100.0 : 0.0)
        guard passing(color(passes)) else { return nil }
        for _ in 0..<40 where abs(passes - fails) > 1e-6 {
            let mid = (fails + passes) / 2
            if passing(color(mid)) { passes = mid } else { fails = mid }
        }
        // Outward to 0.1%, then as many more digits as the text needs to pass.
        let step = 0.1
        let rounded = lighter ? Swift.min(100, (passes / step).rounded(.up) * step) : Swift.max(0, (passes / step).rounded(.down) * step)
        for (extra, l) in [(0, rounded), (1, passes), (2, passes), (3, passes)] {
            guard var text = notation.text(color(l), extraDigits: extra) else { return nil }
            // The hue and saturation as the notation writes the original's (not as a round trip
            // through sRGB gives them back).
            if let original = notation.text(o, extraDigits: extra), let kept = Self.replacingLightness(of: original, with: text) { text = kept }
            guard let read = try? CSSColorParser.parse(notation == .bareHSL ? "hsl(\(text))" : text) else { return nil }
            let shown = DisplayColor(read)
            if passing(shown) { return (text, shown) }
        }
        return nil
    }

    /// `original`'s HSL text with its last percentage (the lightness) taken from `changed`, both
    /// written by the same `TokenNotation`; nil when either has no such number.
    static func replacingLightness(of original: String, with changed: String) -> String? {
        func lastPercent(_ t: String) -> Range<String.Index>? {
            guard let end = t.range(of: "%", options: .backwards)?.lowerBound else { return nil }
            var start = end
            while start > t.startIndex, let c = t[t.index(before: start)].unicodeScalars.first, c == "." || ("0"..."9").contains(c) {
                start = t.index(before: start)
            }
            return start < end ? start..<end : nil
        }
        guard let a = lastPercent(original), let b = lastPercent(changed) else { return nil }
        return original.replacingCharacters(in: a, with: changed[b])
    }

    /// The two colors of a value written `light-dark(light, dark)` (CSS Color 5 §5), as text;
    /// nil for any other value.
    static func lightDarkSides(_ css: String) -> [String]? {
        // Most values are not: a look at the first bytes first (a value can be 8 KB of
        // substituted color-mix(), and this runs for every pair: a hostile pass's 19,000 pairs).
        var head = css.utf8.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }).prefix(11).makeIterator()
        for expected in "light-dark(".utf8 {
            guard let b = head.next(), b | 0x20 == expected | 0x20 else { return nil }
        }
        guard let (name, args) = CSSThemeReader.singleFunction(css), name.lowercased() == "light-dark" else { return nil }
        let sides = CSSThemeReader.splitTopLevel(args, by: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return sides.count == 2 ? sides : nil
    }

    /// Matching steps a foreground token's other ways of matching may take (`pairs`).
    static let alternativeMatchSteps = 20_000
    /// Most other ways of matching kept for one foreground token (`pairs`).
    static let maximumAlternativeMatches = 64
    /// Most ways one background token may match a rule's pattern (`pairs`); more is a 422.
    static let maximumBackgroundWays = 4096
    /// Steps along each token's alias chain where a pair it aliases is looked for (`run`).
    static let maximumWitnessHops = 8

    /// A token written `light-dark(light, dark)` gets one value back: its suggestion in a mode
    /// (written for that mode's side by `writeSuggestions`) becomes `light-dark()` with the other
    /// side taken from the other color scheme's suggestion for the token when its modes agree on
    /// one, else kept as written. (A hex alone pasted over a `light-dark()` token fixes one
    /// scheme and breaks the other.) Background suggestions likewise.
    ///
    /// With `schemeModes` (the files have one mode, audited as `light` and `dark` because they use
    /// `light-dark()`), a token with one value for both whose suggestion for one scheme fails the
    /// other (`suggestionConflict`) gets `light-dark()` too, its passing side as written (a
    /// hostile pass: `--foreground: #7a7a7a` on `light-dark(#fff, #222)` was given #767676 in
    /// light and #898989 in dark, each failing the other).
    static func writeLightDark(_ results: inout [PairResult], schemeModes: Bool, triplets: Set<String>) {
        // The sides of a token's value: its `light-dark()` colors, or, in scheme modes, its one
        // value twice where no one color serves both schemes; not a bare HSL triplet's, which
        // `hsl(var(--x))` reads, so that it cannot hold a `light-dark()` (a hostile pass's
        // `light-dark(0 0% 46.3%, hsl(0 0% 55%))` did not parse): its conflict stays.
        // A side kept is kept as the file writes it, var() and all (a new user's pass, stop 49:
        // `oklch(from var(--foreground) calc(l + 0.35) c h)` came back with var(--foreground)
        // replaced by its value, cutting the token loose from --foreground).
        func sides(_ token: ResolvedToken, conflict: String?) -> [String]? {
            if let s = lightDarkSides(token.written) ?? lightDarkSides(token.css) { return s }
            guard schemeModes, conflict != nil, !triplets.contains(token.path), !triplets.contains(token.chain.last ?? "") else { return nil }
            // An alias's own text is var() of the next token, not the color it leads to (a new
            // user's pass: `--accent-foreground: var(--color-blue-700)` was offered
            // `light-dark(oklch(48.8% 0.243 264.376), …)`, cutting it loose from the palette).
            let own = token.chain.count > 1 ? "var(\(token.chain[1]))" : token.written
            return [own, own]
        }
        // (token, scheme) → the texts suggested for it there.
        var suggested: [String: Set<String>] = [:]
        func key(_ path: String, _ scheme: CSSColorScheme) -> String { path + "\u{0}" + scheme.rawValue }
        for r in results {
            let scheme = r.colorScheme
            if let t = r.suggestionText, let fg = r.foreground, sides(fg, conflict: r.suggestionConflict) != nil {
                suggested[key(r.foregroundPath, scheme), default: []].insert(t)
            }
            if let t = r.backgroundSuggestionText, let bg = r.background, sides(bg, conflict: r.backgroundSuggestionConflict) != nil {
                suggested[key(r.backgroundPath, scheme), default: []].insert(t)
            }
        }
        guard !suggested.isEmpty else { return }
        func combined(_ text: String, _ path: String, _ sides: [String], _ scheme: CSSColorScheme) -> String {
            let other: CSSColorScheme = scheme == .dark ? .light : .dark
            let agreed = suggested[key(path, other)].flatMap { $0.count == 1 ? $0.first : nil }
            let otherText = agreed ?? sides[other == .dark ? 1 : 0]
            return scheme == .dark ? "light-dark(\(otherText), \(text))" : "light-dark(\(text), \(otherText))"
        }
        for i in results.indices {
            let r = results[i], scheme = r.colorScheme
            // A plain value made `light-dark()` settles its conflict between the two schemes; a
            // `light-dark()` side shared by two modes of one scheme keeps its conflict (a new
            // user's `.dark` and `.dark-dimmed` flipped each other's dark side for 8 rounds).
            if let t = r.suggestionText, let fg = r.foreground, let s = sides(fg, conflict: r.suggestionConflict) {
                results[i].suggestionText = combined(t, r.foregroundPath, s, scheme)
                if lightDarkSides(fg.css) == nil { results[i].suggestionConflict = nil }
            }
            if let t = r.backgroundSuggestionText, let bg = r.background, let s = sides(bg, conflict: r.backgroundSuggestionConflict) {
                results[i].backgroundSuggestionText = combined(t, r.backgroundPath, s, scheme)
                if lightDarkSides(bg.css) == nil { results[i].backgroundSuggestionConflict = nil }
            }
        }
    }

    /// For translucent text no lightness of its hue passes: the same color at the smallest
    /// 8-bit opacity that does (`MinimumOpacity`, as `/v1/suggest`'s `opacity`), as a
    /// suggestion whose color does not change (ΔE 0). nil for opaque text or when even opacity 1
    /// misses (a hostile pass: `rgb(0 0 0 / 0.4)` on `#eeeeee` failed at 2.79:1 with no
    /// suggestion, where `/v1/suggest` gives `#0000008b`).
    static func opacitySuggestion(_ foreground: Color, on background: Color, backdrop: SIMD3<Double>?,
                                  target: ContrastTarget) -> NearestPassingColor.Candidate? {
        guard let o = MinimumOpacity.search(foreground: foreground, background: background, backdrop: backdrop, target: target) else { return nil }
        let lighter = o.measurement.foregroundLuminance > o.measurement.backgroundLuminance
        return NearestPassingColor.Candidate(direction: lighter ? .lighter : .darker, moving: .foreground, foreground: o.foreground,
                                             background: DisplayColor(background), measurement: o.measurement, value: o.value, passes: true,
                                             foregroundDeltaEOK: 0, foregroundDeltaE2000: 0, backgroundDeltaEOK: 0, backgroundDeltaE2000: 0)
    }

    /// For translucent text that neither lightness at its opacity nor more opacity fixes: the
    /// nearest opaque color of its hue that passes (a new user's `#8888` on `#f0f0f0` failed at
    /// 1.73:1 with no suggestion and no word). nil for opaque text, or when none passes.
    static func opaqueSuggestion(_ foreground: Color, on background: Color, backdrop: SIMD3<Double>?,
                                 target: ContrastTarget) -> NearestPassingColor.Candidate? {
        guard foreground.alpha < 1 else { return nil }
        var opaque = foreground
        opaque.alpha = 1
        return NearestPassingColor.suggest(foreground: opaque, background: background, backdrop: backdrop, target: target).best
    }

    /// Whether a suggested pair puts the text on the other side of the background's luminance
    /// than the measured pair `m` (WCAG 2 relative luminance, composited as measured).
    static func flipsPolarity(_ c: NearestPassingColor.Candidate, from m: ContrastMeasurement) -> Bool {
        (m.foregroundLuminance > m.backgroundLuminance) != (c.measurement.foregroundLuminance > c.measurement.backgroundLuminance)
    }

    /// For an opaque pair, the WCAG 2 ratio (WCAG 2.2 SC 1.4.3) another display of its colors
    /// shows where that changes the verdict `passes` at `minimum`: `clipped`, a browser that
    /// clips colors outside sRGB (Chromium 156, as `GradientContrast.displayed` does; CSS Color 4
    /// §13.2 maps them, as measured); `hex`, the colors rounded to 8 bits. Nil when neither
    /// changes it or a color is translucent. A new user's pass: `oklch(0.53 0.25 150)` passed at
    /// 4.73:1 where Chromium paints #008e00 at 4.33:1, and `oklch(0.568 0 0)` at 4.50:1 beside
    /// its hex #777777 at 4.48:1, with no word in the audit where /v1/contrast gives one.
    /// `hexPair` is the 8-bit pair and its ratio where `hex` is given (the pair's own note).
    static func shownVerdicts(_ fg: Color, _ bg: Color, passes: Bool, minimum: Double)
        -> (clipped: String?, hex: String?, hexPair: (foreground: SIMD3<Double>, background: SIMD3<Double>, ratio: Double)?)? {
        let (f, b) = (DisplayColor(fg), DisplayColor(bg))
        guard f.alpha >= 1, b.alpha >= 1 else { return nil }
        /// The pair as displayed and its ratio, only where its verdict is not `passes` (most pairs).
        func changed(_ x: SIMD3<Double>, _ y: SIMD3<Double>, _ how: String) -> (text: String, ratio: Double)? {
            let r = WCAG.contrastRatio(WCAG.relativeLuminance(x), WCAG.relativeLuminance(y))
            guard (r >= minimum) != passes else { return nil }
            return ("\(WCAG.ratioText(r)):1 \(how) (\(Color.srgb(x.x, x.y, x.z).hex) on \(Color.srgb(y.x, y.y, y.z).hex))", r)
        }
        let c = changed(DisplayColor(clipping: fg).srgb, DisplayColor(clipping: bg).srgb, "clipped")
        let (hf, hb) = (EightBit.quantize(f.srgb), EightBit.quantize(b.srgb))
        let h = hf != f.srgb || hb != b.srgb ? changed(hf, hb, "in 8-bit hex") : nil
        return c == nil && h == nil ? nil : (c?.text, h?.text, h.map { (hf, hb, $0.ratio) })
    }

    /// Whether a token of `set` has a color (or an alias) as its base value, outside component
    /// text: the base values are something to audit.
    public static func hasBaseColors(_ set: TokenSet) -> Bool {
        set.tokens.contains { t in
            switch t.base { case .css?, .alias?: return !t.isComponentText; default: return false }
        }
    }

    /// An Lc to one decimal, cut toward 0 (as `WCAG.ratioText` floors a ratio: never rounded
    /// onto a minimum it misses).
    public static func lcText(_ v: Double) -> String { String(format: "%.1f", (v * 10).rounded(.towardZero) / 10) }

    /// The modes an audit of `set` covers: the files' modes, and before them the base values as
    /// a mode of their own when no mode stands for them: a CSS theme with `:root` and `.dark`
    /// has the modes `light` (`:root`) and `dark`. The base is taken to be represented when a
    /// mode's name says light (DTCG `$value` and Figma's default mode repeat a light mode) or no
    /// token has a base color. It is named `light` when another mode is dark (by its name or its
    /// declared `color-scheme`: `TokenSet.colorScheme(in:)`), else `default`. Component scopes
    /// (`TokenSet.scopes`: `.btn-light`, `.navbar-dark`) count for neither.
    ///
    /// Files with one mode whose values depend on the color scheme (`light-dark()`, as a single
    /// `:root` with `color-scheme: light dark` writes a theme) have the modes `light` and `dark`:
    /// the base values in both, `light-dark()` taking its first color in `light` and its second
    /// in `dark` (the resolver's color scheme goes by the mode's name).
    public static func modes(of set: TokenSet) -> [String] {
        guard !set.modes.isEmpty else { return colorSchemeDependent(set) > 0 ? ["light", "dark"] : [] }
        // A resolver's modifiers always pick a context: the sets alone are no state.
        guard set.baseIsAState else { return set.modes }
        // A component scope (`.btn-light`) is no light mode.
        // A light mode stated by negating dark (`:root:not(.dark)`) stands for no base: the base
        // is the state with the class, dark (a hostile pass: `:root`'s #eee under `.dark` was
        // never audited, and a pair at 1.16:1 there passed).
        let names = set.modes.filter { !set.scopes.contains($0) && !set.negatedSchemeModes.contains($0) }.map { $0.lowercased() }
        let baseColors = hasBaseColors(set)
        guard !names.contains(where: { $0.contains("light") }), baseColors, set.baseMode.map(set.modes.contains) != true else { return set.modes }
        let hasDark = set.modes.contains(where: { !set.scopes.contains($0) && set.colorScheme(in: $0) == .dark })
        let negatedLight = set.modes.contains(where: { set.negatedSchemeModes.contains($0) && set.colorScheme(in: $0) == .light })
        let base = hasDark ? "light" : negatedLight ? "dark" : "default"
        return set.modes.contains(base) ? set.modes : [base] + set.modes
    }

    /// The mode `name` was likely meant as, among `available`: the same after a selector's
    /// spelling is taken off (`.theme-zinc`, `theme-zinc`, `[data-theme=zinc]` for `zinc`: a new
    /// user's pass asked for `theme-zinc`), else the closest name (`NameSuggestions`).
    static func modeSuggestion(_ name: String, among available: [String]) -> String? {
        var key = name.lowercased()
        for junk in ["[", "]", "\"", "'", "data-theme=", "data-mode=", "data-bs-theme="] { key = key.replacingOccurrences(of: junk, with: "") }
        if key.hasPrefix(".") { key.removeFirst() }
        for prefix in ["theme-"] where key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
        for suffix in ["-theme", "-mode"] where key.hasSuffix(suffix) { key.removeLast(suffix.count) }
        if let same = available.first(where: { $0.lowercased() == key }) { return same }
        return NameSuggestions.suggestions(for: key, among: available, limit: 1).first
    }

    /// Files with modes, none of them dark, whose values use `light-dark()` (a `:root` with
    /// `color-scheme: light dark` beside a `.high-contrast` class): every mode whose scheme is not
    /// declared is shown in both schemes, so each is audited in both, `M` (light) and `M-dark`
    /// (its values, `light-dark()` taking its second color), and the base as `light` and `dark`
    /// (a new user's pass: #444 on #111 in dark was never audited once the file had another
    /// mode). Unchanged when a mode is dark already.
    /// - Throws: `TokenError` when the modes in both schemes would pass
    ///   `TokenFormats.maximumModes` and `requested` (the audit's `modes`) does not narrow them:
    ///   they had been audited in light only, silently, and a file whose dark sides failed passed
    ///   (a hostile pass, stop 38).
    /// Longest note an audit reports, in characters.
    public static let maximumNoteLength = 1_024
    /// Most distinct notes a report keeps (the rest counted in a last one).
    public static let maximumNotes = 200

    /// The readers' notes, each cut to `maximumNoteLength` characters, each text once (with how
    /// many times it was said) and at most `maximumNotes` of them: a hostile pass, stop 39, sent
    /// `@import "tailwindcss";` 60,000 times (1.4 MB) and got the same note 60,000 times, a
    /// 9.8 MB answer, and at 200,000 a 422 blaming "many pairs or modes".
    static func distinctNotes(_ given: [String]) -> [String] {
        var order: [String] = [], counts: [String: Int] = [:]
        for note in given {
            let cut = note.count > maximumNoteLength ? String(note.prefix(maximumNoteLength - 1)) + "…" : note
            if let n = counts[cut] { counts[cut] = n + 1 } else { counts[cut] = 1; order.append(cut) }
        }
        var notes = order.prefix(maximumNotes).map { n in counts[n]! > 1 ? "\(n) (said \(counts[n]!) times)" : n }
        if order.count > maximumNotes { notes.append("\(order.count - maximumNotes) more distinct notes left out") }
        return notes
    }

    static func inBothSchemes(_ set: TokenSet, requested: [String]? = nil) throws(TokenError) -> TokenSet {
        // A root that declares its scheme is shown in that one only (`TokenSet.baseColorScheme`).
        guard !set.modes.isEmpty, set.baseColorScheme == nil, !set.modes.contains(where: { set.colorScheme(in: $0) == .dark }) else { return set }
        let n = colorSchemeDependent(set)
        guard n > 0 else { return set }
        if set.modes.count * 2 + 1 > TokenFormats.maximumModes && requested == nil {
            // Named as the `modes` member's problem: narrowing them is the fix. A set already at
            // the limit had scopes past it cut by its reader: the files make more modes than it
            // holds (a hostile pass: 99 themes were said to be "the 64 modes").
            let count = set.modes.count >= TokenFormats.maximumModes ? "\(set.modes.count) or more" : "\(set.modes.count)"
            var error = TokenError(reason: "\(n) token\(n == 1 ? " uses" : "s use") light-dark() and no mode is dark, so each of the \(count) modes is audited in both color schemes ('M' and 'M-dark'): more than \(TokenFormats.maximumModes) modes; name the modes to audit with 'modes' (e.g. \(set.modes.prefix(1).map { "'\($0)', '\($0)-dark'" }.joined()))")
            error.inRequestedModes = true
            throw error
        }
        var out = set
        let split = set.modes.filter { set.colorSchemes[$0] == nil && !set.modes.contains($0 + "-dark") }
        // The base in dark only where it has colors: a file whose one rule is read as its
        // declared scheme (`:root { color-scheme: light }`) has no base to show in dark.
        let baseColors = hasBaseColors(set)
        guard baseColors || !split.isEmpty else { return set }
        out.modes = baseColors ? ["dark"] : []
        for m in set.modes {
            out.modes.append(m)
            if split.contains(m) { out.modes.append(m + "-dark"); out.colorSchemes[m + "-dark"] = .dark }
        }
        if baseColors { out.colorSchemes["dark"] = .dark }
        for i in out.tokens.indices {
            for m in split {
                if let v = out.tokens[i].modes[m] { out.tokens[i].modes[m + "-dark"] = v }
                if let l = out.tokens[i].modeLocations[m] { out.tokens[i].modeLocations[m + "-dark"] = l }
            }
        }
        out.notes.append("\(n) token\(n == 1 ? "" : "s") use light-dark() and no mode is dark: each mode is audited in both color schemes\(baseColors ? ", the base as 'light' and 'dark'" : "")\(split.isEmpty ? "" : ", " + split.prefix(3).map { "'\($0)' as '\($0)' and '\($0)-dark'" }.joined(separator: ", ") + (split.count > 3 ? ", …" : "")) (light-dark() taking its first color in light, its second in dark)")
        return out
    }

    /// A suggestion for one color of a pair whose other color is derived from it
    /// (`--brand-foreground: color-mix(in oklab, var(--brand) 20%, white)`, a relative color
    /// `from var(--brand)`) was measured with the other as it is: applied, the other changes too
    /// and the pair may fail again (a new user's pass: 4.51:1 promised, 4.24:1 after pasting).
    /// Such a suggestion gets a conflict saying so, when it has none.
    static func noteDerivations(_ results: inout [PairResult], resolver: TokenResolver) {
        // Once per mode and pair of chains: thousands of pairs may share them (each value up
        // to 8 KB; a hostile pass's 19,000 alias pairs on one value).
        var known: [String: (token: String, source: String, text: String)?] = [:]
        func derivation(of other: ResolvedToken, from moving: ResolvedToken, mode: String?) -> (token: String, source: String, text: String)? {
            // Only the token the suggestion is written into (the pair's own, `chain[0]`) moves:
            // a color derived from a token further along its alias chain (`definedBy`) stays (a
            // new user's pass: `--muted` from `--brand` was said to change with a suggestion
            // for `--muted-foreground: var(--brand)`).
            guard let source = moving.chain.first else { return nil }
            let key = (mode ?? "") + "\u{0}" + other.chain.joined(separator: "\u{1}") + "\u{0}" + source
            if let k = known[key] { return k }
            var found: (token: String, source: String, text: String)? = nil
            for path in other.chain {
                guard let t = resolver.token(path), case .css(let text)? = t.value(in: mode), text.contains("var(") else { continue }
                if refers(text, to: source) { found = (path, source, text); break }
            }
            known[key] = found
            return found
        }
        func message(_ d: (token: String, source: String, text: String)) -> String {
            let text = d.text.count > 80 ? String(d.text.prefix(79)) + "…" : d.text
            return "\(d.token) is derived from \(d.source) (\(text)): this color was measured with \(d.token) as it is now; applied, \(d.token) changes with it, so the pair must be measured again (re-audit after applying, or change both)"
        }
        for i in results.indices {
            guard let fg = results[i].foreground, let bg = results[i].background else { continue }
            // Both colors from one token (a new user's pass: a pair on Spectrum's gray-800 at
            // 1.00:1 was offered a color for either side, and editing the token both aliases lead
            // to would move both): the suggestion goes on the pair's own token, not the shared one.
            if let shared = fg.chain.last, shared == bg.chain.last, fg.path != bg.path {
                func own(_ token: String, other: String) -> String {
                    token == shared
                        ? "\(other) takes its color from \(shared) too: set in \(shared), this color would change both sides; give \(other) a value of its own first"
                        : "both colors of this pair come from \(shared): write this color as \(token)'s own value, in place of its alias; set in \(shared) it would change both sides"
                }
                if results[i].suggestion != nil, results[i].suggestionConflict == nil { results[i].suggestionConflict = own(fg.path, other: bg.path) }
                if results[i].backgroundSuggestion != nil, results[i].backgroundSuggestionConflict == nil { results[i].backgroundSuggestionConflict = own(bg.path, other: fg.path) }
            }
            if results[i].suggestion != nil, results[i].suggestionConflict == nil, let d = derivation(of: bg, from: fg, mode: results[i].mode) {
                results[i].suggestionConflict = message(d)
            }
            if results[i].backgroundSuggestion != nil, results[i].backgroundSuggestionConflict == nil, let d = derivation(of: fg, from: bg, mode: results[i].mode) {
                results[i].backgroundSuggestionConflict = message(d)
            }
        }
    }

    /// Whether CSS `text` has `var(name)` (followed by `)`, `,` or a space, so that `--brand`
    /// is not found in `var(--brand-foreground)`).
    static func refers(_ text: String, to name: String) -> Bool {
        let needle = Array(("var(" + name).utf8), hay = Array(text.utf8)
        guard hay.count > needle.count else { return false }
        for i in 0..<(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) {
            let next = hay[i + needle.count]
            if next == UInt8(ascii: ")") || next == UInt8(ascii: ",") || next == UInt8(ascii: " ") { return true }
        }
        return false
    }

    /// How many tokens have a value using `light-dark()` (CSS Color 5 §5).
    static func colorSchemeDependent(_ set: TokenSet) -> Int {
        set.tokens.reduce(0) { count, t in
            let values = [t.base].compactMap { $0 } + Array(t.modes.values)
            return count + (values.contains(where: \.readsColorScheme) ? 1 : 0)
        }
    }

    /// Audits `set` by `rules`.
    /// - Throws: `TokenError` for an unknown mode, more pairs than `options.maximumPairs`, and
    ///   (unless `options.reportUnresolved`) the first pair whose token cannot be resolved,
    ///   naming file, token, line and the alias chain.
    public static func run(_ given: TokenSet, rules: [PairRule], options: TokenAuditOptions = TokenAuditOptions()) throws(TokenError) -> TokenAuditReport {
        let set = try inBothSchemes(given, requested: options.modes)
        // An import's custom properties (Tailwind's palette) under the request's own.
        let resolver = TokenResolver(set, variables: set.defaultVariables.merging(options.variables) { _, given in given })
        var modes: [String?] = set.modes.isEmpty ? [nil] : set.modes.map { Optional($0) }
        let available = Self.modes(of: set)
        // Each reader's note cut to `maximumNoteLength` characters: notes quote selectors, and a
        // 75 KB file's eight notes of its 53 KB selector made a 428 KB answer (a hostile pass,
        // stop 38).
        var notes = Self.distinctNotes(set.notes)
        // light-dark() follows the used color scheme, which only `color-scheme` sets: with none
        // declared a browser paints its first color in every mode (a front-end pass against
        // Chromium: `.dark`'s light-dark() text was read as its dark side, 19.06:1, where the page
        // shows #09090b on #09090b). Read by the mode's name, as a page whose script sets the
        // scheme on `<html>` shows it; said so.
        if given.isStylesheet, !given.declaresColorScheme, given.colorSchemes.isEmpty, given.baseColorScheme == nil,
           case let n = Self.colorSchemeDependent(given), n > 0 {
            notes.append("no rule of the files declares color-scheme, which light-dark() follows: \(n) token\(n == 1 ? "'s" : "s'") light-dark() \(n == 1 ? "is" : "are") read by each mode's name (the dark side where it says dark), as a page shows it whose script sets color-scheme on <html> (next-themes does); a page that sets none paints light-dark()'s first color in every mode, as browsers do: declare color-scheme (:root { color-scheme: light dark } and .dark { color-scheme: dark }) to be sure")
        }
        if !set.modes.isEmpty && available.count > set.modes.count {
            // The base values are a mode of their own (CSS `:root` beside `.dark`).
            modes = available.map { Optional($0) }
        } else if set.modes.isEmpty && !available.isEmpty {
            // One mode, values by color scheme: audited in light and in dark.
            modes = available.map { Optional($0) }
            let n = colorSchemeDependent(set)
            notes.append("\(n) token\(n == 1 ? "" : "s") use light-dark(): the files have one mode, audited as two, 'light' (light-dark() taking its first color) and 'dark' (its second)")
        }
        if let wanted = options.modes {
            // Files without modes have one, which the reports name `default`: asking for it by
            // that name is asking for it (a design-systems pass, stop 39: "mode 'default' is not
            // in the files; their modes are none (one mode)").
            let oneMode = available.isEmpty
            for m in wanted where !available.contains(m) && !(oneMode && m == "default") {
                if set.droppedScopes.contains(m) {
                    var error = TokenError(reason: "mode '\(m)' was left out: the files make more than the \(TokenFormats.maximumModes) modes an audit holds, and component scopes past them give way (the notes name them); send the rules you want audited on their own")
                    error.inRequestedModes = true
                    throw error
                }
                let hint = Self.modeSuggestion(m, among: available).map { " (did you mean '\($0)'?\($0 != m && m.lowercased().contains($0.lowercased()) ? " a theme class or attribute is named by its theme: '.theme-zinc' is mode 'zinc'" : ""))" } ?? ""
                var error = TokenError(reason: "mode '\(m)' is not in the files\(hint); \(oneMode ? "they have one mode, named 'default' in the reports" : "their modes are " + available.joined(separator: ", "))")
                error.inRequestedModes = true
                throw error
            }
            modes = wanted.map { oneMode && $0 == "default" ? nil : Optional($0) }
        }
        // Token paths sorted, for prefix ranges.
        // Ordered and compared by UTF-8 bytes, as patterns match: by Characters, `.` and a
        // combining mark after it are one, so `color.text.\u{301}muted` did not start with
        // `color.text.` and a rule's wildcard missed it (a hostile pass: the audit passed).
        let paths = set.tokens.map(\.path).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let colorPaths = paths.filter { p in
            guard !set.modeVariants.contains(p), let t = resolver.token(p) else { return false }
            let values = [t.base].compactMap { $0 } + Array(t.modes.values)
            // A token typed as component text is paired only where a mode holds a color (a
            // stylesheet's light `0.545 0 0` beside dark's oklch(): dark's pairs are measured).
            if t.isComponentText {
                guard set.isStylesheet, values.contains(where: { v in
                    if case .css(let text) = v { return !CSSThemeReader.isComponentValue(text) }
                    if case .alias = v { return true }
                    return false
                }) else { return false }
            }
            // A gradient too: text on it is paired, and the pair named in a warning.
            return values.contains { $0.isColorToAudit || $0.isGradient }
        }
        func candidates(_ pattern: TokenPattern) -> ArraySlice<String> {
            let prefix = pattern.literalPrefix
            if prefix.isEmpty { return colorPaths[...] }
            var lo = 0, hi = colorPaths.count
            while lo < hi { let mid = (lo + hi) / 2; if colorPaths[mid].utf8.lexicographicallyPrecedes(prefix.utf8) { lo = mid + 1 } else { hi = mid } }
            var end = lo
            while end < colorPaths.count && colorPaths[end].utf8.starts(with: prefix.utf8) { end += 1 }
            return colorPaths[lo..<end]
        }
        // The matching work, bounded before any is done.
        func determined(_ rule: PairRule) -> Bool {
            // A background that is exact once the foreground's captures are substituted.
            let fgNames = Set(rule.foreground.captureNames)
            return rule.background.captureNames.allSatisfy(fgNames.contains)
                && !rule.background.text.contains("*")
        }
        var estimate = 0
        for rule in rules {
            estimate += rule.foreground.isExact ? 1 : candidates(rule.foreground).count
            if !determined(rule) { estimate += candidates(rule.background).count }
        }
        if estimate > options.maximumMatches {
            throw TokenError(reason: "the rules would test \(estimate) token names against their patterns (\(colorPaths.count) color tokens, \(rules.count) rules); the limit is \(options.maximumMatches): use fewer rules or patterns with a literal start (color.text.* rather than **)", limit: options.maximumMatches)
        }
        var steps = options.maximumMatchSteps
        var polls = 0
        /// Every 256th call (and always with `now`): stops when the caller has given up.
        func poll(now: Bool = false) throws(TokenError) {
            polls &+= 1
            guard now || polls & 255 == 0, let cancelled = options.isCancelled, cancelled() else { return }
            throw TokenError(reason: "the audit was stopped: its request was abandoned (deadline)")
        }
        func exhausted(_ ri: Int) -> TokenError {
            TokenError(reason: "\(rules[ri].source) (\(rules[ri].foreground.text) on \(rules[ri].background.text)) and the rules before it take more than \(options.maximumMatchSteps) steps of pattern matching: use fewer '*', '**' and captures per pattern", limit: options.maximumMatchSteps)
        }
        // Expand rules into (rule, fg, bg, backdrop) once; modes share them. Each token is tested
        // once against each side's pattern; foregrounds and backgrounds are joined on their shared
        // captures through a dictionary, not by testing every foreground × background.
        struct Pair { var rule: Int; var fg: String; var bg: String; var backdrop: String? }
        var pairs: [Pair] = []
        // A pair (foreground on background) is judged once, by the first rule that makes it: the request's rules come before the presets', so a rule can give a preset's pair
        // another role (`large-text`, `disabled`). Judged by every rule, it had been listed twice
        // with opposite verdicts and failed the audit (a new user's pass, stop 38).
        var claimedBy: [String: Int] = [:]
        // (first rule, later rule) → pairs the later one made that the first already judges.
        var overridden: [[Int]: Int] = [:]
        var unmatched: [Int] = []
        // A preset pairs a Figma file's local variables, not the library copies named as they are
        // (a design-systems pass, stop 39: `mode (library)/fgColor/muted` on `mode (library)/…`
        // beside the local pair, 18 rows always unresolved in Primer's file).
        var libraryCopiesLeft = Set<String>()
        /// The Apple preset's pair of a token from ContrastService's own export that its palette
        /// did not measure there: a background as text, or text placed `on` its own backgrounds
        /// on a system one (`TokenPlacement`; its pairs on those come from rules of their own).
        func placedElsewhere(_ rule: PairRule, _ fg: String, _ bg: String) -> Bool {
            guard rule.preset == .apple, bg.hasPrefix("apple."), let p = set.placements[fg] else { return false }
            return p.role == "background" || !p.onSystemBackgrounds
        }
        func presetSkips(_ rule: PairRule, _ path: String) -> Bool {
            guard !set.libraryCopies.isEmpty, rule.preset != nil, set.libraryCopies.contains(path) else { return false }
            libraryCopiesLeft.insert(path)
            return true
        }
        // The Apple preset measures text: a token whose name says it is a background is not
        // paired as text on Apple's backgrounds (a new user's pass: `--bg` failed twelve times
        // at 1.00:1, each with a darker color to "try" that would have wrecked the page).
        var appleBackgroundsLeft = Set<String>()
        for (ri, rule) in rules.enumerated() {
            try poll(now: true)
            var count = 0
            var fgMatches: [(String, [String: String])] = []
            if rule.foreground.isExact {
                if let t = resolver.token(rule.foreground.text) { fgMatches = [(t.path, [:])] }
            } else {
                do throws(TokenPattern.Exhausted) {
                    for fg in candidates(rule.foreground) {
                        polls &+= 1
                        if polls & 255 == 0, options.isCancelled?() == true { break }
                        if presetSkips(rule, fg) { continue }
                        if let c = try rule.foreground.firstMatch(fg, steps: &steps), rule.accepts?(c) ?? true {
                            if rule.preset == .apple, !fg.hasPrefix("apple."), set.placements[fg] == nil, Self.namesABackground(fg) {
                                appleBackgroundsLeft.insert(fg)
                                continue
                            }
                            fgMatches.append((fg, c))
                        }
                    }
                } catch { throw exhausted(ri) }
            }
            // Backgrounds by the values of the captures both patterns name.
            var fgNames = Set<String>()
            for n in rule.foreground.captureNames { fgNames.insert(n) }
            var shared: [String] = []
            for n in rule.background.captureNames where fgNames.contains(n) && !shared.contains(n) { shared.append(n) }
            let lookup = determined(rule)
            var index: [String: [String]] = [:]
            var tooManyWays: String? = nil
            if !fgMatches.isEmpty && !lookup {
                do throws(TokenPattern.Exhausted) {
                    for bg in candidates(rule.background) where tooManyWays == nil {
                        polls &+= 1
                        if polls & 255 == 0, options.isCancelled?() == true { break }
                        // A background token matched in very many ways (captures and wildcards
                        // on long names) is refused before its ways fill memory: a hostile pass's
                        // 1.1 KB rule held 4 GB.
                        if presetSkips(rule, bg) { continue }
                        let tuples = try rule.background.bindings(bg, of: shared, steps: &steps, limit: Self.maximumBackgroundWays + 1)
                        if tuples.count > Self.maximumBackgroundWays { tooManyWays = bg; break }
                        for tuple in tuples {
                            index[tuple.joined(separator: "\u{0}"), default: []].append(bg)
                        }
                    }
                } catch { throw exhausted(ri) }
            }
            if let bg = tooManyWays {
                throw TokenError(reason: "\(rules[ri].source) (\(rules[ri].foreground.text) on \(rules[ri].background.text)): the background pattern matches '\(bg.prefix(64))' in more than \(Self.maximumBackgroundWays) ways: use fewer '*', '**' and captures per pattern", limit: Self.maximumBackgroundWays)
            }
            func backgrounds(_ captures: [String: String]) -> [String] {
                if lookup { return resolver.token(rule.background.substituting(captures).text).map { [$0.path] } ?? [] }
                return index[shared.map { captures[$0] ?? "" }.joined(separator: "\u{0}")] ?? []
            }
            let fgCaptureNames = rule.foreground.captureNames.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            for (fg, first) in fgMatches {
                // Every way the foreground matches that pairs: the first match takes the shortest
                // captures, and names split more than one way pair more than once
                // (`--{x}-{r}-fg` on `--{r}-on-{x}`: `--btn-primary-hover-fg` is x = btn,
                // r = primary-hover and x = btn-primary, r = hover; a new user's pass found the
                // second, failing pair never checked, and `color.text{s}{r}{s}default` had paired
                // nothing with s = "").
                // The other ways are looked for within `alternativeMatchSteps` a token (charged to
                // the audit's budget too), at most `maximumAlternativeMatches` of them: a hostile
                // pass's rule of five captures and wildcards on two 480-character names made
                // billions of ways, 4 GB and more than a minute. What the search finds in that
                // budget is checked; the rest of such a rule is not.
                var ways: [[String: String]] = [first]
                if fgCaptureNames.count > 1 {
                    var budget = Swift.min(Self.alternativeMatchSteps, steps)
                    let before = budget
                    let found = (try? rule.foreground.bindings(fg, of: fgCaptureNames, steps: &budget, limit: Self.maximumAlternativeMatches)) ?? []
                    let all = found.sorted {
                        let (a, b) = ($0.reduce(0) { $0 + $1.utf8.count }, $1.reduce(0) { $0 + $1.utf8.count })
                        return a != b ? a < b : $0.lexicographicallyPrecedes($1)
                    }
                    steps -= before - Swift.max(budget, 0)
                    if steps <= 0 { throw exhausted(ri) }
                    for way in all {
                        let c = Dictionary(uniqueKeysWithValues: zip(fgCaptureNames, way))
                        if c != first, rule.accepts?(c) ?? true { ways.append(c) }
                    }
                }
                // A background one way has paired is not paired again another way (whose other
                // captures could name another backdrop: Primer's `{s}` split as "/d").
                var paired = Set<String>()
                for captures in ways {
                    let bgs = backgrounds(captures).filter { !paired.contains($0) }
                    for bg in bgs { paired.insert(bg) }
                    for bg in bgs where bg != fg && !(rule.foreground.text == "**" && fg.hasPrefix("apple.")) && !placedElsewhere(rule, fg, bg) {
                        var backdrop: String? = nil
                        if let b = rule.backdrop {
                            // This way's captures first; else another way the foreground splits
                            // (shadcn's `{p}{x}-foreground` takes p = "" first, and the backdrop
                            // `{p}background` is then `--background` only with p = "--").
                            for c in [captures] + ways where backdrop == nil {
                                backdrop = resolver.token(b.substituting(c).text)?.path
                            }
                        }
                        // Keyed without the backdrop: what lies under a translucent background
                        // is a fact about the background, not the rule's judgement; a later rule
                        // that names it gives it to the pair (shadcn's `{p}background` under a
                        // rule without one).
                        let key = "\(fg)\u{0}\(bg)"
                        if let claim = claimedBy[key] {
                            count += 1
                            if pairs[claim].backdrop == nil, let backdrop { pairs[claim].backdrop = backdrop }
                            let owner = pairs[claim].rule
                            let first = rules[owner]
                            if owner != ri, first.role != rule.role || first.fontSize != rule.fontSize
                                || first.fontWeight != rule.fontWeight || first.policy != rule.policy {
                                overridden[[owner, ri], default: 0] += 1
                            }
                            continue
                        }
                        claimedBy[key] = pairs.count
                        pairs.append(Pair(rule: ri, fg: fg, bg: bg, backdrop: backdrop))
                        count += 1
                        if pairs.count * modes.count > options.maximumPairs {
                            throw TokenError(reason: "the rules make more than \(options.maximumPairs) pairs (\(pairs.count) pairs × \(modes.count) modes so far); narrow the patterns", limit: options.maximumPairs)
                        }
                    }
                }
            }
            if count == 0 { unmatched.append(ri) }
        }
        // A preset's rules that matched nothing while others of it matched: a note, not a warning
        // (`TokenAuditReport.warnedUnmatchedRules`).
        for preset in PairPreset.allCases {
            let own = rules.indices.filter { rules[$0].preset == preset }
            let missed = own.filter { unmatched.contains($0) }
            guard !missed.isEmpty, missed.count < own.count else { continue }
            let listed = missed.prefix(3).map { "\(rules[$0].foreground.text) on \(rules[$0].background.text)" }.joined(separator: "; ")
            notes.append("preset \(preset.rawValue): \(missed.count) of its \(own.count) rules matched no pair (\(listed)\(missed.count > 3 ? "; …" : "")): the files have no such color tokens (a token that is no color, such as a 16px dimension, is not paired); not a warning, since a preset names every role of its design system and files leave some out")
        }
        if !appleBackgroundsLeft.isEmpty {
            let n = appleBackgroundsLeft.count
            notes.append("preset apple: \(n) token\(n == 1 ? " whose name says it is" : "s whose names say they are") a background (\(TokenSyntax.sample(appleBackgroundsLeft.sorted(), limit: 3))) \(n == 1 ? "is" : "are") not measured as text on Apple's backgrounds: name \(n == 1 ? "it" : "one") in a rule to audit it as text")
        }
        if !libraryCopiesLeft.isEmpty {
            notes.append("presets paired the local variables, not \(libraryCopiesLeft.count) library cop\(libraryCopiesLeft.count == 1 ? "y" : "ies") of the same names (\(TokenSyntax.sample(libraryCopiesLeft.sorted(), limit: 3))): name one in a rule to audit it")
        }
        // One note per overriding rule and overridden rule, first in the notes: they are about
        // the request's own rules (a CI engineer's pass, stop 38: two overriding rules got one
        // note, and the text report's 12 notes had pushed it out).
        var overrideNotes: [String] = []
        for (key, count) in overridden.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let (first, later) = (rules[key[0]], rules[key[1]])
            overrideNotes.append("\(later.source) (\(later.foreground.text) on \(later.background.text), \(Self.judgedAs(later))) makes \(count) pair\(count == 1 ? "" : "s") that \(first.source) (\(first.foreground.text) on \(first.background.text)) already judges as \(Self.judgedAs(first)): each pair is judged once, by the first rule that makes it (the request's rules before the presets')")
        }
        notes.insert(contentsOf: overrideNotes, at: 0)
        try poll(now: true)
        // A rule that matched nothing because a side names a CSS custom property without its
        // `--` (`pico-color` for `--pico-color`: a new user's pass) says so, once per side, when
        // the side with `--` matches a color token (within a small matching budget).
        var dashHinted = Set<Int>()
        for ri in unmatched {
            var hints: [String] = []
            for side in [rules[ri].foreground, rules[ri].background] {
                // Only a pattern that starts with a letter or digit: one that starts with a
                // capture or `*` matches the `--` already (a preset's `{p}foreground`).
                guard let lead = side.text.unicodeScalars.first, lead.properties.isAlphabetic || ("0"..."9").contains(lead),
                      let dashed = try? TokenPattern("--" + side.text) else { continue }
                var budget = 10_000
                let matches = candidates(dashed).prefix(200).contains { ((try? dashed.firstMatch($0, steps: &budget)) ?? nil) != nil }
                if matches { hints.append("'\(side.text)' as '\(dashed.text)'") }
            }
            guard !hints.isEmpty else { continue }
            dashHinted.insert(ri)
            notes.append("\(rules[ri].source) matched no pair, but would with \(hints.joined(separator: " and ")): CSS custom properties keep their leading '--' in token names")
        }
        // A side naming one token (no capture or `*`) that no color token has: the closest names
        // (a new user's pass, stop 43: `--primry` matched no pair without a word of `--primary`).
        // Bounded: at most 16 rules against at most 2,000 color tokens, names cut to 64 characters.
        // Not for a rule the `--` note already answers (a new user's pass: `fg` on `bg` got three
        // notes, the `--` one and a "did you mean '--fg'?" for each side).
        if colorPaths.count <= 2_000 {
            var suggested = 0
            for ri in unmatched where suggested < 16 && !dashHinted.contains(ri) {
                for side in [rules[ri].foreground, rules[ri].background] where side.isExact && !colorPaths.contains(side.text) {
                    let close = NameSuggestions.suggestions(for: side.text, among: colorPaths, limit: 3)
                    guard !close.isEmpty else { continue }
                    suggested += 1
                    notes.append("\(rules[ri].source) matched no pair: no color token is named '\(side.text)'; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?")
                }
            }
        }
        // A pair whose two tokens are both plain aliases (the whole value, in every audited mode)
        // of the tokens of another pair has the same colors everywhere: Tailwind v4's
        // `@theme inline { --color-x: var(--x) }` doubles every shadcn pair. Such pairs are checked
        // once, as the pair of the tokens that hold the colors, and counted.
        // Each token's source is found once, and every token walked to it is given its own
        // (a hostile pass: 19,990 tokens, each a step of one alias chain, walked 64 hops apiece
        // for each pair, were two thirds of a 1.5 s audit). A chain is followed to its end, or
        // to a token met twice (a cycle, whose pairs are unresolved anyway).
        var aliasSteps: [String: String?] = [:]
        /// The token `path` is a plain alias of (its whole value, the same in every audited
        /// mode), if any; found once per token.
        func aliasStep(_ path: String) -> String? {
            if let known = aliasSteps[path] { return known }
            var next: String? = nil
            if let t = resolver.token(path) {
                let values = modes.map { t.value(in: $0) }
                if case .alias(let target)? = values.first, values.allSatisfy({ $0 == .alias(target) }),
                   let found = resolver.token(target)?.path, found != path { next = found }
            }
            aliasSteps[path] = next
            return next
        }
        var sourceMemo: [String: (path: String, hops: Int)] = [:]
        func source(_ path: String) -> (path: String, hops: Int) {
            if let known = sourceMemo[path] { return known }
            var p = path, walked: [String] = [], seen = Set<String>()
            var end: (path: String, hops: Int)? = nil
            while resolver.token(p) != nil {
                if let known = sourceMemo[p] { end = known; break }
                guard seen.insert(p).inserted, let next = aliasStep(p) else { break }
                walked.append(p)
                p = next
            }
            let reached = end ?? (p, 0)
            if end == nil { sourceMemo[p] = reached }
            for (i, w) in walked.enumerated() { sourceMemo[w] = (reached.path, reached.hops + walked.count - i) }
            return sourceMemo[path] ?? reached
        }
        func sourceKey(_ pair: Pair, _ fg: String, _ bg: String) -> String {
            let rule = rules[pair.rule]
            return "\(fg)\u{0}\(bg)\u{0}\(pair.backdrop.map { source($0).path } ?? "")\u{0}\(rule.role.rawValue)\u{0}\(rule.fontSize ?? 0)\u{0}\(rule.fontWeight ?? 0)\u{0}\(rule.policy?.rawValue ?? "")"
        }
        // Only where a rule names the source pair itself: two pairs that merely share their
        // sources (`--text`/`--bg` and `--heading`/`--card`, all aliases of two grays) are two
        // pairs of the design, each reported (a pass found the second, failing, hidden; and
        // Material's `on-surface on surface` hidden behind `on-background on background`).
        // Also where the source pair is judged by a rule that comes first (the request's before
        // the presets'): a rule that makes `--muted-foreground on --muted` large text judges
        // Tailwind's `--color-muted-foreground on --color-muted` of the shadcn preset too, as it
        // judges the pair itself (stop 38).
        let sources = pairs.map { (source($0.fg), source($0.bg)) }
        var checkedKeys = Set<String>()
        var checkedByRule: [String: Int] = [:]
        func plainKey(_ pair: Pair, _ fg: String, _ bg: String) -> String {
            "\(fg)\u{0}\(bg)\u{0}\(pair.backdrop.map { source($0).path } ?? "")"
        }
        for (pair, (fg, bg)) in zip(pairs, sources) where fg.hops == 0 && bg.hops == 0 {
            checkedKeys.insert(sourceKey(pair, fg.path, bg.path))
            let key = plainKey(pair, fg.path, bg.path)
            checkedByRule[key] = Swift.min(checkedByRule[key] ?? .max, pair.rule)
        }
        // Each with its source pair: all of them reach the suggestions' joint search, the
        // first `maximumListedAliasPairs` are listed, and every one is counted.
        var allAliasPairs: [TokenAuditReport.AliasPair] = []
        // The earlier rule stands in for a preset's rule only: a request rule naming the alias
        // pair itself is the request's word on it (a hostile pass: `--ink on --paper` as large
        // text hid `--heading on --page`, aliases of them, which the next rule asked 4.5:1 of,
        // and the audit passed at 3.54:1).
        func isPresetRule(_ i: Int) -> Bool { rules[i].source.hasPrefix("preset ") }
        // A pair whose tokens alias the tokens of another pair part way along their chains is that
        // pair's alias too, when the chains go on past it: audited in light only, shadcn's
        // `--surface-foreground: var(--foreground)` made `--code-foreground on --code` (aliases of
        // `--surface-foreground on --surface`) and both Tailwind copies reach `--foreground on
        // --surface`, no pair of the files, and one failure was reported four times, two of them
        // at `@theme inline` lines whose fix would break the alias (a new user's pass). The first
        // `maximumWitnessHops` steps of each chain are looked at.
        var pairIndex: [String: [Int]] = [:]
        for (i, pair) in pairs.enumerated() { pairIndex[pair.fg + "\u{0}" + pair.bg, default: []].append(i) }
        func chain(_ path: String) -> [String] {
            var out: [String] = [], p = path
            // A chain that comes back (a cycle, unresolved anyway) ends where it would repeat.
            while out.count < Self.maximumWitnessHops, let next = aliasStep(p), next != path, !out.contains(next) {
                out.append(next)
                p = next
            }
            return out
        }
        /// The pair `pair` aliases part way along its chains, judged alike (`sourceKey`) or, for a
        /// preset's pair, by an earlier rule (`plainKey`), as at the chains' ends below; if any.
        func witness(_ pair: Pair) -> (String, String)? {
            let (fgChain, bgChain) = (chain(pair.fg), chain(pair.bg))
            guard !fgChain.isEmpty, !bgChain.isEmpty else { return nil }
            for c in fgChain {
                for d in bgChain {
                    for j in pairIndex[c + "\u{0}" + d] ?? [] {
                        let other = pairs[j]
                        if sourceKey(other, c, d) == sourceKey(pair, c, d)
                            || (isPresetRule(pair.rule) && other.rule < pair.rule && plainKey(other, c, d) == plainKey(pair, c, d)) { return (c, d) }
                    }
                }
            }
            return nil
        }
        pairs = zip(pairs, sources).compactMap { pair, s in
            if s.0.hops > 0 && s.1.hops > 0,
               checkedKeys.contains(sourceKey(pair, s.0.path, s.1.path))
                || (isPresetRule(pair.rule) && (checkedByRule[plainKey(pair, s.0.path, s.1.path)] ?? .max) < pair.rule) {
                allAliasPairs.append(.init(foreground: pair.fg, background: pair.bg, checkedForeground: s.0.path, checkedBackground: s.1.path))
                return nil
            }
            if let (c, d) = witness(pair) {
                allAliasPairs.append(.init(foreground: pair.fg, background: pair.bg, checkedForeground: c, checkedBackground: d))
                return nil
            }
            return pair
        }
        let aliasCount = allAliasPairs.count
        // Pairs of translucent text on a translucent background with no backdrop, counted from
        // their resolved colors (memoized) before any is measured.
        var backdropFree = 0
        for mode in modes {
            for pair in pairs {
                try poll()
                guard case .success(let fg) = resolver.resolve(pair.fg, mode: mode), fg.color.alpha < 1,
                      case .success(let bg) = resolver.resolve(pair.bg, mode: mode), bg.color.alpha < 1 else { continue }
                // A backdrop counts when it resolves opaque; a translucent one is unknown too
                // (`backdropSRGB`), and one that does not resolve leaves the pair unresolved.
                if let b = pair.backdrop {
                    guard case .success(let d) = resolver.resolve(b, mode: mode), d.color.alpha < 1 else { continue }
                }
                backdropFree += 1
                guard backdropFree <= options.maximumBackdropFreePairs else {
                    throw TokenError(reason: "the rules make more than \(options.maximumBackdropFreePairs) pairs of translucent text on a translucent background with no backdrop (\(pair.fg) on \(pair.bg)\(mode.map { " in '\($0)'" } ?? "") is one too many), each measured over 256 possible backdrops: give the rules the page's color as \"backdrop\" (\"backdrop\": \"--background\"), or narrow the patterns",
                                     limit: options.maximumBackdropFreePairs)
                }
            }
        }
        var results: [PairResult] = []
        results.reserveCapacity(pairs.count * modes.count)
        var summaries: [ModeSummary] = []
        var skippedPairs = 0
        // Pairs of a gradient and a color, in each mode (`gradientWarning`).
        var gradientPairs: [(fg: String, bg: String, mode: String?, text: Bool)] = []
        // Pairs of a color and a token that is none (`--primary: ffff`, `0 0 0`, `inherit`).
        var nonColorPairs: [(token: String, written: String, type: String, mode: String?)] = []
        // Pairs left out of component scopes where both colors are the base's, and out of the
        // other modes where a token only scopes set (`TokenSet.scopes`).
        var scopePairs = 0
        /// Whether `mode` is a component scope, an element below another (`.dark .sidebar`,
        /// `TokenSet.descendantModes`) or the page under a condition that is no theme
        /// (`TokenSet.conditionalModes`): a part of the page, whose pairs are its own only where it
        /// changes them (a design-system team's pass: `.dark .sidebar { --sidebar: … }` made the
        /// whole shadcn audit a 400, its pair having no value in `light`, and repeated every dark
        /// failure in `.dark .sidebar`).
        func isPart(_ mode: String?) -> Bool {
            guard let mode else { return false }
            return set.scopes.contains(mode) || set.descendantModes[mode] != nil || set.conditionalModes.contains(mode)
        }
        /// Whether only such parts set `path` (no base value, no other mode's).
        func onlyInScopes(_ path: String) -> Bool {
            guard let t = resolver.token(path) else { return false }
            return t.base == nil && !t.modes.isEmpty && t.modes.keys.allSatisfy(isPart)
        }
        /// Whether `path` resolves in `mode` as where it sits (the base for a scope, the ancestor's
        /// mode for an element below another): to the same color text, or fails in both (a token
        /// the part does not touch, through aliases or `var()` alike; a hostile pass: a theme
        /// taken for a scope must not lose its pairs).
        func sameAsBase(_ path: String, in mode: String) -> Bool {
            let around = set.descendantModes[mode]?.ancestor
            switch (resolver.resolve(path, mode: mode), resolver.resolve(path, mode: around)) {
            case (.success(let a), .success(let b)): return a.css == b.css && a.color == b.color
            case (.failure, .failure): return resolver.token(path)?.modes[mode] == nil
            default: return false
            }
        }
        // Pairs whose WCAG verdict is not the one a clipping browser or the 8-bit hex shows.
        var clippedChanges = 0, hexChanges = 0
        // Tokens whose color lies outside sRGB, measured gamut-mapped (said in a note: a pass
        // found an oklch token's 4.45:1 measured mapped with nothing saying so).
        var mappedTokens: [String] = [], mappedSeen = Set<String>()
        var clippedTokens: [String] = [], clippedSeen = Set<String>()
        var clippedExamples: [String] = [], hexExamples: [String] = []
        var suggestions = 0, suggestedPairs = 0, suggestionsLeftOut = false
        // Failing pairs no color of the text's hue fixes (said in a note, never silently).
        var unsuggested = 0, unsuggestedExample: String? = nil, translucentExample: String? = nil
        // Backdrop tokens that are translucent where a pair needs them (`backdropSRGB`).
        var translucentBackdrops: [String] = []
        // Pairs the one-color-per-token searches may still measure, over every mode.
        var jointPairs = options.maximumSuggestions
        for mode in modes {
            var summary = ModeSummary(mode: mode)
            for pair in pairs {
                try poll()
                let rule = rules[pair.rule]
                var target = rule.target(options.policy)
                let increased = mode.map(options.increasedContrastModes.contains) ?? false
                if increased, rule.role != .disabled { target = target.increased }
                // A file our palette export wrote: the palette's own targets for the color (a new
                // user's pass, stop 49: an icon's 4.5:1 was judged as 12 pt text at 7:1, and a hig
                // palette's 7:1 as wcag-aa's 4.5:1).
                if rule.preset == .apple, let p = set.placements[pair.fg], let t = p.target {
                    target = increased ? (p.increasedTarget ?? t.increased) : t
                }
                var result = PairResult(rule: pair.rule, mode: mode, foregroundPath: pair.fg, backgroundPath: pair.bg,
                                        target: target, passes: false)
                result.colorScheme = set.colorScheme(in: mode)
                // A pair whose token is not a color (an alias to a dimension, Material's `-rgb`
                // channel triplets a pattern also matched) is skipped and counted.
                // A color whose written value is not the one shown (Tokens Studio's `modify`) is
                // not skipped: the pair is unresolved.
                // What each token is when it is no color to measure (its type), else nil.
                func notAColor(_ path: String) -> String? {
                    guard case .failure(.notAColor(let type)) = resolver.resolve(path, mode: mode),
                          type != TokensStudioReader.modifiedColorType else { return nil }
                    return type
                }
                let (fgNone, bgNone) = (notAColor(pair.fg), notAColor(pair.bg))
                if fgNone != nil || bgNone != nil {
                    skippedPairs += 1
                    // Text on a gradient is a pair the audit cannot measure: named in a warning
                    // (a new user's pass: `--hero-foreground on --hero`, a gradient at 3.58:1 in
                    // /v1/contrast, was counted in `skippedPairs` only, and every CI report passed).
                    // Gradient text (`background-clip: text`) likewise, on a color.
                    let (fgGradient, bgGradient) = (fgNone == TokenValue.gradientType, bgNone == TokenValue.gradientType)
                    if (bgGradient && fgNone == nil) || (fgGradient && bgNone == nil) {
                        gradientPairs.append((pair.fg, pair.bg, mode, fgGradient && !bgGradient))
                    } else if !fgGradient && !bgGradient && (fgNone == nil) != (bgNone == nil) {
                        // One color and one token that is none: named in a warning (a hostile
                        // pass: `--primary: ffff` beside `--primary-foreground: #fff` made a pair
                        // counted in `skippedPairs` only, and every report passed). Two tokens
                        // that are both none (Material's `-rgb` channel triplets) stay counted.
                        var path = fgNone != nil ? pair.fg : pair.bg
                        var written = ""
                        let type = fgNone ?? bgNone!
                        // Named where the value is written, at the end of its aliases (a new
                        // user's pass: Tailwind's `--color-muted-foreground` was named for
                        // `--muted-foreground: 0.545 0 0`).
                        for _ in 0..<64 {
                            guard case .alias(let next)? = resolver.token(path)?.value(in: mode), resolver.token(next) != nil else { break }
                            path = next
                        }
                        if let v = resolver.token(path)?.value(in: mode) {
                            switch v {
                            case .css(let t): written = t
                            case .alias(let a): written = "var(\(a))"
                            case .other: written = ""
                            }
                        }
                        nonColorPairs.append((path, written, type, mode))
                    }
                    continue
                }
                // In a component scope only the pairs whose colors it changes are its own; the
                // others are the base's pairs again, or tokens of other scopes (a new user's pass:
                // Bootstrap's `:root` pairs were repeated in each of 38 scopes, beside 174
                // unresolved ones such as `--bs-alert-color` in `.table`).
                if let mode, isPart(mode), sameAsBase(pair.fg, in: mode), sameAsBase(pair.bg, in: mode) {
                    scopePairs += 1
                    continue
                }
                // Outside the scopes, a token only scopes set has no value (`--bs-alert-color`
                // in the base).
                if !set.scopes.isEmpty || !set.descendantModes.isEmpty || !set.conditionalModes.isEmpty, !isPart(mode), onlyInScopes(pair.fg) || onlyInScopes(pair.bg) {
                    scopePairs += 1
                    continue
                }
                func take(_ r: Result<ResolvedToken, ResolutionFailure>, _ path: String) throws(TokenError) -> ResolvedToken? {
                    switch r {
                    case .success(var t):
                        // Clipped on request: every later measurement, suggestion and note
                        // then sees the color a clipping browser paints.
                        if options.gamutMethod == .clip, let clipped = TokenAudit.clippedIntoSRGB(t.color) {
                            t.color = clipped
                            if clippedSeen.insert(path).inserted { clippedTokens.append(path) }
                        }
                        return t
                    case .failure(let f):
                        let error: TokenError
                        switch f {
                        case .error(let e): error = e
                        case .noValue(let missing):
                            // The token without a value may be one the alias chain leads to (a
                            // hostile pass: "(defined only in )" named the pair's token, which
                            // has its one base value, and not the alias target set only in modes).
                            let t = resolver.token(path), m = resolver.token(missing)
                            let modes = m.map { Array($0.modes.keys).sorted() } ?? []
                            let whereSet = modes.isEmpty ? "no mode sets it" : "defined only in \(modes.joined(separator: ", "))"
                            let subject = missing == path ? "has no value" : "leads to '\(missing)', which has no value"
                            error = TokenError(file: t?.location.file, path: path, location: t?.location,
                                               reason: "\(subject) in mode '\(mode ?? "")' (\(whereSet))")
                        case .notAColor(let type):
                            let t = resolver.token(path)
                            error = TokenError(file: t?.location.file, path: path, location: t?.location(in: mode),
                                               reason: type == TokensStudioReader.modifiedColorType
                                                   ? "is a color with a Tokens Studio modifier ($extensions[\"studio.tokens\"].modify) this audit cannot compute (\(set.unresolvedReasons[path] ?? "the notes say why")): the color shown is not the value written, so the pair cannot be measured; resolve the modifier first (Tokens Studio's export or sd-transforms) and send the result"
                                                   : "is \(TokenSyntax.withArticle(type)), not a color")
                        }
                        if options.reportUnresolved { result.unresolved = error; return nil }
                        var thrown = error
                        let resolvesIn = modes.compactMap { m -> String? in
                            guard let m, case .success = resolver.resolve(path, mode: m) else { return nil }
                            return m
                        }
                        thrown.unresolvedPair = TokenError.UnresolvedPair(mode: mode, resolvesIn: resolvesIn)
                        throw thrown
                    }
                }
                let fg = try take(resolver.resolve(pair.fg, mode: mode), pair.fg)
                let bg = fg == nil ? nil : try take(resolver.resolve(pair.bg, mode: mode), pair.bg)
                var backdrop: ResolvedToken? = nil
                // The backdrop shows only through a translucent background: over an opaque one
                // (also under a translucent foreground, which composites over the background) it
                // is neither needed nor resolved, so a backdrop token missing in a mode does not
                // make an opaque pair unresolved.
                if let b = pair.backdrop, let bg, DisplayColor(bg.color).alpha < 1 {
                    backdrop = try take(resolver.resolve(b, mode: mode), b)
                    if let d = backdrop, d.color.alpha < 1, translucentBackdrops.count < 3 {
                        let name = "\(b)\(mode.map { " in '\($0)'" } ?? "")"
                        if !translucentBackdrops.contains(name) { translucentBackdrops.append(name) }
                    }
                }
                if result.unresolved == nil, let fg, let bg {
                    result.foreground = fg
                    result.background = bg
                    result.backdrop = backdrop
                    let backdropSRGB = TokenAudit.backdropSRGB(backdrop)
                    let (fgShown, bgShown) = (DisplayColor(fg.color), DisplayColor(bg.color))
                    for (shown, path) in [(fgShown, pair.fg), (bgShown, pair.bg)] where shown.wasGamutMapped && mappedSeen.insert(path).inserted {
                        mappedTokens.append(path)
                    }
                    let m = ContrastMeasurement(foreground: fgShown, background: bgShown, backdrop: backdropSRGB)
                    result.measurement = m
                    let v = target.value(of: m)
                    result.value = v
                    result.passes = v >= target.minimum
                    if target.metric == .wcag2, let shown = TokenAudit.shownVerdicts(fg.color, bg.color, passes: result.passes, minimum: target.minimum) {
                        let example = "\(pair.fg) on \(pair.bg)\(mode.map { " in '\($0)'" } ?? ""): \(WCAG.ratioText(v)):1 measured"
                        if let clipped = shown.clipped {
                            clippedChanges += 1
                            if clippedExamples.count < 3 { clippedExamples.append("\(example), \(clipped)") }
                        }
                        if let hex = shown.hex {
                            result.hexPair = shown.hexPair
                            hexChanges += 1
                            if hexExamples.count < 3 { hexExamples.append("\(example), \(hex)") }
                        }
                    } else if target.metric == .apca, fgShown.alpha >= 1, bgShown.alpha >= 1 {
                        // APCA too: the 8-bit hex a tool shows can land on the other side of the
                        // Lc minimum (a designer's pass: Lc 90.016 passed as written, its hex
                        // #4b4b4b at 89.93 would fail, with no word).
                        let (hf, hb) = (EightBit.quantize(fgShown.srgb), EightBit.quantize(bgShown.srgb))
                        if hf != fgShown.srgb || hb != bgShown.srgb {
                            let hv = target.value(of: ContrastMeasurement(foreground: DisplayColor(srgb: hf), background: DisplayColor(srgb: hb)))
                            if (hv >= target.minimum) != result.passes {
                                result.hexPair = (hf, hb, hv)
                                hexChanges += 1
                                if hexExamples.count < 3 {
                                    hexExamples.append("\(pair.fg) on \(pair.bg)\(mode.map { " in '\($0)'" } ?? ""): Lc \(TokenAudit.lcText(v)) measured, Lc \(TokenAudit.lcText(hv)) in 8-bit hex (\(Color.srgb(hf.x, hf.y, hf.z).hex) on \(Color.srgb(hb.x, hb.y, hb.z).hex))")
                                }
                            }
                        }
                    }
                    if !result.passes && options.suggest && target.isReachable && !set.fixedTokens.contains(pair.fg) {
                        let weight = TokenAudit.suggestionWeight(result)
                        if suggestions + weight > options.maximumSuggestions {
                            suggestionsLeftOut = true
                        } else {
                            try poll(now: true)
                            suggestions += weight
                            suggestedPairs += 1
                            let s = NearestPassingColor.suggest(foreground: fg.color, background: bg.color, backdrop: backdropSRGB, target: target)
                            result.suggestion = s.best ?? TokenAudit.opacitySuggestion(fg.color, on: bg.color, backdrop: backdropSRGB, target: target)
                                ?? TokenAudit.opaqueSuggestion(fg.color, on: bg.color, backdrop: backdropSRGB, target: target)
                            // The background instead where the text's fix turns its polarity, or where
                            // no text color of its hue passes at all (a new user's pass: shadcn's
                            // --destructive-foreground under policy apca got neither, only a note that
                            // a background change is needed); within the same budget.
                            let flips = s.best.map { TokenAudit.flipsPolarity($0, from: m) } ?? false
                            let none = result.suggestion == nil && suggestions + weight <= options.maximumSuggestions
                            if (flips || none), !set.fixedTokens.contains(pair.bg) {
                                if none { suggestions += weight }
                                let b = NearestPassingColor.suggest(foreground: fg.color, background: bg.color, backdrop: backdropSRGB,
                                                                    target: target, moving: .background)
                                result.backgroundSuggestion = b.best
                            }
                            if result.suggestion == nil && result.backgroundSuggestion == nil {
                                unsuggested += 1
                                let example = "\(pair.fg) on \(pair.bg)\(mode.map { " in mode '\($0)'" } ?? "")"
                                if unsuggestedExample == nil { unsuggestedExample = example }
                                if translucentExample == nil, bg.color.alpha < 1, backdropSRGB == nil, result.backdrop == nil { translucentExample = example }
                            }
                        }
                    }
                }
                summary.pairs += 1
                if result.unresolved != nil { summary.unresolved += 1 } else if result.passes { summary.passing += 1 } else { summary.failing += 1 }
                results.append(result)
            }
            summaries.append(summary)
        }
        if options.suggest {
            for side in [NearestPassingColor.Moving.foreground, .background] {
                try TokenAudit.oneColorPerToken(&results, budget: &jointPairs, of: options.maximumSuggestions,
                                                side: side, combinedStates: set.combinedStates, aliasPairs: allAliasPairs,
                                                notes: &notes, isCancelled: options.isCancelled)
            }
            TokenAudit.writeSuggestions(&results, triplets: set.bareHSLTriplets, css: set.format != .dtcg && set.format != .figmaVariables)
            TokenAudit.writeLightDark(&results, schemeModes: set.modes.isEmpty && modes.count == 2, triplets: set.bareHSLTriplets)
            TokenAudit.noteDerivations(&results, resolver: resolver)
        }
        if let first = resolver.firstBareHexToken {
            let n = resolver.bareHexTokens.count
            notes.append("\(n) token\(n == 1 ? "" : "s") written as hex without '#' read as hex (\(first)\(n > 1 ? ", …" : "")), as design tools write it; DTCG 2025.10 writes a hex color with its '#'")
        }
        if let first = mappedTokens.first {
            let n = mappedTokens.count
            notes.append("\(n) token\(n == 1 ? "'s color lies" : "s' colors lie") outside sRGB (\(first)\(n > 1 ? ", …" : "")): measured mapped into sRGB by the CSS Color 4 gamut-mapping algorithm (§13.2, OKLCH chroma reduction), as /v1/contrast measures them; a browser that clips shows other colors on an sRGB screen")
        }
        if let first = clippedTokens.first {
            let n = clippedTokens.count
            notes.append("\(n) token\(n == 1 ? "'s color lies" : "s' colors lie") outside sRGB (\(first)\(n > 1 ? ", …" : "")): measured clipped into sRGB channel by channel (gamutMethod clip, CSS Color 4 §13.1), as Chromium 156 paints them on an sRGB screen")
        }
        if clippedChanges > 0 {
            notes.append("WCAG verdicts change where a browser clips colors outside sRGB (Chromium 156 does; measured here mapped into sRGB, CSS Color 4 §13.2) for \(clippedChanges) pair\(clippedChanges == 1 ? "" : "s"): \(clippedExamples.joined(separator: "; "))\(clippedChanges > clippedExamples.count ? "; …" : ""); keep such colors inside sRGB to be judged alike everywhere")
        }
        // The note names the metric of the pairs it counts (APCA when no WCAG pair is among them).
        let onlyAPCAPairs = !results.contains { $0.hexPair != nil && $0.target.metric == .wcag2 }
        if hexChanges > 0 {
            notes.append("\(onlyAPCAPairs ? "APCA" : "WCAG") verdicts change as 8-bit hex (what a designer copies and an 8-bit screen shows) for \(hexChanges) pair\(hexChanges == 1 ? "" : "s"): \(hexExamples.joined(separator: "; "))\(hexChanges > hexExamples.count ? "; …" : "")")
        }
        if let first = allAliasPairs.first {
            let n = aliasCount * modes.count
            notes.append("\(n) pair\(n == 1 ? "" : "s") skipped: aliases of pairs already checked (both tokens alias the tokens of a checked pair, as Tailwind's --color-x: var(--x) does), e.g. \(first.foreground) on \(first.background)")
        }
        if !translucentBackdrops.isEmpty {
            notes.append("the backdrop \(translucentBackdrops.map { "'\($0)'" }.joined(separator: ", ")) is itself translucent, so what shows through it is not in the files: pairs over it are measured over every backdrop from black to white, as without one; make the page's color opaque, or give the rules an opaque backdrop")
        }
        if let example = unsuggestedExample {
            notes.append("\(unsuggested) failing pair\(unsuggested == 1 ? " has" : "s have") no suggested color (\(example)\(unsuggested > 1 ? ", …" : "")): no lightness of the text's hue reaches the target on that background, at the text's opacity or opaque, nor does more opacity; another hue, or a background change, is needed")
            if let translucentExample {
                // A new user's pass: `color-mix(in srgb, var(--primary) 10%, transparent)` measured
                // 1.00:1 and was told to change hue, where the rule wanted a backdrop.
                notes.append("\(translucentExample) has a translucent background and no backdrop: it is measured over every backdrop from black to white, and text that passes over both rarely exists; give the rule a \"backdrop\" (the token of the surface behind it, e.g. \"--background\") to measure what is shown")
            }
        }
        if scopePairs > 0 {
            let shown = modes.compactMap { $0 }.filter { set.scopes.contains($0) }
            let below = modes.compactMap { $0 }.filter { set.descendantModes[$0] != nil }
            let conditional = modes.compactMap { $0 }.filter { set.conditionalModes.contains($0) }
            let parts = [shown.isEmpty ? nil : "in component scopes (modes named after a selector that is no theme: \(shown.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(shown.count > 3 ? ", …" : ""))",
                         below.isEmpty ? nil : "in elements below another (\(below.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(below.count > 3 ? ", …" : ""), whose pairs are those of the mode they sit in unless they change a color)",
                         conditional.isEmpty ? nil : "under media conditions that are no theme, color scheme or contrast (\(conditional.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(conditional.count > 3 ? ", …" : ""), the page at that width or on that medium)"].compactMap { $0 }
            notes.append("\(scopePairs) pair\(scopePairs == 1 ? "" : "s") not checked where \(scopePairs == 1 ? "it is" : "they are") not \(scopePairs == 1 ? "its" : "their") own: \(parts.joined(separator: " and ")) that set none of \(scopePairs == 1 ? "its" : "their") tokens, where \(scopePairs == 1 ? "it is" : "they are") the base's pairs again, and elsewhere for tokens only scopes set")
        }
        if suggestionsLeftOut {
            notes.append("\(suggestedPairs == 0 ? "no failing pair was searched for a suggested color" : "a suggested color was searched for the first \(suggestedPairs) failing pair\(suggestedPairs == 1 ? "" : "s") only"): the searches measure at most \(options.maximumSuggestions) pairs in an audit, a pair of translucent text on a translucent background with no backdrop counting \(TokenAudit.translucentPairWeight) (each of its measurements covers 256 backdrops; a rule's backdrop makes it 1)")
        }
        let skipped = set.tokens.filter { t in
            let values = [t.base].compactMap { $0 } + Array(t.modes.values)
            return !values.isEmpty && (t.isComponentText || !values.contains(where: \.isColorToAudit))
        }.count
        var report = TokenAuditReport(format: set.format, modes: modes, rules: rules, results: results, summaries: summaries,
                                      tokenCount: set.tokens.count, skippedNonColor: skipped, skippedPairs: skippedPairs,
                                      skippedAliasPairs: aliasCount * modes.count,
                                      unmatchedRules: unmatched, notes: notes)
        report.aliasPairs = Array(allAliasPairs.prefix(Self.maximumListedAliasPairs))
        // States left out warn only an audit of every mode: `modes` chose what to audit.
        if options.modes == nil { report.coverageWarnings = set.coverageWarnings }
        if let warning = Self.gradientWarning(gradientPairs) { report.coverageWarnings.append(warning) }
        if let warning = Self.nonColorWarning(nonColorPairs) { report.coverageWarnings.append(warning) }
        return report
    }
}

extension TokenAudit {
    /// Most pairs a gradient warning names (all are counted).
    static let maximumNamedGradientPairs = 10

    /// The warning for pairs of a color and a token that is no color (see `run`): each token
    /// once, with what it holds and its modes, the first `maximumNamedGradientPairs`.
    static func nonColorWarning(_ pairs: [(token: String, written: String, type: String, mode: String?)]) -> String? {
        guard !pairs.isEmpty else { return nil }
        var order: [String] = [], modes: [String: [String]] = [:], shown: [String: String] = [:]
        for p in pairs {
            if modes[p.token] == nil {
                order.append(p.token)
                modes[p.token] = []
                let text = p.written.count > 40 ? String(p.written.prefix(39)) + "…" : p.written
                let kind = p.type == "channels" ? "a channel triplet" : p.type == "empty" ? "empty" : TokenSyntax.withArticle(p.type)
                shown[p.token] = text.isEmpty ? kind : "'\(text)', \(kind)"
            }
            if let m = p.mode, !modes[p.token]!.contains("'\(m)'") { modes[p.token]!.append("'\(m)'") }
        }
        let named = order.prefix(maximumNamedGradientPairs).map { t in
            "\(t) (\(shown[t]!)\(modes[t]!.isEmpty ? "" : " in " + modes[t]!.joined(separator: ", ")))"
        }
        let n = pairs.count, more = order.count - named.count
        return "\(n) pair\(n == 1 ? " was" : "s were") not measured: a token the rules pair with a color is not a color: \(named.joined(separator: "; "))\(more > 0 ? "; and \(more) more tokens" : ""); write it as a CSS color (hex with its '#', or hsl(), rgb(), oklch()), or narrow the rules"
    }

    /// The warning for pairs of which one token is a gradient (`TokenValue.gradientType`) and the
    /// other a color, which the audit does not measure: each pair once with its modes (gradient
    /// text, `background-clip: text`, said so), at most `maximumNamedGradientPairs` named, and
    /// where text on a gradient is measured (`POST /v1/contrast`, its weakest point under the
    /// text); nil when there are none.
    static func gradientWarning(_ pairs: [(fg: String, bg: String, mode: String?, text: Bool)]) -> String? {
        guard !pairs.isEmpty else { return nil }
        var order: [String] = [], modes: [String: [String]] = [:]
        for p in pairs {
            let key = "\(p.fg) on \(p.bg)\(p.text ? " (gradient text)" : "")"
            if modes[key] == nil { order.append(key); modes[key] = [] }
            if let m = p.mode { modes[key]!.append("'\(m)'") }
        }
        let named = order.prefix(maximumNamedGradientPairs).map { key in modes[key]!.isEmpty ? key : "\(key) (\(modes[key]!.joined(separator: ", ")))" }
        let n = order.count, more = n - named.count
        return "\(n) pair\(n == 1 ? " has" : "s have") a gradient and \(n == 1 ? "was" : "were") not measured: \(named.joined(separator: "; "))\(more > 0 ? "; and \(more) more" : ""); the audit measures colors only: measure text on a gradient with POST /v1/contrast (the gradient as \"background\", the files' custom properties as \"variables\"), which finds its weakest point"
    }
}

extension TokenValue {
    /// Whether rules' patterns match a token of this value and its pairs are measured or
    /// unresolved: a color or an alias, and a color whose modifier this audit cannot compute
    /// (`TokensStudioReader.modifiedColorType`; a hostile pass: `global.bg*` skipped a
    /// lightened `global.bg2` as no color, and a failing pair passed `failOn: failure`).
    var isColorToAudit: Bool {
        if case .other(let type) = self { return type == TokensStudioReader.modifiedColorType }
        return true
    }
}

extension TokenAudit {
    /// Words naming a background (`--bg`, `bgColor-default`, `--surface-raised`,
    /// `md.sys.color.surface-container`, Fluent's `colorNeutralBackground1`, Figma SDS's
    /// `background-utilities-scrim` and `-blanket`, the veils under a dialog).
    static let backgroundWords: Set<String> = ["bg", "background", "backgrounds", "surface", "surfaces", "canvas", "backdrop", "scrim", "blanket"]
    /// Words after the one naming what a token is, passed over when looking for it: states,
    /// steps, variants and `color` (`bgColor-rest`, `surface-container-high`, `background1`).
    static let qualifierWords: Set<String> = ["color", "colors", "rest", "hover", "hovered", "active", "pressed", "selected",
                                              "disabled", "focus", "focused", "default", "muted", "emphasis", "subtle", "inset",
                                              "strong", "weak", "container", "high", "higher", "highest", "low", "lower", "lowest",
                                              "dim", "bright", "variant", "tint", "primary", "secondary", "tertiary", "raised",
                                              "sunken", "overlay", "alt", "base", "light", "dark", "inverse", "inverted"]

    /// Words naming a role a background has (Figma SDS's `background-brand-default`, Primer's
    /// `bgColor-danger-emphasis`), passed over like qualifiers: the kind before them decides.
    static let roleWords: Set<String> = ["brand", "danger", "positive", "negative", "warning", "neutral", "success", "error",
                                         "info", "critical", "attention", "severe", "caution", "accent", "utilities", "utility"]

    /// Whether a token's path names a background: its last word that is not a qualifier or a
    /// role (`qualifierWords`, `roleWords`, or digits) is in `backgroundWords`, and no `on`
    /// comes before it (`on-surface`, `onBackground`, `text-on-bg`, Kendo's
    /// `--kendo-color-on-app-surface` are text). So a role after the kind stays the background's
    /// (Figma SDS's `--sds-color-background-brand-default`, `…-danger-secondary`: a designer's
    /// pass found 34 such tokens measured as text), while a word of another kind after it
    /// (`--bg-contrast`, `--surface-heading`) makes the token text. Words split at `.`, `/`, `-`, `_`,
    /// spaces, lower-to-upper case changes, the end of an upper-case run (`BGContainer`), and
    /// between letters and digits; compared in lower case. A hostile pass found Primer's
    /// `--label-accent-bgColor-rest`, VS Code's `textCodeBlock-background`, `--content-bg` and
    /// `colorNeutralBackground1` kept as text by a rule that let any "text" or "label" word win.
    static func namesABackground(_ path: String) -> Bool {
        var words: [String] = []
        for part in path.split(whereSeparator: { $0 == "." || $0 == "/" || $0 == "-" || $0 == "_" || $0 == " " }) {
            let chars = Array(part)
            var word = ""
            for (i, ch) in chars.enumerated() {
                if !word.isEmpty, let previous = word.last {
                    let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                    let boundary = (previous.isLowercase && ch.isUppercase)
                        || (previous.isUppercase && ch.isUppercase && next?.isLowercase == true)
                        || (previous.isNumber != ch.isNumber)
                    if boundary { words.append(word.lowercased()); word = "" }
                }
                word.append(ch)
            }
            if !word.isEmpty { words.append(word.lowercased()) }
        }
        guard let i = words.lastIndex(where: { !qualifierWords.contains($0) && !roleWords.contains($0) && !$0.allSatisfy(\.isNumber) }) else { return false }
        return backgroundWords.contains(words[i]) && !words[..<i].contains("on")
    }
}
