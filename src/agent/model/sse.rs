//! Server-sent events, as both model APIs stream them: `event:` and
//! `data:` lines, an empty line ending each event.

/// One event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its `event:` name (empty when none was given).
    pub name: String,
    /// Its `data:` lines, joined with newlines.
    pub data: String,
}

/// Splits a byte stream into events, whatever the chunk boundaries.
#[derive(Debug, Default)]
pub struct Parser {
    buffer: Vec<u8>,
    name: String,
    data: Vec<String>,
}

impl Parser {
    /// Feeds bytes; returns the events they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.buffer.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !self.data.is_empty() || !self.name.is_empty() {
                    events.push(Event {
                        name: std::mem::take(&mut self.name),
                        data: std::mem::take(&mut self.data).join("\n"),
                    });
                }
            } else if let Some(value) = line.strip_prefix("data:") {
                self.data
                    .push(value.strip_prefix(' ').unwrap_or(value).to_string());
            } else if let Some(value) = line.strip_prefix("event:") {
                self.name = value.trim().to_string();
            }
            // Comments (`:`), `id:` and `retry:` lines carry nothing we use.
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_survive_any_chunking() {
        let stream =
            b"event: a\ndata: {\"x\":1}\n\n: comment\ndata: one\ndata: two\r\n\r\ndata: [DONE]\n\n";
        for size in 1..stream.len() {
            let mut parser = Parser::default();
            let events: Vec<Event> = stream.chunks(size).flat_map(|c| parser.feed(c)).collect();
            assert_eq!(
                events,
                vec![
                    Event {
                        name: "a".into(),
                        data: "{\"x\":1}".into()
                    },
                    Event {
                        name: String::new(),
                        data: "one\ntwo".into()
                    },
                    Event {
                        name: String::new(),
                        data: "[DONE]".into()
                    },
                ],
                "chunks of {size}"
            );
        }
    }
}
