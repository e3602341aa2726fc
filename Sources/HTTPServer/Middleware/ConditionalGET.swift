/// Conditional GET and HEAD, in one place (RFC 9110 §9.3.2, §8.8.3, §13.1.2; RFC 9111):
///
/// - `HEAD` runs as `GET` (so its `ETag` and `Content-Length` are the GET's) and loses its body
///   (``HTTPResponse/headAnswer()``);
/// - a successful GET or HEAD gets `Cache-Control` (`cacheControl`, or `no-store` on
///   `noStorePaths`) unless it has one, and, when cacheable, a strong `ETag` from its body
///   (``EntityTag/strong(_:)``) unless it has one; a matching `If-None-Match` is answered 304
///   with no body, stating the 200's length;
/// - errors, and every answer to other methods, get `Cache-Control: no-store` unless they have one.
public struct ConditionalGET: HTTPMiddleware {
    /// `Cache-Control` of successful GET answers, e.g. `public, max-age=300`.
    public let cacheControl: String
    /// Paths whose GET answers are never stored (e.g. `/healthz`).
    public let noStorePaths: Set<String>

    public init(cacheControl: String, noStorePaths: Set<String> = []) {
        self.cacheControl = cacheControl
        self.noStorePaths = noStorePaths
    }

    public func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        let isHead = request.method == "HEAD"
        guard isHead || request.method == "GET" else {
            var response = next(request)
            // Room for the fields outer steps add: no regrowth of the array.
            response.headers.reserveCapacity(response.headers.count + 8)
            if response.header("Cache-Control") == nil {
                response.headers.append(("Cache-Control", "no-store"))
            }
            return response
        }
        var response: HTTPResponse
        if isHead {
            var routed = request
            routed.method = "GET"
            response = next(routed)
        } else {
            response = next(request)
        }
        if response.movesToHeavyPool { return response }
        response.headers.reserveCapacity(response.headers.count + 8)
        if response.status == 200 {
            var cacheable = true
            if let existing = response.header("Cache-Control") {
                cacheable = !existing.contains("no-store")
            } else if noStorePaths.contains(request.path) {
                response.headers.append(("Cache-Control", "no-store"))
                cacheable = false
            } else {
                response.headers.append(("Cache-Control", cacheControl))
            }
            if cacheable {
                var etag = response.header("ETag")
                if etag == nil {
                    let tag = EntityTag.strong(response.body)
                    response.headers.append(("ETag", tag))
                    etag = tag
                }
                if let etag, let condition = request.header("if-none-match"), EntityTag.ifNoneMatch(condition, matches: etag) {
                    // A 304 may state only the 200's length (RFC 9110 §8.6), never 0.
                    let length = response.body.count
                    response = HTTPResponse(status: 304, headers: response.headers.filter { field in
                        ["etag", "cache-control", "vary", "content-location"].contains(field.name.lowercased())
                    })
                    response.headers.append(("Content-Length", String(length)))
                }
            }
        } else if response.status >= 400 && response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", "no-store"))
        }
        return isHead ? response.headAnswer() : response
    }
}

extension HTTPResponse {
    /// This answer as a `HEAD` answer (RFC 9110 §9.3.2): no body, and `Content-Length` stating
    /// the length the body had (unless the status forbids a length or one is already set). The
    /// server sends the stated length and no body bytes.
    public func headAnswer() -> HTTPResponse {
        var response = self
        let length = response.body.count
        response.body = []
        let mayStateLength = response.status >= 200 && response.status != 204 && response.status != 304
        if mayStateLength && response.header("Content-Length") == nil {
            response.headers.append(("Content-Length", String(length)))
        }
        return response
    }
}
