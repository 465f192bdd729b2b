import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The benchmarks are the Bench module, linked into `calbridge-bench` alone: the user's `calbridge` holds
/// none of their code. Checked in the built executables' bytes, with `calbridge-bench` as the control that
/// the marks looked for are there when the module is.
@Suite("the benchmarks apart from the user's binary")
struct BenchApartTests {
    /// A Swift symbol of the Bench module (`$s5Bench...`), and the text of `calbridge-bench copy`'s summary.
    static let marks = ["$s5Bench", "Time 'copy' Outlook -> Google twice against the sandbox with latency."]

    static func contents(of name: String) throws -> Data {
        try Data(contentsOf: CalbridgeBinary.url(of: name), options: .alwaysMapped)
    }

    /// Whether `mark`'s UTF-8 occurs in `data` (memchr to each candidate first byte: a debug binary is over
    /// 100 MB).
    static func contains(_ data: Data, _ mark: String) -> Bool {
        let needle = Array(mark.utf8)
        return data.withUnsafeBytes { (haystack: UnsafeRawBufferPointer) -> Bool in
            guard let base = haystack.baseAddress, let first = needle.first else { return false }
            var offset = 0
            while offset + needle.count <= haystack.count {
                guard let hit = memchr(base + offset, Int32(first), haystack.count - offset - needle.count + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needle, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }

    @Test("calbridge-bench contains the Bench module; calbridge contains none of it")
    func binaries() throws {
        let bench = try Self.contents(of: "calbridge-bench")
        let user = try Self.contents(of: "calbridge")
        for mark in Self.marks {
            #expect(Self.contains(bench, mark), "calbridge-bench lacks \(mark)")
            #expect(!Self.contains(user, mark), "calbridge contains \(mark)")
        }
    }

    @Test("'calbridge copy' is the user's copy: the benchmark's options are unknown to it (exit 2)")
    func benchOptionsUnknown() async throws {
        let result = try await CalbridgeBinary.run(["copy", "--client-process", "a", "b"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--client-process"))
    }
}
