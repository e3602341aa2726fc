/// One HTTP request as the handler sees it: fully read, body included.
///
/// Built by ``HTTPServer`` once per request on an MHD thread; cheap to construct by hand in
/// tests (no sockets needed):
///
/// ```swift
/// let request = HTTPRequest(method: "GET", path: "/contrast", query: [("fg", "#000")])
/// request.queryValue("fg")   // "#000"
/// ```
public struct HTTPRequest: Sendable {
    /// The request method exactly as sent ("GET", "POST", …). Methods are case-sensitive.
    public var method: String
    /// The percent-decoded path, without the query, as libmicrohttpd gives it.
    /// Not normalised: it may contain `..` segments (see ``StaticFiles``). A malformed escape
    /// (`%` without two hex digits) or `%00` shows as U+FFFD (as in `query`), so the path is
    /// never cut short at a NUL.
    public var path: String
    /// Query arguments in the order sent, percent-decoded; `value` is nil for `?key` without `=`.
    /// Text that is not valid percent-encoded UTF-8 holds U+FFFD where it could not be read
    /// (see `malformedQueryParameter`).
    public var query: [(name: String, value: String?)]
    /// The name of the first query argument whose name or value is not valid percent-encoded
    /// UTF-8 (a `%` without two hex digits, `%00`, or bytes that are not UTF-8); nil when all are.
    /// A name that is itself malformed is given as sent, percent-encoded (`fore%ZZground`, see
    /// ``percentEncodedQueryName(_:)``), not decoded with U+FFFD, so a client can match it.
    public var malformedQueryParameter: String? = nil
    /// Header fields by lower-cased name. Repeated fields are joined with ", ".
    public var headers: HTTPHeaderFields
    /// The request body (empty when none was sent). At most `ServerConfiguration.maxBodyBytes`.
    public var body: [UInt8]
    /// The client's numeric IP address ("127.0.0.1", "::1"), when known.
    public var remoteAddress: String?
    /// ``MonotonicClock/nanoseconds()`` when the server had the request's headers (before the
    /// body was read); 0 for requests built by hand. For durations in logs and metrics.
    public var receivedAtNanoseconds: UInt64 = 0
    /// For a heavy request run on the server's work pool: who answers it (``WorkTicket``).
    /// Middleware that records answers claims it first. Nil for every other request.
    public var workTicket: WorkTicket? = nil
    /// Set by the server on a request of a path that is not heavy when it has a heavy-work pool:
    /// a handler that finds the request costly (known only once its body is read) may answer
    /// ``HTTPResponse/moveToHeavyPool``, and the server runs it again on the pool, with this
    /// false and a ``workTicket``, so that it does not hold a worker thread small requests need.
    public var mayMoveToHeavyPool = false
    /// Set with ``mayMoveToHeavyPool`` when this client already has
    /// ``ServerConfiguration/heavyPerClientLimit`` heavy requests running or waiting: moved, the
    /// request would be refused 429, so a handler should move it at its first sign of cost
    /// rather than after the usual inline budget (a hostile pass, stop 43: 32 connections of one
    /// client each spent 8–16 ms on a worker thread before their 429, and `/healthz` waited 80 ms).
    public var clientAtHeavyLimit = false

