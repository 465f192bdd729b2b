internal import CDeflate
import Foundation

/// Response bodies decoded by their `Content-Encoding`, whole, with libdeflate.
///
/// libcurl inflates with zlib 16 KB at a time when left to it; it is told not to
/// (`CURLOPT_HTTP_CONTENT_DECODING` off), and a body is decoded here once it has all arrived, into room
/// of the size its gzip trailer states. libdeflate decodes the same gzip in about a third of zlib's
/// instructions and checks the CRC with the CPU's carry-less multiply; listings are the bulk of what
/// calbridge receives.
///
/// Bodies come from the network: every length is checked, every failure is a `Failure`, nothing traps.
enum ContentDecoding {
    /// The `Accept-Encoding` requests send: the codings `decode` reads. Google and Microsoft Graph
    /// answer in gzip; deflate is as cheap to read. Brotli and zstd are not offered.
    static let accepted = "gzip, deflate"

    /// Why a body could not be decoded.
    enum Failure: Error, Equatable {
        /// The response names a coding that was not offered (and so cannot be read).
        case unsupported(String)
        /// The bytes are not valid in the named coding (`coding`), or fail its checksum.
        case malformed(coding: String)
        /// Decoded, the body would be longer than the limit.
        case tooLarge
    }

    /// The codings a response's `Content-Encoding` field values list, in the order the server applied
    /// them, lowercased, without `identity` (RFC 9110 §8.4: a comma-separated list, case-insensitive).
    static func codings(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    /// `body` with `codings` (as `codings(_:)` lists them) undone, last applied first, at most `limit`
    /// bytes long at each step. An empty body stays empty whatever its coding (HEAD, 204, 304).
    static func decode(_ body: Data, codings: [String], limit: Int) throws(Failure) -> Data {
        guard !body.isEmpty, !codings.isEmpty else { return body }
        let formats = try codings.reversed().map { coding throws(Failure) -> (Format, String) in
            switch coding {
            case "gzip", "x-gzip": (.gzip, coding)
            case "deflate": (.zlib, coding)
            default: throw .unsupported(coding)
            }
        }
        var decoded = body
        for (format, coding) in formats {
            let result = decoded.withUnsafeBytes { inflate($0, format: format, coding: coding, limit: max(0, limit)) }
            decoded = try result.get()
        }
        return decoded
    }

    private enum Format { case gzip, zlib }

    /// Gzip members one after another (RFC 1952 §2.2), or one zlib stream; a raw DEFLATE stream where a
    /// "deflate" body lacks the zlib header, as some servers send it. Bytes after the last member or the
    /// stream are ignored, as gzip(1) ignores trailing garbage: what came before passed its checksum.
    private static func inflate(
        _ input: UnsafeRawBufferPointer, format: Format, coding: String, limit: Int
    ) -> Result<Data, Failure> {
        guard let base = input.baseAddress, !input.isEmpty else { return .success(Data()) }
        guard let decompressor = libdeflate_alloc_decompressor() else { return .failure(.malformed(coding: coding)) }
        defer { libdeflate_free_decompressor(decompressor) }

        var capacity = min(limit, initialCapacity(input, format: format))
        guard var output = malloc(max(capacity, 1)) else { return .failure(.tooLarge) }
        var consumed = 0
        var produced = 0
        let decompress = switch format {
        case .gzip: libdeflate_gzip_decompress_ex
        case .zlib where hasZlibHeader(input): libdeflate_zlib_decompress_ex
        case .zlib: libdeflate_deflate_decompress_ex
        }
        while consumed < input.count {
            var usedIn = 0
            var usedOut = 0
            let code = decompress(
                decompressor, base + consumed, input.count - consumed, output + produced, capacity - produced, &usedIn, &usedOut)
            if code == LIBDEFLATE_SUCCESS {
                consumed += usedIn
                produced += usedOut
                // Another gzip member follows only where its magic number does.
                let rest = input.count - consumed
                guard format == .gzip, rest >= 2, input[consumed] == 0x1F, input[consumed + 1] == 0x8B else { break }
            } else if code == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < limit {
                // The member is decoded again from its start into twice the room.
                capacity = capacity > limit / 2 ? limit : min(limit, max(capacity * 2, 4096))
                guard let grown = realloc(output, capacity) else {
                    free(output)
                    return .failure(.tooLarge)
                }
                output = grown
            } else {
                free(output)
                return .failure(code == LIBDEFLATE_INSUFFICIENT_SPACE ? .tooLarge : .malformed(coding: coding))
            }
        }
        guard produced > 0 else {
            free(output)
            return .success(Data())
        }
        return .success(Data(bytesNoCopy: output, count: produced, deallocator: .free))
    }

    /// The room first set aside: a gzip body's trailer states its last member's length (modulo 2^32;
    /// a single member's whole length), a wrong one only costs a second attempt. A zlib stream states none.
    private static func initialCapacity(_ input: UnsafeRawBufferPointer, format: Format) -> Int {
        let guess = input.count <= Int.max / 8 ? input.count * 8 : Int.max
        guard format == .gzip, input.count >= 18 else { return guess }
        let end = input.count
        let stated = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
        return max(stated, 1)
    }

    /// Whether a "deflate" body starts with a zlib header (RFC 1950 §2.2: method 8, the check bits making
    /// the first two bytes a multiple of 31).
    private static func hasZlibHeader(_ input: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= 2 else { return false }
        return input[0] & 0x0F == 8 && (Int(input[0]) << 8 | Int(input[1])) % 31 == 0
    }
}
