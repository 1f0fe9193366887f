//! Payloads decoded and run (`decoded-exec`): base64, base32, hex
//! (`xxd -r`, `printf '\x…'`), `openssl enc -d`, rot13 (`tr`), reversed
//! text and gzip, bzip2, xz or zstd of an inline blob, piped into a
//! shell or an interpreter reading its standard input, or substituted
//! into `eval`, `sh -c`, `python -c`, `node -e`, `perl -e`, `source` or
//! `bash <(…)`; and the same in code (`exec(b64decode(…))`,
//! `eval(Buffer.from(…, 'hex'))`, `eval(Base64.decode64(…))`, …).
//!
//! Decoding alone is quiet: data decoded into a file, or into a checksum
//! or a JSON tool, is not run.

use std::sync::LazyLock;

use regex::Regex;

use super::finding::{Finding, Severity, excerpt};
use super::pattern::regex;

/// A pipeline stage that decodes what it reads (or what it is given).
const DECODER: &str = concat!(
    r"(?:\bbase(?:64|32)\s+(?:-\w+\s+)*(?:-d|--decode|-D)\b",
    r"|\bbasenc\b[^|\n]*\s(?:-d|--decode)\b",
    r"|\bxxd\s+(?:-\w+\s+)*-r",
    r"|\bopenssl\s+(?:enc|base64|aes\S*|des\S*|bf\S*|chacha\S*)\b[^|\n]*\s-d\b",
    r"|\btr\s+[\x22']?(?:A-Za-z|a-zA-Z|a-z|A-Z)[\x22']?\s+[\x22']?(?:N-ZA-M|n-za-m)",
    r"|\b(?:gunzip|zcat|gzcat|bunzip2|bzcat|xzcat|unxz|unlzma|zstdcat|unzstd)\b",
    r"|\b(?:gzip|bzip2|xz|lzma|zstd)\s+(?:-\w+\s+)*-[a-z]*d",
    r"|\brev\b",
    r"|\b(?:printf|echo\s+-e)\s+[\x22']?(?:%b\s*[\x22']?\s*[\x22']?)?(?:\\(?:x[0-9a-fA-F]{2}|[0-7]{3})){4,}",
    r"|\b(?:perl|python[0-9.]*|ruby|node)\b[^|\n]*(?:decode_base64|b64decode|unhexlify|fromhex|decode64|Buffer\.from|atob)",
    r")",
);

/// What runs the text it reads on its standard input, after a pipe.
const STDIN_RUNNER: &str = concat!(
    r"\|\s*(?:sudo\s+)?(?:env\s+\S+\s+)?",
    r"(?:(?:ba|z|k|da|fi)?sh\b",
    r"|(?:python[0-9.]*|perl|ruby|node|php)(?:\s+-[uBEIOSsqw]+)*(?:\s+-(?:\s|$)|\s*(?:$|[;&|)\x22'`#<>]|\d>))",
    r"|(?:source|\.)\s+/dev/stdin\b",
    r"|xargs\b[^|\n]*\b(?:(?:ba|z)?sh\s+-c|eval)\b",
    r"|(?i:iex|invoke-expression)\b",
    r")",
);

/// What runs text substituted into its arguments.
const SUBSTITUTION_RUNNER: &str = concat!(
    r"(?:\beval|\b(?:ba|z|k|da)?sh\s+-c|\bpython[0-9.]*\s+-c|\bnode\s+-e|\bperl\s+-e|\bruby\s+-e|\bsource",
    r"|(?:^|[;&|({]|\bthen|\bdo)\s*\.",
    r")\s+[\x22']?(?:\$\(|`|<\()",
);

