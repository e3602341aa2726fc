#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves the files under one directory (for example `Public/`) for `GET` and `HEAD`.
///
/// ```swift
/// let files = StaticFiles(root: "Public")
/// router.setFallback { files.response(for: $0) ?? Router.notFound($0) }
/// ```
///
/// Never serves anything outside `root`:
/// - paths containing `\`, `%` (left over after MHD's single decoding, e.g. `%252e`), NUL or
///   other control bytes, `.`/`..` segments or empty segments (`//`) are refused with 400;
/// - names starting with `.` (`.env`, `.git/`) are treated as absent;
/// - the file found is resolved with `realpath` and must still lie under the resolved root,
///   so a symlink pointing outside is treated as absent; it is then opened with `O_NOFOLLOW`.
///
/// Answers carry `Content-Type` (text types with `charset=utf-8`), `Cache-Control`
/// (`no-cache` for HTML and JSON, one hour otherwise), a weak `ETag` (answered with 304 on a
/// matching `If-None-Match`) and `X-Content-Type-Options: nosniff`. Each hit reads the whole
/// file (one `realpath`, `open`, `fstat` and `read` loop): meant for small front-end assets.
public struct StaticFiles: Sendable {
    /// The directory as given.
    public let root: String
    /// Renders the 400 for a path that is not allowed.
    public var problems: ProblemRenderer = .standard
    /// Files larger than this are treated as absent.
    public var maxFileBytes: Int = 16 * 1024 * 1024
    private let resolvedRoot: String?

    public init(root: String) {
        self.root = root
        self.resolvedRoot = StaticFiles.realPath(root)
    }

    /// The answer for `request`, or nil when there is no such file (the caller then answers 404).
    /// Non-`GET`/`HEAD` requests for an existing file get 405 (`OPTIONS` gets 204) with `Allow`.
    public func response(for request: HTTPRequest) -> HTTPResponse? {
        guard let rootPath = resolvedRoot ?? StaticFiles.realPath(root) else {
            return nil
        }
        let relative: String
        switch StaticFiles.relativePath(for: request.path) {
        case .invalid:
            return problems.response(.badRequest("The request path is not allowed."))
        case .hidden:
            return nil
        case .file(let path):
            relative = path
        }
        let candidate = relative.isEmpty ? rootPath : rootPath + "/" + relative
        // Byte-wise containment check (String.hasPrefix compares canonically equivalent
        // Unicode, which is not what the file system does).
        guard let real = StaticFiles.realPath(candidate),
              real.utf8.starts(with: rootPath.utf8),
              real.utf8.count == rootPath.utf8.count || real.utf8.dropFirst(rootPath.utf8.count).first == UInt8(ascii: "/")
        else {
            return nil
        }

        let fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            return nil
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return nil
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            // "/docs" names a directory: send the client to "/docs/" so relative links work, but
            // only when "/docs/" has a page to show (else the redirect would lead to a 404).
            var index = stat()
            guard fstatat(fd, "index.html", &index, AT_SYMLINK_NOFOLLOW) == 0, (index.st_mode & S_IFMT) == S_IFREG else {
                return nil
            }
            return HTTPResponse(status: 301, headers: [("Location", StaticFiles.percentEncodedPath(request.path) + "/")])
        }
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxFileBytes else {
            return nil
        }

        switch request.method {
        case "GET", "HEAD":
            break
        case "OPTIONS":
            return HTTPResponse(status: 204, headers: [("Allow", "GET, HEAD, OPTIONS")])
        default:
            return problems.response(.methodNotAllowed(request.method, path: request.path, allow: "GET, HEAD, OPTIONS"))
        }

        let name = relative.split(separator: "/").last.map(String.init) ?? ""
        let type = StaticFiles.contentType(forFileName: name)
        let etag = "W/\"\(String(Int(info.st_size), radix: 16))-\(String(Int(info.st_mtim.tv_sec), radix: 16))-\(String(Int(info.st_mtim.tv_nsec), radix: 16))\""
        let cacheControl = type.hasPrefix("text/html") || type.hasPrefix("application/json")
            ? "no-cache" : "public, max-age=3600"
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type),
            ("Cache-Control", cacheControl),
            ("ETag", etag),
            ("X-Content-Type-Options", "nosniff"),
        ]
        if let match = request.header("if-none-match"), EntityTag.ifNoneMatch(match, matches: etag) {
            headers.removeFirst()
            headers.append(("Content-Length", String(Int(info.st_size))))  // the 200's length (RFC 9110 §8.6)
            return HTTPResponse(status: 304, headers: headers)
        }
        guard let body = StaticFiles.readAll(fd, size: Int(info.st_size)) else {
            return nil
        }
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    enum PathCheck: Equatable {
        /// Relative path under the root ("" for the root itself); a trailing "/" has
        /// become "/index.html".
        case file(String)
        /// Refused outright (400).
        case invalid
        /// A dot-file or dot-directory: treated as absent.
        case hidden
    }

    /// Validates a decoded request path and turns it into a relative path under the root.
    static func relativePath(for path: String) -> PathCheck {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else {
            return .invalid
        }
        for byte in bytes where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "%") {
            return .invalid
        }
        let segments = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var parts: [String] = []
        var hidden = false
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment.isEmpty {
                if isLast { break }           // trailing "/"
                return .invalid              // "//"
            }
            if segment.elementsEqual([UInt8(ascii: ".")]) || segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                return .invalid
            }
            if segment.first == UInt8(ascii: ".") {
                hidden = true
            }
            parts.append(String(decoding: segment, as: UTF8.self))
        }
        if hidden {
            return .hidden
        }
        if bytes.last == UInt8(ascii: "/") {
            parts.append("index.html")
        }
        return .file(parts.joined(separator: "/"))
    }

    /// The `Content-Type` for a file name, by extension; `application/octet-stream` if unknown.
    public static func contentType(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else {
            return "application/octet-stream"
        }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json", "map": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "md": return "text/markdown; charset=utf-8"
        case "xml": return "application/xml; charset=utf-8"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "wasm": return "application/wasm"
        default: return "application/octet-stream"
        }
    }

    /// `path` with every byte outside RFC 3986 `pchar` and "/" percent-encoded.
    static func percentEncodedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                 UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else {
            return nil
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func readAll(_ fd: Int32, size: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var offset = 0
            while offset < size {
                let n = read(fd, buffer.baseAddress! + offset, size - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }   // file shrank: serve what was read
                offset += n
            }
            count = offset
            failed = offset == 0 && size > 0
        }
        return failed ? nil : bytes
    }
}
