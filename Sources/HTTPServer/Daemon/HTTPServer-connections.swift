// Connection bookkeeping: open-connection and per-IP counts (429/503 answers over the limits),
// and the request deadline (`requestTimeoutSeconds`) that libmicrohttpd's idle timeout lacks.
//
// libmicrohttpd restarts a connection's idle timer on every byte it receives, so a client that
// sends its headers one byte per second holds a connection forever. Each connection therefore
// carries a phase and the monotonic time that phase began; one timer thread (`reap`) shuts down
// the sockets of connections that stayed too long in a receiving phase. The socket is only shut
// down (never closed) and only while the connection is registered, under the same lock that
// `MHD_CONNECTION_NOTIFY_CLOSED` takes before libmicrohttpd closes the descriptor, so a
// descriptor number reused by a later connection is never touched.

import CMicroHTTPD
import CMicroHTTPDShim
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Counters of one ``HTTPServer``, read with ``HTTPServer/statistics``.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// TCP connections open now.
    public var openConnections: Int = 0
    /// Requests whose headers have arrived and whose answer has not been fully sent.
    public var requestsInProgress: Int = 0
    /// Connections closed because a request did not arrive within `requestTimeoutSeconds`.
    public var requestsTimedOut: Int = 0
    /// Connections that closed with a request partly received (the request line had arrived,
    /// the handler never ran): the client went away, or libmicrohttpd itself refused the
    /// request (431 for oversized headers, 414, 400 for malformed ones). Timeouts not included.
    public var requestsAbandoned: Int = 0
    /// Connections answered 503 (over `connectionLimit`) or 429 (over `perIPConnectionLimit`).
    public var connectionsRefused: Int = 0
    /// Answers of 16 KiB or more whose connection closed before all of it was sent
    /// (``HTTPServer/AnswerCut``).
    public var answersCut: Int = 0
    /// Bytes the memory budget counts now: request bodies and unsent answers of 16 KiB or more,
    /// and reservations for answers being built (``WorkTicket/reserve(_:)``).
    public var bufferedBytes: Int = 0

    /// All counters zero.
    public init() {}
}

/// Monotonic time (`CLOCK_MONOTONIC`), for durations that a wall-clock change must not skew.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot). About 20 ns per call (vDSO).
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Milliseconds from the coarse clock (resolution a few ms, cheaper): for deadlines.
    @inline(__always)
    static func coarseMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}

/// One TCP connection, from `MHD_CONNECTION_NOTIFY_STARTED` to `MHD_CONNECTION_NOTIFY_CLOSED`.
/// Its fields are written by the connection's worker thread and read by the timer thread.
final class ConnectionRecord: Sendable {
    /// New: waiting for the first request line.
    static let fresh = 0
    /// The request line has arrived; headers or body are still coming.
    static let receiving = 1
    /// The handler runs or the answer is being sent: no deadline.
    static let handling = 2
    /// Kept alive after an answer, waiting for the next request line.
    static let keptAlive = 3

    let phase = Atomic<Int>(ConnectionRecord.fresh)
    /// `MonotonicClock.coarseMilliseconds()` when `phase` was last set.
    let since: Atomic<Int>
    let fd: Int32
    /// 0, or the status every request on this connection is refused with (429 or 503).
    let refusal: Int
    /// The client's numeric address, read once when the connection opened (every request on
    /// the connection reports it; formatting it per request cost about 2k instructions).
    let address: String?
    /// Whether `address` is counted against the per-IP limit (released on close).
    let countsAddress: Bool
    /// The address when it is counted against the per-IP limit.
    var countedAddress: String? { countsAddress ? address : nil }
    /// Set once when the timer shut the socket down.
    let timedOut = Atomic<Bool>(false)

    init(fd: Int32, refusal: Int, address: String?, countsAddress: Bool, now: Int) {
        self.fd = fd
        self.refusal = refusal
        self.address = address
        self.countsAddress = countsAddress
        self.since = Atomic(now)
    }

    @inline(__always)
    func enter(_ newPhase: Int) {
        since.store(MonotonicClock.coarseMilliseconds(), ordering: .relaxed)
        phase.store(newPhase, ordering: .releasing)
    }
}

