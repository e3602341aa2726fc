// The libmicrohttpd callbacks: C function pointers that capture nothing and reach their state
// through `Unmanaged` pointers (the daemon's `ServerContext`, each request's `RequestState`).
// They run on MHD's worker threads, so they must stay out of main.swift (main-actor code).

import CMicroHTTPD
import CMicroHTTPDShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared by all worker threads of one server; outlives the daemon (owned by `HTTPServer`).
final class ServerContext: Sendable {
    let handler: HTTPHandler
    let maxBodyBytes: Int
    /// Per-path replacements of `maxBodyBytes` (`ServerConfiguration.maxBodyBytesByPath`), the
    /// paths as NUL-terminated UTF-8 compared with the request's C string (a handful of paths:
    /// cheaper than making a String and hashing it for every request).
    private let bodyLimitPaths: [(path: ContiguousArray<CChar>, limit: Int)]
    /// Once this much of an oversized body has been read and dropped, the connection is closed
    /// without an answer rather than reading an endless upload.
    let discardLimit: Int
    /// Requests whose headers have arrived and whose answer has not been fully sent.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop()`: answers get `Connection: close` so keep-alive clients go away.
    let draining = Atomic<Bool>(false)
    /// Open connections, limits and request deadlines.
    let tracker: ConnectionTracker
    /// Sees every answer the server makes without `handler` (see ``HTTPServer/RejectionHandler``).
    let rejectionHandler: HTTPServer.RejectionHandler?
    /// `ServerConfiguration.maxHeaderBytes`.
    let maxHeaderBytes: Int
    /// The whole HTTP/1.1 answer to a request target over ``HTTPServer/maxRequestTargetBytes``
    /// (a 414 problem with `Connection: close`), written on the socket by the URI callback;
    /// nil over TLS, whose records only libmicrohttpd writes.
    let requestTargetTooLongAnswer: ContiguousArray<CChar>?
    /// Where in `requestTargetTooLongAnswer` the 29 bytes of its `Date` value start.
    let requestTargetTooLongDateOffset: Int
    /// Renders the problems the server answers itself (``HTTPServer/init(configuration:problems:handler:rejectionHandler:)``).
    let problems: ProblemRenderer
    /// The pool heavy requests run on, when any path is heavy (``HeavyWorkPool``).
    let heavy: HeavyWorkPool?
    /// ``ServerConfiguration/heavyPaths`` as NUL-terminated UTF-8, compared like `bodyLimitPaths`.
    private let heavyPaths: [ContiguousArray<CChar>]
    /// ``ServerConfiguration/probePaths`` as NUL-terminated UTF-8, compared like `heavyPaths`.
    private let probePaths: [ContiguousArray<CChar>]
    /// ``ServerConfiguration/heavyDeadlineSeconds``, for the 503's message.
    let heavyDeadlineSeconds: Double
    /// ``ServerConfiguration/memoryBudgetBytes`` (`.max` for none).
    let memoryBudget: Int
    /// Answers a request from its headers alone when its body is large (``HTTPServer/EarlyHandler``).
    let earlyHandler: HTTPServer.EarlyHandler?
    /// Bytes held by request bodies being received and answers not yet sent, each counted
    /// once it reaches `bufferedThreshold` (small ones are not worth an atomic add per request).
    let bufferedBytes = Atomic<Int>(0)
    /// The part of `bufferedBytes` that request bodies hold (received or still arriving); the
    /// rest is answers queued and reserved. An answer larger than the budget waits for other
    /// answers only, not for bodies (a hostile pass: one 17 KB upload stalled a byte short, from
    /// another address, kept every preview over the budget refused for as long as it was renewed).
    let bodyBytes = Atomic<Int>(0)
    /// The part of `bufferedBytes` reserved by the one answer being built alone past the budget
    /// (``WorkTicket/reserve(_:)``): left out when other requests are admitted, so that memory
    /// stays within that answer plus the budget while it is built. A hostile pass: one 131 KB
    /// flat 40-megapixel PNG with `preview=true` (a 148 MB reservation, budget 64 MiB) answered
    /// every other address's heavy requests 503 for as long as it was being built, a 40-byte
    /// `/v1/palette/dark` among them (22 of 27 in 15 s with one request at a time).
    let aloneBytes = Atomic<Int>(0)
    /// Answers of `bufferedThreshold` bytes or more whose connection closed before all of it was
    /// sent (``HTTPServerStatistics/answersCut``), and who hears of each.
    let answersCut = Atomic<Int>(0)
    let answerCutHandler: HTTPServer.AnswerCutHandler?
    static let bufferedThreshold = 16_384

