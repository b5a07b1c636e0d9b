use super::*;

#[test]
fn parses_a_small_scenario() {
    let s = parse(
        "# comment\ncluster brokers=1\ntopic create t partitions=2 segment.bytes=256\nraw produce t-0 pid=0 seq=0 label=\"first send\" a b c\nprint dump-log t-0 fields=baseOffset,lastOffset\necho === hi there\n",
    )
    .unwrap();
    assert_eq!(s.steps.len(), 5);
    assert_eq!(s.steps[0].line, 2);
    match &s.steps[2].kind {
        StepKind::RawProduce { label, values, .. } => {
            assert_eq!(label.as_deref(), Some("first send"));
            assert_eq!(values, &vec!["a".to_string(), "b".into(), "c".into()]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.steps[4].kind, StepKind::Echo("=== hi there".into()));
}

#[test]
fn narration_attaches_to_the_next_step() {
    let s = parse("## First\n> one\n> two\n>\n> three\nstep\n# comment\nstep\n").unwrap();
    assert_eq!(s.steps[0].title.as_deref(), Some("First"));
    assert_eq!(
        s.steps[0].narration,
        vec!["one two".to_string(), "three".to_string()]
    );
    assert_eq!(s.steps[1].title, None);
    assert!(s.steps[1].narration.is_empty());
}

#[test]
fn expected_output_blocks_are_skipped() {
    let s = parse("topic create t\n---\nraw produce t-0 x\n\necho hi\n---\n").unwrap();
    assert_eq!(s.steps.len(), 2);
    assert_eq!(s.steps[1].line, 5);
}

#[test]
fn errors_name_line_and_column() {
    let e = parse("topic create t\nraw produce t-0 pid=x seq=0 a").unwrap_err();
    assert_eq!((e.line, e.column), (2, 17));
    assert!(e.message().contains("pid"), "{e}");
    let e = parse("topic create t\n  fly away").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    let e = parse("echo \"x\nraw produce t-0 pid=0 seq=0 \"open").unwrap_err();
    assert_eq!((e.line, e.column), (2, 29));
    // A later `cluster` line is a step (a fresh world), and its options are checked.
    assert!(parse("topic create t\ncluster brokers=2").is_ok());
    let e = parse("topic create t\ncluster brokers=9").unwrap_err();
    assert_eq!(e.line, 2);
    let e = parse("raw produce t-0 pid=1 seq=0").unwrap_err();
    assert!(e.message().contains("record"), "{e}");
}

#[test]
fn columns_count_characters_not_bytes() {
    // "é" is two bytes in UTF-8 but one column in an editor.
    let e = parse("producer ééé send t-0").unwrap_err();
    assert_eq!((e.line, e.column), (1, 22), "{e}");
    let e = parse("echo ééé\nraw produce t-0 pid=é seq=0 a").unwrap_err();
    assert_eq!((e.line, e.column), (2, 17), "{e}");
}

#[test]
fn translated_titles_and_narration_sit_beside_the_english() {
    use crate::i18n::Lang;
    let src = "## First\n## [ko] 첫째\n> one\n> two\n>\n> [ko] 하나\n> [ko] 둘\n>\n> [th] หนึ่ง\n> [xx] not a language\nstep\n## Second\n> three\nstep\n";
    let s = parse(src).unwrap();
    let first = &s.steps[0];
    assert_eq!(first.narration, vec!["one two", "[xx] not a language"]);
    assert_eq!(first.title_in(Lang::Ko), Some("첫째"));
    assert_eq!(
        first.title_in(Lang::Th),
        Some("First"),
        "falls back to English"
    );
    assert_eq!(first.narration_in(Lang::Ko), ["하나 둘"]);
    assert_eq!(first.narration_in(Lang::Th), ["หนึ่ง"]);
    assert_eq!(first.missing_in(Lang::Th), vec!["title"]);
    let second = &s.steps[1];
    assert_eq!(second.narration_in(Lang::Ko), ["three"]);
    assert_eq!(second.missing_in(Lang::Ko), vec!["title", "narration"]);
    // Printing keeps every language, so a share link of a lesson keeps its translations.
    let again = parse(&crate::scenario::print(&s)).unwrap();
    assert_eq!(again.steps[0].translations, first.translations);
    assert_eq!(again.steps[0].narration, first.narration);
}

/// Without the checker (the sites), a `check` plays only with its verdict recorded in
/// the `---` block under it (a chaos finding's replay), and prints that block.
#[cfg(not(feature = "checker"))]
#[test]
fn without_the_checker_a_check_plays_its_recorded_verdict() {
    let src = "cluster brokers=1\ncheck\n---\nduplicate t-0 values=a offsets=0,1 sent=1 step=1\n\necho after\n";
    let s = parse(src).expect("it parses");
    assert_eq!(s.steps.len(), 3);
    let recorded = vec!["duplicate t-0 values=a offsets=0,1 sent=1 step=1".to_string()];
    assert_eq!(
        s.steps[1].kind,
        StepKind::Print(View::RecordedCheck(recorded))
    );
    let printed = crate::scenario::print_step(&s.steps[1].kind).expect("printable");
    assert_eq!(
        printed,
        "check\n---\nduplicate t-0 values=a offsets=0,1 sent=1 step=1\n"
    );
    let mut runner = crate::scenario::Runner::new(s);
    let out: Vec<String> = (0..3)
        .flat_map(|_| runner.step().expect("it plays"))
        .collect();
    assert_eq!(out[0], "duplicate t-0 values=a offsets=0,1 sent=1 step=1");
    // Without a block (or with a step between), refused as before, at the `check`.
    for bad in [
        "cluster brokers=1\n  check\n",
        "check\necho x\n---\nno violations\n",
    ] {
        let e = parse(bad).expect_err(bad);
        assert!(e.message().contains("no invariant checker"), "{e}");
        assert_eq!(
            (e.line, e.column),
            if bad.starts_with("check") {
                (1, 1)
            } else {
                (2, 3)
            }
        );
    }
}

#[test]
fn echo_and_label_translations_sit_right_under_their_step() {
    use crate::i18n::Lang;
    let src = "echo hello {outcome p}\necho [ko] 안녕 {outcome p}\necho [th] สวัสดี\n\
               raw produce t-0 pid=1 seq=0 label=\"first send\" a\nlabel [ko] 첫 전송\n";
    let s = parse(src).unwrap();
    assert_eq!(s.steps.len(), 2);
    assert_eq!(s.steps[0].echo_in(Lang::Ko), Some("안녕 {outcome p}"));
    assert_eq!(s.steps[0].echo_in(Lang::Th), Some("สวัสดี"));
    assert_eq!(s.steps[0].echo_in(Lang::En), Some("hello {outcome p}"));
    assert_eq!(s.steps[1].label_in(Lang::Ko), Some("첫 전송"));
    assert_eq!(s.steps[1].label_in(Lang::Th), Some("first send"));
    assert_eq!(s.steps[1].missing_in(Lang::Th), vec!["label"]);
    // Not under an echo, or with narration in between: an error naming the line.
    for bad in [
        "step\necho [ko] 안녕\n",
        "echo hi\n> text\necho [ko] 안녕\n",
        "raw produce t-0 pid=1 seq=0 a\nlabel [ko] 첫 전송\n",
        "echo [ko] 안녕\n",
    ] {
        let e = parse(bad).unwrap_err();
        assert!(e.message().contains("right under"), "{bad}: {e:?}");
    }
    // An echo without a language tag is still an echo of its own.
    assert_eq!(
        parse("echo hi\necho [optional] x\n").unwrap().steps.len(),
        2
    );
}

/// Without the log cleaner (the main page, Pulsar's), `clean`, `snapshot`, `truncate` and
/// `fault corrupt` are refused where they stand, in every language, and point to the editor.
#[cfg(not(feature = "log-cleaner"))]
#[test]
fn without_the_log_cleaner_its_steps_are_refused_with_their_line() {
    let head = "cluster brokers=2\ntopic create t partitions=1 cleanup.policy=compact\n";
    for (line, column) in [
        ("clean t-0", 1),
        ("snapshot t-0", 1),
        ("truncate broker-1 t-0 offset=0", 1),
        ("  fault corrupt broker-1 t-0/00000000000000000000.log", 9),
    ] {
        let e = parse(&format!("{head}{line}\n")).unwrap_err();
        assert_eq!((e.line, e.column), (3, column), "{line}: {e}");
        assert_eq!(e.why.id(), "parse.no-log-cleaner", "{line}");
        assert!(e.in_lang(Lang::En).contains("lesson editor"), "{e}");
        assert!(
            e.in_lang(Lang::Ko).contains("레슨 편집기에서 여십시오"),
            "{e}"
        );
        assert!(e.in_lang(Lang::Th).contains("log cleaner"), "{e}");
    }
}

/// The topic admin steps print back as they were written.
#[cfg(feature = "topic-admin")]
#[test]
fn topic_admin_steps_print_as_they_parse() {
    for line in [
        "topic alter-config orders min.insync.replicas=2 retention.ms=1000",
        "topic create-partitions orders partitions=4",
        "topic create-partitions orders partitions=5 assignment=1:2,2:3",
        "topic delete orders",
        "topic reassign orders-0 replicas=3,1,2",
        "topic reassign orders-0 replicas=cancel",
        "topic reassign orders-0 replicas=",
        "topic list-reassignments",
        "topic list-reassignments orders-0 orders-1",
    ] {
        let s = parse(&format!("cluster brokers=3\n{line}\n")).unwrap();
        let printed = crate::scenario::print_step(&s.steps[1].kind).expect("printable");
        assert_eq!(printed, line);
    }
    for (line, column) in [
        ("topic alter-config orders", 26),
        ("topic create-partitions orders", 31),
        ("topic delete orders partitions=2", 21),
        ("topic rename orders", 7),
        ("topic reassign orders-0", 24),
        ("topic reassign orders replicas=1", 16),
        ("topic reassign orders-0 replicas=1,x", 25),
        ("topic reassign orders-0 target=1", 25),
        ("topic list-reassignments replicas=1", 26),
    ] {
        let e = parse(&format!("{line}\n")).unwrap_err();
        assert_eq!((e.line, e.column), (1, column), "{line}: {e}");
    }
}

/// Without the topic admin steps (the web pages), they are refused where they stand
/// and point to the command-line tool.
#[cfg(not(feature = "topic-admin"))]
#[test]
fn without_topic_admin_its_steps_are_refused_with_their_line() {
    for line in [
        "topic alter-config t min.insync.replicas=2",
        "topic create-partitions t partitions=2",
        "topic delete t",
        "topic reassign t-0 replicas=1",
        "topic list-reassignments",
    ] {
        let e = parse(&format!("{line}\n")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 7), "{line}: {e}");
        assert_eq!(e.why.id(), "parse.no-topic-admin", "{line}");
        assert!(e.in_lang(Lang::En).contains("`eos`"), "{e}");
    }
}

/// `admin elect-leaders` takes `election-type=PREFERRED|UNCLEAN` (the tool's
/// `--election-type`, any case), prints back as written, and refuses other options.
#[test]
fn elect_leaders_takes_an_election_type() {
    use crate::protocol::ElectionType;
    let head = "cluster brokers=2\ntopic create t partitions=1 replication.factor=2\n";
    for (line, election, printed) in [
        (
            "admin elect-leaders t-0",
            ElectionType::Preferred,
            "admin elect-leaders t-0",
        ),
        (
            "admin elect-leaders all election-type=unclean",
            ElectionType::Unclean,
            "admin elect-leaders all election-type=UNCLEAN",
        ),
    ] {
        let s = parse(&format!("{head}{line}\n")).unwrap();
        let step = &s.steps.last().unwrap().kind;
        assert!(
            matches!(step, StepKind::Act(Action::AdminElectLeaders { election: e, .. }) if *e == election),
            "{line}"
        );
        assert_eq!(crate::scenario::print_step(step), Some(printed.to_string()));
    }
    let e = parse(&format!(
        "{head}admin elect-leaders t-0 election-type=CLEAN\n"
    ))
    .unwrap_err();
    assert_eq!((e.line, e.column), (3, 25), "{e}");
}

/// Without the feature `set-epoch` (every web page) the step is refused where it stands.
#[cfg(not(feature = "set-epoch"))]
#[test]
fn without_set_epoch_the_step_is_refused_with_its_line() {
    let e = parse("cluster brokers=1\n  set-epoch txn=tx epoch=5\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3), "{e}");
    assert_eq!(e.why.id(), "parse.no-set-epoch");
    assert!(e.in_lang(Lang::En).contains("`eos`"), "{e}");
}

/// `set-epoch` names one transactional id or one producer and an epoch: InitProducerId
/// never gives out 32767 (`isEpochExhausted`), a producer's own bump may reach it.
#[cfg(feature = "set-epoch")]
#[test]
fn set_epoch_takes_one_target_and_an_epoch_in_range() {
    let ok = parse("set-epoch txn=tx epoch=32766\nset-epoch producer=p epoch=32767\n").unwrap();
    assert_eq!(
        ok.steps[0].kind,
        StepKind::Act(Action::SetTxnEpoch {
            transactional_id: "tx".into(),
            epoch: 32766
        })
    );
    assert_eq!(
        ok.steps[1].kind,
        StepKind::Act(Action::SetProducerEpoch {
            producer: "p".into(),
            epoch: 32767
        })
    );
    for (line, column, id) in [
        ("set-epoch txn=tx epoch=32767", 18, "scenario.number-range"),
        ("set-epoch producer=p epoch=-1", 22, "scenario.number-range"),
        (
            "set-epoch producer=p epoch=40000",
            22,
            "scenario.number-range",
        ),
        ("set-epoch group=g epoch=1", 11, "parse.expected"),
        ("set-epoch txn=tx", 1, "parse.expected"),
        ("set-epoch txn=tx epoch=1 now", 26, "parse.unexpected"),
    ] {
        let e = parse(line).unwrap_err();
        assert_eq!((e.column, e.why.id()), (column, id), "{line}: {e}");
    }
}

/// The quorum's steps and option print back as they were written; a bad one is
/// refused where it stands.
#[cfg(feature = "metadata-log")]
#[test]
fn quorum_steps_print_as_they_parse() {
    for line in [
        "cluster brokers=3 latency.ms=2 seed=1 controllers=3",
        "controller 2 stop",
        "controller 2 start",
        "print quorum",
        "fault cut controller-1 controller-2",
        "fault cut broker-1 controller-3",
    ] {
        let s = parse(&format!("cluster brokers=3 controllers=3\n{line}\n")).unwrap();
        let printed = crate::scenario::print_step(&s.steps[1].kind).expect("printable");
        assert_eq!(printed, line);
    }
    for (line, column) in [
        ("controller x stop", 12),
        ("controller 1 restart", 14),
        ("controller 1 stop now", 19),
        ("cluster controllers=6", 9),
    ] {
        let e = parse(&format!("{line}\n")).unwrap_err();
        assert_eq!((e.line, e.column), (1, column), "{line}: {e}");
    }
}
