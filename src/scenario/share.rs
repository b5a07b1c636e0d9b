//! Share links: the whole state of a session — the scenario so far, the current step,
//! the open page and panel — packed into a URL fragment, and unpacked again with a
//! clear error for anything malformed, truncated, too long or from an unknown version.
//!
//! Format: `<version>.<base64url(crc32c(payload) ‖ lzss(payload))>` where payload
//! is the state as plain text. Version 2 adds the page's language; a link without one
//! (English) is still written as version 1, and version 1 links are always read.
//! Version 3 names a built-in lesson instead of carrying its text (a lesson with its
//! questions in three languages would not fit in a URL): the page loads the lesson it
//! names, as `?lesson=` does. The CRC is over the unpacked text, so a cut or altered link
//! is caught; decompression is capped, so a hostile link cannot make the page allocate
//! without bound. Nothing is loaded half-way: decoding either returns a whole,
//! parseable state or an error.

use serde::{Deserialize, Serialize};

use crate::record::crc32c::crc32c;
use crate::scenario::{parse, ParseError};

/// The link format with a language (2).
pub const LINK_VERSION: u32 = 2;
/// The format that names a built-in lesson instead of carrying a scenario (3).
pub const LINK_VERSION_LESSON: u32 = 3;
/// The format without a language: written for English views, so their links stay as
/// they were, and read forever.
const LINK_VERSION_NO_LANG: u32 = 1;
/// Longest fragment accepted (browsers and chat apps keep URLs of this size intact).
pub const MAX_LINK_CHARS: usize = 16_000;
/// Largest scenario a link may unpack to.
pub const MAX_SCENARIO_BYTES: usize = 256 * 1024;

/// What a link carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedState {
    /// The scenario so far (the learner's recorded actions, or a lesson).
    pub scenario: String,
    /// How many steps of it have been played.
    pub step: usize,
    /// The open page (`idempotence`, `transactions`).
    pub page: String,
    /// The open panel, if any.
    #[serde(default)]
    pub panel: Option<String>,
    /// The page's language (`ko`, `th`), if not English.
    #[serde(default)]
    pub lang: Option<String>,
    /// A built-in lesson, by name, played to `step` (then `scenario` is empty).
    #[serde(default)]
    pub lesson: Option<String>,
}

/// Why a link could not be opened. Each names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    Empty,
    TooLong {
        chars: usize,
        max: usize,
    },
    /// Not `<version>.<data>`, or the data is not base64url.
    Malformed(Malformed),
    UnknownVersion(String),
    /// Shorter than its checksum, or the compressed data ends early.
    Truncated,
    /// The checksum does not match: the link was cut or altered.
    ChecksumMismatch,
    /// Unpacks to more than [`MAX_SCENARIO_BYTES`].
    TooLarge,
    /// The payload is not a state this version understands.
    BadPayload(BadPayload),
    /// The scenario inside does not parse.
    BadScenario(ParseError),
    /// The step is beyond the scenario's end.
    StepOutOfRange {
        step: usize,
        steps: usize,
    },
}

/// What is wrong with a link's text before it is unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// No `.` between the version and the data.
    NoDot,
    /// The character at this position (counted from 0; the message counts from 1) is
    /// not base64url.
    NotBase64 { at: usize, found: char },
}

/// What is wrong with an unpacked link: the state it carries, line by line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPayload {
    /// A page, panel, language or lesson name with a line break (refused when made).
    MultiLine,
    NotUtf8,
    /// The payload ends before this field's line.
    Missing(&'static str),
    /// The step line, which is not a number.
    Step(String),
    /// The language line, which is not en, ko or th.
    Lang(String),
    /// A lesson name this build does not have.
    NoLesson(String),
    /// A lesson link that also carries a scenario.
    LessonWithScenario,
    /// A part of the panel line the page does not know.
    Panel(String),
}

