/// Hand-written zlib streams for image tests (decompression bombs without zlib itself).
public enum ZlibStreams {
    /// `bytes` as a zlib stream of stored (uncompressed) blocks: RFC 1950, RFC 1951 §3.2.4.
    public static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var k = 0
        repeat {
            let n = Swift.min(65535, bytes.count - k)
            let final: UInt8 = k + n == bytes.count ? 1 : 0
            out += [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
            out += bytes[k..<k + n]
            k += n
        } while k < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return out + [UInt8(b >> 8), UInt8(b & 255), UInt8(a >> 8), UInt8(a & 255)]
    }

    /// A zlib stream that inflates to `count` zero bytes (fixed Huffman codes: one literal 0,
    /// then matches of length 258 at distance 1): 13 bits per 258 bytes. RFC 1950, RFC 1951 §3.2.6.
    public static func zeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var bits: UInt64 = 0, used = 0
        func put(_ value: Int, _ n: Int) {  // LSB first
            bits |= UInt64(value) << UInt64(used)
            used += n
            while used >= 8 { out.append(UInt8(bits & 255)); bits >>= 8; used -= 8 }
        }
        func code(_ value: Int, _ n: Int) {  // Huffman codes go MSB first
            var r = 0
            for i in 0..<n where value & (1 << i) != 0 { r |= 1 << (n - 1 - i) }
            put(r, n)
        }
        put(1, 1); put(1, 2)  // final block, fixed Huffman
        var left = count
        code(0x30, 8); left -= 1  // literal 0
        while left >= 258 { code(0xC5, 8); code(0, 5); left -= 258 }  // length 258, distance 1
        while left > 0 { code(0x30, 8); left -= 1 }
        code(0, 7)  // end of block
        if used > 0 { out.append(UInt8(bits & 255)) }
        let a: UInt32 = 1, b = UInt32(count % 65521)
        return out + [UInt8(b >> 8), UInt8(b & 255), UInt8(a >> 8), UInt8(a & 255)]
    }
}
