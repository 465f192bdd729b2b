import Foundation
import HTTP
import LoopbackServer

extension GraphEmulator {
    /// Graph's limit on steps in one JSON batch.
    static let batchLimit = 20

    private struct BatchStep {
        var id: String
        var method: String
        var url: String
        var headers: HTTPHeaders
        var body: Data
        var dependsOn: [String]
    }

    /// `POST /v1.0/$batch`: runs up to 20 steps in `dependsOn` order (steps without dependencies in the order
    /// given), each through the same routing and per-mailbox slot as a single request. A step whose dependency
    /// failed is answered 424 without running.
    func batch(_ request: ServerRequest, caller: GraphCaller) async throws(GraphError) -> ServerResponse {
        let root = try GraphEmulator.parseJSONObject(request.body)
        guard let list = root["requests"] as? [Any] else { throw GraphError.invalidBatch }
        guard list.count <= GraphEmulator.batchLimit else { throw GraphError.batchTooLarge }
        var steps: [BatchStep] = []
        for item in list {
            guard let object = item as? [String: Any], let id = object["id"] as? String, !id.isEmpty,
                  let method = object["method"] as? String, let url = object["url"] as? String else {
                throw GraphError.invalidBatch
            }
            guard !steps.contains(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) else {
                throw GraphError.badRequest("Batch request contains duplicate request id '\(id)'.")
            }
            var headers: HTTPHeaders = [:]
            if let raw = object["headers"] {
                guard let dictionary = raw as? [String: Any] else { throw GraphError.invalidBatch }
                for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { headers[name] = "\(value)" }
            }
            var body = Data()
            if let raw = object["body"], !(raw is NSNull) {
                if let text = raw as? String {
                    body = Data(base64Encoded: text) ?? Data(text.utf8)
                } else if JSONSerialization.isValidJSONObject(raw) {
                    body = (try? JSONSerialization.data(withJSONObject: raw)) ?? Data()
                } else {
                    throw GraphError.invalidBatch
                }
            }
            var dependsOn: [String] = []
            if let raw = object["dependsOn"] {
                guard let ids = raw as? [String] else { throw GraphError.invalidBatch }
                dependsOn = ids
            }
            steps.append(BatchStep(id: id, method: method.uppercased(), url: url, headers: headers, body: body, dependsOn: dependsOn))
        }
        for step in steps {
            for dependency in step.dependsOn where !steps.contains(where: { $0.id == dependency }) {
                throw GraphError.badRequest("The dependsOn value '\(dependency)' of request '\(step.id)' does not match any request id.")
            }
        }
        // Dependencies first; a cycle can never become ready.
        var order: [Int] = []
        var done = Set<String>()
        while order.count < steps.count {
            guard let next = steps.indices.first(where: { index in
                !order.contains(index) && steps[index].dependsOn.allSatisfy { done.contains($0) }
            }) else { throw GraphError.badRequest("The batch request's dependsOn values form a cycle.") }
            order.append(next)
            done.insert(steps[next].id)
        }
        var statuses: [String: Int] = [:]
        var answers: [Int: [UInt8]] = [:]
        for index in order {
            let step = steps[index]
            let response: ServerResponse
            if step.dependsOn.contains(where: { (statuses[$0] ?? 0) >= 400 }) {
                response = GraphError(status: 424, code: "FailedDependency",
                                      message: "The request could not be run because a request it depends on failed.")
                    .response(date: now())
            } else {
                response = await runStep(step, caller: caller, host: request.headers["Host"])
            }
            statuses[step.id] = response.status
            answers[index] = Self.batchAnswer(id: step.id, response)
        }
        // The answers' JSON bodies are spliced in as they are, not parsed and written again.
        var out = Array(#"{"responses":["#.utf8)
        for (position, index) in steps.indices.enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            out += answers[index] ?? []
        }
        out += Array("]}".utf8)
        return GraphEmulator.jsonResponse(200, body: Data(out))
    }

    /// One entry of `responses`: `id`, `status`, `headers`, and `body` (JSON inline as Graph does; any other
    /// content base64-encoded).
    private static func batchAnswer(id: String, _ response: ServerResponse) -> [UInt8] {
        var headers: [String: SandboxJSON] = [:]
        for field in response.headers { headers[field.name] = .string(field.value) }
        var object: [String: SandboxJSON] = ["id": .string(id), "status": .int(response.status), "headers": .object(headers)]
        let isJSON = response.headers["Content-Type"]?.lowercased().contains("json") ?? false
        if !response.body.isEmpty, !isJSON { object["body"] = .string(response.body.base64EncodedString()) }
        var out: [UInt8] = []
        SandboxJSON.object(object).write(into: &out)
        if !response.body.isEmpty, isJSON {
            out.removeLast()  // the closing brace
            out += Array(#","body":"#.utf8)
            out += response.body
            out.append(UInt8(ascii: "}"))
        }
        return out
    }

    private func runStep(_ step: BatchStep, caller: GraphCaller, host: String?) async -> ServerResponse {
        var headers = step.headers
        if headers["Host"] == nil, let host { headers["Host"] = host }
        let url = step.url.trimmingCharacters(in: .whitespaces)
        guard !url.lowercased().hasPrefix("http:"), !url.lowercased().hasPrefix("https:") else {
            return GraphError.badRequest("Invalid request URL '\(url)'. Batch request URLs must be relative.").response(date: now())
        }
        let target = url.hasPrefix("/") ? "/v1.0" + url : "/v1.0/" + url
        let inner = ServerRequest(method: step.method, target: target, headers: step.headers, body: step.body)
        let segments = Array(inner.pathSegments.dropFirst())
        if segments.first?.caseInsensitiveCompare("$batch") == .orderedSame {
            return GraphError.badRequest("A batch request can't contain another batch request.").response(date: now())
        }
        do throws(GraphError) {
            return try await perform(
                method: inner.method, segments: segments, query: inner.query, headers: headers, body: step.body, caller: caller)
        } catch {
            return error.response(date: now())
        }
    }
}
