//! Every transactional call in every `TransactionManager` state, answered as Kafka 4.0's
//! client answers it (apache/kafka 4.0.0-SNAPSHOT, commit 1eb7644: `TransactionManager`
//! and `KafkaProducer`, and the cases of `TransactionManagerTest`).

use eos_playground::client::transaction_manager::{
    Begun, TransactionManager, TxnCall, TxnCallError, TxnRequestKind, TxnState,
};
use eos_playground::i18n::narration::txn_exception;
use eos_playground::i18n::Lang;
use eos_playground::log::TopicPartition;
use eos_playground::protocol::errors::Errors;
use eos_playground::protocol::Response;
use eos_playground::sim::{Action, ClusterConfig, EventKind, World};

/// A row of the table: a state, as the client gets there.
#[derive(Clone, Copy, Debug)]
enum Row {
    State(TxnState),
    /// FATAL_ERROR after PRODUCER_FENCED.
    Fenced,
}

/// A manager in `row`, reached the way the client gets there: the application's calls
/// and the coordinator's answers, so it holds what Kafka holds there (the pending
/// blocking call of the in-between states, the error of the error states, a producer
/// id once initialized).
fn manager(row: Row) -> (TransactionManager, (i64, i16)) {
    use TxnState::*;
    let mut tm = TransactionManager::new("tx".into(), 60_000);
    let state = match row {
        Row::State(s) => s,
        Row::Fenced => FatalError,
    };
    if state == Uninitialized {
        return (tm, (-1, -1));
    }
    assert_eq!(
        tm.call(&TxnCall::InitTransactions, (-1, -1)),
        Ok(Begun::Started)
    );
    if state == Initializing {
        return (tm, (-1, -1));
    }
    let ids = (0, 0);
    let init = TxnRequestKind::InitProducerId { epoch_bump: false };
    let answer = Response::InitProducerId {
        error: Errors::None,
        producer_id: 0,
        producer_epoch: 0,
    };
    tm.on_response(&init, &answer, 0, 100);
    tm.ack();
    if state == Ready {
        return (tm, ids);
    }
    assert_eq!(tm.call(&TxnCall::BeginTransaction, ids), Ok(Begun::Started));
    match row {
        Row::State(InTransaction) => {}
        Row::State(CommittingTransaction) => {
            assert_eq!(
                tm.call(&TxnCall::CommitTransaction, ids),
                Ok(Begun::Started)
            );
        }
        Row::State(AbortingTransaction) => {
            assert_eq!(tm.call(&TxnCall::AbortTransaction, ids), Ok(Begun::Started));
        }
        // A send's error the transaction can abort.
        Row::State(AbortableError) => {
            tm.on_batch_error(Errors::MessageTooLarge);
        }
        // The commit's EndTxn answered with a fatal error.
        Row::State(FatalError) | Row::Fenced => {
            let error = match row {
                Row::Fenced => Errors::ProducerFenced,
                _ => Errors::InvalidTxnState,
            };
            assert_eq!(
                tm.call(&TxnCall::CommitTransaction, ids),
                Ok(Begun::Started)
            );
            let end = TxnRequestKind::EndTxn { committed: true };
            let answer = Response::EndTxn {
                error,
                producer_id: -1,
                producer_epoch: -1,
            };
            tm.on_response(&end, &answer, 0, 100);
            tm.ack();
        }
        Row::State(s) => panic!("no way to {s:?} in this table"),
    }
    assert_eq!(tm.state(), state, "{row:?}");
    (tm, ids)
}

