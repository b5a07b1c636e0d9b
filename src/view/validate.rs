//! Checks for what a learner types into a page's fields (record values, producer id,
//! epoch, sequence), each error an [`InputError`] the UI shows at the field through its
//! catalog key, and for the lesson files an author opens ([`lesson_file`], each refusal
//! a [`LessonFileError`] the UI words); so the checks are tested natively.

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

/// The largest lesson file the player opens (a lesson is a few KB of text): what a
/// share link may carry.
pub const MAX_LESSON_BYTES: usize = crate::scenario::share::MAX_SCENARIO_BYTES;

/// Why the player cannot play a lesson file (the UI words it from the catalog).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonFileError {
    /// Larger than [`MAX_LESSON_BYTES`]: its size and the limit, in KB.
    TooBig { kb: usize, max_kb: usize },
    /// Not a scenario: where and why it does not parse.
    Parse(crate::scenario::ParseError),
    /// Not a single step (empty, or only comments and narration).
    NoSteps,
}

/// A lesson file's text as a scenario, or why the player cannot play it.
pub fn lesson_file(source: &str) -> Result<crate::scenario::Scenario, LessonFileError> {
    if source.len() > MAX_LESSON_BYTES {
        return Err(LessonFileError::TooBig {
            kb: source.len() / 1024,
            max_kb: MAX_LESSON_BYTES / 1024,
        });
    }
    let parsed = crate::scenario::parse(source).map_err(LessonFileError::Parse)?;
    if parsed.steps.is_empty() {
        return Err(LessonFileError::NoSteps);
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_files_need_a_step_and_a_sane_size() {
        assert_eq!(lesson_file("").unwrap_err(), LessonFileError::NoSteps);
        assert_eq!(
            lesson_file("# c\n## h\n> n\n").unwrap_err(),
            LessonFileError::NoSteps
        );
        let huge = "echo x\n".repeat(MAX_LESSON_BYTES / 4);
        assert_eq!(
            lesson_file(&huge).unwrap_err(),
            LessonFileError::TooBig {
                kb: huge.len() / 1024,
                max_kb: 256
            }
        );
        assert!(matches!(
            lesson_file("cluster brokers=x\n"),
            Err(LessonFileError::Parse(e)) if e.line == 1
        ));
        assert_eq!(lesson_file("cluster brokers=1\n").unwrap().steps.len(), 1);
    }

    #[test]
    fn records_are_split_trimmed_and_none_empty() {
        assert_eq!(
            records("a, b ,c"),
            Ok(vec!["a".into(), "b".into(), "c".into()])
        );
        assert_eq!(records("x"), Ok(vec!["x".into()]));
        assert_eq!(records(""), Err(InputError::Empty));
        assert_eq!(records("   "), Err(InputError::Empty));
        assert_eq!(records("a,,b"), Err(InputError::EmptyRecord));
        assert_eq!(records("a, "), Err(InputError::EmptyRecord));
        assert_eq!(records(","), Err(InputError::EmptyRecord));
    }

    #[test]
    fn numbers_are_whole_non_negative_and_fit() {
        assert_eq!(non_negative::<i64>("42"), Ok(42));
        assert_eq!(non_negative::<i16>(" 7 "), Ok(7));
        assert_eq!(non_negative::<i32>("-0"), Ok(0), "minus zero is zero");
        assert_eq!(non_negative::<i16>("32767"), Ok(i16::MAX));
        assert_eq!(non_negative::<i16>(""), Err(InputError::Empty));
        assert_eq!(non_negative::<i16>("  "), Err(InputError::Empty));
        for bad in ["abc", "1.5", "1e3", "-", "+1", "0x10", "1 2"] {
            assert_eq!(
                non_negative::<i64>(bad),
                Err(InputError::NotNumber),
                "{bad}"
            );
        }
        assert_eq!(non_negative::<i64>("-1"), Err(InputError::Negative));
        assert_eq!(non_negative::<i16>("32768"), Err(InputError::TooBig));
        assert_eq!(non_negative::<i32>("2147483648"), Err(InputError::TooBig));
        assert_eq!(
            non_negative::<i64>("99999999999999999999999999999999999999999"),
            Err(InputError::TooBig),
            "too big even for i128"
        );
    }
}
