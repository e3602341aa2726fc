import ColorScience

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
    /// default), or reported per pair and counted.
    public var reportUnresolved = false
    /// Most pairs (rule expansions × modes) one audit measures (each is about 1 KB of JSON answer).
    public var maximumPairs = 20_000
    /// Most failing pairs that get a nearest-passing suggestion (each search measures a few
    /// thousand candidates); later failures say they have none.
    public var maximumSuggestions = 1_000
    /// Suggest the nearest passing foreground for failing pairs.
    public var suggest = true

    public init() {}
}

/// One pair measured in one mode.
public struct PairResult: Sendable {
    /// Index of the rule that made the pair.
    public var rule: Int
    /// The mode (nil: the files have none).
    public var mode: String?
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
    /// Rules that matched no pair (by index): likely a misspelt pattern.
    public var unmatchedRules: [Int]
    public var notes: [String]

    /// True when no pair fails or is unresolved.
    public var passes: Bool { summaries.allSatisfy { $0.failing == 0 && $0.unresolved == 0 } }
}

/// Runs audits.
public enum TokenAudit {
    /// The modes an audit of `set` covers: the files' modes, and before them the base values as
    /// a mode of their own when no mode stands for them: a CSS theme with `:root` and `.dark`
    /// has the modes `light` (`:root`) and `dark`. The base is taken to be represented when a
    /// mode's name says light (DTCG `$value` and Figma's default mode repeat a light mode) or no
    /// token has a base color. It is named `light` when another mode says dark, else `default`.
    public static func modes(of set: TokenSet) -> [String] {
        guard !set.modes.isEmpty else { return [] }
        let names = set.modes.map { $0.lowercased() }
        let baseColors = set.tokens.contains { t in
            switch t.base { case .css?, .alias?: return t.type != "channels"; default: return false }
        }
        guard !names.contains(where: { $0.contains("light") }), baseColors else { return set.modes }
        let base = names.contains(where: { $0.contains("dark") }) ? "light" : "default"
        return set.modes.contains(base) ? set.modes : [base] + set.modes
    }

