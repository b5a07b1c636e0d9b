#![cfg(target_arch = "wasm32")]
//! Time travel, share links and embedding in a real browser: the reducer replays
//! exactly, hostile links and messages are refused with a reason.

use std::rc::Rc;

use eos_playground::sim::Action;
use eos_playground::ui::keys::key_msg;
use eos_playground::ui::state::{AppState, LinkMsg, Msg, Page, Panel, Travel};
use wasm_bindgen_test::*;
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

fn send(state: Rc<AppState>, values: &[&str]) -> Rc<AppState> {
    state.reduce(Msg::Act(
        Page::Idempotence,
        Action::Send {
            producer: "producer-1".into(),
            topic_partition: Page::Idempotence.partition(),
            values: values.iter().map(|v| v.to_string()).collect(),
        },
    ))
}

/// A click on the transactions page.
fn txn(action: Action) -> Msg {
    Msg::Act(Page::Transactions, action)
}

fn fingerprint(state: &AppState) -> u64 {
    state.page_state(Page::Idempotence).world.fingerprint()
}

#[wasm_bindgen_test]
fn back_two_and_forward_two_is_the_same_world() {
    let start = Rc::new(AppState::default());
    let fresh = fingerprint(&start);
    let s = send(start, &["a"]);
    let after_one = fingerprint(&s);
    let s = s.reduce(Msg::Act(
        Page::Idempotence,
        Action::DropNextResponse {
            to: Some("producer-1".into()),
        },
    ));
    let s = send(s, &["b", "c"]);
    let after_three = fingerprint(&s);
    assert_eq!(s.page_state(Page::Idempotence).history.entries.len(), 3);

    let s = s
        .reduce(Msg::Travel(Travel::Back))
        .reduce(Msg::Travel(Travel::Back));
    assert_eq!(s.page_state(Page::Idempotence).history.cursor, 1);
    assert_eq!(
        fingerprint(&s),
        after_one,
        "back 2 = the world after action 1"
    );
    let s = s
        .reduce(Msg::Travel(Travel::Forward))
        .reduce(Msg::Travel(Travel::Forward));
    assert_eq!(
        fingerprint(&s),
        after_three,
        "forward 2 = the world we left"
    );

    let s = s.reduce(Msg::Travel(Travel::To(0)));
    assert_eq!(fingerprint(&s), fresh, "jump to the start = a fresh page");
    // Forward past the end and back past the start change nothing.
    let s = s.reduce(Msg::Travel(Travel::Back));
    assert_eq!(s.page_state(Page::Idempotence).history.cursor, 0);
}

#[wasm_bindgen_test]
fn a_new_action_after_stepping_back_forks() {
    let s = Rc::new(AppState::default());
    let s = send(send(send(s, &["a"]), &["b"]), &["c"]);
    let s = s
        .reduce(Msg::Travel(Travel::Back))
        .reduce(Msg::Travel(Travel::Back));
    let s = send(s, &["x"]);
    let h = &s.page_state(Page::Idempotence).history;
    assert_eq!(h.entries.len(), 2, "the two later actions were dropped");
    assert_eq!(h.cursor, 2);
    assert!(h.entries[1].text.contains(" x"), "{}", h.entries[1].text);
    assert_eq!(s.page_state(Page::Idempotence).forked, Some(2));
}

#[wasm_bindgen_test]
fn the_transactions_page_travels_too() {
    let s = Rc::new(AppState::new(Page::Transactions, None));
    let p = || "producer-1".to_string();
    let s = s.reduce(txn(Action::InitTransactions { producer: p() }));
    let s = s.reduce(txn(Action::BeginTransaction { producer: p() }));
    let s = s.reduce(txn(Action::Send {
        producer: p(),
        topic_partition: Page::Transactions.partition(),
        values: vec!["p".into()],
    }));
    let s = s.reduce(txn(Action::CommitTransaction { producer: p() }));
    let end = s.page_state(Page::Transactions).world.fingerprint();
    let s = s
        .reduce(Msg::Travel(Travel::To(1)))
        .reduce(Msg::Travel(Travel::To(4)));
    assert_eq!(s.page_state(Page::Transactions).world.fingerprint(), end);
}

