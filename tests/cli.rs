#![cfg(not(target_arch = "wasm32"))]
//! The `eos` command line: listing, transcripts, scenario files and export.

use eos_playground::cli;

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("eos-cli-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn lists_lessons() {
    let out = cli::run(&args(&["lessons"])).unwrap();
    // In course order, the Pulsar lessons included, each with its minutes.
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let course: Vec<&str> = eos_playground::scenario::course::course_lessons()
        .map(|l| l.name)
        .collect();
    assert_eq!(names, course, "{out}");
    assert!(names.contains(&"pulsar-transactions"), "{out}");
    assert!(out.contains("idempotence                  9 min"), "{out}");
}

#[test]
fn lists_the_course_for_scripts() {
    let out = cli::run(&args(&["lessons", "--tsv"])).unwrap();
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    let course: Vec<&str> = eos_playground::scenario::course::course_lessons()
        .map(|l| l.name)
        .collect();
    assert_eq!(
        rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
        course,
        "{out}"
    );
    for r in &rows {
        assert_eq!(
            r.len(),
            11,
            "name, site, module, minutes, questions, 3 titles, 3 module titles: {r:?}"
        );
        assert!(r.iter().all(|f| !f.is_empty()), "{r:?}");
    }
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap().clone();
    assert_eq!(&row("idempotence")[1..4], &["kafka", "idempotence", "9"]);
    assert_eq!(&row("pulsar-tc-crash")[1..3], &["pulsar", "pulsar"]);
    // The count is the lesson's `?` questions, as `eos questions` checks them.
    let source = eos_playground::scenario::lesson("idempotence")
        .unwrap()
        .source;
    let asked = source
        .lines()
        .filter(|l| l.starts_with("? ") && !l.starts_with("? ["))
        .count();
    assert!(asked >= 3);
    assert_eq!(row("idempotence")[4], asked.to_string());
    assert_eq!(row("idempotence")[8], "The idempotent producer");
    assert_ne!(
        row("idempotence")[6],
        row("idempotence")[5],
        "a Korean title"
    );
}

#[test]
fn unknown_lesson_is_a_clear_error() {
    let err = cli::run(&args(&["lesson", "nope"])).unwrap_err();
    assert!(err.contains("no lesson named nope"), "{err}");
}

