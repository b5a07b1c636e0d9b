//! `kafka-delete-records.sh` (`DeleteRecordsCommand`, Kafka 4.0, trunk 1eb7644):
//! Admin.deleteRecords sends DeleteRecords to the partition's leader, and the tool
//! prints one line per partition: its low watermark, or the exception.

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};
use crate::sim::{SimError, World};

/// `Admin.deleteRecords`' default timeout (`default.api.timeout.ms`, 60 s).
const DELETE_RECORDS_TIMEOUT_MS: i32 = 60_000;

impl World {
    /// `kafka-delete-records.sh --offset-json-file` with one partition: moves its log
    /// start to `offset` (-1: the HW). Prints what the tool prints.
    pub fn admin_delete_records(
        &mut self,
        tp: &TopicPartition,
        offset: i64,
    ) -> Result<Vec<String>, SimError> {
        let mut lines = vec![
            "Executing records delete operation".to_string(),
            "Records delete operation completed:".to_string(),
        ];
        // The admin client finds the leader in its metadata; an unknown partition
        // fails there with the topic's error.
        let result = match self.leader_of(tp) {
            None => Err(Errors::UnknownTopicOrPartition),
            Some(leader) => {
                let request = Request::DeleteRecords {
                    partitions: vec![(tp.clone(), offset)],
                    timeout_ms: DELETE_RECORDS_TIMEOUT_MS,
                };
                match self.raw_request(leader, request) {
                    Some(Response::DeleteRecords { results }) => results
                        .into_iter()
                        .find(|(t, _, _)| t == tp)
                        .map_or(Err(Errors::UnknownServerError), |(_, low, error)| {
                            if error == Errors::None {
                                Ok(low)
                            } else {
                                Err(error)
                            }
                        }),
                    Some(other) => Err(other.error()),
                    None => Err(Errors::RequestTimedOut),
                }
            }
        };
        lines.push(match result {
            Ok(low_watermark) => format!("partition: {tp}\tlow_watermark: {low_watermark}"),
            // `ExecutionException.getMessage()`: the cause's class and message.
            Err(error) => format!(
                "partition: {tp}\terror: org.apache.kafka.common.errors.{}: {}",
                error.exception_name(),
                error.message()
            ),
        });
        Ok(lines)
    }
}