#[wasm_bindgen_test]
fn a_refused_call_is_recorded_with_its_exception() {
    let s = Rc::new(AppState::new(Page::Transactions, None));
    // begin before initTransactions: Kafka's client refuses it itself. That is the
    // outcome of a valid call, so it is recorded (a link keeps it), not a SimError.
    let s = s.reduce(txn(Action::BeginTransaction {
        producer: "producer-1".into(),
    }));
    let page = s.page_state(Page::Transactions);
    assert!(page.error.is_none());
    assert_eq!(page.history.entries.len(), 1);
    let views = eos_playground::view::producers::producers(&page.world);
    let outcome = views[0].outcome.as_ref().expect("an outcome");
    assert!(!outcome.ok);
    assert!(outcome.refusal.is_some());
    drop(page);
    // An action the world cannot apply at all (no such producer) is refused and not
    // recorded.
    let s = s.reduce(txn(Action::BeginTransaction {
        producer: "nobody".into(),
    }));
    assert!(s.page_state(Page::Transactions).error.is_some());
    assert_eq!(s.page_state(Page::Transactions).history.entries.len(), 1);
}

#[wasm_bindgen_test]
fn a_lesson_opens_on_its_page_and_reset_can_be_undone() {
    let lessons = eos_playground::scenario::lessons();
    let fencing = lessons.iter().position(|l| l.name == "fencing").unwrap();
    let s = Rc::new(AppState::new(Page::Idempotence, None));
    let s = s.reduce(Msg::LoadLesson(Some(fencing)));
    assert_eq!(s.page, Page::Transactions);
    let s = s.reduce(Msg::LoadLesson(None));
    let s = s.reduce(txn(Action::InitTransactions {
        producer: "producer-1".into(),
    }));
    let s = s.reduce(Msg::Reset);
    assert_eq!(
        s.position(),
        (0, 1),
        "Reset goes to the start; the action stays"
    );
    let s = s.reduce(Msg::Travel(Travel::Forward));
    assert_eq!(s.position(), (1, 1));
}

#[wasm_bindgen_test]
fn lesson_files_without_steps_or_too_big_are_refused() {
    use eos_playground::ui::state::{lesson_file_error, parse_lesson, MAX_LESSON_BYTES};
    let words = |source: &str| parse_lesson(source).map_err(|e| lesson_file_error(&e));
    assert!(words("").unwrap_err().contains("no steps"));
    assert!(words("# a comment\n## a heading\n> words\n")
        .unwrap_err()
        .contains("no steps"));
    assert!(words(&"echo x\n".repeat(MAX_LESSON_BYTES / 4))
        .unwrap_err()
        .contains("at most 256 KB"));
    assert!(words("cluster brokers=x\n")
        .unwrap_err()
        .starts_with("line 1, column"));
    assert!(parse_lesson("cluster brokers=1\n").is_ok());
}

#[wasm_bindgen_test]
fn bad_url_options_are_explained() {
    let o = parse_options("?embed=1&lesson=nope&step=-5&page=zzz");
    let problems = o.problems(o.start_page(Page::Idempotence));
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].contains("nope"));
    assert!(problems[1].contains("-5"));
    assert!(problems[2].contains("zzz"));
    let ok = parse_options("?lesson=fencing&step=2");
    assert!(ok.problems(Page::Transactions).is_empty());
    assert_eq!(ok.start_page(Page::Idempotence), Page::Transactions);
}

#[wasm_bindgen_test]
fn keys_do_not_fire_while_typing() {
    assert_eq!(
        key_msg("ArrowLeft", false, false, false),
        Some(Msg::Travel(Travel::Back))
    );
    assert_eq!(
        key_msg("ArrowRight", false, false, false),
        Some(Msg::Travel(Travel::Forward))
    );
    assert_eq!(key_msg(" ", false, false, false), Some(Msg::TogglePlay));
    assert_eq!(
        key_msg("?", false, false, false),
        Some(Msg::Open(Panel::Shortcuts(true)))
    );
    assert_eq!(key_msg("ArrowLeft", true, false, false), None);
    assert_eq!(key_msg(" ", true, false, false), None);
    assert_eq!(key_msg("?", true, false, false), None);
    assert_eq!(
        key_msg(" ", false, true, false),
        None,
        "space presses a button"
    );
    assert_eq!(key_msg("ArrowLeft", false, false, true), None);
    assert_eq!(
        key_msg("Escape", true, false, false),
        Some(Msg::Open(Panel::Shortcuts(false)))
    );
}

