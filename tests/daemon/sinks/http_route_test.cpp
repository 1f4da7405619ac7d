#include "daemon/sinks/http_route.h"

#include <gtest/gtest.h>

#include "daemon/sinks/broadcast_boards.h"
#include "daemon/sinks/clock_display.h"

namespace eboard::daemon {
namespace {

TEST(HttpRoute, KnownTargets) {
  EXPECT_EQ(parse_route("/").kind, RouteKind::kIndex);
  EXPECT_EQ(parse_route("/live.pgn").kind, RouteKind::kLivePgn);
  Route r = parse_route("/boards/b-1_x.pgn");
  EXPECT_EQ(r.kind, RouteKind::kBoardPgn);
  EXPECT_EQ(r.board, "b-1_x");
  r = parse_route("/overlay?board=b1&transparent=1");
  EXPECT_EQ(r.kind, RouteKind::kOverlay);
  EXPECT_EQ(r.board, "b1");
  r = parse_route("/ws?format=binary&board=b%31");
  EXPECT_EQ(r.kind, RouteKind::kWebSocket);
  EXPECT_EQ(r.board, "b1");
  EXPECT_TRUE(r.binary);
  EXPECT_FALSE(parse_route("/ws?board=b1").binary);
}

TEST(HttpRoute, RejectsWhatItDoesNotKnow) {
  EXPECT_EQ(parse_route("").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("live.pgn").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("/boards/../etc/passwd.pgn").kind, RouteKind::kNotFound);
  EXPECT_EQ(parse_route("/boards/.pgn").kind, RouteKind::kNotFound);
  EXPECT_EQ(parse_route("/overlay").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("/overlay?board=%2").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("/overlay?board=a%20b").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("/ws?board=b1&format=xml").kind, RouteKind::kBadRequest);
  EXPECT_EQ(parse_route("/etc/passwd").kind, RouteKind::kNotFound);
  EXPECT_EQ(parse_route("/" + std::string(5000, 'a')).kind, RouteKind::kBadRequest);
}

TEST(HttpRoute, EntityTags) {
  const std::string tag = entity_tag("1. e4 *");
  EXPECT_NE(tag, entity_tag("1. d4 *"));
  EXPECT_EQ(tag.front(), '"');
  EXPECT_TRUE(etag_matches(tag, tag));
  EXPECT_TRUE(etag_matches("\"x\", " + tag, tag));
  EXPECT_TRUE(etag_matches("W/" + tag, tag));
  EXPECT_TRUE(etag_matches("*", tag));
  EXPECT_FALSE(etag_matches("", tag));
  EXPECT_FALSE(etag_matches("\"other\"", tag));
}

TEST(ClockDisplay, TextsForPublicEvents) {
  namespace v1 = eboard::v1;
  v1::Event e;
  e.set_visibility(v1::VISIBILITY_PUBLIC);
  e.mutable_move_completed()->set_ply(23);
  e.mutable_move_completed()->set_san("Nf3+");
  e.mutable_move_completed()->set_side(v1::SIDE_WHITE);
  EXPECT_EQ(clock_text_for(e), "12.Nf3+ ");
  e.mutable_move_completed()->set_ply(24);
  e.mutable_move_completed()->set_san("exd8=Q+");
  e.mutable_move_completed()->set_side(v1::SIDE_BLACK);
  EXPECT_EQ(clock_text_for(e), "exd8=Q+ ");
  e.mutable_illegal_move_completed();
  EXPECT_EQ(clock_text_for(e), "ILLEGAL ");
  e.set_visibility(v1::VISIBILITY_ARBITER);
  EXPECT_EQ(clock_text_for(e), "");  // docs/rules.md D14
  e.set_visibility(v1::VISIBILITY_PUBLIC);
  e.mutable_game_ended()->set_result("1/2-1/2");
  EXPECT_EQ(clock_text_for(e), "1/2-1/2 ");
  e.mutable_flag_fell()->set_side(v1::SIDE_BLACK);
  EXPECT_EQ(clock_text_for(e), "FLAG B  ");
}

}  // namespace
}  // namespace eboard::daemon
