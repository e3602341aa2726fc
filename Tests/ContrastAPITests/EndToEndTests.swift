import ContrastAPI
import Foundation
import JSONValue
import Synchronization
import TestSupport
import Testing

/// The real server on port 0, spoken to over TCP.
@Suite(.serialized)
struct EndToEndTests {
    @Test func contrastOverHTTP() throws {
        let live = try LiveServer()
        #expect(live.port > 0)
        let post = try live.request("POST", "/v1/contrast", body: ##"{"foreground": "#777777", "background": "#ffffff"}"##)
        #expect(post.status == 200)
        #expect(post.headers["content-type"] == "application/json")
        #expect(post.json["ratioText"] == "4.47")
        #expect(post.json["wcag"]?["AA"]?["normalText"] == false)
        let get = try live.request("GET", "/v1/contrast?foreground=\(q("hsl(240, 100%, 50%)"))&background=\(q("#fff"))")
        #expect(get.status == 200)
        #expect(abs(get.json["ratio"]!.double! - 8.592471358428805) < 1e-9)
        let health = try live.request("GET", "/healthz")
        #expect(health.status == 200 && health.json["status"] == "ok")
    }

    @Test func errorsOverHTTP() throws {
        let live = try LiveServer()
        expectProblem(try live.request("POST", "/v1/contrast", body: "{\"foreground\": "), 400)
        expectProblem(try live.request("POST", "/v1/contrast", body: ##"{"foreground": "currentcolor", "background": "#fff"}"##), 422, pointer: "/foreground")
        expectProblem(try live.request("GET", "/nowhere"), 404)
        let wrong = try live.request("PUT", "/v1/contrast", body: "{}")
        expectProblem(wrong, 405)
        #expect(wrong.headers["allow"] != nil)
        #expect(wrong.json["type"] == "/problems/method-not-allowed")
        // The page's files take GET and HEAD only: another method is a 405, not a 404.
        for (method, path) in [("DELETE", "/"), ("PUT", "/index.html"), ("POST", "/app.js")] {
            let answer = try live.request(method, path, body: method == "DELETE" ? nil : "x")
            expectProblem(answer, 405)
            #expect(answer.headers["allow"] == "GET, HEAD, OPTIONS", "\(method) \(path)")
        }
        #expect(try live.request("OPTIONS", "/index.html").status == 204)
        expectProblem(try live.request("DELETE", "/no-such-file.html"), 404)
    }

    @Test func oversizedBodyIsRefusedBeforeItIsRead() throws {
        var config = testConfiguration()
        config.maxBodyBytes = 1000
        let live = try LiveServer(configuration: config)
        // Announce 10 MB and send none of it: the answer must come from the header alone.
        let head = "POST /v1/contrast HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n"
        expectProblem(try live.raw(Array(head.utf8)), 413)
        // Just over the cap, sent in full.
        let body = ##"{"foreground": "#000", "background": "#fff", "x": ""## + String(repeating: "a", count: 1000) + "\"}"
        expectProblem(try live.request("POST", "/v1/contrast", body: body), 413)
    }

    @Test func servesThePublicPage() throws {
        let live = try LiveServer()
        let page = try live.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.text.contains("ContrastService"))
        let js = try live.request("GET", "/app.js")
        #expect(js.status == 200 && js.headers["content-type"]?.contains("javascript") == true)
        // Traversal is refused (400 from the static-file layer), never served.
        let traversal = try live.request("GET", "/../Package.swift")
        #expect(traversal.status == 400 || traversal.status == 404)
        #expect(!traversal.text.contains("PackageDescription"))
    }

    @Test func concurrentClients() async throws {
        let live = try LiveServer()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<16 {
                group.addTask {
                    let gray = String(format: "#%02x%02x%02x", i * 16, i * 16, i * 16)
                    let r = try live.request("GET", "/v1/contrast?foreground=\(q(gray))&background=white")
                    return r.status == 200 && r.json["foreground"]?["hex"] == .string(gray)
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}

/// The `contrast-server` executable: configuration errors, startup, SIGTERM.
@Suite(.serialized)
struct ExecutableTests {
    /// Runs the built executable; a missing build fails the test (never skips it).
    func run(_ args: [String], env: [String: String] = [:], directory: URL? = nil) throws -> ServerProcess {
        do {
            return try ServerProcess(arguments: args, environment: env, directory: directory ?? repositoryRoot)
        } catch {
            Issue.record("\(error)")
            throw error
        }
    }

    @Test func badConfigNamesTheKeyAndFails() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases = [(##"{"port": "eighty"}"##, "port"), (##"{"prot": 80}"##, "prot"), ("{", "not valid JSON"),
                     (##"{"threads": 0}"##, "threads"), (##"{"logLevel": "loud"}"##, "logLevel")]
        for (text, expected) in cases {
            let file = dir.appendingPathComponent("c.json")
            try Data(text.utf8).write(to: file)
            let p = try run(["--config", file.path])
            let message = p.finalLog()
            #expect(p.terminationStatus != 0)
            #expect(message.contains(expected), "\(message)")
        }
        let p = try run(["--port", "99999"])
        let message = p.finalLog()
        #expect(p.terminationStatus != 0)
        #expect(message.contains("--port"), "\(message)")
    }

    /// An ops pass: a key of another certificate (or an encrypted one), which GnuTLS refuses only
    /// when the daemon starts, exited 1 with a runtime log line; it is the configuration error it
    /// is, naming tlsKeyFile, exit 2.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs the openssl command-line tool (Debian openssl)"))
    func tlsKeyOfAnotherCertificateIsAConfigurationError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tlskey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let other = dir.appendingPathComponent("other.pem").path
        for args in [["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost"],
                     ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", other]] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            try #require(p.terminationStatus == 0)
        }
        let file = dir.appendingPathComponent("c.json")
        try Data(#"{"tlsCertificateFile": "cert.pem", "tlsKeyFile": "other.pem", "port": 0}"#.utf8).write(to: file)
        let p = try run(["--config", file.path])
        let message = p.finalLog()
        #expect(p.terminationStatus == 2, "\(message)")
        #expect(message.contains("configuration error: tlsKeyFile: the key ") && message.contains("other.pem cannot be used with the certificate ") && message.contains("do not match"), "\(message)")
    }

    /// Started with a `--config` elsewhere, where no `Public/` folder is, the API runs without the
    /// page and says so; it had stopped with "publicDirectory: Public is not a directory" for a
    /// folder the file never named (hostile test, stop 14).
    @Test func startsWithoutTheDefaultPublicFolder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nopublic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"port": 0}"#.utf8).write(to: dir.appendingPathComponent("c.json"))
        let p = try run(["--config", dir.appendingPathComponent("c.json").path], directory: dir)
        p.waitForLog("web page is not served")
        let text = p.log
        #expect(p.isRunning && text.contains("listening on") && text.contains("web page is not served"), "\(text)")
        // GET / says why there is no page, not only "no endpoint or file at /" (new-user pass).
        if let port = try? p.waitForPort() {
            let page = try RawHTTP.exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let body = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 404 && body.contains("CONTRAST_PUBLIC_DIRECTORY"), "\(body)")
        } else {
            Issue.record("no port in \(p.log)")
        }
        p.terminate()
        #expect(p.terminationStatus == 0)
        // The same with the default written out, as the shipped config.json writes it (a hostile
        // pass: a copy of it elsewhere stopped startup with "…/Public is not a directory").
        try Data(#"{"port": 0, "publicDirectory": "Public"}"#.utf8).write(to: dir.appendingPathComponent("w.json"))
        let written = try run(["--config", dir.appendingPathComponent("w.json").path], directory: dir)
        written.waitForLog("web page is not served")
        #expect(written.isRunning && written.log.contains("listening on"), "\(written.log)")
        written.terminate()
        // A folder of another name must exist.
        try Data(#"{"port": 0, "publicDirectory": "Site"}"#.utf8).write(to: dir.appendingPathComponent("s.json"))
        let other = try run(["--config", dir.appendingPathComponent("s.json").path], directory: dir)
        #expect(other.waitForExit()?.status == 2 && other.finalLog().contains("Site is not a directory"), "\(other.log)")
    }

    @Test func startsOnTheDefaultConfigAndStopsOnSIGTERM() throws {
        let p = try run(["--port", "0"])
        // The startup line says the port.
        let port = try? p.waitForPort()
        #expect(port != nil, "\(p.log)")
        p.terminate()
        #expect(p.terminationStatus == 0)
        #expect(p.exit?.reason == .exit)
    }
}

/// Configuration precedence and validation, without a process.
struct ConfigurationTests {
    @Test func repositoryConfigEqualsTheBuiltInDefaults() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("config.json"))
        var fromFile = ServiceConfiguration()
        try fromFile.apply(fileContents: Array(data), baseDirectory: nil)
        #expect(fromFile == ServiceConfiguration())
    }

    @Test func environmentOverridesFileAndFlagsOverrideEnvironment() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("c.json")
        try Data(##"{"port": 9000, "threads": 3, "host": "0.0.0.0"}"##.utf8).write(to: file)
        let c = try ServiceConfiguration.load(arguments: ["--config", file.path, "--port", "9100"],
                                              environment: ["CONTRAST_PORT": "9050", "CONTRAST_THREADS": "4"])
        #expect(c.port == 9100 && c.threads == 4 && c.host == "0.0.0.0")
        let e = try ServiceConfiguration.load(arguments: ["--config", file.path], environment: ["CONTRAST_PORT": "9050"])
        #expect(e.port == 9050 && e.threads == 3)
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(arguments: ["--config", file.path], environment: ["CONTRAST_PORT": "x"])
        }
        #expect(throws: ConfigurationError.self) { try ServiceConfiguration.load(arguments: ["--bogus"], environment: [:]) }
        // A flag given twice is refused, naming it (it silently took the last; hostile test, stop 14).
        do {
            _ = try ServiceConfiguration.load(arguments: ["--port", "9100", "--port", "9200"], environment: [:])
            Issue.record("--port given twice was accepted")
        } catch {
            #expect(error.key == "--port" && error.problem.contains("more than once"), "\(error)")
        }
        // A whole number in the environment is decimal digits (a hostile pass: CONTRAST_THREADS=0x10
        // started 16 threads; "2.0" and " 2" were read too).
        for raw in ["0x10", "2.0", " 2", "2 ", "1e1", "+2", "-2", ""] {
            #expect(throws: ConfigurationError.self, "\(raw)") { try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_THREADS": raw]) }
        }
        #expect(try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_THREADS": "16"]).threads == 16)
        for huge in ["9007199254740993", "99999999999999999999"] {
            do {
                _ = try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_MEMORY_BUDGET_MIB": huge])
                Issue.record("\(huge) was accepted")
            } catch {
                #expect(error.key == "CONTRAST_MEMORY_BUDGET_MIB" && error.problem == "is far beyond its range, got \"\(huge)\"", "\(error)")
            }
        }
    }

    /// An ops pass: a misspelt `CONTRAST_THREAD=4` was ignored without a word. The server logs
    /// the variables that name no setting; Kubernetes service links are not among them, and a
    /// service link in CONTRAST_PORT (a Service named `contrast`) says what it is.
    @Test func unknownEnvironmentVariablesAreNamedButServiceLinksAreNot() throws {
        let env = ["CONTRAST_THREAD": "4", "CONTRAST_THREADS": "2", "CONTRAST_CONFIG": "x", "HOME": "/root",
                   "CONTRAST_SERVICE_SERVICE_HOST": "10.0.0.1", "CONTRAST_SERVICE_SERVICE_PORT": "8080",
                   "CONTRAST_SERVICE_SERVICE_PORT_HTTP": "8080", "CONTRAST_SERVICE_PORT": "tcp://10.0.0.1:8080",
                   "CONTRAST_SERVICE_PORT_8080_TCP": "tcp://10.0.0.1:8080", "CONTRAST_SERVICE_PORT_8080_TCP_ADDR": "10.0.0.1",
                   "CONTRAST_LOGLEVEL": "debug"]
        #expect(ServiceConfiguration.unknownEnvironmentVariables(env) == ["CONTRAST_LOGLEVEL", "CONTRAST_THREAD"])
        do {
            _ = try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_PORT": "tcp://10.0.0.1:8080"])
            Issue.record("a service link was read as a port")
        } catch {
            #expect(error.key == "CONTRAST_PORT" && error.problem.contains("enableServiceLinks: false"), "\(error)")
        }
        // A hostile pass: --port wins, so a bad CONTRAST_PORT beside it is not read; a misspelt
        // token variable would have started the service open, so it is refused.
        #expect(try ServiceConfiguration.load(arguments: ["--port", "9100"], environment: ["CONTRAST_PORT": "tcp://10.0.0.1:8080"]).port == 9100)
        do {
            _ = try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKEN": "abcdefghijklmnopqrstu"])
            Issue.record("CONTRAST_AUTH_TOKEN was ignored")
        } catch {
            #expect(error.key == "CONTRAST_AUTH_TOKEN" && error.problem.contains("did you mean CONTRAST_AUTH_TOKENS?"), "\(error)")
        }
        // In another case too (a hostile pass: these started the service with tokens off).
        for name in ["CONTRAST_Auth_Tokens", "contrast_auth_tokens", "Contrast_Auth_Tokens_File"] {
            do {
                _ = try ServiceConfiguration.load(arguments: [], environment: [name: "abcdefghijklmnopqrstu"])
                Issue.record("\(name) was ignored")
            } catch {
                #expect(error.key == name && error.problem.contains("did you mean CONTRAST_AUTH_TOKENS"), "\(error)")
            }
        }
        // An empty token file variable is refused, as an empty token variable is (a hostile pass:
        // auth started off without a word); a lower-case setting is listed as naming none.
        do {
            _ = try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKENS_FILE": ""])
            Issue.record("an empty CONTRAST_AUTH_TOKENS_FILE was accepted")
        } catch {
            #expect(error.key == "CONTRAST_AUTH_TOKENS_FILE" && error.problem.contains("set but empty"), "\(error)")
        }
        // The same words for an empty token variable (a new user's pass: it said "token 1: a
        // token must be 16 to 4096 characters").
        for empty in ["", "  "] {
            do {
                _ = try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKENS": empty])
                Issue.record("an empty CONTRAST_AUTH_TOKENS was accepted")
            } catch {
                #expect(error.key == "CONTRAST_AUTH_TOKENS" && error.problem.hasPrefix("is set but empty: bearer tokens would be off"), "\(error)")
            }
        }
        #expect(ServiceConfiguration.unknownEnvironmentVariables(["contrast_memory_budget_mib": "0", "CONTRAST_THREADS": "2"]) == ["contrast_memory_budget_mib"])
        // The real names and other settings still start.
        #expect(try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_AUTH_TOKENS": "abcdefghijklmnopqrstuvwxyz012345", "CONTRAST_THREADS": "4"]).threads == 4)
    }

    /// Values that pass their key's type check but could never work stop startup, naming the
    /// key (found by a hostile test: these started and served nothing, or exited 1 unnamed).
    @Test func unusableValuesStopStartupNamingTheKey() throws {
        let bad: [(String, String, String)] = [
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "design.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a.example/path", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "ftp://a.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a.example:99999", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://user@a.example", "corsAllowedOrigins"),
            // Hosts no browser sends in an Origin (hostile test, stop 14): a wildcard is no pattern.
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://*.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a.example:0", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a..b", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a_b.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://-a.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://bücher.example", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://b.example:080", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://256.1.1.1", "corsAllowedOrigins"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://1.2.3", "corsAllowedOrigins"),
            ("CONTRAST_PUBLIC_DIRECTORY", "/nonexistent-\(UUID().uuidString)", "publicDirectory"),
            ("CONTRAST_PUBLIC_DIRECTORY", "README.md", "publicDirectory"),
            ("CONTRAST_HOST", "999.1.1.1", "host"),
            ("CONTRAST_HOST", "example.com", "host"),
        ]
        for (name, value, key) in bad {
            do {
                _ = try ServiceConfiguration.load(arguments: [], environment: [name: value])
                Issue.record("\(name)=\(value) accepted")
            } catch {
                #expect(error.key == key, "\(name)=\(value): \(error)")
            }
        }
        let good: [(String, String)] = [
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "https://a.example:8443/, http://[::1]:3000, HTTP://Design.Example, *"),
            ("CONTRAST_CORS_ALLOWED_ORIGINS", "http://127.0.0.1:3000, https://xn--bcher-kva.example, https://a-b.c-d.example"),
            ("CONTRAST_HOST", "[::1]"), ("CONTRAST_HOST", "::"), ("CONTRAST_HOST", "0.0.0.0"), ("CONTRAST_HOST", "localhost"),
        ]
        for (name, value) in good {
            #expect(throws: Never.self, "\(name)=\(value)") { try ServiceConfiguration.load(arguments: [], environment: [name: value]) }
        }
        // Level names in any case, kept as listed (WARN was refused; hostile test, stop 14).
        #expect(try ServiceConfiguration.load(arguments: [], environment: ["CONTRAST_LOG_LEVEL": "WARN"]).logLevel == "warn")
    }
}
