import HTTPServer
import JSONValue

/// An RFC 9457 problem: the one error shape of the API (`application/problem+json`).
///
/// Body: `{"type", "title", "status", "detail", "pointer"?, "parameter"?, ...}` where `pointer`
/// is the RFC 6901 JSON pointer of the offending member of a JSON body (e.g. `/foreground`),
/// and `parameter` names the offending query parameter of a GET request.
public struct Problem: Error, Sendable, Equatable {
    /// HTTP status `400...599`.
    public var status: Int
    /// Stable problem kind; `type` is `/problems/<kind>` relative to the service (every kind: docs/api/errors.md).
    public var kind: String
    /// Short, stable summary of the kind.
    public var title: String
    /// What exactly is wrong, for a person.
    public var detail: String
    /// JSON pointer of the bad body member, if any.
    public var pointer: String?
    /// Name of the bad query parameter, if any.
    public var parameter: String?
    /// Extra members (e.g. `limit`).
    public var extra: [(String, JSON)] = []

    public init(status: Int, kind: String, title: String, detail: String,
                pointer: String? = nil, parameter: String? = nil, extra: [(String, JSON)] = []) {
        self.status = status
        self.kind = kind
        self.title = title
        self.detail = detail
        self.pointer = pointer
        self.parameter = parameter
        self.extra = extra
    }

    public static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.kind == b.kind && a.detail == b.detail && a.pointer == b.pointer
            && a.parameter == b.parameter
    }

    /// The problem as JSON (member order: type, title, status, detail, pointer/parameter, extra).
    public var json: JSON {
        var o = JSONObject()
        o.append("type", .string("/problems/\(kind)"))
        o.append("title", .string(title))
        o.append("status", .number(Double(status)))
        o.append("detail", .string(detail))
        if let pointer { o.append("pointer", .string(pointer)) }
        if let parameter { o.append("parameter", .string(parameter)) }
        for (k, v) in extra { o.set(k, v) }
        return .object(o)
    }

    /// The HTTP response carrying this problem.
    public var response: HTTPResponse {
        HTTPResponse(status: status,
                     headers: [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")],
                     body: json.serialized())
    }
}

extension Problem {
    /// 400: the body is not JSON or not the JSON expected.
    static func malformedJSON(_ detail: String) -> Problem {
        Problem(status: 400, kind: "malformed-json", title: "Request body is not valid JSON", detail: detail)
    }

    /// 400: a field is missing, has the wrong type, or an invalid value.
    static func invalidField(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 400, kind: "invalid-field", title: "Invalid request field", detail: detail,
                pointer: field.pointer, parameter: field.parameter)
    }

    /// 400: a color string is not a valid CSS color.
    static func invalidColor(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 400, kind: "invalid-color", title: "Invalid color", detail: detail,
                pointer: field.pointer, parameter: field.parameter)
    }

    /// 422: valid CSS that this service cannot evaluate (document-dependent colors).
    static func unsupportedColor(_ field: FieldPath, _ detail: String) -> Problem {
        Problem(status: 422, kind: "unsupported-color", title: "Unsupported color syntax", detail: detail,
                pointer: field.pointer, parameter: field.parameter)
    }

    /// 413/422: an input is larger than a configured limit.
    static func tooLarge(_ field: FieldPath, _ detail: String, limit: Int, status: Int = 413) -> Problem {
        Problem(status: status, kind: "limit-exceeded", title: "Input exceeds a configured limit", detail: detail,
                pointer: field.pointer, parameter: field.parameter, extra: [("limit", .number(Double(limit)))])
    }

    /// 415: the body's media type is not accepted.
    static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(status: 415, kind: "unsupported-media-type", title: "Unsupported Media Type", detail: detail)
    }
}

extension Problem {
    /// The problems the HTTP layer answers itself (404, 405, 413, 414, 429, 431, 501, 503,
    /// framing 400s) in the API's one shape: `type` `/problems/<kind>` and `limit` a JSON number.
    /// Given to the router, the static files and the server, so every problem is written once.
    static let renderer = ProblemRenderer { p in
        Problem(status: p.status, kind: p.kind, title: p.title, detail: p.detail,
                extra: p.limit.map { [("limit", .number(Double($0)))] } ?? []).json.serialized()
    }
}
