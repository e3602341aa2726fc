import ColorScience
import DesignTokens

/// JUnit XML of a token audit (`report: junit`): one `<testsuite>` per mode, one `<testcase>` per
/// pair, `<failure>` for a failing pair and `<error>` for one that could not be resolved. The
/// shape CI systems read (the Ant JUnit schema as GitHub Actions test reporters, GitLab and
/// Jenkins take it).
enum TokenAuditJUnit {
    /// XML text, as the SVG exports escape it (one rule for every XML the service writes).
    static func escape(_ s: String) -> String { SVGDrawing.xml(s) }

    static func document(_ report: TokenAuditReport) -> String {
        let failures = report.summaries.reduce(0) { $0 + $1.failing }
        let errors = report.summaries.reduce(0) { $0 + $1.unresolved }
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x += "<testsuites name=\"ContrastService token audit\" tests=\"\(report.results.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for summary in report.summaries {
            let mode = summary.mode ?? "default"
            x += "  <testsuite name=\"contrast \(escape(mode))\" tests=\"\(summary.pairs)\" failures=\"\(summary.failing)\" errors=\"\(summary.unresolved)\">\n"
            for r in report.results where r.mode == summary.mode {
                let location = r.foreground?.location ?? r.unresolved?.location
                let file = location.map { " file=\"\(escape($0.file))\" line=\"\($0.line)\"" } ?? ""
                x += "    <testcase classname=\"tokens.\(escape(mode))\" name=\"\(escape(r.foregroundPath)) on \(escape(r.backgroundPath))\"\(file)>"
                if let e = r.unresolved {
                    x += "\n      <error message=\"\(escape(e.message))\"/>\n    "
                } else if !r.passes {
                    var body = TokenAuditJSON.describe(r) + "\n" + r.target.basis
                    if let s = r.suggestion {
                        body += "\nnearest passing \(r.foregroundPath): \(ColorJSON.hex(s.foreground.srgb, alpha: s.foreground.alpha))"
                    }
                    x += "\n      <failure message=\"\(escape(TokenAuditJSON.describe(r)))\">\(escape(body))</failure>\n    "
                }
                x += "</testcase>\n"
            }
            x += "  </testsuite>\n"
        }
        x += "</testsuites>\n"
        return x
    }
}
