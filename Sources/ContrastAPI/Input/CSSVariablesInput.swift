import Foundation
import ColorScience
import DesignTokens
import HTTPServer
import JSONValue

/// The request's custom properties (`"variables": {"--brand": "#0066cc", …}`), for `var()` in
/// any color member of a POST body (CSS Custom Properties 1 §3, resolved by `CSSVariables`).
///
/// The member is read by `Fields.body` and taken out of the body before the endpoint sees it,
/// so every endpoint taking colors accepts it. It lives in a task-local slot bound around the
/// endpoint only when the body may hold it (the bytes `variables` or a `\u` escape appear), so a
/// plain request binds nothing.
///
/// Substituting variables can cost far more than the body's size says: 256 `var(--v6)` in a
/// 2.3 KB `/v1/pick` body, each 64 nested `color-mix()` (7.6k characters substituted, under
/// `CSSVariables.maximumExpandedLength`), took 1.7 s on an HTTP worker thread, and two clients
/// sending it held `/healthz` at 1.4 s (a hostile pass). A request that may move
/// (`HTTPRequest.mayMoveToHeavyPool`) is therefore moved to the heavy-work pool once its colors
/// with variables have taken `InlineWork.nanoseconds` (`checkInlineTime`), and run again there.
enum CSSRequestScope {
    /// Where `Fields.body` puts the parsed variables for this request.
    final class Slot: @unchecked Sendable {
        var variables: CSSVariables?
        /// The request's work on an HTTP worker thread, from when it started.
        let inline: InlineWork
        /// Set when the request is to run again on the heavy-work pool: whatever the endpoint
        /// answers after that (a 200 or a problem) is discarded.
        var moveRequested = false
        /// Colors this request has read with its variables (`resolveColor`), by text, hex order
        /// and color scheme: nothing else changes what a CSS color string reads as within one
        /// request, and one color is often read many times (`/v1/audit` read every background
        /// again for every color on it in every context: a hostile 13 KB audit whose 192 colors
        /// each used a 7-level `color-mix()` chain took 5.2 s). At most `maxRemembered`.
        private var remembered: [RememberedKey: ResolvedColor] = [:]
        static let maxRemembered = 4096

        private struct RememberedKey: Hashable { var text: String; var hexOrder: HexOrder; var dark: Bool }
        /// Work spent reading colors and gradients with the variables (`beginReading`).
        var readingNanoseconds: UInt64 = 0

        init(inline: InlineWork) { self.inline = inline }

        /// The color read from `text` before in this request with these settings: under the same
        /// color scheme, or the other one when it did not depend on it (no `light-dark()`).
        func remembered(_ text: String, hexOrder: HexOrder, dark: Bool) -> ResolvedColor? {
            if let c = remembered[RememberedKey(text: text, hexOrder: hexOrder, dark: dark)] { return c }
            if let c = remembered[RememberedKey(text: text, hexOrder: hexOrder, dark: !dark)], !c.dependsOnAppearance { return c }
            return nil
        }

        /// Keeps `color`, read from `text`, while there is room.
        func remember(_ color: ResolvedColor, text: String, hexOrder: HexOrder, dark: Bool) {
            guard remembered.count < Self.maxRemembered else { return }
            remembered[RememberedKey(text: text, hexOrder: hexOrder, dark: dark)] = color
        }
    }

    /// Moves the request to the heavy-work pool (throws `Problem.moveToHeavyPool`) when it has
    /// variables and its work is over `InlineWork.nanoseconds`; called before each color or
    /// gradient with variables is substituted.
    static func checkInlineTime() throws(Problem) {
        guard let slot, slot.variables != nil, slot.inline.isOver else { return }
        slot.moveRequested = true
        throw Problem.moveToHeavyPool
    }

    /// Most work one request may spend reading its colors and gradients with its variables:
    /// 1 s. Each distinct color text reads its `var()` chain again (about 0.85 µs a substituted
    /// character): a hostile pass's 96 KB `/v1/palette/dark` of 256 backgrounds, each variant a
    /// different short `color-mix()` of a 7-level chain, held the heavy worker 5.6–9.7 s, and
    /// six such requests from two addresses pushed another client's matrix past its deadline.
    /// A designer's palette with variables reads in milliseconds.
    static let maxReadingNanoseconds: UInt64 = 1_000_000_000

