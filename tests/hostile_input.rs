#![cfg(not(target_arch = "wasm32"))]
//! Cracks found by trying hostile input: a share link is input, so the engine must never
//! panic or hang on any of these, and bad input gets a clear error (Kafka's where Kafka
//! has one) and changes nothing.

use eos_playground::scenario;
use eos_playground::sim::{Action, ClusterConfig, World};

/// Runs a scenario to the end; returns its transcript or the error of the step that
/// failed (with its line).
fn run(source: &str) -> Result<Vec<String>, String> {
    scenario::transcript(source).map_err(|e| e.to_string())
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
    assert!(e.message().contains("expected an armed fault"), "{e}");
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
        assert!(e.message().contains("unknown API"), "{line}: {e}");
        assert!(e.message().contains("Produce"), "{line}: {e}");
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
        assert!(e.message().contains(says), "{line}: {e}");
    }
    assert!(scenario::parse("topic create t\nraw fetch t-0 offset=3 broker=1\n").is_ok());
    assert!(scenario::parse("broker config max.message.bytes=64\n").is_ok());
}

/// A negative offset to commit is refused as Kafka's `OffsetAndMetadata` refuses it,
/// instead of being reported as sent.
#[test]
fn a_negative_offset_to_commit_is_refused() {
    let e = scenario::parse("producer p send-offsets group=g t-0=-5\n").expect_err("negative");
    assert!(e.message().contains("Invalid negative offset"), "{e}");
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
    let expected = eos_playground::protocol::config_def::doc_table();
    assert!(
        doc[start..end] == expected,
        "docs/scenarios.md's settings table differs from the code's; it should read:\n{expected}"
    );
}

/// Where a key is written, as a scenario line that sets `key=value` (and a step that
/// uses the world after it, so the value is read, not only stored).
fn setting_line(
    place: eos_playground::protocol::config_def::Place,
    key: &str,
    value: &str,
) -> String {
    use eos_playground::protocol::config_def::Place;
    match place {
        Place::Cluster => format!("cluster {key}={value}\ntopic create t\n"),
        Place::Log | Place::Topic => format!("cluster brokers=5\ntopic create t {key}={value}\n"),
        Place::Broker => format!("broker config {key}={value}\ntopic create t\n"),
        Place::Producer => format!("topic create t\nproducer p create {key}={value}\n"),
        Place::Consumer => format!("topic create t\nconsumer c create {key}={value}\n"),
        Place::PulsarCluster => format!("pulsar cluster {key}={value}\npulsar topic create t\n"),
    }
}

/// Every number setting of the ConfigDef table at its type's edges and beyond: the
/// value is accepted exactly when it is a number of the key's type that its validator
/// takes, and refused in Kafka's words otherwise (`Invalid value V for configuration
/// K: …`), naming the bound it broke. Nothing panics.
#[test]
fn every_number_setting_is_read_as_its_configdef_type() {
    use eos_playground::protocol::config_def::{Type, Validator, CONFIG_KEYS};
    for key in CONFIG_KEYS {
        let (lo, hi): (i128, i128) = match key.ty {
            Type::Int => (i32::MIN.into(), i32::MAX.into()),
            Type::Short => (i16::MIN.into(), i16::MAX.into()),
            Type::Long => (i64::MIN.into(), i64::MAX.into()),
            _ => continue,
        };
        let (min, max) = match key.validator {
            Validator::AtLeast(m) => (i128::from(m), hi),
            Validator::Between(a, b) => (i128::from(a), i128::from(b)),
            _ => (lo, hi),
        };
        let mut values: Vec<String> = [lo - 1, lo, min - 1, min, max, max + 1, hi, hi + 1, -1, 0]
            .iter()
            .map(i128::to_string)
            .collect();
        values
            .extend(["99999999999999999999999", "abc", "1.5", "", "0x10", "1e3"].map(String::from));
        for value in &values {
            let source = setting_line(key.place, key.name, value);
            let result = run(&source);
            let in_type = value.parse::<i128>().is_ok_and(|n| (lo..=hi).contains(&n));
            let valid = in_type
                && value
                    .parse::<i128>()
                    .is_ok_and(|n| (min..=max).contains(&n));
            let invalid = format!("Invalid value {value} for configuration {}", key.name);
            match &result {
                Err(e) if !valid => {
                    assert!(e.contains(&invalid), "{source}: {e}");
                    if !in_type {
                        assert!(
                            e.contains(&format!("Not a number of type {}", key.ty.name())),
                            "{e}"
                        );
                    } else if value.parse::<i128>().unwrap() < min {
                        assert!(e.contains(&format!("Value must be at least {min}")), "{e}");
                    } else {
                        assert!(
                            e.contains(&format!("Value must be no more than {max}")),
                            "{e}"
                        );
                    }
                }
                // Accepted by the table: any refusal is a rule beyond the type
                // (a replication factor larger than the cluster), never the type's.
                Err(e) => assert!(!e.contains(&invalid), "{source}: {e}"),
                Ok(_) => assert!(valid, "{source} was accepted"),
            }
        }
    }
}