impl LinkError {
    /// Why, not yet in a language (the scenario's refused line keeps its own message).
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::msg;
        match self {
            LinkError::Empty => msg!("link.empty"),
            LinkError::TooLong { chars, max } => msg!("link.too-long", chars = chars, max = max),
            LinkError::Malformed(why) => msg!(
                "link.malformed",
                why = match why {
                    Malformed::NoDot => msg!("link.malformed.no-dot"),
                    Malformed::NotBase64 { at, found } => {
                        msg!(
                            "link.malformed.not-base64",
                            at = at + 1,
                            found = format!("{found:?}")
                        )
                    }
                }
            ),
            LinkError::UnknownVersion(v) => {
                msg!("link.unknown-version", version = v, reads = LINK_VERSION)
            }
            LinkError::Truncated => msg!("link.truncated"),
            LinkError::ChecksumMismatch => msg!("link.checksum"),
            LinkError::TooLarge => msg!("link.too-large", kb = MAX_SCENARIO_BYTES / 1024),
            LinkError::BadPayload(why) => msg!("link.bad-payload", why = why.msg()),
            LinkError::BadScenario(e) => msg!("link.bad-scenario", why = e.msg()),
            LinkError::StepOutOfRange { step, steps } => {
                msg!("link.step-range", step = step, steps = steps)
            }
        }
    }

    /// Why, in `lang`.
    #[inline(never)]
    pub fn in_lang(&self, lang: crate::i18n::Lang) -> String {
        crate::i18n::catalog::render(&self.msg(), lang)
    }
}

impl BadPayload {
    /// Why, not yet in a language (a name from the link is cut to 40 characters).
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::msg;
        let cut = |s: &str| s.chars().take(40).collect::<String>();
        match self {
            BadPayload::MultiLine => msg!("link.payload.one-line"),
            BadPayload::NotUtf8 => msg!("link.payload.not-utf8"),
            BadPayload::Missing(field) => msg!("link.payload.missing", field = field),
            BadPayload::Step(step) => msg!("link.payload.step", step = cut(step)),
            BadPayload::Lang(lang) => msg!("link.payload.lang", lang = cut(lang)),
            BadPayload::NoLesson(name) => msg!("link.payload.no-lesson", name = cut(name)),
            BadPayload::LessonWithScenario => msg!("link.payload.lesson-scenario"),
            BadPayload::Panel(part) => msg!("link.payload.panel", part = cut(part)),
        }
    }
}

/// `Display` is the English text (the CLI, tests); a page words [`LinkError::msg`] in
/// the reader's language.
impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_lang(crate::i18n::Lang::En))
    }
}

impl std::error::Error for LinkError {}

pub use crate::util::base64url::encode as base64url_encode;

/// Decodes base64url without padding; names the first bad character.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, LinkError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for (i, c) in text.chars().enumerate() {
        let value = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' => 62,
            '_' => 63,
            other => {
                return Err(LinkError::Malformed(Malformed::NotBase64 {
                    at: i,
                    found: other,
                }))
            }
        };
        acc = (acc << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    if bits >= 6 {
        return Err(LinkError::Truncated);
    }
    Ok(out)
}

/// The payload: `step`, `page`, `panel` (empty for none) on a line each, then the
/// scenario. Plain text, so the page needs no JSON library for links.
/// Version 2 puts the language on a line of its own before the scenario.
fn payload(state: &SharedState) -> Result<(u32, Vec<u8>), LinkError> {
    let panel = state.panel.as_deref().unwrap_or("");
    let lang = state.lang.as_deref().unwrap_or("");
    let lesson = state.lesson.as_deref().unwrap_or("");
    if [state.page.as_str(), panel, lang, lesson]
        .iter()
        .any(|f| f.contains('\n'))
    {
        return Err(LinkError::BadPayload(BadPayload::MultiLine));
    }
    if !lesson.is_empty() {
        return Ok((
            LINK_VERSION_LESSON,
            format!(
                "{}\n{}\n{}\n{lang}\n{lesson}\n",
                state.step, state.page, panel
            )
            .into_bytes(),
        ));
    }
    Ok(match &state.lang {
        None => (
            LINK_VERSION_NO_LANG,
            format!(
                "{}\n{}\n{}\n{}",
                state.step, state.page, panel, state.scenario
            ),
        ),
        Some(lang) => (
            LINK_VERSION,
            format!(
                "{}\n{}\n{}\n{lang}\n{}",
                state.step, state.page, panel, state.scenario
            ),
        ),
    })
    .map(|(v, text)| (v, text.into_bytes()))
}