// ---- Embedding: URL options and host messages ----

use eos_playground::ui::embed::{
    host_command, parse_options, HostCommand, HostMessage, Rejection, MAX_MESSAGE_BYTES,
};

const OWN: &str = "https://course.example";

fn msg(kind: &str) -> HostMessage {
    HostMessage {
        kind: Some(kind.into()),
        ..HostMessage::default()
    }
}

fn command(m: &HostMessage) -> Result<HostCommand, Rejection> {
    host_command(OWN, OWN, &[], 100, Some(m))
}

#[wasm_bindgen_test]
fn url_options_are_read() {
    let o = parse_options(
        "?embed=1&lesson=fencing&step=3&page=transactions&panels=log,%20bogus,events&origins=https%3A%2F%2Fa.example,https://b.example",
    );
    assert!(o.embed);
    assert_eq!(o.lesson.as_deref(), Some("fencing"));
    assert_eq!(o.step, Some(3));
    assert_eq!(o.page, Some(Page::Transactions));
    assert_eq!(
        o.panels,
        vec!["log", "events"],
        "unknown panels are left out"
    );
    assert_eq!(o.origins, vec!["https://a.example", "https://b.example"]);
    let d = parse_options("");
    assert!(!d.embed);
    assert_eq!(d.panels, vec!["lesson", "verdict", "log", "events"]);
    // Hostile values do not panic.
    let h = parse_options("?step=-1&embed=%&panels=%zz,,,&lesson=%E2%82");
    assert_eq!(h.step, None);
}

#[wasm_bindgen_test]
fn host_commands_are_understood() {
    let mut next = msg("eos:step");
    next.direction = Some("next".into());
    assert_eq!(command(&next), Ok(HostCommand::Next));
    let mut prev = msg("eos:step");
    prev.direction = Some("prev".into());
    assert_eq!(command(&prev), Ok(HostCommand::Prev));
    let mut to = msg("eos:step");
    to.to = Some(4.0);
    assert_eq!(command(&to), Ok(HostCommand::To(4)));
    let mut lesson = msg("eos:load");
    lesson.lesson = Some("fencing".into());
    assert_eq!(
        command(&lesson),
        Ok(HostCommand::LoadLesson("fencing".into()))
    );
    let mut scenario = msg("eos:load");
    scenario.scenario = Some("topic create t".into());
    assert_eq!(
        command(&scenario),
        Ok(HostCommand::LoadScenario("topic create t".into()))
    );
    assert_eq!(command(&msg("eos:reset")), Ok(HostCommand::Reset));
}

