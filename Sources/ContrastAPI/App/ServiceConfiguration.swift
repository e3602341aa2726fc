import Foundation
import ColorScience
import HTTPServer
import JSONValue

/// Everything the service can be configured with. Defaults equal the repository's `config.json`.
///
/// Sources, later ones overriding earlier ones: built-in defaults; the config file (`--config
/// PATH`, else `$CONTRAST_CONFIG`, else `./config.json` when present); environment variables
/// (`CONTRAST_PORT`, …, see `keys`); command-line flags `--host` and `--port`.
public struct ServiceConfiguration: Sendable, Equatable {
    /// Address to listen on (`127.0.0.1`, `0.0.0.0`, `::`).
    public var host = "127.0.0.1"
    /// TCP port `0...65535`; 0 picks a free port.
    public var port = 8080
    /// Worker threads (libmicrohttpd thread pool) `1...256`.
    public var threads = 2
    /// Largest request body accepted, bytes `1...1073741824`; larger gets 413 before it is read.
    public var maxBodyBytes = 1_048_576
    /// Open connections at most `1...100000`.
    public var connectionLimit = 1024
    /// Open connections per client IP at most `0...100000` (0 = no per-IP limit).
    public var perIPConnectionLimit = 0
    /// Seconds an idle or slow connection may stay open `1...3600`.
    public var connectionTimeoutSeconds = 30
    /// Folder served at `/` (relative paths: to the config file's folder, or the working directory).
    public var publicDirectory = "Public"
    /// Whether `publicDirectory` was set as the default's own text, `Public` (in the file, where
    /// it is then taken beside the file, or in the environment): such a folder may be absent,
    /// as the default may (a hostile pass: the shipped config.json writes it, and a copy of it
    /// elsewhere stopped startup).
    var publicDirectoryWrittenAsDefault = false
    /// `debug`, `info`, `warn` or `error`.
    public var logLevel = "info"
    /// Most colors in one palette (matrix, audit, palette endpoints) `1...4096`.
    public var maxPaletteSize = 256
    /// Largest image accepted by `/v1/image/*`, bytes `1...1073741824` (20 MiB). These two paths
    /// get this as their HTTP body cap instead of `maxBodyBytes`; larger bodies get 413.
    public var maxImageBytes = 20_971_520
    /// Largest body of `/v1/tokens/audit` (token files), bytes `1...1073741824` (8 MiB: the
    /// Figma Variables REST response of a large design system is over 1 MiB).
    public var maxTokenBytes = 8_388_608
    /// Most pixels (width × height) an image header may declare, `1...1000000000` (40 MP);
    /// more gets 422 before any pixel is decoded (decompression bombs).
    public var maxImagePixels = 40_000_000
    /// Set by `--healthcheck`: probe the running server's `/healthz` and exit, for `HEALTHCHECK`.
    public var healthcheckOnly = false
    /// Seconds a request may take to arrive `0...3600` (0 = no limit): from the connection's
    /// opening (or previous answer) to the request line, and from there to the body's end.
    /// Slower clients (slowloris) are disconnected.
    public var requestTimeoutSeconds = 30
    /// Most bytes of request header fields; more gets a 431 problem (1024...16384: libmicrohttpd's
    /// 32 KiB per-connection pool must also hold the request line and the read buffer).
    public var maxHeaderBytes = 8192
    /// Seconds SIGTERM waits for requests in progress before closing connections `0...3600`.
    public var shutdownGracePeriodSeconds = 10
    /// File of bearer tokens, one per line (`#` comments); "" = none. With tokens (here or in
    /// `CONTRAST_AUTH_TOKENS`), `/v1`, `/api` and `/metrics` need `Authorization: Bearer`.
    public var authTokensFile = ""
    /// Origins allowed to call the API from browser pages (CORS), or `["*"]`; empty = same
    /// origin only (no CORS headers). Environment: comma-separated.
    public var corsAllowedOrigins: [String] = []
    /// PEM certificate (chain) file for HTTPS; "" = plain HTTP. Needs `tlsKeyFile`.
    public var tlsCertificateFile = ""
    /// PEM private key file (unencrypted) for HTTPS.
    public var tlsKeyFile = ""
    /// `max-age` of successful GET answers, seconds `0...31536000` (0 = `no-cache`).
    public var cacheMaxAgeSeconds = 300
    /// Threads that run heavy requests (images, palettes, matrices, audits, simulations: the
    /// paths in ``ContrastService/heavyPaths``) off the HTTP worker threads, `1...64`.
    public var heavyWorkers = 1
    /// Heavy requests that may wait for a worker, `0...1024`; more get 503 `server-busy`.
    public var heavyQueueLimit = 8
    /// Heavy requests one client address may have running or waiting, `0...1024` (0 = no
    /// limit; behind a proxy every client shares its address); more get 429 `too-many-heavy-requests`.
    public var heavyPerClientLimit = 3
    /// Seconds a heavy request may take before it is answered 503 `deadline-exceeded`,
    /// `0...3600` (0 = no deadline).
    public var heavyDeadlineSeconds = 30
    /// MiB that request bodies and unsent answers may hold in all, `0...65536` (0 = no budget);
    /// past it, heavy requests get 503 `server-busy`.
    public var memoryBudgetMiB = 64

