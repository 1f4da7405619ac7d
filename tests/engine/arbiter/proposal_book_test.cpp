// ProposalBook (engine/arbiter/proposal_book.h): one voice per decision. Proposals on the
// game's result supersede each other, the same result is not opened twice, a penalty is a
// matter of its own, and every withdrawal is kept for its announcement with the seqs the
// publisher gave.
#include "engine/arbiter/proposal_book.h"

#include <gtest/gtest.h>

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

Proposal result(GameResult r, TerminationKind t = TerminationKind::kArbiter) {
  Proposal p;
  p.kind = Proposal::Kind::kGameEnd;
  p.result = r;
  p.termination = t;
  return p;
}

Proposal time_penalty(Color offender) {
  Proposal p;
  p.kind = Proposal::Kind::kTimePenalty;
  p.offender = offender;
  p.amount = milliseconds(120000);
  return p;
}

Proposal claim(ClaimKind kind, bool accepted) {
  Proposal p;
  p.kind = Proposal::Kind::kClaim;
  events::ClaimDecided d;
  d.kind = kind;
  d.accepted = accepted;
  p.decided = GameEvent(milliseconds(0), d);
  return p;
}

TEST(ProposalBook, ANewResultSupersedesTheOpenOne) {
  ProposalBook book;
  const auto penalty = book.open(time_penalty(kWhite), EventVisibility::kArbiter, milliseconds(1));
  const auto white =
      book.open(result(GameResult::kWhiteWins), EventVisibility::kPublic, milliseconds(2));
  book.published(penalty.handle, 10);
  book.published(white.handle, 11);
  EXPECT_TRUE(book.take_withdrawals().empty());
  const auto black =
      book.open(result(GameResult::kBlackWins), EventVisibility::kPublic, milliseconds(3));
  ASSERT_TRUE(black.is_new);
  book.published(black.handle, 12);
  const auto open = book.open_proposals();
  ASSERT_EQ(open.size(), 2u) << "the penalty is a matter of its own";
  EXPECT_EQ(open[0].first, penalty.handle);
  EXPECT_EQ(open[1].first, black.handle);
  const auto gone = book.take_withdrawals();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].seq, 11u);
  EXPECT_EQ(gone[0].reason, WithdrawReason::kSuperseded);
  EXPECT_EQ(gone[0].superseded_by, 12u);
  EXPECT_EQ(gone[0].at, milliseconds(3));
  EXPECT_EQ(gone[0].visibility, EventVisibility::kPublic);
  EXPECT_TRUE(book.take_withdrawals().empty()) << "taken once";
  EXPECT_EQ(book.for_ruling(11), 0u) << "a withdrawn proposal settles nothing";
  ASSERT_NE(book.named(11), nullptr);
  EXPECT_EQ(closed_reason(book, *book.named(11)),
            "withdrawn (superseded by seq 12: a newer proposal on the game's result replaces it)");
}

TEST(ProposalBook, TheSameResultIsNotOpenedTwice) {
  ProposalBook book;
  const auto first =
      book.open(result(GameResult::kWhiteWins), EventVisibility::kPublic, milliseconds(1));
  const auto again =
      book.open(result(GameResult::kWhiteWins), EventVisibility::kPublic, milliseconds(2));
  EXPECT_FALSE(again.is_new);
  EXPECT_EQ(again.handle, first.handle);
  EXPECT_EQ(book.open_proposals().size(), 1u);
  const auto other = book.open(result(GameResult::kWhiteWins, TerminationKind::kTimeForfeit),
                               EventVisibility::kPublic, milliseconds(3));
  EXPECT_TRUE(other.is_new) << "another reason is another proposal";
}

TEST(ProposalBook, AClaimOnTheResultIsOneMatterWithIt) {
  ProposalBook book;
  const auto white =
      book.open(result(GameResult::kWhiteWins), EventVisibility::kPublic, milliseconds(1));
  const auto incorrect =
      book.open(claim(ClaimKind::kThreefold, false), EventVisibility::kPublic, milliseconds(2));
  EXPECT_EQ(book.open_proposals().size(), 2u) << "an incorrect claim only costs time";
  const auto draw =
      book.open(claim(ClaimKind::kThreefold, true), EventVisibility::kPublic, milliseconds(3));
  const auto open = book.open_proposals();
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].first, incorrect.handle);
  EXPECT_EQ(open[1].first, draw.handle);
  EXPECT_EQ(book.get(white.handle)->state, ProposalState::kWithdrawn);
}

TEST(ProposalBook, RulingsSettleTheNamedOrTheNewestOpen) {
  ProposalBook book;
  const auto a = book.open(time_penalty(kWhite), EventVisibility::kArbiter, milliseconds(1));
  const auto b = book.open(time_penalty(kBlack), EventVisibility::kArbiter, milliseconds(2));
  book.published(a.handle, 5);
  book.published(b.handle, 7);
  book.published(b.handle, 8);
  EXPECT_EQ(book.for_ruling(std::nullopt), b.handle);
  EXPECT_EQ(book.for_ruling(5), a.handle);
  EXPECT_EQ(book.for_ruling(8), b.handle) << "any of its seqs names it";
  EXPECT_EQ(book.get(b.handle)->seq(), 7u) << "a penalty is listed under its first event";
  book.settle(b.handle, RulingDecision::kReject);
  EXPECT_EQ(book.for_ruling(std::nullopt), a.handle);
  EXPECT_EQ(closed_reason(book, *book.named(7)), "already settled (rejected)");
  book.withdraw_all(WithdrawReason::kGameEnded, "the game is over", milliseconds(9));
  const auto gone = book.take_withdrawals();
  ASSERT_EQ(gone.size(), 1u) << "a settled proposal is not withdrawn";
  EXPECT_EQ(gone[0].handle, a.handle);
  EXPECT_EQ(book.for_ruling(std::nullopt), 0u);
}

TEST(ProposalBook, AResultIsListedUnderItsGameEnded) {
  ProposalBook book;
  const auto loss = book.open(result(GameResult::kBlackWins, TerminationKind::kIllegalMove),
                              EventVisibility::kPublic, milliseconds(1));
  book.published(loss.handle, 20);  // the penalty's "game lost"
  book.published(loss.handle, 21);  // the proposed gameEnded
  EXPECT_EQ(book.get(loss.handle)->seq(), 21u);
  EXPECT_EQ(book.for_ruling(20), loss.handle);
}

}  // namespace
}  // namespace eboard::engine