#[wasm_bindgen_test]
fn hostile_host_messages_are_refused_with_a_reason() {
    let reset = msg("eos:reset");
    // Another origin, unless allowed.
    let r = host_command("https://evil.example", OWN, &[], 10, Some(&reset));
    assert_eq!(r, Err(Rejection::Origin("https://evil.example".into())));
    assert!(r.unwrap_err().to_string().contains("origins="));
    let allowed = vec!["https://lms.example".to_string()];
    assert_eq!(
        host_command("https://lms.example", OWN, &allowed, 10, Some(&reset)),
        Ok(HostCommand::Reset)
    );
    assert!(host_command("null", OWN, &allowed, 10, Some(&reset)).is_err());
    // Too large.
    assert_eq!(
        host_command(OWN, OWN, &[], MAX_MESSAGE_BYTES + 1, Some(&reset)),
        Err(Rejection::TooLarge(MAX_MESSAGE_BYTES + 1))
    );
    assert_eq!(
        host_command(OWN, OWN, &[], usize::MAX, Some(&reset)),
        Err(Rejection::TooLarge(usize::MAX))
    );
    // Not an object, no type, unknown type.
    assert_eq!(
        host_command(OWN, OWN, &[], 5, None),
        Err(Rejection::NotObject)
    );
    assert_eq!(
        command(&HostMessage::default()),
        Err(Rejection::UnknownType(None))
    );
    assert_eq!(
        command(&msg("eos:explode")),
        Err(Rejection::UnknownType(Some("eos:explode".into())))
    );
    // Bad fields.
    let mut both = msg("eos:step");
    both.direction = Some("next".into());
    both.to = Some(1.0);
    assert!(matches!(command(&both), Err(Rejection::BadField(_))));
    for bad in [-1.0, 1.5, f64::NAN, f64::INFINITY, 1e300] {
        let mut to = msg("eos:step");
        to.to = Some(bad);
        assert!(matches!(command(&to), Err(Rejection::BadField(_))), "{bad}");
    }
    let mut sideways = msg("eos:step");
    sideways.direction = Some("sideways".into());
    assert!(matches!(command(&sideways), Err(Rejection::BadField(_))));
    assert!(matches!(
        command(&msg("eos:load")),
        Err(Rejection::BadField(_))
    ));
}

#[wasm_bindgen_test]
fn a_host_scenario_plays_in_the_lesson_player() {
    let s = Rc::new(AppState::default());
    let s = s.reduce(Msg::LoadScenario {
        title: "mine".into(),
        source: "topic create t\nproducer p create\n".into(),
    });
    assert_eq!(s.position(), (0, 2));
    let s = s
        .reduce(Msg::Travel(Travel::Forward))
        .reduce(Msg::Travel(Travel::Forward));
    assert_eq!(s.position(), (2, 2));
    let s = s.reduce(Msg::Travel(Travel::Back));
    assert_eq!(s.position(), (1, 2));
    let bad = s.reduce(Msg::LoadScenario {
        title: "bad".into(),
        source: "topic create t\nproducer p frobnicate\n".into(),
    });
    let error = bad.notices.file_error.clone().unwrap_or_default();
    assert!(error.starts_with("bad: line 2, column"), "{error}");
    assert_eq!(bad.position(), (1, 2), "nothing else was loaded");
}

// ---- Share links ----

use eos_playground::scenario::share::{self, SharedState};

#[wasm_bindgen_test]
fn a_link_restores_the_timeline_exactly() {
    let s = Rc::new(AppState::default());
    let s = send(send(send(s, &["a"]), &["b"]), &["c"]);
    let s = s.reduce(Msg::Travel(Travel::Back));
    let shown = fingerprint(&s);
    let link = s.share_link().expect("a link");

    let mut fresh = AppState::default();
    fresh.open_link(&link);
    assert_eq!(fresh.notices.link_error, None);
    assert_eq!(fingerprint(&fresh), shown, "the same world");
    let h = &fresh.page_state(Page::Idempotence).history;
    assert_eq!(h.entries.len(), 3, "the same actions, the future too");
    assert_eq!(h.cursor, 2);
    assert_eq!(
        h.entries[2].text,
        s.page_state(Page::Idempotence).history.entries[2].text
    );
}

#[wasm_bindgen_test]
fn a_link_restores_a_lesson_at_its_step() {
    let s = Rc::new(AppState::new(Page::Transactions, None));
    let fencing = eos_playground::scenario::lessons()
        .iter()
        .position(|l| l.name == "fencing")
        .expect("the fencing lesson");
    let s = s.reduce(Msg::LoadLesson(Some(fencing)));
    let s = s
        .reduce(Msg::Travel(Travel::Forward))
        .reduce(Msg::Travel(Travel::Forward))
        .reduce(Msg::Travel(Travel::Forward));
    let link = s.share_link().expect("a link");
    let mut fresh = AppState::default();
    fresh.open_link(&link);
    assert_eq!(fresh.page, Page::Transactions);
    assert_eq!(fresh.position(), s.position());
    let a = fresh.with_world(fresh.page, |w| w.fingerprint());
    let b = s.with_world(s.page, |w| w.fingerprint());
    assert_eq!(a, b);
    assert_eq!(
        fresh.lesson.borrow().as_ref().and_then(|l| l.index),
        Some(fencing)
    );
}