    /// Begins reading a color or gradient with this request's variables: throws 422
    /// `limit-exceeded` naming `path` (what is about to be read) once the request's readings have
    /// taken `maxReadingNanoseconds`; returns when this reading started (`MonotonicClock`), for
    /// `endReading`, or nil without variables.
    static func beginReading(at path: FieldPath) throws(Problem) -> UInt64? {
        guard let slot = slotWithVariables else { return nil }
        if slot.readingNanoseconds > maxReadingNanoseconds {
            throw Problem.tooLarge(path, "reading this request's colors with their variables took more than \(maxReadingNanoseconds / 1_000_000_000) s of work before \(path.display): each color's var() chain is read again for every different color text that uses it; send fewer colors per request, or give the variables their resolved values (shallower chains)", limit: Int(maxReadingNanoseconds / 1_000_000_000), status: 422)
        }
        return MonotonicClock.nanoseconds()
    }

    /// Adds the work since `start` (what `beginReading` returned) to this request's reading time.
    static func endReading(_ start: UInt64?) {
        guard let start, let slot = slotWithVariables else { return }
        slot.readingNanoseconds &+= MonotonicClock.nanoseconds() &- start
    }

    /// This request's slot when the request has variables (what the memory of colors read and the
    /// reading bound apply to), else nil.
    static var slotWithVariables: Slot? { slot.flatMap { $0.variables != nil ? $0 : nil } }

    @TaskLocal static var slot: Slot?

    /// This request's variables, or nil.
    static var variables: CSSVariables? { slot?.variables }

    /// Runs `body` with a slot bound when `request`'s body may hold a `variables` member.
    /// A request asked to move (`checkInlineTime`) is answered `HTTPResponse.moveToHeavyPool`,
    /// whatever its endpoint made of the problem.
    static func run(_ request: HTTPRequest, _ body: () -> HTTPResponse) -> HTTPResponse {
        guard request.method == "POST", mayHoldVariables(request.body) else { return body() }
        // A client already at its heavy-request limit: colors with variables are read by the
        // color, one color's chain can take milliseconds, so the request moves (and is refused
        // 429) before any is read (a second hostile pass, stop 43: 0.25 ms was checked only
        // between colors, and each refusal still cost 11–19 ms).
        if request.mayMoveToHeavyPool && request.clientAtHeavyLimit { return .moveToHeavyPool }
        let slot = Slot(inline: InlineWork(request))
        let response = $slot.withValue(slot) { body() }
        return slot.moveRequested ? .moveToHeavyPool : response
    }

    /// Whether `bytes` contain `variables` or `\u` (an escaped member name); found with memchr,
    /// so a plain request pays a few dozen instructions.
    static func mayHoldVariables(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { body -> Bool in
            guard let base = body.baseAddress, body.count >= 2 else { return false }
            let n = body.count
            /// Offset of the next `byte` at or after `from`, or nil.
            func next(_ byte: UInt8, from: Int) -> Int? {
                guard from < n, let hit = memchr(base + from, Int32(byte), n - from) else { return nil }
                return UnsafeRawPointer(hit) - base
            }
            var i = 0
            while let k = next(UInt8(ascii: "\\"), from: i) {
                if k + 1 < n && body[k + 1] == UInt8(ascii: "u") { return true }
                i = k + 2
            }
            i = 0
            while let k = next(UInt8(ascii: "v"), from: i) {
                if n - k >= 9 && memcmp(base + k, "variables", 9) == 0 { return true }
                i = k + 1
            }
            return false
        }
    }

    /// Tailwind CSS v4's default palette as variables (`"variables": "tailwind"`), with its
    /// gradient properties' initial values, built once.
    static let tailwindVariables = CSSVariables(tailwindValues)
    /// Tailwind's default palette and the initial values of its registered gradient properties.
    static let tailwindValues = TailwindPalette.colors.merging(TailwindPalette.registeredGradientDefaults) { a, _ in a }