/// Kafka's answer: what the call does, or the exception class and message it throws.
#[derive(Debug, PartialEq)]
enum Answer {
    Started,
    Resumed,
    Throws(&'static str, String),
}

fn tp() -> TopicPartition {
    TopicPartition::new("t", 0)
}

fn calls() -> [TxnCall; 6] {
    [
        TxnCall::InitTransactions,
        TxnCall::BeginTransaction,
        TxnCall::Send { tp: tp() },
        TxnCall::SendOffsetsToTransaction,
        TxnCall::CommitTransaction,
        TxnCall::AbortTransaction,
    ]
}

/// The table, read from Kafka's source (see the module comment).
fn kafka(row: Row, call: &TxnCall) -> Answer {
    use TxnState::*;
    let ise = |m: String| Answer::Throws("IllegalStateException", m);
    let transition = |from: TxnState, to: TxnState| {
        ise(format!(
            "TransactionalId tx: Invalid transition attempted from state {} to state {}",
            from.name(),
            to.name()
        ))
    };
    let pending = |pending: &str| {
        ise(format!(
            "Cannot attempt operation `{}` because the previous call to `{pending}` timed out and must be retried",
            call.name()
        ))
    };
    let error_state = || {
        Answer::Throws(
            "KafkaException",
            "Cannot execute transactional method because we are in an error state".into(),
        )
    };
    let fenced = || {
        Answer::Throws(
            "ProducerFencedException",
            "Producer with transactionalId 'tx' and (producerId=0, epoch=0) has been fenced by another producer with the same transactionalId".into(),
        )
    };
    let not_in_txn = |state: TxnState| match call {
        TxnCall::Send { .. } => ise(format!(
            "Cannot add partition t-0 to transaction while in state  {}",
            state.name()
        )),
        _ => ise(format!(
            "Cannot send offsets if a transaction is not in progress (currentState= {})",
            state.name()
        )),
    };
    let state = match row {
        Row::Fenced => return fenced(),
        Row::State(s) => s,
    };
    match (state, call) {
        // maybeFailWithError; beginAbort skips it in ABORTABLE_ERROR.
        (AbortableError, TxnCall::AbortTransaction) => Answer::Started,
        (AbortableError | FatalError, _) => error_state(),
        // The pending blocking call: itself again gets its result, the rest throw.
        (Initializing, TxnCall::InitTransactions)
        | (CommittingTransaction, TxnCall::CommitTransaction)
        | (AbortingTransaction, TxnCall::AbortTransaction) => Answer::Resumed,
        (Initializing, _) => pending("initTransactions"),
        (CommittingTransaction, _) => pending("commitTransaction"),
        (AbortingTransaction, _) => pending("abortTransaction"),
        (Uninitialized, TxnCall::Send { .. }) => ise(
            "Cannot add partition t-0 to transaction before completing a call to initTransactions"
                .into(),
        ),
        (Uninitialized | Ready, TxnCall::Send { .. } | TxnCall::SendOffsetsToTransaction) => {
            not_in_txn(state)
        }
        (Uninitialized, TxnCall::InitTransactions) => Answer::Started,
        (Ready, TxnCall::BeginTransaction) => Answer::Started,
        (InTransaction, TxnCall::InitTransactions) => transition(state, Initializing),
        (InTransaction, TxnCall::BeginTransaction) => transition(state, InTransaction),
        (InTransaction, _) => Answer::Started,
        (_, TxnCall::InitTransactions) => transition(state, Initializing),
        (_, TxnCall::BeginTransaction) => transition(state, InTransaction),
        (_, TxnCall::CommitTransaction) => transition(state, CommittingTransaction),
        (_, TxnCall::AbortTransaction) => transition(state, AbortingTransaction),
    }
}

fn rows() -> Vec<Row> {
    let mut rows: Vec<Row> = TxnState::ALL.iter().map(|s| Row::State(*s)).collect();
    rows.push(Row::Fenced);
    rows
}

#[test]
fn every_call_in_every_state_answers_as_kafka_does() {
    let mut cells = 0;
    for row in rows() {
        for call in calls() {
            let (mut tm, ids) = manager(row);
            let before = tm.state();
            let got = match tm.call(&call, ids) {
                Ok(Begun::Started) => Answer::Started,
                Ok(Begun::Resumed) => Answer::Resumed,
                Err(e) => Answer::Throws(e.exception_class(), txn_exception(&e, Lang::En)),
            };
            assert_eq!(got, kafka(row, &call), "{row:?} × {}", call.name());
            if matches!(got, Answer::Throws(..) | Answer::Resumed) {
                assert_eq!(
                    tm.state(),
                    before,
                    "a refused call changes nothing ({row:?})"
                );
            }
            cells += 1;
        }
    }
    assert_eq!(cells, 9 * 6);
}

#[test]
fn a_started_call_moves_to_kafkas_next_state() {
    let next = |row, call: TxnCall| {
        let (mut tm, ids) = manager(row);
        tm.call(&call, ids).unwrap();
        tm.state()
    };
    use TxnState::*;
    assert_eq!(
        next(Row::State(Uninitialized), TxnCall::InitTransactions),
        Initializing
    );
    assert_eq!(
        next(Row::State(Ready), TxnCall::BeginTransaction),
        InTransaction
    );
    assert_eq!(
        next(Row::State(InTransaction), TxnCall::CommitTransaction),
        CommittingTransaction
    );
    assert_eq!(
        next(Row::State(InTransaction), TxnCall::AbortTransaction),
        AbortingTransaction
    );
    assert_eq!(
        next(Row::State(AbortableError), TxnCall::AbortTransaction),
        AbortingTransaction
    );
    assert_eq!(
        next(Row::State(InTransaction), TxnCall::Send { tp: tp() }),
        InTransaction
    );
}

#[test]
fn only_send_returns_api_exceptions_in_its_future() {
    // KafkaProducer.doSend catches ApiException (fenced, old epoch) into a failed
    // Future; IllegalStateException and KafkaException are thrown.
    let (mut tm, ids) = manager(Row::Fenced);
    let e = tm.call(&TxnCall::Send { tp: tp() }, ids).unwrap_err();
    assert!(e.is_api_exception());
    let (mut tm, ids) = manager(Row::State(TxnState::Ready));
    let e = tm.call(&TxnCall::Send { tp: tp() }, ids).unwrap_err();
    assert!(!e.is_api_exception());
}

#[test]
fn a_refused_call_is_an_applied_action_with_an_event() {
    let mut w = World::new(ClusterConfig::default());
    let p = || "p".to_string();
    for a in [
        Action::CreateTopic {
            name: "t".into(),
            partitions: 1,
            configs: vec![],
        },
        Action::CreateProducer {
            name: p(),
            configs: vec![("transactional.id".into(), "tx".into())],
        },
    ] {
        w.apply(&a).unwrap();
    }
    // Flush makes no transactional check: nothing to refuse in any state.
    w.apply(&Action::Flush { producer: p() }).unwrap();
    let before = w.events().len();
    w.apply(&Action::CommitTransaction { producer: p() })
        .expect("a client-side exception is an outcome, not a refused action");
    let refused: Vec<_> = w.events()[before..]
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Producer { event, .. } if format!("{event:?}").contains("Refused")))
        .collect();
    assert_eq!(refused.len(), 1, "one event says what the client threw");
    assert!(
        w.events()[before..]
            .iter()
            .all(|e| !matches!(e.kind, EventKind::MessageSent { .. })),
        "nothing was sent"
    );
    assert_eq!(w.txn_state("p"), Some(TxnState::Uninitialized));
    // Not transactional at all: Kafka's KafkaProducer message, as an event too.
    w.apply(&Action::CreateProducer {
        name: "i".into(),
        configs: vec![],
    })
    .unwrap();
    w.apply(&Action::BeginTransaction {
        producer: "i".into(),
    })
    .unwrap();
    let last = w.events().last().unwrap();
    let not_transactional = format!("{:?}", TxnCallError::NotTransactional);
    assert!(
        format!("{:?}", last.kind).contains(&not_transactional),
        "{last:?}"
    );
}
