import Foundation
import HTTPServer
import TestSupport
import Testing

/// A temporary site: `<tmp>/site` is the root, `<tmp>/secret.txt` lies outside it.
private struct Site {
    let base: String
    var root: String { base + "/site" }
    static let secret = "TOP-SECRET-OUTSIDE-ROOT"

    init() throws {
        base = NSTemporaryDirectory() + "httpserver-static-\(UUID().uuidString)"
        let fm = FileManager.default
        try fm.createDirectory(atPath: base + "/site/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: base + "/site/.git", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: base + "/site/a b", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: base + "/site/empty", withIntermediateDirectories: true)
        let files: [(String, String)] = [
            ("site/index.html", "<h1>home</h1>"),
            ("site/style.css", "body{}"),
            ("site/app.js", "console.log(1)"),
            ("site/data.json", "{\"a\":1}"),
            ("site/icon.svg", "<svg/>"),
            ("site/image.png", "\u{89}PNG"),
            ("site/favicon.ico", "ico"),
            ("site/notes.txt", "notes"),
            ("site/sub/index.html", "<p>sub</p>"),
            ("site/a b/index.html", "<p>a b</p>"),
            ("site/.env", "SECRET=1"),
            ("site/.git/config", "[core]"),
            ("secret.txt", Site.secret),
        ]
        for (path, text) in files {
            try text.write(toFile: base + "/" + path, atomically: false, encoding: .utf8)
        }
        // Escapes: a file symlink and a directory symlink pointing outside the root;
        // plus one symlink that stays inside (allowed).
        try fm.createSymbolicLink(atPath: base + "/site/escape.txt", withDestinationPath: base + "/secret.txt")
        try fm.createSymbolicLink(atPath: base + "/site/outdir", withDestinationPath: base)
        try fm.createSymbolicLink(atPath: base + "/site/alias.css", withDestinationPath: "style.css")
    }

    func remove() { try? FileManager.default.removeItem(atPath: base) }
}

@Suite struct StaticFilesTests {
    @Test func servesFilesWithContentTypesAndCaching() throws {
        let site = try Site()
        defer { site.remove() }
        let files = StaticFiles(root: site.root)
        let expected: [(String, String)] = [
            ("/", "text/html; charset=utf-8"),
            ("/index.html", "text/html; charset=utf-8"),
            ("/style.css", "text/css; charset=utf-8"),
            ("/app.js", "text/javascript; charset=utf-8"),
            ("/data.json", "application/json"),
            ("/icon.svg", "image/svg+xml; charset=utf-8"),
            ("/image.png", "image/png"),
            ("/favicon.ico", "image/x-icon"),
            ("/notes.txt", "text/plain; charset=utf-8"),
            ("/sub/", "text/html; charset=utf-8"),
            ("/alias.css", "text/css; charset=utf-8"),
        ]
        for (path, type) in expected {
            let response = try #require(files.response(for: HTTPRequest(method: "GET", path: path)), "\(path)")
            #expect(response.status == 200, "\(path)")
            #expect(response.header("Content-Type") == type, "\(path)")
            #expect(response.header("Cache-Control") != nil, "\(path)")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
        let home = try #require(files.response(for: HTTPRequest(method: "GET", path: "/")))
        #expect(String(decoding: home.body, as: UTF8.self) == "<h1>home</h1>")
        #expect(home.header("Cache-Control") == "no-cache")
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/style.css"))?.header("Cache-Control") == "public, max-age=3600")
    }

    @Test func missingFilesAndDirectories() throws {
        let site = try Site()
        defer { site.remove() }
        let files = StaticFiles(root: site.root)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/missing.css")) == nil)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/sub/missing/")) == nil)
        let redirect = try #require(files.response(for: HTTPRequest(method: "GET", path: "/sub")))
        #expect(redirect.status == 301)
        #expect(redirect.header("Location") == "/sub/")
        let encoded = try #require(files.response(for: HTTPRequest(method: "GET", path: "/a b")))
        #expect(encoded.header("Location") == "/a%20b/")
        // A directory without a page is absent: no redirect to a 404.
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/empty")) == nil)
        #expect(StaticFiles(root: site.base + "/no-such-root").response(for: HTTPRequest(method: "GET", path: "/")) == nil)
    }

    /// Guards against path traversal in every spelling that can survive MHD's one decoding.
    @Test(arguments: [
        "/../secret.txt", "/sub/../../secret.txt", "/./index.html", "/..", "/sub/..",
        "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%252e%252e/secret.txt",
        "/..\\secret.txt", "/sub\\..\\..\\secret.txt", "/index.html\u{0}.txt",
        "//etc/passwd", "relative.txt", "",
    ])
    func traversalIsRefused(path: String) throws {
        let site = try Site()
        defer { site.remove() }
        let response = StaticFiles(root: site.root).response(for: HTTPRequest(method: "GET", path: path))
        if let response {
            #expect(response.status == 400)
            #expect(!String(decoding: response.body, as: UTF8.self).contains(Site.secret))
        }
    }

    @Test func symlinksOutsideRootAndHiddenFilesAreAbsent() throws {
        let site = try Site()
        defer { site.remove() }
        let files = StaticFiles(root: site.root)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/escape.txt")) == nil)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/outdir/secret.txt")) == nil)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/.env")) == nil)
        #expect(files.response(for: HTTPRequest(method: "GET", path: "/.git/config")) == nil)
    }

    @Test func methodsAndConditionalRequests() throws {
        let site = try Site()
        defer { site.remove() }
        let files = StaticFiles(root: site.root)
        let post = try #require(files.response(for: HTTPRequest(method: "POST", path: "/style.css")))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
        let get = try #require(files.response(for: HTTPRequest(method: "GET", path: "/style.css")))
        let etag = try #require(get.header("ETag"))
        let conditional = try #require(files.response(for: HTTPRequest(
            method: "GET", path: "/style.css", headers: ["If-None-Match": "\"other\", \(etag)"])))
        #expect(conditional.status == 304)
        #expect(conditional.body.isEmpty)
        #expect(conditional.header("ETag") == etag)
    }

    /// The same refusals over a real socket: paths exactly as a hostile client sends them.
    @Test func traversalOverTheWireNeverLeaksTheFile() throws {
        let site = try Site()
        defer { site.remove() }
        let files = StaticFiles(root: site.root)
        var router = Router()
        router.add("GET", "/api") { _ in .text("api") }
        router.setFallback { files.response(for: $0) ?? Router().notFound($0) }
        try withServer(handler: router.handler) { server in
            let css = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/style.css"))
            #expect(css.status == 200)
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.text == "body{}")
            let head = try RawHTTP.exchange(port: server.port, RawHTTP.request("HEAD", "/style.css"), isHead: true)
            #expect(head.status == 200)
            #expect(head.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value) == ["6"])
            #expect(head.header("Content-Type") == "text/css; charset=utf-8")

            for target in [
                "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
                "/..%2fsecret.txt", "/..%2Fsecret.txt", "/%252e%252e/secret.txt", "/..\\secret.txt",
                "/..%5csecret.txt", "/escape.txt", "/outdir/secret.txt", "/.env", "/%00/../secret.txt",
                "/index.html%00.txt",
                "/../Package.swift", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            ] {
                let response = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", target))
                #expect([400, 403, 404].contains(response.status), "\(target) -> \(response.status)")
                #expect(!response.text.contains(Site.secret), "\(target) leaked the file")
                #expect(!response.text.contains("swift-tools-version"), "\(target) leaked Package.swift")
                #expect(!response.text.contains("root:"), "\(target) leaked /etc/passwd")
            }
        }
    }
}