/// The refusals the table gives, word for word, and the range for a key with both
/// bounds (a learner should not guess them).
#[test]
fn settings_are_refused_in_kafkas_words() {
    for (source, says) in [
        (
            "topic create t segment.bytes=2147483648\n",
            "Invalid value 2147483648 for configuration segment.bytes: Not a number of type INT",
        ),
        (
            "topic create t segment.bytes=-2\n",
            "Invalid value -2 for configuration segment.bytes: Value must be at least 14",
        ),
        (
            "broker config index.interval.bytes=2147483648\n",
            "Invalid value 2147483648 for configuration index.interval.bytes: Not a number of type INT",
        ),
        (
            "topic create t max.message.bytes=2147483648\n",
            "Invalid value 2147483648 for configuration max.message.bytes: Not a number of type INT",
        ),
        (
            "broker config producer.id.expiration.ms=2147483648\n",
            "Invalid value 2147483648 for configuration producer.id.expiration.ms: Not a number of type INT",
        ),
        (
            "producer p create retries=2147483648\n",
            "Invalid value 2147483648 for configuration retries: Not a number of type INT (it takes 0 to 2147483647)",
        ),
        (
            "cluster transaction.version=32768\n",
            "Invalid value 32768 for configuration transaction.version: Not a number of type SHORT (it takes 0 to 2)",
        ),
        (
            "cluster transaction.version=3\n",
            "Invalid value 3 for configuration transaction.version: Value must be no more than 2",
        ),
        (
            "cluster brokers=2147483648\n",
            "Invalid value 2147483648 for configuration brokers: Not a number of type INT (it takes 1 to 5)",
        ),
        (
            "producer p create enable.idempotence=yes\n",
            "Invalid value yes for configuration enable.idempotence: Expected value to be either true or false",
        ),
        (
            "topic create t cleanup.policy=delete,nope\n",
            "Invalid value delete,nope for configuration cleanup.policy: String must be one of: compact, delete",
        ),
        ("topic create t segmnt.bytes=1024\n", "Unknown config segmnt.bytes"),
        ("broker config segmnt.bytes=1024\n", "Unknown config segmnt.bytes"),
        ("cluster brokerz=2\n", "Unknown config brokerz"),
        ("producer p create retriez=1\n", "Unknown producer config retriez"),
        // The `pulsar cluster` line reads its keys through the same table.
        (
            "pulsar cluster brokers=4\n",
            "Invalid value 4 for configuration brokers: Value must be no more than 3",
        ),
        (
            "pulsar cluster coordinators=x\n",
            "Invalid value x for configuration coordinators: Not a number of type INT (it takes 1 to 4)",
        ),
        (
            "pulsar cluster operationTimeoutMs=0\n",
            "Invalid value 0 for configuration operationTimeoutMs: Value must be at least 1",
        ),
        (
            "pulsar cluster transactionCoordinatorEnabled=yes\n",
            "Invalid value yes for configuration transactionCoordinatorEnabled: Expected value to be either true or false",
        ),
        ("pulsar cluster brokerz=2\n", "Unknown config brokerz"),
        // A Kafka cluster key is not a Pulsar one.
        ("pulsar cluster transaction.version=2\n", "Unknown config transaction.version"),
    ] {
        let err = run(source).expect_err(source);
        assert!(err.contains(says), "{source}: {err}");
    }
    // Kafka reads booleans in any case and trims values.
    assert!(run("producer p create enable.idempotence=TRUE\n").is_ok());
    assert!(run("topic create t cleanup.policy=compact,delete segment.bytes=14\n").is_ok());
}

