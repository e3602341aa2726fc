import Foundation
import ColorScience
import DesignTokens
import JSONValue

/// SARIF 2.1.0 (OASIS) of a token audit (`report: sarif`): one result per failing or unresolved
/// pair, located at the foreground token's line and column in the submitted file, so code review
/// tools (GitHub code scanning, GitLab) annotate the line that defines the color.
enum TokenAuditSARIF {
    /// A file name as a relative URI reference (SARIF 2.1.0 §3.10.2, RFC 3986): every byte but
    /// letters, digits, `-._~` and `/` percent-encoded, so spaces, `%`, `#`, `?`, `:` and
    /// controls in a client's file name cannot break or redirect the reference.
    /// A leading `/` is encoded too: `//evil.example/x.css` would be a network-path reference to
    /// another host, `/etc/passwd` an absolute one (a hostile pass); `%2F…` stays a relative path.
    static func uri(_ name: String) -> String {
        let encoded = name.addingPercentEncoding(withAllowedCharacters: uriUnescaped) ?? ""
        return encoded.hasPrefix("/") ? "%2F" + encoded.dropFirst() : encoded
    }

    /// One part of a pair's fingerprint: `\` and `|` escaped with `\`.
    static func fingerprintPart(_ s: String) -> String {
        guard s.contains("|") || s.contains("\\") else { return s }
        return s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
    }
    /// RFC 3986 unreserved characters and `/`.
    static let uriUnescaped = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")

    /// Message texts a code-scanning page or a log shows: client names in them have their hidden
    /// characters (bidi overrides, zero-width spaces, newlines, ESC) written as `\u202E`, as the
    /// text report writes them (a hostile pass: U+202E, a forged line and a terminal color code
    /// came through a token's name). JSON escaping alone keeps them in the parsed text.
    static func notification(_ level: String, _ text: String) -> JSON {
        .object([("level", .string(level)), ("message", .object([("text", .string(ClientText.visible(text)))]))])
    }

    /// Where a target's criterion is explained: WCAG 2.2 SC 1.4.3, 1.4.6 or 1.4.11 as its basis
    /// names it, or APCA's documentation (the APCA-W3 readme) for an Lc target.
    static func helpURI(_ target: ContrastTarget) -> String {
        if target.metric == .apca { return "https://github.com/Myndex/apca-w3#readme" }
        if target.basis.contains("1.4.11") { return "https://www.w3.org/TR/WCAG22/#non-text-contrast" }
        if target.basis.contains("1.4.6") { return "https://www.w3.org/TR/WCAG22/#contrast-enhanced" }
        return "https://www.w3.org/TR/WCAG22/#contrast-minimum"
    }

