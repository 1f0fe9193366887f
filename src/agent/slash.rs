//! Arguments of `/name args` and `use_skill {args}`, substituted into a
//! skill's body with Claude Code's rules: `$ARGUMENTS` (all of them),
//! `$ARGUMENTS[N]` and `$N` (0-based), `$<name>` for the skill's named
//! `arguments:`, `\$` for a literal dollar; when no placeholder took the
//! arguments, `ARGUMENTS: …` is appended.

/// Splits `args` into words; double or single quotes group words.
pub(crate) fn split_args(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in args.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            (None, c) => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(current);
    }
    words
}

/// The body with `args` substituted; `names` are the skill's named
/// `arguments:` in order.
pub(crate) fn substitute(body: &str, args: &str, names: &[String]) -> String {
    let words = split_args(args);
    let word = |i: usize| words.get(i).cloned().unwrap_or_default();
    let mut out = String::with_capacity(body.len());
    let mut used = false;
    let mut rest = body;
    while let Some(at) = rest.find(['$', '\\']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("\\$") {
            out.push('$');
            rest = after;
            continue;
        }
        if let Some(after) = tail.strip_prefix('\\') {
            out.push('\\');
            rest = after;
            continue;
        }
        let after = &tail[1..];
        if let Some(more) = after.strip_prefix("ARGUMENTS") {
            if let Some(index) = more.strip_prefix('[').and_then(|m| {
                let end = m.find(']')?;
                Some((m[..end].parse::<usize>().ok()?, &m[end + 1..]))
            }) {
                out.push_str(&word(index.0));
                rest = index.1;
            } else {
                out.push_str(args.trim());
                rest = more;
            }
            used = true;
            continue;
        }
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            out.push_str(&word(after[..digits].parse().unwrap_or(usize::MAX)));
            rest = &after[digits..];
            used = true;
            continue;
        }
        let ident = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .count();
        let ident_len: usize = after.chars().take(ident).map(char::len_utf8).sum();
        if let Some(position) = names.iter().position(|n| n == &after[..ident_len]) {
            out.push_str(&word(position));
            rest = &after[ident_len..];
            used = true;
            continue;
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    if !used && !args.trim().is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("\nARGUMENTS: {}\n", args.trim()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_argument_rules() {
        let names = vec!["file".to_string(), "mode".to_string()];
        assert_eq!(substitute("Do $ARGUMENTS.", "a b", &[]), "Do a b.");
        assert_eq!(substitute("$ARGUMENTS[1] then $0", "a b", &[]), "b then a");
        assert_eq!(
            substitute("read $file in $mode", "r.pdf fast", &names),
            "read r.pdf in fast"
        );
        assert_eq!(
            substitute("cost \\$5 and $ARGUMENTS", "x", &[]),
            "cost $5 and x"
        );
        assert_eq!(substitute("a $HOME b", "", &[]), "a $HOME b");
        assert_eq!(
            substitute("Body.", "report.pdf", &[]),
            "Body.\n\nARGUMENTS: report.pdf\n"
        );
        assert_eq!(substitute("Body.\n", "", &[]), "Body.\n");
        assert_eq!(substitute("$1|$5", "\"two words\" x", &[]), "x|");
        assert_eq!(split_args("\"two words\" x ''"), vec!["two words", "x", ""]);
    }
}
