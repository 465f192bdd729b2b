import Foundation
import HTTP

/// Where `LoopbackHTTPServer` runs its handlers: a task executor over a few threads of its own.
///
/// Handlers are async, and by default their tasks run on the cooperative pool, which has one thread per
/// core (two here). Anything in the same process that blocks those threads (a CLI waiting on a child
/// process, a long synchronous computation, a test doing either) would then stall every request the
/// server is answering; Dispatch's global pool is no refuge, being just as narrow and shared. With this
/// executor as the handler tasks' preference (SE-0417), handler code and the default actors it calls
/// (the sandbox's emulators) run on these threads, which run nothing else. Handlers never block, so a
/// few threads serve any number of connections.
final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    /// One pool for every server in the process: handler work is short, and threads are not free.
    static let shared = HandlerExecutor(threads: max(4, ProcessInfo.processInfo.activeProcessorCount * 2))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in work() }
            thread.name = "calbridge-http-handler-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
