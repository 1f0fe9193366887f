//! A model's answer streams in from a server (or a proxy, or anything at
//! `--base-url`) as server-sent events, read by `agent::model::sse::Parser`
//! and handed, one JSON value an event, to the Messages API adapter
//! (`anthropic::Stream`) or the chat completions one (`openai::Stream`),
//! which also read each tool call's streamed arguments as JSON. Any bytes
//! must be read or refused without panicking:
//!
//! - the SSE parser gives the same events whatever the chunk boundaries;
//! - each adapter, fed the events as `http::Client::post_events` feeds
//!   them (`[DONE]` skipped, each event's data as JSON, the first error
//!   ending the stream), makes a turn of at most `MAX_BLOCKS` blocks whose
//!   usage the agent can add up;
//! - the input taken as one tool call's arguments, streamed in pieces
//!   through either adapter, becomes exactly the JSON value those bytes
//!   hold read whole (`{}` for none), and an error when they are not JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use skillpkg::agent::model::sse::{Event, Parser};
use skillpkg::agent::model::{Block, MAX_BLOCKS, Turn, Usage, anthropic, openai};

fuzz_target!(|data: &[u8]| {
    let Some((&seed, bytes)) = data.split_first() else {
        return;
    };
    let Ok(events) = sse_in_chunks(bytes, seed) else {
        return;
    };

    let values: Vec<Value> = events
        .iter()
        .filter(|e| e.data.trim() != "[DONE]")
        .map_while(|e| serde_json::from_str(&e.data).ok())
        .collect();

    let mut shown = String::new();
    let mut stream = anthropic::Stream::default();
    if values
        .iter()
        .all(|v| stream.event(v, &mut |t| shown.push_str(t)).is_ok())
    {
        check_turn(&stream.finish());
    }
    let mut stream = openai::Stream::default();
    if values
        .iter()
        .all(|v| stream.chunk(v, &mut |t| shown.push_str(t)).is_ok())
        && let Ok(turn) = stream.finish()
    {
        check_turn(&turn);
    }

    if let Ok(text) = std::str::from_utf8(bytes) {
        arguments_in_pieces(text, seed);
    }
});

/// The events of `stream` fed whole, which must be those it gives fed in
/// chunks of sizes drawn from `seed`; an error when it is refused.
fn sse_in_chunks(stream: &[u8], seed: u8) -> Result<Vec<Event>, ()> {
    let mut whole = Parser::default();
    let all = whole.feed(stream).map_err(|_| ())?;
    let mut parser = Parser::default();
    let mut events = Vec::new();
    let mut rest = stream;
    let mut size = 1 + usize::from(seed % 7);
    let mut refused = false;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(size.min(rest.len()));
        match parser.feed(chunk) {
            Ok(more) => events.extend(more),
            Err(_) => {
                refused = true;
                break;
            }
        }
        rest = tail;
        size = 1 + (size * 5 + usize::from(seed)) % 13;
    }
    assert!(
        !refused,
        "the chunked stream was refused, the whole one read"
    );
    assert_eq!(all, events, "the chunk boundaries changed the events");
    Ok(events)
}

/// What the agent relies on in a turn.
fn check_turn(turn: &Turn) {
    assert!(
        turn.blocks.len() <= MAX_BLOCKS,
        "{} blocks",
        turn.blocks.len()
    );
    let mut usage = Usage::default();
    usage += turn.usage;
    usage += turn.usage;
    let _ = usage.total();
    for block in &turn.blocks {
        if let Block::ToolUse { input, .. } = block {
            // What the tools read of an input.
            let _ = &input["command"];
            let _ = input.get("path");
        }
    }
}

/// `text` as one tool call's arguments, streamed in pieces through both
/// adapters.
fn arguments_in_pieces(text: &str, seed: u8) {
    let pieces = pieces(text, seed);
    let whole: Result<Value, _> = serde_json::from_str(text);

    // Chat completions: no arguments at all are `{}`.
    let mut stream = openai::Stream::default();
    let mut first = true;
    for piece in &pieces {
        let call = if first {
            json!({"index": 0, "id": "call_1", "function": {"name": "shell", "arguments": piece}})
        } else {
            json!({"index": 0, "function": {"arguments": piece}})
        };
        first = false;
        let chunk = json!({"choices": [{"delta": {"tool_calls": [call]}}]});
        stream
            .chunk(&chunk, &mut |_| {})
            .expect("a well-formed chunk");
    }
    if pieces.is_empty() {
        let call = json!({"index": 0, "id": "call_1", "function": {"name": "shell"}});
        let chunk = json!({"choices": [{"delta": {"tool_calls": [call]}}]});
        stream
            .chunk(&chunk, &mut |_| {})
            .expect("a well-formed chunk");
    }
    let read = stream.finish().map(|turn| input_of(&turn));
    match (&whole, read) {
        (_, Ok(input)) if text.trim().is_empty() => assert_eq!(input, json!({})),
        (Ok(value), Ok(input)) => assert_eq!(&input, value, "{text:?} in {pieces:?}"),
        (_, Err(e)) if text.trim().is_empty() => panic!("no arguments were refused: {e:#}"),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("{text:?} in {pieces:?} is JSON but was refused: {e:#}"),
        (Err(_), Ok(input)) => panic!("{text:?} in {pieces:?} is not JSON but read as {input}"),
    }

    // Messages API: the input of `content_block_start` stays when no
    // piece follows.
    let mut stream = anthropic::Stream::default();
    let start = json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "toolu_1", "name": "shell", "input": {}}});
    stream
        .event(&start, &mut |_| {})
        .expect("a well-formed event");
    for piece in &pieces {
        let delta = json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": piece}});
        stream
            .event(&delta, &mut |_| {})
            .expect("a well-formed event");
    }
    let stop = json!({"type": "content_block_stop", "index": 0});
    match (&whole, stream.event(&stop, &mut |_| {})) {
        (_, Ok(())) if text.is_empty() => assert_eq!(input_of(&stream.finish()), json!({})),
        (Ok(value), Ok(())) => assert_eq!(&input_of(&stream.finish()), value, "{text:?}"),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("{text:?} in {pieces:?} is JSON but was refused: {e:#}"),
        (Err(_), Ok(())) => panic!("{text:?} in {pieces:?} is not JSON but was read"),
    }
}

/// `text` cut at character boundaries into at most 8 pieces, where
/// `seed` says.
fn pieces(text: &str, seed: u8) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let count = 1 + usize::from(seed % 8);
    let mut cuts: Vec<usize> = (1..count)
        .map(|i| (i * chars.len() / count + usize::from(seed >> 3) % 3).min(chars.len()))
        .collect();
    cuts.push(chars.len());
    let mut pieces = Vec::new();
    let mut at = 0;
    for cut in cuts {
        if cut > at {
            pieces.push(chars[at..cut].iter().collect());
            at = cut;
        }
    }
    pieces
}

fn input_of(turn: &Turn) -> Value {
    match &turn.blocks[..] {
        [Block::ToolUse { input, .. }] => input.clone(),
        blocks => panic!("one tool call was streamed, the turn holds {blocks:?}"),
    }
}