    /// Bodies' and unsent answers' bytes (those counted in `bufferedBytes`) by client address,
    /// and the sum over clients of what each holds beyond `clientShare`. A client's bytes beyond
    /// its share count against the budget for that client only: a hostile pass read a 104 MB
    /// image answer at 64 KB/s, which held the whole budget, and every other client's heavy
    /// requests were 503 `server-busy` for the half hour it took; another (stop 43) held it with
    /// eight 8 MiB uploads stalled one byte short, and other clients' bodies over 16 KiB were 503
    /// for the 30 s until they timed out. Memory stays bounded per client: a client over its
    /// share is refused new bodies and heavy work until its own bytes are gone.
    private let heldByClient = Mutex<[String: (total: Int, body: Int)]>([:])
    let excessHeld = Atomic<Int>(0)
    /// An eighth of the memory budget: a second hostile pass held the whole budget with five
    /// addresses each holding answers just under a quarter (now eight are needed, as a third pass
    /// measured; more addresses are for a rate limit in front of the service: docs/operations.md).
    var clientShare: Int { memoryBudget / 8 }

    /// Counts `bytes` of a body or answer of `client`, `body` of them a request body (`bytes` < 0
    /// gives them back).
    func holdBytes(_ bytes: Int, body: Int = 0, client: String) {
        let share = clientShare
        heldByClient.withLock { held in
            let old = held[client, default: (0, 0)], new = (total: old.total + bytes, body: old.body + body)
            if new.total > 0 { held[client] = new } else { held.removeValue(forKey: client) }
            let change = Swift.max(0, new.total - share) - Swift.max(0, old.total - share)
            if change != 0 { excessHeld.wrappingAdd(change, ordering: .relaxed) }
        }
    }

    /// The request bodies among what the budget counts for a reservation by `client`: all of its
    /// own, all not counted by client, and of each other client what its share holds beyond its
    /// answers (answers fill a share first: a client holding a 110 MB answer beyond its share
    /// with a 19.6 MB body had let six such answers be built at once, when bodies filled it
    /// first; a hostile pass, 1.1 GB peak with a budget of 64 MiB).
    func bodiesCounted(for client: String?) -> Int {
        let share = clientShare, all = bodyBytes.load(ordering: .relaxed)
        let (tracked, counted) = heldByClient.withLock { held -> (Int, Int) in
            var tracked = 0, counted = 0
            for (c, v) in held {
                tracked += v.body
                counted += c == client ? v.body : Swift.max(0, Swift.min(v.total, share) - (v.total - v.body))
            }
            return (tracked, counted)
        }
        return counted + Swift.max(0, all - tracked)
    }

    /// What other clients' unsent answers hold beyond their shares, left out of `client`'s budget.
    func othersExcess(for client: String?) -> Int {
        let excess = excessHeld.load(ordering: .relaxed)
        guard excess > 0 else { return 0 }
        guard let client else { return excess }
        let own = heldByClient.withLock { Swift.max(0, $0[client, default: (0, 0)].total - clientShare) }
        return excess - own
    }

    /// Whether `total` buffered bytes pass the budget for a request from `client` (the address,
    /// asked for only when `total` passes the budget and some client holds more than its share).
    func isOverMemoryBudget(_ total: Int, client: () -> String?) -> Bool {
        guard total > memoryBudget else { return false }
        let total = total - aloneBytes.load(ordering: .relaxed)
        guard total > memoryBudget else { return false }
        guard excessHeld.load(ordering: .relaxed) > 0 else { return true }
        return total - othersExcess(for: client()) > memoryBudget
    }

    /// Whether buffered bodies and answers already hold more than the memory budget for a
    /// request from `client` (see `isOverMemoryBudget(_:client:)`).
    func isOverMemoryBudget(for client: String?) -> Bool {
        isOverMemoryBudget(bufferedBytes.load(ordering: .relaxed), client: { client })
    }

