#![cfg(not(target_arch = "wasm32"))]
//! Cracks found by trying hostile input: a share link is input, so the engine must never
//! panic or hang on any of these, and bad input gets a clear error (Kafka's where Kafka
//! has one) and changes nothing.

use eos_playground::scenario;
use eos_playground::sim::{Action, ClusterConfig, World};

/// Runs a scenario to the end; returns its transcript or the error of the step that
/// failed (with its line).
fn run(source: &str) -> Result<Vec<String>, String> {
    scenario::transcript(source)
}

#[test]
fn a_65536_character_transactional_id_prints() {
    let id = "x".repeat(65_536);
    let out = run(&format!(
        "topic create t\nproducer p create transactional.id={id}\nproducer p init-transactions\n\
         print transactions\nprint describe-transaction {id}\n"
    ))
    .unwrap();
    assert!(out.iter().any(|l| l.contains(&id)), "the id is printed");
}

#[test]
fn a_far_future_run_jumps_to_the_next_due_timer() {
    let mut w = World::new(ClusterConfig::default());
    w.apply(&Action::CreateTopic {
        name: "t".into(),
        partitions: 1,
        configs: vec![],
    })
    .unwrap();
    // 2^31 - 1 ms with nothing to do: no cleanup tick can change anything, so the world
    // jumps to the end at once rather than stepping every 10 s of logical time.
    let steps = w.advance(i64::from(i32::MAX));
    assert!(steps < 10, "{steps} steps");
    let out = run(
        "topic create t\nproducer p create transactional.id=a\nproducer p init-transactions\n\
         run 2147483647\nrun 2147483647\nproducer p begin\nproducer p send t-0 a\nrun\n\
         print offsets t-0\n",
    )
    .unwrap();
    assert!(out.iter().any(|l| l.contains("high watermark")), "{out:?}");
}

#[test]
fn an_open_transaction_still_times_out_during_a_long_run() {
    let out = run(
        "topic create t\nproducer p create transactional.id=a\nproducer p init-transactions\n\
         producer p begin\nproducer p send t-0 a\nrun\nrun 2147483647\nprint txn-states a\n",
    )
    .unwrap();
    let states = out.last().unwrap();
    assert!(states.contains("PrepareAbort"), "{states}");
    assert!(states.contains("CompleteAbort"), "{states}");
}

#[test]
fn int_settings_refuse_values_beyond_int() {
    for (source, needle) in [
        (
            "cluster brokers=1 latency.ms=9223372036854775807\n",
            "Invalid value 9223372036854775807 for configuration latency.ms: Not a number of type INT (it takes 0 to 2147483647)",
        ),
        (
            "cluster brokers=1 latency.ms=2147483648\n",
            "Not a number of type INT (it takes 0 to 2147483647)",
        ),
        (
            "cluster transaction.state.log.num.partitions=0\n",
            "Invalid value 0 for configuration transaction.state.log.num.partitions: Value must be at least 1",
        ),
        (
            "cluster offsets.topic.num.partitions=100000\n",
            "Invalid value 100000 for configuration offsets.topic.num.partitions: Value must be no more than 50",
        ),
        // Kafka's ConfigDef: `Type.INT`, so a larger value is not a number of that type.
        (
            "producer p create request.timeout.ms=9223372036854775807\n",
            "Invalid value 9223372036854775807 for configuration request.timeout.ms: Not a number of type INT",
        ),
        (
            "producer p create request.timeout.ms=2147483648\n",
            "Invalid value 2147483648 for configuration request.timeout.ms: Not a number of type INT",
        ),
        ("run 9223372036854775807\n", "run takes 0 to 2147483647 ms"),
        ("run 2147483648\n", "run takes 0 to 2147483647 ms"),
    ] {
        let err = run(source).unwrap_err();
        assert!(err.contains(needle), "{source}: {err}");
    }
    // retry.backoff.ms is a long in Kafka's ProducerConfig: i64::MAX is accepted and
    // nothing overflows when it is used.
    let out = run(
        "topic create t\nproducer p create retry.backoff.ms=9223372036854775807 request.timeout.ms=2147483647\n\
         drop next-response to=p\nproducer p send t-0 a\nrun\nrun 2147483647\nprint leo t-0\n",
    )
    .unwrap();
    assert!(!out.is_empty());
}

