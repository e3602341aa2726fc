import CMicroHTTPD
import Dispatch
import Synchronization
import CMicroHTTPDShim
#if canImport(Glibc)
import Glibc
#endif

/// Heavy requests (image decoding, large palettes and matrices: the paths in
/// ``ServerConfiguration/heavyPaths``) run off libmicrohttpd's worker threads, on a bounded pool
/// with a bounded queue, so `/healthz` and small requests are never behind one:
///
/// - the connection is suspended (`MHD_suspend_connection`) and the request handed to the pool;
///   a worker runs the handler, queues its answer and resumes the connection;
/// - a full queue, or buffered bytes over ``ServerConfiguration/memoryBudgetBytes``, is a 503
///   problem with `Retry-After` at once;
/// - a request still unanswered ``ServerConfiguration/heavyDeadlineSeconds`` after it was
///   admitted is answered 503 (`deadline-exceeded`) and its late result dropped;
/// - on ``HTTPServer/stop()``, heavy requests still unanswered when the grace period ends are
///   answered 503 too, never dropped;
/// - a free worker runs the next job in turn by client (``Turns``), not whichever dispatch block
///   wins the semaphore: one client re-sending a 0.6 s token audit the moment each answer came
///   had been served back to back while another client's request waited 30 s and got
///   `deadline-exceeded` (a hostile pass, 2026-12-07): each block ran its own job, so the order
///   was whichever block won the semaphore (likely one already running over the waiter it woke).
///
/// Who answers is decided once per request by its ``WorkTicket``: the handler's answer, or the
/// server's 503, never both.
final class HeavyWorkPool: Sendable {
    let workers: Int
    let queueLimit: Int
    /// Most requests one client address may have admitted at once (0: no limit).
    let perClientLimit: Int
    let deadlineNanoseconds: UInt64
    /// Requests admitted and not yet answered (running or waiting).
    let admitted = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "HTTPServer.heavy-work", attributes: .concurrent)
    private let running: DispatchSemaphore
    /// The admitted jobs not yet started, in turn by client.
    private let turns = Mutex(Turns<(HeavyJob, @Sendable () -> Void)>())
    /// Admitted jobs by ticket, for the deadline sweep and shutdown.
    private let jobs = Mutex<[ObjectIdentifier: HeavyJob]>([:])
    /// Admitted requests by client address, when `perClientLimit` is set.
    private let perClient = Mutex<[String: Int]>([:])
    /// How many clients have `perClientLimit` requests admitted: while 0 (as nearly always) a
    /// light request asks nothing more (``isAtClientLimit(_:)``).
    private let clientsAtLimit = Atomic<Int>(0)

    /// Whether `client` has `perClientLimit` requests admitted (a request it moves here would be
    /// refused). One atomic load unless some client is at its limit.
    func isAtClientLimit(_ client: @autoclosure () -> String?) -> Bool {
        guard perClientLimit > 0, clientsAtLimit.load(ordering: .relaxed) > 0, let client = client() else { return false }
        return perClient.withLock { $0[client, default: 0] >= perClientLimit }
    }

    /// Why `submit` did not admit a job.
    enum Refusal: Error { case queueFull, clientLimit }

    init(workers: Int, queueLimit: Int, deadlineSeconds: Double, perClientLimit: Int = 0) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.perClientLimit = max(0, perClientLimit)
        self.deadlineNanoseconds = deadlineSeconds > 0 ? UInt64(deadlineSeconds * 1e9) : .max
        running = DispatchSemaphore(value: self.workers)
    }

    /// Admits `job` (running it on a worker when one is free) unless its client already has
    /// `perClientLimit` requests admitted (`clientLimit`) or `workers + queueLimit` requests are
    /// admitted in all (`queueFull`).
    func submit(_ job: HeavyJob, run: @escaping @Sendable () -> Void) -> Result<Void, Refusal> {
        if perClientLimit > 0 {
            let client = job.client
            let taken = perClient.withLock { counts -> Bool in
                guard counts[client, default: 0] < perClientLimit else { return false }
                counts[client, default: 0] += 1
                if counts[client] == perClientLimit { clientsAtLimit.wrappingAdd(1, ordering: .relaxed) }
                return true
            }
            guard taken else { return .failure(.clientLimit) }
        }
        var current = admitted.load(ordering: .relaxed)
        while true {
            guard current < workers + queueLimit else {
                releaseClient(job)
                return .failure(.queueFull)
            }
            let (exchanged, original) = admitted.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = original
        }
        jobs.withLock { $0[ObjectIdentifier(job.ticket)] = job }
        turns.withLock { $0.append(client: job.client, (job, run)) }
        // One block per job; each runs whichever job is next in turn once it holds a worker
        // (never none: every block follows its own job's `append`).
        queue.async { [self] in
            running.wait()
            defer { running.signal() }
            guard let (job, run) = turns.withLock({ $0.next() }) else { return }
            if !job.ticket.isAbandoned { run() }
            // Heavy work frees hundreds of MB in glibc's arenas, which keep it: the next heavy
            // request then peaks on top (a hostile pass: a 420 MB token audit left 300–400 MB
            // resident, and an image preview after it peaked at 746 MB). Freed pages go back.
            _ = cmhd_release_free_memory()
        }
        return .success(())
    }

    /// Gives back the client's share of an admission.
    private func releaseClient(_ job: HeavyJob) {
        guard perClientLimit > 0 else { return }
        perClient.withLock { counts in
            let n = counts[job.client, default: 0] - 1
            if n == perClientLimit - 1 { clientsAtLimit.wrappingSubtract(1, ordering: .relaxed) }
            if n > 0 { counts[job.client] = n } else { counts.removeValue(forKey: job.client) }
        }
    }

    /// Forgets `job` once it is answered (by its handler or by the server).
    func finish(_ job: HeavyJob) {
        let removed = jobs.withLock { $0.removeValue(forKey: ObjectIdentifier(job.ticket)) != nil }
        if removed {
            admitted.wrappingSubtract(1, ordering: .relaxed)
            releaseClient(job)
        }
    }

    /// The jobs admitted at or before `cutoff` (monotonic nanoseconds) and not yet answered.
    func overdue(admittedBefore cutoff: UInt64) -> [HeavyJob] {
        jobs.withLock { jobs in jobs.values.filter { $0.admittedAt <= cutoff } }
    }
}