    /// The bearer tokens, read by `load` from `authTokensFile` and `CONTRAST_AUTH_TOKENS`.
    /// Not part of `json` or `==`, and never printed.
    public var authTokens: [String] = []
    /// Contents of `tlsCertificateFile` and `tlsKeyFile`, read by `load`. Not part of `json`.
    public var tlsCertificatePEM: String?
    /// Contents of `tlsKeyFile`, read by `load`. Not part of `json`.
    public var tlsKeyPEM: String?

    public init() {}

    /// One configuration key: its JSON name, environment variable and how to set it.
    struct Key: Sendable {
        let name: String
        let env: String
        let set: @Sendable (inout ServiceConfiguration, JSON) throws(ConfigurationError) -> Void
        let get: @Sendable (ServiceConfiguration) -> JSON
    }

    static func intKey(_ name: String, _ env: String, _ range: ClosedRange<Int>,
                       _ kp: WritableKeyPath<ServiceConfiguration, Int> & Sendable) -> Key {
        Key(name: name, env: env, set: { (c: inout ServiceConfiguration, v: JSON) throws(ConfigurationError) in
            guard case .number(let d) = v, d == d.rounded(), d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
                throw ConfigurationError(key: name, problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(v.serializedString)")
            }
            c[keyPath: kp] = Int(d)
        }, get: { .number(Double($0[keyPath: kp])) })
    }

    static func stringKey(_ name: String, _ env: String, allowed: [String]? = nil,
                          _ kp: WritableKeyPath<ServiceConfiguration, String> & Sendable) -> Key {
        Key(name: name, env: env, set: { (c: inout ServiceConfiguration, v: JSON) throws(ConfigurationError) in
            guard case .string(let s) = v, !s.isEmpty else {
                throw ConfigurationError(key: name, problem: "must be a non-empty string, got \(v.serializedString)")
            }
            if let allowed {
                // Names in any case (`WARN` as `warn`), kept in the listed spelling.
                guard let canonical = allowed.first(where: { $0.lowercased() == s.lowercased() }) else {
                    throw ConfigurationError(key: name, problem: "must be one of \(allowed.joined(separator: ", ")), got \"\(s)\"")
                }
                c[keyPath: kp] = canonical
                return
            }
            c[keyPath: kp] = s
        }, get: { .string($0[keyPath: kp]) })
    }

    /// A string key that may be empty (paths that are off when empty).
    static func optionalStringKey(_ name: String, _ env: String,
                                  _ kp: WritableKeyPath<ServiceConfiguration, String> & Sendable) -> Key {
        Key(name: name, env: env, set: { (c: inout ServiceConfiguration, v: JSON) throws(ConfigurationError) in
            guard case .string(let s) = v else {
                throw ConfigurationError(key: name, problem: "must be a string (\"\" for none), got \(v.serializedString)")
            }
            c[keyPath: kp] = s
        }, get: { .string($0[keyPath: kp]) })
    }