    init(handler: @escaping HTTPHandler, maxBodyBytes: Int, maxBodyBytesByPath: [String: Int] = [:],
         tracker: ConnectionTracker = ConnectionTracker(connectionLimit: .max, perIPConnectionLimit: 0, requestTimeoutSeconds: 0),
         rejectionHandler: HTTPServer.RejectionHandler? = nil, maxHeaderBytes: Int = .max,
         problems: ProblemRenderer = .standard, heavyPaths: Set<String> = [], probePaths: Set<String> = [], heavyWorkers: Int = 1,
         heavyQueueLimit: Int = 8, heavyDeadlineSeconds: Double = 0, heavyPerClientLimit: Int = 0, memoryBudget: Int = 0,
         earlyHandler: HTTPServer.EarlyHandler? = nil, answerCutHandler: HTTPServer.AnswerCutHandler? = nil, isTLS: Bool = false) {
        self.handler = handler
        if isTLS {
            self.requestTargetTooLongAnswer = nil
            self.requestTargetTooLongDateOffset = 0
        } else {
            let response = problems.response(.requestTargetTooLong(limit: HTTPServer.maxRequestTargetBytes))
            var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reasonPhrase(response.status))\r\n"
            for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
            // `cmhd_answer_and_end` writes the time over the placeholder when it sends the answer.
            head += "Date: "
            requestTargetTooLongDateOffset = head.utf8.count
            head += "Thu, 01 Jan 1970 00:00:00 GMT\r\n"
            head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
            self.requestTargetTooLongAnswer = ContiguousArray((Array(head.utf8) + response.body).map { CChar(bitPattern: $0) })
        }
        self.earlyHandler = earlyHandler
        self.answerCutHandler = answerCutHandler
        self.problems = problems
        self.heavyPaths = heavyPaths.map { $0.utf8CString }
        self.probePaths = probePaths.map { $0.utf8CString }
        self.heavy = heavyPaths.isEmpty ? nil
            : HeavyWorkPool(workers: heavyWorkers, queueLimit: heavyQueueLimit, deadlineSeconds: heavyDeadlineSeconds,
                            perClientLimit: heavyPerClientLimit)
        self.heavyDeadlineSeconds = heavyDeadlineSeconds
        self.memoryBudget = memoryBudget > 0 ? memoryBudget : .max
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.bodyLimitPaths = maxBodyBytesByPath.map { ($0.key.utf8CString, $0.value) }
        self.tracker = tracker
        self.rejectionHandler = rejectionHandler
        let (scaled, overflow) = maxBodyBytes.multipliedReportingOverflow(by: 8)
        self.discardLimit = overflow ? Int.max : max(scaled, 8 * 1_048_576)
    }

    /// Whether `url` is a heavy path (no allocation; only paths of `url`'s length are compared).
    func isHeavy(_ url: UnsafePointer<CChar>) -> Bool { Self.contains(heavyPaths, url) }

    /// Whether `url` is a health probe's path (``ServerConfiguration/probePaths``).
    func isProbe(_ url: UnsafePointer<CChar>) -> Bool { Self.contains(probePaths, url) }

    /// Whether `paths` holds `url` (no allocation; only paths of `url`'s length are compared).
    private static func contains(_ paths: [ContiguousArray<CChar>], _ url: UnsafePointer<CChar>) -> Bool {
        guard !paths.isEmpty else { return false }
        let length = strlen(url) + 1
        for path in paths where path.count == length {
            if path.withUnsafeBufferPointer({ memcmp($0.baseAddress!, url, length) }) == 0 { return true }
        }
        return false
    }

    /// The body cap for `url` (no allocation; only paths of `url`'s length are compared, as in
    /// `isHeavy`: one `strcmp` per entry had cost every request about 25 instructions a path).
    func bodyLimit(for url: UnsafePointer<CChar>) -> Int {
        let length = strlen(url) + 1
        for entry in bodyLimitPaths where entry.path.count == length {
            if entry.path.withUnsafeBufferPointer({ memcmp($0.baseAddress!, url, length) }) == 0 { return entry.limit }
        }
        return maxBodyBytes
    }
}

/// Per-request state from the first access-handler call to `NOTIFY_COMPLETED`.
final class RequestState {
    var body: [UInt8] = []
    /// This request's body cap (`ServerContext.bodyLimit(for:)`).
    var limit: Int
    /// `MonotonicClock.nanoseconds()` at the first call (the headers had arrived).
    let receivedAt: UInt64
    /// The connection's record, when connections are tracked.
    let connection: ConnectionRecord?
    /// The header fields by lower-cased name, read once at the first call.
    let headers: HTTPHeaderFields
    init(limit: Int, receivedAt: UInt64, connection: ConnectionRecord?, headers: HTTPHeaderFields) {
        self.limit = limit
        self.receivedAt = receivedAt
        self.connection = connection
        self.headers = headers
    }
    /// Bytes this request counts in `ServerContext.bufferedBytes` (body kept, answer queued),
    /// given back when it completes.
    var bufferedBytes = 0
    /// The part of `bufferedBytes` that is this request's body (`ServerContext.bodyBytes`).
    var bodyBytes = 0
    /// The client address and bytes of its body and queued answer counted in
    /// `ServerContext.holdBytes`, given back when it completes.
    var held: (client: String, bytes: Int, body: Int) = ("", 0, 0)
    /// A queued answer of `ServerContext.bufferedThreshold` bytes or more: its length and
    /// `X-Request-ID`, for `HTTPServer.AnswerCut` when its connection closes before it is sent.
    final class QueuedAnswer {
        let bytes: Int, requestID: String?
        init(bytes: Int, requestID: String?) { (self.bytes, self.requestID) = (bytes, requestID) }
    }
    var answer: QueuedAnswer?

    /// Counts `bytes` more of this request's body or answer as `client`'s, here and in
    /// `context` (`ServerContext.holdBytes`).
    func hold(_ bytes: Int, body: Bool, client: String, in context: ServerContext) {
        held = (client, held.bytes + bytes, held.body + (body ? bytes : 0))
        context.holdBytes(bytes, body: body ? bytes : 0, client: client)
    }
    /// The body outgrew `maxBodyBytes`: the rest is read and dropped, then 413 is answered.
    var tooLarge = false
    var discarded = 0
}

