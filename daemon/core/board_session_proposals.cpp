// BoardSession and the arbiter's proposals (docs/rules.md §0, the authority rule): the
// engine keeps them (RulesArbiter::proposals, engine/arbiter/proposal_book.h); the session
// answers the status query from that record, refuses a ruling that names no open one with
// the reason, and publishes each withdrawal as a proposalWithdrawn event.
#include "daemon/core/board_session.h"
#include "daemon/event_mapping.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Proposal;

v1::Ack refused(const std::string& error) {
  v1::Ack a;
  a.set_ok(false);
  a.set_code(v1::ACK_ERROR_REJECTED);
  a.set_error(error);
  return a;
}

v1::Side side_of(engine::Color c) { return c == engine::kWhite ? v1::SIDE_WHITE : v1::SIDE_BLACK; }

v1::Side winner_of(engine::GameResult result) {
  switch (result) {
    case engine::GameResult::kWhiteWins: return v1::SIDE_WHITE;
    case engine::GameResult::kBlackWins: return v1::SIDE_BLACK;
    default: return v1::SIDE_UNSPECIFIED;
  }
}

// "threefold claim: correct", "fifty claim: incorrect (+120 s to black)": the engine's
// verdict the arbiter is asked to confirm.
std::string claim_text(const engine::events::ClaimDecided& d) {
  std::string text = std::string(engine::claim_kind_word(d.kind)) + " claim";
  text += d.accepted ? ": correct" : ": incorrect";
  if (d.penalty.count() > 0 && d.side) {
    text += " (+" + std::to_string(d.penalty.count() / 1000) + " s to " +
            (*d.side == engine::kWhite ? "black" : "white") + ")";
  }
  return text;
}

v1::Proposal shown(const Proposal& p, const std::string& board_id) {
  v1::Proposal out;
  out.set_seq(static_cast<std::uint32_t>(p.seq()));
  for (const std::uint64_t seq : p.seqs) out.add_seqs(static_cast<std::uint32_t>(seq));
  out.set_board_id(board_id);
  out.set_at_ms(static_cast<std::int32_t>(p.at.count()));
  out.set_visibility(p.visibility == engine::EventVisibility::kPublic ? v1::VISIBILITY_PUBLIC
                                                                      : v1::VISIBILITY_ARBITER);
  switch (p.kind) {
    case Proposal::Kind::kGameEnd:
      out.set_kind(v1::PROPOSAL_KIND_RESULT);
      out.set_result(std::string(engine::result_text(p.result)));
      out.set_termination(v1::Termination(int(p.termination) + 1));
      out.set_side(winner_of(p.result));
      out.set_description(p.description);
      break;
    case Proposal::Kind::kTimePenalty:
      out.set_kind(v1::PROPOSAL_KIND_PENALTY);
      out.set_side(side_of(p.offender));
      out.set_description(p.description);
      break;
    case Proposal::Kind::kClaim:
      out.set_kind(v1::PROPOSAL_KIND_CLAIM);
      if (const auto* d = p.decided.get<engine::events::ClaimDecided>()) {
        if (d->side) out.set_side(side_of(*d->side));
        out.set_description(d->description.empty() ? claim_text(*d) : d->description);
      }
      break;
  }
  return out;
}

}  // namespace

std::vector<v1::Proposal> BoardSession::open_proposals() const {
  std::vector<v1::Proposal> open;
  if (!arbiter_) return open;
  for (const auto& [handle, p] : arbiter_->proposals().open_proposals()) {
    if (!p->seqs.empty()) open.push_back(shown(*p, board_id_));  // unpublished: not rulable
  }
  return open;
}

// A ruling names its proposal by `Ruling.seq`, or without one takes the newest open
// proposal, as the arbiter chooses; anything else is refused before the engine sees it.
std::optional<v1::Ack> BoardSession::check_ruling(const engine::OperatorAction& a) const {
  const engine::ProposalBook& book = arbiter_->proposals();
  if (!a.seq) {
    if (book.for_ruling(std::nullopt) == 0)
      return refused("ruling: board " + board_id_ + " has no open proposal to rule on");
    return std::nullopt;
  }
  const std::string named = "ruling.seq: " + std::to_string(*a.seq);
  const Proposal* p = book.named(*a.seq);
  if (!p) {
    return refused(named + " names no proposal of board " + board_id_ +
                   "'s game (a proposal is an event with `proposed` or an unapplied penalty, "
                   "published in this game)");
  }
  if (!p->open()) {
    return refused(named + ": that proposal of board " + board_id_ + " is " +
                   engine::closed_reason(book, *p) + "; nothing was changed");
  }
  return std::nullopt;
}

void BoardSession::publish_withdrawals() {
  if (!arbiter_) return;
  for (const engine::Withdrawal& w : arbiter_->proposals().take_withdrawals()) {
    if (replay_ || w.seq == 0) continue;  // the journal has it; or it was never published
    publish_event(to_proto(w, EventEnvelope{board_id_, 0, game_id_, rules_name_}));
  }
}

}  // namespace eboard::daemon