    /// A list of strings: a JSON array in the file, comma-separated in the environment.
    static func stringListKey(_ name: String, _ env: String,
                              _ kp: WritableKeyPath<ServiceConfiguration, [String]> & Sendable) -> Key {
        Key(name: name, env: env, set: { (c: inout ServiceConfiguration, v: JSON) throws(ConfigurationError) in
            var list: [String] = []
            switch v {
            case .string(let text):
                list = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case .array(let items):
                for item in items {
                    guard case .string(let s) = item, !s.isEmpty else {
                        throw ConfigurationError(key: name, problem: "must be an array of non-empty strings, got \(v.serializedString)")
                    }
                    list.append(s)
                }
            default:
                throw ConfigurationError(key: name, problem: "must be an array of strings, got \(v.serializedString)")
            }
            c[keyPath: kp] = list
        }, get: { .array($0[keyPath: kp].map { .string($0) }) })
    }

    /// All keys, in the order `config.json` lists them.
    static let keys: [Key] = [
        stringKey("host", "CONTRAST_HOST", \.host),
        intKey("port", "CONTRAST_PORT", 0...65535, \.port),
        intKey("threads", "CONTRAST_THREADS", 1...256, \.threads),
        intKey("maxBodyBytes", "CONTRAST_MAX_BODY_BYTES", 1...1_073_741_824, \.maxBodyBytes),
        intKey("connectionLimit", "CONTRAST_CONNECTION_LIMIT", 1...100_000, \.connectionLimit),
        intKey("perIPConnectionLimit", "CONTRAST_PER_IP_CONNECTION_LIMIT", 0...100_000, \.perIPConnectionLimit),
        intKey("connectionTimeoutSeconds", "CONTRAST_CONNECTION_TIMEOUT_SECONDS", 1...3600, \.connectionTimeoutSeconds),
        stringKey("publicDirectory", "CONTRAST_PUBLIC_DIRECTORY", \.publicDirectory),
        stringKey("logLevel", "CONTRAST_LOG_LEVEL", allowed: ["debug", "info", "warn", "error"], \.logLevel),
        intKey("maxPaletteSize", "CONTRAST_MAX_PALETTE_SIZE", 1...4096, \.maxPaletteSize),
        intKey("maxImageBytes", "CONTRAST_MAX_IMAGE_BYTES", 1...1_073_741_824, \.maxImageBytes),
        intKey("maxTokenBytes", "CONTRAST_MAX_TOKEN_BYTES", 1...1_073_741_824, \.maxTokenBytes),
        intKey("maxImagePixels", "CONTRAST_MAX_IMAGE_PIXELS", 1...1_000_000_000, \.maxImagePixels),
        intKey("requestTimeoutSeconds", "CONTRAST_REQUEST_TIMEOUT_SECONDS", 0...3600, \.requestTimeoutSeconds),
        intKey("maxHeaderBytes", "CONTRAST_MAX_HEADER_BYTES", 1024...16384, \.maxHeaderBytes),
        intKey("shutdownGracePeriodSeconds", "CONTRAST_SHUTDOWN_GRACE_PERIOD_SECONDS", 0...3600, \.shutdownGracePeriodSeconds),
        optionalStringKey("authTokensFile", "CONTRAST_AUTH_TOKENS_FILE", \.authTokensFile),
        stringListKey("corsAllowedOrigins", "CONTRAST_CORS_ALLOWED_ORIGINS", \.corsAllowedOrigins),
        optionalStringKey("tlsCertificateFile", "CONTRAST_TLS_CERTIFICATE_FILE", \.tlsCertificateFile),
        optionalStringKey("tlsKeyFile", "CONTRAST_TLS_KEY_FILE", \.tlsKeyFile),
        intKey("cacheMaxAgeSeconds", "CONTRAST_CACHE_MAX_AGE_SECONDS", 0...31_536_000, \.cacheMaxAgeSeconds),
        intKey("heavyWorkers", "CONTRAST_HEAVY_WORKERS", 1...64, \.heavyWorkers),
        intKey("heavyQueueLimit", "CONTRAST_HEAVY_QUEUE_LIMIT", 0...1024, \.heavyQueueLimit),
        intKey("heavyPerClientLimit", "CONTRAST_HEAVY_PER_CLIENT_LIMIT", 0...1024, \.heavyPerClientLimit),
        intKey("heavyDeadlineSeconds", "CONTRAST_HEAVY_DEADLINE_SECONDS", 0...3600, \.heavyDeadlineSeconds),
        intKey("memoryBudgetMiB", "CONTRAST_MEMORY_BUDGET_MIB", 0...65536, \.memoryBudgetMiB),
    ]