/// `MHD_AccessHandlerCallback`: called once with the headers, once per body chunk, and once
/// more (upload size 0) to answer.
func httpServerAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestCls else {
        return .NO
    }
    return Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        guard let statePointer = requestCls.pointee, QueryArgumentsMarker.arguments(statePointer) == nil else {
            // First call: headers only. Refuse connections over a limit, and a declared
            // oversized body before reading it.
            if let marker = requestCls.pointee, QueryArgumentsMarker.isAnswered(marker) {
                // Answered on the socket already (a request target too long): close.
                requestCls.pointee = nil
                return .NO
            }
            let receivedAt = MonotonicClock.nanoseconds()
            let record = connectionRecord(connection)
            if let record, record.refusal != 0 {
                requestCls.pointee = nil
                // A health probe is answered all the same, and the connection closed: liveness
                // must not fail because the server is busy (an operator's pass).
                if context.isProbe(originPath(url)), strcmpHEAD(method) || strcmpGET(method) {
                    record.enter(ConnectionRecord.handling)
                    let probe = HTTPRequest(method: methodString(method), path: String(cString: originPath(url)), query: [],
                                            lowercasedHeaders: headerFields(connection), body: [],
                                            remoteAddress: requestAddress(record, connection), receivedAtNanoseconds: receivedAt)
                    var response = context.handler(probe)
                    response.headers.append(("Connection", "close"))
                    return queue(response, on: connection, context: context, isHead: strcmpHEAD(method), state: nil)
                }
                context.tracker.refused.wrappingAdd(1, ordering: .relaxed)
                return reject(overConnectionLimit(record.refusal, context: context), connection: connection, url: url,
                              method: method, context: context, receivedAt: receivedAt, close: true)
            }
            let headers = readHeaders(connection)
            let path = originPath(url)
            if path != url, let form = absoluteForm(url), !isHostAndPort(form.authority) {
                requestCls.pointee = nil
                return reject(.badRequest("The request target's authority is not a host and optional port (RFC 9112 §3.2.2; user info is not allowed, RFC 9110 §4.2.4)."),
                              connection: connection, url: url, method: method, context: context, receivedAt: receivedAt,
                              headers: headers.fields, close: true)
            }
            if let marker = requestCls.pointee, let arguments = QueryArgumentsMarker.arguments(marker) {
                requestCls.pointee = nil
                let problem: HTTPProblem = QueryArgumentsMarker.countsParts(marker)
                    ? .tooManyQueryParts(arguments, limit: HTTPServer.maxQueryParts)
                    : .tooManyQueryArguments(arguments, limit: HTTPServer.maxQueryArguments)
                return reject(problem, connection: connection, url: url, method: method,
                              context: context, receivedAt: receivedAt, headers: headers.fields, close: true)
            }
            if let refusal = framingRefusal(headers, version: version, maxHeaderBytes: context.maxHeaderBytes) {
                return reject(refusal, connection: connection, url: url, method: method, context: context,
                              receivedAt: receivedAt, headers: headers.fields, close: true)
            }
            let limit = context.bodyLimit(for: path)
            var declared: Int?
            if let lengthText = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
                guard let length = parseContentLength(lengthText) else {
                    return reject(.badRequest("Content-Length is not a valid number."),
                                  connection: connection, url: url, method: method, context: context, receivedAt: receivedAt,
                                  headers: headers.fields)
                }
                declared = length
            }
            if let early = context.earlyHandler, (declared ?? 0) > ServerContext.bufferedThreshold || headers.transferEncoding != nil {
                // A large body is worth refusing before it is read, and before its size is
                // judged (401, 404, 405): the request as its headers state it, without query or body.
                let headRequest = HTTPRequest(method: methodString(method), path: String(cString: path), query: [],
                                              lowercasedHeaders: headers.fields, body: [],
                                              remoteAddress: requestAddress(record, connection), receivedAtNanoseconds: receivedAt)
                if let response = early(headRequest) {
                    requestCls.pointee = nil
                    record?.enter(ConnectionRecord.handling)
                    var response = response
                    response.headers.append(("Connection", "close"))  // the body is never read
                    return queue(response, on: connection, context: context, isHead: strcmpHEAD(method), state: nil)
                }
            }
            if let length = declared, length > limit {
                return reject(.contentTooLarge(limit: limit), connection: connection, url: url, method: method,
                              context: context, receivedAt: receivedAt, headers: headers.fields)
            }
            let expected = declared ?? 0
            // A declared body counts in the memory budget from the headers on (reserved before a
            // byte arrives): twenty uploads each stalled one byte short of 19 MB took RSS to 456 MB.
            var reserved = 0, client: String? = nil
            if expected >= ServerContext.bufferedThreshold {
                // Counted as the client's too: beyond its share, against its own budget only.
                client = requestAddress(record, connection)
                if let client { context.holdBytes(expected, body: expected, client: client) }
                let total = context.bufferedBytes.wrappingAdd(expected, ordering: .relaxed).newValue
                if context.isOverMemoryBudget(total, client: { client }) {
                    context.bufferedBytes.wrappingSubtract(expected, ordering: .relaxed)
                    if let client { context.holdBytes(-expected, body: -expected, client: client) }
                    return reject(.memoryBudgetExceeded(limit: context.memoryBudget), connection: connection, url: url,
                                  method: method, context: context, receivedAt: receivedAt, headers: headers.fields, close: true)
                }
                reserved = expected
            }
            let state = RequestState(limit: limit, receivedAt: receivedAt, connection: record, headers: headers.fields)
            state.bufferedBytes = reserved
            if reserved > 0 {
                state.bodyBytes = reserved
                context.bodyBytes.wrappingAdd(reserved, ordering: .relaxed)
            }
            if let client { state.held = (client, reserved, reserved) }
            if expected > 0 {
                state.body.reserveCapacity(expected)
            }
            requestCls.pointee = Unmanaged.passRetained(state).toOpaque()
            context.inFlight.wrappingAdd(1, ordering: .relaxed)
            return .YES
        }

        let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            // A body chunk: keep it while under the cap, otherwise count and drop it.
            uploadDataSize.pointee = 0
            if state.tooLarge {
                state.discarded += chunkSize
                return state.discarded > context.discardLimit ? .NO : .YES
            }
            if state.body.count + chunkSize > state.limit {
                state.tooLarge = true
                state.discarded = state.body.count + chunkSize
                state.body = []
                return .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: chunkSize) { bytes in
                    state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunkSize))
                }
                // Counted in the memory budget once it is more than a small request's body, beyond
                // what its declared length reserved. A chunked body that spends the budget is cut
                // off (libmicrohttpd 0.9.75 takes no answer while an upload is being read).
                if state.body.count > state.bufferedBytes && state.body.count >= ServerContext.bufferedThreshold {
                    let added = state.body.count - state.bufferedBytes
                    let client = state.held.bytes > 0 ? state.held.client : requestAddress(state.connection, connection)
                    if let client { state.hold(added, body: true, client: client, in: context) }
                    let total = context.bufferedBytes.wrappingAdd(added, ordering: .relaxed).newValue
                    context.bodyBytes.wrappingAdd(added, ordering: .relaxed)
                    state.bodyBytes += added
                    state.bufferedBytes = state.body.count
                    if context.isOverMemoryBudget(total, client: { client }) { return .NO }
                }
            }
            return .YES
        }

        // Final call: the whole request is here.
        state.connection?.enter(ConnectionRecord.handling)
        let isHead = strcmpHEAD(method)
        if state.tooLarge {
            return reject(.contentTooLarge(limit: state.limit), connection: connection, url: url, method: method,
                          context: context, receivedAt: state.receivedAt, headers: state.headers, close: true)
        }
        var body: [UInt8] = []
        swap(&body, &state.body)
        let arguments = queryArguments(connection)
        var request = HTTPRequest(
            method: methodString(method),
            path: String(cString: originPath(url)),
            query: arguments.query,
            lowercasedHeaders: state.headers,
            body: body,
            remoteAddress: requestAddress(state.connection, connection),
            receivedAtNanoseconds: state.receivedAt
        )
        request.malformedQueryParameter = arguments.malformed
        if let pool = context.heavy {
            // OPTIONS is answered by the router (204 and Allow) without the route's handler: no
            // heavy work, and not counted against the client (a new user's pass: a page's OPTIONS
            // probes of four heavy routes were 429 beside its own heavy requests).
            if context.isHeavy(originPath(url)), request.method != "OPTIONS" {
                return runHeavy(request, pool: pool, connection: connection, context: context, state: state, isHead: isHead)
            }
            request.mayMoveToHeavyPool = true
            request.clientAtHeavyLimit = pool.isAtClientLimit(request.remoteAddress)
        }
        let response = context.handler(request)
        if response.movesToHeavyPool, let pool = context.heavy {
            // Costly after all (the handler saw the body): run again on the pool.
            request.mayMoveToHeavyPool = false
            return runHeavy(request, pool: pool, connection: connection, context: context, state: state, isHead: isHead)
        }
        return queue(response, on: connection, context: context, isHead: isHead, state: state)
    }
}

