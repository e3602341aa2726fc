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

/// HTTPS with a self-signed certificate, and bad key files. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct TLSTests {
    static let tlsTools: Bool = ["/usr/bin/openssl", "/usr/bin/curl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: tlsTools, "needs the openssl and curl command-line tools (Debian openssl, curl)"))
    func httpsWithASelfSignedCertificate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        #expect(try runTool("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                  "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                                                  "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"]).status == 0)
        let configFile = dir.appendingPathComponent("c.json")
        try Data(#"{"tlsCertificateFile": "cert.pem", "tlsKeyFile": "key.pem"}"#.utf8).write(to: configFile)
        var configuration = try ServiceConfiguration.load(arguments: ["--config", configFile.path], environment: [:])
        configuration.publicDirectory = testConfiguration().publicDirectory
        configuration.port = 0
        #expect(configuration.server.isTLS)
        let service = ContrastService(configuration: configuration)
        let server = service.makeServer(accessLog: AccessLog(level: "error"))
        try server.start()
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/v1/contrast?foreground=%23777&background=white"
        let curl = try runTool("/usr/bin/curl", ["-sS", "--cacert", cert, "--max-time", "10", "-D", "-", url])
        #expect(curl.status == 0, "\(curl.output)")
        #expect(curl.output.hasPrefix("HTTP/1.1 200"), "\(curl.output)")
        #expect(curl.output.contains("\"ratioText\":\"4.47\""))
        #expect(curl.output.lowercased().contains("strict-transport-security: max-age=31536000"))
        // Without the CA the certificate is refused; plain HTTP on the TLS port gets no answer.
        #expect(try runTool("/usr/bin/curl", ["-sS", "--max-time", "10", url]).status != 0)
        let plain = try RawHTTPConnection(port: server.port, timeoutSeconds: 3)
        plain.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(!String(decoding: plain.readToEnd(), as: UTF8.self).contains("HTTP/1.1 200"))

        // A key that is missing or not PEM stops start-up with the key's name.
        try Data("nonsense".utf8).write(to: URL(fileURLWithPath: key))
        do {
            _ = try ServiceConfiguration.load(arguments: ["--config", configFile.path], environment: [:])
            Issue.record("a bad key was accepted")
        } catch {
            #expect(error.key == "tlsKeyFile")
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_TLS_CERTIFICATE_FILE": cert])
        }
    }
}
