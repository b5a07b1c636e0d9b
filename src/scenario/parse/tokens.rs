//! Words and their columns: the tokenizer, and the cursor a line is read with so
//! every error names the right place.

use super::*;
use crate::i18n::message::IntoArg;

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
                        why: msg!("parse.unclosed-quote"),
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
    #[inline(never)]
    pub(super) fn err(&self, column: usize, why: Msg) -> ParseError {
        ParseError {
            line: self.line,
            column,
            why,
        }
    }
    pub(super) fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column + 1, |t| t.column)
    }
    pub(super) fn next(&mut self, what: What) -> Result<&'a Token, ParseError> {
        let t = self.tokens.get(self.pos).ok_or_else(|| {
            self.err(
                self.end_column + 1,
                msg!("parse.expected", what = what.msg()),
            )
        })?;
        self.pos += 1;
        Ok(t)
    }
    pub(super) fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }
    pub(super) fn done(&self) -> Result<(), ParseError> {
        match self.tokens.get(self.pos) {
            Some(t) => Err(self.err(t.column, unexpected(&t.text))),
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

/// What a line needs next, worded only when it is missing (a constant: reading a line
/// builds no message).
#[derive(Clone, Copy)]
pub(super) enum What {
    /// A catalog id (`parse.what.*`).
    Id(&'static str),
    /// A keyword or placeholder of the scenario language, as written.
    Code(&'static str),
    /// One of these keywords.
    OneOf(&'static [&'static str]),
}

impl What {
    #[inline(never)]
    pub(super) fn msg(self) -> Msg {
        match self {
            What::Id(id) => Msg::new(id),
            What::Code(code) => msg!("parse.code", code = code),
            What::OneOf(words) => one_of(words),
        }
    }
}

/// A message with one text argument (`unknown option `K``), built out of line.
#[inline(never)]
pub(super) fn arg1(id: &'static str, name: &'static str, value: &str) -> Msg {
    Msg::new(id).arg(name, value)
}

/// `a, b or c`: the scenario's keywords offered at a place, joined in the reader's
/// language.
#[inline(never)]
pub(super) fn one_of(words: &[&str]) -> Msg {
    match words.split_last() {
        Some((last, [])) => msg!("parse.code", code = *last),
        Some((last, rest)) => msg!("parse.one-of", words = rest.join(", "), last = *last),
        None => msg!("parse.code", code = ""),
    }
}

/// `unexpected `WORD``.
#[inline(never)]
pub(super) fn unexpected(word: &str) -> Msg {
    arg1("parse.unexpected", "word", word)
}

/// `expected WHAT, got `WORD``.
#[inline(never)]
pub(super) fn got(what: Msg, word: &str) -> Msg {
    msg!("parse.got", what = what, word = word)
}

/// `COMMAND needs OPTION`.
#[inline(never)]
pub(super) fn needs(what: &str, option: &str) -> Msg {
    msg!("parse.needs", what = what, option = option)
}

/// A whole number of type `T`. A number beyond the type's range is told the range
/// (`seq takes -2147483648 to 2147483647`), not that it is no number.
pub(super) fn number<T: std::str::FromStr + Bounded>(
    c: &Cursor,
    t: &Token,
    value: &str,
    what: impl IntoArg,
) -> Result<T, ParseError> {
    value
        .parse()
        .map_err(|_| not_a_number(c, t, value, what, T::MIN, T::MAX))
}

/// [`number`]'s refusal, once for every type.
fn not_a_number(
    c: &Cursor,
    t: &Token,
    value: &str,
    what: impl IntoArg,
    min: &str,
    max: &str,
) -> ParseError {
    let digits = value
        .strip_prefix('-')
        .or_else(|| value.strip_prefix('+'))
        .unwrap_or(value);
    let in_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let range = in_digits.then_some((min, max));
    c.err(
        t.column,
        match range {
            Some((min, max)) => msg!(
                "scenario.number-range",
                what = what,
                min = min,
                max = max,
                value = value
            ),
            None => msg!("scenario.not-a-number", what = what, value = value),
        },
    )
}

/// The range of a number type, as [`number`]'s message writes it.
pub(super) trait Bounded {
    const MIN: &'static str;
    const MAX: &'static str;
}

macro_rules! bounded {
    ($($t:ty: $min:literal to $max:literal),* $(,)?) => {$(
        impl Bounded for $t {
            const MIN: &'static str = $min;
            const MAX: &'static str = $max;
        }
    )*};
}
bounded!(
    i8: "-128" to "127",
    i16: "-32768" to "32767",
    i32: "-2147483648" to "2147483647",
    i64: "-9223372036854775808" to "9223372036854775807",
    u8: "0" to "255",
    u16: "0" to "65535",
    u32: "0" to "4294967295",
    u64: "0" to "18446744073709551615",
);
#[cfg(target_pointer_width = "64")]
bounded!(usize: "0" to "18446744073709551615");
#[cfg(target_pointer_width = "32")]
bounded!(usize: "0" to "4294967295");

pub(super) fn topic_partition(c: &Cursor, t: &Token) -> Result<TopicPartition, ParseError> {
    TopicPartition::parse(&t.text)
        .ok_or_else(|| c.err(t.column, got(msg!("parse.what.partition"), &t.text)))
}

pub(super) fn no_words(c: &Cursor, words: &[&Token]) -> Result<(), ParseError> {
    match words.first() {
        Some(t) => Err(c.err(t.column, unexpected(&t.text))),
        None => Ok(()),
    }
}

/// The next word, a `TOPIC-P`.
pub(super) fn next_partition(c: &mut Cursor) -> Result<TopicPartition, ParseError> {
    let t = c.next(What::Id("parse.what.partition"))?;
    topic_partition(c, t)
}

/// Every token to the end of the line, each a `TOPIC-P`.
pub(super) fn partitions_to_end(c: &mut Cursor) -> Result<Vec<TopicPartition>, ParseError> {
    let mut partitions = Vec::new();
    while let Some(t) = c.peek() {
        partitions.push(topic_partition(c, t)?);
        c.pos += 1;
    }
    Ok(partitions)
}

/// `unknown option `K``, at the option's column.
#[inline(never)]
pub(super) fn unknown_option(c: &Cursor, t: &Token, key: &str) -> ParseError {
    c.err(t.column, arg1("parse.unknown-option", "option", key))
}

/// A step that takes no `KEY=VALUE` option: the first one is refused.
#[cfg(any(feature = "pulsar", feature = "topic-admin"))]
pub(super) fn no_options(c: &Cursor, opts: &[(&Token, String, String)]) -> Result<(), ParseError> {
    match opts.first() {
        Some((t, k, _)) => Err(unknown_option(c, t, k)),
        None => Ok(()),
    }
}

pub(super) fn id_ref(
    c: &Cursor,
    t: &Token,
    value: &str,
    what: impl IntoArg,
) -> Result<IdRef, ParseError> {
    if value == "last" {
        Ok(IdRef::Last)
    } else {
        number(c, t, value, what).map(IdRef::Value)
    }
}

/// A `KEY=VALUE` setting read through Kafka's `ConfigDef` table
/// ([`crate::protocol::config_def`]): the error is Kafka's `ConfigException` text
/// (`Invalid value X for configuration KEY: …`), worded by the catalog.
pub(super) fn config_value<'a>(
    c: &Cursor,
    t: &Token,
    place: crate::protocol::config_def::Place,
    key: &str,
    value: &'a str,
) -> Result<crate::protocol::config_def::Value<'a>, ParseError> {
    crate::protocol::config_def::parse(place, key, value).map_err(|e| {
        c.err(
            t.column,
            crate::i18n::sim_error_msg(&crate::sim::SimError::from(e)),
        )
    })
}

#[cfg(test)]
mod bounds_tests {
    use super::Bounded;

    /// The written ranges are the types' own.
    #[test]
    fn the_written_ranges_are_the_types() {
        assert_eq!(i32::MIN.to_string(), <i32 as Bounded>::MIN);
        assert_eq!(i64::MAX.to_string(), <i64 as Bounded>::MAX);
        assert_eq!(u64::MAX.to_string(), <u64 as Bounded>::MAX);
        assert_eq!(i16::MIN.to_string(), <i16 as Bounded>::MIN);
        assert_eq!(u8::MAX.to_string(), <u8 as Bounded>::MAX);
        assert_eq!(u32::MAX.to_string(), <u32 as Bounded>::MAX);
        assert_eq!(i8::MIN.to_string(), <i8 as Bounded>::MIN);
        assert_eq!(u16::MAX.to_string(), <u16 as Bounded>::MAX);
        assert_eq!(usize::MAX.to_string(), <usize as Bounded>::MAX);
    }
}