/// A step's number beyond its type is told the type's range, not that it is no number.
#[test]
fn step_numbers_beyond_their_type_name_the_range() {
    for (line, says) in [
        (
            "raw produce t-0 pid=0 seq=2147483648 a",
            "seq takes -2147483648 to 2147483647",
        ),
        (
            "broker 2147483648 restart",
            "broker id takes -2147483648 to 2147483647",
        ),
        ("print events last=-1", "last takes 0 to"),
        (
            "fault delay 9223372036854775807 api=Produce",
            "a delay takes 0 to 2147483647 ms",
        ),
        (
            "fault delay -1 api=Produce",
            "a delay takes 0 to 2147483647 ms",
        ),
        (
            "raw produce t-0 pid=0 seq=abc a",
            "seq must be a number, got `abc`",
        ),
    ] {
        let e = scenario::parse(&format!("topic create t\n{line}\n")).expect_err(line);
        assert!(e.message().contains(says), "{line}: {e}");
    }
}

/// Every numeric step argument at its type's edges and beyond: accepted exactly in
/// range, otherwise a parse error at the argument's line; played, nothing panics.
#[test]
fn step_numbers_at_their_edges_parse_or_are_refused() {
    let i32s = (i128::from(i32::MIN), i128::from(i32::MAX));
    let i64s = (i128::from(i64::MIN), i128::from(i64::MAX));
    let templates: [(&str, (i128, i128)); 11] = [
        // Any i64 parses; played, more than an int of milliseconds is refused.
        ("run {}", i64s),
        ("raw produce t-0 pid=0 seq={} a", i32s),
        ("admin abort t-0 start-offset={}", i64s),
        ("admin delete-records t-0 offset={}", i64s),
        ("print events last={}", (0, i128::from(u64::MAX))),
        ("print window t-0 pid={}", i64s),
        ("broker {} restart", i32s),
        ("fault delay {} api=Produce", (0, i32s.1)),
        ("consumer c seek t-0 {}", i64s),
        ("raw fetch t-0 offset={}", i64s),
        ("fault drop id={}", (0, i128::from(u64::MAX))),
    ];
    for (template, (lo, hi)) in templates {
        let mut values: Vec<String> = [lo - 1, lo, 0, hi, hi + 1]
            .iter()
            .map(i128::to_string)
            .collect();
        values.extend(["-99999999999999999999999999", "x1", "1.0"].map(String::from));
        for value in values {
            let line = template.replace("{}", &value);
            let source =
                format!("topic create t\nconsumer c create\nconsumer c assign t-0\n{line}\n");
            let in_range = value.parse::<i128>().is_ok_and(|n| (lo..=hi).contains(&n));
            match scenario::parse(&source) {
                Ok(_) => {
                    assert!(in_range, "{line} parsed");
                    // Played, it runs or is refused with a reason; it never panics.
                    if let Err(e) = run(&source) {
                        assert!(e.starts_with("line 4"), "{line}: {e}");
                    }
                }
                Err(e) => {
                    assert!(!in_range, "{line}: {e}");
                    assert_eq!(e.line, 4, "{line}: {e}");
                    assert!(!e.message().is_empty());
                }
            }
        }
    }
}