/// A bad link loads nothing: the default playground stays, and the message says why.
fn refused(link: &str, needle: &str) {
    let mut state = AppState::default();
    let before = fingerprint(&state);
    state.open_link(link);
    let error = state
        .notices
        .link_error
        .clone()
        .unwrap_or_else(|| panic!("{link:.40} was accepted"));
    assert!(error.contains(needle), "{needle:?} not in {error:?}");
    assert_eq!(fingerprint(&state), before);
    assert!(!state.lesson_loaded());
    assert!(state
        .page_state(Page::Idempotence)
        .history
        .entries
        .is_empty());
}

#[wasm_bindgen_test]
fn hostile_links_are_refused_with_a_reason() {
    let good = share::encode(&SharedState {
        scenario: "topic create t\nproducer p create\n".into(),
        step: 1,
        page: "idempotence".into(),
        panel: None,
        lang: None,
        lesson: None,
    })
    .expect("encodes");
    refused(&"1.".repeat(20_000), "characters long");
    refused("1.abc$def", "malformed");
    refused("nonsense", "malformed");
    refused(&good[..good.len() - 6], "");
    refused(&format!("9{}", &good[1..]), "another version");
    let mut flipped = good.clone().into_bytes();
    let last = flipped.len() - 2;
    flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
    refused(&String::from_utf8(flipped).expect("ascii"), "");
    let too_far = share::encode(&SharedState {
        scenario: "topic create t\n".into(),
        step: 0,
        page: "idempotence".into(),
        panel: None,
        lang: None,
        lesson: None,
    })
    .expect("encodes");
    // A good link still opens after all that.
    let mut state = AppState::default();
    state.open_link(&too_far);
    assert_eq!(state.notices.link_error, None);
}

#[wasm_bindgen_test]
fn a_view_too_long_for_a_link_says_so_and_keeps_everything() {
    // Values that do not compress: an xorshift's digits, 60 actions of 300 characters.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut s = Rc::new(AppState::default());
    for _ in 0..60 {
        let value: String = (0..300)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                char::from(b'a' + (x % 26) as u8)
            })
            .collect();
        s = send(s, &[&value]);
    }
    let shown = fingerprint(&s);
    let err = s.share_link().expect_err("too long for a URL");
    assert!(err.contains("characters long"), "{err}: names the length");
    let s = s.reduce(Msg::Link(LinkMsg::Refused(err)));
    assert_eq!(s.notices.link, None);
    assert!(s
        .notices
        .link_refused
        .as_deref()
        .is_some_and(|w| w.contains("at most")));
    assert_eq!(fingerprint(&s), shown, "nothing changed");
    assert_eq!(
        s.page_state(Page::Idempotence).history.entries.len(),
        60,
        "no action dropped"
    );
    let s = s.reduce(Msg::Link(LinkMsg::Close));
    assert_eq!(s.notices.link_refused, None);
}

#[wasm_bindgen_test]
fn a_link_reopens_the_partition_and_batch_that_were_open() {
    use eos_playground::log::TopicPartition;
    use eos_playground::ui::link::OpenPanel;
    let s = send(send(Rc::new(AppState::default()), &["a"]), &["b"]);
    let tp = TopicPartition::new("orders", 0);
    let s = s
        .reduce(Msg::Open(Panel::Partition(tp.clone())))
        .reduce(Msg::Open(Panel::Batch(Some((0, 61)))));
    let shared = s.shared_state().expect("a state");
    assert_eq!(
        shared.panel.as_deref(),
        Some("partition=orders-0;batch=0:61")
    );
    let mut fresh = AppState::default();
    fresh.open_link(&share::encode(&shared).expect("encodes"));
    assert_eq!(fresh.notices.link_error, None);
    assert_eq!(fresh.panels.selected_tp, Some(tp.clone()));
    assert_eq!(fresh.panels.selected_batch, Some((0, 61)));
    assert_eq!(fingerprint(&fresh), fingerprint(&s));

    // Print and parse round-trip; a part this version does not know is refused whole.
    let panel = OpenPanel {
        lesson: true,
        partition: Some(tp),
        batch: Some((7, 0)),
    };
    assert_eq!(OpenPanel::parse(&panel.print().expect("text")), Ok(panel));
    assert_eq!(OpenPanel::parse(""), Ok(OpenPanel::default()));
    for bad in [
        "coordinator",
        "batch=1",
        "batch=x:1",
        "partition=orders",
        "lesson=1",
    ] {
        assert!(OpenPanel::parse(bad).is_err(), "{bad}");
        let link = share::encode(&SharedState {
            panel: Some(bad.into()),
            lang: None,
            ..shared.clone()
        })
        .expect("encodes");
        refused(&link, "panel part");
    }
}