    /// Applies a config file's JSON text. Unknown keys and wrong types are errors naming the key.
    /// - Parameter baseDirectory: folder that relative `publicDirectory` paths are taken from.
    public mutating func apply(fileContents: [UInt8], baseDirectory: String?) throws(ConfigurationError) {
        let json: JSON
        do {
            json = try JSONParser.parse(fileContents)
        } catch {
            throw ConfigurationError(key: nil, problem: "not valid JSON: \(error.description)")
        }
        guard case .object(let o) = json else {
            throw ConfigurationError(key: nil, problem: "must be a JSON object of settings")
        }
        for (name, value) in o.members {
            if name.hasPrefix("$") || name.hasPrefix("_") { continue }  // comments such as "_comment"
            guard let key = Self.keys.first(where: { $0.name == name }) else {
                let known = Self.keys.map(\.name).joined(separator: ", ")
                throw ConfigurationError(key: name, problem: "unknown key; known keys: \(known)")
            }
            try key.set(&self, value)
        }
        if let baseDirectory, !publicDirectory.hasPrefix("/"), o["publicDirectory"] != nil {
            publicDirectoryWrittenAsDefault = publicDirectory == ServiceConfiguration().publicDirectory
            publicDirectory = baseDirectory + "/" + publicDirectory
        }
        // Secret and certificate files given in the file are relative to it, too.
        for (name, path) in [("authTokensFile", \ServiceConfiguration.authTokensFile),
                             ("tlsCertificateFile", \.tlsCertificateFile), ("tlsKeyFile", \.tlsKeyFile)] {
            if let baseDirectory, o[name] != nil, !self[keyPath: path].isEmpty, !self[keyPath: path].hasPrefix("/") {
                self[keyPath: path] = baseDirectory + "/" + self[keyPath: path]
            }
        }
    }

    /// `CONTRAST_*` variables of `environment` that name no setting (a misspelt `CONTRAST_THREAD`
    /// was ignored without a word: an ops pass), sorted; the server logs them at start. Not an
    /// error, and Kubernetes service links (`CONTRAST_SERVICE_SERVICE_HOST`,
    /// `…_PORT_8080_TCP_ADDR`, which a Service named `contrast-service` puts in every pod of its
    /// namespace) are not listed.
    public static func unknownEnvironmentVariables(_ environment: [String: String]) -> [String] {
        let known = Set(keys.map(\.env) + ["CONTRAST_CONFIG", "CONTRAST_AUTH_TOKENS"])
        return environment.keys.filter { name in
            // In any letter case: `contrast_memory_budget_mib` names no setting either, and had
            // been ignored without the warning (a hostile pass).
            guard name.uppercased().hasPrefix("CONTRAST_"), !known.contains(name) else { return false }
            let serviceLink = name.hasSuffix("_SERVICE_HOST") || name.hasSuffix("_SERVICE_PORT") || name.contains("_SERVICE_PORT_")
                || name.range(of: #"_PORT(_[0-9]+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?$"#, options: .regularExpression) != nil
            return !serviceLink
        }.sorted()
    }

    /// Applies `CONTRAST_*` environment variables.
    public mutating func apply(environment: [String: String]) throws(ConfigurationError) {
        for key in Self.keys {
            guard let raw = environment[key.env] else { continue }
            if key.name == "publicDirectory" { publicDirectoryWrittenAsDefault = false }
            // Set but empty, as an unset variable expands in a manifest or shell (`$TOKENS_PATH`):
            // refused, as an empty CONTRAST_AUTH_TOKENS is, rather than started with tokens off
            // (a hostile pass).
            if key.env == "CONTRAST_AUTH_TOKENS_FILE" && raw.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ConfigurationError(key: key.env, problem: "is set but empty: bearer tokens would be off; unset it to run without tokens, or give the file's path")
            }
            let value: JSON
            if case .number = key.get(self) {
                // Decimal digits only: `Double` also reads "0x10" (as 16), "2.0", " 2" and "1e3"
                // (a hostile pass: CONTRAST_THREADS=0x10 started 16 threads).
                let digits = !raw.isEmpty && raw.utf8.allSatisfy({ (0x30...0x39).contains($0) })
                // Past 15 digits a whole number is past every range (and past a double's exact
                // integers): said so with the text as written (it had been "not a whole number",
                // or quoted as 9007199254740992.0).
                if digits, raw.utf8.count > 15 {
                    throw ConfigurationError(key: key.env, problem: "is far beyond its range, got \"\(raw.prefix(40))\"")
                }
                guard digits, let d = Double(raw) else {
                    // A Service named `contrast` puts CONTRAST_PORT=tcp://10.0.0.1:8080 in every pod
                    // of its namespace (Kubernetes service links).
                    let link = raw.hasPrefix("tcp://") || raw.hasPrefix("udp://")
                        ? " (a Kubernetes service link of a Service named \"contrast\": set enableServiceLinks: false in the pod spec, or give \(key.env) in the container's env)" : ""
                    throw ConfigurationError(key: key.env, problem: "must be a whole number, got \"\(raw)\"\(link)")
                }
                value = .number(d)
            } else {
                value = .string(raw)
            }
            do {
                try key.set(&self, value)
            } catch {
                throw ConfigurationError(key: key.env, problem: error.problem)
            }
        }
    }

