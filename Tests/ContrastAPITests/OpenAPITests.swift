import AppleDesign
import ColorScience
@testable import ContrastAPI
import Foundation
import HTTPServer
import ImageProcessing
import JSONValue
import TestSupport
import Testing

/// `GET /openapi.json` (`Sources/ContrastAPI/Resources/openapi.json`): the document is OpenAPI 3.1
/// with every reference resolving, lists exactly the router's routes and methods, is served as
/// checked in (open, cacheable), and real answers of every operation (successes and errors) have a
/// documented status and media type and match the documented schema. `.ci/schemathesis` fuzzes
/// the live server against the same document.
@Suite(.serialized)
struct OpenAPITests {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The checked-in document.
    static let document: JSON = {
        let url = repositoryRoot.appendingPathComponent("Sources/ContrastAPI/Resources/openapi.json")
        guard let data = try? Data(contentsOf: url), let json = try? JSONParser.parse(Array(data)) else {
            return .null
        }
        return json
    }()

    var doc: JSON { Self.document }

    /// `(METHOD, path)` → operation object.
    var operations: [String: JSON] {
        var out: [String: JSON] = [:]
        guard case .object(let paths)? = doc["paths"] else { return out }
        for (path, item) in paths.members {
            guard case .object(let o) = item else { continue }
            for (method, operation) in o.members where Self.methods.contains(method) {
                out["\(method.uppercased()) \(path)"] = operation
            }
        }
        return out
    }

    // MARK: The document itself