    /// `firstFile`: the first submitted file's name, where the audit's warnings are located.
    static func document(_ report: TokenAuditReport, firstFile: String? = nil) -> JSON {
        var rules: [JSON] = []
        var ruleIDs: [String: Int] = [:]
        var results: [JSON] = []
        // A rule per metric, minimum and role, each citing its own criterion: the id had been the
        // metric and minimum alone, so an icon's 3:1 (SC 1.4.11) was filed under large text's 3:1
        // (SC 1.4.3), and every rule's help pointed at SC 1.4.3 (a CI engineer's pass, stop 38).
        func ruleID(_ r: PairResult) -> String {
            let role = report.rules.indices.contains(r.rule) ? report.rules[r.rule].role.rawValue : "text"
            let id = r.unresolved != nil ? "tokens/unresolved" : "contrast/\(r.target.metric.rawValue)-\(ContrastTarget.format(r.target.minimum))-\(role)"
            if ruleIDs[id] == nil {
                ruleIDs[id] = rules.count
                let text = r.unresolved != nil ? "A token of a checked pair cannot be resolved to a color" : r.target.basis
                var rule: [(String, JSON)] = [
                    ("id", .string(id)), ("name", .string(r.unresolved != nil ? "UnresolvedToken" : "InsufficientContrast")),
                    ("shortDescription", .object([("text", .string(text))])),
                ]
                // An unresolved token is no contrast criterion's: no help link (a new user's pass:
                // it pointed at SC 1.4.3); the result's message names the dangling reference.
                if r.unresolved == nil { rule.append(("helpUri", .string(helpURI(r.target)))) }
                rules.append(.object(JSONObject(rule)))
            }
            return id
        }
        for r in report.results where !r.passes {
            let id = ruleID(r)
            var message = TokenAuditJSON.describe(r)
            if let s = r.suggestion { message += "; nearest passing color for \(r.foregroundPath): \(TokenAuditJSON.written(s.foreground, r.suggestionText))\(r.suggestionConflict.map { " (\($0))" } ?? "")" }
            if let s = r.backgroundSuggestion { message += ", or for \(r.backgroundPath) (keeping the text light or dark): \(TokenAuditJSON.written(s.background, r.backgroundSuggestionText))" }
            var o = JSONObject()
            o.append("ruleId", .string(id))
            o.append("ruleIndex", .number(Double(ruleIDs[id]!)))
            // An unresolved pair (reported on request) does not fail the audit: a warning.
            o.append("level", .string(r.unresolved != nil ? "warning" : "error"))
            o.append("message", .object([("text", .string(ClientText.visible(message)))]))
            if let l = r.foreground?.tokenLocation ?? r.unresolved?.location {
                o.append("locations", .array([.object([("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(uri(l.file)))])),
                    ("region", .object([("startLine", .number(Double(l.line))), ("startColumn", .number(Double(l.column)))])),
                ]))])]))
            }
            // Mode, foreground and background joined by `|`, each with `\` and `|` escaped, so that
            // two pairs never share one (a hostile pass: `a|b` on `c` and `a` on `b|c` did, and
            // code scanning folds alerts by it); names without them keep the fingerprints they had.
            let parts = [r.mode ?? "", r.foregroundPath, r.backgroundPath].map(Self.fingerprintPart)
            o.append("partialFingerprints", .object([("pair", .string(parts.joined(separator: "|")))]))
            results.append(.object(o))
        }
        // The audit's warnings, each with its rule (id, name, description) and its text; a result
        // adds `advice` to the text.
        typealias Warning = (id: String, name: String, description: String, text: String, advice: String)
        let warnings: [Warning] = report.warnedUnmatchedRules.map { i in
            ("audit/unmatched-rule", "UnmatchedRule", "A pair rule matched no tokens",
             TokenAuditJSON.unmatchedRuleWarning(report.rules[i]), ": check its token names")
        } + (report.nothingCheckedReason.map { [("audit/nothing-checked", "NothingChecked", "The audit checked no pair", $0, "")] } ?? [])
          + report.coverageWarnings.map { ("audit/coverage", "PairCoverage", "Tokens the rules leave unchecked", $0, "") }
        // Warnings and the readers' notes as the run's tool execution notifications (SARIF 2.1.0
        // §3.20.21, §3.58).
        let notifications = warnings.map { Self.notification("warning", $0.text) } + report.notes.map { Self.notification("note", $0) }
        // The warnings as results too, at level warning on the first file's first line: with
        // `failOn: warning` they fail the job, and code scanning shows only results, each with a
        // location (a new user's pass, stop 49: a 422 whose SARIF had `results: []`).
        for w in warnings {
            if ruleIDs[w.id] == nil {
                ruleIDs[w.id] = rules.count
                rules.append(.object([("id", .string(w.id)), ("name", .string(w.name)), ("shortDescription", .object([("text", .string(w.description))]))]))
            }
            let text = w.text + w.advice
            var o = JSONObject()
            o.append("ruleId", .string(w.id))
            o.append("ruleIndex", .number(Double(ruleIDs[w.id]!)))
            o.append("level", .string("warning"))
            o.append("message", .object([("text", .string(ClientText.visible(text)))]))
            if let firstFile {
                o.append("locations", .array([.object([("physicalLocation", .object([
                    ("artifactLocation", .object([("uri", .string(uri(firstFile)))])),
                    ("region", .object([("startLine", .number(1)), ("startColumn", .number(1))])),
                ]))])]))
            }
            o.append("partialFingerprints", .object([("warning", .string("\(w.id)|\(text.prefix(200))"))]))
            results.append(.object(o))
        }
        var invocation = JSONObject()
        invocation.append("executionSuccessful", .bool(true))
        if !notifications.isEmpty { invocation.append("toolExecutionNotifications", .array(notifications)) }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string("ContrastService")), ("version", .string(ContrastService.version)),
                    ("informationUri", .string("https://www.w3.org/TR/WCAG22/")), ("rules", .array(rules)),
                ]))])),
                ("invocations", .array([.object(invocation)])),
                ("results", .array(results)),
            ])])),
        ])
    }
}
