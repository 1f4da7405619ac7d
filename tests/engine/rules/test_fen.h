// A position from a FEN for the rules tests (irregular positions allowed: the analyses
// are asked about constructed ones); an unreadable FEN fails the test that gave it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "engine/board/fen.h"

namespace eboard::engine {

inline Position fen(const std::string& text) {
  auto p = parse_fen(text, FenMode::kAllowIrregular);
  EXPECT_TRUE(p.ok()) << text;
  return p.value();
}

}  // namespace eboard::engine