    @Test func documentIsOpenAPI31() throws {
        guard case .object(let root) = doc else {
            Issue.record("Sources/ContrastAPI/Resources/openapi.json is missing or not valid JSON")
            return
        }
        #expect(doc["openapi"]?.string?.hasPrefix("3.1.") == true)
        #expect(doc["info"]?["title"]?.string == "ContrastService")
        #expect(doc["info"]?["version"]?.string == ContrastService.version)
        #expect(root["paths"] != nil && root["components"]?["schemas"] != nil)

        // Every $ref resolves; operation ids are unique; every operation answers 200 and describes
        // its problems as application/problem+json.
        var refs: [String] = []
        func walk(_ v: JSON) {
            switch v {
            case .object(let o):
                for (k, x) in o.members {
                    if k == "$ref", case .string(let r) = x { refs.append(r) } else { walk(x) }
                }
            case .array(let a): a.forEach(walk)
            default: break
            }
        }
        walk(doc)
        #expect(refs.count > 100)
        for r in Set(refs) {
            #expect(SchemaValidator(document: doc).resolve(r) != nil, "unresolved $ref \(r)")
        }
        var ids: Set<String> = []
        let validator = SchemaValidator(document: doc)
        for (key, operation) in operations {
            let id = operation["operationId"]?.string ?? ""
            #expect(!id.isEmpty && ids.insert(id).inserted, "\(key): missing or repeated operationId \(id)")
            guard case .object(let responses)? = operation["responses"] else {
                Issue.record("\(key) has no responses")
                continue
            }
            #expect(responses["200"] != nil, "\(key) documents no 200")
            // Any request can be refused for its query (414) or header fields (431) before it is
            // routed; schemathesis found an undocumented 414 on GET /v1/contrast.
            #expect(responses["414"] != nil && responses["431"] != nil, "\(key) does not document 414 and 431")
            for (status, response) in responses.members where Int(status).map({ $0 >= 400 }) == true {
                let r = validator.deref(response)
                #expect(r["content"]?["application/problem+json"]?["schema"]?["$ref"]?.string == "#/components/schemas/Problem",
                        "\(key) \(status) is not a problem")
            }
        }
    }

    @Test func documentListsExactlyTheRoutesOfTheRouter() {
        let router = ContrastService(configuration: testConfiguration()).router
        var routed: Set<String> = []
        for path in router.paths {
            for method in (router.allowedMethods(for: path) ?? "").split(separator: ",") {
                let m = method.trimmingCharacters(in: .whitespaces)
                if m != "HEAD" && m != "OPTIONS" { routed.insert("\(m) \(path)") }
            }
        }
        let documented = Set(operations.keys)
        #expect(routed.count >= 25)
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
        #expect(routed.subtracting(documented).isEmpty, "routed but not documented: \(routed.subtracting(documented).sorted())")
    }

    /// A query parameter with a `default` is sent by generated clients on every call (fresh-clone
    /// CI: openapi-python-client sent `?gamutMethod=css4` beside the token audit's JSON body,
    /// which refuses query parameters): defaults are said in descriptions, not as `default`.
    @Test func queryParametersHaveNoDefault() {
        for (key, op) in operations {
            for p in op["parameters"]?.array ?? [] where p["in"] == "query" {
                #expect(p["schema"]?["default"] == nil, "\(key): query parameter \(p["name"]?.string ?? "?") has a default")
            }
        }
    }

    @Test func requestExamplesAreValidAndAnswered200() throws {
        let validator = SchemaValidator(document: doc)
        guard case .object(let schemas)? = doc["components"]?["schemas"] else {
            Issue.record("openapi.json has no components.schemas object")
            return
        }
        var checked = 0
        for (name, schema) in schemas.members {
            for example in schema["examples"]?.array ?? [] {
                let errors = validator.errors(example, against: .object([("$ref", .string("#/components/schemas/\(name)"))]))
                #expect(errors.isEmpty, "example of \(name) does not match it: \(errors.prefix(3))")
                checked += 1
            }
        }
        #expect(checked >= 10)
        // Request-body examples are what schemathesis sends first: each is answered 200 as documented.
        var answered = 0
        for (key, operation) in operations.sorted(by: { $0.key < $1.key }) {
            guard let ref = operation["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"]?.string,
                  let schema = validator.resolve(ref) else { continue }
            let path = String(key.split(separator: " ")[1])
            for example in schema["examples"]?.array ?? [] {
                answered += 1
                let reply = call("POST", path, body: example.serializedString)
                #expect(reply.status == 200, "\(key) example \(example.serializedString): \(reply.status) \(reply.text.prefix(300))")
                checkAgainstDocument(key, reply)
            }
        }
        #expect(answered >= 10, "only \(answered) request-body examples were sent")
    }

    /// The members and limits the code accepts are the ones documented (`@testable` reads the
    /// endpoints' own sets), so a new option or a changed limit cannot drift from the document.
    @Test func acceptedMembersAndLimitsMatchTheCode() throws {
        let v = SchemaValidator(document: doc)
        func members(_ schema: String, _ sub: String? = nil) -> Set<String> {
            var s = v.resolve("#/components/schemas/\(schema)") ?? .null
            if let sub { s = v.deref(s[sub] ?? .null) }
            guard case .object(let p)? = s["properties"] else { return [] }
            return Set(p.keys)
        }
        /// The object branch of an `anyOf` (a color string or an object).
        func objectBranch(_ schema: String) -> JSON {
            let branches = v.resolve("#/components/schemas/\(schema)")?["anyOf"]?.array ?? []
            return branches.map { v.deref($0) }.first { $0["type"]?.string == "object" } ?? .null
        }
        func keys(_ o: JSON) -> Set<String> {
            guard case .object(let p)? = o["properties"] else { return [] }
            return Set(p.keys)
        }
        func queryNames(_ key: String) -> Set<String> {
            Set((operations[key]?["parameters"]?.array ?? []).map { v.deref($0) }.filter { $0["in"]?.string == "query" }
                .compactMap { $0["name"]?.string })
        }
        // `variables` is read for every POST body by Fields.body (CSSRequestScope), not by the endpoint.
        #expect(members("ContrastRequest") == ContrastEndpoint.fieldsWithGradient.union(["variables"]))
        #expect(members("PickRequest") == PickEndpoint.fields.union(["variables"]))
        // A new user's pass: the matrix's Apple context members were accepted but not documented.
        #expect(members("MatrixRequest") == MatrixEndpoint.fields.union(["variables"]))
        #expect(queryNames("GET /v1/contrast") == ContrastEndpoint.fieldsWithGradient)
        #expect(members("AuditRequest") == AuditEndpoint.fields.union(["variables"]))
        #expect(keys(objectBranch("AuditColor")) == AuditEndpoint.colorFields)
        #expect(members("TableStripesRequest") == TableStripesEndpoint.fields.union(["variables"]))
        #expect(members("AdaptiveColorObject") == AdaptiveColorInput.objectFields)
        #expect(members("SuggestRequest") == SuggestEndpoint.fields.union(["variables"]))
        #expect(queryNames("GET /v1/suggest") == SuggestEndpoint.fields)
        #expect(members("PaletteDarkRequest") == PaletteRequest.fields.union(["variables"]))
        #expect(members("PaletteExportRequest") == PaletteRequest.fields.union(["format", "colorSpace", "name", "darkSelector", "variables"]))
        #expect(keys(objectBranch("PaletteColor")) == PaletteRequest.colorFields)
        #expect(members("TargetObject") == TargetInput.objectFields)
        #expect(queryNames("GET /v1/system-colors") == SystemColorsEndpoint.fields)
        #expect(queryNames("GET /v1/labels") == LabelsEndpoint.fields)
        #expect(queryNames("GET /v1/materials") == MaterialsEndpoint.fields)
        #expect(queryNames("GET /v1/text-styles") == TextStylesEndpoint.fields)
        #expect(queryNames("POST /v1/image/analyze") == ImageEndpoint.analyzeFields)
        #expect(queryNames("POST /v1/image/dim") == ImageEndpoint.dimFields)
        #expect(queryNames("POST /v1/image/text-contrast") == ImageEndpoint.textContrastFields)

        // Limits.
        let contrast = v.resolve("#/components/schemas/ContrastRequest")
        #expect(contrast?["properties"]?["layers"]?["maxItems"]?.double == Double(ContrastEndpoint.maxLayers))
        #expect(v.resolve("#/components/schemas/PickRequest")?["properties"]?["candidates"]?["maxItems"]?.double == Double(PickEndpoint.maxCandidates))
        #expect(v.resolve("#/components/schemas/AuditRequest")?["properties"]?["colors"]?["maxItems"]?.double == Double(AuditEndpoint.maxColors))
        #expect(v.resolve("#/components/schemas/TableStripesRequest")?["properties"]?["textColors"]?["maxItems"]?.double
            == Double(TableStripesEndpoint.maxTextColors))
        #expect(objectBranch("PaletteColor")["properties"]?["on"]?["maxItems"]?.double == Double(PaletteRequest.maxOn))
        #expect(v.resolve("#/components/schemas/Color")?["maxLength"]?.double == Double(maxColorLength))
        #expect(v.resolve("#/components/schemas/Gradient")?["maxLength"]?.double == Double(CSSGradient.maximumLength))
        #expect(v.resolve("#/components/schemas/MatrixRequest")?["properties"]?["gradients"]?["maxItems"]?.double == Double(MatrixEndpoint.maxGradients))

        // Enums the code spells as Swift enums.
        func enumValues(_ schema: String) -> Set<String> {
            Set(v.resolve("#/components/schemas/\(schema)")?["enum"]?.array?.compactMap(\.string) ?? [])
        }
        #expect(enumValues("Algorithm") == Set(ContrastAlgorithm.allCases.map(\.rawValue)))
        #expect(enumValues("ColorSpace") == Set(ColorSpace.allCases.map(\.rawValue)))
        #expect(enumValues("Appearance") == Set(AppleAppearance.allCases.map(\.rawValue)))
        #expect(enumValues("InterfaceLevel") == Set(AppleInterfaceLevel.allCases.map(\.rawValue)))
        #expect(enumValues("HexOrder") == Set(HexOrder.allCases.map(\.rawValue)))
        #expect(enumValues("Generation").isSuperset(of: AppleCatalogGeneration.allCases.map(\.rawValue)))
        #expect(enumValues("ContrastSetting").isSuperset(of: AppleContrastSetting.allCases.map(\.rawValue)))
        #expect(enumValues("Policy").isSuperset(of: AppleContrastPolicy.allCases.map(\.rawValue)))
        let request = try #require(v.resolve("#/components/schemas/SimulateRequest"))
        let cvd = Set(request["properties"]?["type"]?["enum"]?.array?.compactMap(\.string) ?? [])
        #expect(cvd.isSuperset(of: CVDType.allCases.map(\.rawValue)))
        #expect(Set(request["properties"]?["model"]?["enum"]?.array?.compactMap(\.string) ?? []) == Set(CVDModel.allCases.map(\.rawValue)))
        let export = try #require(v.resolve("#/components/schemas/PaletteExportRequest"))
        let formats = Set(export["properties"]?["format"]?["enum"]?.array?.compactMap(\.string) ?? [])
        #expect(formats == Set(PaletteExportEndpoint.Format.allCases.map(\.rawValue)).union(PaletteExportEndpoint.formatAliases.keys))
    }

    // MARK: Served

    @Test func servedDocumentIsTheResourceAndIsCacheable() throws {
        let server = try LiveServer()
        let r = try server.request("GET", "/openapi.json")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.json == doc, "the served document differs from the checked-in resource")
        // Served compact: no line breaks outside strings (inside them JSON writes `\n`), so no
        // indentation either; the checked-in resource is pretty-printed, about twice the bytes.
        #expect(!r.body.contains(0x0A) && !r.body.contains(0x0D), "served compact")
        let etag = try #require(r.headers["etag"])
        #expect(r.headers["cache-control"]?.contains("max-age") == true)
        let again = try server.request("GET", "/openapi.json", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        checkAgainstDocument("GET /openapi.json", again)
    }

    @Test func openWithTokensWhileTheAPIAnswers401AsDocumented() throws {
        var c = testConfiguration()
        c.authTokens = ["0123456789abcdef0123456789abcdef"]
        let open = call("GET", "/openapi.json", configuration: c)
        #expect(open.status == 200)
        let closed = call("GET", "/v1/contrast?foreground=%23777&background=white", configuration: c)
        #expect(closed.status == 401)
        checkAgainstDocument("GET /v1/contrast", closed)
        #expect(operations["GET /healthz"]?["security"] == .array([]))
        #expect(operations["GET /openapi.json"]?["security"] == .array([]))
        #expect(operations["POST /v1/audit"]?["responses"]?["401"] != nil)
    }

    // MARK: Real answers against the document

    /// One request of the samples: the operation key, the request, and the status it must get.
    struct Sample: CustomStringConvertible {
        var method: String
        var target: String
        var body: String? = nil
        var contentType: String? = "application/json"
        var status: Int
        var description: String { "\(method) \(target) \(body?.prefix(120) ?? "")" }
    }

    static let samples: [Sample] = {
        let palette257 = "{\"colors\": [" + (0..<257).map { "\"#\(String(format: "%06x", $0))\"" }.joined(separator: ",") + "]}"
        let pick257 = "{\"background\": \"#fff\", \"candidates\": [" + Array(repeating: "\"#000\"", count: 257).joined(separator: ",") + "]}"
        let layers33 = "{\"foreground\": \"#000\", \"background\": \"#fff\", \"layers\": [" + Array(repeating: "\"#0001\"", count: 33).joined(separator: ",") + "]}"
        return [
            Sample(method: "GET", target: "/healthz", status: 200),
            Sample(method: "GET", target: "/openapi.json", status: 200),
            Sample(method: "GET", target: "/metrics", status: 200),

            Sample(method: "GET", target: "/v1/contrast?foreground=%23777&background=white", status: 200),
            Sample(method: "GET", target: "/v1/contrast?foreground=secondaryLabel&background=systemBackground&appearance=dark&textStyle=body&fontWeight=emphasized", status: 200),
            Sample(method: "GET", target: "/v1/contrast?foreground=%230008&background=%23fff8&fontSize=24&fontSizeUnit=px&algorithm=michelson", status: 200),
            Sample(method: "GET", target: "/v1/contrast?foreground=zz&background=white", status: 400),
            Sample(method: "GET", target: "/v1/contrast?foreground=currentcolor&background=white", status: 422),
            Sample(method: "GET", target: "/v1/contrast?foreground=red&background=white&textStyle=body&fontSize=3", status: 400),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#0008", "background": "#fff8", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700, "algorithm": "apca"}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "layers": ["#0003", {"color": "red", "opacity": 0.5}], "backdrop": "#fff"}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "color(display-p3 0 1 0)", "background": "oklch(0.2 0.3 20)", "hexOrder": "argb"}"##, status: 200),
            Sample(method: "GET", target: "/v1/contrast?foreground=%23777&background=white&textShadow=0%200%20%23000", status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#fff", "background": "linear-gradient(to right in oklch, #0066cc, 30%, #ffcc00)", "box": {"width": 320, "height": 48}, "region": {"x": 16, "y": 12, "width": 120, "height": 24}, "fontSize": 18, "fontSizeUnit": "pt"}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#0008", "background": "#fff", "layers": [{"color": "repeating-radial-gradient(circle, #0000, #0066cc 20%)", "opacity": 0.8}], "algorithm": "apca"}"##, status: 200),
            Sample(method: "GET", target: "/v1/contrast?foreground=%23fff&background=conic-gradient(%23000%2C%20%23fff)&box=100,100&region=60,10,30,30", status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#fff", "background": "linear-gradient(20%, red)"}"##, status: 400),
            Sample(method: "POST", target: "/v1/contrast/matrix", body: ##"{"colors": ["#fff", "#1c1c1e"], "gradients": ["linear-gradient(#0066cc, #ffcc00)", {"name": "hero", "gradient": "radial-gradient(#000, #777)", "box": {"width": 400, "height": 200}}]}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#777", "background": "#fff", "textShadow": "1px 1px 2px black"}"##, status: 422),
            Sample(method: "POST", target: "/v1/contrast", body: "{", status: 400),
            Sample(method: "POST", target: "/v1/contrast", body: ##"{"foreground": "#000", "background": "#fff", "colour": 1}"##, status: 400),
            Sample(method: "POST", target: "/v1/contrast", body: "<a/>", contentType: "text/xml", status: 415),
            Sample(method: "POST", target: "/v1/contrast", body: layers33, status: 413),

            Sample(method: "POST", target: "/v1/contrast/matrix", body: ##"{"colors": ["#ffffff", {"name": "ink", "color": "#1c1c1e"}, "#007aff"], "algorithm": "weber"}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast/matrix?format=csv", body: ##"{"colors": ["#fff", "=cmd", "#007aff"]}"##, status: 400),
            Sample(method: "POST", target: "/v1/contrast/matrix?format=csv", body: ##"{"colors": ["#fff", {"name": "=ink", "color": "#000"}]}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast/matrix", body: ##"{"colors": ["#fff", "#0008"], "format": "svg", "backdrop": "#777"}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast/matrix?format=pdf", body: ##"{"colors": ["#fff"]}"##, status: 400),
            Sample(method: "POST", target: "/v1/contrast/matrix", body: palette257, status: 413),

            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#0066cc", "candidates": ["#000", "rgba(255, 255, 255, 0.9)"], "target": "AA"}"##, status: 200),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#ffffff80", "candidates": ["#777", "#000"], "algorithm": "apca", "target": 90, "fontSize": 16, "fontSizeUnit": "px"}"##, status: 200),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#ffffff80", "backdrop": "#000", "candidates": ["#777"], "textStyle": "body", "appearance": "dark"}"##, status: 200),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "repeating-linear-gradient(in oklch, #0066cc 0px, #ffcc00 40px)", "box": {"width": 120, "height": 40}, "region": {"x": 10, "y": 0, "width": 80, "height": 40}, "candidates": ["#000", "#ffffff80"], "target": "AA"}"##, status: 200),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#fff", "box": {"width": 120, "height": 40}, "candidates": ["#000"]}"##, status: 400),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#fff", "candidates": ["#000", "#ggg"]}"##, status: 400),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#fff", "candidates": ["currentcolor"]}"##, status: 422),
            Sample(method: "POST", target: "/v1/pick", body: ##"{"background": "#fff", "candidates": []}"##, status: 400),
            Sample(method: "POST", target: "/v1/pick", body: pick257, status: 413),

            Sample(method: "GET", target: "/v1/system-colors?name=systemBackground&appearance=dark", status: 200),
            Sample(method: "GET", target: "/v1/system-colors?category=separator&level=elevated&generation=ios15", status: 200),
            Sample(method: "GET", target: "/v1/system-colors?name=SystemBlue", status: 400),
            Sample(method: "GET", target: "/v1/system-colors?name=systemBlue&category=label", status: 400),

            Sample(method: "POST", target: "/v1/audit", body: ##"{"colors": [{"name": "caption", "color": "#999999"}], "policy": "wcag-aa"}"##, status: 200),
            Sample(method: "POST", target: "/v1/audit", body: ##"{"colors": ["label", {"color": "#f5f5f5", "dark": "#1c1c1e", "role": "background"}, {"color": "systemBlue", "role": "tint", "textStyle": "caption2"}, {"color": "#0003", "role": "icon"}], "generation": "ios15-18"}"##, status: 200),
            Sample(method: "POST", target: "/v1/audit", body: ##"{"colors": []}"##, status: 400),
            Sample(method: "POST", target: "/v1/audit", body: ##"{"colors": [{"color": "#000", "role": "icon", "fontSize": 12}]}"##, status: 400),

            Sample(method: "GET", target: "/v1/labels?appearance=light&labelColor=%23333", status: 200),
            Sample(method: "GET", target: "/v1/labels?background=%23ffffff80&level=elevated", status: 200),
            Sample(method: "GET", target: "/v1/labels?darkLabelColor=%23fff", status: 400),

            Sample(method: "GET", target: "/v1/materials?material=thin&appearance=dark", status: 200),
            Sample(method: "GET", target: "/v1/materials?content=%23336699&generation=ios15-18", status: 200),
            Sample(method: "GET", target: "/v1/materials?content=%230008", status: 400),

            Sample(method: "GET", target: "/v1/text-styles", status: 200),
            Sample(method: "GET", target: "/v1/text-styles?textStyle=caption&contentSizeCategory=AX5&fontWeight=ultralight", status: 200),
            Sample(method: "GET", target: "/v1/text-styles?textStyle=bogus", status: 400),

            Sample(method: "POST", target: "/v1/table-stripes", body: ##"{"textColors": ["label", "secondaryLabel"], "targetRatio": 3}"##, status: 200),
            Sample(method: "POST", target: "/v1/table-stripes", body: ##"{"textColors": ["#777"], "background": {"color": "#eee", "dark": "#222"}, "targetRatio": 21}"##, status: 200),
            Sample(method: "POST", target: "/v1/table-stripes", body: "{}", status: 400),
            // Regression: unknown members of an adaptive color object were silently ignored.
            Sample(method: "POST", target: "/v1/table-stripes", body: ##"{"textColors": [{"color": "#000", "drak": "#fff"}]}"##, status: 400),
            Sample(method: "POST", target: "/v1/table-stripes", body: ##"{"textColors": ["#000"], "background": {"color": "#fff", "colour": "#eee"}}"##, status: 400),

            Sample(method: "GET", target: "/api/webaim?fcolor=777777&bcolor=FFFFFF", status: 200),
            Sample(method: "GET", target: "/api/webaim?fcolor=zz&bcolor=FFFFFF", status: 400),

            Sample(method: "GET", target: "/v1/convert?color=%23777777", status: 200),
            Sample(method: "GET", target: "/v1/convert?color=color(display-p3%201%200%200)&to=hex,oklch&gamut=srgb&gamutMethod=clip", status: 200),
            Sample(method: "GET", target: "/v1/convert?color=red&to=bogus", status: 400),
            Sample(method: "POST", target: "/v1/convert", body: ##"{"color": "lab(150 200 -200)", "to": ["hex", "lch", "xyz"], "gamut": "display-p3"}"##, status: 200),
            Sample(method: "POST", target: "/v1/convert", body: ##"{"color": "var(--brand)"}"##, status: 422),

            Sample(method: "POST", target: "/v1/tokens/audit", body: ##"{"files": [{"name": "theme.css", "content": ":root { --foreground: #111; --background: #fff; --muted-foreground: #999; }"}], "preset": "shadcn"}"##, status: 200),
            Sample(method: "POST", target: "/v1/tokens/audit", body: ##"{"files": [{"name": "theme.css", "content": ":root { --foreground: #999; --background: #fff; }"}], "preset": "shadcn", "failOn": "failure"}"##, status: 422),
            Sample(method: "POST", target: "/v1/tokens/audit", body: ##"{"files": [{"name": "theme.css", "content": ":root { --foreground: #111; }"}]}"##, status: 400),

            Sample(method: "GET", target: "/v1/difference?a=red&b=blue", status: 200),
            Sample(method: "POST", target: "/v1/difference", body: ##"{"a": "red", "b": "#ff1010", "lab": "d50"}"##, status: 200),
            Sample(method: "POST", target: "/v1/difference", body: ##"{"a": "red"}"##, status: 400),

            Sample(method: "GET", target: "/v1/apca/font?lc=60&fontSize=16&fontWeight=400", status: 200),
            Sample(method: "GET", target: "/v1/apca/font?lc=-10", status: 200),
            Sample(method: "GET", target: "/v1/apca/font?lc=200", status: 400),

            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["red", "green", "#007aff"], "type": "deutan", "pairs": [{"foreground": "red", "background": "green"}], "threshold": 1}"##, status: 200),
            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["#f00", "rgba(0,0,0,0.1)"], "type": "protanopia", "pairs": [{"foreground": "#f00", "background": "rgba(0,0,0,0.1)"}]}"##, status: 200),
            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["red", "#0000"], "type": "achromatopsia", "severity": 0.5}"##, status: 200),
            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["red", "#0000"], "type": "achromatopsia", "model": "brettel"}"##, status: 400),
            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["red"], "type": "blue"}"##, status: 400),

            Sample(method: "GET", target: "/v1/suggest?foreground=%23999&background=white", status: 200),
            Sample(method: "GET", target: "/v1/suggest?foreground=%23999&background=white&target=apca&move=both", status: 200),
            Sample(method: "POST", target: "/v1/suggest", body: ##"{"foreground": "#777", "background": "#ffffff80", "target": {"policy": "wcag", "level": "AAA"}, "move": "background"}"##, status: 200),
            Sample(method: "POST", target: "/v1/suggest", body: ##"{"foreground": "#000", "background": "#fff", "target": 21}"##, status: 200),
            Sample(method: "POST", target: "/v1/suggest", body: ##"{"foreground": "#777", "background": "#fff", "target": {"ratio": 4.5, "lc": 60}}"##, status: 400),

            Sample(method: "POST", target: "/v1/palette/dark", body: ##"{"colors": [{"name": "bg", "role": "background", "color": "#f5f5f5"}, {"name": "ink", "color": "#777", "on": ["bg", "system"]}]}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/dark", body: ##"{"colors": ["#007aff", {"color": "#34c759", "role": "icon", "dark": "#30d158"}], "policy": "apca", "adjustLight": true}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/dark", body: ##"{"colors": [{"color": "#777", "on": ["nowhere"]}]}"##, status: 400),

            Sample(method: "POST", target: "/v1/palette/export", body: ##"{"colors": ["#777", {"name": "accent", "role": "tint", "color": "#007aff"}], "format": "tokens", "colorSpace": "display-p3"}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/export?format=css", body: ##"{"colors": ["#777"]}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/export?format=svg", body: ##"{"colors": ["#777"]}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/export", body: ##"{"colors": ["#777"], "format": "xcassets", "name": "Brand"}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/export", body: ##"{"colors": ["#777"], "format": "android"}"##, status: 200),
            Sample(method: "POST", target: "/v1/palette/export", body: ##"{"colors": ["#777"]}"##, status: 400),

            Sample(method: "POST", target: "/v1/contrast/batch", body: ##"{"pairs": [{"foreground": "#777", "background": "#fff", "fontSize": 14, "fontSizeUnit": "pt", "fontWeight": 700}, {"foreground": "label", "background": "systemFill", "appearance": "dark"}, {"foreground": "#fff", "background": "#000", "layers": ["rgba(255,255,255,0.2)"]}]}"##, status: 200),
            Sample(method: "POST", target: "/v1/contrast/batch", body: ##"{"pairs": [{"foreground": "#777", "background": "linear-gradient(#fff, #000)"}]}"##, status: 400),
            // A pointer naming a member whose name holds a newline (schemathesis, stop 43: the
            // Problem schema's pattern `^(/.*)?$` refused it).
            Sample(method: "POST", target: "/v1/simulate", body: ##"{"colors": ["#777"], "variables": {"a\nb": "#000"}}"##, status: 400),
        ]
    }()

    @Test func sampleAnswersMatchTheDocument() throws {
        var answered200: Set<String> = []
        for sample in Self.samples {
            let reply = call(sample.method, sample.target, body: sample.body, contentType: sample.contentType)
            #expect(reply.status == sample.status, "\(sample): \(reply.status) \(reply.text.prefix(300))")
            let path = String(sample.target.split(separator: "?", maxSplits: 1)[0])
            let key = "\(sample.method) \(path)"
            checkAgainstDocument(key, reply, sample: sample.description)
            if reply.status == 200 { answered200.insert(key) }
        }
        // Images: a real PNG, analyzed and dimmed; then bad bodies and parameters.
        let png = try ImageSamples.encode(.png, width: 40, height: 30)
        let images: [(String, [UInt8], String?, Int)] = [
            ("/v1/image/analyze?systemBackground=elevated", png, "image/png", 200),
            ("/v1/image/analyze?background=%23202020&targetLc=60", png, nil, 200),
            ("/v1/image/analyze", [], "image/png", 400),
            ("/v1/image/analyze", png, "image/jpeg", 400),
            ("/v1/image/analyze", Array("GIF89a".utf8), "image/gif", 415),
            ("/v1/image/analyze", try ImageSamples.pngDeclaring(width: 100_000, height: 100_000), "image/png", 422),
            ("/v1/image/dim", png, "image/png", 200),
            ("/v1/image/dim?amount=0.5&format=webp&quality=80", png, "image/png", 200),
            ("/v1/image/dim?format=jpeg", png, "application/octet-stream", 200),
            ("/v1/image/dim?amount=0.5&targetLc=60", png, "image/png", 400),
            ("/v1/image/dim?amount=2", png, "image/png", 400),
            ("/v1/image/text-contrast?textColor=white", png, "image/png", 200),
            ("/v1/image/text-contrast?textColor=%23333&region=0,0,20,10&target=60", png, nil, 200),
            ("/v1/image/text-contrast?textColor=white&heatmap=true", png, "image/png", 200),
            ("/v1/image/text-contrast?textColor=white&region=0,0,41,1", png, "image/png", 400),
            ("/v1/image/text-contrast?textColor=white", [], "image/png", 400),
        ]
        for (target, body, type, status) in images {
            let reply = callImage(target, body, contentType: type)
            #expect(reply.status == status, "POST \(target): \(reply.status) \(reply.text.prefix(300))")
            let key = "POST " + String(target.split(separator: "?", maxSplits: 1)[0])
            checkAgainstDocument(key, reply, sample: target)
            if reply.status == 200 { answered200.insert(key) }
        }
        // Every documented operation has a successful sample here, so a new route needs one.
        let missing = Set(operations.keys).subtracting(answered200)
        #expect(missing.isEmpty, "operations without a 200 sample in OpenAPITests.samples: \(missing.sorted())")
    }

    /// The reply's status is documented for the operation, its media type is one of the documented
    /// ones, and a JSON body matches the documented schema.
    func checkAgainstDocument(_ key: String, _ reply: Reply, sample: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        guard let operation = operations[key] else {
            Issue.record("\(key) is not documented", sourceLocation: sourceLocation)
            return
        }
        let validator = SchemaValidator(document: doc)
        guard let documented = operation["responses"]?[String(reply.status)] ?? operation["responses"]?["default"] else {
            Issue.record("\(key) answered \(reply.status), which is not documented (\(sample))", sourceLocation: sourceLocation)
            return
        }
        let response = validator.deref(documented)
        guard case .object(let content)? = response["content"] else {
            #expect(reply.body.isEmpty, "\(key) \(reply.status) has a body but documents none", sourceLocation: sourceLocation)
            return
        }
        let media = (reply.headers["content-type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        guard let entry = content[media] else {
            Issue.record("\(key) \(reply.status) answered \(media), documented: \(content.keys) (\(sample))", sourceLocation: sourceLocation)
            return
        }
        guard media == "application/json" || media.hasSuffix("+json"), let schema = entry["schema"] else { return }
        let body: JSON
        do {
            body = try JSONParser.parse(reply.body)
        } catch {
            Issue.record("\(key) \(reply.status): body is not JSON: \(error)", sourceLocation: sourceLocation)
            return
        }
        let errors = validator.errors(body, against: schema)
        #expect(errors.isEmpty, "\(key) \(reply.status) (\(sample)) does not match the document: \(errors.prefix(5))",
                sourceLocation: sourceLocation)
    }

    /// Found while documenting: `AdaptiveColorInput` objects in `/v1/table-stripes` accepted any
    /// member, so a misspelt `dark` was ignored; the document says `additionalProperties: false`.
    @Test func tableStripesRefusesUnknownMembersOfColorObjects() {
        expectProblem(call("POST", "/v1/table-stripes", body: ##"{"textColors": [{"color": "#000", "drak": "#fff"}]}"##),
                      400, pointer: "/textColors/0/drak")
        expectProblem(call("POST", "/v1/table-stripes", body: ##"{"textColors": ["#000"], "darkBackground": {"color": "#000", "x": 1}}"##),
                      400, pointer: "/darkBackground/x")
        #expect(call("POST", "/v1/table-stripes", body: ##"{"textColors": [{"color": "#000", "dark": "#fff"}]}"##).status == 200)
    }

    // MARK: The validator checks something

    @Test func validatorFindsMismatches() {
        let v = SchemaValidator(document: doc)
        let problem = JSON.object([("$ref", "#/components/schemas/Problem")])
        #expect(v.errors(.object([("type", "/problems/x"), ("title", "t"), ("status", 400), ("detail", "d")]), against: problem).isEmpty)
        #expect(!v.errors(.object([("type", "/problems/x"), ("title", "t"), ("status", 400)]), against: problem).isEmpty)
        #expect(!v.errors(.object([("type", "/problems/x"), ("title", "t"), ("status", 200), ("detail", "d")]), against: problem).isEmpty)
        #expect(!v.errors(.object([("type", 1), ("title", "t"), ("status", 400), ("detail", "d")]), against: problem).isEmpty)
        let ratio = JSON.object([("$ref", "#/components/schemas/RatioText")])
        #expect(v.errors("4.47", against: ratio).isEmpty)
        #expect(!v.errors("4.5", against: ratio).isEmpty)
        let request = JSON.object([("$ref", "#/components/schemas/DifferenceRequest")])
        #expect(v.errors(.object([("a", "red"), ("b", "blue")]), against: request).isEmpty)
        #expect(!v.errors(.object([("a", "red"), ("b", "blue"), ("c", "x")]), against: request).isEmpty, "additionalProperties: false")
        #expect(!v.errors(.object([("a", "red"), ("b", "blue"), ("lab", "d55")]), against: request).isEmpty, "enum")
    }
}

/// A JSON Schema 2020-12 validator for the keywords the document uses: `$ref` (local),
/// `type`, `enum`, `const`, `required`, `properties`, `additionalProperties`, `minProperties`,
/// `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `minLength`,
/// `maxLength`, `pattern`, `anyOf`, `allOf`, `oneOf`. Annotations are ignored.
struct SchemaValidator {
    let document: JSON

    /// The value a local reference (`#/components/schemas/Color`) points at.
    func resolve(_ ref: String) -> JSON? {
        guard ref.hasPrefix("#") else { return nil }
        var v: JSON? = document
        for token in ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            v = v?[key]
        }
        return v
    }

    /// `value` with a `$ref` followed (response and parameter objects).
    func deref(_ value: JSON) -> JSON {
        if let r = value["$ref"]?.string, let target = resolve(r) { return deref(target) }
        return value
    }

    func errors(_ value: JSON, against schema: JSON) -> [String] {
        var out: [String] = []
        check(value, schema, "", &out, depth: 0)
        return out
    }

    private func typeMatches(_ value: JSON, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number):
            return true
        case ("integer", .number(let d)):
            return d == d.rounded()
        default:
            return false
        }
    }

    private func check(_ value: JSON, _ schema: JSON, _ at: String, _ out: inout [String], depth: Int) {
        guard depth < 64 else { out.append("\(at): schema nesting too deep"); return }
        if case .bool(let b) = schema {
            if !b { out.append("\(at): no value is allowed here") }
            return
        }
        guard case .object(let s) = schema else { return }
        let place = at.isEmpty ? "/" : at
        if let r = s["$ref"]?.string {
            guard let target = resolve(r) else { out.append("\(place): unresolved \(r)"); return }
            check(value, target, at, &out, depth: depth + 1)
        }
        if let t = s["type"] {
            let types = t.array?.compactMap(\.string) ?? [t.string ?? ""]
            if !types.contains(where: { typeMatches(value, $0) }) {
                out.append("\(place): \(value.typeName) is not \(types.joined(separator: "|"))")
                return
            }
        }
        if let e = s["enum"]?.array, !e.contains(value) { out.append("\(place): \(value.serializedString.prefix(60)) is not one of \(e.map(\.serializedString))") }
        if let c = s["const"], c != value { out.append("\(place): \(value.serializedString.prefix(60)) is not \(c.serializedString)") }
        switch value {
        case .object(let o):
            for key in s["required"]?.array?.compactMap(\.string) ?? [] where o[key] == nil {
                out.append("\(place): required member '\(key)' is missing")
            }
            if let min = s["minProperties"]?.double, Double(o.count) < min { out.append("\(place): fewer than \(min) members") }
            let properties = s["properties"]
            for (k, v) in o.members {
                let child = at + "/" + k
                if let p = properties?[k] {
                    check(v, p, child, &out, depth: depth + 1)
                } else if let extra = s["additionalProperties"] {
                    check(v, extra, child, &out, depth: depth + 1)
                }
            }
        case .array(let a):
            if let min = s["minItems"]?.double, Double(a.count) < min { out.append("\(place): fewer than \(min) items") }
            if let max = s["maxItems"]?.double, Double(a.count) > max { out.append("\(place): more than \(max) items") }
            let prefix = s["prefixItems"]?.array ?? []
            for (i, item) in a.enumerated() {
                if i < prefix.count {
                    check(item, prefix[i], "\(at)/\(i)", &out, depth: depth + 1)
                } else if let items = s["items"] {
                    check(item, items, "\(at)/\(i)", &out, depth: depth + 1)
                }
            }
        case .number(let d):
            if let min = s["minimum"]?.double, d < min { out.append("\(place): \(d) < minimum \(min)") }
            if let max = s["maximum"]?.double, d > max { out.append("\(place): \(d) > maximum \(max)") }
        case .string(let str):
            let length = Double(str.unicodeScalars.count)
            if let min = s["minLength"]?.double, length < min { out.append("\(place): shorter than \(min)") }
            if let max = s["maxLength"]?.double, length > max { out.append("\(place): longer than \(max)") }
            if let pattern = s["pattern"]?.string {
                if let re = try? NSRegularExpression(pattern: pattern) {
                    let range = NSRange(str.startIndex..., in: str)
                    if re.firstMatch(in: str, range: range) == nil { out.append("\(place): '\(str.prefix(60))' does not match \(pattern)") }
                } else {
                    out.append("\(place): bad pattern \(pattern)")
                }
            }
        default:
            break
        }
        for sub in s["allOf"]?.array ?? [] { check(value, sub, at, &out, depth: depth + 1) }
        if let any = s["anyOf"]?.array {
            var branches: [[String]] = []
            for sub in any {
                var e: [String] = []
                check(value, sub, at, &e, depth: depth + 1)
                if e.isEmpty { branches = []; break }
                branches.append(e)
            }
            if !branches.isEmpty {
                let closest = branches.min { $0.count < $1.count } ?? []
                out.append("\(place): matches no anyOf branch; closest: \(closest.prefix(3))")
            }
        }
        if let one = s["oneOf"]?.array {
            let matching = one.filter { sub in
                var e: [String] = []
                check(value, sub, at, &e, depth: depth + 1)
                return e.isEmpty
            }.count
            if matching != 1 { out.append("\(place): matches \(matching) oneOf branches, not 1") }
        }
    }
}
