//! The YAML dialect of the reference validator: StrictYAML.
//!
//! skills-ref parses frontmatter with `strictyaml.load`, which accepts a
//! subset of YAML: no flow collections (`[..]`, `{..}`), no anchors, aliases
//! or tags, no duplicate keys, nested mappings of one parent indented alike,
//! one document, and every scalar kept as a string. This module parses with
//! the maintained `granit-parser` event parser (re-exported by serde-saphyr)
//! and refuses exactly those constructs, so `skillpkg validate` reaches the
//! reference's verdict.

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, Span, StrInput, StructureStyle};

/// Deepest nesting accepted before the document is refused as hostile.
pub(crate) const MAX_DEPTH: usize = 64;
/// Most parser events accepted before the document is refused as hostile.
pub(crate) const MAX_EVENTS: usize = 100_000;

/// A StrictYAML value: strings, lists and ordered string-keyed mappings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrictValue {
    /// Any scalar, whatever it looks like (`1`, `true`, `~` stay strings).
    Str(String),
    /// A block sequence.
    Seq(Vec<StrictValue>),
    /// A block mapping, in document order, keys unique.
    Map(Vec<(String, StrictValue)>),
    /// An empty document, or one holding only a scalar: the reference turns
    /// these into the raw text, which is never a mapping.
    NotCollection,
}

impl StrictValue {
    /// Looks a key up in a mapping.
    pub fn get(&self, key: &str) -> Option<&StrictValue> {
        match self {
            StrictValue::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            StrictValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Why a document is not StrictYAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictYamlError {
    /// What was refused, in words.
    pub message: String,
    /// 1-based line within the YAML text, when known.
    pub line: Option<usize>,
    /// 1-based column within that line, when known.
    pub column: Option<usize>,
}

impl std::fmt::Display for StrictYamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "{} (line {line}, column {column})", self.message)
            }
            (Some(line), None) => write!(f, "{} (line {line})", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StrictYamlError {}

fn error_at(span: &Span, message: impl Into<String>) -> StrictYamlError {
    StrictYamlError {
        message: message.into(),
        line: Some(span.start.line()),
        column: Some(span.start.col() + 1),
    }
}

/// Parses `text` the way `strictyaml.load(text).data` does.
pub fn parse(text: &str) -> Result<StrictValue, StrictYamlError> {
    check_printable(text)?;
    check_leading_document_end(text)?;
    let mut options = serde_saphyr::granit_parser::Options::default();
    options.emit_comments = false;
    options.flow_nesting_limit = MAX_DEPTH;
    options.block_nesting_limit = MAX_DEPTH;
    let mut events = Events {
        parser: Parser::new_from_str_with_options(text, options),
        count: 0,
    };

    let mut documents = 0;
    let mut root = StrictValue::NotCollection;
    loop {
        let (event, span) = events.next()?;
        match event {
            Event::StreamStart | Event::DocumentEnd => {}
            Event::StreamEnd => break,
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(error_at(
                        &span,
                        "expected a single document in the stream but found another document",
                    ));
                }
                let (event, span) = events.next()?;
                root = match event {
                    Event::DocumentEnd => StrictValue::NotCollection,
                    event => match events.node(event, span, 0)? {
                        StrictValue::Str(_) => StrictValue::NotCollection,
                        value => value,
                    },
                };
            }
            _ => return Err(error_at(&span, "unexpected YAML event")),
        }
    }
    Ok(root)
}

/// ruamel.yaml starts an implicit document at the first token and then finds
/// no node in a leading `...`; YAML 1.2 parsers skip it. Refuse it as ruamel does.
fn check_leading_document_end(text: &str) -> Result<(), StrictYamlError> {
    let first = text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
    if let Some((index, line)) = first
        && line.starts_with("...")
        && line[3..].chars().next().is_none_or(char::is_whitespace)
    {
        return Err(StrictYamlError {
            message: "expected the node content, but found '<document end>'".into(),
            line: Some(index + 1),
            column: Some(1),
        });
    }
    Ok(())
}

/// ruamel.yaml's reader refuses characters outside YAML's printable set.
fn check_printable(text: &str) -> Result<(), StrictYamlError> {
    let printable = |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..);
    match text.char_indices().find(|(_, c)| !printable(*c)) {
        None => Ok(()),
        Some((at, c)) => Err(StrictYamlError {
            message: format!(
                "unacceptable character U+{:04X}: special characters are not allowed",
                c as u32
            ),
            line: Some(text[..at].matches('\n').count() + 1),
            column: Some(text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1),
        }),
    }
}

struct Events<'a> {
    parser: Parser<'a, StrInput<'a>>,
    count: usize,
}

impl<'a> Events<'a> {
    fn next(&mut self) -> Result<(Event<'a>, Span), StrictYamlError> {
        self.count += 1;
        if self.count > MAX_EVENTS {
            return Err(StrictYamlError {
                message: format!("document has more than {MAX_EVENTS} YAML nodes"),
                line: None,
                column: None,
            });
        }
        match self.parser.next_event() {
            Some(Ok(pair)) => Ok(pair),
            Some(Err(e)) => Err(StrictYamlError {
                message: e.info(),
                line: Some(e.marker().line()),
                column: Some(e.marker().col() + 1),
            }),
            None => Err(StrictYamlError {
                message: "unexpected end of YAML".into(),
                line: None,
                column: None,
            }),
        }
    }

