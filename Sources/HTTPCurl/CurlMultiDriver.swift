internal import CCurl
import Foundation
import HTTP

/// Owns one libcurl multi handle and the thread that runs every transfer on it.
///
/// Why one thread and the multi interface: libcurl's easy interface blocks a thread per request, which
/// would either starve Swift's small cooperative pool or need a thread per in-flight request. The multi
/// interface drives any number of transfers from one thread with `poll`, and its connection cache gives
/// keep-alive and HTTP/2 multiplexing across all requests of the transport. Other threads only touch
/// the lock-protected queues and call `curl_multi_wakeup`, the one multi function libcurl allows from
/// another thread.
final class CurlMultiDriver: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer

    // Guarded by `lock`.
    private let lock = NSLock()
    private var incoming: [CurlTransfer] = []
    private var cancellations: [CurlTransfer] = []
    private var stopping = false
    /// Set by the driver thread once the multi handle is gone; no wakeup after that.
    private var closed = false

    // Driver thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(maxConnectionsPerHost: Int) {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard let multi = curl_multi_init() else { fatalError("libcurl could not create a multi handle") }
        self.multi = multi
        _ = cb_multi_setopt_long(multi, CURLMOPT_PIPELINING, cb_pipe_multiplex())
        _ = cb_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        // The idle-connection cache. libcurl's default follows the number of easy handles added right now,
        // which dips whenever a burst ends (each request has its own handle) and then closes connections
        // that the next burst has to reopen. A fixed size keeps every allowed connection for several hosts.
        _ = cb_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(32, 4 * maxConnectionsPerHost))
        let thread = Thread { [self] in run() }
        thread.name = "calbridge-curl"
        thread.start()
    }

    /// Queues a transfer; `continuation` is resumed when it ends, fails, or is cancelled.
    func submit(_ transfer: CurlTransfer, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let cancelledEarly: Bool = lock.withLock {
            if transfer.state == .cancelledEarly || stopping {
                transfer.state = .finished
                return true
            }
            transfer.continuation = continuation
            transfer.state = .queued
            incoming.append(transfer)
            curl_multi_wakeup(multi)
            return false
        }
        if cancelledEarly { continuation.resume(throwing: Self.cancelledError(transfer)) }
    }

    /// Cancels a transfer in whatever state it is; a finished one is left alone.
    func cancel(_ transfer: CurlTransfer) {
        let resumeNow: CheckedContinuation<HTTPResponse, any Error>? = lock.withLock {
            switch transfer.state {
            case .created:
                transfer.state = .cancelledEarly
            case .queued:
                incoming.removeAll { $0 === transfer }
                transfer.state = .finished
                defer { transfer.continuation = nil }
                return transfer.continuation
            case .running:
                cancellations.append(transfer)
                if !closed { curl_multi_wakeup(multi) }
            case .cancelledEarly, .finished:
                break
            }
            return nil
        }
        resumeNow?.resume(throwing: Self.cancelledError(transfer))
    }

    /// Ends the thread after cancelling whatever is still running.
    func shutdown() {
        lock.withLock {
            stopping = true
            if !closed { curl_multi_wakeup(multi) }
        }
    }

    // MARK: - The driver thread

    private func run() {
        var stillRunning: Int32 = 0
        while true {
            let (added, cancelled, stop): ([CurlTransfer], [CurlTransfer], Bool) = lock.withLock {
                let added = incoming
                let cancelled = cancellations
                incoming.removeAll()
                cancellations.removeAll()
                for transfer in added { transfer.state = .running }
                return (added, cancelled, stopping)
            }
            for transfer in added {
                let code = curl_multi_add_handle(multi, transfer.easy)
                if code == CURLM_OK {
                    active[transfer.easy] = transfer
                } else {
                    let message = String(cString: curl_multi_strerror(code))
                    finish(transfer, .failure(HTTPError(code: .other, url: transfer.request.url, message: message)))
                }
            }
            for transfer in cancelled where active[transfer.easy] === transfer {
                remove(transfer)
                finish(transfer, .failure(Self.cancelledError(transfer)))
            }
            if stop {
                for transfer in active.values {
                    remove(transfer)
                    finish(transfer, .failure(Self.cancelledError(transfer)))
                }
                break
            }

            curl_multi_perform(multi, &stillRunning)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard cb_msg_is_done(message) != 0, let easy = message.pointee.easy_handle,
                      let transfer = active[easy] else { continue }
                let code = cb_msg_result(message)
                remove(transfer)
                finish(transfer, transfer.result(code))
            }
            // Sleeps until a socket is ready, libcurl's next timeout, or a wakeup from submit/cancel.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        lock.withLock {
            closed = true
            // Anything submitted while stopping was refused in `submit`.
            curl_multi_cleanup(multi)
        }
    }

    private func remove(_ transfer: CurlTransfer) {
        active[transfer.easy] = nil
        curl_multi_remove_handle(multi, transfer.easy)
    }

    private func finish(_ transfer: CurlTransfer, _ result: Result<HTTPResponse, any Error>) {
        let continuation: CheckedContinuation<HTTPResponse, any Error>? = lock.withLock {
            transfer.state = .finished
            defer { transfer.continuation = nil }
            return transfer.continuation
        }
        continuation?.resume(with: result)
    }

    private static func cancelledError(_ transfer: CurlTransfer) -> HTTPError {
        HTTPError(code: .cancelled, url: transfer.request.url, message: "the request was cancelled")
    }
}