#[wasm_bindgen_test]
fn an_action_the_language_cannot_write_refuses_the_link_instead_of_dropping_it() {
    use eos_playground::log::{FetchIsolation, TopicPartition};
    use eos_playground::protocol::Request;
    let s = send(Rc::new(AppState::default()), &["a"]);
    // A Fetch with a max_bytes the `raw fetch` line has no word for (no click makes one).
    s.pages[Page::Idempotence.index()]
        .borrow_mut()
        .history
        .record(vec![Action::RawRequest {
            broker: None,
            request: Request::Fetch {
                topic_partition: TopicPartition::new("orders", 0),
                fetch_offset: 0,
                max_bytes: 7,
                isolation: FetchIsolation::HighWatermark,
                current_leader_epoch: -1,
            },
        }]);
    let why = s.share_link().expect_err("no link without every action");
    assert!(why.starts_with("action 2 ("), "{why}");
    assert!(why.ends_with("cannot be written as scenario text"), "{why}");
}

/// A refused line of a lesson file (the editor, "open a file", the embed API) or of a
/// share link's scenario is told in the page's language, at its line; the editor marks
/// that line whatever the language.
#[wasm_bindgen_test]
fn a_refused_line_is_told_in_the_page_language() {
    use eos_playground::i18n::{catalog::install, set_ui_lang, Lang};
    use eos_playground::ui::editor::error_line;
    use eos_playground::ui::state::{lesson_file_error, parse_lesson};
    let _ = install(Lang::Ko, include_str!("../src/i18n/catalog/ko.txt"));
    let _ = install(Lang::Th, include_str!("../src/i18n/catalog/th.txt"));
    let bad = "topic create t\nproducer p frobnicate\n";
    let link = share::encode(&SharedState {
        scenario: bad.into(),
        step: 1,
        page: "idempotence".into(),
        panel: None,
        lang: None,
        lesson: None,
    })
    .expect("encodes");
    let words = |lang: Lang| {
        set_ui_lang(lang);
        let e = parse_lesson(bad).expect_err("refused");
        let mut state = AppState::default();
        state.open_link(&link);
        let opened = state.notices.link_error.clone().unwrap_or_default();
        (error_line(&e), lesson_file_error(&e), opened)
    };
    let (en, ko, th) = (words(Lang::En), words(Lang::Ko), words(Lang::Th));
    // Back to English before asserting, so a failure here leaves the other tests alone.
    set_ui_lang(Lang::En);
    assert_eq!(
        en.1,
        "line 2, column 12: unknown producer command `frobnicate`"
    );
    assert_eq!(
        ko.1,
        "2행 12열: producer에는 `frobnicate`라는 명령이 없습니다"
    );
    assert_eq!(th.1, "บรรทัด 2 คอลัมน์ 12: producer ไม่มีคำสั่ง `frobnicate`");
    for (line, _, _) in [&en, &ko, &th] {
        assert_eq!(*line, Some(2));
    }
    assert_eq!(
        en.2,
        format!("the scenario in the link does not parse: {}", en.1)
    );
    assert_eq!(
        ko.2,
        format!("링크에 담긴 시나리오를 읽을 수 없습니다({})", ko.1)
    );
    assert_eq!(th.2, format!("อ่าน scenario ในลิงก์ไม่ได้ ({})", th.1));
}
