#!/usr/bin/env python3
"""Writes the damaged-journal fixtures of journal_damage_test.cpp, one case a file.

Each journal holds events seq 1..N of board "b1" (a moveWithdrawn e2e4 at seq * 100 ms,
the same bytes as the test's event_bytes()), then is damaged as its name says. Run from
this directory; the files are checked in, this is how they were made.
"""


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def event(seq):
    inner = b"\x0a\x04e2e4"  # MoveWithdrawn.uci = "e2e4"
    body = b"\x0a\x02b1"  # board_id = "b1"
    body += b"\x10" + varint(seq)  # seq
    body += b"\x18" + varint(seq * 100)  # at_ms
    body += b"\x92\x01" + varint(len(inner)) + inner  # move_withdrawn = 18
    return body


def le32(value):
    return value.to_bytes(4, "little")


HEADER = b"\0eboard-journal 2\n"
MARKER = b"\xE8\x4A\x9B\x52"


def v2_record(payload):
    covered = le32(len(payload)) + payload
    return MARKER + covered + le32(crc32c(covered))


def v1_record(payload):
    return varint(len(payload)) + payload + le32(crc32c(payload))


def v2_journal(count):
    data = bytearray(HEADER)
    starts = []
    for seq in range(1, count + 1):
        starts.append(len(data))
        data += v2_record(event(seq))
    return data, starts


def v1_journal(count):
    data = bytearray()
    starts = []
    for seq in range(1, count + 1):
        starts.append(len(data))
        data += v1_record(event(seq))
    return data, starts


def write(name, data, tail=4096):
    with open(name, "wb") as out:
        out.write(bytes(data) + b"\0" * tail)


def main():
    data, _ = v1_journal(5)
    write("v1_intact.journal", data)

    data, starts = v1_journal(20)
    data[starts[7] + 6] ^= 0x10  # inside seq 8's event
    write("v1_flipped_byte.journal", data)

    data, starts = v2_journal(20)
    data[starts[7] + 14] ^= 0x01  # inside seq 8's event
    write("v2_flipped_byte.journal", data)

    data, starts = v2_journal(20)
    data[starts[4] + 5] ^= 0xFF  # seq 5's length
    data[starts[12]] ^= 0x80  # seq 13's marker
    write("v2_two_damaged_records.journal", data)

    data, starts = v2_journal(10)
    cut = starts[9] + 9  # the power went during seq 10's record
    write("v2_torn_tail.journal", data[:cut])

    data, starts = v2_journal(10)
    write("v2_truncated_mid_record.journal", data[: starts[6] + 20], tail=0)

    data, _ = v2_journal(6)
    for i in range(10):
        data[i] = 0xAA  # the header overwritten
    write("v2_damaged_header.journal", data)


main()
