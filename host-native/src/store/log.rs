//! The write-ahead log: what makes a batch durable before redb has written it.
//!
//! A durable redb commit rewrites every B-tree page the batch touched, at scattered places, and
//! waits for them (1.8 MB a send at 1M messages; ARCHITECTURE.md, "Durable sends: a write-ahead
//! log"). So each batch's changes are appended here and synced (a few KB, sequentially), redb
//! commits without syncing, and now and then a checkpoint makes redb durable and empties the log.
//! After a crash, opening the store replays the records redb had not made durable.
//!
//! A record is `sequence (u64) · length (u32) · CRC-32 of the two and the payload (u32) ·
//! payload`, little-endian; the payload is the batch's changes as a JSON array. A record is
//! appended whole and synced before its batch is answered, so only the last one can be torn (a
//! crash during its write, before anyone heard of it): reading stops at the first record that is
//! short or fails its checksum, and that tail is cut off.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;

use confab_core::store::Change;

/// The log file inside a data directory. Not `.log`: an operator must never take it for a text
/// log and delete it, since after a crash it holds acknowledged writes.
pub const LOG_FILE: &str = "confab.wal";

const HEADER: usize = 8 + 4 + 4;

/// One batch as the log holds it.
#[derive(Debug, PartialEq)]
pub struct Record {
    /// The batch's place in the order of batches; redb's `meta` remembers the last one applied.
    pub sequence: u64,
    pub changes: Vec<Change>,
}

/// The open log, positioned at its end.
pub struct Log {
    file: File,
    /// Bytes in the file: where the next record goes.
    len: u64,
}

impl Log {
    /// Opens or creates `DIR/confab.wal` and reads its records. A torn last record is cut off
    /// (logged: bytes that were never acknowledged).
    pub fn open(data_dir: &Path) -> io::Result<(Log, Vec<Record>)> {
        let path = data_dir.join(LOG_FILE);
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path)?;
        // A new log's directory entry must survive a crash as well as its records.
        if let Ok(dir) = File::open(data_dir) {
            dir.sync_all()?;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (records, whole) = read_records(&bytes)?;
        if whole < bytes.len() {
            tracing::warn!(
                "the write-ahead log ends in {} bytes of a record that was never acknowledged; cutting them off",
                bytes.len() - whole
            );
            file.set_len(whole as u64)?;
            file.sync_all()?;
        }
        Ok((Log { file, len: whole as u64 }, records))
    }

    /// Appends a batch and waits until it is on disk.
    pub fn append(&mut self, sequence: u64, changes: &[&Change]) -> io::Result<()> {
        let record = encode_record(sequence, changes)?;
        let written = self.file.write_all_at(&record, self.len).and_then(|()| self.file.sync_data());
        if let Err(e) = written {
            // Leave no half record for a later append to follow: the reader would stop there.
            self.truncate(self.len)?;
            return Err(e);
        }
        self.len += record.len() as u64;
        Ok(())
    }

    /// Drops everything after the first `len` bytes: the last record, when its batch could not
    /// be committed after all.
    pub fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        self.len = len;
        self.file.sync_all()
    }

    /// Empties the log, once redb holds everything in it durably.
    pub fn cut(&mut self) -> io::Result<()> {
        self.truncate(0)
    }

    /// Bytes in the log: how much a crash would replay.
    pub fn bytes(&self) -> u64 {
        self.len
    }
}

fn encode_record(sequence: u64, changes: &[&Change]) -> io::Result<Vec<u8>> {
    let mut record = vec![0; HEADER];
    serde_json::to_writer(&mut record, changes)?;
    let payload_len = u32::try_from(record.len() - HEADER)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a batch of more than 4 GiB"))?;
    record[0..8].copy_from_slice(&sequence.to_le_bytes());
    record[8..12].copy_from_slice(&payload_len.to_le_bytes());
    let crc = checksum(&record[0..12], &record[HEADER..]);
    record[12..16].copy_from_slice(&crc.to_le_bytes());
    Ok(record)
}

fn checksum(head: &[u8], payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(head);
    hasher.update(payload);
    hasher.finalize()
}