    /// Audits `set` by `rules`.
    /// - Throws: `TokenError` for an unknown mode, more pairs than `options.maximumPairs`, and
    ///   (unless `options.reportUnresolved`) the first pair whose token cannot be resolved,
    ///   naming file, token, line and the alias chain.
    public static func run(_ set: TokenSet, rules: [PairRule], options: TokenAuditOptions = TokenAuditOptions()) throws(TokenError) -> TokenAuditReport {
        let resolver = TokenResolver(set)
        var modes: [String?] = set.modes.isEmpty ? [nil] : set.modes.map { Optional($0) }
        let available = Self.modes(of: set)
        if !set.modes.isEmpty && available.count > set.modes.count {
            // The base values are a mode of their own (CSS `:root` beside `.dark`).
            modes = available.map { Optional($0) }
        }
        if let wanted = options.modes {
            for m in wanted where !available.contains(m) {
                throw TokenError(reason: "mode '\(m)' is not in the files; their modes are \(available.isEmpty ? "none (one mode)" : available.joined(separator: ", "))")
            }
            modes = wanted.map { Optional($0) }
        }
        // Token paths sorted, for prefix ranges.
        let paths = set.tokens.map(\.path).sorted()
        let colorPaths = paths.filter { p in
            guard let t = resolver.token(p), t.type != "channels" else { return false }
            let values = [t.base].compactMap { $0 } + Array(t.modes.values)
            return values.contains { if case .other = $0 { return false } else { return true } }
        }
        func candidates(_ pattern: TokenPattern) -> ArraySlice<String> {
            let prefix = pattern.literalPrefix
            if prefix.isEmpty { return colorPaths[...] }
            var lo = 0, hi = colorPaths.count
            while lo < hi { let mid = (lo + hi) / 2; if colorPaths[mid] < prefix { lo = mid + 1 } else { hi = mid } }
            var end = lo
            while end < colorPaths.count && colorPaths[end].hasPrefix(prefix) { end += 1 }
            return colorPaths[lo..<end]
        }
        // Expand rules into (rule, fg, bg, backdrop) once; modes share them.
        struct Pair { var rule: Int; var fg: String; var bg: String; var backdrop: String? }
        var pairs: [Pair] = []
        var seen = Set<String>()
        var unmatched: [Int] = []
        for (ri, rule) in rules.enumerated() {
            var count = 0
            let fgCandidates: [String] = rule.foreground.isExact
                ? (resolver.token(rule.foreground.text).map { [$0.path] } ?? [])
                : Array(candidates(rule.foreground))
            for fg in fgCandidates {
                guard let captures = rule.foreground.match(fg) else { continue }
                let bgPattern = rule.background.substituting(captures)
                let bgs: [String] = bgPattern.isExact
                    ? (resolver.token(bgPattern.text).map { [$0.path] } ?? [])
                    : candidates(bgPattern).filter { bgPattern.match($0) != nil }
                for bg in bgs where bg != fg && !(rule.foreground.text == "**" && fg.hasPrefix("apple.")) {
                    var backdrop: String? = nil
                    if let b = rule.backdrop?.substituting(captures) {
                        backdrop = resolver.token(b.text)?.path
                    }
                    let key = "\(fg)\u{0}\(bg)\u{0}\(backdrop ?? "")\u{0}\(rule.role.rawValue)\u{0}\(rule.fontSize ?? 0)\u{0}\(rule.policy?.rawValue ?? "")"
                    guard seen.insert(key).inserted else { count += 1; continue }
                    pairs.append(Pair(rule: ri, fg: fg, bg: bg, backdrop: backdrop))
                    count += 1
                    if pairs.count * modes.count > options.maximumPairs {
                        throw TokenError(reason: "the rules make more than \(options.maximumPairs) pairs (\(pairs.count) pairs × \(modes.count) modes so far); narrow the patterns")
                    }
                }
            }
            if count == 0 { unmatched.append(ri) }
        }
        var results: [PairResult] = []
        results.reserveCapacity(pairs.count * modes.count)
        var summaries: [ModeSummary] = []
        var skippedPairs = 0
        var suggestions = 0
        for mode in modes {
            var summary = ModeSummary(mode: mode)
            for pair in pairs {
                let rule = rules[pair.rule]
                let target = rule.target(options.policy)
                var result = PairResult(rule: pair.rule, mode: mode, foregroundPath: pair.fg, backgroundPath: pair.bg,
                                        target: target, passes: false)
                // A pair whose token is not a color (an alias to a dimension, Material's `-rgb`
                // channel triplets a pattern also matched) is skipped and counted.
                if case .failure(.notAColor) = resolver.resolve(pair.fg, mode: mode) { skippedPairs += 1; continue }
                if case .failure(.notAColor) = resolver.resolve(pair.bg, mode: mode) { skippedPairs += 1; continue }
                func take(_ r: Result<ResolvedToken, ResolutionFailure>, _ path: String) throws(TokenError) -> ResolvedToken? {
                    switch r {
                    case .success(let t): return t
                    case .failure(let f):
                        let error: TokenError
                        switch f {
                        case .error(let e): error = e
                        case .noValue:
                            let t = resolver.token(path)
                            error = TokenError(file: t?.location.file, path: path, location: t?.location,
                                               reason: "has no value in mode '\(mode ?? "")' (defined only in \(t.map { Array($0.modes.keys).sorted().joined(separator: ", ") } ?? "other modes"))")
                        case .notAColor(let type):
                            let t = resolver.token(path)
                            error = TokenError(file: t?.location.file, path: path, location: t?.location(in: mode), reason: "is a \(type), not a color")
                        }
                        if options.reportUnresolved { result.unresolved = error; return nil }
                        throw error
                    }
                }
                let fg = try take(resolver.resolve(pair.fg, mode: mode), pair.fg)
                let bg = fg == nil ? nil : try take(resolver.resolve(pair.bg, mode: mode), pair.bg)
                var backdrop: ResolvedToken? = nil
                if let b = pair.backdrop, bg != nil { backdrop = try take(resolver.resolve(b, mode: mode), b) }
                if result.unresolved == nil, let fg, let bg {
                    result.foreground = fg
                    result.background = bg
                    result.backdrop = backdrop
                    let backdropSRGB = backdrop.map { DisplayColor($0.color) }.map { $0.alpha < 1 ? Compositing.sourceOver($0.srgb, alpha: $0.alpha, overOpaque: SIMD3(repeating: 1)) : $0.srgb }
                    let m = ContrastMeasurement(foreground: DisplayColor(fg.color), background: DisplayColor(bg.color), backdrop: backdropSRGB)
                    result.measurement = m
                    let v = target.value(of: m)
                    result.value = v
                    result.passes = v >= target.minimum
                    if !result.passes && options.suggest && target.isReachable && suggestions < options.maximumSuggestions {
                        suggestions += 1
                        let s = NearestPassingColor.suggest(foreground: fg.color, background: bg.color, backdrop: backdropSRGB, target: target)
                        result.suggestion = s.best
                    }
                }
                summary.pairs += 1
                if result.unresolved != nil { summary.unresolved += 1 } else if result.passes { summary.passing += 1 } else { summary.failing += 1 }
                results.append(result)
            }
            summaries.append(summary)
        }
        var notes = set.notes
        if suggestions >= options.maximumSuggestions {
            notes.append("only the first \(options.maximumSuggestions) failing pairs have a suggested color")
        }
        let skipped = set.tokens.filter { t in
            let values = [t.base].compactMap { $0 } + Array(t.modes.values)
            return !values.isEmpty && values.allSatisfy { if case .other = $0 { return true } else { return false } }
        }.count
        return TokenAuditReport(format: set.format, modes: modes, rules: rules, results: results, summaries: summaries,
                                tokenCount: set.tokens.count, skippedNonColor: skipped, skippedPairs: skippedPairs,
                                unmatchedRules: unmatched, notes: notes)
    }
}