/// The jobs waiting for a worker, taken in turn by client address: round robin over the clients
/// with a job waiting, each client's own jobs in the order they came. A client that keeps
/// re-sending therefore waits behind every other waiting client's next job, and a request waits
/// for at most one job of each other client (their jobs are few: ``HeavyWorkPool/perClientLimit``).
struct Turns<Entry> {
    /// Clients with jobs waiting, the next to be served first.
    private var order: [String] = []
    private var waiting: [String: [Entry]] = [:]

    /// Adds `entry` behind its client's other waiting ones (a client with none joins the end of the turn).
    mutating func append(client: String, _ entry: Entry) {
        if waiting[client] == nil { order.append(client) }
        waiting[client, default: []].append(entry)
    }

    /// The next entry in turn, its client moved to the end of the turn if it has more waiting.
    mutating func next() -> Entry? {
        guard !order.isEmpty else { return nil }
        let client = order.removeFirst()
        var entries = waiting.removeValue(forKey: client)!
        let entry = entries.removeFirst()
        if !entries.isEmpty { waiting[client] = entries; order.append(client) }
        return entry
    }
}

/// One heavy request between admission and its answer.
final class HeavyJob: Sendable {
    let ticket: WorkTicket
    let admittedAt: UInt64
    /// The suspended connection (`MHD_Connection *`), valid until it is resumed.
    nonisolated(unsafe) let connection: OpaquePointer
    /// The request as the rejection handler sees it (headers, no body).
    let request: HTTPRequest
    let isHead: Bool
    /// The request's state (its buffered bytes), touched only while the connection is suspended.
    nonisolated(unsafe) let state: RequestState
    /// The client's address, as the per-client limit counts it.
    var client: String { request.remoteAddress ?? "" }

    /// Whether the client has closed its side of the connection (or reset it) while the request
    /// waits for its answer, as nginx judges a client gone while its upstream works
    /// (`ngx_http_upstream_check_broken_connection`; a client that half-closes after its request
    /// counts as gone there too): `poll` with `POLLRDHUP` (`cmhd_socket_peer_closed`), which sees
    /// the FIN even behind bytes not yet read (a second hostile pass, stop 43: 8 KB sent after the
    /// request had hidden the close from a peek, and 24 MB answers were built for clients that had
    /// gone). Nothing is read from libmicrohttpd's socket. A connection resumed meanwhile may
    /// already be closed and its socket's number reused; the poll then looks at another socket
    /// harmlessly, and the ticket, already claimed, cannot be abandoned.
    var clientHasClosed: Bool {
        guard !ticket.isDecided else { return false }
        return cmhd_socket_peer_closed(cmhd_connection_fd(connection)) == 1
    }

