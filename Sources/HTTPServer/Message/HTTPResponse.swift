import JSONValue

/// One HTTP response: status, header fields in order, and the whole body.
///
/// `Content-Length` is computed by the server; setting it has no effect except on bodiless
/// `HEAD` answers (see ``Router``). `Date` is added by the server.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The limit this answer refuses the request for, as a metrics label
    /// (``HTTPProblem/rejection``); `nil` for every other answer.
    public var rejection: HTTPRejection? = nil
    /// True only for ``moveToHeavyPool`` (status 0): never sent; middleware passes it through
    /// unrecorded. (A status, not a field of its own: a larger answer made every plain
    /// `POST /v1/contrast` cost 70 instructions more, `bench/profile post`.)
    @inline(__always) public var movesToHeavyPool: Bool { status == 0 }

    /// The answer a handler gives a request with ``HTTPRequest/mayMoveToHeavyPool`` that costs
    /// too much for a worker thread: the server runs the request again on its heavy-work pool
    /// (queue limit, deadline and memory budget as for heavy paths). Given without the request
    /// allowing it, the server answers 500 instead.
    public static var moveToHeavyPool: HTTPResponse { HTTPResponse(status: 0) }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header field called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let length = name.utf8.count
        for field in headers where field.name.utf8.count == length && asciiCaseInsensitiveEquals(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Whether fields called `first` and `second` are present (compared case-insensitively), in
    /// one pass over the fields.
    public func containsHeaders(_ first: String, _ second: String) -> (Bool, Bool) {
        let n1 = first.utf8.count, n2 = second.utf8.count
        var found = (false, false)
        for field in headers {
            let n = field.name.utf8.count
            if n == n1 && !found.0 && asciiCaseInsensitiveEquals(field.name, first) { found.0 = true }
            else if n == n2 && !found.1 && asciiCaseInsensitiveEquals(field.name, second) { found.1 = true }
        }
        return found
    }

    /// An RFC 9457 problem details response (`application/problem+json`):
    ///
    /// ```json
    /// {"type":"about:blank","title":"Not Found","status":404,"detail":"No route for GET /x."}
    /// ```
    ///
    /// `extra` members are added after `detail` as JSON strings, in order; names that would
    /// repeat a standard member (`type`, `title`, `status`, `detail`) or an earlier extra are
    /// skipped so the object never has duplicate names.
    public static func problem(
        status: Int,
        title: String,
        detail: String,
        type: String = "about:blank",
        extra: [(String, String)] = []
    ) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(64 + type.utf8.count + title.utf8.count + detail.utf8.count)
        body.append(contentsOf: #"{"type":"#.utf8)
        JSON.writeString(type, into: &body)
        body.append(contentsOf: #","title":"#.utf8)
        JSON.writeString(title, into: &body)
        body.append(contentsOf: #","status":"#.utf8)
        body.append(contentsOf: String(status).utf8)
        body.append(contentsOf: #","detail":"#.utf8)
        JSON.writeString(detail, into: &body)
        var used: Set<String> = ["type", "title", "status", "detail"]
        for (name, value) in extra where used.insert(name).inserted {
            body.append(UInt8(ascii: ","))
            JSON.writeString(name, into: &body)
            body.append(UInt8(ascii: ":"))
            JSON.writeString(value, into: &body)
        }
        body.append(UInt8(ascii: "}"))
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/problem+json")],
            body: body
        )
    }

    /// A response with one `Content-Type` field and room for the fields middleware adds
    /// (caching, security, request id) without regrowing the list.
    public init(status: Int, contentType: String, body: [UInt8]) {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(12)
        fields.append(("Content-Type", contentType))
        self.init(status: status, headers: fields, body: body)
    }

    /// A response with a JSON body that is already encoded (`application/json`).
    public static func json(status: Int = 200, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var fields: [(name: String, value: String)] = [("Content-Type", "application/json")]
        if !headers.isEmpty {
            fields.append(contentsOf: headers)
        }
        return HTTPResponse(status: status, headers: fields, body: body)
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(status: Int = 200, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    /// The standard reason phrase for `status` ("Not Found"), or "Error"/"Status" when unknown.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: status >= 400 ? "Error" : "Status"
        }
    }
}

/// ASCII case-insensitive comparison without allocating.
@inline(__always)
func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    var ia = a.utf8.makeIterator()
    var ib = b.utf8.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil):
            return true
        case let (x?, y?):
            if x == y { continue }
            let lx = x >= 0x41 && x <= 0x5A ? x | 0x20 : x
            let ly = y >= 0x41 && y <= 0x5A ? y | 0x20 : y
            if lx != ly { return false }
        default:
            return false
        }
    }
}