/// Hands a heavy request to the pool (see ``HeavyWorkPool``): the connection is suspended, a
/// worker runs the handler and queues its answer, then resumes the connection. A full queue or
/// an exhausted memory budget is a 503 at once.
private func runHeavy(_ request: HTTPRequest, pool: HeavyWorkPool, connection: OpaquePointer, context: ServerContext,
                      state: RequestState, isHead: Bool) -> MHD_Result {
    var request = request
    let client = request.remoteAddress
    let ticket = WorkTicket(budget: (held: { [context] bytes in context.bufferedBytes.wrappingAdd(bytes, ordering: .relaxed).newValue },
                                     limit: context.memoryBudget, own: state.bufferedBytes,
                                     othersExcess: { [context] in context.othersExcess(for: client) },
                                     bodies: { [context] in context.bodiesCounted(for: client) },
                                     alone: { [context] bytes in context.aloneBytes.wrappingAdd(bytes, ordering: .relaxed).newValue }))
    request.workTicket = ticket
    var bare = request
    bare.body = []
    bare.workTicket = nil  // the server's own answer is recorded like any rejection, ticket or not
    let job = HeavyJob(ticket: ticket, admittedAt: MonotonicClock.nanoseconds(), connection: connection, request: bare,
                       isHead: isHead, state: state)
    MHD_suspend_connection(connection)
    if context.isOverMemoryBudget(for: client) {
        answerInstead(.memoryBudgetExceeded(limit: context.memoryBudget), job: job, context: context, pool: nil)
        return .YES
    }
    let work = request
    let submitted = pool.submit(job) {
        // Checked again when a worker takes it: the requests ahead of it in the queue may have
        // spent the budget since it was admitted (sixteen 19 MB matrices, never read).
        if context.isOverMemoryBudget(for: client) {
            answerInstead(.memoryBudgetExceeded(limit: context.memoryBudget), job: job, context: context, pool: pool)
            return
        }
        let response = context.handler(work)
        // Its answer is counted as queued below (or dropped): the reservation is given back
        // first. Given back after the connection resumed, the client could read the answer and
        // send its next request before it was, and be refused for the memory budget (a test's
        // race under load in CI).
        job.ticket.releaseReservation()
        if job.ticket.claim() {
            _ = queue(response, on: job.connection, context: context, isHead: job.isHead, state: job.state)
            pool.finish(job)
            MHD_resume_connection(job.connection)
        }
    }
    switch submitted {
    case .success: break
    case .failure(.queueFull):
        answerInstead(.heavyWorkQueueFull(limit: pool.workers + pool.queueLimit), job: job, context: context, pool: nil)
    case .failure(.clientLimit):
        answerInstead(.tooManyHeavyRequests(limit: pool.perClientLimit), job: job, context: context, pool: nil)
    }
    return .YES
}

