//! Words and their columns: the tokenizer, and the cursor a line is read with so
//! every error names the right place.

use super::*;

/// A word of a line with its 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) text: String,
    pub(super) column: usize,
    /// Where the first quoted part of `text` starts: an `=` after it is data, not an option.
    pub(super) quoted_from: Option<usize>,
}

pub(super) fn tokenize(line: &str, line_no: usize) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' {
            break;
        }
        let start = i;
        let mut text = String::new();
        let mut quoted_from = None;
        while i < chars.len() && !chars[i].is_whitespace() {
            if chars[i] == '"' {
                quoted_from.get_or_insert(text.chars().count());
                let open = i;
                i += 1;
                let mut closed = false;
                while i < chars.len() {
                    match chars[i] {
                        '\\' if i + 1 < chars.len() => {
                            text.push(chars[i + 1]);
                            i += 2;
                        }
                        '"' => {
                            closed = true;
                            i += 1;
                            break;
                        }
                        ch => {
                            text.push(ch);
                            i += 1;
                        }
                    }
                }
                if !closed {
                    return Err(ParseError {
                        line: line_no,
                        column: open + 1,
                        message: "unclosed quote".into(),
                    });
                }
            } else {
                text.push(chars[i]);
                i += 1;
            }
        }
        tokens.push(Token {
            text,
            column: start + 1,
            quoted_from,
        });
    }
    Ok(tokens)
}

/// Reads a line's tokens in order, with errors at the right column.
pub(super) struct Cursor<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) pos: usize,
    pub(super) line: usize,
    pub(super) end_column: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn err(&self, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column,
            message: message.into(),
        }
    }
    pub(super) fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column + 1, |t| t.column)
    }
    pub(super) fn next(&mut self, what: &str) -> Result<&'a Token, ParseError> {
        let t = self
            .tokens
            .get(self.pos)
            .ok_or_else(|| self.err(self.end_column + 1, format!("expected {what}")))?;
        self.pos += 1;
        Ok(t)
    }
    pub(super) fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }
    pub(super) fn done(&self) -> Result<(), ParseError> {
        match self.tokens.get(self.pos) {
            Some(t) => Err(self.err(t.column, format!("unexpected `{}`", t.text))),
            None => Ok(()),
        }
    }
    /// The remaining tokens split into `key=value` options and plain words.
    pub(super) fn rest(&mut self) -> (Vec<(&'a Token, String, String)>, Vec<&'a Token>) {
        let mut options = Vec::new();
        let mut words = Vec::new();
        while let Some(t) = self.tokens.get(self.pos) {
            self.pos += 1;
            let is_option = |k: &str| t.quoted_from.is_none_or(|q| k.chars().count() < q);
            match t.text.split_once('=') {
                Some((k, v)) if !k.is_empty() && !k.contains(' ') && is_option(k) => {
                    options.push((t, k.to_string(), v.to_string()))
                }
                _ => words.push(t),
            }
        }
        (options, words)
    }
}

/// A whole number of type `T`. A number beyond the type's range is told the range
/// (`seq takes -2147483648 to 2147483647`), not that it is no number.
pub(super) fn number<T: std::str::FromStr + Bounded>(
    c: &Cursor,
    t: &Token,
    value: &str,
    what: &str,
) -> Result<T, ParseError> {
    value.parse().map_err(|_| {
        let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
        let message = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "{what} takes {} to {}, got `{value}`",
                T::min_text(),
                T::max_text()
            )
        } else {
            format!("{what} must be a number, got `{value}`")
        };
        c.err(t.column, message)
    })
}

/// The range of a number type, for [`number`]'s message.
pub(super) trait Bounded {
    fn min_text() -> String;
    fn max_text() -> String;
}

macro_rules! bounded {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            fn min_text() -> String {
                <$t>::MIN.to_string()
            }
            fn max_text() -> String {
                <$t>::MAX.to_string()
            }
        }
    )*};
}
bounded!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

pub(super) fn topic_partition(c: &Cursor, t: &Token) -> Result<TopicPartition, ParseError> {
    TopicPartition::parse(&t.text).ok_or_else(|| {
        c.err(
            t.column,
            format!("expected a partition like `orders-0`, got `{}`", t.text),
        )
    })
}

pub(super) fn no_words(c: &Cursor, words: &[&Token]) -> Result<(), ParseError> {
    match words.first() {
        Some(t) => Err(c.err(t.column, format!("unexpected `{}`", t.text))),
        None => Ok(()),
    }
}

pub(super) fn id_ref(c: &Cursor, t: &Token, value: &str, what: &str) -> Result<IdRef, ParseError> {
    if value == "last" {
        Ok(IdRef::Last)
    } else {
        number(c, t, value, what).map(IdRef::Value)
    }
}

/// A `KEY=VALUE` setting read through Kafka's `ConfigDef` table
/// ([`crate::client::config_def`]): the error is Kafka's `ConfigException` text
/// (`Invalid value X for configuration KEY: …`), worded by the catalog.
pub(super) fn config_value(
    c: &Cursor,
    t: &Token,
    place: crate::client::config_def::Place,
    key: &str,
    value: &str,
) -> Result<crate::client::config_def::Value, ParseError> {
    crate::client::config_def::parse(place, key, value)
        .map_err(|e| c.err(t.column, crate::sim::SimError::from(e).to_string()))
}
