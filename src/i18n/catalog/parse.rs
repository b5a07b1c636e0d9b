//! The parser of a catalog file (format: the header of `en.txt`). Never panics: a bad
//! line becomes a [`ParseError`] and is left out.

/// A piece of a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text as is.
    Lit(String),
    /// `{name}`: the argument `name`.
    Var(String),
    /// `{name ? key:text|key:text|*:text}`: the branch chosen by the argument's value.
    Select {
        var: String,
        branches: Vec<(String, Vec<Piece>)>,
    },
}

/// A line that did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// A parsed entry: id, the template text as written (escapes resolved), its pieces.
pub type Entry = (String, String, Vec<Piece>);

/// Parses a whole file.
pub fn parse(source: &str) -> (Vec<Entry>, Vec<ParseError>) {
    let mut entries: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((id, value)) = trimmed.split_once('=') else {
            errors.push(err(line_no, "expected `id = text`"));
            continue;
        };
        let id = id.trim();
        if id.is_empty() || !id.chars().all(is_id_char) {
            errors.push(err(line_no, &format!("bad id {id:?}")));
            continue;
        }
        if entries.iter().any(|(e, _, _)| e == id) {
            errors.push(err(line_no, &format!("{id} is defined twice")));
            continue;
        }
        let value = value.trim();
        match template(value) {
            Ok(pieces) => entries.push((id.to_string(), unescape(value), pieces)),
            Err(m) => errors.push(err(line_no, &format!("{id}: {m}"))),
        }
    }
    (entries, errors)
}

fn err(line: usize, message: &str) -> ParseError {
    ParseError {
        line,
        message: message.to_string(),
    }
}

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The character an escape stands for: `\s` a space, `\n` a new line, else itself.
fn escaped(c: char) -> char {
    match c {
        's' => ' ',
        'n' => '\n',
        c => c,
    }
}

fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().map_or('\\', escaped)),
            c => out.push(c),
        }
    }
    out
}

/// Parses one template. `stop` ends a branch of a selector (`|` or `}`).
fn template(value: &str) -> Result<Vec<Piece>, String> {
    let chars: Vec<char> = value.chars().collect();
    let mut at = 0;
    let pieces = pieces(&chars, &mut at, false)?;
    if at < chars.len() {
        return Err(format!("unexpected {:?}", chars[at]));
    }
    Ok(pieces)
}

fn pieces(chars: &[char], at: &mut usize, in_branch: bool) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut lit = String::new();
    while let Some(&c) = chars.get(*at) {
        match c {
            '\\' => {
                *at += 1;
                lit.push(chars.get(*at).map_or('\\', |&c| escaped(c)));
                *at += 1;
            }
            '|' | '}' if in_branch => break,
            '}' => return Err("`}` without `{` (write \\})".to_string()),
            '{' => {
                *at += 1;
                if !lit.is_empty() {
                    out.push(Piece::Lit(std::mem::take(&mut lit)));
                }
                out.push(placeholder(chars, at, in_branch)?);
            }
            c => {
                lit.push(c);
                *at += 1;
            }
        }
    }
    if !lit.is_empty() {
        out.push(Piece::Lit(lit));
    }
    Ok(out)
}

/// After `{`: `name}` or `name ? key:text|…}`.
fn placeholder(chars: &[char], at: &mut usize, in_branch: bool) -> Result<Piece, String> {
    let start = *at;
    while chars.get(*at).is_some_and(|&c| is_name_char(c)) {
        *at += 1;
    }
    let name: String = chars[start..*at].iter().collect();
    if name.is_empty() {
        return Err("empty placeholder".to_string());
    }
    skip_spaces(chars, at);
    match chars.get(*at) {
        Some('}') => {
            *at += 1;
            Ok(Piece::Var(name))
        }
        Some('?') if !in_branch => {
            *at += 1;
            let mut branches = Vec::new();
            loop {
                skip_spaces(chars, at);
                let key_start = *at;
                while chars.get(*at).is_some_and(|&c| c != ':' && c != '}') {
                    *at += 1;
                }
                let key: String = chars[key_start..*at].iter().collect();
                if chars.get(*at) != Some(&':') {
                    return Err(format!("{{{name} ?}}: a branch needs `key:text`"));
                }
                *at += 1;
                let branch = pieces(chars, at, true)?;
                branches.push((key.trim().to_string(), branch));
                match chars.get(*at) {
                    Some('|') => *at += 1,
                    Some('}') => {
                        *at += 1;
                        break;
                    }
                    _ => return Err(format!("{{{name} ?}} is not closed")),
                }
            }
            Ok(Piece::Select {
                var: name,
                branches,
            })
        }
        Some('?') => Err("a selector cannot sit inside a selector".to_string()),
        _ => Err(format!("{{{name} is not closed")),
    }
}

fn skip_spaces(chars: &[char], at: &mut usize) {
    while chars.get(*at) == Some(&' ') {
        *at += 1;
    }
}