    /// The configuration as `config.json` JSON (all keys, in order).
    public var json: JSON {
        .object(JSONObject(Self.keys.map { ($0.name, $0.get(self)) }))
    }

    /// The HTTP server's part of the configuration.
    public var server: ServerConfiguration {
        var s = ServerConfiguration()
        s.host = host
        s.port = port
        s.threads = threads
        s.maxBodyBytes = maxBodyBytes
        s.maxBodyBytesByPath[ImageEndpoint.analyzePath] = maxImageBytes
        s.maxBodyBytesByPath[ImageEndpoint.dimPath] = maxImageBytes
        s.maxBodyBytesByPath[ImageEndpoint.textContrastPath] = maxImageBytes
        s.maxBodyBytesByPath[TokensAuditEndpoint.path] = maxTokenBytes
        s.connectionLimit = connectionLimit
        s.perIPConnectionLimit = perIPConnectionLimit
        s.connectionTimeoutSeconds = connectionTimeoutSeconds
        s.requestTimeoutSeconds = requestTimeoutSeconds
        s.maxHeaderBytes = maxHeaderBytes
        // libmicrohttpd zeroes this pool on every request: at its default 32 KiB that memset was
        // 49k of the 127k instructions of a POST /v1/contrast (bench/profile). The headers get
        // `maxHeaderBytes` and the request line and read buffer 16 KiB (a 20 KB URL is still
        // read); maxHeaderBytes at its 16 KiB maximum gives the former 32 KiB.
        s.connectionMemoryLimitBytes = 16 * 1024 + maxHeaderBytes
        s.shutdownGracePeriodSeconds = Double(shutdownGracePeriodSeconds)
        s.tlsCertificatePEM = tlsCertificatePEM
        s.tlsPrivateKeyPEM = tlsKeyPEM
        s.heavyPaths = ContrastService.heavyPaths
        // `/healthz` answers a constant: probes get it even with the connections full.
        s.probePaths = ["/healthz"]
        s.heavyWorkers = heavyWorkers
        s.heavyQueueLimit = heavyQueueLimit
        s.heavyPerClientLimit = heavyPerClientLimit
        s.heavyDeadlineSeconds = Double(heavyDeadlineSeconds)
        s.memoryBudgetBytes = memoryBudgetMiB * 1_048_576
        return s
    }

    public static func == (a: ServiceConfiguration, b: ServiceConfiguration) -> Bool {
        a.json == b.json
    }

