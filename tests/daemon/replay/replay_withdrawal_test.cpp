// eboard-replay publishes what eboardd publishes when a proposal leaves the book without a
// ruling (docs/rules.md §0.2 proposal_withdrawn): after the batch that withdrew it, under
// the next seq, naming the proposal's seqs, told to whoever was told of the proposal.
// docs/rules.md §4 scenario 10: the penalty proposed for Black's illegal move lapses when
// White makes his move without a claim.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "tests/daemon/golden_runner.h"

namespace eboard {
namespace {

namespace v1 = eboard::v1;

const std::filesystem::path kScript =
    std::filesystem::path(EBOARD_SOURCE_DIR) / "tests/golden/rules/10_rapid_proposal_lapses.ebs";

std::vector<v1::Event> parse(const std::string& jsonl) {
  std::vector<v1::Event> events;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    v1::Event e;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(line, &e).ok()) << line;
    events.push_back(e);
  }
  return events;
}

TEST(ReplayWithdrawal, ALapsedPenaltyIsPublishedAsProposalWithdrawn) {
  const std::string printed = golden::replay_program(kScript);
  EXPECT_EQ(printed, golden::replay_in_process(kScript)) << "the program prints the session";
  const std::vector<v1::Event> events = parse(printed);
  const v1::Event* penalty = nullptr;
  const v1::Event* withdrawn = nullptr;
  std::size_t withdrawn_at = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].seq(), i + 1) << "numbered without gaps, the withdrawal included";
    if (events[i].has_penalty() && !events[i].penalty().applied()) penalty = &events[i];
    if (events[i].has_proposal_withdrawn()) {
      EXPECT_EQ(withdrawn, nullptr) << "one withdrawal";
      withdrawn = &events[i];
      withdrawn_at = i;
    }
  }
  ASSERT_NE(penalty, nullptr);
  ASSERT_NE(withdrawn, nullptr) << printed;
  const v1::ProposalWithdrawn& w = withdrawn->proposal_withdrawn();
  EXPECT_EQ(w.proposal_seq(), penalty->seq());
  EXPECT_EQ(std::vector<std::uint32_t>(w.seqs().begin(), w.seqs().end()),
            std::vector<std::uint32_t>{penalty->seq()});
  EXPECT_EQ(w.reason(), v1::WITHDRAWN_REASON_LAPSED);
  EXPECT_EQ(w.superseded_by(), 0u);
  EXPECT_FALSE(w.description().empty());
  EXPECT_EQ(withdrawn->visibility(), penalty->visibility());
  EXPECT_EQ(withdrawn->game_id(), penalty->game_id());
  EXPECT_EQ(withdrawn->rules(), "fide-rapid");
  EXPECT_EQ(withdrawn->board_id(), penalty->board_id());
  // White began his move: the claim window closed (D5) and the penalty lapsed; the
  // withdrawal follows that batch, at its time, before the move completes.
  ASSERT_GE(withdrawn_at, 2u);
  const v1::Event& closed = events[withdrawn_at - 2];
  EXPECT_TRUE(closed.has_claim_window_closed()) << closed.ShortDebugString();
  EXPECT_TRUE(events[withdrawn_at - 1].has_illegal_move_stood());
  EXPECT_EQ(withdrawn->at_ms(), closed.at_ms());
  ASSERT_LT(withdrawn_at + 1, events.size());
  EXPECT_TRUE(events[withdrawn_at + 1].has_move_completed());
  EXPECT_GT(events[withdrawn_at + 1].at_ms(), withdrawn->at_ms());
}

}  // namespace
}  // namespace eboard
