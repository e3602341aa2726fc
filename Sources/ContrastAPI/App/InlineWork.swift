import HTTPServer

/// The time a light request's work may take on an HTTP worker thread before the request moves
/// to the heavy-work pool (``Problem/moveToHeavyPool``, run again there from the start), counted
/// from when this is made. One budget for every light route that can find itself costly only as
/// it runs: a gradient's fixes (`ContrastEndpoint.gradientAnswer`), `/v1/pick`'s candidates,
/// colors with `variables` (`CSSRequestScope`). A designer's request takes well under it (a
/// two-stop gradient 0.8 ms, 6 ms with its fixes in OKLCH, release build); the hostile passes'
/// requests took 50 ms to 1.7 s there and held `/healthz` behind them.
struct InlineWork: Sendable {
    /// Work on an HTTP worker thread before the request moves: 5 ms.
    static let nanoseconds: UInt64 = 5_000_000

    /// Work on an HTTP worker thread before a request whose client is at its heavy-request
    /// limit moves (``HTTPRequest/clientAtHeavyLimit``; it is then refused 429): 0.25 ms, more
    /// than a plain pair's work (about 0.03 ms) and less than a two-stop gradient's.
    static let hurriedNanoseconds: UInt64 = 250_000

    /// When the work started (`MonotonicClock`), 0 when the request may not move.
    let started: UInt64
    /// `nanoseconds`, or `hurriedNanoseconds`.
    let budget: UInt64

    /// Work that may move when `mayMove` (``HTTPRequest/mayMoveToHeavyPool``), starting now,
    /// within `hurriedNanoseconds` when `hurried` (``HTTPRequest/clientAtHeavyLimit``).
    private init(mayMove: Bool, hurried: Bool = false) {
        started = mayMove ? MonotonicClock.nanoseconds() : 0
        budget = hurried ? Self.hurriedNanoseconds : Self.nanoseconds
    }

    /// Work that may move as `request` says.
    init(_ request: HTTPRequest) { self.init(mayMove: request.mayMoveToHeavyPool, hurried: request.clientAtHeavyLimit) }

    /// Work that may not move (on the pool, or in process).
    static let stays = InlineWork(mayMove: false)

    /// Whether the request may move (it runs on an HTTP worker thread).
    var mayMove: Bool { started != 0 }

    /// Whether the request may move and its work has passed `nanoseconds`.
    var isOver: Bool { started != 0 && MonotonicClock.nanoseconds() &- started > budget }

    /// Throws ``Problem/moveToHeavyPool`` when `isOver`.
    func check() throws(Problem) {
        if isOver { throw Problem.moveToHeavyPool }
    }
}

extension HTTPRequest {
    /// Throws once the server has answered this heavy request itself (503 at its deadline or at
    /// shutdown, or 499 when its client closed the connection): its answer would be dropped, so
    /// its work stops at the next check instead of holding a heavy worker to the end (a hostile
    /// pass, stop 43: nine 24 MB SVG matrices whose clients had hung up were all built, and
    /// another client's 2 KB palette waited 1.9 s). The problem thrown is never sent.
    func stopIfAbandoned() throws(Problem) {
        if workTicket?.isAbandoned == true {
            throw Problem.limitExceeded(status: 503, "the server answered this request before its work was done (deadline, shutdown, or its client closed the connection)", limit: 0, [])
        }
    }
}
