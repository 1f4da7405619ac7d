// PGN reader and writer: one awkward input per file in tests/engine/game/pgn/, each
// error kind with its file:line, recovery after a bad game, and the export format.
#include "engine/game/pgn.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

std::string read_text(const std::string& name) {
  std::ifstream in(std::string(EBOARD_SOURCE_DIR) + "/tests/engine/game/pgn/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every game or error of a file, in order.
struct Outcome {
  std::string text;  // the file, kept alive for the reader
  std::vector<PgnGame> games;
  std::vector<std::string> errors;
  std::vector<bool> order;  // true: a game, false: an error
};

Outcome read_all(const std::string& name) {
  Outcome out;
  out.text = read_text(name);
  PgnReader reader(out.text, name);
  while (auto game = reader.next()) {
    out.order.push_back(game->ok());
    if (game->ok())
      out.games.push_back(game->value());
    else
      out.errors.push_back(game->error());
  }
  return out;
}

// The SAN of a game's moves, joined by spaces (SAN depends on the position, so this
// also checks that the moves replay).
std::string sans(const PgnGame& game) {
  Position pos = game.start;
  std::string out;
  for (Move m : game.moves) {
    out += (out.empty() ? "" : " ") + to_san(pos, m);
    pos.make(m);
  }
  return out;
}

PgnGame only_game(const std::string& name) {
  Outcome out = read_all(name);
  EXPECT_EQ(out.errors, std::vector<std::string>{}) << name;
  EXPECT_EQ(out.games.size(), 1u) << name;
  return out.games.empty() ? PgnGame() : out.games.front();
}

// Writes the game and reads it back: the same moves, comments, start and result.
void expect_round_trip(const PgnGame& game) {
  Result<std::string> text = write_pgn(game);
  ASSERT_TRUE(text.ok()) << text.error();
  Result<std::vector<PgnGame>> back = read_pgn(text.value(), "export");
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << text.value();
  ASSERT_EQ(back.value().size(), 1u);
  const PgnGame& again = back.value().front();
  EXPECT_EQ(again.moves, game.moves);
  EXPECT_EQ(again.comments, game.comments);
  EXPECT_EQ(again.leading_comment, game.leading_comment);
  EXPECT_EQ(to_fen(again.start), to_fen(game.start));
  EXPECT_EQ(again.result, game.result);
  for (const PgnTag& tag : game.tags)
    if (tag.first != "SetUp") {
      EXPECT_NE(again.tag(tag.first), nullptr) << tag.first;
    }
  for (std::size_t start = 0, end; start < text.value().size(); start = end + 1) {
    end = text.value().find('\n', start);
    EXPECT_LT(end - start, 80u) << text.value().substr(start, end - start);
  }
}

TEST(PgnReader, KeepsCommentsWithTheMoveTheyFollow) {
  const PgnGame game = only_game("comments.pgn");
  EXPECT_EQ(sans(game), "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7");
  EXPECT_EQ(game.leading_comment, "Opening comment spanning two lines");
  ASSERT_EQ(game.comments.size(), game.moves.size());
  EXPECT_EQ(game.comments[0], "[%clk 1:59:58]");
  EXPECT_EQ(game.comments[1], "[%clk 1:59:50] rest of the line");
  EXPECT_EQ(game.comments[2], "first second");
  EXPECT_EQ(game.comments[3], "");
  EXPECT_EQ(game.comments[5], "A comment with ; and ( inside");
  EXPECT_EQ(parse_clk(game.comments[0]), milliseconds((1 * 3600 + 59 * 60 + 58) * 1000));
  EXPECT_EQ(parse_clk(game.comments[1]), milliseconds((1 * 3600 + 59 * 60 + 50) * 1000));
  EXPECT_EQ(game.result, "1-0");
  EXPECT_EQ(game.line, 1);
  expect_round_trip(game);
}

TEST(PgnReader, DropsNagsAndAnnotationMarks) {
  const PgnGame game = only_game("nags.pgn");
  EXPECT_EQ(sans(game), "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6");
  EXPECT_EQ(game.result, "*");
}

TEST(PgnReader, SkipsNestedVariations) {
  const PgnGame game = only_game("variations.pgn");
  EXPECT_EQ(sans(game), "e4 e5 Nf3 Nc6");
  EXPECT_EQ(game.result, "1/2-1/2");
  EXPECT_EQ(game.comments, std::vector<std::string>(4));  // comments inside are skipped
}

TEST(PgnReader, StartsFromTheFenTag) {
  const PgnGame game = only_game("setup_fen.pgn");
  EXPECT_EQ(to_fen(game.start), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(sans(game), "c5 Nf3 d6 d4 cxd4");
  expect_round_trip(game);
}

TEST(PgnReader, AcceptsLenientSan) {
  const PgnGame game = only_game("lenient_san.pgn");
  EXPECT_EQ(sans(game), "exd6 Kd7 O-O Ke6 bxa8=Q Kxd6 Qa6+ Kc7 Rf7+ Kb8 Qb6+ Kc8 Ra8#");
  EXPECT_EQ(game.result, "1-0");
  expect_round_trip(game);
}

TEST(PgnReader, UnescapesTagValuesAndKeepsTagOrder) {
  const PgnGame game = only_game("escaped_tags.pgn");
  ASSERT_EQ(game.tags.size(), 6u);
  EXPECT_EQ(game.tags[0], PgnTag("Event", "Quotes \"inside\" and a back\\slash"));
  EXPECT_EQ(game.tags[1], PgnTag("Site", "Spaces around the tag"));
  EXPECT_EQ(game.tags[2], PgnTag("White", "O\"Brien, Pat"));
  EXPECT_EQ(game.tags[3], PgnTag("Black", "Path C:\\games\\"));
  EXPECT_EQ(game.tags[4].second,
            "Unicode \xC3\x9Cn\xC3\xAF\x63\xC3\xB6\x64\xC3\xA9, \xE8\xB1\xA1\xE6\xA3\x8B");
  EXPECT_EQ(sans(game), "f3 e5 g4 Qh4#");
  expect_round_trip(game);
  Result<std::string> text = write_pgn(game);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.value().find("[White \"O\\\"Brien, Pat\"]\n"), std::string::npos);
  EXPECT_NE(text.value().find("[Black \"Path C:\\\\games\\\\\"]\n"), std::string::npos);
}

TEST(PgnReader, ReadsSeveralGamesWithAndWithoutTags) {
  const Outcome out = read_all("multiple_games.pgn");
  EXPECT_TRUE(out.errors.empty());
  ASSERT_EQ(out.games.size(), 4u);
  EXPECT_EQ(sans(out.games[0]), "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
  EXPECT_TRUE(out.games[1].tags.empty());
  EXPECT_EQ(sans(out.games[1]), "d4 d5 c4");
  EXPECT_EQ(out.games[1].result, "1/2-1/2");
  EXPECT_EQ(out.games[2].result, "*");
  EXPECT_EQ(sans(out.games[3]), "g4 e5 f3 Qh4#");
  EXPECT_EQ(out.games[0].line, 1);
  EXPECT_EQ(out.games[1].line, 6);
  EXPECT_EQ(out.games[2].line, 8);
  EXPECT_EQ(out.games[3].line, 12);
}

TEST(PgnReader, HandlesByteOrderMarkAndCrlf) {
  const Outcome out = read_all("bom_crlf.pgn");
  ASSERT_EQ(out.games.size(), 1u);
  EXPECT_EQ(*out.games[0].tag("Event"), "BOM and CRLF");
  EXPECT_EQ(sans(out.games[0]), "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
  EXPECT_EQ(out.errors,
            std::vector<std::string>{
                "bom_crlf.pgn:10: move 2. no such move: Qxf7 (no white queen can go to f7)"});
}

TEST(PgnReader, CountsLinesEndedByCarriageReturnAlone) {
  const Outcome out = read_all("cr_only.pgn");
  EXPECT_EQ(out.errors,
            std::vector<std::string>{
                "cr_only.pgn:5: move 2. no such move: Kf3 (no white king can go to f3)"});
}

TEST(PgnReader, SkipsEscapeLines) {
  const PgnGame game = only_game("escape_lines.pgn");
  EXPECT_EQ(sans(game), "e4 e5 Nf3");
  EXPECT_EQ(game.line, 2);
  EXPECT_EQ(game.tags.size(), 2u);
}

TEST(PgnReader, TakesTheResultTagWhenTheMovetextHasNone) {
  const Outcome out = read_all("missing_result.pgn");
  EXPECT_TRUE(out.errors.empty());
  ASSERT_EQ(out.games.size(), 2u);
  EXPECT_EQ(out.games[0].result, "1/2-1/2");
  EXPECT_EQ(sans(out.games[0]), "e4 e5 Nf3 Nc6");
  EXPECT_EQ(out.games[1].result, "0-1");
}

TEST(PgnReader, ReportsIllegalMoveWithLineAndContinues) {
  const Outcome out = read_all("bad_move.pgn");
  EXPECT_EQ(out.order, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(out.errors,
            std::vector<std::string>{
                "bad_move.pgn:10: move 3. no such move: Ke3 (no white king can go to e3)"});
  ASSERT_EQ(out.games.size(), 2u);
  EXPECT_EQ(*out.games[1].tag("Event"), "Good after");
  EXPECT_EQ(out.games[1].line, 12);
}

// One file per kind of mistake: the exact message, then the reader goes on.
struct BadFile {
  const char* file;
  const char* error;
  int good_games_after;
};

TEST(PgnReader, ReportsEachKindOfMistake) {
  const BadFile cases[] = {
      {"ambiguous_move.pgn", "ambiguous_move.pgn:4: move 4. ambiguous: Ng5 could be Nfg5 or Neg5",
       0},
      {"unterminated_comment.pgn", "unterminated_comment.pgn:4: unterminated comment '{'", 1},
      {"bad_tag.pgn", "bad_tag.pgn:2: bad tag [Site]: expected a quoted value", 1},
      {"unterminated_tag.pgn",
       "unterminated_tag.pgn:1: bad tag [Event]: unterminated string (a tag value ends with '\"' "
       "on its line)",
       1},
      {"unterminated_variation.pgn",
       "unterminated_variation.pgn:4: unterminated variation: '(' without ')'", 1},
      {"unmatched_paren.pgn", "unmatched_paren.pgn:4: ')' without a variation to close", 0},
      {"unexpected_character.pgn", "unexpected_character.pgn:4: unexpected '@'", 0},
      {"variant.pgn", "variant.pgn:2: unsupported variant 'Chess960'", 0},
  };
  for (const BadFile& c : cases) {
    const Outcome out = read_all(c.file);
    EXPECT_EQ(out.errors, std::vector<std::string>{c.error}) << c.file;
    EXPECT_EQ(out.games.size(), std::size_t(c.good_games_after)) << c.file;
    if (!out.order.empty()) {
      EXPECT_FALSE(out.order.front()) << c.file;
    }
  }
}

TEST(PgnReader, ReportsBadFenTagWithTheFenError) {
  const Outcome out = read_all("bad_fen.pgn");
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].rfind("bad_fen.pgn:3: bad FEN tag: ", 0), 0u) << out.errors[0];
  Result<Position> direct = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
  ASSERT_FALSE(direct.ok());
  EXPECT_EQ(out.errors[0], "bad_fen.pgn:3: bad FEN tag: " + direct.error());
  ASSERT_EQ(out.games.size(), 1u);
  EXPECT_EQ(sans(out.games[0]), "Nc3");
}

TEST(PgnReader, EmptyTextHasNoGames) {
  for (std::string_view text :
       {"", "\xEF\xBB\xBF", "  \n\r\n", "{only a comment}\n", "% escape\n"}) {
    PgnReader reader(text, "empty.pgn");
    EXPECT_FALSE(reader.next().has_value()) << text;
  }
}

TEST(PgnReader, ReadPgnStopsAtTheFirstError) {
  const std::string text = read_text("bad_move.pgn");
  Result<std::vector<PgnGame>> games = read_pgn(text, "bad_move.pgn");
  ASSERT_FALSE(games.ok());
  EXPECT_EQ(games.error().rfind("bad_move.pgn:10: ", 0), 0u);
}

TEST(PgnClock, ParsesAndFormats) {
  EXPECT_EQ(parse_clk("[%clk 1:02:03]"), milliseconds(3723000));
  EXPECT_EQ(parse_clk("before [%clk 0:00:05.3] after"), milliseconds(5300));
  EXPECT_EQ(parse_clk("[%clk 12:00:00]"), milliseconds(43200000));
  EXPECT_EQ(parse_clk("[%emt 0:00:05] [%clk 0:10:00]"), milliseconds(600000));
  for (std::string_view bad : {"", "no clock", "[%clk]", "[%clk 1:2]", "[%clk 0:61:00]",
                               "[%clk 0:00:00", "[%clk a:00:00]"})
    EXPECT_FALSE(parse_clk(bad).has_value()) << bad;
  EXPECT_EQ(format_clk(milliseconds(3723999)), "[%clk 1:02:03]");
  EXPECT_EQ(format_clk(milliseconds(0)), "[%clk 0:00:00]");
  EXPECT_EQ(format_clk(milliseconds(-1500)), "[%clk 0:00:00]");
  EXPECT_EQ(format_clk(milliseconds(100LL * 3600 * 1000)), "[%clk 100:00:00]");
}

PgnGame game_from_sans(const std::vector<std::string>& moves) {
  PgnGame game;
  Position pos = game.start;
  for (const std::string& san : moves) {
    Result<Move> m = parse_san(pos, san);
    EXPECT_TRUE(m.ok()) << san;
    if (!m.ok()) break;
    game.moves.push_back(m.value());
    game.comments.emplace_back();
    pos.make(m.value());
  }
  return game;
}

TEST(PgnWriter, WritesTheSevenTagRosterFirstWithDefaults) {
  PgnGame game = game_from_sans({"e4", "e5", "Nf3"});
  game.tags = {{"ECO", "C40"},
               {"White", "Carlsen, Magnus"},
               {"TimeControl", "40/5400+30:1800+30"},
               {"Event", "Test \"Open\""},
               {"Annotator", "me"},
               {"Result", "1-0"}};
  game.result = "*";
  Result<std::string> text = write_pgn(game);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.value(),
            "[Event \"Test \\\"Open\\\"\"]\n"
            "[Site \"?\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"Carlsen, Magnus\"]\n"
            "[Black \"?\"]\n"
            "[Result \"*\"]\n"
            "[TimeControl \"40/5400+30:1800+30\"]\n"
            "[ECO \"C40\"]\n"
            "[Annotator \"me\"]\n"
            "\n"
            "1. e4 e5 2. Nf3 *\n"
            "\n");
}

TEST(PgnWriter, WritesClockAfterEachMoveAndNumbersBlackMovesAfterComments) {
  PgnGame game = game_from_sans({"e4", "e5", "Nf3", "Nc6"});
  game.comments[2] = "a developing move";
  game.result = "1/2-1/2";
  const std::vector<std::optional<milliseconds>> clocks = {
      milliseconds(5398000), milliseconds(5395500), std::nullopt, milliseconds(5330000)};
  Result<std::string> text = write_pgn(game, clocks);
  ASSERT_TRUE(text.ok());
  const std::string movetext = text.value().substr(text.value().find("\n\n") + 2);
  EXPECT_EQ(movetext,
            "1. e4 {[%clk 1:29:58]} 1... e5 {[%clk 1:29:55]} 2. Nf3 {a developing move} 2...\n"
            "Nc6 {[%clk 1:28:50]} 1/2-1/2\n\n");
  Result<std::vector<PgnGame>> back = read_pgn(text.value(), "export");
  ASSERT_TRUE(back.ok()) << back.error();
  const PgnGame& again = back.value().front();
  EXPECT_EQ(again.moves, game.moves);
  for (std::size_t i = 0; i < clocks.size(); ++i)
    EXPECT_EQ(parse_clk(again.comments[i]),
              clocks[i].has_value()
                  ? std::optional<milliseconds>(milliseconds(clocks[i]->count() / 1000 * 1000))
                  : std::nullopt);
}

TEST(PgnWriter, WritesSetUpAndFenAndABlackStart) {
  PgnGame game;
  game.start = parse_fen("4k3/8/8/8/8/8/4p3/R3K3 b Q - 3 41").value();
  Position pos = game.start;
  for (std::string_view san : {"Kd7", "Ra7+", "Kc6"}) {
    Move m = parse_san(pos, san).value();
    game.moves.push_back(m);
    pos.make(m);
  }
  Result<std::string> text = write_pgn(game);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.value().find(
                "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4p3/R3K3 b Q - 3 41\"]\n\n"
                "41... Kd7 42. Ra7+ Kc6 *\n"),
            std::string::npos)
      << text.value();
}

TEST(PgnWriter, WrapsLongGamesUnderEightyColumns) {
  // 100 plies of knights shuffling, each with a comment, so the wrapping is exercised.
  std::vector<std::string> moves;
  for (int i = 0; i < 25; ++i)
    for (std::string_view m : {"Nf3", "Nf6", "Ng1", "Ng8"}) moves.emplace_back(m);
  PgnGame game = game_from_sans(moves);
  for (std::size_t i = 0; i < game.comments.size(); i += 7)
    game.comments[i] = "a rather long comment that says nothing much at all, twice over: nothing";
  game.comments[3] = std::string(70, 'x') + " " + std::string(70, 'y');
  expect_round_trip(game);
}

TEST(PgnWriter, TurnsAClosingBraceInACommentIntoAParenthesis) {
  PgnGame game = game_from_sans({"e4"});
  game.comments[0] = "a } brace";
  Result<std::string> text = write_pgn(game);
  ASSERT_TRUE(text.ok());
  Result<std::vector<PgnGame>> back = read_pgn(text.value(), "export");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().front().comments, std::vector<std::string>{"a ) brace"});
}

TEST(PgnWriter, RefusesAMoveThatIsNotLegal) {
  PgnGame game = game_from_sans({"e4", "e5"});
  game.moves.push_back(Move(kE1, kE3));
  game.comments.emplace_back();
  Result<std::string> text = write_pgn(game);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error(), "move 2. e1e3 is not legal in its position");
}

TEST(PgnWriter, RoundTripsEveryGoodAwkwardFile) {
  for (const char* name :
       {"comments.pgn", "nags.pgn", "variations.pgn", "setup_fen.pgn", "lenient_san.pgn",
        "escaped_tags.pgn", "multiple_games.pgn", "escape_lines.pgn", "missing_result.pgn"}) {
    SCOPED_TRACE(name);
    for (const PgnGame& game : read_all(name).games) expect_round_trip(game);
  }
}

}  // namespace
}  // namespace eboard::engine
