import AppleDesign
import ColorScience
import DesignTokens
import HTTPServer
import JSONValue

/// `POST /v1/tokens/audit`: a design system's token files in, the contrast of every named pair
/// in every mode out, as JSON, JUnit XML, SARIF 2.1.0 or a text table (docs/api/tokens.md).
///
/// The files are read by `DesignTokens.TokenFormats` (DTCG, Tokens Studio, Style Dictionary,
/// Figma Variables, CSS, Tailwind v4, Material), the pairs come from `rules` and presets, and
/// `TokenAudit` measures them. `failOn: "failure"` turns a failing audit into a 422 with the same
/// report, so `curl --fail-with-body` fails a CI job. Heavy path: runs on the heavy workers.
struct TokensAuditEndpoint {
    static let path = "/v1/tokens/audit"

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        do throws(Problem) {
            var req = try TokenAuditRequest.parse(request)
            // `variables` (taken out of the body by Fields.body): custom properties for var().
            req.options.variables = CSSRequestScope.variables?.values ?? [:]
            // Heavy work the server has already answered 503 (deadline-exceeded) stops early.
            if let ticket = request.workTicket { req.options.isCancelled = { ticket.isAbandoned } }
            var set: TokenSet
            do throws(TokenError) {
                set = try TokenFormats.read(req.files, format: req.format)
            } catch {
                throw Self.problem(error, files: req.files, query: req.fromQuery)
            }
            if req.presets.contains(.apple) {
                req.options.increasedContrastModes = try Self.addAppleBackgrounds(to: &set)
                req.rules += Self.placementRules(set)
                Self.noteLabelJudgedBackgrounds(&set)
            }
            // `curl -d @file` sends a form body without its line breaks: every location is line 1
            // (a new user's SARIF pointed every result at line 1, column 584 and on). Only a body
            // with no line break says so: `--data-binary` sends the same type with them intact
            // (a new user's pass: the note told them to do what they had done).
            // A CSS file only: JSON is often written on one line (Figma's REST answer is), and
            // its locations stay right (a new user's pass).
            // A short one-line file is taken as written so (a new user's pass: a two-declaration
            // file sent with --data-binary got the note); the note also says how to label it.
            if req.fromQuery, set.isStylesheet,
               request.header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
               request.body.count > Self.oneLineFileBytes, !request.body.contains(0x0A), !request.body.contains(0x0D) {
                set.notes.append("the file came as application/x-www-form-urlencoded with no line breaks, as curl -d sends a file: curl removes them, so every line number is 1; send it with --data-binary @file -H 'content-type: text/css' (which keeps them, and says what the body is)")
            }
            let report: TokenAuditReport
            do throws(TokenError) {
                report = try TokenAudit.run(set, rules: req.rules, options: req.options)
            } catch {
                if let limit = error.limit {
                    // Too much work for one request (pairs, pattern matching): the rules to narrow.
                    throw Problem.tooLarge(req.rulesField, "\(req.rulesField.display): \(error.reason)", limit: limit, status: 422)
                }
                // A mode asked for that the files lack is the request's fault (a new user's pass:
                // it had blamed /files).
                if error.inRequestedModes { throw Problem.invalidField(req.modesField, error.message) }
                throw Self.problem(error, files: req.files, query: req.fromQuery)
            }
            if request.workTicket?.isAbandoned == true {
                // The server answered 503 already: the report would be dropped, so it is not built.
                return HTTPResponse(status: 503, contentType: "application/problem+json", body: [])
            }
            // The answer's size, bounded before it is built.
            let size = TokenAuditSize.estimate(report, format: req.report)
            if size > TokenAuditSize.maximumBytes {
                throw Problem.tooLarge(req.rulesField, "the \(req.report.rawValue) report of \(report.results.count) pairs would be over \(TokenAuditSize.maximumBytes >> 20) MiB (many pairs or modes, long token or mode names, long values once var() is substituted); the limit is \(TokenAuditSize.maximumBytes >> 20) MiB: narrow \(req.rulesField.display), audit fewer modes (\(req.modesField.display)), or shorten the names",
                                       limit: TokenAuditSize.maximumBytes, status: 422)
            }
            // A large report reserves its size in the memory budget before it is built, as a
            // matrix answer does (a hostile pass: a 14.5 KB stylesheet of 19,200 pairs makes a
            // 21 MB report; sixteen slow readers held nine at once, peak RSS 469 MB under a
            // 64 MiB budget).
            if size >= MatrixEndpoint.reservedAnswerBytes,
               let refused = ImageEndpoint.reserve(size, for: request, what: "\(req.report.rawValue) token audit report") {
                return refused
            }
            let warned = report.hasWarnings
            // A passing audit that fails the job on its warnings says so in the report itself (a
            // design-systems pass, stop 39: a 422 whose JUnit had no failure and whose text
            // ended in PASS, so the CI job went red with a green test report).
            let failedOnWarnings = req.failOn == .warning && report.passes && warned
            let status = (req.failOn == .failure && !report.passes) || (req.failOn == .warning && (!report.passes || warned)) ? 422 : 200
            var response: HTTPResponse
            switch req.report {
            case .json:
                response = HTTPResponse(status: status, contentType: "application/json",
                                        body: TokenAuditJSON.document(report, policy: req.options.policy, failedOnWarnings: failedOnWarnings).serialized())
            case .junit:
                response = HTTPResponse(status: status, contentType: "application/xml; charset=utf-8",
                                        body: Array(TokenAuditJUnit.document(report, failedOnWarnings: failedOnWarnings).utf8))
            case .sarif:
                response = HTTPResponse(status: status, contentType: "application/sarif+json",
                                        body: TokenAuditSARIF.document(report, firstFile: req.files.first?.name).serialized())
            case .text:
                response = HTTPResponse(status: status, contentType: "text/plain; charset=utf-8",
                                        body: Array(TokenAuditText.document(report, failedOnWarnings: failedOnWarnings).utf8))
            }
            response.headers.append(("X-Audit-Passes", report.passes ? "true" : "false"))
            return response
        } catch {
            return error.response
        }
    }

    /// A CSS body without line breaks longer than this, sent as a form, gets the `curl -d` note.
    static let oneLineFileBytes = 512

    /// A reading or audit error as a 400 naming the file, token and line; for a pair that cannot
    /// be resolved, how to get past it (`unresolved: "report"`, `modes`), in the request's form.
    static func problem(_ error: TokenError, files: [TokenFile], query: Bool = false) -> Problem {
        var extra: [(String, JSON)] = []
        // Client text, bounded as everywhere (ClientText): cut to 64 characters with `…`, and
        // then flagged, as `pointerShortened` is (a CI user's pass: a script annotating from a
        // cut `file` got a path that does not exist; `detail` has it whole).
        if let file = error.file ?? error.location?.file {
            let (text, length) = ClientText.cut(file)
            extra.append(("file", .string(text)))
            if length != nil { extra.append(("fileShortened", .bool(true))) }
        }
        if let path = error.path {
            let (text, length) = ClientText.cut(path)
            extra.append(("token", .string(text)))
            if length != nil { extra.append(("tokenShortened", .bool(true))) }
        }
        if let l = error.location {
            extra.append(("line", .number(Double(l.line))))
            extra.append(("column", .number(Double(l.column))))
        }
        var field = FieldPath.body("/files")
        if let file = error.file ?? error.location?.file, let i = files.firstIndex(where: { $0.name == file }) {
            field = FieldPath.body("/files/\(i)/content")
        }
        var detail = error.message.count > 600 ? String(error.message.prefix(599)) + "…" : error.message
        if let pair = error.unresolvedPair {
            // Said once: a reason that names the mode already ("has no value in mode 'light'") had
            // it again in parentheses (a design-system team's pass).
            if let mode = pair.mode, !detail.contains("mode '\(mode)'") { detail += " (in mode '\(mode)')" }
            // A var() the files do not define is given in the JSON form's `variables`, which the
            // raw form has no parameter for (a new user's pass was sent to unresolved=report).
            if CSSVariables.undefinedName(in: error.reason) != nil
                || (error.reason.hasPrefix("alias to '--") && error.reason.contains("which is not a token of the submitted files")) {
                detail += query
                    ? ". Define it in the file, or send the JSON form ({\"files\": [...], \"variables\": {\"--brand\": \"#0066cc\"}}), whose variables fill var()"
                    : ". Define it in the file or in \"variables\" ({\"--brand\": \"#0066cc\"})"
            }
            let report = query ? "query parameter unresolved=report" : "\"unresolved\": \"report\""
            detail += (detail.hasSuffix("?") || detail.hasSuffix(".") ? " " : ". ") + "To audit the other pairs, send \(report): pairs whose tokens cannot be resolved are then listed as unresolved and do not fail the audit"
            if !pair.resolvesIn.isEmpty {
                let modes = pair.resolvesIn.prefix(8).joined(separator: ",")
                detail += "; or audit only modes where this token resolves, " + (query ? "modes=\(modes.replacingOccurrences(of: " ", with: "%20"))" : "\"modes\": [\(pair.resolvesIn.prefix(8).map { "\"\($0)\"" }.joined(separator: ", "))]")
                // A cut list says so (a hostile pass: the ninth of nine modes was left out unsaid).
                if pair.resolvesIn.count > 8 { detail += " (the first 8 of the \(pair.resolvesIn.count) modes where it resolves)" }
            }
            detail += " (docs/api/tokens.md)"
        }
        // A raw file is the body itself: no JSON member holds it, so no pointer (a plugin
        // author's pass: `/files/0/content` named a member the client never sent).
        if query {
            return Problem(status: 400, kind: "invalid-tokens", title: "Invalid design tokens",
                           detail: detail, pointer: nil, parameter: nil, extra: extra)
        }
        return Problem(status: 400, kind: "invalid-tokens", title: "Invalid design tokens",
                       detail: detail, field: field, extra: extra)
    }

    /// The Apple preset's pairs of a file ContrastService's palette export wrote: each color on
    /// the backgrounds its palette placed it `on` (`TokenPlacement`), judged by its role.
    static func placementRules(_ set: TokenSet) -> [PairRule] {
        var rules: [PairRule] = []
        for (fg, placement) in set.placements.sorted(by: { $0.key < $1.key }) where placement.role != "background" {
            let role: PairRole = placement.role == "icon" ? .icon : placement.role == "nonText" ? .nonText : .text
            for bg in placement.on {
                // Export paths are identifiers (letters, digits, `-`, `_`): no pattern syntax.
                guard !fg.contains("*"), !fg.contains("{"), !bg.contains("*"), !bg.contains("{"),
                      let f = try? TokenPattern(fg), let b = try? TokenPattern(bg) else { continue }
                var rule = PairRule(foreground: f, background: b, role: role, source: "preset apple (placed on \(bg) by the palette)")
                rule.preset = .apple
                rules.append(rule)
            }
        }
        return rules
    }

    /// Our export's backgrounds with no palette text on them, which its palette judged by the
    /// system label (or the other appearance's, where that contrasts more): no pair of the file's
    /// tokens measures that, so the palette's own verdict is reported, a warning where it failed
    /// (a hostile pass, stop 49: a card failing under the label passed the audit in silence).
    static func noteLabelJudgedBackgrounds(_ set: inout TokenSet) {
        let textOn = Set(set.placements.values.flatMap(\.on))
        let judged = set.placements.filter { $0.value.role == "background" && !textOn.contains($0.key) }.sorted { $0.key < $1.key }
        guard !judged.isEmpty else { return }
        var failing: [String] = []
        for (path, p) in judged {
            let modes = p.palettePasses.filter { !$0.value }.map(\.key).sorted()
            if !modes.isEmpty { failing.append("\(path) (\(modes.joined(separator: ", ")))") }
        }
        let names = judged.prefix(8).map(\.key).joined(separator: ", ") + (judged.count > 8 ? ", …" : "")
        set.notes.append("\(judged.count) background\(judged.count == 1 ? "" : "s") with no text of the palette on \(judged.count == 1 ? "it" : "them") (\(names)) \(judged.count == 1 ? "was" : "were") judged by the palette with the system label, which no pair of these tokens measures; the palette's own verdicts are taken from the file")
        if !failing.isEmpty {
            set.coverageWarnings.append("the palette found these backgrounds failing under the system label, which this audit does not measure: \(failing.joined(separator: "; "))")
        }
    }

    /// Whether a mode's name says increased contrast (`light-increased-contrast`, our export's;
    /// `dark-high-contrast`, `HighContrast`): the Apple preset measures it on the system
    /// backgrounds with Increase Contrast on, against the raised targets.
    static func saysIncreasedContrast(_ mode: String) -> Bool {
        let m = mode.lowercased().filter { $0.isLetter }
        return m.contains("increasedcontrast") || m.contains("highcontrast")
    }

    /// The Apple preset's backgrounds: iOS system backgrounds as tokens `apple.<name>`, light in
    /// the base, dark in every mode whose name says dark (modes `light` and `dark` when the
    /// files have none), and with Increase Contrast on in every mode whose name says so (their
    /// names are returned: there the targets are raised, as the palette's are).
    static func addAppleBackgrounds(to set: inout TokenSet) throws(Problem) -> Set<String> {
        let data = try AppleData.get()
        if set.modes.isEmpty { set.modes = ["light", "dark"] }
        // Files whose colors all lie in modes (a dark-only `.dark { … }`, Primer's dark.css) get
        // no base mode from the system backgrounds' own light values: those would make a `light`
        // mode where no token of the files has a value (a new user's pass: half the pairs of
        // dark.css unresolved, a one-token file refused).
        if !set.modes.isEmpty, set.baseMode == nil, !TokenAudit.hasBaseColors(set) { set.baseMode = set.modes.first }
        let names = ["systemBackground", "secondarySystemBackground", "tertiarySystemBackground",
                     "systemGroupedBackground", "secondarySystemGroupedBackground", "tertiarySystemGroupedBackground"]
        let at = TokenLocation(file: "(Apple system colors)", line: 1, column: 1)
        let increased = Set(set.modes.filter(saysIncreasedContrast))
        for name in names {
            guard let light = data.catalog.resolve(name, in: .default)?.value.color else { continue }
            func css(_ c: Color) -> TokenValue { .css(ColorJSON.hex(DisplayColor(c).srgb, alpha: DisplayColor(c).alpha)) }
            var modes: [String: TokenValue] = [:]
            for m in set.modes {
                let dark = m.lowercased().contains("dark")
                guard dark || increased.contains(m) else { continue }
                let context = AppleColorContext(appearance: dark ? .dark : .light, level: .base,
                                                contrast: increased.contains(m) ? .increased : .standard)
                if let c = data.catalog.resolve(name, in: context)?.value.color { modes[m] = css(c) }
            }
            set.tokens.append(DesignToken(path: "apple.\(name)", base: css(light), modes: modes, location: at))
            set.fixedTokens.insert("apple.\(name)")
        }
        return increased
    }
}
