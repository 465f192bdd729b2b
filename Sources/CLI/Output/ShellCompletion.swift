/// The completion scripts `calbridge completions bash|zsh|fish` prints, generated from the commands'
/// declarations (the ones `--help` and the parser read), so a new option completes without a second list.
///
/// Values that live in the user's home (account and pair names) are asked of calbridge itself when the
/// shell completes (`accounts list` and `sync list` in tsv, which read local files only and never the
/// network); zones come from `timezones`.
package enum ShellCompletion {
    package enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    package static func script(for shell: Shell, suite: CommandSuite) -> String {
        let model = Model(suite: suite)
        switch shell {
        case .bash: return bash(model)
        case .zsh: return zsh(model)
        case .fish: return fish(model)
        }
    }

    /// The commands as the scripts see them: paths joined by '/', the words that may follow each group,
    /// and per command its options and what each value and positional completes to.
    struct Model {
        var program: String
        /// Group path ("" for the top) → the words that may follow it.
        var nextWords: [(path: String, words: [String])]
        var commands: [CommandSpec]

        init(suite: CommandSuite) {
            program = suite.program
            commands = suite.commands.map { $0.spec }
            var groups: [String: [String]] = [:]
            var order: [String] = []
            for spec in commands {
                for depth in 0..<spec.path.count {
                    let group = spec.path.prefix(depth).joined(separator: "/")
                    if groups[group] == nil { order.append(group) }
                    let word = spec.path[depth]
                    if !(groups[group, default: []].contains(word)) { groups[group, default: []].append(word) }
                }
            }
            groups[""]?.append("help")
            nextWords = order.map { ($0, groups[$0] ?? []) }
        }
    }

    /// A value kind as the shell functions name it: `words:a b c`, `accounts`, `refs`, `pairs`, `zones`,
    /// `files`, `dirs`, or `text` for a value nothing can be offered for.
    static func kind(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: "text"
        case .words(let words): "words:" + words.joined(separator: " ")
        case .accounts: "accounts"
        case .calendarRefs: "refs"
        case .pairs: "pairs"
        case .zones: "zones"
        case .files: "files"
        case .directories: "dirs"
        }
    }

    /// Single-quoted for sh, bash, zsh and fish alike (fish also reads `\\` and `\'` inside quotes).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The shell functions bash and zsh share: plain `case` statements that both read the same way.
    private static func dataFunctions(_ model: Model) -> String {
        let fn = "__" + model.program.replacingOccurrences(of: "-", with: "_")
        var lines: [String] = []
        lines.append("# The words that may follow a group of commands (\"\" is the top).")
        lines.append("\(fn)_next() {")
        lines.append("    case \"$1\" in")
        for (path, words) in model.nextWords {
            lines.append("    \(shellQuoted(path))) echo \(shellQuoted(words.joined(separator: " "))) ;;")
        }
        lines.append("    esac")
        lines.append("}")
        lines.append("# A command's options.")
        lines.append("\(fn)_options() {")
        lines.append("    case \"$1\" in")
        for spec in model.commands {
            let names = spec.allOptions.map { "--" + $0.name }.joined(separator: " ")
            lines.append("    \(shellQuoted(spec.path.joined(separator: "/")))) echo \(shellQuoted(names)) ;;")
        }
        lines.append("    esac")
        lines.append("}")
        lines.append("# What the value of a command's option completes to; nothing for a flag.")
        lines.append("\(fn)_value() {")
        lines.append("    case \"$1 $2\" in")
        for spec in model.commands {
            for option in spec.allOptions where option.takesValue {
                let key = spec.path.joined(separator: "/") + " --" + option.name
                lines.append("    \(shellQuoted(key))) echo \(shellQuoted(kind(option.completion))) ;;")
            }
        }
        lines.append("    esac")
        lines.append("}")
        lines.append("# What a command's Nth positional argument (from 1) completes to.")
        lines.append("\(fn)_positional() {")
        lines.append("    case \"$1\" in")
        for spec in model.commands where !spec.positionals.isEmpty {
            var branches: [String] = []
            for (index, positional) in spec.positionals.enumerated() {
                let pattern = positional.variadic ? "*" : "\(index + 1)"
                branches.append("\(pattern)) echo \(shellQuoted(kind(positional.completion))) ;;")
            }
            lines.append("    \(shellQuoted(spec.path.joined(separator: "/")))) case \"$2\" in \(branches.joined(separator: " ")) esac ;;")
        }
        lines.append("    esac")
        lines.append("}")
        lines.append("# The values of a kind, one per line; $1 is the program as typed (a path works too).")
        lines.append("\(fn)_values() {")
        lines.append("    case \"$2\" in")
        lines.append("    accounts) \"$1\" accounts list --format tsv --no-header 2>/dev/null | cut -f1 ;;")
        lines.append("    refs) \"$1\" accounts list --format tsv --no-header 2>/dev/null | cut -f1 | sed 's/.*/&:\\n&:default/' ;;")
        lines.append("    pairs) \"$1\" sync list --format tsv --no-header 2>/dev/null | cut -f1 ;;")
        lines.append("    zones) \"$1\" timezones --format tsv 2>/dev/null | tail -n +2 | cut -f3 | tr ' ' '\\n' | sort -u ;;")
        lines.append("    esac")
        lines.append("}")
        // The command a line names and where the cursor is in it: shared by both drivers, which pass the
        // words before the cursor.
        lines.append("# Reads the words before the cursor ($2...; $1 the program) and prints what to offer for the")
        lines.append("# current one: 'kind KIND' or 'words WORD...'.")
        lines.append("\(fn)_say() {")
        lines.append("    case $1 in")
        lines.append("    words:*) echo \"words ${1#words:}\" ;;")
        lines.append("    *) echo \"kind $1\" ;;")
        lines.append("    esac")
        lines.append("}")
        lines.append("\(fn)_offer() {")
        // No variable is named path or words: zsh ties those to $PATH and to the completion system.
        lines.append("    local cmd='' word expecting='' positionals=0 next following positional")
        lines.append("    shift")
        lines.append("    local cur=$1")
        lines.append("    shift")
        lines.append("    if [ \"$1\" = help ]; then")
        lines.append("        shift")
        lines.append("        for word in \"$@\"; do cmd=${cmd:+$cmd/}$word; done")
        lines.append("        echo \"words $(\(fn)_next \"$cmd\")\"")
        lines.append("        return")
        lines.append("    fi")
        lines.append("    for word in \"$@\"; do")
        lines.append("        if [ -n \"$expecting\" ]; then expecting=''; continue; fi")
        lines.append("        case $word in")
        lines.append("        --*=*) ;;")
        lines.append("        -*) [ -n \"$(\(fn)_value \"$cmd\" \"$word\")\" ] && expecting=$word ;;")
        lines.append("        *)")
        lines.append("            next=\" $(\(fn)_next \"$cmd\") \"")
        lines.append("            if [ \"$positionals\" -eq 0 ] && [ \"${next#* \"$word\" }\" != \"$next\" ]; then")
        lines.append("                cmd=${cmd:+$cmd/}$word")
        lines.append("            else")
        lines.append("                positionals=$((positionals + 1))")
        lines.append("            fi ;;")
        lines.append("        esac")
        lines.append("    done")
        lines.append("    if [ -n \"$expecting\" ]; then")
        lines.append("        \(fn)_say \"$(\(fn)_value \"$cmd\" \"$expecting\")\"")
        lines.append("        return")
        lines.append("    fi")
        lines.append("    case $cur in")
        lines.append("    -*) echo \"words $(\(fn)_options \"$cmd\")\"; return ;;")
        lines.append("    esac")
        lines.append("    following=$(\(fn)_next \"$cmd\")")
        lines.append("    if [ \"$positionals\" -eq 0 ] && [ -n \"$following\" ]; then")
        lines.append("        echo \"words $following\"")
        lines.append("        return")
        lines.append("    fi")
        lines.append("    positional=$(\(fn)_positional \"$cmd\" $((positionals + 1)))")
        lines.append("    \(fn)_say \"${positional:-text}\"")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func bash(_ model: Model) -> String {
        let fn = "__" + model.program.replacingOccurrences(of: "-", with: "_")
        return """
            # bash completion for \(model.program); generated by '\(model.program) completions bash'.
            # Load it with: source <(\(model.program) completions bash)
            \(dataFunctions(model))
            \(fn)_complete() {
                # Words from the line itself, not COMP_WORDS: bash splits 'work:Calendar' at the ':' (see
                # COMP_WORDBREAKS), which would make a calendar reference three words.
                local line=${COMP_LINE:0:COMP_POINT} cur offer kind IFS=$' \\t\\n'
                local -a before
                read -ra before <<< "$line"
                if [[ $line == *[[:space:]] || ${#before[@]} -eq 0 ]]; then cur=''; else cur=${before[-1]}; unset 'before[-1]'; fi
                offer=$(\(fn)_offer "${before[0]}" "$cur" "${before[@]:1}")
                IFS=$'\\n'
                case $offer in
                words\\ *) IFS=$' \\n'; COMPREPLY=($(compgen -W "${offer#words }" -- "$cur")) ;;
                kind\\ files) COMPREPLY=($(compgen -f -- "$cur")) ;;
                kind\\ dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
                kind\\ text) COMPREPLY=() ;;
                kind\\ *)
                    kind=${offer#kind }
                    COMPREPLY=($(compgen -W "$(\(fn)_values "${before[0]}" "$kind")" -- "$cur"))
                    [ "$kind" = refs ] && compopt -o nospace 2>/dev/null ;;
                esac
                # bash replaces only the part of the word after its last ':'.
                if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
                    local i
                    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"${cur%:*}:"}; done
                fi
            }
            complete -F \(fn)_complete \(model.program)

            """
    }

    private static func zsh(_ model: Model) -> String {
        let fn = "__" + model.program.replacingOccurrences(of: "-", with: "_")
        return """
            #compdef \(model.program)
            # zsh completion for \(model.program); generated by '\(model.program) completions zsh'.
            # Load it with: source <(\(model.program) completions zsh), or save it as _\(model.program) in a
            # directory of $fpath.
            \(dataFunctions(model))
            \(fn)_complete() {
                emulate -L sh
                setopt ksh_arrays
                local cur=${words[CURRENT-1]} offer kind
                offer=$(\(fn)_offer "${words[0]}" "$cur" "${words[@]:1:$((CURRENT - 2))}")
                case $offer in
                words\\ *) compadd -- ${=offer#words } ;;
                kind\\ files) _files ;;
                kind\\ dirs) _files -/ ;;
                kind\\ text) ;;
                kind\\ refs) compadd -S '' -- ${(f)"$(\(fn)_values "${words[0]}" refs)"} ;;
                kind\\ *) kind=${offer#kind }; compadd -- ${(f)"$(\(fn)_values "${words[0]}" "$kind")"} ;;
                esac
            }
            if [ "$funcstack[1]" = _\(model.program) ]; then
                \(fn)_complete "$@"
            else
                compdef \(fn)_complete \(model.program)
            fi

            """
    }

    private static func fish(_ model: Model) -> String {
        let program = model.program
        let fn = "__" + program.replacingOccurrences(of: "-", with: "_")
        var lines = [
            "# fish completion for \(program); generated by '\(program) completions fish'.",
            "# Load it with: \(program) completions fish | source",
            "complete -c \(program) -e",
            "complete -c \(program) -f",
            "# The command the words before the cursor name, its words joined by '/'.",
            "function \(fn)_path",
            "    set -l words (commandline -opc)",
            "    set -l path ''",
            "    for word in $words[2..-1]",
            "        string match -q -- '-*' $word; and break",
            "        set -l candidate (string join / -- (string split / -- $path) $word | string trim -c /)",
            "        if contains -- $candidate \(model.nextWords.flatMap { group in group.words.map { shellQuoted(group.path.isEmpty ? $0 : group.path + "/" + $0) } }.joined(separator: " "))",
            "            set path $candidate",
            "        else",
            "            break",
            "        end",
            "    end",
            "    echo $path",
            "end",
            "function \(fn)_at",
            "    test (\(fn)_path) = $argv[1]",
            "end",
            "function \(fn)_values",
            "    switch $argv[1]",
            "        case accounts",
            "            \(program) accounts list --format tsv --no-header 2>/dev/null | cut -f1",
            "        case refs",
            "            \(program) accounts list --format tsv --no-header 2>/dev/null | cut -f1 | sed 's/.*/&:\\n&:default/'",
            "        case pairs",
            "            \(program) sync list --format tsv --no-header 2>/dev/null | cut -f1",
            "        case zones",
            "            \(program) timezones --format tsv 2>/dev/null | tail -n +2 | cut -f3 | string split ' ' | sort -u",
            "    end",
            "end",
        ]
        func arguments(for completion: ValueCompletion) -> String {
            switch completion {
            case .none: "-x"
            case .words(let words): "-xa " + shellQuoted(words.joined(separator: " "))
            case .accounts: "-xa '(\(fn)_values accounts)'"
            case .calendarRefs: "-xa '(\(fn)_values refs)'"
            case .pairs: "-xa '(\(fn)_values pairs)'"
            case .zones: "-xa '(\(fn)_values zones)'"
            case .files: "-rF"
            case .directories: "-xa '(__fish_complete_directories)'"
            }
        }
        for (path, words) in model.nextWords {
            for word in words {
                let spec = model.commands.first { $0.path.joined(separator: "/") == (path.isEmpty ? word : path + "/" + word) }
                let description = spec?.abstract ?? (word == "help" ? "Show the help of a command." : "\(word) commands")
                lines.append(
                    "complete -c \(program) -f -n \(shellQuoted("\(fn)_at " + shellQuoted(path))) -a \(shellQuoted(word)) -d \(shellQuoted(description))"
                )
            }
        }
        let topWords = model.nextWords.first { $0.path.isEmpty }?.words.filter { $0 != "help" } ?? []
        lines.append("complete -c \(program) -f -n \(shellQuoted("\(fn)_at help")) -a \(shellQuoted(topWords.joined(separator: " ")))")
        for spec in model.commands {
            let condition = shellQuoted("\(fn)_at " + shellQuoted(spec.path.joined(separator: "/")))
            for option in spec.allOptions {
                var line = "complete -c \(program) -n \(condition) -l \(option.name)"
                if option.takesValue { line += " " + arguments(for: option.completion) }
                lines.append(line + " -d " + shellQuoted(option.help))
            }
            for positional in spec.positionals where positional.completion != .none {
                let values = arguments(for: positional.completion).replacingOccurrences(of: "-x", with: "-f")
                lines.append("complete -c \(program) -n \(condition) \(values)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
