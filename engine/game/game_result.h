// A game's result as the engine keeps it (PGN's four values, docs/interfaces.md §4
// gameEnded.result). Its text is written at the edges: the wire, the PGN, the text view.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/board/types.h"

namespace eboard::engine {

enum class GameResult : std::uint8_t { kUnfinished, kWhiteWins, kBlackWins, kDraw };

// "*", "1-0", "0-1", "1/2-1/2".
constexpr std::string_view result_text(GameResult result) {
  switch (result) {
    case GameResult::kWhiteWins: return "1-0";
    case GameResult::kBlackWins: return "0-1";
    case GameResult::kDraw: return "1/2-1/2";
    case GameResult::kUnfinished: break;
  }
  return "*";
}

// The result a text names; nullopt for anything but the four values.
constexpr std::optional<GameResult> parse_result(std::string_view text) {
  for (GameResult r :
       {GameResult::kUnfinished, GameResult::kWhiteWins, GameResult::kBlackWins, GameResult::kDraw})
    if (result_text(r) == text) return r;
  return std::nullopt;
}

constexpr GameResult win_for(Color side) {
  return side == kWhite ? GameResult::kWhiteWins : GameResult::kBlackWins;
}

}  // namespace eboard::engine