    /// Reads and validates `variables` from a POST body object, removes it, and stores it in
    /// the slot: an object of custom properties, `"tailwind"`, or a list of those (at most 8,
    /// later overriding earlier). 400 naming the member for any other value, a name that is not a
    /// custom property name, more than `CSSVariables.maximumCount` properties of the request's
    /// own, or a value longer than `CSSVariables.maximumValueLength` characters.
    static func take(from object: inout JSONObject, at path: FieldPath) throws(Problem) {
        guard let value = object["variables"] else { return }
        let field = path.appending("variables")
        object = JSONObject(object.members.filter { $0.key != "variables" })
        if case .null = value { return }
        guard let slot else {
            // Only reachable when the body's bytes hid the name (impossible: a `\u` binds too).
            throw Problem.invalidField(field, "\(field.display) could not be read")
        }
        let what = "an object of custom properties such as {\"--brand\": \"#0066cc\"}, \"tailwind\" for Tailwind CSS v4's default palette, or a list of those (later ones override earlier: [\"tailwind\", {\"--brand\": \"var(--color-indigo-500)\"}])"
        // Tailwind CSS v4's default palette, by name (what `@import "tailwindcss"` defines): asked
        // for, never assumed, since a project's theme may redefine any of it (a plugin author's
        // pass: the token audit had it built in, the color routes did not); with a project's own
        // properties after it in a list (a front-end pass: Tailwind's gradient variables beside it).
        func isTailwind(_ name: String) -> Bool { name.lowercased() == "tailwind" }
        switch value {
        case .string(let name):
            guard isTailwind(name) else { throw Problem.invalidField(field, "\(field.display) is \(what), not \(ClientText.quoted(name))") }
            slot.variables = tailwindVariables
        case .object(let members):
            slot.variables = CSSVariables(try properties(members, at: field))
        case .array(let items):
            guard items.count <= 8 else { throw Problem.invalidField(field, "\(field.display) lists \(items.count) sets; at most 8 are accepted") }
            var values: [String: String] = [:]
            var own = 0
            for (i, item) in items.enumerated() {
                let at = field.appending(index: i)
                switch item {
                case .string(let name) where isTailwind(name):
                    values.merge(tailwindValues) { _, new in new }
                case .object(let members):
                    own += members.count
                    if own > CSSVariables.maximumCount {
                        throw Problem.invalidField(at, "\(field.display) has more than \(CSSVariables.maximumCount) properties of its own; at most \(CSSVariables.maximumCount) are accepted")
                    }
                    values.merge(try properties(members, at: at)) { _, new in new }
                case .string(let name):
                    throw Problem.invalidField(at, "\(at.display) must be an object of custom properties or \"tailwind\", not \(ClientText.quoted(name))")
                default:
                    throw Problem.invalidField(at, "\(at.display) must be an object of custom properties or \"tailwind\", not \(item.typeName)")
                }
            }
            slot.variables = CSSVariables(values)
        default:
            throw Problem.invalidField(field, "\(field.display) must be \(what), not \(value.typeName)")
        }
    }

    /// An object's custom properties (names `--…`, string values), as `take` reads them.
    static func properties(_ members: JSONObject, at field: FieldPath) throws(Problem) -> [String: String] {
        if members.count > CSSVariables.maximumCount {
            throw Problem.invalidField(field, "\(field.display) has \(members.count) properties; at most \(CSSVariables.maximumCount) are accepted")
        }
        var values: [String: String] = [:]
        for member in members.storage {
            let at = field.appending(member.key)
            if let why = CSSVariables.problem(withName: member.key) {
                throw Problem.invalidField(at, "\(field.display): \(ClientText.quoted(member.key)) is not a custom property name: \(why)")
            }
            guard case .string(let text) = member.value else {
                throw Problem.invalidField(at, "\(at.display) must be a string holding a CSS value, not \(member.value.typeName)")
            }
            if text.unicodeScalars.count > CSSVariables.maximumValueLength {
                throw Problem.invalidField(at, "\(at.display) is longer than \(CSSVariables.maximumValueLength) characters")
            }
            values[member.key] = text
        }
        return values
    }
}