    /// Creates a request. Header names are lower-cased here (costs one pass over `headers`).
    public init(
        method: String,
        path: String,
        query: [(name: String, value: String?)] = [],
        headers: [String: String] = [:],
        body: [UInt8] = [],
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        // Sorted, so fields whose names differ only in case join in a stable order.
        self.headers = HTTPHeaderFields(headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// Server fast path: `headers` is already keyed by lower-cased names.
    init(
        method: String,
        path: String,
        query: [(name: String, value: String?)],
        lowercasedHeaders: HTTPHeaderFields,
        body: [UInt8],
        remoteAddress: String?,
        receivedAtNanoseconds: UInt64
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = lowercasedHeaders
        self.body = body
        self.remoteAddress = remoteAddress
        self.receivedAtNanoseconds = receivedAtNanoseconds
    }

    /// A query name that is not valid UTF-8 once decoded, percent-encoded again as the client sent
    /// it: `fore%ZZground`, `%00`, `caf%C3`. `bytes` are the name as the server decoded it, where
    /// a `%` that did not start a valid escape (or started `%00`) became the byte 0xFF
    /// (`cmhd_unescape_marking_malformed`): that byte is written back as `%`, except before two
    /// hex digits other than `00`, where only a decoded `%FF` can have made it. Other bytes that
    /// a query must escape, and all bytes that are not ASCII, are written `%XX`; so are a decoded
    /// `%` (`%25`) and space (`%20`, for a `+` or `%20`).
    public static func percentEncodedQueryName(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        func isHex(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for (i, b) in bytes.enumerated() {
            if b == 0xFF {
                let escapeFollows = i + 2 < bytes.count && isHex(bytes[i + 1]) && isHex(bytes[i + 2])
                    && !(bytes[i + 1] == 0x30 && bytes[i + 2] == 0x30)
                if !escapeFollows { out.append(UInt8(ascii: "%")); continue }
            }
            let plain = b > 0x20 && b < 0x7F && !"%&=#+\"<>\\^`{|}".utf8.contains(b)
            if plain {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of the first query argument called `name`; `""` for `?name` without `=`,
    /// nil when the argument is absent. Linear in the number of arguments.
    public func queryValue(_ name: String) -> String? {
        for item in query where item.name == name {
            return item.value ?? ""
        }
        return nil
    }

    /// The header field called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        if let value = headers[name] {
            return value
        }
        return name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? headers[name.lowercased()] : nil
    }

    /// What `Accept` asks for among `types` (lower-case media types, each mapped to what it
    /// names, in the route's order of preference), when it names one of them (RFC 9110 §12.5.1):
    /// each type takes the weight of the most specific range matching it (`text/csv`, then
    /// `text/*`, then `*/*`); the type of the highest weight wins, on a tie the one whose range
    /// comes first, then the earlier in `types` (the route's default first); a weight of 0 (or
    /// one not an RFC `qvalue`) refuses the type. An `Accept` refusing every type names none (the
    /// default is sent, as RFC 9110 lets a server disregard the field rather than answer 406).
    /// Read as `Accept-Encoding` is (`Compression.weightedMembers`). nil: the route's default.
    public func preferred<T>(byAccept types: KeyValuePairs<String, T>) -> T? {
        guard let accept = header("accept") else { return nil }
        let ranges = Compression.weightedMembers(accept)
        var best: (value: T, weight: Double, order: Int)? = nil
        for (type, value) in types {
            let major = type.split(separator: "/").first.map { $0 + "/*" } ?? ""
            // The most specific range naming the type: the type itself, else `major/*`.
            var match: (weight: Double, order: Int)? = nil
            for (i, r) in ranges.enumerated() where r.value == type { match = (r.weight, i); break }
            if match == nil { for (i, r) in ranges.enumerated() where r.value == major { match = (r.weight, i); break } }
            // `*/*` last (a hostile pass: `*/*;q=0.5, text/csv;q=0.1` had answered CSV).
            if match == nil { for (i, r) in ranges.enumerated() where r.value == "*/*" { match = (r.weight, i); break } }
            guard let (weight, order) = match, weight > 0 else { continue }
            if best == nil || weight > best!.weight || (weight == best!.weight && order < best!.order) { best = (value, weight, order) }
        }
        return best?.value
    }
}

/// A request's header fields: lower-cased names, each once (repeats joined with ", ", RFC 9110
/// §5.3), in the order they first arrived.
///
/// A list searched from the front rather than a dictionary: a request carries a handful of
/// fields, and comparing a few short names costs less than hashing one (the dictionary was
/// about 7k instructions of every request).
public struct HTTPHeaderFields: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field. A struct, not a tuple: arrays of tuples are copied and destroyed through the
    /// runtime's generic tuple witnesses.
    public struct Field: Sendable {
        public var name: String
        public var value: String
    }

    private var fields: [Field] = []

    public init() {}

    /// Fields from name-value pairs in order; names are lower-cased and repeats joined.
    public init(_ pairs: some Sequence<(String, String)>) {
        for (name, value) in pairs { add(name.lowercased(), value) }
    }

    /// Fields from name-value pairs; names are lower-cased and repeats joined.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Room for `count` fields without regrowing.
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Adds a field whose `name` is already lower-case; a repeated name joins the values with ", ".
    public mutating func add(_ lowercasedName: String, _ value: String) {
        for index in fields.indices where fields[index].name == lowercasedName {
            fields[index].value += ", " + value
            return
        }
        fields.append(Field(name: lowercasedName, value: value))
    }

    /// The value of the field called `lowercasedName` (exact, lower-case comparison).
    public subscript(lowercasedName: String) -> String? {
        let length = lowercasedName.utf8.count
        for field in fields where field.name.utf8.count == length && field.name == lowercasedName {
            return field.value
        }
        return nil
    }

    /// Number of distinct field names.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