/// The whole records at the start of `bytes`, and how many bytes they take. A record whose
/// checksum holds but whose payload does not decode is an error, not a torn tail: it was written
/// whole, by a Confab that encodes changes differently.
fn read_records(bytes: &[u8]) -> io::Result<(Vec<Record>, usize)> {
    let mut records = Vec::new();
    let mut at = 0;
    while let Some(head) = bytes.get(at..at + HEADER) {
        let sequence = u64::from_le_bytes(head[0..8].try_into().expect("8 bytes"));
        let payload_len = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(head[12..16].try_into().expect("4 bytes"));
        let Some(payload) = bytes.get(at + HEADER..at + HEADER + payload_len) else { break };
        if checksum(&head[0..12], payload) != crc {
            break;
        }
        let changes = serde_json::from_slice(payload).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the write-ahead log's batch {sequence} does not decode ({e}); was it written by another Confab?"),
            )
        })?;
        records.push(Record { sequence, changes });
        at += HEADER + payload_len;
    }
    Ok((records, at))
}

#[cfg(test)]
mod tests {
    use confab_core::ids::UserId;

    use super::*;

    fn change(n: u64) -> Change {
        Change::PutAlertWords(UserId(n), vec![format!("word {n}")])
    }

    fn append(log: &mut Log, sequence: u64) {
        log.append(sequence, &[&change(sequence), &change(sequence + 100)]).expect("appended");
    }

    #[test]
    fn records_read_back_in_order_after_a_reopen() {
        let dir = tempfile::tempdir().expect("a directory");
        let (mut log, found) = Log::open(dir.path()).expect("a new log");
        assert!(found.is_empty());
        append(&mut log, 7);
        append(&mut log, 8);
        drop(log);
        let (log, found) = Log::open(dir.path()).expect("reopened");
        let sequences: Vec<u64> = found.iter().map(|r| r.sequence).collect();
        assert_eq!(sequences, [7, 8]);
        assert_eq!(found[1].changes, [change(8), change(108)]);
        assert_eq!(log.bytes(), std::fs::metadata(dir.path().join(LOG_FILE)).expect("the file").len());
    }

    #[test]
    fn a_torn_last_record_is_cut_off_and_the_next_append_follows_the_whole_ones() {
        let dir = tempfile::tempdir().expect("a directory");
        let (mut log, _) = Log::open(dir.path()).expect("a new log");
        append(&mut log, 1);
        append(&mut log, 2);
        let whole = log.bytes();
        drop(log);
        let path = dir.path().join(LOG_FILE);
        // A crash in the middle of the third record's write.
        let torn = encode_record(3, &[&change(3)]).expect("encoded");
        let mut file = OpenOptions::new().append(true).open(&path).expect("the file");
        std::io::Write::write_all(&mut file, &torn[..torn.len() - 5]).expect("written");
        drop(file);
        let (mut log, found) = Log::open(dir.path()).expect("reopened");
        assert_eq!(found.len(), 2);
        assert_eq!(log.bytes(), whole);
        append(&mut log, 3);
        drop(log);
        let (_, found) = Log::open(dir.path()).expect("reopened again");
        assert_eq!(found.iter().map(|r| r.sequence).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn a_record_with_a_flipped_byte_ends_the_log() {
        let dir = tempfile::tempdir().expect("a directory");
        let (mut log, _) = Log::open(dir.path()).expect("a new log");
        append(&mut log, 1);
        let first = log.bytes();
        append(&mut log, 2);
        drop(log);
        let path = dir.path().join(LOG_FILE);
        let mut bytes = std::fs::read(&path).expect("the file");
        let last = bytes.len() - 1;
        bytes[last] ^= 0x20;
        std::fs::write(&path, bytes).expect("written");
        let (log, found) = Log::open(dir.path()).expect("reopened");
        assert_eq!(found.len(), 1);
        assert_eq!(log.bytes(), first);
    }

    #[test]
    fn cutting_empties_the_log() {
        let dir = tempfile::tempdir().expect("a directory");
        let (mut log, _) = Log::open(dir.path()).expect("a new log");
        append(&mut log, 1);
        log.cut().expect("cut");
        append(&mut log, 2);
        drop(log);
        let (_, found) = Log::open(dir.path()).expect("reopened");
        assert_eq!(found.iter().map(|r| r.sequence).collect::<Vec<_>>(), [2]);
    }
}
