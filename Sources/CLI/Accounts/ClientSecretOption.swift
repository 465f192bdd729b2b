import Foundation

/// Where `accounts add` takes the OAuth client secret from, so that it need not be in argv (where `ps`
/// shows it to every user): `--client-secret-file PATH`, else `$CALBRIDGE_CLIENT_SECRET`, else
/// `--client-secret SECRET` (kept for scripts; visible in `ps`).
enum ClientSecretOption {
    /// The environment variable that carries the secret.
    static let environmentVariable = "CALBRIDGE_CLIENT_SECRET"

    /// The secret the user gave, or nil for none.
    /// - Throws: `UsageError` for two sources at once; `InputError` (exit 2) for an unreadable or empty file.
    static func resolve(_ arguments: ParsedArguments, environment: [String: String], command: String) throws -> String? {
        let inline = arguments.value("client-secret")
        let path = arguments.value("client-secret-file")
        if inline != nil, path != nil {
            throw UsageError("give the client secret once: --client-secret or --client-secret-file, not both", command: command)
        }
        if let path { return try read(path) }
        if let inline {
            guard !inline.isEmpty else { throw UsageError("--client-secret must not be empty", command: command) }
            return inline
        }
        if let value = environment[environmentVariable], !value.isEmpty {
            return value.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// The file's first line, trimmed (as written by `echo SECRET > file` or a secrets manager).
    private static func read(_ path: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputError("cannot read --client-secret-file \(path): \((error as NSError).localizedDescription)")
        }
        guard data.count <= 64 * 1024 else {
            throw InputError("--client-secret-file \(path) is \(data.count) bytes; a client secret is one short line")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !line.isEmpty else {
            throw InputError("--client-secret-file \(path) is empty; put the client secret on its first line")
        }
        return line
    }
}