fn from_payload(bytes: &[u8], version: u32) -> Result<SharedState, LinkError> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| LinkError::BadPayload(BadPayload::NotUtf8))?;
    let fields = match version {
        LINK_VERSION_NO_LANG => 4,
        LINK_VERSION => 5,
        _ => 6,
    };
    let mut parts = text.splitn(fields, '\n');
    let mut field = |name: &'static str| {
        parts
            .next()
            .ok_or(LinkError::BadPayload(BadPayload::Missing(name)))
    };
    let step = field("step")?;
    let step = step
        .parse()
        .map_err(|_| LinkError::BadPayload(BadPayload::Step(step.to_string())))?;
    let page = field("page")?.to_string();
    let panel = Some(field("panel")?.to_string()).filter(|p| !p.is_empty());
    let lang = if version == LINK_VERSION_NO_LANG {
        None
    } else {
        Some(field("language")?.to_string()).filter(|l| !l.is_empty())
    };
    // A version 1 link relabelled 2 would read its first scenario line as the language.
    if let Some(l) = &lang {
        if crate::i18n::Lang::from_code(l).is_none_or(|x| x.code() != l) {
            return Err(LinkError::BadPayload(BadPayload::Lang(l.clone())));
        }
    }
    let lesson = if version == LINK_VERSION_LESSON {
        Some(field("lesson")?.to_string())
    } else {
        None
    };
    let scenario = field("scenario")?.to_string();
    Ok(SharedState {
        scenario,
        step,
        page,
        panel,
        lang,
        lesson,
    })
}

/// The link's checksum: over the payload, and from version 3 on over the version too
/// (so a link relabelled with another version is caught as altered).
fn checksum(version: u32, payload: &[u8]) -> u32 {
    if version < LINK_VERSION_LESSON {
        return crc32c(payload);
    }
    let mut covered = format!("{version}.").into_bytes();
    covered.extend_from_slice(payload);
    crc32c(&covered)
}

/// Packs a state into a link fragment (without the `#`).
pub fn encode(state: &SharedState) -> Result<String, LinkError> {
    let (version, json) = payload(state)?;
    if json.len() > MAX_SCENARIO_BYTES {
        return Err(LinkError::TooLarge);
    }
    let mut bytes = checksum(version, &json).to_be_bytes().to_vec();
    bytes.extend(crate::util::lzss::compress(&json));
    let link = format!("{version}.{}", base64url_encode(&bytes));
    if link.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong {
            chars: link.len(),
            max: MAX_LINK_CHARS,
        });
    }
    Ok(link)
}

