@testable import ContrastAPI
import DesignTokens
import Testing

/// The report size estimate is an upper bound for every format, also when client text is all
/// characters the formats escape.
@Suite struct TokenAuditSizeTests {
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
        let sizes: [(TokenAuditRequest.Report, Int)] = [
            (.json, TokenAuditJSON.document(report, policy: .wcagAA).serialized().count),
            (.junit, TokenAuditJUnit.document(report).utf8.count),
            (.sarif, TokenAuditSARIF.document(report).serialized().count),
            (.text, TokenAuditText.document(report).utf8.count),
        ]
        for (format, actual) in sizes {
            let estimate = TokenAuditSize.estimate(report, format: format)
            #expect(estimate >= actual, "\(format): estimate \(estimate) < \(actual)")
        }
    }
}