    /// Resolves the full configuration from command-line arguments (without the program name),
    /// the environment and the file system, in the documented order.
    /// - Throws: `ConfigurationError` naming the key, flag or file and the problem.
    public static func load(arguments: [String], environment: [String: String]) throws(ConfigurationError) -> ServiceConfiguration {
        var configPath: String?
        var host: String?
        var port: String?
        var healthcheck = false
        var i = 0
        var seen = Set<String>()
        while i < arguments.count {
            let arg = arguments[i]
            // `--port 1 --port 2` silently took the last (hostile test): a repeat is a mistake.
            if arg.hasPrefix("--"), !seen.insert(arg).inserted {
                throw ConfigurationError(key: arg, problem: "given more than once")
            }
            func next() throws(ConfigurationError) -> String {
                guard i + 1 < arguments.count else { throw ConfigurationError(key: arg, problem: "needs a value") }
                i += 1
                return arguments[i]
            }
            switch arg {
            case "--config": configPath = try next()
            case "--host": host = try next()
            case "--port": port = try next()
            case "--healthcheck": healthcheck = true
            default: throw ConfigurationError(key: arg, problem: "unknown option; use --config PATH, --host HOST, --port PORT, --healthcheck")
            }
            i += 1
        }
        var config = ServiceConfiguration()
        let explicit = configPath ?? environment["CONTRAST_CONFIG"]
        let path = explicit ?? (FileManager.default.fileExists(atPath: "config.json") ? "config.json" : nil)
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(key: nil, problem: "cannot read config file \(path)")
            }
            let dir = (path as NSString).deletingLastPathComponent
            do {
                try config.apply(fileContents: Array(data), baseDirectory: dir.isEmpty ? nil : dir)
            } catch {
                throw ConfigurationError(key: error.key, problem: "\(path): \(error.problem)")
            }
        }
        // A flag wins over its variable, so the variable is not read at all (a hostile pass: a
        // bad CONTRAST_PORT stopped the server though --port was given).
        var environment = environment
        if host != nil { environment["CONTRAST_HOST"] = nil }
        if port != nil { environment["CONTRAST_PORT"] = nil }
        // A misspelt token variable would start the service open to all: refused, not ignored;
        // in any case (a hostile pass: `CONTRAST_Auth_Tokens` and `contrast_auth_tokens`, as a
        // Secret's keys may be written, started the service with tokens off).
        let authNames = ["CONTRAST_AUTH_TOKENS", "CONTRAST_AUTH_TOKENS_FILE"]
        for name in environment.keys.sorted() where !authNames.contains(name) && name.uppercased().hasPrefix("CONTRAST_") {
            for auth in authNames where environment[auth] == nil
                && NameSuggestions.distance(Array(name.uppercased().unicodeScalars), Array(auth.unicodeScalars)) <= 2 {
                // A known setting's own name is no misspelling of another (CONTRAST_AUTH_TOKENS_FILE
                // is 5 from CONTRAST_AUTH_TOKENS, but a longer one could come nearer).
                guard !Self.keys.contains(where: { $0.env == name }) else { continue }
                throw ConfigurationError(key: name, problem: "is no setting; did you mean \(auth)? (names are upper case; bearer tokens would be off)")
            }
        }
        try config.apply(environment: environment)
        var flags: [String: String] = [:]
        if let host { flags["CONTRAST_HOST"] = host }
        if let port { flags["CONTRAST_PORT"] = port }
        do {
            try config.apply(environment: flags)
        } catch {
            throw ConfigurationError(key: error.key == "CONTRAST_HOST" ? "--host" : "--port", problem: error.problem)
        }
        config.healthcheckOnly = healthcheck
        if !healthcheck {
            try config.validate()
            try config.loadSecrets(environment: environment)
        }
        return config
    }

    /// The usage text of `contrast-server --help`.
    public static let usage = """
        usage: contrast-server [--config PATH] [--host HOST] [--port PORT] [--healthcheck]

          --config PATH   settings file (default: ./config.json when present; CONTRAST_CONFIG)
          --host HOST     listen address, an IP literal or localhost (CONTRAST_HOST)
          --port PORT     listen port, 0 for any free one (CONTRAST_PORT)
          --healthcheck   ask the running server's /healthz and exit 0 when it answers 200

        Every setting also comes from config.json keys and CONTRAST_* environment variables
        (see docs/operations.md, "Configuration"). A bad value exits with code 2, naming the key.
        """

    /// Checks what a single key's type and range cannot: `host` is an IP literal (or
    /// `localhost`), `publicDirectory` is a directory, and each of `corsAllowedOrigins` is `*` or
    /// an origin (`http` or `https`, a host, an optional port; no path).
    /// - Throws: `ConfigurationError` naming the key.
    public func validate() throws(ConfigurationError) {
        if !ServiceConfiguration.isListenAddress(host) {
            throw ConfigurationError(key: "host", problem: "must be an IPv4 or IPv6 address or localhost, got \"\(host.prefix(80))\"")
        }
        // The default `Public` (next to where the server starts) may be absent: the API then runs
        // without the page (ServerRunner warns). A folder that was asked for must exist; a
        // `--config` elsewhere had stopped startup for a folder it never named (hostile test).
        if publicDirectory != ServiceConfiguration().publicDirectory, !publicDirectoryWrittenAsDefault, !hasPublicDirectory {
            throw ConfigurationError(key: "publicDirectory", problem: "\(publicDirectory) is not a directory (the web page is served from it)")
        }
        for origin in corsAllowedOrigins where !CORSPolicy.isConfigurableOrigin(origin) {
            throw ConfigurationError(key: "corsAllowedOrigins",
                                     problem: "\"\(origin.prefix(120))\" is not an origin: write scheme://host[:port] with http or https, an ASCII host name (xn-- punycode for others; no * wildcard), a port 1–65535 and no path, null (the opaque origin of sandboxed iframes such as Figma plugins), or *")
        }
    }

    /// Whether `publicDirectory` is a directory (the web page is served from it).
    var hasPublicDirectory: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func isListenAddress(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var bare = Substring(host)
        if bare.hasPrefix("[") && bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        var v4 = in_addr(), v6 = in6_addr()
        return String(bare).withCString { inet_pton(AF_INET, $0, &v4) == 1 || inet_pton(AF_INET6, $0, &v6) == 1 }
    }
}

