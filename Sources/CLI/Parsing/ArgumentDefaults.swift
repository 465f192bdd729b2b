/// What the parser fills in where a command line is silent (the user's configuration, `CalbridgeConfig`):
/// the command line always wins.
package struct ArgumentDefaults: Sendable {
    /// Option name → value, for the options a command declares and the line does not give.
    package var options: [String: String] = [:]
    /// A positional argument's default (name, value), used when the line gives exactly one value fewer
    /// than the command declares (`quick-add "Lunch at noon"` → the default calendar, then the text).
    package var positional: (name: String, value: String)?
    /// Applied to each value of an option or positional that names an account or a calendar (aliases).
    package var rewrite: (@Sendable (ValueCompletion, String) -> String)?

    package init(
        options: [String: String] = [:], positional: (name: String, value: String)? = nil,
        rewrite: (@Sendable (ValueCompletion, String) -> String)? = nil
    ) {
        self.options = options
        self.positional = positional
        self.rewrite = rewrite
    }
}