/// The line patterns of `decoded-exec`.
pub(super) fn patterns() -> Vec<String> {
    vec![
        // A decoder's output piped, through any other stages, into a runner.
        format!(r"{DECODER}[^;&\n]*{STDIN_RUNNER}"),
        // A decoder's output substituted into a runner's arguments.
        format!(r"{SUBSTITUTION_RUNNER}[^\n]*{DECODER}"),
        // A shell reading a process substitution that decodes.
        format!(r"\b(?:ba|z|k)?sh\s+<\([^\n]*{DECODER}"),
        // Python.
        r"\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?(?:base64\.(?:b(?:64|32|85)|a85|urlsafe_b64)decode|codecs\.decode|zlib\.decompress|bz2\.decompress|lzma\.decompress|gzip\.decompress|bytes\.fromhex|binascii\.(?:unhexlify|a2b_\w+)|marshal\.loads|__import__\(\s*[\x22'](?:base64|codecs|zlib|binascii|marshal))".into(),
        r"\b(?:exec|eval)\s*\([^)\n]*\bb64decode\s*\(".into(),
        r"\b(?:os\.system|os\.popen|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput))\s*\(\s*(?:base64\.b(?:64|32)decode|codecs\.decode|bytes\.fromhex|binascii\.unhexlify)".into(),
        // JavaScript.
        r"\beval\s*\(\s*atob\s*\(".into(),
        r"\bFunction\s*\(\s*atob\s*\(".into(),
        r"\b(?:eval|Function|runInThisContext|runInNewContext|execSync|exec)\s*\(\s*Buffer\.from\([^)]*[\x22'](?:base64|hex|base64url)[\x22']".into(),
        // Perl and Ruby.
        r"\beval\s*\(?\s*(?:MIME::Base64::)?decode_base64\s*\(".into(),
        r"\beval\s*\(?\s*unpack\s*\(?\s*[\x22'](?:u|H\*)[\x22']".into(),
        r"\b(?:eval|instance_eval|system)\s*\(?\s*(?:Base64\.(?:decode64|strict_decode64|urlsafe_decode64)|Zlib::Inflate\.inflate|\[[^\]\n]*\]\.pack\s*\(\s*[\x22']H\*)".into(),
        // PowerShell.
        r"(?i)\bpowershell(?:\.exe)?\b[^\n]*\s-(?:e|en|enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}".into(),
        r"(?i)\b(?:iex|invoke-expression)\b[^\n]*frombase64string".into(),
        r"(?i)frombase64string[^\n]*\|\s*(?:iex|invoke-expression)\b".into(),
    ]
}

/// A shell variable assigned what a decoder prints.
static DECODED_SHELL_VAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?:^|[\s;&|(])([A-Za-z_]\w*)=[\x22']?(?:\$\(|`)[^\n]*{DECODER}"
    ))
});

/// A variable assigned a decoded payload, in code.
static DECODED_CODE_VAR: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"\b([A-Za-z_]\w*)\s*=\s*[^\n]*\b(?:b64decode|b32decode|b85decode|a85decode|zlib\.decompress|bz2\.decompress|lzma\.decompress|bytes\.fromhex|unhexlify|marshal\.loads|codecs\.decode|atob|decode_base64|decode64)\s*\(",
    )
});

/// Payloads decoded into a variable on one line and run on another: the
/// whole-file half of `decoded-exec`, over `lines` of the file `file`.
pub(super) fn scan_variables(file: &str, lines: &[(usize, &str, bool)]) -> Option<Finding> {
    let found = |n: usize, var: &str, line: &str| Finding {
        rule: "decoded-exec",
        severity: Severity::Block,
        file: file.to_string(),
        line: Some(n),
        message: format!("{var}, a decoded payload, is run"),
        excerpt: excerpt(line),
        waived: None,
    };
    for &(_, line, _) in lines {
        if let Some(var) = DECODED_SHELL_VAR.captures(line).and_then(|c| c.get(1)) {
            let var = regex::escape(var.as_str());
            let run = regex(&format!(
                r"(?:\beval|\b(?:ba|z|k|da)?sh\s+-c|\bpython[0-9.]*\s+-c|\bnode\s+-e|\bperl\s+-e|\bsource|(?:^|[;&|({{]|\bthen|\bdo)\s*\.)\s+[\x22']?\$\{{?{var}\b|(?:echo|printf)\s+(?:-\w+\s+)?(?:[\x22']%s[\x22']\s+)?[\x22']?\$\{{?{var}\b[^|\n]*{STDIN_RUNNER}|\b(?:ba|z|k|da)?sh\s*<<<\s*[\x22']?\$\{{?{var}\b|^\s*\$\{{?{var}\}}?\s*$"
            ));
            if let Some(&(n, line, _)) = lines.iter().find(|(_, l, _)| run.is_match(l)) {
                return Some(found(n, var.as_str(), line));
            }
        }
        if let Some(var) = DECODED_CODE_VAR.captures(line).and_then(|c| c.get(1)) {
            let var = regex::escape(var.as_str());
            let run = regex(&format!(
                r"\b(?:exec|eval|Function|instance_eval|execSync|os\.system)\s*\(\s*(?:compile\s*\(\s*)?{var}\s*[),.]|\beval\s+\${var}\b"
            ));
            if let Some(&(n, line, _)) = lines.iter().find(|(_, l, _)| run.is_match(l)) {
                return Some(found(n, var.as_str(), line));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
