import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--state FILE`: `{"tokens": <token authority snapshot>, "<component name>": <its snapshot>, ...}`.
enum SandboxStateFile {
    static func load(_ url: URL, tokens: SandboxTokenAuthority, components: [SandboxNamedComponent]) async throws(SandboxError) {
        let top: [String: Any]
        do {
            let data = try Data(contentsOf: url)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw SandboxError.badState(path: url.path, reason: "not a JSON object")
            }
            top = object
        } catch let error as SandboxError {
            throw error
        } catch {
            throw .badState(path: url.path, reason: "unreadable JSON")
        }
        do {
            if let part = top["tokens"] { try await tokens.restore(try JSONSerialization.data(withJSONObject: part)) }
        } catch {
            throw .badState(path: url.path, reason: "its \"tokens\" entry does not fit")
        }
        for named in components {
            guard let part = top[named.name] else { continue }
            do {
                try await named.component.restore(try JSONSerialization.data(withJSONObject: part, options: [.fragmentsAllowed]))
            } catch {
                throw .badState(path: url.path, reason: "its \"\(named.name)\" entry does not fit")
            }
        }
    }

    /// Writes to a temporary file next to `url`, syncs it, then renames it over `url`, so a crash mid-write
    /// leaves the old state intact.
    static func save(_ url: URL, tokens: SandboxTokenAuthority, components: [SandboxNamedComponent]) async throws(SandboxError) {
        var top: [String: Any] = [:]
        do {
            top["tokens"] = try JSONSerialization.jsonObject(with: try await tokens.snapshot())
            for named in components {
                top[named.name] = try JSONSerialization.jsonObject(with: try await named.component.snapshot(), options: [.fragmentsAllowed])
            }
        } catch {
            throw .cannotWrite(path: url.path, reason: "a component could not take a snapshot (\(error))")
        }
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw .cannotWrite(path: url.path, reason: "the snapshot is not JSON")
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
        var offset = 0
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { failure = errno; return }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary.path, url.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary.path)
            throw .cannotWrite(path: url.path, reason: String(cString: strerror(failure)))
        }
    }
}
