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

/// The largest event accepted, its lines together.
pub(crate) const MAX_EVENT: usize = 4 * 1024 * 1024;

/// An event larger than [`MAX_EVENT`].
#[derive(Debug, thiserror::Error)]
#[error("the server sent an event larger than {MAX_EVENT} bytes")]
pub struct EventTooLarge;

/// Splits a byte stream into events, whatever the chunk boundaries, in
/// time linear in the bytes fed.
#[derive(Debug, Default)]
pub struct Parser {
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no newline.
    scanned: usize,
    name: String,
    data: Vec<String>,
    /// Bytes in `data`.
    data_bytes: usize,
}

impl Parser {
    /// Feeds bytes; returns the events they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Event>, EventTooLarge> {
        self.buffer.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some(offset) = self.buffer[self.scanned..].iter().position(|b| *b == b'\n') {
            let end = self.scanned + offset;
            let line = String::from_utf8_lossy(&self.buffer[start..=end]).into_owned();
            start = end + 1;
            self.scanned = start;
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !self.data.is_empty() || !self.name.is_empty() {
                    self.data_bytes = 0;
                    events.push(Event {
                        name: std::mem::take(&mut self.name),
                        data: std::mem::take(&mut self.data).join("\n"),
                    });
                }
            } else if let Some(value) = line.strip_prefix("data:") {
                let value = value.strip_prefix(' ').unwrap_or(value);
                self.data_bytes += value.len() + 1;
                if self.data_bytes > MAX_EVENT {
                    return Err(EventTooLarge);
                }
                self.data.push(value.to_string());
            } else if let Some(value) = line.strip_prefix("event:") {
                self.name = value.trim().to_string();
            }
            // Comments (`:`), `id:` and `retry:` lines carry nothing we use.
        }
        self.buffer.drain(..start);
        self.scanned = self.buffer.len();
        if self.buffer.len() > MAX_EVENT {
            return Err(EventTooLarge);
        }
        Ok(events)
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
            let events: Vec<Event> = stream
                .chunks(size)
                .flat_map(|c| parser.feed(c).unwrap())
                .collect();
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

    #[test]
    fn a_huge_event_is_refused_in_linear_time() {
        let mut parser = Parser::default();
        let mut refused = false;
        parser.feed(b"data: ").unwrap();
        for _ in 0..(MAX_EVENT / 1024 + 2) {
            if parser.feed(&[b'x'; 1024]).is_err() {
                refused = true;
                break;
            }
        }
        assert!(refused);
    }
}
