import ColorScience
import DesignTokens

/// JUnit XML of a token audit (`report: junit`): one `<testsuite>` per mode, one `<testcase>` per
/// pair, `<failure>` for a failing pair and `<skipped>` for one that could not be resolved (reported
/// on request, it does not fail the audit). The
/// shape CI systems read (the Ant JUnit schema as GitHub Actions test reporters, GitLab and
/// Jenkins take it).
enum TokenAuditJUnit {
    /// Client text (token paths, modes, file names, messages naming them) as XML text, escaped as
    /// the SVG exports escape it (one rule for every XML the service writes), its hidden
    /// characters written `\u202E` as the text report writes them: a CI page shows the parsed
    /// text, where a bidi override, a newline (a forged `PASS` line) or ESC would act (a hostile
    /// pass). Our own newlines between lines are kept by escaping each piece, not the joined text.
    static func text(_ s: String) -> String { SVGDrawing.xml(ClientText.visible(s)) }

    /// `failedOnWarnings`: the pairs pass but `failOn: "warning"` fails the audit on its warnings:
    /// a suite `contrast audit warnings` holds one failing test case per warning (a rule that
    /// matched no pair; the unresolved pairs of a mode), so that the report CI shows is red too.
    static func document(_ report: TokenAuditReport, failedOnWarnings: Bool = false) -> String {
        let failures = report.summaries.reduce(0) { $0 + $1.failing }
        // Unresolved and exempt pairs are the skipped test cases, as each suite counts them (a
        // new user's pass: the root said 0 where the suites' exempt cases made 4).
        let skipped = report.summaries.reduce(0) { $0 + $1.unresolved }
            + report.results.filter { $0.unresolved == nil && TokenAuditJSON.isExempt($0, in: report) }.count
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let empty = report.nothingCheckedReason == nil ? 0 : 1
        // The warnings that fail the audit under failOn=warning, one test case each.
        var warningCases: [(name: String, message: String)] = []
        if failedOnWarnings {
            for i in report.warnedUnmatchedRules { warningCases.append((TokenAuditJSON.ruleLabel(report.rules[i]), "matched no pair")) }
            for w in report.coverageWarnings { warningCases.append(("not audited", w)) }
            for s in report.summaries where s.unresolved > 0 {
                warningCases.append(("unresolved pairs in \(s.mode ?? "default")", "\(s.unresolved) pair\(s.unresolved == 1 ? "" : "s") could not be resolved (see the skipped test cases)"))
            }
        }
        let warned = warningCases.count
        x += "<testsuites name=\"ContrastService token audit\" tests=\"\(report.results.count + empty + warned)\" failures=\"\(failures + empty + warned)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        // Warnings and the readers' notes go to the first suite's <system-out> (the Ant JUnit
        // schema has no place for them on <testsuites>).
        var messages = report.warnedUnmatchedRules.map { "warning: " + TokenAuditJSON.unmatchedRuleWarning(report.rules[$0]) }
        if let reason = report.nothingCheckedReason { messages.append("warning: \(reason)") }
        // The unresolved pairs' counts too, as the text report gives them (a CI user's pass: the
        // JUnit log said nothing of eight modes' unresolved pairs but for skipped cases).
        messages += report.unresolvedWarnings.map { "warning: \($0)" }
        messages += report.coverageWarnings.map { "warning: \($0)" }
        messages += report.notes.map { "note: \($0)" }
        for (index, summary) in report.summaries.enumerated() {
            let mode = summary.mode ?? "default"
            let exempt = report.results.filter { $0.mode == summary.mode && TokenAuditJSON.isExempt($0, in: report) }.count
            x += "  <testsuite name=\"contrast \(text(mode))\" tests=\"\(summary.pairs)\" failures=\"\(summary.failing)\" errors=\"0\" skipped=\"\(summary.unresolved + exempt)\">\n"
            for r in report.results where r.mode == summary.mode {
                let location = r.foreground?.tokenLocation ?? r.unresolved?.location
                let file = location.map { " file=\"\(text($0.file))\" line=\"\($0.line)\"" } ?? ""
                x += "    <testcase classname=\"tokens.\(text(mode))\" name=\"\(text(r.foregroundPath)) on \(text(r.backgroundPath))\"\(file)>"
                if let e = r.unresolved {
                    x += "\n      <skipped message=\"unresolved: \(text(e.message))\"/>\n    "
                } else if TokenAuditJSON.isExempt(r, in: report) {
                    // No minimum applies (WCAG 2.2 SC 1.4.3 exempts inactive components): the
                    // measured value alone, not "meets 1:1".
                    let measured = r.measurement.map { " at \(r.target.measuredText($0))" } ?? ""
                    x += "\n      <skipped message=\"exempt (role disabled: inactive components have no contrast minimum, WCAG 2.2 SC 1.4.3): \(text(r.foregroundPath)) on \(text(r.backgroundPath))\(text(measured))\"/>\n    "
                } else if !r.passes {
                    // One line each, each escaped: a newline in a name cannot start a line.
                    var body = [TokenAuditJSON.describe(r), r.target.basis]
                    if let s = r.suggestion {
                        body.append("nearest passing \(r.foregroundPath): \(TokenAuditJSON.written(s.foreground, r.suggestionText))\(r.suggestionConflict.map { " (\($0))" } ?? "")")
                    }
                    if let s = r.backgroundSuggestion {
                        body.append("or nearest passing \(r.backgroundPath), keeping the text light or dark: \(TokenAuditJSON.written(s.background, r.backgroundSuggestionText))")
                    }
                    x += "\n      <failure message=\"\(text(TokenAuditJSON.describe(r)))\">\(body.map(text).joined(separator: "\n"))</failure>\n    "
                }
                x += "</testcase>\n"
            }
            if index == 0 && !messages.isEmpty {
                x += "    <system-out>\(messages.map(text).joined(separator: "\n"))</system-out>\n"
            }
            x += "  </testsuite>\n"
        }
        if let reason = report.nothingCheckedReason {
            // Nothing measured is a failure, so CI does not show an empty, green suite.
            x += "  <testsuite name=\"contrast audit\" tests=\"1\" failures=\"1\" errors=\"0\">\n"
            x += "    <testcase classname=\"tokens\" name=\"pairs checked\">\n      <failure message=\"\(text(reason))\"/>\n    </testcase>\n"
            x += "  </testsuite>\n"
        }
        if !warningCases.isEmpty {
            x += "  <testsuite name=\"contrast audit warnings\" tests=\"\(warned)\" failures=\"\(warned)\" errors=\"0\">\n"
            for w in warningCases {
                x += "    <testcase classname=\"tokens.warnings\" name=\"\(text(w.name))\">\n      <failure message=\"\(text(w.message)) (failOn=warning)\"/>\n    </testcase>\n"
            }
            x += "  </testsuite>\n"
        }
        x += "</testsuites>\n"
        return x
    }
}