/// Answers a suspended heavy request with the server's `problem` instead of its handler's
/// answer (queue full, deadline, shutdown), when its ticket is still unclaimed: decorated and
/// recorded by the rejection handler like any answer the server makes itself, queued, resumed.
func answerInstead(_ problem: HTTPProblem, job: HeavyJob, context: ServerContext, pool: HeavyWorkPool?,
                   beforeQueueing: () -> Void = {}) {
    guard job.ticket.abandon() else { return }
    beforeQueueing()
    var response = context.problems.response(problem)
    if let rejectionHandler = context.rejectionHandler {
        response = rejectionHandler(job.request, response)
    }
    _ = queue(response, on: job.connection, context: context, isHead: job.isHead, state: job.state)
    pool?.finish(job)
    MHD_resume_connection(job.connection)
}

/// `MHD_AcceptPolicyCallback`: every connection is taken, except while the server is stopping
/// (`ServerContext.draining`), when a new one is closed at once (see `HTTPServer.stop`).
func httpServerAcceptPolicy(
    _ cls: UnsafeMutableRawPointer?,
    _ address: UnsafePointer<sockaddr>?,
    _ length: socklen_t
) -> MHD_Result {
    guard let cls else { return .YES }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    return context.draining.load(ordering: .acquiring) ? .NO : .YES
}

/// `MHD_RequestCompletedCallback`: frees the request's state (also after broken connections).
func httpServerRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    // MHD also reports requests that ended early (client gone, error): those keep their phase,
    // so a request cut off while arriving counts as abandoned when the connection closes.
    if reason == .REQUEST_TERMINATED_COMPLETED_OK, let connection, let record = connectionRecord(connection) {
        record.enter(ConnectionRecord.keptAlive)
    }
    guard let cls, let requestCls, let statePointer = requestCls.pointee else {
        return
    }
    requestCls.pointee = nil
    // A request cut off after its request line may still hold the marker: nothing to free.
    guard QueryArgumentsMarker.arguments(statePointer) == nil else { return }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer)
    let buffered = state.takeUnretainedValue().bufferedBytes
    // Most requests buffered nothing: their state is freed and counted out, nothing more.
    guard buffered != 0 else {
        state.release()
        _ = Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.inFlight.wrappingSubtract(1, ordering: .relaxed) }
        return
    }
    let (held, answer, body) = (state.takeUnretainedValue().held, state.takeUnretainedValue().answer, state.takeUnretainedValue().bodyBytes)
    state.release()
    Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        // A queued answer whose connection closed before it was all sent (a hostile pass: at
        // shutdown a slow reader's 19.7 MB answer stopped after 254 KB, and only the access
        // log's 200 with its full length recorded it).
        if let answer, reason != .REQUEST_TERMINATED_COMPLETED_OK { answerCut(answer, client: held.client, reason: reason, context: context) }
        context.bufferedBytes.wrappingSubtract(buffered, ordering: .relaxed)
        if body != 0 { context.bodyBytes.wrappingSubtract(body, ordering: .relaxed) }
        if held.bytes != 0 { context.holdBytes(-held.bytes, body: -held.body, client: held.client) }
        context.inFlight.wrappingSubtract(1, ordering: .relaxed)
    }
}

