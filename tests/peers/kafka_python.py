"""kafka-python as a peer of `eos inspect` and `--export`.

1. kafka-python's batch builder (`DefaultRecordBatchBuilder`) writes a partition folder
   as a broker would: two segments, transactions committed and aborted (their control
   batches), several producers, a batch in each codec (gzip, snappy, lz4, zstd), the
   indexes, a producer snapshot and the leader-epoch checkpoint. kafka-python's reader
   (`MemoryRecords`) reads each segment back, and the lines it gives must appear, in
   order, in what `eos inspect` prints; so must the summary recovery rebuilds.
2. A one-byte corruption of that folder is named with its file and byte position.
3. The reverse: the folders `eos lesson transactions --export` writes are read by
   kafka-python (every CRC valid) and give the same lines `eos inspect` prints.
4. Zipped: the kafka-python folder zipped by Python's `zipfile` (deflate) gives the same
   `eos inspect` report as the folder; the zip `--export X.zip` writes opens in
   `zipfile` (every CRC-32 checked) and kafka-python reads its segments as eos prints them.

Usage: python tests/peers/kafka_python.py PATH/TO/eos
The last line is "N passed, N failed".
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

from kafka.record._crc32c import crc as crc32c
from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}
CONTROL = 0x20
passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"FAILED - {name}\n{detail}")


def batch(base_offset, pid, epoch, seq, txn, records, codec=0, ts=1_700_000_000_000):
    """A data batch from kafka-python's builder, placed at base_offset."""
    b = DefaultRecordBatchBuilder(
        magic=2, compression_type=codec, is_transactional=txn, producer_id=pid,
        producer_epoch=epoch, base_sequence=seq, batch_size=1 << 20)
    for i, (key, value, headers) in enumerate(records):
        b.append(i, timestamp=ts + i, key=key, value=value, headers=headers)
    buf = b.build()
    struct.pack_into(">q", buf, 0, base_offset)  # baseOffset: the broker's to assign
    return bytes(buf)


def marker(offset, pid, epoch, commit, coordinator_epoch=0, ts=1_700_000_000_100):
    """A control batch (COMMIT or ABORT): the builder writes the record, then the
    control bit is set and the CRC recomputed, as the broker writes markers."""
    key = struct.pack(">hh", 0, 1 if commit else 0)
    value = struct.pack(">hi", 0, coordinator_epoch)
    b = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=True, producer_id=pid,
        producer_epoch=epoch, base_sequence=-1, batch_size=1 << 20)
    b.append(0, timestamp=ts, key=key, value=value, headers=[])
    buf = b.build()
    struct.pack_into(">q", buf, 0, offset)
    attributes, = struct.unpack_from(">h", buf, 21)
    struct.pack_into(">h", buf, 21, attributes | CONTROL)
    struct.pack_into(">I", buf, 17, crc32c(bytes(buf[21:])))
    return bytes(buf)


def kafka_python_lines(name, data):
    """What kafka-python reads from a segment, in `kafka-dump-log.sh`'s line format."""
    lines = [f"Dumping {name}", f"Log starting offset: {int(os.path.basename(name)[:20])}"]
    records = MemoryRecords(data)
    position = 0
    while records.has_next():
        b = records.next_batch()
        assert b.validate_crc(), f"{name}: kafka-python finds a bad CRC at {position}"
        ts_type = "LogAppendTime" if b.timestamp_type == 1 else "CreateTime"
        lines.append(
            f"baseOffset: {b.base_offset} lastOffset: {b.last_offset} count: {b.records_count} "
            f"baseSequence: {b.base_sequence} lastSequence: {b.last_sequence} "
            f"producerId: {b.producer_id} producerEpoch: {b.producer_epoch} "
            f"partitionLeaderEpoch: {b.leader_epoch} isTransactional: {str(b.is_transactional).lower()} "
            f"isControl: {str(b.is_control_batch).lower()} deleteHorizonMs: OptionalLong.empty "
            f"position: {position} {ts_type}: {b.max_timestamp} size: {b.size_in_bytes} magic: {b.magic} "
            f"compresscodec: {CODECS[b.compression_type]} crc: {b.crc} isvalid: true")
        for r in b:
            seq = -1 if b.base_sequence < 0 else b.base_sequence + (r.offset - b.base_offset)
            key_size = -1 if r.key is None else len(r.key)
            value_size = -1 if r.value is None else len(r.value)
            keys = ",".join(k for k, _ in r.headers)
            line = (f"| offset: {r.offset} {ts_type}: {r.timestamp} keySize: {key_size} "
                    f"valueSize: {value_size} sequence: {seq} headerKeys: [{keys}]")
            if b.is_control_batch:
                _, coordinator_epoch = struct.unpack(">hi", r.value)
                kind = "ABORT" if r.abort else "COMMIT"
                line += f" endTxnMarker: {kind} coordinatorEpoch: {coordinator_epoch}"
            else:
                if r.key is not None:
                    line += " key: " + r.key.decode("utf-8", "replace")
                if r.value is not None:
                    line += " payload: " + r.value.decode("utf-8", "replace")
            lines.append(line)
        position += b.size_in_bytes
    return lines