#[test]
fn a_negative_sequence_with_a_producer_id_is_an_invalid_record() {
    for seq in ["-1", "-2147483648"] {
        let out = run(&format!(
            "topic create t\nraw init-producer-id\nraw produce t-0 pid=last seq={seq} a\n\
             print leo t-0\nprint window t-0\n"
        ))
        .unwrap();
        let joined = out.join("\n");
        assert!(joined.contains("error=INVALID_RECORD"), "{joined}");
        assert!(
            joined.contains("log end offset 0")
                || joined.contains("LEO 0")
                || joined.contains(": 0"),
            "{joined}"
        );
        assert!(
            !joined.contains("2147483647.."),
            "no window from a refused batch: {joined}"
        );
    }
}

#[test]
fn topic_names_dot_and_dot_dot_are_invalid() {
    for (name, why) in [(".", "'.' is not allowed"), ("..", "'..' is not allowed")] {
        let err = run(&format!("topic create {name}\n")).unwrap_err();
        assert!(err.contains("INVALID_TOPIC_EXCEPTION"), "{err}");
        assert!(err.contains(why), "{err}");
    }
}

#[test]
fn a_run_stopped_by_the_step_limit_says_so() {
    // Each producer needs InitProducerId and a Produce: more than one run's steps. The
    // run says it was cut short, and running again goes on; the cost of a step does not
    // grow with the number of idle producers (this ran for minutes when it did).
    let mut source = String::from("topic create t\n");
    for i in 0..4000 {
        source.push_str(&format!(
            "producer p{i} create\nproducer p{i} send t-0 v{i}\n"
        ));
    }
    source.push_str("run\nprint leo t-0\nrun\nrun\nrun\nprint leo t-0\n");
    let out = run(&source).unwrap();
    let notes: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("note: the run stopped at its limit of 20000 steps"))
        .collect();
    assert!(!notes.is_empty(), "{:?}", &out[..out.len().min(5)]);
    assert_eq!(out.last().unwrap(), "log end offset 4000", "{:?}", out);
}

#[test]
fn a_rejected_send_shows_its_error_as_the_callback_would() {
    let out = run(
        "topic create t max.message.bytes=200\nproducer p create\n\
         producer p send t-0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n\
         run\n",
    )
    .unwrap();
    let joined = out.join("\n");
    assert!(
        joined.contains("MESSAGE_TOO_LARGE") || joined.contains("RecordTooLargeException"),
        "{joined}"
    );
}

#[test]
fn batch_size_closes_a_batch() {
    // batch.size (16384 by default): a batch is closed once it holds that many bytes,
    // so 2,000 sends of 100 bytes become several batches, not one of 200 KB.
    let mut source = String::from("topic create t\nproducer p create\n");
    let value = "v".repeat(100);
    for _ in 0..2000 {
        source.push_str(&format!("producer p send t-0 {value}\n"));
    }
    source.push_str("run\nprint dump-log t-0 fields=count,size\n");
    let out = run(&source).unwrap();
    let batches: Vec<&String> = out.iter().filter(|l| l.contains("count:")).collect();
    assert!(batches.len() > 10, "{} batch(es)", batches.len());
    for b in batches {
        let size: usize = b.rsplit("size: ").next().unwrap().trim().parse().unwrap();
        assert!(size <= 16_384 + 200, "{b}");
    }
}

