//! Kafka's admin tools as steps: `admin abort TOPIC-P start-offset=N`
//! (`kafka-transactions.sh abort`), `admin delete-records TOPIC-P offset=N`
//! (`kafka-delete-records.sh`) and `admin elect-leaders …` (`kafka-leader-election.sh`).

use super::*;
use crate::protocol::ElectionType;

/// `admin VERB …`.
pub(super) fn admin_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let verb = c.next(What::OneOf(&[
        "`abort`",
        "`delete-records`",
        "`elect-leaders`",
    ]))?;
    let (key, usage) = match verb.text.as_str() {
        "elect-leaders" => return elect_leaders_step(c, verb),
        "abort" => ("start-offset", "admin abort TOPIC-P start-offset=N"),
        "delete-records" => ("offset", "admin delete-records TOPIC-P offset=N|-1"),
        _ => {
            return Err(c.err(
                verb.column,
                msg!(
                    "parse.expected",
                    what = one_of(&[
                        "`admin abort TOPIC-P start-offset=N`",
                        "`admin delete-records TOPIC-P offset=N`"
                    ])
                ),
            ))
        }
    };
    let topic_partition = next_partition(c)?;
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let usage = || msg!("parse.expected", what = format!("`{usage}`"));
    let (t, k, v) = opts.first().ok_or_else(|| c.err(verb.column, usage()))?;
    if k != key || opts.len() > 1 {
        return Err(c.err(t.column, usage()));
    }
    let n = number(c, t, v, key)?;
    Ok(StepKind::Act(if verb.text == "abort" {
        Action::AdminAbortTransaction {
            topic_partition,
            start_offset: n,
        }
    } else {
        Action::AdminDeleteRecords {
            topic_partition,
            offset: n,
        }
    }))
}

/// `admin elect-leaders TOPIC-P…|all [election-type=PREFERRED|UNCLEAN]`.
fn elect_leaders_step(c: &mut Cursor, verb: &Token) -> Result<StepKind, ParseError> {
    let usage = || {
        msg!(
            "parse.expected",
            what = one_of(&[
                "`admin elect-leaders TOPIC-P… [election-type=PREFERRED|UNCLEAN]`",
                "`admin elect-leaders all [election-type=PREFERRED|UNCLEAN]`"
            ])
        )
    };
    let (opts, words) = c.rest();
    let mut election = ElectionType::Preferred;
    for (t, k, v) in &opts {
        match ElectionType::from_name(v).filter(|_| k == "election-type") {
            Some(e) => election = e,
            None => return Err(c.err(t.column, usage())),
        }
    }
    let all = words.len() == 1 && words[0].text == "all";
    if words.is_empty() {
        return Err(c.err(verb.column, usage()));
    }
    let mut partitions = Vec::new();
    for w in words.iter().filter(|_| !all) {
        partitions.push(topic_partition(c, w)?);
    }
    Ok(StepKind::Act(Action::AdminElectLeaders {
        election,
        partitions,
    }))
}
