// Millennium ChessLink bytes (docs/protocols.md §5): 7-bit ASCII with odd parity at 38400
// baud; every message is a command letter, its data as characters, and a "block parity"
// of two upper-case hex digits: the XOR of every character from the letter to the last
// data character. Replies carry the command's letter in lower case and have a fixed
// length per letter. Confirmed against python-mchess (`chess_link_protocol.py`: the
// checksum and the bit-7 parity; its captured exchange `V56` -> `v010374`, whose
// checksum 74 this rule gives) and mono424/chesslinkdriver (reply lengths).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::drivers::chesslink {

using Bytes = std::vector<std::uint8_t>;

inline constexpr int kBaud = 38400;
inline constexpr std::size_t kSquares = 64;
inline constexpr std::size_t kLeds = 81;  // 9 x 9, on the squares' corners

// Reply lengths including the letter and the two checksum digits (§5 table).
inline constexpr std::size_t kStatusLength = 67;  // 's' + 64 piece characters + checksum
inline constexpr std::size_t kVersionLength = 7;  // 'v' + 4 hex digits + checksum
inline constexpr std::size_t kShortLength = 3;    // 'l' / 'x' + checksum
inline constexpr std::size_t kE2romLength = 7;    // 'w' / 'r' + address + value + checksum

// E2ROM addresses (§5 "E2ROM options").
inline constexpr std::uint8_t kE2romChecksumOff = 0x00;
inline constexpr std::uint8_t kE2romScanTime = 0x01;
inline constexpr std::uint8_t kE2romReports = 0x02;
inline constexpr std::uint8_t kE2romLedBrightness = 0x04;
// Automatic reports on a change seen in 2 successive scans (bits 0-2 = 100): the board's
// own debounce (~82 ms at the default 40.96 ms scan) keeps a hand's shadow out of the
// reports without hiding a quick move.
inline constexpr std::uint8_t kReportsOnStableChange = 0x04;
inline constexpr std::uint8_t kReportsEveryScan = 0x00;
inline constexpr std::uint8_t kReportsOff = 0x01;

// Length of the reply to a letter ('s', 'v', ...), 0 when it is none we know.
std::size_t reply_length(char letter);

// The checksum of `text` as two upper-case hex digits.
std::array<char, 2> block_parity(std::string_view text);

// A command as it goes on the wire: letter + data + checksum, 7-bit characters (the
// UART adds the parity bit).
Bytes encode(char letter, std::string_view data = {});
std::string hex2(std::uint8_t value);
std::optional<std::uint8_t> parse_hex2(char high, char low);

// A ChessLink byte with its parity bit set (odd parity over 8 bits), as python-mchess
// sends them over an 8N1 line; the emulator uses it so the decoder's masking is exercised.
std::uint8_t with_odd_parity(std::uint8_t ascii);

}  // namespace eboard::drivers::chesslink
