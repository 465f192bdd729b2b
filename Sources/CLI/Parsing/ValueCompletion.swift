/// What a shell may offer for an option's value or a positional argument: declared with the option, so
/// the completion scripts (`calbridge completions`) come from the same declarations as `--help`.
package enum ValueCompletion: Sendable, Equatable {
    /// Nothing to offer (free text, numbers).
    case none
    /// One of these words (`--format table|json|tsv`).
    case words([String])
    /// A stored account's name (`calbridge accounts list`).
    case accounts
    /// `ACCOUNT:CALENDAR`: the stored accounts' names followed by ':' (and `ACCOUNT:default`).
    case calendarRefs
    /// A stored sync pair's name (`calbridge sync list`).
    case pairs
    /// An IANA time zone id.
    case zones
    /// A file's path.
    case files
    /// A directory's path.
    case directories

    /// The completion a placeholder names by itself: `FILE` and `PATH` are files, `DIR` a directory,
    /// `ZONE` a zone, `REF` and `…_REF` a calendar, `--account NAME` an account. Anything else is said
    /// where it is declared (`Argument(...).completing(.pairs)`).
    static func implied(byPlaceholder placeholder: String?, optionName: String? = nil) -> ValueCompletion {
        guard let placeholder else { return .none }
        switch placeholder {
        case "FILE", "PATH": return .files
        case "DIR": return .directories
        case "ZONE": return .zones
        case "REF": return .calendarRefs
        case _ where placeholder.hasSuffix("_REF"): return .calendarRefs
        case "NAME" where optionName == "account": return .accounts
        default: return .none
        }
    }
}
