import HTTPServer

/// Middleware: the security header fields on every answer, rejections included (OWASP REST
/// Security Cheat Sheet, "Security headers"): `X-Content-Type-Options: nosniff`, a
/// `Content-Security-Policy` (``contentSecurityPolicy`` on HTML pages, set where the page is
/// served by ``pagePolicy(_:)``; ``apiContentSecurityPolicy`` on everything else, never on a 304),
/// `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`, and `Strict-Transport-Security`
/// when serving HTTPS.
struct SecurityHeaders: HTTPMiddleware {
    /// The policy for HTML pages (the page in `Public/`): scripts and style sheets only from
    /// files of the same origin (no inline `<script>`, `<style>` or `style` attribute, no `eval`;
    /// scripts may still set `element.style`), same-origin fetches, no plugins, no framing.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; "
        + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors 'none'"

    /// The policy for every answer that is not an HTML page (JSON, problem details, exports,
    /// images, the page's scripts and style sheets): nothing may load or run, no framing. It
    /// governs only what a browser opens as a document (an exported SVG, a JSON answer opened in
    /// a tab); fetches and subresources ignore it. About 160 bytes shorter than the page's policy
    /// on every API answer.
    static let apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    /// The fields added to every answer after the policy, in order.
    private let fields: [(name: String, value: String)]

    /// `tls`: the server speaks HTTPS, so answers carry `Strict-Transport-Security`.
    init(tls: Bool) {
        var fields: [(name: String, value: String)] = [
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
        ]
        if tls {
            fields.append(("Strict-Transport-Security", "max-age=31536000"))
        }
        self.fields = fields
    }

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        var response = next(request)
        // HTML pages carry the page's policy already (see `pagePolicy`); everything else gets the API's.
        let (hasNosniff, hasPolicy) = response.containsHeaders("X-Content-Type-Options", "Content-Security-Policy")
        if !hasNosniff {
            response.headers.append(("X-Content-Type-Options", "nosniff"))
        }
        // Not on a 304: a cache takes a 304's fields into the stored answer (RFC 9111 §4.3.4), and
        // the API's policy would replace a cached page's own, blocking its scripts.
        if !hasPolicy && response.status != 304 {
            response.headers.append(("Content-Security-Policy", SecurityHeaders.apiContentSecurityPolicy))
        }
        response.headers.append(contentsOf: fields)
        return response
    }

    func decorate(rejectionOf request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(to: request, next: next)
    }

    /// `response` with the page's `Content-Security-Policy` when it is an HTML page (the static
    /// files' answers go through this; every other answer gets the API's policy above).
    static func pagePolicy(_ response: HTTPResponse) -> HTTPResponse {
        guard let type = response.header("Content-Type"), isHTML(type) else { return response }
        var response = response
        response.headers.append(("Content-Security-Policy", contentSecurityPolicy))
        return response
    }

    /// Whether a `Content-Type` value is `text/html` (any case, parameters allowed).
    static func isHTML(_ contentType: String) -> Bool {
        let type = contentType.utf8
        let html = "text/html".utf8
        guard type.count >= html.count else { return false }
        for (byte, expected) in zip(type, html) where (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected {
            return false
        }
        guard let next = type.dropFirst(html.count).first else { return true }
        return next == UInt8(ascii: ";") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
    }
}