/// A configuration problem: which key (or flag, or file) and what is wrong.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var key: String?
    public var problem: String
    public var description: String {
        if let key { return "configuration error: \(key): \(problem)" }
        return "configuration error: \(problem)"
    }
}

extension ServiceConfiguration {
    /// Reads the bearer tokens (`authTokensFile`, `CONTRAST_AUTH_TOKENS`) and the TLS
    /// certificate and key files. Errors name the key and file, never a secret.
    public mutating func loadSecrets(environment: [String: String]) throws(ConfigurationError) {
        // Set but empty: the words an empty CONTRAST_AUTH_TOKENS_FILE gets (a new user's pass:
        // "token 1: a token must be 16 to 4096 characters" did not say the variable was empty).
        if let raw = environment["CONTRAST_AUTH_TOKENS"], raw.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ConfigurationError(key: "CONTRAST_AUTH_TOKENS", problem: "is set but empty: bearer tokens would be off; unset it to run without tokens, or give them separated by commas")
        }
        authTokens = try BearerAuth.loadTokens(file: authTokensFile, environment: environment["CONTRAST_AUTH_TOKENS"])
        guard tlsCertificateFile.isEmpty == tlsKeyFile.isEmpty else {
            throw ConfigurationError(key: tlsKeyFile.isEmpty ? "tlsKeyFile" : "tlsCertificateFile",
                                     problem: "HTTPS needs both tlsCertificateFile and tlsKeyFile")
        }
        guard !tlsCertificateFile.isEmpty else { return }
        func pem(_ key: String, _ path: String, _ marker: String) throws(ConfigurationError) -> String {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(key: key, problem: "cannot read \(path)")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard text.contains("-----BEGIN "), text.contains(marker) else {
                throw ConfigurationError(key: key, problem: "\(path) is not a PEM file with a \(marker.isEmpty ? "key" : marker)")
            }
            return text
        }
        tlsCertificatePEM = try pem("tlsCertificateFile", tlsCertificateFile, "CERTIFICATE-----")
        tlsKeyPEM = try pem("tlsKeyFile", tlsKeyFile, "PRIVATE KEY-----")
    }
}
