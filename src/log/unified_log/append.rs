//! Writing to the log: client batches (`AppendOrigin.CLIENT`), coordinator records and
//! markers (`AppendOrigin.COORDINATOR`), segment rolls and producer snapshots.

use super::*;

impl UnifiedLog {
    /// `UnifiedLog.append` for a batch from a client (`AppendOrigin.CLIENT`): validate,
    /// check producer state, roll if the batch does not fit, assign offsets, write.
    pub fn append_as_leader(
        &mut self,
        fs: &mut MemFs,
        mut batch: RecordBatch,
        now_ms: i64,
    ) -> Result<LogAppendInfo, AppendError> {
        let _ = now_ms;
        // Kafka 4.0's order: the size (`analyzeAndValidateRecords`), then
        // `LogValidator.validateBatch` (no control batches, no negative sequence with a
        // producer id), then whether the batch fits a segment.
        let size = self.check_batch_size(&batch)?;
        if batch.is_control() {
            return Err(AppendError::Invalid {
                error: Errors::InvalidRecord,
                detail: ErrorDetail::ControlRecordsFromClient,
            });
        }
        match batch.validate_for_append() {
            Ok(()) => {}
            Err(RecordError::InvalidSequence {
                base_sequence,
                producer_id,
            }) => {
                return Err(AppendError::Invalid {
                    error: Errors::InvalidRecord,
                    detail: ErrorDetail::InvalidSequence {
                        base_sequence,
                        producer_id,
                        partition: self.topic_partition.to_string(),
                    },
                })
            }
            Err(e) => {
                return Err(AppendError::Invalid {
                    error: Errors::InvalidRecord,
                    detail: ErrorDetail::InvalidBatch(e),
                })
            }
        }
        // `LogValidator.validateKey`: a compacted log keeps one record per key, so a
        // record without one is refused.
        if self.config.cleanup_policy_compact && batch.records.iter().any(|r| r.key.is_none()) {
            return Err(AppendError::Invalid {
                error: Errors::InvalidRecord,
                detail: ErrorDetail::CompactedTopicWithoutKey {
                    partition: self.topic_partition.to_string(),
                },
            });
        }
        if size > self.config.segment_bytes {
            return Err(AppendError::Invalid {
                error: Errors::RecordListTooLarge,
                detail: ErrorDetail::BatchLargerThanSegment {
                    size,
                    segment_bytes: self.config.segment_bytes,
                },
            });
        }
        if batch.has_producer_id() {
            let tp = self.topic_partition.to_string();
            match self
                .producer_state
                .check_client_batch(&batch, self.log_end_offset, &tp)
            {
                // NOT KAFKA: break dedup=N — a duplicate further back than N batches
                // is not found, and is written again.
                Ok(ProducerCheck::Duplicate(meta))
                    if self.config.breaks.dedup_finds(
                        self.producer_state.batches_after(batch.producer_id, &meta),
                    ) =>
                {
                    return Ok(LogAppendInfo {
                        outcome: AppendOutcome::Duplicate(meta),
                        rolled_segment: None,
                        snapshot_written: None,
                    })
                }
                Ok(ProducerCheck::Append | ProducerCheck::Duplicate(_)) => {}
                // NOT KAFKA: break fencing — an older epoch's batch is written.
                Err(e)
                    if e.error == Errors::InvalidProducerEpoch
                        && self.config.breaks.fencing_off() => {}
                Err(e) => return Err(AppendError::Producer(e)),
            }
        }
        batch.base_offset = self.log_end_offset;
        batch.partition_leader_epoch = self.leader_epoch;
        let (rolled_segment, snapshot_written) =
            self.maybe_roll(fs, size).map_err(storage_error)?;
        let info = self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(LogAppendInfo {
            outcome: info,
            rolled_segment,
            snapshot_written,
        })
    }

    /// `analyzeAndValidateRecords`' size rule, for every append as leader whatever its
    /// origin (only a follower's append skips it): a batch above `max.message.bytes`
    /// is MESSAGE_TOO_LARGE (`RecordTooLargeException`). Answers the batch size.
    fn check_batch_size(&self, batch: &RecordBatch) -> Result<u64, AppendError> {
        let size = batch.size_in_bytes() as u64;
        if size > self.config.max_message_bytes {
            return Err(AppendError::Invalid {
                error: Errors::MessageTooLarge,
                detail: ErrorDetail::BatchTooLarge {
                    size,
                    max_message_bytes: self.config.max_message_bytes,
                },
            });
        }
        Ok(size)
    }

    /// An append by a coordinator to its internal topic (`AppendOrigin.COORDINATOR`):
    /// `__transaction_state` records, or offsets committed in a transaction. No
    /// sequence checks; a transactional batch still opens its producer's transaction.
    pub fn append_internal(
        &mut self,
        fs: &mut MemFs,
        mut batch: RecordBatch,
    ) -> Result<i64, AppendError> {
        batch.base_offset = self.log_end_offset;
        batch.partition_leader_epoch = self.leader_epoch;
        let size = self.check_batch_size(&batch)?;
        self.maybe_roll(fs, size).map_err(storage_error)?;
        self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(batch.base_offset)
    }