def terminal_safe(text):
    """The escaping `eos` applies to what it prints (cli::terminal_safe): control
    characters but newline and tab, and bidirectional overrides, as \\u{hex}."""
    def unsafe(c):
        return ((unicodedata.category(c) == "Cc" and c not in "\n\t")
                or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069)
    return "".join("\\u{%x}" % ord(c) if unsafe(c) else c for c in text)


def as_printed(lines):
    """Lines as a terminal shows them once eos has printed them."""
    return terminal_safe("\n".join(lines)).splitlines()


def contains_block(text_lines, block):
    """Whether `block` appears as consecutive lines of `text_lines`."""
    n = len(block)
    return any(text_lines[i:i + n] == block for i in range(len(text_lines) - n + 1))


def eos_inspect(eos, folder):
    out = subprocess.run([eos, "inspect", folder], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def write_peer_partition(folder):
    """peers-0: segment 0 holds offsets 0-7, segment 8 holds 8-11."""
    os.makedirs(folder)
    h = [("trace", b"t-1")]
    seg0 = [
        batch(0, 1000, 0, 0, True, [(b"k0", b"committed-0", []), (b"k1", b"committed-1", h), (None, b"committed-2", [])]),
        batch(3, 2000, 0, 0, False, [(None, b"gzip-" + b"x" * 200, []), (None, b"gzip-" + b"y" * 200, [])], codec=1),
        marker(5, 1000, 0, commit=True),
        batch(6, 1001, 0, 0, True, [(None, b"snappy-" + b"a" * 200, []), (None, b"snappy-" + b"b" * 200, [])], codec=2),
    ]
    seg8 = [
        marker(8, 1001, 0, commit=False),
        batch(9, 2000, 0, 2, False, [(b"lz4", b"lz4-" + b"z" * 300, h)], codec=3),
        batch(10, 1000, 0, 3, True, [(None, b"zstd-" + b"q" * 300, []), (None, b"zstd-" + b"r" * 300, [])], codec=4),
    ]
    for base, batches in ((0, seg0), (8, seg8)):
        with open(os.path.join(folder, f"{base:020d}.log"), "wb") as f:
            f.write(b"".join(batches))
    # .index: (relative offset, position) of the first batch of each segment; .timeindex:
    # (largest timestamp, its batch's last offset).
    with open(os.path.join(folder, f"{0:020d}.index"), "wb") as f:
        f.write(struct.pack(">ii", 2, 0))
    with open(os.path.join(folder, f"{0:020d}.timeindex"), "wb") as f:
        f.write(struct.pack(">qi", 1_700_000_000_002, 2))
    with open(os.path.join(folder, f"{8:020d}.index"), "wb") as f:
        f.write(struct.pack(">ii", 0, 0))
    # The abort of producer 1001's transaction 6..8; the LSO after it is 9.
    with open(os.path.join(folder, f"{8:020d}.txnindex"), "wb") as f:
        f.write(struct.pack(">hqqqq", 0, 1001, 6, 8, 9))
    # The producer snapshot the broker writes when it rolls to segment 8 (ProducerSnapshot
    # v1): each producer's last batch, and 1001's open transaction from offset 6.
    entries = [
        (1000, 0, 2, 2, 2, 1_700_000_000_002, 0, -1),
        (1001, 0, 1, 7, 1, 1_700_000_000_001, -1, 6),
        (2000, 0, 1, 4, 1, 1_700_000_000_001, -1, -1),
    ]
    body = struct.pack(">i", len(entries)) + b"".join(struct.pack(">qhiqiqiq", *e) for e in entries)
    with open(os.path.join(folder, f"{8:020d}.snapshot"), "wb") as f:
        f.write(struct.pack(">hI", 1, crc32c(body)) + body)
    with open(os.path.join(folder, "leader-epoch-checkpoint"), "w") as f:
        f.write("0\n1\n0 0\n")


def segments(folder):
    for dirpath, _, names in sorted(os.walk(folder)):
        for n in sorted(names):
            if n.endswith(".log"):
                yield os.path.join(dirpath, n)


def main():
    eos = sys.argv[1]
    work = tempfile.mkdtemp(prefix="eos-kpy-")
    try:
        logdir = os.path.join(work, "logdir")
        peer = os.path.join(logdir, "peers-0")
        write_peer_partition(peer)
        out = eos_inspect(eos, logdir)
        for path in segments(logdir):
            name = os.path.relpath(path, logdir)
            with open(path, "rb") as f:
                expected = as_printed(kafka_python_lines(name, f.read()))
            check(f"eos inspect shows the batches kafka-python reads from {name}",
                  contains_block(out, expected),
                  "\n".join(["expected:"] + expected + ["eos printed:"] + out))
        summary = [
            "peers-0: no problems found",
            "  log start offset 0, log end offset 12, LSO 10 (with the high watermark at the log end)",
            "  producer state loaded from the snapshot at offset 8, then 3 batches of the log replayed",
            "    producerId: 1000 producerEpoch: 0 coordinatorEpoch: 0 currentTxnFirstOffset: OptionalLong[10] firstSequence: 3 lastSequence: 4 lastOffset: 11",
            "    producerId: 1001 producerEpoch: 0 coordinatorEpoch: 0 currentTxnFirstOffset: OptionalLong.empty firstSequence: 0 lastSequence: 1 lastOffset: 7",
            "    producerId: 2000 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong.empty firstSequence: 2 lastSequence: 2 lastOffset: 9",
            "    producerId: 1000 firstOffset: 10",
            "    version: 0 producerId: 1001 firstOffset: 6 lastOffset: 8 lastStableOffset: 9",
        ]
        for line in summary:
            check(f"the summary says: {line.strip()}", line in out, "\n".join(out))
        check("the snapshot is decoded",
              "producerId: 1001 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong[6] "
              "lastTimestamp: 1700000000001 firstSequence: 0 lastSequence: 1 lastOffset: 7 offsetDelta: 1 "
              "timestamp: 1700000000001" in out, "\n".join(out))

        # One flipped byte inside the third batch of segment 0 (its records, under the CRC).
        seg0 = os.path.join(peer, f"{0:020d}.log")
        with open(seg0, "rb") as f:
            data = bytearray(f.read())
        third = 0
        for _ in range(2):
            third += 12 + struct.unpack_from(">i", data, third + 8)[0]
        data[third + 70] ^= 0x40
        with open(seg0, "wb") as f:
            f.write(data)
        out = eos_inspect(eos, peer)
        check("a flipped byte is named with its file and batch position",
              any(l.startswith(f"  peers-0/{0:020d}.log at byte {third}: CRC mismatch") for l in out),
              "\n".join(out))
        check("recovery keeps the batches before it",
              any("log end offset 5," in l for l in out), "\n".join(out))

        # The reverse: what eos exports, kafka-python reads.
        exported = os.path.join(work, "exported")
        subprocess.run([eos, "lesson", "transactions", "--export", exported],
                       capture_output=True, check=True)
        out = eos_inspect(eos, exported)
        logs = [p for p in segments(exported) if os.path.getsize(p) > 0]
        for path in logs:
            name = os.path.relpath(path, exported)
            with open(path, "rb") as f:
                expected = as_printed(kafka_python_lines(name, f.read()))
            check(f"kafka-python reads eos's export {name} as eos inspect shows it",
                  contains_block(out, expected),
                  "\n".join(["kafka-python read:"] + expected + ["eos printed:"] + out))
        check("the export holds transactional data and both markers",
              any("endTxnMarker: ABORT" in l for l in out) and any("endTxnMarker: COMMIT" in l for l in out))

        # Zipped both ways.
        zipped = os.path.join(work, "peers.zip")
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(logdir, "logdir")
            for path in sorted(os.listdir(peer)):
                z.write(os.path.join(peer, path), f"logdir/peers-0/{path}")
        # The same report, each path named as the zip holds it (logdir/peers-0/…).
        folder_out = [re.sub(r"(?<![\w/-])peers-0\b", "logdir/peers-0", l) for l in eos_inspect(eos, logdir)]
        from_zip = eos_inspect(eos, zipped)
        check("eos inspect reads Python's deflate zip of the folder as the folder itself",
              from_zip == folder_out,
              "\n".join(l for a, b in zip(from_zip, folder_out) if a != b for l in ("zip:    " + a, "folder: " + b)))
        exported_zip = os.path.join(work, "exported.zip")
        subprocess.run([eos, "lesson", "transactions", "--export", exported_zip],
                       capture_output=True, check=True)
        with zipfile.ZipFile(exported_zip) as z:
            check("Python's zipfile finds every CRC-32 of eos's zip valid", z.testzip() is None)
            names = [n for n in z.namelist() if n.endswith(".log") and z.getinfo(n).file_size > 0]
            check("the zip holds the layout --export writes",
                  sorted(z.namelist()) == sorted(os.path.relpath(os.path.join(d, f), exported)
                                                 for d, _, fs in os.walk(exported) for f in fs))
            out = eos_inspect(eos, exported_zip)
            for name in names:
                expected = as_printed(kafka_python_lines(name, z.read(name)))
                check(f"kafka-python reads {name} from eos's zip as eos inspect shows it",
                      contains_block(out, expected),
                      "\n".join(["kafka-python read:"] + expected + ["eos printed:"] + out))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
