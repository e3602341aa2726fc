@testable import ContrastAPI
import DesignTokens
import Testing

/// The report size estimate is an upper bound for every format, also when client text is all
/// characters the formats escape.
@Suite struct TokenAuditSizeTests {
    /// Each format's estimate of `report` is at least the size of the report it writes.
    func expectEstimatesBound(_ report: TokenAuditReport, sourceLocation: SourceLocation = #_sourceLocation) {
        let sizes: [(TokenAuditRequest.Report, Int)] = [
            (.json, TokenAuditJSON.document(report, policy: .wcagAA).serialized().count),
            (.junit, TokenAuditJUnit.document(report).utf8.count),
            (.sarif, TokenAuditSARIF.document(report).serialized().count),
            (.text, TokenAuditText.document(report).utf8.count),
        ]
        for (format, actual) in sizes {
            let estimate = TokenAuditSize.estimate(report, format: format)
            #expect(estimate >= actual, "\(format): estimate \(estimate) < \(actual)", sourceLocation: sourceLocation)
        }
    }

    @Test("the estimate is at least the real size of each report")
    func upperBound() throws {
        let names = ["plain", "q\"&<>\\", "\u{1}\u{1B}[8m\u{7F}", "é€😀", String(repeating: "\u{1}", count: 300)]
        var tokens: [DesignToken] = []
        for (i, n) in names.enumerated() {
            let at = TokenLocation(file: "f \u{1}#%?<&\".json", line: i + 1, column: 1)
            tokens.append(DesignToken(path: "fg.\(n)", base: .alias("fg.\(n).base\u{1}"), modes: ["m\u{1}<\"": .css("#777")], location: at))
            tokens.append(DesignToken(path: "fg.\(n).base\u{1}", base: .css("#888"), location: at))
            tokens.append(DesignToken(path: "bg.\(n)", base: .css("#fff"), modes: ["m\u{1}<\"": .css("#000")], location: at))
        }
        tokens.append(DesignToken(path: "fg.dangling", base: .alias("nowhere\u{1}<"), modes: ["m\u{1}<\"": .alias("nowhere")],
                                  location: TokenLocation(file: "x", line: 1, column: 1)))
        let set = TokenSet(format: .dtcg, tokens: tokens, modes: ["m\u{1}<\""])
        var options = TokenAuditOptions()
        options.reportUnresolved = true
        let rules = [PairRule(foreground: try TokenPattern("fg.*"), background: try TokenPattern("bg.*"), source: "rules[0]"),
                     PairRule(foreground: try TokenPattern("fg.dangling"), background: try TokenPattern("bg.plain"), source: "rules[1]")]
        let report = try TokenAudit.run(set, rules: rules, options: options)
        #expect(report.results.count > 40)
        expectEstimatesBound(report)
    }

    @Test("unresolved pairs with long reasons: the estimate still bounds each report")
    func unresolvedReasons() throws {
        // A hostile pass: 19,900 pairs through one alias chain of 500-character names longer
        // than 64; each pair's reason (about 700 bytes) is written twice in JSON with the
        // 500-character token met, and the 44.5 MB answer had been estimated under 32 MiB.
        let long = String(repeating: "q", count: 500)
        let at = TokenLocation(file: "t.json", line: 1, column: 1)
        var tokens = (0..<70).map { DesignToken(path: "c.\(long)\($0)", base: .alias("c.\(long)\($0 + 1)"), location: at) }
        tokens.append(DesignToken(path: "c.\(long)70", base: .css("#fff"), location: at))
        tokens.append(DesignToken(path: "c.bg", base: .css("#000"), location: at))
        tokens.append(DesignToken(path: "c.h", base: .alias("c.\(long)0"), location: at))
        tokens += (0..<200).map { DesignToken(path: "f.t\($0)", base: .alias("c.h"), location: at) }
        var options = TokenAuditOptions()
        options.reportUnresolved = true
        let report = try TokenAudit.run(TokenSet(format: .dtcg, tokens: tokens, modes: []),
                                        rules: [PairRule(foreground: try TokenPattern("f.*"), background: try TokenPattern("c.bg"), source: "rules[0]")],
                                        options: options)
        #expect(report.results.count == 200 && report.results.allSatisfy { $0.unresolved?.reason.hasPrefix("alias chain longer than 64: f.t") == true })
        expectEstimatesBound(report)
    }
}