    /// Builds the node that starts with `event`, refusing what StrictYAML refuses.
    fn node(
        &mut self,
        event: Event<'a>,
        span: Span,
        depth: usize,
    ) -> Result<StrictValue, StrictYamlError> {
        if depth > MAX_DEPTH {
            return Err(error_at(
                &span,
                format!("nesting deeper than {MAX_DEPTH} levels"),
            ));
        }
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                refuse_properties(&span, anchor, tag.is_some())?;
                Ok(StrictValue::Str(scalar_text(
                    value.into_owned(),
                    style,
                    &span,
                )))
            }
            Event::Alias(_) | Event::UnresolvedAlias(_) => Err(error_at(
                &span,
                "found confusing disallowed alias token (surround with ' and ' to make text appear literally)",
            )),
            Event::SequenceStart(style, anchor, tag) => {
                refuse_flow(&span, style)?;
                refuse_properties(&span, anchor, tag.is_some())?;
                let mut items = Vec::new();
                loop {
                    let (event, span) = self.next()?;
                    if let Event::SequenceEnd = event {
                        return Ok(StrictValue::Seq(items));
                    }
                    items.push(self.node(event, span, depth + 1)?);
                }
            }
            Event::MappingStart(style, anchor, tag) => {
                refuse_flow(&span, style)?;
                refuse_properties(&span, anchor, tag.is_some())?;
                self.mapping(depth)
            }
            _ => Err(error_at(&span, "unexpected YAML event")),
        }
    }

    fn mapping(&mut self, depth: usize) -> Result<StrictValue, StrictYamlError> {
        let mut entries: Vec<(String, StrictValue)> = Vec::new();
        let mut nested_mapping_column: Option<usize> = None;
        loop {
            let (event, key_span) = self.next()?;
            let key = match event {
                Event::MappingEnd => return Ok(StrictValue::Map(entries)),
                Event::Scalar(key, style, anchor, tag) => {
                    refuse_properties(&key_span, anchor, tag.is_some())?;
                    scalar_text(key.into_owned(), style, &key_span)
                }
                other => match self.node(other, key_span, depth + 1)? {
                    StrictValue::Str(s) => s,
                    _ => return Err(error_at(&key_span, "found unhashable key")),
                },
            };
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(error_at(&key_span, format!("duplicate key '{key}' found")));
            }
            let (event, value_span) = self.next()?;
            if let Event::MappingStart(..) = event {
                let column = value_span.start.col();
                match nested_mapping_column {
                    None => nested_mapping_column = Some(column),
                    Some(previous) if previous != column => {
                        return Err(error_at(
                            &value_span,
                            "found mapping with indentation inconsistent with previous mapping",
                        ));
                    }
                    Some(_) => {}
                }
            }
            let value = self.node(event, value_span, depth + 1)?;
            entries.push((key, value));
        }
    }
}

/// The parser reports an absent value (`key:`) as a zero-width plain `~`;
/// StrictYAML reads it as the empty string.
fn scalar_text(value: String, style: ScalarStyle, span: &Span) -> String {
    if style == ScalarStyle::Plain && span.start.index() == span.end.index() {
        String::new()
    } else {
        value
    }
}

fn refuse_flow(span: &Span, style: StructureStyle) -> Result<(), StrictYamlError> {
    if style == StructureStyle::Flow {
        return Err(error_at(
            span,
            "found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)",
        ));
    }
    Ok(())
}

fn refuse_properties(span: &Span, anchor: usize, tagged: bool) -> Result<(), StrictYamlError> {
    if tagged {
        return Err(error_at(
            span,
            "found disallowed tag tokens (do not specify types in markup)",
        ));
    }
    if anchor != 0 {
        return Err(error_at(
            span,
            "found confusing disallowed anchor token (surround with ' and ' to make text appear literally)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> StrictValue {
        StrictValue::Map(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), StrictValue::Str(v.to_string())))
                .collect(),
        )
    }

    #[test]
    fn scalars_stay_strings() {
        assert_eq!(
            parse("a: 1\nb: true\nc: ~\nd:\n").unwrap(),
            map(&[("a", "1"), ("b", "true"), ("c", "~"), ("d", "")])
        );
    }

    #[test]
    fn refuses_what_strictyaml_refuses() {
        for bad in [
            "a: [1]\n",
            "a: {b: 1}\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: 1\na: 2\n",
            "'a': 1\na: 2\n",
            "a: x: y\n",
            "[a]: b\n",
            "a:\n  b: c\nd:\n    e: f\n",
            "a: \u{7}\n",
            "...\na: b\n",
            "# c\n...\n",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn non_mappings_are_not_collections() {
        assert_eq!(parse("").unwrap(), StrictValue::NotCollection);
        assert_eq!(parse("# c\n").unwrap(), StrictValue::NotCollection);
        assert_eq!(parse("hello\n").unwrap(), StrictValue::NotCollection);
        assert!(matches!(parse("- a\n").unwrap(), StrictValue::Seq(_)));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let mut doc = String::new();
        for depth in 0..200 {
            doc.push_str(&"  ".repeat(depth));
            doc.push_str("a:\n");
        }
        assert!(parse(&doc).is_err());
    }
}