/// All open connections of one server and the limits on them.
final class ConnectionTracker: Sendable {
    private struct Registry {
        var records: [ObjectIdentifier: ConnectionRecord] = [:]
        var perAddress: [String: Int] = [:]
    }

    let connectionLimit: Int
    let perIPConnectionLimit: Int
    /// 0 = no deadline.
    let requestTimeoutMilliseconds: Int
    private let registry = Locked(Registry())
    let open = Atomic<Int>(0)
    let timedOut = Atomic<Int>(0)
    let abandoned = Atomic<Int>(0)
    let refused = Atomic<Int>(0)

    init(connectionLimit: Int, perIPConnectionLimit: Int, requestTimeoutSeconds: Int) {
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.requestTimeoutMilliseconds = max(0, requestTimeoutSeconds) * 1000
    }

    /// Registers a new connection and decides whether it is over a limit.
    func opened(_ connection: OpaquePointer) -> ConnectionRecord {
        let total = open.wrappingAdd(1, ordering: .relaxed).newValue
        let fd = cmhd_connection_fd(connection)
        let address = clientAddress(connection)
        let counts = perIPConnectionLimit > 0 && address != nil
        let now = MonotonicClock.coarseMilliseconds()
        return registry.withLock { registry in
            var refusal = total > connectionLimit ? 503 : 0
            if counts, let key = address {
                let count = registry.perAddress[key, default: 0] + 1
                registry.perAddress[key] = count
                if count > perIPConnectionLimit && refusal == 0 {
                    refusal = 429
                }
            }
            let record = ConnectionRecord(fd: fd, refusal: refusal, address: address, countsAddress: counts, now: now)
            if requestTimeoutMilliseconds > 0 {
                registry.records[ObjectIdentifier(record)] = record
            }
            return record
        }
    }

    /// Unregisters a connection; called before libmicrohttpd closes its socket.
    func closed(_ record: ConnectionRecord) {
        open.wrappingSubtract(1, ordering: .relaxed)
        if record.phase.load(ordering: .acquiring) == ConnectionRecord.receiving
            && !record.timedOut.load(ordering: .relaxed) {
            abandoned.wrappingAdd(1, ordering: .relaxed)
        }
        guard requestTimeoutMilliseconds > 0 || record.countedAddress != nil else { return }
        registry.withLock { registry in
            registry.records[ObjectIdentifier(record)] = nil
            if let key = record.countedAddress {
                let count = (registry.perAddress[key] ?? 1) - 1
                registry.perAddress[key] = count > 0 ? count : nil
            }
        }
    }

