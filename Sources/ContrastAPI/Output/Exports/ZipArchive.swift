import CZipShim

/// Zip archives in memory, through libzip (Debian `libzip-dev`, runtime `libzip4`; see
/// `Sources/System/CZipShim`). Used by `/v1/palette/export` for the Xcode asset catalog and the
/// Android resources; tests read the archives back with `entries(of:)`.
enum ZipArchive {
    /// A failure of libzip, with its message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One entry: a `/`-separated path (a trailing `/` makes a directory) and its bytes.
    struct Entry: Equatable {
        var path: String
        var data: [UInt8]
    }

    /// The fixed modification time of every entry: 2001-01-01 12:00:00 UTC (978350400), so the
    /// same palette gives the same archive bytes (zip stores local time; on one machine the
    /// bytes are identical).
    static let modificationTime: Int64 = 978_350_400

    /// Builds a deflated archive of `entries`, in order. Always allocates the whole archive.
    static func build(_ entries: [Entry]) throws(Failure) -> [UInt8] {
        // C strings and byte buffers that stay alive for the one call.
        let names = entries.map { strdup($0.path) }
        defer { names.forEach { free($0) } }
        let buffers: [UnsafeMutablePointer<UInt8>] = entries.map { e in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(e.data.count, 1))
            e.data.withUnsafeBufferPointer { if let base = $0.baseAddress { p.initialize(from: base, count: e.data.count) } }
            return p
        }
        defer { buffers.forEach { $0.deallocate() } }
        var sizes = entries.map { $0.data.count }
        var namePointers: [UnsafePointer<CChar>?] = names.map { UnsafePointer($0) }
        var dataPointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
        var out: UnsafeMutablePointer<UInt8>?
        var outSize = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = czip_build(&namePointers, &dataPointers, &sizes, entries.count, modificationTime, 0,
                                &out, &outSize, &error, error.count)
        guard status == 0, let out else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { czip_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: outSize))
    }

    /// The entries of an archive, in archive order (checked for consistency first).
    static func entries(of archive: [UInt8]) throws(Failure) -> [Entry] {
        final class Box { var entries: [Entry] = [] }
        let box = Box()
        var error = [CChar](repeating: 0, count: 256)
        let status = archive.withUnsafeBufferPointer { buffer in
            withExtendedLifetime(box) {
                czip_read(buffer.baseAddress, buffer.count, Unmanaged.passUnretained(box).toOpaque(), { context, name, data, size in
                    let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
                    box.entries.append(Entry(path: String(cString: name!), data: bytes))
                    return 0
                }, &error, error.count)
            }
        }
        guard status == 0 else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return box.entries
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
