import Foundation
@testable import HTTPCurl
import Testing

@Suite("ContentDecoding: gzip and deflate bodies decoded whole, every malformed one refused")
struct ContentDecodingTests {
    typealias Support = CurlTestSupport

    static func decode(_ body: Data, _ codings: [String], limit: Int = 1 << 20) -> Result<Data, ContentDecoding.Failure> {
        Result { () throws(ContentDecoding.Failure) in try ContentDecoding.decode(body, codings: codings, limit: limit) }
    }

    /// `data` with its last four bytes (a gzip trailer's length, or a zlib stream's checksum) replaced.
    static func withLastWord(_ data: Data, _ word: UInt32) -> Data {
        var changed = data
        let end = changed.count
        for index in 0..<4 { changed[end - 4 + index] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(index))) }
        return changed
    }

    @Test("Content-Encoding values: a list over one or more fields, any case, identity left out")
    func codings() {
        #expect(ContentDecoding.codings(["gzip"]) == ["gzip"])
        #expect(ContentDecoding.codings(["identity"]).isEmpty)
        #expect(ContentDecoding.codings([""]).isEmpty)
        #expect(ContentDecoding.codings(["GZip , identity", "x-gzip"]) == ["gzip", "x-gzip"])
        #expect(ContentDecoding.codings([" deflate,,gzip "]) == ["deflate", "gzip"])
    }

    @Test("gzip: one member, two members one after another, gzip twice, trailing bytes after the member")
    func gzip() throws {
        let original = try Support.fixture("sample.txt")
        let member = try Support.fixture("sample.txt.gz")
        #expect(try Self.decode(member, ["gzip"]).get() == original)
        #expect(try Self.decode(member, ["x-gzip"]).get() == original)
        // The trailer states the last member's length only: the room set aside from it grows.
        #expect(try Self.decode(member + member, ["gzip"]).get() == original + original)
        #expect(try Self.decode(try Support.fixture("sample.txt.gz.gz"), ["gzip", "gzip"]).get() == original)
        #expect(try Self.decode(member + Data("\n\0\0".utf8), ["gzip"]).get() == original)
        // An empty body is empty in any coding (HEAD, 204, 304); no coding leaves the bytes alone.
        #expect(try Self.decode(Data(), ["gzip"]).get() == Data())
        #expect(try Self.decode(member, []).get() == member)
    }

    @Test("deflate: a zlib stream, and a raw DEFLATE stream as some servers send it")
    func deflate() throws {
        let original = try Support.fixture("sample.txt")
        let zlib = try Support.fixture("sample.txt.zlib")
        #expect(try Self.decode(zlib, ["deflate"]).get() == original)
        let raw = zlib.dropFirst(2).dropLast(4)
        #expect(try Self.decode(Data(raw), ["deflate"]).get() == original)
    }

    @Test("malformed: a wrong CRC, a wrong length in the trailer, a cut body, a wrong Adler-32, bytes that are no gzip")
    func malformed() throws {
        let member = try Support.fixture("sample.txt.gz")
        let original = try Support.fixture("sample.txt")
        let crc = member.count - 8
        var wrongCRC = member
        wrongCRC[crc] ^= 0xFF
        #expect(Self.decode(wrongCRC, ["gzip"]) == .failure(.malformed(coding: "gzip")))
        // Stated shorter than it is: decoded into more room, then refused by the length check.
        #expect(Self.decode(Self.withLastWord(member, 10), ["gzip"]) == .failure(.malformed(coding: "gzip")))
        #expect(Self.decode(Self.withLastWord(member, UInt32(original.count + 1)), ["gzip"]) == .failure(.malformed(coding: "gzip")))
        #expect(Self.decode(member.prefix(member.count / 2), ["gzip"]) == .failure(.malformed(coding: "gzip")))
        let zlib = try Support.fixture("sample.txt.zlib")
        #expect(Self.decode(Self.withLastWord(zlib, 0), ["deflate"]) == .failure(.malformed(coding: "deflate")))
        #expect(Self.decode(Data("not compressed at all".utf8), ["gzip"]) == .failure(.malformed(coding: "gzip")))
    }

    @Test("a coding not offered is refused before anything is decoded, even after one that is")
    func unsupported() throws {
        let member = try Support.fixture("sample.txt.gz")
        #expect(Self.decode(member, ["br"]) == .failure(.unsupported("br")))
        #expect(Self.decode(member, ["gzip", "zstd"]) == .failure(.unsupported("zstd")))
        #expect(Self.decode(member, ["compress", "gzip"]) == .failure(.unsupported("compress")))
    }

    @Test("the limit: a decompression bomb is refused whatever its trailer states; a body of exactly the limit passes")
    func limit() throws {
        let bomb = try Support.fixture("repetitive.txt.gz")  // 5,300 bytes -> 2,160,000
        #expect(Self.decode(bomb, ["gzip"], limit: 1 << 20) == .failure(.tooLarge))
        #expect(Self.decode(Self.withLastWord(bomb, 100), ["gzip"], limit: 1 << 20) == .failure(.tooLarge))
        #expect(Self.decode(Self.withLastWord(bomb, .max), ["gzip"], limit: 1 << 20) == .failure(.tooLarge))
        #expect(try Self.decode(bomb, ["gzip"], limit: 2_160_000).get().count == 2_160_000)
        #expect(Self.decode(bomb, ["gzip"], limit: 2_159_999) == .failure(.tooLarge))
        #expect(Self.decode(bomb, ["gzip"], limit: 0) == .failure(.tooLarge))
        let zlib = try Support.fixture("sample.txt.zlib")  // 623 bytes -> 15,000; no length stated
        #expect(try Self.decode(zlib, ["deflate"], limit: 15_000).get().count == 15_000)
        #expect(Self.decode(zlib, ["deflate"], limit: 14_999) == .failure(.tooLarge))
    }
}