    /// Shuts down the sockets of connections past their request deadline. libmicrohttpd then
    /// sees the connection end on its own thread and cleans it up as usual.
    func reap() {
        guard requestTimeoutMilliseconds > 0 else { return }
        let now = MonotonicClock.coarseMilliseconds()
        registry.withLock { registry in
            for record in registry.records.values {
                let phase = record.phase.load(ordering: .acquiring)
                guard phase != ConnectionRecord.handling,
                      now - record.since.load(ordering: .relaxed) > requestTimeoutMilliseconds,
                      !record.timedOut.load(ordering: .relaxed), record.fd >= 0
                else { continue }
                record.timedOut.store(true, ordering: .relaxed)
                // An idle kept-alive connection closing is routine; the others were too slow.
                if phase != ConnectionRecord.keptAlive {
                    timedOut.wrappingAdd(1, ordering: .relaxed)
                }
                shutdown(record.fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// How often `reap` runs: a quarter of the timeout, between 0.1 s and 1 s.
    var reapInterval: DispatchTimeInterval {
        .milliseconds(min(1000, max(100, requestTimeoutMilliseconds / 4)))
    }
}

/// The record of `connection` (its socket context), if the daemon tracks connections.
@inline(__always)
func connectionRecord(_ connection: OpaquePointer) -> ConnectionRecord? {
    guard let pointer = cmhd_connection_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionRecord>.fromOpaque(pointer).takeUnretainedValue()
}

/// `MHD_NotifyConnectionCallback`: creates the connection's record on open, drops it on close.
func httpServerConnectionNotify(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let socketContext else { return }
    Unmanaged<ServerContext>.fromOpaque(cls)._withUnsafeGuaranteedRef { context in
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            guard let connection else { return }
            let record = context.tracker.opened(connection)
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let pointer = socketContext.pointee else { return }
            socketContext.pointee = nil
            let record = Unmanaged<ConnectionRecord>.fromOpaque(pointer).takeRetainedValue()
            context.tracker.closed(record)
        default:
            break
        }
    }
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: a request line has arrived; its deadline starts now.
/// Returns NULL so the access handler's first call still sees `*req_cls == NULL`, unless the
/// query has more than ``HTTPServer/maxQueryArguments`` arguments: then the query is cut off
/// before libmicrohttpd reads it (see `cmhd_cap_query_arguments`) and the return value is a
/// ``QueryArgumentsMarker``, which the access handler answers with 414.
func httpServerRequestLineArrived(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    if let connection, let record = connectionRecord(connection) {
        record.enter(ConnectionRecord.receiving)
    }
    var byParts: Int32 = 0
    var count = cmhd_cap_query_arguments(uri, UInt(HTTPServer.maxQueryArguments), UInt(HTTPServer.maxQueryParts),
                                         HTTPServer.maxRequestTargetBytes, &byParts)
    if count == 0 { return nil }
    // A request target over `maxRequestTargetBytes` (`CMHD_TARGET_TOO_LONG`, `(unsigned long)-1`,
    // which Swift does not import): answered 414 here, on the socket, while libmicrohttpd still
    // has room for nothing (a hostile pass: targets of about 24,100 to 24,550 bytes were closed
    // unanswered or held for the connection timeout, 30 s). Checked before the query's caps,
    // which answer only once the header fields are read.
    if count == UInt.max {
        if answerTargetTooLong(cls, connection) { return QueryArgumentsMarker.answered }
        // Not answered here (over TLS): the query's caps still hold.
        count = cmhd_cap_query_arguments(uri, UInt(HTTPServer.maxQueryArguments), UInt(HTTPServer.maxQueryParts), Int.max, &byParts)
        if count == 0 { return nil }
    }
    return QueryArgumentsMarker.pointer(count: Int(count), byParts: byParts != 0)
}

/// Writes the 414 for a request target over ``HTTPServer/maxRequestTargetBytes`` on the
/// connection's socket and ends its sending side (plain HTTP); false over TLS. Out of line: the
/// request-line callback every request runs keeps its short path (a plain `POST /v1/contrast`
/// had cost about 15 instructions more with it inline).
@inline(never)
private func answerTargetTooLong(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?) -> Bool {
    guard let cls, let connection else { return false }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let answer = context.requestTargetTooLongAnswer else { return false }
    let dateOffset = context.requestTargetTooLongDateOffset
    return answer.withUnsafeBufferPointer { cmhd_answer_and_end(connection, $0.baseAddress, $0.count, dateOffset) } != 0
}

/// A request whose query was cut off for having too many arguments or parts, carried in
/// `*req_cls` from the URI log callback to the access handler: an odd address (never a
/// `RequestState`, whose allocations are aligned), bit 1 set when the parts were too many, and
/// the count in the bits from 4 on.
enum QueryArgumentsMarker {
    static func pointer(count: Int, byParts: Bool) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(min(count, Int(UInt32.max))) << 4 | (byParts ? 2 : 0) | 1)!
    }

    /// A request already answered on its socket (a request target too long,
    /// `cmhd_answer_and_end`): the access handler closes the connection without answering.
    static var answered: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(0b1001))! }

    /// Whether `pointer` is ``answered``.
    static func isAnswered(_ pointer: UnsafeMutableRawPointer) -> Bool { pointer == answered }

    /// The count when `pointer` is a marker, else nil (0 for ``answered``).
    static func arguments(_ pointer: UnsafeMutableRawPointer) -> Int? {
        let bits = UInt(bitPattern: pointer)
        return bits & 1 == 1 ? Int(bits >> 4) : nil
    }

    /// Whether the marker counts parts (empty ones included) rather than arguments.
    static func countsParts(_ pointer: UnsafeMutableRawPointer) -> Bool {
        UInt(bitPattern: pointer) & 2 != 0
    }
}