/// Counts a cut answer and tells `context.answerCutHandler` (``HTTPServer/AnswerCut``).
@inline(never)
private func answerCut(_ answer: RequestState.QueuedAnswer, client: String, reason: MHD_RequestTerminationCode, context: ServerContext) {
    context.answersCut.wrappingAdd(1, ordering: .relaxed)
    guard let handler = context.answerCutHandler else { return }
    let why: HTTPServer.AnswerCut.Reason
    switch reason {
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: why = .serverStopping
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: why = .timeout
    default: why = .clientGone
    }
    handler(HTTPServer.AnswerCut(requestID: answer.requestID, client: client.isEmpty ? nil : client, bytes: answer.bytes, reason: why))
}

// MARK: - Answers without the handler

/// Queues an answer the server makes itself (413, 400, 429, 503), after the rejection handler
/// has seen it. The request passed to that handler has headers but no body or query.
private func reject(
    _ problem: HTTPProblem,
    connection: OpaquePointer,
    url: UnsafePointer<CChar>,
    method: UnsafePointer<CChar>,
    context: ServerContext,
    receivedAt: UInt64,
    headers: HTTPHeaderFields? = nil,
    close: Bool = false
) -> MHD_Result {
    let record = connectionRecord(connection)
    record?.enter(ConnectionRecord.handling)
    var response = context.problems.response(problem)
    if let rejectionHandler = context.rejectionHandler {
        let request = HTTPRequest(
            method: String(cString: method),
            path: String(cString: originPath(url)),
            query: [],
            lowercasedHeaders: headers ?? headerFields(connection),
            body: [],
            remoteAddress: requestAddress(record, connection),
            receivedAtNanoseconds: receivedAt
        )
        response = rejectionHandler(request, response)
    }
    if close && !context.draining.load(ordering: .relaxed) {
        response.headers.append(("Connection", "close"))
    }
    return queue(response, on: connection, context: context, isHead: strcmpHEAD(method), state: nil)
}

private func overConnectionLimit(_ status: Int, context: ServerContext) -> HTTPProblem {
    status == 429 ? .tooManyConnections(limit: context.tracker.perIPConnectionLimit)
        : .serverBusy(limit: context.tracker.connectionLimit)
}

// MARK: - Request framing

/// Every header field of the request, in one pass (see ``HeaderCensus``).
private func readHeaders(_ connection: OpaquePointer) -> HeaderCensus {
    var census = HeaderCensus()
    census.fields.reserveCapacity(8)
    _ = withUnsafeMutablePointer(to: &census) { pointer in
        MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            cls.assumingMemoryBound(to: HeaderCensus.self).pointee.add(name: key, nameCount: keySize, value: value, valueCount: valueSize)
            return .YES
        }, pointer)
    }
    return census
}

/// The header fields keyed by lower-cased name (for answers made before the census is kept).
private func headerFields(_ connection: OpaquePointer) -> HTTPHeaderFields {
    readHeaders(connection).fields
}

// MARK: - Building the request

/// The method as a String: the usual ones as literals (no decoding), others decoded.
@inline(__always)
private func methodString(_ method: UnsafePointer<CChar>) -> String {
    switch (method[0], method[1]) {
    case (0x47, 0x45) where method[2] == 0x54 && method[3] == 0: return "GET"
    case (0x50, 0x4F) where method[2] == 0x53 && method[3] == 0x54 && method[4] == 0: return "POST"
    case (0x48, 0x45) where strcmpHEAD(method): return "HEAD"
    default: return String(cString: method)
    }
}

@inline(__always)
private func strcmpHEAD(_ method: UnsafePointer<CChar>) -> Bool {
    method[0] == 0x48 && method[1] == 0x45 && method[2] == 0x41 && method[3] == 0x44 && method[4] == 0
}

private func strcmpGET(_ method: UnsafePointer<CChar>) -> Bool {
    method[0] == 0x47 && method[1] == 0x45 && method[2] == 0x54 && method[3] == 0
}