/// `a.b` and `a_b` would share their metric names: Kafka's controller refuses the
/// second, whichever came first, as INVALID_TOPIC_EXCEPTION; names follow `Topic.validate`.
#[test]
fn colliding_and_invalid_topic_names_are_refused() {
    for (first, second) in [("a_b", "a.b"), ("a.b", "a_b"), ("x.y_z", "x_y.z")] {
        let err = run(&format!("topic create {first}\ntopic create {second}\n")).unwrap_err();
        assert!(err.contains("INVALID_TOPIC_EXCEPTION"), "{err}");
        assert!(
            err.contains(&format!(
                "Topic '{second}' collides with existing topic: {first}"
            )),
            "{err}"
        );
    }
    let again = run("topic create a.b\ntopic create a.b\n").unwrap_err();
    assert!(again.contains("TOPIC_ALREADY_EXISTS"), "{again}");
    assert!(run("topic create a.b\ntopic create a-b\ntopic create ab\n").is_ok());
    let longest = "t".repeat(249);
    assert!(run(&format!("topic create {longest}\n")).is_ok());
    let err = run(&format!("topic create {longest}x\n")).unwrap_err();
    assert!(err.contains("max allowed length 249"), "{err}");
    let err = run("topic create caf\u{e9}\n").unwrap_err();
    assert!(err.contains("INVALID_TOPIC_EXCEPTION"), "{err}");
}

/// The longest delay a fault takes does not hold later requests forever: a send after
/// it, which times out and retries on a new connection, is written.
#[test]
fn the_longest_delay_does_not_block_later_requests() {
    let out = run(
        "topic create t\nproducer p create\nproducer p send t-0 a\nrun\n\
         fault delay 2147483647 api=Produce\nproducer p send t-0 b\nrun\n\
         producer p send t-0 c\nrun\nprint leo t-0\n",
    )
    .unwrap();
    let leo: i64 = out
        .last()
        .and_then(|l| l.strip_prefix("log end offset "))
        .and_then(|n| n.parse().ok())
        .expect("a log end offset");
    assert!(leo >= 2, "{out:?}");
}

/// A UTF-8 byte-order mark before the first line is skipped, not read as part of the
/// first command.
#[test]
fn a_byte_order_mark_is_skipped() {
    let s = scenario::parse("\u{feff}topic create t\nprint leo t-0\n").expect("parses");
    assert_eq!(s.steps.len(), 2);
    assert_eq!(s.steps[0].line, 1);
    let out = run("\u{feff}topic create t\nprint leo t-0\n").unwrap();
    assert_eq!(out.last().map(String::as_str), Some("log end offset 0"));
    // Only at the start: elsewhere it is text like any other.
    assert!(scenario::parse("topic create t\n\u{feff}print leo t-0\n").is_err());
}

/// A break switch's refusal says what the switch takes.
#[test]
fn a_break_switch_out_of_range_says_its_range() {
    let e = scenario::parse("break dedup=5\n").unwrap_err();
    assert!(
        e.message().contains("dedup=N takes a window of 0 to 4"),
        "{e}"
    );
    let e = scenario::parse("break in-flight=5\n").unwrap_err();
    assert!(e.message().contains("in-flight=N takes 6 to 50"), "{e}");
    let e = scenario::parse("break dedupe\n").unwrap_err();
    assert!(e.message().contains("unknown switch `dedupe`"), "{e}");
}