    /// Writes a batch whose offsets are already assigned and updates producer state
    /// (and, on a replicated log, the leader-epoch cache).
    pub(super) fn write_batch(
        &mut self,
        fs: &mut MemFs,
        batch: &RecordBatch,
    ) -> Result<AppendOutcome, FsError> {
        let mut bytes = batch.encode();
        let _ = set_base_offset(&mut bytes, batch.base_offset);
        let interval = self.config.index_interval_bytes;
        let dir = self.dir.clone();
        let segment = match self.segments.last_mut() {
            Some(s) => s,
            None => return Err(FsError::NotFound(dir)),
        };
        let position = segment.append(
            fs,
            &dir,
            &bytes,
            batch.last_offset(),
            batch.max_timestamp,
            interval,
        )?;
        let completed = self.producer_state.update(batch);
        self.log_end_offset = batch.next_offset();
        if let Some(txn) = completed.filter(|t| t.is_aborted) {
            // `updateTxnIndex`: the LSO once this transaction is out of the way.
            let entry = self.producer_state.aborted_txn_entry(&txn);
            let base = self.segments.last().map_or(0, |s| s.base_offset);
            let path = format!("{dir}/{}", file_name(base, ".txnindex"));
            debug_assert!(check_append_order(
                AbortedTxn::decode_all(fs.read(&path).unwrap_or_default()).last(),
                &entry
            )
            .is_ok());
            fs.append(&path, &entry.encode())?;
        }
        if self.replicated {
            self.maybe_assign_epoch_start_offset(
                fs,
                batch.partition_leader_epoch,
                batch.base_offset,
            )?;
        } else {
            // One replica: the write is on every in-sync replica at once.
            self.high_watermark = self.log_end_offset;
            self.producer_state
                .on_high_watermark_updated(self.high_watermark);
        }
        self.debug_check_offsets();
        Ok(AppendOutcome::Appended {
            first_offset: batch.base_offset,
            last_offset: batch.last_offset(),
            position,
        })
    }

    /// `maybeRoll`: a new segment when the batch would not fit in the active one.
    pub(super) fn maybe_roll(
        &mut self,
        fs: &mut MemFs,
        batch_size: u64,
    ) -> Result<(Option<i64>, Option<String>), FsError> {
        let size = self.active().map_or(0, |s| s.size);
        if size == 0 || size + batch_size <= self.config.segment_bytes {
            return Ok((None, None));
        }
        self.roll(fs).map(|(base, snap)| (Some(base), snap))
    }

    /// `roll`: close the active segment's time index, snapshot producer state at the
    /// new base offset (as Kafka does on every roll), start a new segment.
    pub(super) fn roll(&mut self, fs: &mut MemFs) -> Result<(i64, Option<String>), FsError> {
        let dir = self.dir.clone();
        if let Some(active) = self.segments.last_mut() {
            active.maybe_append_time_index(fs, &dir)?;
        }
        let base = self.log_end_offset;
        let snapshot = self.take_snapshot(fs)?;
        let segment = LogSegment::new(base);
        segment.create_files(fs, &dir)?;
        self.segments.push(segment);
        self.debug_check_offsets();
        Ok((base, snapshot))
    }

    /// Writes `<LEO>.snapshot` if snapshots are on and the LEO moved since the last
    /// one (`ProducerStateManager.takeSnapshot`).
    pub fn take_snapshot(&mut self, fs: &mut MemFs) -> Result<Option<String>, FsError> {
        // NOT KAFKA: break snapshots — `takeSnapshot` is skipped.
        if !self.config.producer_snapshots || self.config.breaks.no_snapshots() {
            return Ok(None);
        }
        self.producer_state
            .update_map_end_offset(self.log_end_offset);
        let Some(bytes) = self.producer_state.take_snapshot() else {
            return Ok(None);
        };
        let path = self.snapshot_path(self.log_end_offset);
        fs.write(&path, &bytes)?;
        Ok(Some(path))
    }

    /// A clean shutdown: Kafka snapshots producer state at the log end so the next
    /// start need not scan the log.
    pub fn close(&mut self, fs: &mut MemFs) -> Result<Option<String>, FsError> {
        let dir = self.dir.clone();
        if let Some(active) = self.segments.last_mut() {
            active.maybe_append_time_index(fs, &dir)?;
        }
        self.take_snapshot(fs)
    }

    /// Writes a COMMIT/ABORT marker for a producer (`AppendOrigin.COORDINATOR`, from
    /// WriteTxnMarkers), with the epoch rules of the cluster's transaction version
    /// ([`ProducerStateManager::check_marker`]).
    #[allow(clippy::too_many_arguments)]
    pub fn append_marker(
        &mut self,
        fs: &mut MemFs,
        producer_id: i64,
        producer_epoch: i16,
        kind: ControlRecordType,
        coordinator_epoch: i32,
        now_ms: i64,
        transaction_v2: bool,
    ) -> Result<MarkerAppend, AppendError> {
        let mut batch = RecordBatch::new_control(
            self.log_end_offset,
            producer_id,
            producer_epoch,
            now_ms,
            kind,
            coordinator_epoch,
        );
        batch.partition_leader_epoch = self.leader_epoch;
        let tp = self.topic_partition.to_string();
        match self
            .producer_state
            .check_marker(&batch, self.log_end_offset, &tp, transaction_v2)
        {
            Ok(MarkerCheck::AlreadyComplete) => return Ok(MarkerAppend::AlreadyComplete),
            Ok(MarkerCheck::Append) => {}
            Err(e) => return Err(AppendError::Producer(e)),
        }
        let first_offset = self
            .producer_state
            .last_entry(producer_id)
            .and_then(|e| e.current_txn_first_offset());
        let size = batch.size_in_bytes() as u64;
        let (rolled_segment, _) = self.maybe_roll(fs, size).map_err(storage_error)?;
        self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(MarkerAppend::Written {
            offset: batch.base_offset,
            txn_first_offset: first_offset,
            rolled_segment,
        })
    }
}