private func queryArguments(_ connection: OpaquePointer) -> (query: [(name: String, value: String?)], malformed: String?) {
    var result: (query: [(name: String, value: String?)], malformed: String?) = ([], nil)
    _ = withUnsafeMutablePointer(to: &result) { pointer in
        MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            // An empty part (`a=1&&b=2`, a leading `&`) names nothing: skipped, as browsers do.
            if keySize == 0 && value == nil { return .YES }
            let result = cls.assumingMemoryBound(to: (query: [(name: String, value: String?)], malformed: String?).self)
            let name = makeValidatedString(key, keySize)
            let text = value.map { makeValidatedString($0, valueSize) }
            result.pointee.query.append((name.string, text?.string))
            // Invalid UTF-8, from the bytes sent or from a malformed escape (see cmhd_unescape_marking_malformed).
            if result.pointee.malformed == nil && (!name.isValid || text?.isValid == false) {
                result.pointee.malformed = name.isValid ? name.string
                    : key.withMemoryRebound(to: UInt8.self, capacity: keySize) { HTTPRequest.percentEncodedQueryName(UnsafeBufferPointer(start: $0, count: keySize)) }
            }
            return .YES
        }, pointer)
    }
    return result
}

/// `count` bytes as a String, and whether they were valid UTF-8 (invalid ones become U+FFFD).
private func makeValidatedString(_ pointer: UnsafePointer<CChar>, _ count: Int) -> (string: String, isValid: Bool) {
    pointer.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        // ASCII (the usual query) is valid as it is: no validating pass.
        if !buffer.contains(where: { $0 >= 0x80 }) { return (String(decoding: buffer, as: UTF8.self), true) }
        if let valid = String(validating: buffer, as: UTF8.self) { return (valid, true) }
        return (String(decoding: buffer, as: UTF8.self), false)
    }
}

/// The client address of a request: read once per connection into its record, asked of
/// libmicrohttpd only when connections are not tracked.
private func requestAddress(_ record: ConnectionRecord?, _ connection: OpaquePointer) -> String? {
    record.map { $0.address } ?? clientAddress(connection)
}

func clientAddress(_ connection: OpaquePointer) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
        let length = cmhd_connection_client_address(connection, buffer.baseAddress, 64)
        return length > 0 ? makeString(buffer.baseAddress!, Int(length)) : nil
    }
}

// MARK: - Sending the response

/// Hands `response` to MHD (body copied once by MHD) and releases our reference to it.
/// `state`, when given, counts the answer's bytes in `ServerContext.bufferedBytes` until the
/// request completes (libmicrohttpd holds its copy until then).
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, context: ServerContext, isHead: Bool,
                   state: RequestState?) -> MHD_Result {
    let status = (100...999).contains(response.status) ? response.status : 500
    var mhdResponse: OpaquePointer?
    if (isHead || status == 304) && response.body.isEmpty, let length = statedContentLength(response), length > 0 {
        // A bodiless HEAD answer (see `HTTPResponse.headAnswer`) stating the GET length: MHD sends
        // a body's length but never a body for HEAD, so give it a body it will not read.
        mhdResponse = MHD_create_response_from_callback(UInt64(length), 4096, httpServerNoBodyReader, nil, nil)
    } else {
        mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let mhdResponse else {
        return .NO
    }
    defer { MHD_destroy_response(mhdResponse) }
    for field in response.headers {
        // MHD computes Content-Length itself.
        if field.name.utf8.count == 14 && asciiCaseInsensitiveEquals(field.name, "Content-Length") {
            continue
        }
        // withCString borrows the string's own NUL-terminated storage (no copy for most strings).
        _ = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
        }
    }
    if context.draining.load(ordering: .relaxed) {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    if let state, response.body.count >= ServerContext.bufferedThreshold {
        holdAnswer(response, state: state, connection: connection, context: context)
    }
    return MHD_queue_response(connection, UInt32(status), mhdResponse)
}

/// Counts a large answer's bytes in the memory budget until it is sent, and keeps what an
/// ``HTTPServer/AnswerCut`` would say of it (out of `queue`'s line: most answers are small).
@inline(never)
private func holdAnswer(_ response: HTTPResponse, state: RequestState, connection: OpaquePointer, context: ServerContext) {
    state.answer = RequestState.QueuedAnswer(bytes: response.body.count, requestID: response.header("X-Request-ID"))
    state.bufferedBytes += response.body.count
    context.bufferedBytes.wrappingAdd(response.body.count, ordering: .relaxed)
    if let client = requestAddress(state.connection, connection) {
        state.hold(response.body.count, body: false, client: client, in: context)
    }
}

private func statedContentLength(_ response: HTTPResponse) -> Int? {
    for field in response.headers where field.name.utf8.count == 14 && asciiCaseInsensitiveEquals(field.name, "Content-Length") {
        return Int(field.value)
    }
    return nil
}

/// `MHD_ContentReaderCallback` for HEAD answers: MHD never asks a HEAD answer for its body;
/// if it ever did, end the connection rather than send made-up bytes.
func httpServerNoBodyReader(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    -2   // MHD_CONTENT_READER_END_WITH_ERROR
}
