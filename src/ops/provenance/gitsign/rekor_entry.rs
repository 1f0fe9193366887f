//! The Rekor entry gitsign embeds in a signature (the unsigned attribute
//! 1.3.6.1.4.1.57264.3.1): a serialized
//! `dev.sigstore.rekor.v1.TransparencyLogEntry` protobuf without its
//! `canonicalizedBody`, read into the JSON of a Sigstore bundle's
//! `tlogEntries[0]`.
//!
//! The entry is the signer's to write, like the rest of the commit: it is
//! only read here, and what it claims (the log's signature over the entry,
//! the inclusion proof, the checkpoint) is checked by the bundle verifier
//! against the trusted root. Only the fields the bundle needs are read;
//! a truncated or malformed message is an error, never a guess.

use anyhow::{Context as _, bail, ensure};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

/// One field of a protobuf message: a varint, or length-delimited bytes.
enum Value<'a> {
    Int(u64),
    Bytes(&'a [u8]),
}

/// A protobuf message's fields, by number, in order.
struct Message<'a>(Vec<(u64, Value<'a>)>);

impl<'a> Message<'a> {
    /// Reads `bytes`. Wire types other than varint and length-delimited
    /// (none of which the entry uses) are refused.
    fn read(bytes: &'a [u8]) -> anyhow::Result<Message<'a>> {
        let mut at = 0;
        let mut fields = Vec::new();
        while at < bytes.len() {
            let key = varint(bytes, &mut at)?;
            let value = match key & 7 {
                0 => Value::Int(varint(bytes, &mut at)?),
                2 => {
                    let len = usize::try_from(varint(bytes, &mut at)?)?;
                    let end = at.checked_add(len).context("a field's length overflows")?;
                    let field = bytes.get(at..end).context("a field is cut short")?;
                    at = end;
                    Value::Bytes(field)
                }
                wire => bail!("a field has wire type {wire}, which a log entry does not use"),
            };
            fields.push((key >> 3, value));
        }
        Ok(Message(fields))
    }

    fn int(&self, number: u64, name: &str) -> anyhow::Result<u64> {
        self.0
            .iter()
            .find_map(|(n, v)| match v {
                Value::Int(x) if *n == number => Some(*x),
                _ => None,
            })
            .with_context(|| format!("the log entry has no {name}"))
    }

    fn all_bytes(&self, number: u64) -> Vec<&'a [u8]> {
        self.0
            .iter()
            .filter_map(|(n, v)| match v {
                Value::Bytes(x) if *n == number => Some(*x),
                _ => None,
            })
            .collect()
    }

    fn bytes(&self, number: u64, name: &str) -> anyhow::Result<&'a [u8]> {
        self.all_bytes(number)
            .first()
            .copied()
            .with_context(|| format!("the log entry has no {name}"))
    }

    fn message(&self, number: u64, name: &str) -> anyhow::Result<Message<'a>> {
        Message::read(self.bytes(number, name)?).with_context(|| format!("its {name} is malformed"))
    }

    fn text(&self, number: u64, name: &str) -> anyhow::Result<&'a str> {
        std::str::from_utf8(self.bytes(number, name)?)
            .with_context(|| format!("its {name} is not UTF-8"))
    }
}

/// A base-128 varint at `*at`, moving past it.
fn varint(bytes: &[u8], at: &mut usize) -> anyhow::Result<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at).context("a number is cut short")?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Ok(value);
        }
    }
    bail!("a number is longer than 64 bits")
}

/// The bundle JSON of the entry `protobuf`, whose canonicalized body (the
/// log's record of the signature, which gitsign leaves out and the verifier
/// recomputes) is `body`.
pub(super) fn bundle_entry(protobuf: &[u8], body: &str) -> anyhow::Result<serde_json::Value> {
    let entry = Message::read(protobuf)?;
    let kind = entry.message(3, "kind and version")?;
    let promise = entry.message(5, "inclusion promise")?;
    let proof = entry.message(6, "inclusion proof")?;
    let checkpoint = proof.message(5, "checkpoint")?;
    let hashes: Vec<String> = proof
        .all_bytes(4)
        .iter()
        .map(|hash| BASE64.encode(hash))
        .collect();
    let log_id = entry.message(2, "log id")?;
    ensure!(
        kind.text(1, "kind")? == "hashedrekord",
        "the log entry is of kind {:?}, and gitsign logs a hashedrekord",
        kind.text(1, "kind")?
    );
    Ok(serde_json::json!({
        "logIndex": entry.int(1, "log index")?.to_string(),
        "logId": { "keyId": BASE64.encode(log_id.bytes(1, "log key id")?) },
        "kindVersion": { "kind": kind.text(1, "kind")?, "version": kind.text(2, "version")? },
        "integratedTime": entry.int(4, "integrated time")?.to_string(),
        "inclusionPromise": {
            "signedEntryTimestamp": BASE64.encode(promise.bytes(1, "signed entry timestamp")?)
        },
        "inclusionProof": {
            "logIndex": proof.int(1, "proof's log index")?.to_string(),
            "rootHash": BASE64.encode(proof.bytes(2, "proof's root hash")?),
            "treeSize": proof.int(3, "proof's tree size")?.to_string(),
            "hashes": hashes,
            "checkpoint": { "envelope": checkpoint.text(1, "checkpoint")? },
        },
        "canonicalizedBody": BASE64.encode(body),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(number: u64, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![
            u8::try_from(number << 3 | 2).unwrap(),
            u8::try_from(bytes.len()).unwrap(),
        ];
        out.extend_from_slice(bytes);
        out
    }

    #[test]
    fn numbers_and_fields_are_read_and_a_cut_message_is_an_error() {
        let mut at = 0;
        assert_eq!(varint(&[0xac, 0x02], &mut at).unwrap(), 300);
        assert_eq!(at, 2);
        assert!(varint(&[0x80; 11], &mut 0).is_err());
        assert!(varint(&[0x80], &mut 0).is_err());
        let message = field(2, b"abc");
        let read = Message::read(&message).unwrap();
        assert_eq!(read.bytes(2, "x").unwrap(), b"abc");
        assert!(Message::read(&message[..4]).is_err());
        // A length past the end of the message.
        assert!(Message::read(&[0x12, 0x7f, 0x00]).is_err());
        // Wire type 5 (fixed32).
        assert!(Message::read(&[0x0d, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn an_entry_of_another_kind_is_refused() {
        let mut kind = field(1, b"intoto");
        kind.extend(field(2, b"0.0.2"));
        let mut entry = vec![0x08, 0x01];
        entry.extend(field(2, &field(1, b"id")));
        entry.extend(field(3, &kind));
        entry.extend([0x20, 0x01]);
        entry.extend(field(5, &field(1, b"set")));
        let mut proof = vec![0x08, 0x01];
        proof.extend(field(2, b"root"));
        proof.extend([0x18, 0x02]);
        proof.extend(field(5, &field(1, b"checkpoint")));
        entry.extend(field(6, &proof));
        let error = bundle_entry(&entry, "{}").unwrap_err();
        assert!(
            format!("{error:#}").contains("of kind \"intoto\""),
            "{error:#}"
        );
    }
}
