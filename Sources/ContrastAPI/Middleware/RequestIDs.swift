import HTTPServer
import Synchronization

/// Middleware: every answer carries `X-Request-ID`. A valid `X-Request-ID` of the request
/// (1–128 characters of `A-Z a-z 0-9 . _ -`) is kept, anything else replaced by a generated id.
/// Appended last, after every other step's fields; rejections get one too.
struct RequestIDs: HTTPMiddleware {
    let generator = RequestIDGenerator()

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let id = RequestIDGenerator.accepted(request.header("x-request-id")) ?? generator.next()
        var response = next(request)
        response.headers.append(("X-Request-ID", id))
        return response
    }

    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(to: request, next: next)
    }
}

/// Request ids: a random 64-bit prefix per process and a counter, e.g. `9f2c51d07ab3e6f1-1a`
/// (unique across replicas with overwhelming likelihood; one atomic add per id).
final class RequestIDGenerator: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        prefix = String(repeating: "0", count: 16 - hex.count) + hex + "-"
    }

    /// `prefix` and the counter in lower-case hex, made as one string (no concatenation).
    func next() -> String {
        var value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var digits = 1
        var probe = value >> 4
        while probe != 0 { digits += 1; probe >>= 4 }
        var prefix = self.prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + digits) { out in
                _ = out.initialize(fromContentsOf: head)
                let hex: StaticString = "0123456789abcdef"
                for index in stride(from: head.count + digits - 1, through: head.count, by: -1) {
                    out[index] = hex.utf8Start[Int(value & 0xF)]
                    value >>= 4
                }
                return head.count + digits
            }
        }
    }

    /// `value` when it is a valid id: 1–128 characters of `A-Z a-z 0-9 . _ -`.
    static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128 else { return nil }
        for byte in value.utf8 {
            let ok = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
            if !ok { return nil }
        }
        return value
    }
}
