import Foundation
import TestSupport
import Testing

/// contrib/kubernetes: the manifests parse (Debian's python3-yaml reads them), and they say what
/// docs/organisation.md says: workers read the database URL from the Secret's environment and the keys from
/// the Secret mounted read-only, SIGTERM has time to finish, and calbridge accepts the worker's arguments.
@Suite("contrib/kubernetes manifests")
struct KubernetesManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let directory = root.appendingPathComponent("contrib/kubernetes")

    /// Every document of every manifest, as JSON objects, by kind.
    static func documents() async throws -> [String: [String: Any]] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files == ["init-job.yaml", "secret.example.yaml", "worker-deployment.yaml"])
        let script = """
            import json, sys, yaml
            print(json.dumps([d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d is not None]))
            """
        let parsed = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + files.map { directory.appendingPathComponent($0).path })
        try #require(parsed.status == 0, "python3-yaml (.ci/install-deps) could not read the manifests: \(parsed.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
        var byKind: [String: [String: Any]] = [:]
        for document in list {
            let kind = try #require(document["kind"] as? String)
            #expect(byKind[kind] == nil, "one \(kind)")
            byKind[kind] = document
        }
        return byKind
    }

    static func object(_ value: Any?, _ path: String...) -> Any? {
        var current = value
        for key in path {
            if let index = Int(key), let array = current as? [Any] {
                current = array.indices.contains(index) ? array[index] : nil
            } else {
                current = (current as? [String: Any])?[key]
            }
        }
        return current
    }

    @Test("the Deployment runs workers with the Secret's database URL and keys (read-only), time to finish on SIGTERM, no root")
    func deployment() async throws {
        let documents = try await Self.documents()
        let deployment = try #require(documents["Deployment"])
        let secret = try #require(documents["Secret"])
        #expect(Self.object(deployment, "apiVersion") as? String == "apps/v1")
        let pod = Self.object(deployment, "spec", "template", "spec")
        let container = try #require(Self.object(pod, "containers", "0") as? [String: Any])
        let args = try #require(container["args"] as? [String])
        #expect(args.first == "worker")
        let secretName = try #require(Self.object(secret, "metadata", "name") as? String)
        let keys = Set((secret["stringData"] as? [String: Any] ?? [:]).keys)

        let env = try #require(container["env"] as? [[String: Any]])
        let database = try #require(env.first { $0["name"] as? String == "CALBRIDGE_DATABASE_URL" })
        #expect(Self.object(database, "valueFrom", "secretKeyRef", "name") as? String == secretName)
        let databaseKey = try #require(Self.object(database, "valueFrom", "secretKeyRef", "key") as? String)
        #expect(keys.contains(databaseKey))
        #expect(env.allSatisfy { $0["value"] == nil }, "no value written into the manifest")

        let mount = try #require((container["volumeMounts"] as? [[String: Any]])?.first)
        #expect(mount["readOnly"] as? Bool == true)
        let volume = try #require(
            (Self.object(pod, "volumes") as? [[String: Any]])?.first { $0["name"] as? String == mount["name"] as? String })
        #expect(Self.object(volume, "secret", "secretName") as? String == secretName)
        let mode = try #require(Self.object(volume, "secret", "defaultMode") as? Int)
        #expect(mode & 0o077 == 0, "keys readable by their owner only")
        let items = try #require(Self.object(volume, "secret", "items") as? [[String: Any]])
        #expect(!items.isEmpty && items.allSatisfy { keys.contains($0["key"] as? String ?? "") })
        // The doc's example credentials point at these paths.
        let mounted = Set(items.compactMap { item in (item["path"] as? String).map { "\(mount["mountPath"] as? String ?? "")/\($0)" } })
        let doc = try String(contentsOf: Self.directory.appendingPathComponent("secret.example.yaml"), encoding: .utf8)
        for path in mounted { #expect(doc.contains(path), "\(path) is named in the example's credential commands") }

        #expect((Self.object(pod, "terminationGracePeriodSeconds") as? Int ?? 0) >= 30)
        #expect(Self.object(pod, "securityContext", "runAsNonRoot") as? Bool == true)
        #expect(Self.object(container, "securityContext", "readOnlyRootFilesystem") as? Bool == true)
        let job = try #require(documents["Job"])
        #expect(Self.object(job, "spec", "template", "spec", "containers", "0", "args") as? [String] == ["org", "init"])
    }

    @Test("calbridge accepts the Deployment's worker arguments (it gets as far as the database)")
    func argumentsParse() async throws {
        let documents = try await Self.documents()
        let args = try #require(
            Self.object(documents["Deployment"], "spec", "template", "spec", "containers", "0", "args") as? [String])
        let result = try await CalbridgeBinary.run(
            args + ["--database", "postgresql:///none?host=/nonexistent-calbridge-socket-dir"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 1, "a usage error would be 2: \(result.stderr)")
        #expect(result.stderr.contains("cannot connect to the database"))
    }
}