fn eos(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_eos"))
        .args(args)
        .output()
        .expect("eos runs")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("eos-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `eos chaos` refuses ranges that hold no seed or pass the largest one (they ran no
/// seed and exited 0), and a switch out of range is told its range.
#[cfg(feature = "checker")]
#[test]
fn chaos_refuses_seed_ranges_that_run_nothing() {
    for (args, says) in [
        (
            &["chaos", "--seed", "18446744073709551615", "--runs", "10"][..],
            "goes past the largest seed",
        ),
        (&["chaos", "--seeds", "5..5"], "the range holds no seed"),
        (&["chaos", "--seeds", "5..3"], "the range holds no seed"),
        (&["chaos", "--seed", "1", "--runs", "0"], "--runs 0"),
        (
            &["chaos", "--break", "dedup=5"],
            "dedup=N takes a window of 0 to 4",
        ),
    ] {
        let out = eos(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// A switch out of range says the same thing wherever it is written: on the CLI
/// (`--break`), in a scenario (`break`) and in the chaos page's request to its worker.
#[cfg(feature = "checker")]
#[test]
fn a_bad_switch_gets_one_message_everywhere() {
    use eos_playground::checker::progress::Request;
    for (switch, says) in [
        (
            "dedup=5",
            "`dedup=5`: dedup=N takes a window of 0 to 4 batches",
        ),
        (
            "in-flight=3",
            "`in-flight=3`: in-flight=N takes 6 to 50 requests in flight",
        ),
        (
            "nope",
            "unknown switch `nope` (the switches: dedup, dedup=N,",
        ),
    ] {
        let cli = eos(&["chaos", "--break", switch]);
        let cli = String::from_utf8_lossy(&cli.stderr).to_string();
        let scenario = run(&format!("break {switch}\n")).expect_err(switch);
        let worker = Request::decode(&format!("start 1 2 5 {switch}")).expect_err(switch);
        for (place, text) in [("cli", &cli), ("scenario", &scenario), ("worker", &worker)] {
            assert!(text.contains(says), "{place}: {text}");
        }
        assert!(!worker.contains("no such switch"), "{worker}");
    }
}

/// `eos link` refuses a link whose page is not one the playground has, naming it
/// (escaped) and the pages there are; a known page still opens.
#[test]
fn a_link_to_an_unknown_page_is_refused() {
    use eos_playground::scenario::share::{encode, SharedState};
    let link = |page: &str| {
        let code = encode(&SharedState {
            scenario: "topic create t\n".into(),
            step: 1,
            page: page.into(),
            panel: None,
            lang: None,
            lesson: None,
        })
        .expect("encodes");
        format!("#{code}")
    };
    let args = |l: &str| vec!["link".to_string(), l.to_string()];
    let err = eos_playground::cli::run(&args(&link("pulsr"))).expect_err("unknown page");
    assert_eq!(
        err,
        "the link: no page named \"pulsr\" (the pages: idempotence, transactions)"
    );
    let err = eos_playground::cli::run(&args(&link("x\u{1b}[2J"))).expect_err("unknown page");
    assert!(
        err.contains(r#""x\u{1b}[2J""#) && !err.contains('\u{1b}'),
        "{err}"
    );
    for page in ["idempotence", "transactions"] {
        let out = eos_playground::cli::run(&args(&link(page))).expect(page);
        assert!(
            out.starts_with(&format!("# A share link of the {page} page")),
            "{out}"
        );
    }
}

/// `eos test --update A MISSING` writes nothing: every file is read first.
#[test]
fn test_update_writes_nothing_when_a_file_is_missing() {
    let dir = scratch("update");
    let a = dir.join("a.eos");
    let source = "topic create t\nprint leo t-0\n---\nlog end offset 99\n";
    std::fs::write(&a, source).unwrap();
    let missing = dir.join("missing.eos");
    let out = eos(&[
        "test",
        "--update",
        a.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("missing.eos"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&a).unwrap(),
        source,
        "a.eos untouched"
    );
    // With every file there, it is rewritten and named.
    let out = eos(&["test", "--update", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("updated"));
    assert!(std::fs::read_to_string(&a)
        .unwrap()
        .contains("log end offset 0"));
}

/// What a stranger wrote reaches the terminal with its control characters escaped:
/// a link's scenario, an `echo` step, an error quoting a word.
#[test]
fn the_cli_prints_control_characters_escaped() {
    use eos_playground::scenario::share;
    let evil = "echo \u{1b}]0;owned\u{7}\u{1b}[2J hidden\u{202e}txt";
    let link = share::encode(&share::SharedState {
        scenario: format!("topic create t\n{evil}\n"),
        step: 0,
        page: "idempotence".into(),
        panel: None,
        lang: Some("ko".into()),
        lesson: None,
    })
    .unwrap();
    let dir = scratch("escape");
    let file = dir.join("evil.eos");
    std::fs::write(&file, format!("{evil}\nbogus\u{1b}[31m\n")).unwrap();
    for out in [eos(&["link", &link]), eos(&["run", file.to_str().unwrap()])] {
        let all = [out.stdout, out.stderr].concat();
        let text = String::from_utf8_lossy(&all);
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
        assert!(!text.contains('\u{202e}'), "{text:?}");
        assert!(text.contains("\\u{1b}"), "{text:?}");
    }
    // The link's language is shown.
    let out = eos(&["link", &link]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().next().unwrap().contains("(ko)"), "{stdout}");
    assert_eq!(
        eos_playground::cli::terminal_safe("tab\tand\nnewline"),
        "tab\tand\nnewline"
    );
}

/// A version-2 link's language must be one of the catalog's; `eos link` refuses any
/// other value and shows a valid one.
#[test]
fn a_links_language_is_checked_and_shown() {
    use eos_playground::scenario::share;
    let state = |lang: &str| share::SharedState {
        scenario: "topic create t\n".into(),
        step: 1,
        page: "idempotence".into(),
        panel: None,
        lang: Some(lang.into()),
        lesson: None,
    };
    for bad in ["xx", "KO", "ko-KR", "en\u{1b}"] {
        let link = share::encode(&state(bad)).unwrap();
        let err = share::decode(&link).expect_err(bad);
        assert!(err.to_string().contains("not a language"), "{bad}: {err}");
    }
    for (good, shown) in [("ko", "(ko)"), ("th", "(th)")] {
        let link = share::encode(&state(good)).unwrap();
        assert_eq!(share::decode(&link).unwrap().lang.as_deref(), Some(good));
        let out = eos_playground::cli::run(&["link".into(), link]).unwrap();
        assert!(out.lines().next().unwrap().contains(shown), "{out}");
    }
}

mod fuzz {
    use super::*;
    use eos_playground::scenario::share;
    use proptest::prelude::*;

    /// Pieces a hostile scenario is made of: commands, nesting words, numbers at their
    /// types' edges, quotes, escapes, marks and control characters.
    fn piece() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "fault ",
            "disarm ",
            "drop ",
            "delay ",
            "api=Produce ",
            "every",
            "once",
            "id=",
            "topic create t",
            "topic create a.b",
            "topic create a_b",
            "cluster brokers=",
            "producer p create ",
            "producer p send t-0 v",
            "retries=",
            "segment.bytes=",
            "transaction.version=",
            "run ",
            "print leo t-0",
            "break dedup=",
            "echo ",
            "# ",
            "? ",
            "?+ ",
            "> ",
            "## ",
            "---",
            "\"",
            "\\",
            "=",
            " ",
            "\n",
            "\t",
            "\r",
            "\u{feff}",
            "\u{1b}[2J",
            "\u{202e}",
            "-1",
            "0",
            "14",
            "32767",
            "32768",
            "2147483647",
            "2147483648",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551616",
            "99999999999999999999999",
            "1.5",
            "abc",
        ])
        .prop_map(String::from)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// Any scenario a link can carry — nested `fault disarm` up to 20,000 deep,
        /// numbers past every edge — decodes and parses to a state or a clear error,
        /// and plays (when it parses) to a transcript or an error; never a panic.
        #[test]
        fn links_never_panic(
            depth in prop_oneof![0usize..4, 10_000usize..20_000],
            pieces in prop::collection::vec(piece(), 0..60),
            step in 0usize..4,
            lang in prop::sample::select(vec!["", "en", "ko", "th", "xx", "\u{1b}"]),
        ) {
            let scenario = format!("fault {}drop api=Produce every\n{}", "disarm ".repeat(depth), pieces.concat());
            let state = share::SharedState {
                scenario,
                step,
                page: "idempotence".into(),
                panel: None,
                lang: Some(lang.to_string()).filter(|l| !l.is_empty()),
                lesson: None,
            };
            let Ok(link) = share::encode(&state) else { return Ok(()); };
            match share::decode(&link) {
                Ok(decoded) => {
                    prop_assert_eq!(&decoded.scenario, &state.scenario);
                    if decoded.scenario.lines().count() < 40 {
                        let _ = run(&decoded.scenario);
                    }
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
            // The same text cut anywhere still fails cleanly.
            let cut = &link[..link.len() / 2];
            let _ = share::decode(cut);
        }

        /// A setting line of random pieces never panics the parser or the world.
        #[test]
        fn setting_lines_never_panic(
            key in prop::sample::select(
                eos_playground::protocol::config_def::CONFIG_KEYS.iter().map(|k| (k.place, k.name)).collect::<Vec<_>>()
            ),
            value in prop::collection::vec(piece(), 0..3),
        ) {
            let value: String = value.concat().split_whitespace().collect();
            let _ = run(&setting_line(key.0, key.1, &value));
        }
    }
}
