import CalbridgeSupport
import Foundation
import OAuth

/// Shows the user where to sign in: opens a browser when there is a display (and `--no-browser`
/// was not given), and always prints the URL alone on its own line on stderr, so it can be copied
/// (or, in tests, followed by a stand-in browser).
struct SignInPresenter: Sendable {
    let context: CommandContext
    let openBrowser: Bool

    init(context: CommandContext, noBrowser: Bool) {
        self.context = context
        let display = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(context.environment[$0] ?? "").isEmpty }
        openBrowser = display && !noBrowser
    }

    func presentAuthorization(_ url: URL, providerName: String, timeout: Int) {
        if openBrowser {
            context.printError("Opening your browser to sign in to \(providerName). If it does not open, visit:")
        } else {
            context.printError("To sign in to \(providerName), open this URL in a browser on this machine:")
        }
        context.printError(url.absoluteString)
        context.printError("Waiting up to \(Self.describe(seconds: timeout)) for the sign-in to finish...")
        if openBrowser { Self.launchBrowser(url) }
    }

    func presentDeviceCode(_ authorization: DeviceAuthorization, providerName: String) {
        context.printError("To sign in to \(providerName), open \(authorization.verificationURI.absoluteString) in any browser")
        context.printError("and enter the code \(authorization.userCode)")
        context.printError("Waiting for the sign-in to finish...")
    }

    /// `xdg-open URL`, detached; a failure only means the user uses the printed URL.
    private static func launchBrowser(_ url: URL) {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try? process.run()
    }

    static func describe(seconds: Int) -> String {
        seconds >= 60 && seconds % 60 == 0 ? "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" : "\(seconds) seconds"
    }
}
