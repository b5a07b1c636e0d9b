//! Records as the scenario language writes them: `KEY:VALUE`, as
//! `kafka-console-producer.sh --property parse.key=true --property key.separator=:`
//! reads a line and `kafka-console-consumer.sh --property print.key=true
//! --property key.separator=:` prints one. A word without `:` is a value with a null
//! key, as before keys existed; only the first `:` separates. `KEY:null` is a
//! tombstone, a record with a null value (the console producer's `--property
//! null.marker=null`, KIP-810), which a compacted log keeps only for a while.

use super::batch::KeyValue;

/// `k1:v1` → key `k1`, value `v1`; `k1:null` → key `k1`, null value; `v1` → no
/// key, value `v1`.
pub fn key_value(text: &str) -> KeyValue {
    match text.split_once(':') {
        Some((key, "null")) => (Some(key.as_bytes().to_vec()), None),
        Some((key, value)) => (
            Some(key.as_bytes().to_vec()),
            Some(value.as_bytes().to_vec()),
        ),
        None => (None, Some(text.as_bytes().to_vec())),
    }
}

/// The record back as text: `key:value`, or the value alone for a null key (lossy
/// UTF-8; `null` for a null value), so what a consumer or the checker reads is the
/// word that was sent.
pub fn record_text(key: Option<&[u8]>, value: Option<&[u8]>) -> String {
    let value = value.map_or_else(|| "null".into(), String::from_utf8_lossy);
    match key {
        Some(k) => format!("{}:{value}", String::from_utf8_lossy(k)),
        None => value.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_round_trips() {
        for word in ["v1", "k1:v1", "k1:", "k:a:b", "k1:null"] {
            let (k, v) = key_value(word);
            assert_eq!(record_text(k.as_deref(), v.as_deref()), word);
        }
        assert_eq!(key_value("k:a:b").0.as_deref(), Some(&b"k"[..]));
        assert_eq!(record_text(None, None), "null");
        assert_eq!(
            key_value("k1:null"),
            (Some(b"k1".to_vec()), None),
            "a tombstone"
        );
        assert_eq!(
            key_value("null").1.as_deref(),
            Some(&b"null"[..]),
            "no key: a word"
        );
    }
}
