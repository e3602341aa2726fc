@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Static files: no traversal out of Public/ in any encoding. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct StaticFileTraversalTests {
    @Test func noTraversalOutOfThePublicFolderInAnyEncoding() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pub-\(UUID().uuidString)")
        let publicDir = dir.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: publicDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = "TOP-SECRET-\(UUID().uuidString)"
        try Data(marker.utf8).write(to: dir.appendingPathComponent("secret.txt"))
        try Data("<!doctype html><p>home</p>".utf8).write(to: publicDir.appendingPathComponent("index.html"))
        try FileManager.default.createSymbolicLink(atPath: publicDir.appendingPathComponent("leak.txt").path,
                                                   withDestinationPath: dir.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(atPath: publicDir.appendingPathComponent("up").path,
                                                   withDestinationPath: dir.path)
        let live = try ProductionServer { $0.publicDirectory = publicDir.path }
        #expect(try live.request("GET", "/").text.contains("home"))
        let attempts = [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt", "/%2e%2e%2fsecret.txt",
            "/..%2fsecret.txt", "/..%2Fsecret.txt", "/%252e%252e/secret.txt", "/..%252fsecret.txt",
            "/..\\secret.txt", "/%5c..%5csecret.txt", "/..%5csecret.txt", "/%c0%ae%c0%ae/secret.txt",
            "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/etc/passwd", "/%2fetc%2fpasswd",
            "/leak.txt", "/up/secret.txt", "/up/", "/./secret.txt", "/x/../../secret.txt", "/secret.txt%00.html",
            "/..;/secret.txt", "/%2e%2e;/secret.txt",
        ]
        for path in attempts {
            let answer = try live.raw("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 400 || answer.status == 404, "\(path): \(answer.status)")
            #expect(!answer.text.contains(marker), "\(path) leaked the file")
            #expect(!answer.text.contains("root:"), "\(path) leaked /etc/passwd")
            #expect(answer.header("Content-Type") == "application/problem+json", "\(path)")
        }
        // An absolute-form request target is no way out either.
        let absolute = try live.raw("GET http://x\(dir.path)/secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(!absolute.text.contains(marker))
    }
}