    /// Ends both directions of the client's socket (a client that has closed is sent nothing:
    /// a half-closed one could still read the 499, a hostile pass found). Only after this job's
    /// ticket was abandoned: then the connection stays suspended, its socket open, until the
    /// server resumes it.
    func shutDownSocket() {
        let fd = cmhd_connection_fd(connection)
        if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    init(ticket: WorkTicket, admittedAt: UInt64, connection: OpaquePointer, request: HTTPRequest, isHead: Bool,
         state: RequestState) {
        self.ticket = ticket
        self.admittedAt = admittedAt
        self.connection = connection
        self.request = request
        self.isHead = isHead
        self.state = state
    }
}

/// Who answers one heavy request: its handler (``claim()``) or the server's 503 (on its
/// deadline or at shutdown), decided once. Middleware that records answers (the access log,
/// metrics) claims the ticket before recording, so an answer the client never got is never
/// logged as sent.
public final class WorkTicket: Sendable {
    private static let running = 0, answered = 1, abandoned = 2
    private let state = Atomic<Int>(WorkTicket.running)
    /// The server's memory budget (adds to its counter of held bytes, giving the new total),
    /// its limit, the bytes the request's own body holds in it, what other clients' unsent
    /// answers hold beyond their shares (left out: ``ServerContext/holdBytes(_:client:)``), and
    /// what all request bodies hold (``ServerContext/bodyBytes``), for `reserve`.
    /// `alone` adds to the server's count of bytes reserved by the answer built alone past the
    /// budget (``ServerContext/aloneBytes``), giving the new total.
    private let budget: Budget?
    typealias Budget = (held: @Sendable (Int) -> Int, limit: Int, own: Int, othersExcess: @Sendable () -> Int,
                        bodies: @Sendable () -> Int, alone: @Sendable (Int) -> Int)
    /// Bytes reserved by `reserve`, given back by `releaseReservation`, and how many of them
    /// were reserved as the answer built alone past the budget.
    private let reserved = Atomic<Int>(0), reservedAlone = Atomic<Int>(0)

    init(budget: Budget? = nil) { self.budget = budget }

    /// Reserves `bytes` of the server's memory budget for an answer the handler is about to
    /// build (a PNG whose size is known from the image's header), before building it: false
    /// when bodies and unsent answers, with this, would pass the budget, unless no other answer is
    /// held, queued or reserved (one answer larger than the budget is built at a time, never two
    /// at once; a hostile pass held 184 MB of 92 MB previews, budget 64 MB). Request bodies do not
    /// hold it back: they are bounded by the budget themselves (a body that would pass it is
    /// refused), and one small upload stalled a byte short had kept every answer over the budget
    /// refused (a hostile pass), so memory stays within this answer plus the budget. The
    /// reservation is given back when the handler returns; its answer is then counted as queued.
    /// True when the server has no budget (a request not run on the heavy-work pool).
    public func reserve(_ bytes: Int) -> Bool {
        guard let budget, bytes > 0 else { return true }
        let total = budget.held(bytes)
        var alone = false
        if total > budget.limit {
            // Other clients' answers beyond their shares are theirs to wait for, not this
            // request's; an answer built alone past the budget is another's too, within the
            // budget beside it (memory stays within that answer plus the budget).
            let building = budget.alone(0)
            let effective = total - budget.othersExcess() - building
            if effective > budget.limit {
                // Past the budget: built alone, when no other answer is held, queued or reserved
                // and no other is being built alone (never two such at once).
                guard building == 0, effective - bytes - Swift.max(budget.own, budget.bodies()) <= 0 else {
                    _ = budget.held(-bytes)
                    return false
                }
                alone = true
            }
        }
        reserved.wrappingAdd(bytes, ordering: .relaxed)
        if alone {
            reservedAlone.wrappingAdd(bytes, ordering: .relaxed)
            _ = budget.alone(bytes)
        }
        return true
    }

    /// Gives back what `reserve` took (the server calls it when the handler returns).
    func releaseReservation() {
        let bytes = reserved.exchange(0, ordering: .relaxed), alone = reservedAlone.exchange(0, ordering: .relaxed)
        if alone != 0, let budget { _ = budget.alone(-alone) }
        if bytes != 0, let budget { _ = budget.held(-bytes) }
    }

    /// Makes the handler's answer the one sent: true unless the server has already answered
    /// 503 (then the handler's answer is dropped). Idempotent.
    @discardableResult
    public func claim() -> Bool {
        let (exchanged, original) = state.compareExchange(expected: WorkTicket.running, desired: WorkTicket.answered,
                                                          ordering: .acquiringAndReleasing)
        return exchanged || original == WorkTicket.answered
    }

    /// True once the server has answered instead of the handler.
    public var isAbandoned: Bool { state.load(ordering: .acquiring) == WorkTicket.abandoned }

    /// True once either answer (the handler's or the server's) is decided.
    var isDecided: Bool { state.load(ordering: .acquiring) != WorkTicket.running }

    /// Makes the server's answer the one sent: true unless the handler's answer was claimed.
    func abandon() -> Bool {
        state.compareExchange(expected: WorkTicket.running, desired: WorkTicket.abandoned, ordering: .acquiringAndReleasing).exchanged
    }
}