/// Unpacks a link fragment (a leading `#` is allowed) into a whole, checked state.
pub fn decode(link: &str) -> Result<SharedState, LinkError> {
    let link = link.trim().trim_start_matches('#');
    if link.is_empty() {
        return Err(LinkError::Empty);
    }
    let chars = link.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(LinkError::TooLong {
            chars,
            max: MAX_LINK_CHARS,
        });
    }
    let (version, data) = link
        .split_once('.')
        .ok_or(LinkError::Malformed(Malformed::NoDot))?;
    let version = match version {
        "1" => LINK_VERSION_NO_LANG,
        "2" => LINK_VERSION,
        "3" => LINK_VERSION_LESSON,
        other => return Err(LinkError::UnknownVersion(other.chars().take(12).collect())),
    };
    let bytes = base64url_decode(data)?;
    let (crc, packed) = match (bytes.get(..4), bytes.get(4..)) {
        (Some(c), Some(p)) if !p.is_empty() => (u32::from_be_bytes([c[0], c[1], c[2], c[3]]), p),
        _ => return Err(LinkError::Truncated),
    };
    let json = crate::util::lzss::decompress(packed, MAX_SCENARIO_BYTES).map_err(|e| match e {
        crate::util::lzss::LzssError::TooLarge => LinkError::TooLarge,
        crate::util::lzss::LzssError::Truncated => LinkError::Truncated,
        crate::util::lzss::LzssError::BadDistance => LinkError::ChecksumMismatch,
    })?;
    if checksum(version, &json) != crc {
        return Err(LinkError::ChecksumMismatch);
    }
    let state = from_payload(&json, version)?;
    if let Some(name) = &state.lesson {
        // A lesson by name: it must be one this build has, with nothing beside it. Its
        // step is checked when it is loaded (the page may still have to fetch its text).
        if crate::scenario::all_lessons().all(|l| l.name != name)
            && crate::scenario::course::course_lesson(name).is_none()
        {
            return Err(LinkError::BadPayload(BadPayload::NoLesson(name.clone())));
        }
        if !state.scenario.is_empty() {
            return Err(LinkError::BadPayload(BadPayload::LessonWithScenario));
        }
        // Where the lesson's text is here, its step is checked now: a player step.
        let text = crate::scenario::lesson(name).and_then(|l| l.text());
        if let Some(parsed) = text.and_then(|t| parse(t).ok()) {
            let steps = crate::scenario::player::player_steps(&parsed).len();
            if state.step > steps {
                return Err(LinkError::StepOutOfRange {
                    step: state.step,
                    steps,
                });
            }
        }
        return Ok(state);
    }
    let scenario = parse(&state.scenario).map_err(LinkError::BadScenario)?;
    if state.step > scenario.steps.len() {
        return Err(LinkError::StepOutOfRange {
            step: state.step,
            steps: scenario.steps.len(),
        });
    }
    Ok(state)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn state() -> SharedState {
        SharedState {
            scenario: crate::scenario::lesson("fencing")
                .map(|l| l.source.to_string())
                .unwrap_or_default(),
            step: 7,
            page: "transactions".into(),
            panel: Some("coordinator".into()),
            lang: None,
            lesson: None,
        }
    }

    /// The words of a refusal: the arguments its template names, its own words in Korean
    /// and Thai (not English standing in), every two-way particle resolved.
    pub(crate) fn worded_in_every_language(m: &crate::i18n::Msg) -> [String; 3] {
        use crate::i18n::catalog::{catalog, render};
        use crate::i18n::{Arg, Lang};
        fn check(m: &crate::i18n::Msg) {
            let mut given: Vec<&str> = m.args.iter().map(|(n, _)| *n).collect();
            given.sort_unstable();
            let wanted = catalog(Lang::En)
                .placeholders(m.id())
                .unwrap_or_else(|| panic!("{} has no English template", m.id()));
            assert_eq!(given, wanted, "{}: arguments given vs placeholders", m.id());
            for (_, a) in &m.args {
                if let Arg::Msg(inner) = a {
                    check(inner);
                }
            }
        }
        check(m);
        let [en, ko, th] = [Lang::En, Lang::Ko, Lang::Th].map(|l| render(m, l));
        for (lang, s) in [("ko", &ko), ("th", &th)] {
            assert_ne!(*s, en, "{} in {lang}", m.id());
        }
        for s in [&en, &ko, &th] {
            assert!(
                !s.contains("(를)") && !s.contains("(는)"),
                "{}: {s}",
                m.id()
            );
        }
        [en, ko, th]
    }

    #[test]
    fn every_link_error_is_worded_in_every_language() {
        let errors = [
            LinkError::Empty,
            LinkError::TooLong {
                chars: 9000,
                max: 8000,
            },
            LinkError::Malformed(Malformed::NoDot),
            LinkError::Malformed(Malformed::NotBase64 { at: 3, found: '$' }),
            LinkError::UnknownVersion("7".into()),
            LinkError::Truncated,
            LinkError::ChecksumMismatch,
            LinkError::TooLarge,
            LinkError::BadPayload(BadPayload::MultiLine),
            LinkError::BadPayload(BadPayload::NotUtf8),
            LinkError::BadPayload(BadPayload::Missing("language")),
            LinkError::BadPayload(BadPayload::Step("x".into())),
            LinkError::BadPayload(BadPayload::Lang("xx".into())),
            LinkError::BadPayload(BadPayload::NoLesson("nope".into())),
            LinkError::BadPayload(BadPayload::LessonWithScenario),
            LinkError::BadPayload(BadPayload::Panel("door".into())),
            LinkError::StepOutOfRange { step: 9, steps: 3 },
        ];
        for e in &errors {
            worded_in_every_language(&e.msg());
        }
        let [en, ko, th] = worded_in_every_language(&errors[3].msg());
        assert_eq!(
            en,
            "the link is malformed: character 4 ('$') is not base64url"
        );
        assert_eq!(
            ko,
            "링크 형식이 잘못되었습니다: 4번째 문자('$')는 base64url 문자가 아닙니다"
        );
        assert_eq!(th, "รูปแบบของลิงก์ไม่ถูกต้อง: ตัวอักษรที่ 4 ('$') ไม่ใช่ base64url");
        let [_, ko, _] = worded_in_every_language(&errors[15].msg());
        assert!(ko.ends_with("패널 항목 `door`를 알지 못합니다"), "{ko}");
        // The page's own refusals, worded where the page makes them (ui::link).
        use crate::msg;
        worded_in_every_language(&msg!("link.pulsar-lesson", name = "pulsar-tc-crash"));
        let action = msg!("link.unwritable.action", n = 2, text = "send");
        worded_in_every_language(&msg!("link.unwritable", what = action));
        worded_in_every_language(&msg!(
            "link.unwritable",
            what = msg!("link.unwritable.setup")
        ));
    }

    #[test]
    fn base64url_round_trips() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64url_decode(&base64url_encode(&bytes)).unwrap(), bytes);
        }
        assert_eq!(base64url_encode(b"Man"), "TWFu");
    }

    #[test]
    fn a_link_round_trips_and_is_compact() {
        let s = state();
        let link = encode(&s).unwrap();
        assert!(link.starts_with("1."));
        assert!(
            link.len() < s.scenario.len(),
            "compressed: {} < {}",
            link.len(),
            s.scenario.len()
        );
        assert_eq!(decode(&format!("#{link}")).unwrap(), s);
    }

    #[test]
    fn hostile_links_are_refused_with_a_reason() {
        let link = encode(&state()).unwrap();
        assert_eq!(decode(""), Err(LinkError::Empty));
        assert!(matches!(
            decode(&"1.".repeat(20_000)),
            Err(LinkError::TooLong { .. })
        ));
        assert!(matches!(decode("nodot"), Err(LinkError::Malformed(_))));
        assert!(matches!(decode("1.abc$def"), Err(LinkError::Malformed(_))));
        assert_eq!(
            decode(&link.replacen("1.", "7.", 1)),
            Err(LinkError::UnknownVersion("7".into()))
        );
        let cut = &link[..link.len() / 2];
        assert!(
            matches!(
                decode(cut),
                Err(LinkError::Truncated | LinkError::ChecksumMismatch)
            ),
            "{:?}",
            decode(cut)
        );
        let mut chars: Vec<char> = link.chars().collect();
        let i = chars.len() - 5;
        chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
        let flipped: String = chars.into_iter().collect();
        assert!(decode(&flipped).is_err());
        // A link that would unpack past the cap is refused (too long to even read).
        let bomb = vec![b' '; 4 * MAX_SCENARIO_BYTES];
        let mut bytes = crc32c(&bomb).to_be_bytes().to_vec();
        bytes.extend(crate::util::lzss::compress(&bomb));
        assert!(matches!(
            decode(&format!("1.{}", base64url_encode(&bytes))),
            Err(LinkError::TooLarge | LinkError::TooLong { .. })
        ));
    }

    /// A language makes a version-2 link; without one the link is version 1, exactly as
    /// before languages existed, so old links and English links stay the same.
    #[test]
    fn the_language_travels_in_a_version_2_link_and_english_stays_version_1() {
        let en = encode(&state()).unwrap();
        assert!(en.starts_with("1."), "{en}");
        assert_eq!(decode(&en).unwrap(), state());
        let ko = SharedState {
            lang: Some("ko".into()),
            ..state()
        };
        let link = encode(&ko).unwrap();
        assert!(link.starts_with("2."), "{link}");
        assert_eq!(decode(&link).unwrap(), ko);
        assert!(matches!(
            decode(&format!("4.{}", &link[2..])),
            Err(LinkError::UnknownVersion(_))
        ));
        // Version 3's checksum covers its version: a version 2 link relabelled 3, or a
        // version 3 link relabelled 2, is refused as altered.
        assert_eq!(
            decode(&format!("3.{}", &link[2..])),
            Err(LinkError::ChecksumMismatch)
        );
        let two_lines = SharedState {
            lang: Some("k\no".into()),
            ..state()
        };
        assert!(matches!(encode(&two_lines), Err(LinkError::BadPayload(_))));
    }

    #[test]
    fn the_content_is_checked_too() {
        let bad_step = SharedState {
            step: 10_000,
            ..state()
        };
        assert!(matches!(
            decode(&encode(&bad_step).unwrap()),
            Err(LinkError::StepOutOfRange { .. })
        ));
        let bad_scenario = SharedState {
            scenario: "fly away".into(),
            step: 0,
            ..state()
        };
        assert!(matches!(
            decode(&encode(&bad_scenario).unwrap()),
            Err(LinkError::BadScenario(_))
        ));
        let json = b"nope";
        let mut bytes = crc32c(json).to_be_bytes().to_vec();
        bytes.extend(crate::util::lzss::compress(json));
        assert!(matches!(
            decode(&format!("1.{}", base64url_encode(&bytes))),
            Err(LinkError::BadPayload(_))
        ));
    }

    #[test]
    fn a_lesson_link_names_the_lesson_and_is_checked() {
        let shared = SharedState {
            scenario: String::new(),
            step: 3,
            page: "idempotence".into(),
            panel: Some("lesson".into()),
            lang: Some("ko".into()),
            lesson: Some("idempotence".into()),
        };
        let link = encode(&shared).expect("encodes");
        assert!(link.starts_with("3.") && link.len() < 100, "{link}");
        assert_eq!(
            decode(&format!("2.{}", &link[2..])),
            Err(LinkError::ChecksumMismatch)
        );
        assert_eq!(decode(&link), Ok(shared.clone()));
        let nope = SharedState {
            lesson: Some("nope".into()),
            ..shared.clone()
        };
        assert!(matches!(
            decode(&encode(&nope).expect("encodes")),
            Err(LinkError::BadPayload(_))
        ));
        let far = SharedState {
            step: 999,
            ..shared.clone()
        };
        assert!(matches!(
            decode(&encode(&far).expect("encodes")),
            Err(LinkError::StepOutOfRange { .. })
        ));
        // The encoder never writes a scenario beside a lesson.
        let both = SharedState {
            scenario: "echo x".into(),
            ..shared.clone()
        };
        assert_eq!(decode(&encode(&both).expect("encodes")), Ok(shared));
    }

    #[test]
    fn a_relabelled_version_is_refused() {
        let en = encode(&state()).expect("encodes");
        assert!(en.starts_with("1."));
        // Read as version 2, its first scenario line would be the language.
        assert!(matches!(
            decode(&format!("2.{}", &en[2..])),
            Err(LinkError::BadPayload(_))
        ));
        let ko = encode(&SharedState {
            lang: Some("ko".into()),
            ..state()
        })
        .expect("encodes");
        // Read as version 1, the language line is a scenario line that does not parse.
        assert!(decode(&format!("1.{}", &ko[2..])).is_err());
    }
}