#[test]
fn export_writes_kafkas_layout() {
    let dir = temp_dir("export");
    let out = cli::run(&args(&[
        "lesson",
        "idempotence",
        "--export",
        dir.to_str().unwrap(),
    ]))
    .unwrap();
    assert!(out.contains("exported"), "{out}");
    let part = dir.join("orders-0");
    for f in [
        "00000000000000000000.log",
        "00000000000000000000.index",
        "00000000000000000000.timeindex",
    ] {
        assert!(part.join(f).exists(), "{f} missing");
    }
    // The exported .log holds the six batches, byte for byte decodable.
    let bytes = std::fs::read(part.join("00000000000000000000.log")).unwrap();
    let batches = eos_playground::record::decode_all(&bytes).unwrap();
    assert_eq!(batches.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_reports_parse_errors_with_line_and_column() {
    let dir = temp_dir("parse");
    let file = dir.join("bad.eos");
    std::fs::write(&file, "topic create t\nraw produce t-0 pid=abc seq=0 a\n").unwrap();
    let err = cli::run(&args(&["run", file.to_str().unwrap()])).unwrap_err();
    assert!(err.contains("line 2, column 17"), "{err}");
    std::fs::write(&file, "topic create t\nproducer p create\nproducer p send t-0 a b\nproducer p flush\nprint dump-log t-0 fields=baseOffset,count\n").unwrap();
    let out = cli::run(&args(&["run", file.to_str().unwrap(), "--verbose"])).unwrap();
    assert!(out.contains("baseOffset: 0 count: 2"), "{out}");
    assert!(out.contains("acknowledged at baseOffset=0"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A refused line is told in the learner's language, with its place and the scenario's
/// own words (the command, the option, Kafka's names) as written; English stays as it was.
#[test]
fn a_refused_line_is_told_in_the_chosen_language() {
    let dir = temp_dir("parse-lang");
    let file = dir.join("bad.eos");
    let path = file.to_str().unwrap();
    std::fs::write(
        &file,
        "topic create t
producer p frobnicate
",
    )
    .unwrap();
    let run = |lang: &str| cli::run(&args(&["run", path, "--lang", lang])).unwrap_err();
    assert_eq!(
        run("en"),
        format!("{path}: line 2, column 12: unknown producer command `frobnicate`")
    );
    assert_eq!(
        run("ko"),
        format!("{path}: 2행 12열: producer에는 `frobnicate`라는 명령이 없습니다")
    );
    assert_eq!(
        run("th"),
        format!("{path}: บรรทัด 2 คอลัมน์ 12: producer ไม่มีคำสั่ง `frobnicate`")
    );
    // Nested words (what was expected, the choices) are in the language too, and the
    // particles after them agree with how a Korean reader says them.
    std::fs::write(
        &file,
        "broker 1
",
    )
    .unwrap();
    assert_eq!(
        run("ko"),
        format!("{path}: 1행 9열: 여기에는 restart, stop 또는 start가 와야 합니다")
    );
    assert_eq!(
        run("th"),
        format!("{path}: บรรทัด 1 คอลัมน์ 9: ตรงนี้ต้องมี restart, stop หรือ start")
    );
    std::fs::write(
        &file,
        "topic create t
print dump-log
",
    )
    .unwrap();
    assert_eq!(
        run("ko"),
        format!("{path}: 2행 15열: 여기에는 `orders-0` 같은 파티션이 와야 합니다")
    );
    assert_eq!(
        run("en"),
        format!("{path}: line 2, column 15: expected a partition like `orders-0`")
    );
    // A number out of range keeps the option's name as written.
    std::fs::write(
        &file,
        "raw produce t-0 pid=abc seq=0 a
",
    )
    .unwrap();
    assert_eq!(
        run("ko"),
        format!("{path}: 1행 17열: pid는 숫자여야 하는데 `abc`가 왔습니다")
    );
    std::fs::write(&file, "broker x restart\n").unwrap();
    assert_eq!(
        run("en"),
        format!("{path}: line 1, column 8: broker id must be a number, got `x`")
    );
    assert_eq!(
        run("ko"),
        format!("{path}: 1행 8열: 브로커 번호는 숫자여야 하는데 `x`가 왔습니다")
    );
    assert_eq!(
        run("th"),
        format!("{path}: บรรทัด 1 คอลัมน์ 8: หมายเลข broker ต้องเป็นตัวเลข แต่ได้ `x`")
    );
    // A step the engine refuses is told in the language too, after Kafka's error name.
    std::fs::write(&file, "topic create t\nraw produce nope-0 pid=1 seq=0 a\n").unwrap();
    let ko = run("ko");
    assert!(
        ko.starts_with(&format!("{path}: 2행: UNKNOWN_TOPIC_OR_PARTITION")),
        "{ko}"
    );
    assert!(!ko.contains("line 2"), "{ko}");
    let th = run("th");
    assert!(
        th.starts_with(&format!("{path}: บรรทัด 2: UNKNOWN_TOPIC_OR_PARTITION")),
        "{th}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_action_error_names_the_line() {
    let dir = temp_dir("action");
    let file = dir.join("bad.eos");
    std::fs::write(&file, "topic create t\nraw produce nope-0 pid=1 seq=0 a\n").unwrap();
    let err = cli::run(&args(&["run", file.to_str().unwrap()])).unwrap_err();
    assert!(
        err.contains("line 2") && err.contains("UNKNOWN_TOPIC_OR_PARTITION"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_link_made_from_a_file_opens_back_into_the_same_scenario() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/static/lessons/fencing.eos");
    let source = std::fs::read_to_string(file).unwrap();
    let made = cli::run(&args(&[
        "link",
        "--make",
        file,
        "--step",
        "3",
        "--page",
        "transactions",
    ]))
    .unwrap();
    let fragment = made.trim_end();
    // A built-in lesson's own file is named, not carried (link version 3).
    assert!(fragment.starts_with("#3."), "{made}");
    assert!(fragment.len() < 100, "{made}");
    assert_eq!(made.lines().count(), 1);

    // A whole URL works as well as the fragment.
    let url = format!("https://course.example/eos/index.html{fragment}");
    let out = cli::run(&args(&["link", &url])).unwrap();
    let (header, scenario) = out.split_once('\n').unwrap();
    assert_eq!(
        header,
        "# A share link of the transactions page, at step 3 (open: lesson), in English (en), lesson fencing."
    );
    assert_eq!(scenario, source);
    // What it prints is a scenario file that plays like the lesson.
    let dir = temp_dir("link");
    let saved = dir.join("from-link.eos");
    std::fs::write(&saved, &out).unwrap();
    assert_eq!(
        cli::run(&args(&["run", saved.to_str().unwrap()])).unwrap(),
        cli::run(&args(&["lesson", "fencing"])).unwrap()
    );
}

#[test]
fn bad_links_and_options_say_what_is_wrong() {
    let err = cli::run(&args(&["link", "https://x.example/#1.abc$"])).unwrap_err();
    assert!(err.starts_with("the link: the link is malformed"), "{err}");
    let err = cli::run(&args(&["link", "#7.AAAA"])).unwrap_err();
    assert!(err.contains("another version"), "{err}");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/static/lessons/idempotence.eos"
    );
    let err = cli::run(&args(&["link", "--make", file, "--step", "9999"])).unwrap_err();
    assert!(err.contains("step 9999"), "{err}");
    // A file of one's own is carried whole (version 1), and its steps are lines.
    let own = temp_dir("own-link").join("own.eos");
    std::fs::write(&own, "topic create t\necho a\necho b\n").unwrap();
    let own = own.to_str().unwrap();
    assert!(cli::run(&args(&["link", "--make", own, "--step", "3"]))
        .unwrap()
        .starts_with("#1."));
    let err = cli::run(&args(&["link", "--make", own, "--step", "4"])).unwrap_err();
    assert!(err.contains("step 4"), "{err}");
    let err = cli::run(&args(&["link", "--make", file, "--page", "nope"])).unwrap_err();
    assert!(err.contains("--page nope"), "{err}");
    assert!(cli::run(&args(&["link"])).is_err());
}

#[test]
fn test_checks_expected_blocks_and_shows_a_diff() {
    let dir = temp_dir("golden");
    let file = dir.join("t.eos");
    std::fs::write(&file, "echo hi\n---\nhi\n").unwrap();
    let path = file.to_str().unwrap();
    let out = cli::run(&args(&["test", path])).unwrap();
    assert!(out.starts_with("ok "), "{out}");
    std::fs::write(&file, "echo hi\n---\nho\n").unwrap();
    let err = cli::run(&args(&["test", path])).unwrap_err();
    assert!(
        err.contains(":2: the output of line 1") && err.contains("-ho\n+hi"),
        "{err}"
    );
    cli::run(&args(&["test", "--update", path])).unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "echo hi\n---\nhi\n"
    );
}

#[test]
fn export_refuses_a_folder_that_is_not_empty() {
    let dir = temp_dir("export-stale");
    std::fs::write(dir.join("stale.log"), b"old").unwrap();
    let err = cli::run(&args(&[
        "lesson",
        "idempotence",
        "--export",
        dir.to_str().unwrap(),
    ]))
    .unwrap_err();
    assert!(err.contains("not empty"), "{err}");
    // Nothing was written beside the stale file.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_clear_error_not_an_abort() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"f\xffile.eos");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_eos"))
        .arg("run")
        .arg(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not valid UTF-8"), "{err}");
}

#[test]
fn lang_chooses_the_narration_language_and_a_bad_one_is_refused() {
    let ko = cli::run(&args(&[
        "lesson",
        "idempotence",
        "--lang",
        "ko",
        "--verbose",
    ]))
    .unwrap();
    assert!(ko.contains("## 브로커 하나와 토픽 하나"), "{ko}");
    assert!(
        ko.contains("브로커 1: InitProducerId → producerId=0 epoch=0"),
        "{ko}"
    );
    let th = cli::run(&args(&["lessons", "--lang", "th"])).unwrap();
    assert!(th.contains("idempotent producer: ของซ้ำ"), "{th}");
    for bad in [
        &["lesson", "idempotence", "--lang", "fr"][..],
        &["lesson", "idempotence", "--lang"],
    ] {
        let err = cli::run(&args(bad)).unwrap_err();
        assert!(err.contains("en, ko or th"), "{err}");
    }
}

/// Every lesson title, step title and narration has its Korean and Thai text: `eos
/// lessons --missing` finds nothing (what it would list is checked on a small scenario
/// in src/scenario/parse/tests.rs).
#[test]
fn every_lesson_is_translated_into_korean_and_thai() {
    for lang in ["ko", "th", "en"] {
        let out = cli::run(&args(&["lessons", "--missing", lang])).unwrap();
        assert_eq!(out, format!("0 missing in {lang}\n"));
    }
}

/// A Pulsar lesson's timeline follows `--lang`, the armed fault included (an event
/// carries the fault itself, and the catalog words it).
#[cfg(feature = "pulsar")]
#[test]
fn a_pulsar_timeline_is_narrated_in_the_chosen_language() {
    let ko = cli::run(&args(&["lesson", "pulsar-tc-crash", "--lang", "ko"])).unwrap();
    assert!(
        ko.contains("장애: EndTxnOnPartition 요청을 풀어 줄 때까지 모두 네트워크에 붙잡아 둡니다"),
        "{ko}"
    );
    assert!(ko.contains("코디네이터 0이 죽습니다"), "{ko}");
    let th = cli::run(&args(&["lesson", "pulsar-tc-crash", "--lang", "th"])).unwrap();
    assert!(th.contains("coordinator 0 ล่ม"), "{th}");
    let en = cli::run(&args(&["lesson", "pulsar-tc-crash"])).unwrap();
    assert!(
        en.contains("fault: hold every EndTxnOnPartition request in the network until released"),
        "{en}"
    );
}

#[test]
fn inspect_reads_an_exported_folder_and_names_damage() {
    let dir = temp_dir("inspect");
    cli::run(&args(&[
        "lesson",
        "transactions",
        "--export",
        dir.to_str().unwrap(),
    ]))
    .unwrap();
    // The whole log folder, and one partition folder alone, read the same.
    let all = cli::run(&args(&["inspect", dir.to_str().unwrap()])).unwrap();
    let part = dir.join("trades-0");
    let one = cli::run(&args(&["inspect", part.to_str().unwrap()])).unwrap();
    assert!(
        one.starts_with("Dumping trades-0/00000000000000000000.log\nLog starting offset: 0\n"),
        "{one}"
    );
    assert!(all.contains(&one[..one.find("\n\n").unwrap()]), "{all}");
    assert!(
        one.contains("endTxnMarker: ABORT coordinatorEpoch: 0"),
        "{one}"
    );
    assert!(one.contains("trades-0: no problems found"), "{one}");
    assert!(
        one.contains(
            "    version: 0 producerId: 0 firstOffset: 4 lastOffset: 7 lastStableOffset: 8\n"
        ),
        "{one}"
    );
    let ko = cli::run(&args(&["inspect", part.to_str().unwrap(), "--lang", "ko"])).unwrap();
    assert!(ko.contains("trades-0: 문제가 없습니다"), "{ko}");
    // A torn write: the last 5 bytes of the segment lost.
    let log = part.join("00000000000000000000.log");
    let bytes = std::fs::read(&log).unwrap();
    std::fs::write(&log, &bytes[..bytes.len() - 5]).unwrap();
    let torn = cli::run(&args(&["inspect", part.to_str().unwrap()])).unwrap();
    let last = eos_playground::record::decode_all(&bytes)
        .unwrap()
        .last()
        .unwrap()
        .0;
    assert!(
        torn.contains(&format!(
            "trades-0/00000000000000000000.log at byte {last}: truncated batch"
        )),
        "{torn}"
    );
    assert!(torn.contains("log end offset 10,"), "{torn}");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(cli::run(&args(&["inspect", dir.to_str().unwrap()])).is_err());
    assert!(cli::run(&args(&["inspect"])).is_err());
}