/// A reader that goes away (`eos run … | head -c1`) ends the output quietly: no panic on
/// the broken pipe, on stdout or stderr.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("eos-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long.eos");
    std::fs::write(
        &file,
        "echo a line of some length, again and again\n".repeat(20_000),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_eos"))
        .arg("run")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("eos starts");
    let mut first = [0u8; 1];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("one byte");
    // stdout is closed now: the rest of the output has nowhere to go.
    let out = child.wait_with_output().expect("eos ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

/// `eos chaos` caps its runs as it caps its steps: a mistyped count is refused at once.
#[cfg(feature = "checker")]
#[test]
fn chaos_runs_are_capped() {
    for args in [
        &["chaos", "--seed", "1", "--runs", "18446744073709551615"][..],
        &["chaos", "--seeds", "1..5000000"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_eos"))
            .args(args)
            .output()
            .expect("eos runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("at most 1000000"), "{stderr}");
    }
}

/// `fault disarm` nested 15,000 deep (what a long share link can hold) is refused with
/// its line and column, not a stack overflow; one level still parses.
#[test]
fn nested_disarm_is_refused_without_recursing() {
    let deep = format!("fault {}drop api=Produce every\n", "disarm ".repeat(15_000));
    let e = scenario::parse(&deep).expect_err("refused");
    assert_eq!((e.line, e.column), (1, 14), "{e}");
    assert!(e.message.contains("expected an armed fault"), "{e}");
    assert!(scenario::parse("fault disarm drop api=Produce every\n").is_ok());
    assert!(scenario::parse("fault disarm clear\n").is_err());
}

/// A fault on an API that does not exist would be armed and never strike: refused, with
/// the names it could be.
#[test]
fn a_mistyped_api_is_refused() {
    for line in [
        "fault drop api=Prodcue every",
        "fault delay 100 api=Bogus",
        "fault hold api=Nope",
        "fault hold-requests api=Prodcue",
        "fault release api=Prodcue",
        "fault error api=Bogus NOT_COORDINATOR",
    ] {
        let e = scenario::parse(&format!("{line}\n")).expect_err(line);
        assert!(e.message.contains("unknown API"), "{line}: {e}");
        assert!(e.message.contains("Produce"), "{line}: {e}");
    }
    assert!(scenario::parse("fault drop api=Produce every\n").is_ok());
}

/// Options that were ignored in silence are refused with their column: a raw fetch's
/// offset that is no number or too large, a mistyped option, a second broker setting.
#[test]
fn ignored_options_are_refused() {
    for (line, says) in [
        ("raw fetch t-0 offset=abc", "offset"),
        ("raw fetch t-0 offset=99999999999999999999", "offset"),
        ("raw fetch t-0 ofset=3", "unknown option `ofset`"),
        (
            "raw end-txn txn=x pid=0 epoch=0 comit=1 commit",
            "unknown option `comit`",
        ),
        (
            "broker config max.message.bytes=64 segment.bytes=1024",
            "one KEY=VALUE a line",
        ),
    ] {
        let e = scenario::parse(&format!("topic create t\n{line}\n")).expect_err(line);
        assert_eq!(e.line, 2, "{line}");
        assert!(e.message.contains(says), "{line}: {e}");
    }
    assert!(scenario::parse("topic create t\nraw fetch t-0 offset=3 broker=1\n").is_ok());
    assert!(scenario::parse("broker config max.message.bytes=64\n").is_ok());
}

/// A negative offset to commit is refused as Kafka's `OffsetAndMetadata` refuses it,
/// instead of being reported as sent.
#[test]
fn a_negative_offset_to_commit_is_refused() {
    let e = scenario::parse("producer p send-offsets group=g t-0=-5\n").expect_err("negative");
    assert!(e.message.contains("Invalid negative offset"), "{e}");
    assert!(scenario::parse("producer p send-offsets group=g t-0=5\n").is_ok());
}

/// Cutting a link to a broker the cluster does not have is refused (it was accepted and
/// did nothing).
#[test]
fn a_cut_to_a_missing_broker_is_refused() {
    let err = run("cluster brokers=1\nfault cut p broker-7\n").expect_err("no broker 7");
    assert!(err.contains('7'), "{err}");
    assert!(run("cluster brokers=3\nfault cut p broker-3\n").is_ok());
}

/// docs/scenarios.md lists every setting as the parser's table defines it: the table
/// between the markers is the code's, row for row.
#[test]
fn the_settings_table_in_the_docs_is_the_code_table() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md"))
        .expect("docs/scenarios.md");
    let start = doc.find("<!-- config-table").expect("start marker");
    let start = start + doc[start..].find('\n').expect("line end") + 1;
    let end = doc.find("<!-- /config-table -->").expect("end marker");
    let expected = eos_playground::client::config_def::doc_table();
    assert!(
        doc[start..end] == expected,
        "docs/scenarios.md's settings table differs from the code's; it should read:\n{expected}"
    );
}
