import Foundation

/// Polls `condition` every `interval` until it holds or `limit` seconds have passed; returns
/// whether it held. Tests wait for what they need (a connection counted, a handler entered, a
/// line logged) instead of sleeping a fixed time and hoping; the limit is generous, for a loaded
/// machine, and only bounds a failing run.
@discardableResult
public func waitUntil(limit: TimeInterval = 30, interval: TimeInterval = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(limit)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
