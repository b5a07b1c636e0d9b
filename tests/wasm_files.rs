#![cfg(target_arch = "wasm32")]
//! Kafka's files page's code in a browser tab: the playground's disk, zipped as
//! "download the disk" saves it, opens again as the files page opens a picked .zip
//! (`ui::files::Opened`): the inspector's report holds every batch line `eos inspect`
//! prints for the folder, and the world recovered from it holds the same batches and
//! takes a send after them.

use eos_playground::inspect::inspect;
use eos_playground::log::TopicPartition;
use eos_playground::scenario::{self, Replay};
use eos_playground::sim::Action;
use eos_playground::ui::files::Opened;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SCRIPT: &str = "\
cluster brokers=1
topic create pay partitions=1
producer p create enable.idempotence=true
producer p send pay-0 a b
producer p flush
snapshot pay-0
producer p send pay-0 c
producer p flush
";

#[wasm_bindgen_test]
fn an_exported_disk_opens_in_the_page_with_the_same_batches_and_continues() {
    let replay = Replay::to(scenario::parse(SCRIPT).expect("parses"), usize::MAX);
    let before = replay.world();
    let tp = TopicPartition::new("pay", 0);
    let zip = before.disk_zip();
    let opened =
        Opened::from_files("disk", vec![("kafka-logs.zip".to_string(), zip)]).expect("opens");
    let pay = opened
        .reports
        .iter()
        .find(|r| r.dir == "pay-0")
        .expect("pay-0 is a partition folder");
    assert_eq!(pay.problems, vec![]);
    // The batch lines, as `eos inspect` of the exported folder prints them.
    let folder: Vec<(String, Vec<u8>)> = before
        .disk_files()
        .into_iter()
        .filter(|(p, _)| p.starts_with("pay-0/"))
        .collect();
    let expected: Vec<String> = inspect(&folder)[0]
        .files
        .iter()
        .flat_map(|f| f.lines.clone())
        .filter(|l| l.starts_with("baseOffset: "))
        .collect();
    assert_eq!(expected.len(), 2);
    let shown: Vec<String> = pay
        .files
        .iter()
        .flat_map(|f| f.lines.clone())
        .filter(|l| l.starts_with("baseOffset: "))
        .collect();
    assert_eq!(shown, expected);

    let mut world = opened.world("pay-0").expect("recovered");
    assert_eq!(
        world.log_view(&tp).map(|l| l.batches),
        before.log_view(&tp).map(|l| l.batches)
    );
    for a in [
        Action::CreateProducer {
            name: "q".into(),
            configs: vec![("enable.idempotence".into(), "true".into())],
        },
        Action::Send {
            producer: "q".into(),
            topic_partition: tp.clone(),
            values: vec!["from-the-page".into()],
        },
        Action::Flush {
            producer: "q".into(),
        },
    ] {
        world.apply(&a).expect("applies");
    }
    assert_eq!(world.log_view(&tp).map(|l| l.log_end_offset), Some(4));

    // A damaged zip: refused whole, with its position.
    let mut bad = before.disk_zip();
    let at = bad.len() / 2;
    bad[at] ^= 0xFF;
    let refused = Opened::from_files("disk", vec![("bad.zip".to_string(), bad)]);
    if let Err(why) = refused {
        assert!(why.starts_with("bad.zip: "), "{why}");
    }
}
