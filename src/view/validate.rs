//! Checks for what a learner types into a page's fields (record values, producer id,
//! epoch, sequence). Each error is an [`InputError`]; the UI shows it at the field
//! through its catalog key, so the check itself is tested natively.

/// Why a field's input was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing (or only blanks) was typed.
    Empty,
    /// One of the comma-separated records is empty.
    EmptyRecord,
    /// Not a whole number.
    NotNumber,
    /// Below 0.
    Negative,
    /// Does not fit the field's type.
    TooBig,
}

/// Comma-separated record values for one batch: none may be empty.
pub fn records(input: &str) -> Result<Vec<String>, InputError> {
    if input.trim().is_empty() {
        return Err(InputError::Empty);
    }
    let values: Vec<String> = input.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(InputError::EmptyRecord);
    }
    Ok(values)
}

/// A whole number ≥ 0 that fits in `T` (i16 epoch, i32 sequence, i64 producer id).
pub fn non_negative<T: TryFrom<i128>>(input: &str) -> Result<T, InputError> {
    let s = input.trim();
    if s.is_empty() {
        return Err(InputError::Empty);
    }
    let body = s.strip_prefix('-').unwrap_or(s);
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) {
        return Err(InputError::NotNumber);
    }
    if s.starts_with('-') && body.chars().any(|c| c != '0') {
        return Err(InputError::Negative);
    }
    let n: i128 = body.parse().map_err(|_| InputError::TooBig)?;
    T::try_from(n).map_err(|_| InputError::TooBig)
}
