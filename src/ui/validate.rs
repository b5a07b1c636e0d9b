//! Checks for what a learner types. Each error is a catalog key shown at the field.

use super::i18n::Key;

/// Comma-separated record values for one batch: none may be empty.
pub fn records(input: &str) -> Result<Vec<String>, Key> {
    if input.trim().is_empty() {
        return Err(Key::ErrEmpty);
    }
    let values: Vec<String> = input.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(Key::ErrEmptyRecord);
    }
    Ok(values)
}

/// A whole number ≥ 0 that fits in `T` (i16 epoch, i32 sequence, i64 producer id).
pub fn non_negative<T: TryFrom<i128>>(input: &str) -> Result<T, Key> {
    let s = input.trim();
    if s.is_empty() {
        return Err(Key::ErrEmpty);
    }
    let body = s.strip_prefix('-').unwrap_or(s);
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) {
        return Err(Key::ErrNotNumber);
    }
    if s.starts_with('-') && body.chars().any(|c| c != '0') {
        return Err(Key::ErrNegative);
    }
    let n: i128 = body.parse().map_err(|_| Key::ErrTooBig)?;
    T::try_from(n).map_err(|_| Key::ErrTooBig)
}
